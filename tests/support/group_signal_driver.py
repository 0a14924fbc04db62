"""A bot-like process whose worker processes are busy when a signal reaches its whole
process group (issue 43 item 3), for tests/test_group_signals.py.

    python tests/support/group_signal_driver.py KIND [DB]

KIND is ``render`` (the Discord adapter's :class:`~bot.adapters.discord.renderer.Renderer`,
drawing many boards), ``ai`` (:class:`~bot.ai.runner.AIRunner`'s process pool, running a
job of a few seconds) or ``grading`` (the real :class:`~bot.service.grading.service.Grader`
with the real :class:`~bot.ai.background.BackgroundAnalyser`, whose analysis of a game is
made a few seconds longer in the worker; DB holds a match queued for grading).  The process
stops as the bot does (:class:`bot.runtime.Stopper`): the first SIGTERM or SIGINT sets it
stopping; the job in flight finishes (grading: after the actions in flight drained, the
grader stops and gives its match back to the queue, as the bot's lifecycle stops it), then
the workers are stopped by this process (:func:`bot.runtime.stop_children`).

It prints JSON lines: ``ready`` (with the workers' pids) once the job is in flight, then
``done`` with what the job answered, which workers were alive just after the signal, and
which had to be terminated at the end.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from slow_work import slow_analyze, slow_pid

from bot.runtime import Stopper, stop_children

JOB_SECONDS = 4.0
"""How long the job in flight keeps its worker busy."""


def say(event: str, **data: Any) -> None:
    print(json.dumps({"event": event, **data}), flush=True)


def alive(pids: list[int]) -> list[int]:
    out = []
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state not in ("Z", "X"):
            out.append(pid)
    return out


async def render(stopper: Stopper) -> dict[str, Any]:
    from bot.adapters.discord.renderer import Renderer
    from render import render_png
    from render.gallery import examples

    views = list(examples().values())
    renderer = Renderer(workers=1)
    await renderer.start()
    pids = renderer.pids
    many = views * 40  # a few seconds of drawing in the one worker
    job = asyncio.ensure_future(renderer.pngs(many))
    await asyncio.sleep(0.3)
    say("ready", workers=pids)
    await stopper.stopped.wait()
    await asyncio.sleep(0.5)
    after = alive(pids)
    try:
        pngs = await job
        answer = ("ok" if pngs[:len(views)] == [render_png(v) for v in views]
                  and len(pngs) == len(many) else "wrong pictures")
    except Exception as error:
        answer = f"{type(error).__name__}: {error}"
    same = renderer.pids == pids  # drawn by the same worker, none replaced
    renderer.close()
    return {"answer": answer, "alive_after_signal": after, "workers": pids,
            "same_workers": same}


async def ai(stopper: Stopper) -> dict[str, Any]:
    from bot.ai.runner import AIRunner

    runner = AIRunner(processes=True, workers=1, time_limit=60.0)
    await runner.start()
    pids = [p.pid or 0 for p in multiprocessing.active_children()]
    job = asyncio.ensure_future(runner.run(slow_pid, JOB_SECONDS))
    await asyncio.sleep(0.3)
    say("ready", workers=pids)
    await stopper.stopped.wait()
    await asyncio.sleep(0.5)
    after = alive(pids)
    try:
        answer = "ok" if await job in pids else "another process answered"
    except Exception as error:
        answer = f"{type(error).__name__}: {error}"
    runner.close()
    return {"answer": answer, "alive_after_signal": after, "workers": pids}


async def grading(stopper: Stopper, db: str) -> dict[str, Any]:
    from bot.ai.background import BackgroundAnalyser
    from bot.ai.runner import AIRunner
    from bot.config import Config
    from bot.service.game import GameService
    from bot.service.grading.service import Grader
    from bot.storage.sqlite import SqliteStorage

    class Slow(BackgroundAnalyser):
        async def analyze(self, record: Any, context: Any = None, level: Any = None, *,
                          timeout: float = 120.0) -> Any:
            return await self.run(slow_analyze, record, context, JOB_SECONDS,
                                  timeout=timeout)

    storage = SqliteStorage(db)
    await storage.open()
    live = AIRunner(processes=False)  # (grading needs the AI switched on)
    service = GameService(storage, Config(), ai=live)

    async def post(channel: int, reply: Any) -> None:
        del channel, reply

    analyser = Slow()
    grader = Grader(storage, service.grading, analyser, post, lease=30.0, poll=0.2)
    grader.start()  # (stopped by the bot's lifecycle: grader.stop)
    while analyser.pid is None:
        await asyncio.sleep(0.05)
    pids = [analyser.pid]
    await asyncio.sleep(1.0)  # the worker is analysing
    say("ready", workers=pids)
    await stopper.stopped.wait()
    await asyncio.sleep(1.0)  # the bot drains the actions in flight, then stops the grader
    after = alive(pids)
    stats = grader.stats
    answer = ("still grading" if not stats.failed and not stats.graded
              else f"ended: {stats.failed} failed, {stats.graded} graded")
    await grader.stop()
    async with storage.snapshot() as tx:
        rows = await tx._all("SELECT status, error FROM grading_jobs")
    live.close()
    await storage.close()
    return {"answer": answer, "alive_after_signal": after, "workers": pids,
            "jobs": [list(r) for r in rows]}


async def main(kind: str, db: str | None) -> int:
    stopper = Stopper().install()
    started = time.monotonic()
    if kind == "render":
        done = await render(stopper)
    elif kind == "ai":
        done = await ai(stopper)
    else:
        assert db is not None
        done = await grading(stopper, db)
    stopper.remove()
    forced = await asyncio.to_thread(stop_children)
    say("done", signal=stopper.signal, forced=forced, seconds=time.monotonic() - started,
        **done)
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None)))

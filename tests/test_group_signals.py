"""A signal to the whole process group (issue 43 item 3): real signals, sent with
``os.killpg`` to a real process group, while each kind of worker process is busy.

The terminal's Ctrl-C sends SIGINT to every process of the foreground group, and systemd's
default ``KillMode=control-group`` SIGTERMs every process of the service at once.  The
workers (render, AI, grading) must leave such a signal to the bot: the job in flight is
finished by the worker that had it, the workers are still running after the signal, and
the bot stops them itself at the end (none has to be terminated, none is left behind); a
grading job under way goes back to the queue, saying the bot stopped.  Before the fix a
SIGTERM to the group killed every worker at once (the Discord bot's ``/analyze`` then
logged "unexpected error ... in long work").

The process is tests/support/group_signal_driver.py, a bot-like process with the real
workers and the bot's own stopping (:class:`bot.runtime.Stopper`), started as the leader of
a process group of its own."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from bot_process import ROOT, alive
from grading import ALICE, BLUNDER, BOB, OPENING, ok
from scripted import Script

from bot.ai.runner import AIRunner
from bot.config import Config
from bot.service.core.values import Place
from bot.service.game import GameService
from bot.storage.sqlite import SqliteStorage

pytestmark = pytest.mark.slow

DRIVER = ROOT / "tests" / "support" / "group_signal_driver.py"


def run(kind: str, sig: int, *args: str) -> dict[str, Any]:
    """The driver in a process group of its own; ``sig`` to the whole group once its
    workers are busy; what it reports at the end."""
    proc = subprocess.Popen([sys.executable, str(DRIVER), kind, *args], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        assert proc.stdout is not None
        ready = json.loads(proc.stdout.readline() or "{}")
        assert ready.get("event") == "ready", proc.communicate(timeout=60)[1].decode()[-3000:]
        group = os.getpgid(proc.pid)
        assert group == proc.pid and set(ready["workers"]) and all(
            os.getpgid(w) == group for w in ready["workers"])  # the workers are in the group
        os.killpg(group, sig)
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    text = err.decode()
    assert proc.returncode == 0, text[-3000:]
    assert "Traceback" not in text and "ERROR" not in text, text[-3000:]
    done = json.loads(out.decode().splitlines()[-1])
    assert done["event"] == "done" and done["signal"] == sig
    assert done["alive_after_signal"] == done["workers"], done  # the signal was the bot's
    assert done["forced"] == [], done  # stopped by the bot, not terminated
    assert alive(done["workers"]) == []  # and none left behind
    return done


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_render_workers_finish_their_boards_and_stop_with_the_bot(sig: int) -> None:
    done = run("render", sig)
    assert done["answer"] == "ok" and done["same_workers"], done


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_the_ai_worker_finishes_its_job_and_stops_with_the_bot(sig: int) -> None:
    done = run("ai", sig)
    assert done["answer"] == "ok", done


async def queued_match(db: Path) -> None:
    """A 1-point match ended (bob's 8/4 blunder, alice resigns), queued for grading."""
    storage = SqliteStorage(db)
    await storage.open()
    ai = AIRunner(processes=False)
    try:
        service = GameService(storage, Config(), dice=Script(OPENING), ai=ai)
        here = Place(guild_id=7, channel_id=70)
        ok(await service.challenge(here, ALICE, BOB, length=1))
        ok(await service.accept(here, BOB))
        ok(await service.move(here, BOB, BLUNDER))
        ok(await service.resign(here, ALICE, "single"))
        ended = ok(await service.answer_resignation(here, BOB, True))
        assert "being graded in the background" in ended.text
    finally:
        ai.close()
        await storage.close()


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
async def test_a_grading_job_under_way_goes_back_to_the_queue(tmp_path: Path,
                                                              sig: int) -> None:
    db = tmp_path / "bg.sqlite3"
    await queued_match(db)
    started = time.monotonic()
    import asyncio

    done = await asyncio.to_thread(run, "grading", sig, str(db))
    assert done["answer"] == "still grading", done  # the worker was not killed under it
    assert done["jobs"] == [["queued", "stopped"]], done  # back in the queue, saying why
    assert time.monotonic() - started < 120

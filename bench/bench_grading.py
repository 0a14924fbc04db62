"""The CPU cost of grading every match in the background (issue 33).

Matches between two noisy AI players (the intermediate level, fixed seeds: the same
games every run) are graded the way the bot grades them: each game analysed at the
default depth (GNU 1-ply, bgsage) in the grading worker process
(:class:`bot.ai.background.BackgroundAnalyser`, niced), one game at a time.

* **Time per decision and per match**: wall time of each game's analysis through the
  worker, and the worker's own CPU time (from /proc), per rated decision (unforced
  plays and close or actual cube decisions) and per match; the ratio to the time the
  live AI (strong, the default level) takes to decide the same positions, measured in
  this run.
* **Event-loop lag** while a match is graded: a coroutine sleeps 5 ms in a loop and
  records how late it wakes, during the grading and, for the reference, during the same
  time with nothing running (both in this run).
"""

from __future__ import annotations

import asyncio
import os
import random
import statistics
import sys
import time
from pathlib import Path

from bot.ai.background import BackgroundAnalyser
from bot.ai.context import MatchContext
from bot.ai.levels import DEFAULT_LEVEL, STRONG
from bot.ai.selfplay import play_match
from engine.formats.matfile import MatGame

TICK = 0.005


def _cpu(pid: int | None) -> float:
    """CPU seconds (user + system) of process ``pid`` so far (0 if unknown)."""
    if pid is None:
        return 0.0
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def _ticker(stop: asyncio.Event, lags: list[float]) -> None:
    loop = asyncio.get_running_loop()
    while not stop.is_set():
        start = loop.time()
        await asyncio.sleep(TICK)
        lags.append(max(0.0, loop.time() - start - TICK))


def _pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))] if s else 0.0


async def _grade(analyser: BackgroundAnalyser, matches: list[tuple[int, list[MatGame]]]
                 ) -> tuple[list[tuple[int, float, float, int]], list[float]]:
    """Grade every match; per match (decisions, wall s, worker CPU s, games), and the
    event loop's lags meanwhile."""
    stop = asyncio.Event()
    lags: list[float] = []
    ticker = asyncio.create_task(_ticker(stop, lags))
    out = []
    try:
        for length, games in matches:
            started, decisions = time.perf_counter(), 0
            cpu0 = _cpu(analyser.pid)
            for g in games:
                ctx = MatchContext(length, g.score) if length else MatchContext.money()
                result = await analyser.analyze(g.record, ctx, DEFAULT_LEVEL, timeout=600)
                decisions += sum(p.decisions for p in result.players)
            out.append((decisions, time.perf_counter() - started,
                        _cpu(analyser.pid) - cpu0, len(games)))
    finally:
        stop.set()
        await ticker
    return out, lags


async def _idle(seconds: float) -> list[float]:
    stop = asyncio.Event()
    lags: list[float] = []
    ticker = asyncio.create_task(_ticker(stop, lags))
    await asyncio.sleep(seconds)
    stop.set()
    await ticker
    return lags


def _decide_ms(matches: list[tuple[int, list[MatGame]]], sample: int) -> float:
    """The live AI's (strong) median time per decision on positions of these games."""
    from bot.ai.player import decide
    from bot.ai.stored import start_of

    rng = random.Random(5)
    states = []
    for length, games in matches:
        for g in games:
            game = start_of(g.record)
            ctx = MatchContext(length, g.score) if length else MatchContext.money()
            for event in g.record.events:
                if game.awaiting is not None and game.phase.name in ("PLAY", "ROLL") and (
                        game.phase.name == "ROLL" or len(game.legal_plays()) > 1):
                    states.append((game, ctx))
                game = game.apply(event)
    rng.shuffle(states)
    times = []
    for game, ctx in states[:sample]:
        t = time.perf_counter()
        decide(game, ctx, STRONG, rng)
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1000


def run(quick: bool) -> list[str]:
    plan = [(3, 12)] if quick else [(5, 30), (5, 31), (7, 40), (0, 21)]
    matches = [(length, play_match(length, seed, games=4)) for length, seed in plan]
    analyser = BackgroundAnalyser(nice=10)
    try:
        # The worker starts and loads its networks once; not part of a match's cost.
        warm = asyncio.run(_warm(analyser, matches[0]))
        graded, lags = asyncio.run(_grade(analyser, matches))
    finally:
        analyser.close()
    seconds = sum(w for _, w, _, _ in graded)
    idle = asyncio.run(_idle(min(seconds, 10.0)))
    decisions = sum(d for d, _, _, _ in graded)
    cpu = sum(c for _, _, c, _ in graded)
    games = sum(n for _, _, _, n in graded)
    decide_ms = _decide_ms(matches, 40 if quick else 150)
    per_decision = seconds / decisions * 1000
    lines = [f"{len(graded)} matches ({games} games, {decisions} rated decisions) graded at "
             f"GNU 1-ply in the niced worker (start-up and networks {warm:.1f} s, once)"]
    for (length, _), (d, wall, c, n) in zip(matches, graded, strict=True):
        what = f"{length}-point match" if length else "money session"
        lines.append(f"  {what}, {n} games, {d} decisions: {wall:.1f} s wall, "
                     f"{c:.1f} s CPU of the worker")
    lines.append(f"per decision: {per_decision:.0f} ms wall, {cpu / decisions * 1000:.0f} ms "
                 f"CPU; per match: {seconds / len(graded):.1f} s wall on average; "
                 f"**{per_decision / decide_ms:.1f}x** the live AI's median decision "
                 f"(strong, {decide_ms:.0f} ms) on the same positions")
    lines.append(f"event-loop lag while grading (5 ms ticks): p50 {_pct(lags, .5) * 1000:.2f}"
                 f" / p95 {_pct(lags, .95) * 1000:.2f} / p99 {_pct(lags, .99) * 1000:.2f}"
                 f" / max {max(lags, default=0) * 1000:.1f} ms; idle, same run: p50 "
                 f"{_pct(idle, .5) * 1000:.2f} / p95 {_pct(idle, .95) * 1000:.2f} / p99 "
                 f"{_pct(idle, .99) * 1000:.2f} / max {max(idle, default=0) * 1000:.1f} ms")
    return lines


async def _warm(analyser: BackgroundAnalyser, match: tuple[int, list[MatGame]]) -> float:
    length, games = match
    started = time.perf_counter()
    g = games[0]
    await analyser.analyze(g.record, MatchContext(length, g.score) if length
                           else MatchContext.money(), DEFAULT_LEVEL, timeout=600)
    return time.perf_counter() - started


if __name__ == "__main__":
    for line in run("--quick" in sys.argv):
        print(line, flush=True)

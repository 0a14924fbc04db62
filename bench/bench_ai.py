"""The AI: decision time by level, strength against the heuristic, event-loop lag.

* **Time per decision** at each level (``bot.ai.player.decide``, in-process,
  networks loaded beforehand): checker plays and cube decisions (double or
  roll; take or drop) on positions met in self-play games (fixed seed);
  p50 and p95 in milliseconds.  Target: p95 under 1 s at the default level.
* **Strength**: the default level against the heuristic player
  (:mod:`bot.ai.heuristic`, also used for the variants) in money games with
  the cube off (checker play only) and on, colours alternating; points per
  game for the AI with a 95% confidence interval (normal approximation,
  ``1.96 * sd / sqrt(n)``).  With the cube on, the heuristic's naive takes
  (it always takes in contact) let the cube climb, so the mean is dominated by
  a few huge games: the median is shown too.  Games run in two processes.
* **Event-loop lag** while the AI works through :class:`bot.ai.runner.AIRunner`:
  a coroutine sleeps 5 ms in a loop during a series of decisions and records
  how late it wakes; process pool (the default) against a thread pool.
"""

from __future__ import annotations

import asyncio
import math
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

from bot.ai import sage
from bot.ai.context import MatchContext
from bot.ai.levels import DEFAULT_LEVEL, INTERMEDIATE, LEVELS, EvalDepth, Level
from bot.ai.player import apply_decision, decide
from bot.ai.runner import AIRunner
from bot.ai.selfplay import play_vs_heuristic_job
from engine.dice import Dice
from engine.game import Game, Phase


def _roll(rng: random.Random) -> Dice:
    return Dice(rng.randint(1, 6), rng.randint(1, 6))


def _opening(g: Game, rng: random.Random) -> Game:
    while g.phase is Phase.OPENING:
        g = g.opening_roll(rng.randint(1, 6), rng.randint(1, 6))
    return g


def corpus(seed: int, plays: int, cubes: int) -> tuple[list[Game], list[Game]]:
    """Checker-play states and cube states (may double, or answering a double)."""
    rng = random.Random(seed)
    play_states: list[Game] = []
    cube_states: list[Game] = []
    while len(play_states) < plays or len(cube_states) < cubes:
        g = _opening(Game.new("standard"), rng)
        while not g.is_finished:
            g = _opening(g, rng)
            if g.phase is Phase.PLAY and len(g.legal_plays()) > 1 and rng.random() < 0.3:
                play_states.append(g)
            if g.phase is Phase.ROLL and g.turn is not None and g.may_double(g.turn) \
                    and rng.random() < 0.3:
                cube_states.append(g)
                if rng.random() < 0.3:
                    cube_states.append(g.double(g.turn))
            d = decide(g, MatchContext(), INTERMEDIATE, rng)
            g = apply_decision(g, d, _roll(rng))
    return play_states[:plays], cube_states[:cubes]


def _pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def timing(quick: bool) -> list[str]:
    n = 15 if quick else 100
    plays, cubes = corpus(1, n, n)
    sage.warm_up()
    lines = ["time per decision (ms), in-process:",
             f"  {'level':<13}{'depth':<12}{'play p50':>9}{'p95':>8}{'cube p50':>10}{'p95':>8}"]
    for level in LEVELS.values():
        k = n if level.depth is not EvalDepth.PLY3 else max(8, n // 3)
        rng = random.Random(2)
        res = []
        for states in (plays[:k], cubes[:k]):
            ts = []
            for g in states:
                t0 = time.perf_counter()
                decide(g, MatchContext(), level, rng)
                ts.append((time.perf_counter() - t0) * 1000)
            res.append((_pct(ts, 0.5), _pct(ts, 0.95)))
        depth = f"{level.depth.value} ({level.depth.gnubg_name})"
        mark = " (default)" if level is DEFAULT_LEVEL else ""
        lines.append(f"  {level.name:<13}{depth:<12}{res[0][0]:>9.0f}{res[0][1]:>8.0f}"
                     f"{res[1][0]:>10.0f}{res[1][1]:>8.0f}{mark}   n={k}")
    return lines


def strength(quick: bool) -> list[str]:
    n = 24 if quick else 300
    lines = [f"strength: {DEFAULT_LEVEL.name} vs heuristic, {n} money games each:"]
    for cube in (False, True):
        jobs = [(s, DEFAULT_LEVEL.name, cube) for s in range(n)]
        with ProcessPoolExecutor(max_workers=2) as pool:
            pts = list(pool.map(play_vs_heuristic_job, jobs))
        mean = statistics.fmean(pts)
        half = 1.96 * statistics.stdev(pts) / math.sqrt(n)
        wins = sum(1 for p in pts if p > 0)
        lines.append(
            f"  cube {'on ' if cube else 'off'}: points per game {mean:+.3f}  95% CI "
            f"[{mean - half:+.3f}, {mean + half:+.3f}]   wins {wins}/{n} "
            f"({100 * wins / n:.0f}%)   median {statistics.median(pts):+g}, max {max(pts):+d}")
    return lines


async def _lag_during(runner: AIRunner, states: list[Game], level: Level) -> list[float]:
    lags: list[float] = []
    done = False

    async def ticker() -> None:
        while not done:
            t0 = time.perf_counter()
            await asyncio.sleep(0.005)
            lags.append((time.perf_counter() - t0 - 0.005) * 1000)

    t = asyncio.create_task(ticker())
    rng = random.Random(3)
    for g in states:
        await runner.decide(g, MatchContext(), level, rng)
    done = True
    await t
    return lags


def lag(quick: bool) -> list[str]:
    n = 10 if quick else 40
    plays, cubes = corpus(4, n, n)
    states = [s for pair in zip(plays, cubes, strict=True) for s in pair]
    lines = ["event-loop lag while the AI decides (ms; 5 ms sleeps):"]
    for processes in (True, False):
        runner = AIRunner(processes=processes, workers=1, time_limit=60)
        try:
            asyncio.run(runner_start(runner))
            for level in (DEFAULT_LEVEL, LEVELS["expert"]):
                sts = states if level is DEFAULT_LEVEL else states[: max(4, n // 4)]
                lags = asyncio.run(_lag_during(runner, sts, level))
                kind = "process pool" if processes else "thread pool "
                lines.append(f"  {kind} {level.name:<8} {len(sts):>3} decisions: lag p50 "
                             f"{_pct(lags, 0.5):.1f}  p95 {_pct(lags, 0.95):.1f}  "
                             f"max {max(lags):.1f}")
        finally:
            runner.close()
    return lines


async def runner_start(runner: AIRunner) -> None:
    await runner.start()


def run(quick: bool) -> list[str]:
    return [*timing(quick), *lag(quick), *strength(quick)]


if __name__ == "__main__":
    import sys

    for line in run("--quick" in sys.argv):
        print(line, flush=True)

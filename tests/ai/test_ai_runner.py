"""bot.ai.runner: decisions off the event loop, with a time limit and a fallback.

No timing thresholds here: the lag figures are in bench/bench_ai.py.  The tests
check that the event loop keeps running other tasks while the AI thinks, and
that a decision that overruns its limit is replaced by a legal fallback.
"""

from __future__ import annotations

import asyncio
import random
import time

from bot.ai.context import MatchContext
from bot.ai.levels import EXPERT, STRONG, Level
from bot.ai.player import Decision
from bot.ai.runner import AIRunner, decide_seeded
from engine.dice import Dice
from engine.game import Game
from engine.player import Player


def busy_game() -> Game:
    # 4-4 early in the game: many plays; the expert level takes a while.
    return Game.new("standard", first_player=Player.WHITE).roll(Dice(4, 4))


async def _count_ticks_while(coro: asyncio.Future[Decision] | asyncio.Task[Decision]
                             ) -> tuple[Decision, int]:
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0)
            ticks += 1

    t = asyncio.create_task(ticker())
    try:
        d = await coro
    finally:
        t.cancel()
    return d, ticks


async def test_loop_runs_other_tasks_while_the_ai_thinks_in_a_process() -> None:
    runner = AIRunner(processes=True, workers=1, time_limit=120)
    try:
        g = busy_game()
        d, ticks = await _count_ticks_while(
            asyncio.ensure_future(runner.decide(g, MatchContext(), EXPERT, random.Random(1))))
        assert d.play in g.legal_plays() and d.source == "GNU 2-ply"
        assert ticks > 0  # the loop was free while the worker process computed
    finally:
        runner.close()


def slow_decide(game: Game, ctx: MatchContext, level: Level, seed: int) -> Decision:
    time.sleep(1.0)
    return decide_seeded(game, ctx, level, seed)


async def test_timeout_falls_back_to_a_fast_legal_decision() -> None:
    runner = AIRunner(processes=False, workers=1, time_limit=0.05, decide_fn=slow_decide)
    try:
        g = busy_game()
        d, ticks = await _count_ticks_while(
            asyncio.ensure_future(runner.decide(g, MatchContext(), STRONG, random.Random(2))))
        assert d.source.startswith("fallback") and d.play in g.legal_plays()
        assert runner.timeouts == 1 and ticks > 0
    finally:
        runner.close()


async def test_hint_through_the_runner() -> None:
    runner = AIRunner(processes=False, workers=1)
    try:
        h = await runner.hint(busy_game(), MatchContext(), 3, STRONG)
        assert len(h.plays) == 3
    finally:
        runner.close()

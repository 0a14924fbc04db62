"""Expert never plays below strong: the GNU 1-ply (strong) ranking is in hand before the
2-ply search starts, and a search that runs out of time returns it.

No timing thresholds: the slow evaluator is a fake that moves a fake clock past the
deadline, or a decision function that never finishes (released when the test ends).
"""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import Sequence

from bot.ai import sage
from bot.ai.context import MatchContext
from bot.ai.convert import to_board
from bot.ai.levels import EXPERT, FALLBACK_LEVEL, STRONG, EvalDepth, Level, fallback_level
from bot.ai.player import Decision, decide
from bot.ai.runner import AIRunner, decide_seeded
from engine.dice import Dice
from engine.game import Action, Game
from engine.player import Player

W = Player.WHITE


def busy_game() -> Game:
    # 4-4 in the opening position: 52 legal plays.
    return Game.new("standard", first_player=W).roll(Dice(4, 4))


def inputs() -> tuple[list[int], tuple[int, int], sage.CubeState]:
    g = busy_game()
    return (to_board(g.position, W), (4, 4), sage.cube_state(g, MatchContext(), W))


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_deep_search_out_of_time_returns_the_strong_ranking() -> None:
    board, dice, cs = inputs()
    clock = FakeClock()
    calls: list[tuple[int, ...]] = []

    def slow(b: Sequence[int]) -> tuple[sage.Chances, float]:
        calls.append(tuple(b))
        clock.now += 1000.0            # each 2-ply evaluation "takes" far past the deadline
        return sage.Chances(0.5, 0, 0, 0, 0), 9.0

    ranking = sage.deep_plays(board, dice, cs, shallow=EvalDepth.PLY2, deep=EvalDepth.PLY3,
                              deadline=clock.now + 5.0, clock=clock, evaluate=slow)
    strong = sage.checker_play(board, dice, EvalDepth.PLY2, cs)
    assert not ranking.complete and ranking.deep == 0
    assert list(ranking.plays) == strong           # exactly strong's ranking, nothing deeper
    assert len(calls) == 1                         # it stopped after the first late answer


def test_deep_search_that_never_starts_in_time_returns_the_strong_ranking() -> None:
    board, dice, cs = inputs()
    clock = FakeClock()

    def never(b: Sequence[int]) -> tuple[sage.Chances, float]:
        raise AssertionError("no time was left: the deep evaluator must not be called")

    ranking = sage.deep_plays(board, dice, cs, shallow=EvalDepth.PLY2, deep=EvalDepth.PLY3,
                              deadline=clock.now, clock=clock, evaluate=never)
    assert not ranking.complete
    assert ranking.plays[0] == sage.checker_play(board, dice, EvalDepth.PLY2, cs)[0]


def test_deep_search_in_time_reranks_the_candidates_and_the_forced_play() -> None:
    board, dice, cs = inputs()
    strong = sage.checker_play(board, dice, EvalDepth.PLY2, cs)
    worst = strong[-1].board

    def reverse(b: Sequence[int]) -> tuple[sage.Chances, float]:
        # The fake deep value reverses the shallow order.
        rank = [p.board for p in strong].index(tuple(b))
        return sage.Chances(0.5, 0, 0, 0, 0), float(rank)

    ranking = sage.deep_plays(board, dice, cs, shallow=EvalDepth.PLY2, deep=EvalDepth.PLY3,
                              force=(worst,), evaluate=reverse, clock=FakeClock(),
                              deadline=1e9)
    assert ranking.complete
    deep = ranking.plays[:ranking.deep]
    assert deep[0].board == worst                 # the forced play was evaluated deeply
    within = [p for p in strong[:sage.DEEP_KEEP]
              if p.equity >= strong[0].equity - sage.DEEP_WITHIN]
    assert {p.board for p in deep} == {p.board for p in within} | {worst}
    assert [p.equity for p in deep] == sorted((p.equity for p in deep), reverse=True)
    assert len(ranking.plays) == len(strong)


def test_expert_without_time_plays_the_strong_play() -> None:
    g = busy_game()
    hurried = Level("expert", "Expert", EvalDepth.PLY3, 0.0, "test", budget=0.0)
    d = decide(g, MatchContext(), hurried, random.Random(1))
    s = decide(g, MatchContext(), STRONG, random.Random(1))
    assert d.action is Action.PLAY and d.play == s.play
    assert d.source == "GNU 1-ply (GNU 2-ply out of time)" and s.source == "GNU 1-ply"


def test_expert_in_time_is_a_two_ply_decision() -> None:
    d = decide(busy_game(), MatchContext(), EXPERT, random.Random(1))
    assert d.source == "GNU 2-ply" and d.play in busy_game().legal_plays()


def test_fallback_levels() -> None:
    assert fallback_level(EXPERT) is STRONG
    assert fallback_level(STRONG) is FALLBACK_LEVEL


async def test_runner_falls_back_to_strong_when_expert_never_finishes() -> None:
    release = threading.Event()
    seen: list[Level] = []

    def never_finishes(game: Game, ctx: MatchContext, level: Level, seed: int) -> Decision:
        seen.append(level)
        release.wait()                             # only the test's end lets it go
        return decide_seeded(game, ctx, level, seed)

    runner = AIRunner(processes=False, workers=1, time_limit=0.05, decide_fn=never_finishes)
    try:
        g = busy_game()
        d = await runner.decide(g, MatchContext(), EXPERT, random.Random(3))
        strong = decide(g, MatchContext(), STRONG, random.Random(0))
        assert d.source == "fallback GNU 1-ply" and d.play == strong.play
        assert runner.timeouts == 1
        # The expert job was given a budget inside the runner's limit.
        assert seen[0].depth is EvalDepth.PLY3 and seen[0].budget <= runner.time_limit / 2
    finally:
        release.set()
        runner.close()
        await asyncio.sleep(0)

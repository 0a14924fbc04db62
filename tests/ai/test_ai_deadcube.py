"""The dead-cube rule: no level doubles (redoubles, beavers) when the double cannot change
anything for the doubler, however much noise it has; live doubles are still made.

Doubling, redoubling and beavers: rule book 002 'DOUBLING' and 'OPTIONAL RULES'
(Beavers).  Match scores and the Crawford rule are not in the rule books; the
post-Crawford and double-match-point cases follow GNU Backgammon's match play.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from bot.ai.context import MatchContext
from bot.ai.deadcube import dead_double_reason
from bot.ai.levels import BEGINNER, EXPERT, INTERMEDIATE, LEVELS, STRONG
from bot.ai.player import decide
from engine.cube import Cube
from engine.game import Action, Game
from engine.player import Player
from engine.position import OFF, SLOTS, Position
from engine.rules import RuleOptions

W, B = Player.WHITE, Player.BLACK
NOISY = (BEGINNER, INTERMEDIATE)
SEEDS = range(200)


def race(on_roll: Player, mine: dict[int, int], theirs: dict[int, int], *, money: bool,
         rules: RuleOptions | None = None, cube: Cube | None = None) -> Game:
    """A race with ``on_roll`` to roll: ``mine`` his checkers, ``theirs`` the other's."""
    def side(points: dict[int, int]) -> list[int]:
        s = [0] * SLOTS
        for p, c in points.items():
            s[p] = c
        s[OFF] = 15 - sum(points.values())
        return s

    sides = (side(mine), side(theirs)) if on_roll is W else (side(theirs), side(mine))
    g = Game.new("standard", rules or RuleOptions(), money=money, first_player=on_roll,
                 position=Position.from_sides(*sides))
    return replace(g, cube=cube) if cube is not None else g


# The player on roll bears off in two throws, the other needs three: a clear double
# (and pass) wherever the cube is live.
WINNING = ({2: 2, 3: 2}, {4: 2, 5: 2, 6: 2})


def doubles(g: Game, ctx: MatchContext, level: object, seed: int) -> bool:
    return decide(g, ctx, level, random.Random(seed)).action is Action.DOUBLE  # type: ignore[arg-type]


def test_double_match_point_nobody_doubles_whatever_the_noise() -> None:
    # 6-6 in a 7-point match: the game decides the match at any cube value.
    ctx = MatchContext(7, (6, 6))
    opening = Game.new("standard", money=False, first_player=W)
    winning = race(W, *WINNING, money=False)
    for g in (opening, winning):
        assert dead_double_reason(g, ctx, W) is not None
        for level in NOISY:
            assert not any(doubles(g, ctx, level, s) for s in SEEDS), level.name
        for level in (STRONG, EXPERT):
            assert not doubles(g, ctx, level, 0)


def test_post_crawford_leader_never_doubles() -> None:
    # 7-point match at 6-3 after the Crawford game: the leader is 1 away, so any win at
    # the cube's 1 already wins the match; a double only gives the trailer more.
    ctx = MatchContext(7, (6, 3))
    g = race(W, *WINNING, money=False)
    assert dead_double_reason(g, ctx, W) is not None
    for level in LEVELS.values():
        seeds = SEEDS if level.noisy else range(1)
        assert not any(doubles(g, ctx, level, s) for s in seeds), level.name


def test_post_crawford_trailer_whose_cube_already_suffices_does_not_redouble() -> None:
    # Black trails 3-6 in a 7-point match (4 away) and owns the cube at 4: a win
    # already wins the match, so redoubling to 8 only risks more.
    ctx = MatchContext(7, (6, 3))
    dead = race(B, *WINNING, money=False, cube=Cube(value=4, owner=B))
    assert dead_double_reason(dead, ctx, B) is not None
    for level in LEVELS.values():
        seeds = SEEDS if level.noisy else range(1)
        assert not any(doubles(dead, ctx, level, s) for s in seeds), level.name
    # With the cube at 2 the double is live (a win at 4 wins the match): it is made.
    live = race(B, *WINNING, money=False, cube=Cube(value=2, owner=B))
    assert dead_double_reason(live, ctx, B) is None
    assert doubles(live, ctx, STRONG, 0)


def test_money_play_never_doubles_past_the_cube_cap() -> None:
    rules = RuleOptions(max_cube=4)
    ctx = MatchContext.money()
    capped = race(W, *WINNING, money=True, rules=rules, cube=Cube(value=4, owner=W,
                                                                   max_value=4))
    assert dead_double_reason(capped, ctx, W) == "the cube is at its cap of 4"
    for level in LEVELS.values():
        seeds = SEEDS if level.noisy else range(1)
        assert not any(doubles(capped, ctx, level, s) for s in seeds), level.name
    # One double below the cap is live: the winning race is doubled.
    below = race(W, *WINNING, money=True, rules=rules, cube=Cube(value=2, owner=W,
                                                                  max_value=4))
    assert dead_double_reason(below, ctx, W) is None
    assert doubles(below, ctx, STRONG, 0)


def test_no_beaver_past_the_cube_cap() -> None:
    # White doubles from the opening position (a beaver for strong, see
    # test_ai_player.test_beavers_a_bad_double_when_allowed); with the cube
    # capped at 2 a beaver would pass the cap: take instead.
    free = Game.new("standard", RuleOptions(beavers=True), first_player=W).double(W)
    assert decide(free, MatchContext(), STRONG).action is Action.BEAVER
    capped = Game.new("standard", RuleOptions(beavers=True, max_cube=2),
                      first_player=W).double(W)
    for level in LEVELS.values():
        seeds = range(20) if level.noisy else range(1)
        actions = {decide(capped, MatchContext(), level, random.Random(s)).action
                   for s in seeds}
        assert Action.BEAVER not in actions, level.name


@pytest.mark.parametrize("score", [(0, 0), (3, 2)])
def test_live_match_cube_is_still_used(score: tuple[int, int]) -> None:
    ctx = MatchContext(7, score)
    g = race(W, *WINNING, money=False)
    assert dead_double_reason(g, ctx, W) is None
    assert doubles(g, ctx, STRONG, 0)


def test_no_cube_and_crawford_game_are_dead() -> None:
    ctx = MatchContext(7, (6, 3))
    crawford = replace(race(W, *WINNING, money=False), crawford=True)
    assert dead_double_reason(crawford, ctx, W) == "the cube is not in use in this game"
    off = race(W, *WINNING, money=True, rules=RuleOptions(cube=False))
    assert dead_double_reason(off, MatchContext.money(), W) is not None


def test_the_heuristic_player_of_the_variants_keeps_to_the_same_rule() -> None:
    """The variants' heuristic player doubles a race it leads, but never a dead cube: at
    double match point the double cannot change the match (issue 22, item 1)."""
    from bot.ai.player import heuristic_decide

    winning = race(W, *WINNING, money=False)
    live = race(W, *WINNING, money=True)
    rng = random.Random(0)
    assert heuristic_decide(live, W, rng, STRONG, MatchContext.money()).action is Action.DOUBLE
    dmp = MatchContext(7, (6, 6))
    assert heuristic_decide(winning, W, rng, STRONG, dmp).action is Action.ROLL
    assert heuristic_decide(winning, W, rng, STRONG, MatchContext(7, (0, 0))).action is (
        Action.DOUBLE)

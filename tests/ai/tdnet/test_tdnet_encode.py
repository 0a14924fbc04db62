"""bot.ai.tdnet.encode and net: the inputs of each variant's geometry, and the
evaluations they give, are the same for a position and its colour-swapped twin."""

from __future__ import annotations

import random

import numpy as np
import pytest

from bot.ai.tdnet.encode import INPUTS, encode
from bot.ai.tdnet.net import Net, consistent, equity, mirror
from bot.ai.tdnet.turns import Evaluator
from engine.player import Player
from engine.position import BAR, OFF, WAITING, Position, make_side
from engine.rules import RuleOptions
from engine.variant import get_variant
from engine.variants.driver import play_turn

VARIANTS = ("acey-deucey", "acey-deucey-1930", "russian", "french")


class _Dice:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def die(self) -> int:
        return self.rng.randint(1, 6)


def positions_met(name: str, seed: int, turns: int = 60) -> list[tuple[Position, Player]]:
    """Positions of a random game of ``name`` with the player on roll."""
    variant = get_variant(name)()
    rng = random.Random(seed)
    pos, player = variant.initial_position(), Player.WHITE
    out = []
    for _ in range(turns):
        if variant.winner(pos) is not None:
            break
        out.append((pos, player))
        rec = play_turn(variant, pos, player, _Dice(rng), lambda ps: rng.choice(list(ps)),
                        lambda c: rng.choice(c.options))
        pos, player = rec.position, player.other
    return out


def swapped(pos: Position) -> Position:
    return Position((pos.sides[1], pos.sides[0]))


@pytest.mark.parametrize("name", VARIANTS)
def test_a_position_and_its_colour_swapped_twin_give_the_same_inputs(name: str) -> None:
    opposite = get_variant(name)().opposite
    for seed in range(3):
        for pos, player in positions_met(name, seed):
            a = encode([pos], player, opposite)
            b = encode([swapped(pos)], player.other, opposite)
            assert a.shape == (1, INPUTS)
            assert np.array_equal(a, b)


@pytest.mark.parametrize("name", VARIANTS)
def test_mirrored_positions_give_mirrored_evaluations(name: str) -> None:
    variant = get_variant(name)()
    net = Net.fresh(16, np.random.default_rng(3))
    ev = Evaluator.of(net, variant, RuleOptions())
    for pos, player in positions_met(name, 11, 40):
        on_roll = ev.on_roll([pos], player)
        assert np.allclose(on_roll, ev.on_roll([swapped(pos)], player.other))
        # The mover's after-state chances are the opponent's on-roll chances, mirrored.
        assert np.allclose(ev.after_play([pos], player), mirror(ev.on_roll([pos], player.other)))


def test_the_inputs_read_the_opponent_on_my_points_in_the_variants_geometry() -> None:
    """Russian backgammon (003 ch.10): both move the same way, so the opponent's 6-point
    is my 6-point... as the variant's ``opposite`` says; in French backgammon (003 ch.11)
    his 6-point is my 19-point."""
    white = make_side({6: 2}, waiting=13)
    black = make_side({6: 3}, waiting=12)
    pos = Position((white, black))
    for name in ("russian", "french"):
        opposite = get_variant(name)().opposite
        x = encode([pos], Player.WHITE, opposite)[0]
        mine, theirs = x[:96], x[96:192]
        assert mine[6 - 1] == 1 and mine[24 + 6 - 1] == 1 and mine[48 + 6 - 1] == 0
        my_point = next(i for i in range(1, 25) if opposite[i] == 6)
        assert theirs[my_point - 1] == 1 and theirs[48 + my_point - 1] == 1
        assert theirs[72 + my_point - 1] == 0
        assert sum(theirs[:24]) == 1
    assert [i for i in range(1, 25) if get_variant("french")().opposite[i] == 6] == [19]


def test_the_side_counts_bar_waiting_off_pips_blots_home_and_prime() -> None:
    white = make_side({1: 4}, bar=1, waiting=0, off=10)
    black = make_side({}, waiting=15, off=0)
    x = encode([Position((white, black))], Player.WHITE, get_variant("acey-deucey")().opposite)[0]
    extra = x[192:]
    assert list(extra[:8]) == pytest.approx([0.5, 0.0, 0.0, 10 / 15, (4 + 25) / 200,
                                             0.0, 1 / 6, 1 / 6])
    assert list(extra[8:16]) == pytest.approx([0.0, 1.0, 1.0, 0.0, 15 * 25 / 200, 0, 0, 0])
    # Black's men still to enter can meet white's; the pip difference is black's lead.
    assert list(extra[16:]) == pytest.approx([1.0, (15 * 25 - 29) / 100])
    assert BAR == 25 and WAITING == 26 and OFF == 0
    # Blots, home points, a prime of three.
    side = make_side({1: 1, 3: 1, 6: 2, 7: 2, 8: 2}, off=7)
    x = encode([Position((side, make_side({}, waiting=15)))], Player.WHITE,
               get_variant("acey-deucey")().opposite)[0]
    assert list(x[192 + 5: 192 + 8]) == pytest.approx([2 / 5, 1 / 6, 3 / 6])


@pytest.mark.parametrize(("name", "contact"), [("french", False), ("russian", True)])
def test_contact_in_each_geometry(name: str, contact: bool) -> None:
    """White has every man in his home board, black has borne some off and has the rest in
    his own: no contact where they move in opposite directions (French), but in Russian
    backgammon (both the same way, 003 ch.10) white's men still stand behind black's."""
    white = make_side({1: 5, 2: 5, 3: 5})
    black = make_side({5: 5, 6: 5}, off=5)
    x = encode([Position((white, black))], Player.WHITE, get_variant(name)().opposite)[0]
    assert x[192 + 16] == float(contact)


def test_chances_nest_and_mirror_twice_is_the_identity() -> None:
    rows = np.random.default_rng(1).random((50, 5))
    nested = consistent(rows)
    assert np.all(nested[:, 1] <= nested[:, 0]) and np.all(nested[:, 2] <= nested[:, 1])
    assert np.all(nested[:, 3] <= 1 - nested[:, 0]) and np.all(nested[:, 4] <= nested[:, 3])
    assert np.allclose(mirror(mirror(rows)), rows)
    # Equity from both sides adds up to nothing.
    assert np.allclose(equity(nested) + equity(mirror(nested)), 0.0)
    assert np.allclose(equity(nested, gammons=False), 2 * nested[:, 0] - 1)

"""Small trained networks for the book variants, and finished games of them (tests only).

The shipped weights may not exist (whether they ship is decided apart), so the tests of
what the variants' networks do install small ones, trained a few games, in place of
:func:`bot.ai.tdnet.player.network_for` (the one name every caller reads), or none.
"""

from __future__ import annotations

import random
from functools import cache

import pytest

from bot.ai.context import MatchContext
from bot.ai.levels import DEFAULT_LEVEL
from bot.ai.player import apply_decision, decide
from bot.ai.selfplay import opening
from bot.ai.tdnet import player as tdnet_player
from bot.ai.tdnet.family import FAMILIES
from bot.ai.tdnet.net import Net
from bot.ai.tdnet.train import Settings, train
from engine.dice import Dice
from engine.game import Game, Phase
from engine.rules import RuleOptions
from engine.variant import get_variant


@cache
def small_nets() -> dict[str, Net]:
    """A network per family, three games of training (made once per test process)."""
    return {family: train(get_variant(family)(), 3, 1, Settings(hidden=8))
            for family in sorted(set(FAMILIES.values()))}


def install(monkeypatch: pytest.MonkeyPatch) -> dict[str, Net]:
    """Our networks know every book variant (small ones)."""
    nets = small_nets()
    monkeypatch.setattr(tdnet_player, "network_for",
                        lambda variant: nets.get(FAMILIES.get(variant.name, "")))
    return nets


def remove(monkeypatch: pytest.MonkeyPatch) -> None:
    """No network knows any variant (as where no weights ship)."""
    monkeypatch.setattr(tdnet_player, "network_for", lambda variant: None)


def finished_game(name: str, seed: int, *, double_at: int = 12, drop_at: int = 30,
                  ctx: MatchContext | None = None) -> Game:
    """A game of the variant ``name`` played by the installed network (money play, or
    a game of the match ``ctx``), with a double taken once the game has had
    ``double_at`` plays, and a redouble passed (ending it) after ``drop_at`` (if the
    game lasts that long)."""
    rng = random.Random(seed)
    ctx = ctx or MatchContext.money()
    g = Game.new(get_variant(name)(), RuleOptions(), money=ctx.is_money)
    plays = 0
    while not g.is_finished:
        g = opening(g, rng)
        if g.is_finished:
            break
        me = g.turn
        if g.phase is Phase.ROLL and me is not None and g.may_double(me):
            if g.cube.value == 1 and plays >= double_at:
                g = g.double(me).take(me.other)
                continue
            if g.cube.value == 2 and plays >= drop_at:
                g = g.double(me).drop(me.other)
                break
        d = decide(g, ctx, DEFAULT_LEVEL, rng)
        plays += d.play is not None
        g = apply_decision(g, d, Dice(rng.randint(1, 6), rng.randint(1, 6)))
    assert g.is_finished
    return g

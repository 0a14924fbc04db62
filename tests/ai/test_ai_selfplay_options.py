"""The AI and the heuristic player play every variant to the end under every rule
option of the rules-fidelity pass (issue 15), every decision legal.

The book variants are played by the heuristic player on both sides (fast); standard
backgammon by bgsage at its cheapest level, only for the options that concern it.
One short game per option and variant.
"""

from __future__ import annotations

import random

import pytest
import variant_nets

from bot.ai.context import MatchContext
from bot.ai.levels import BEGINNER
from bot.ai.player import Decision, apply_decision, decide
from bot.ai.selfplay import opening
from bot.ai.tdnet import player as tdnet_player
from engine.dice import Dice
from engine.game import Action, Game
from engine.rules import RuleOptions
from engine.variant import get_variant

pytestmark = pytest.mark.slow

BOOK_VARIANTS = ("acey-deucey", "acey-deucey-1930", "russian", "russian-restriction-1",
                 "russian-restriction-2", "french")

OPTIONS: dict[str, dict[str, str]] = {
    "higher_die=free": {"higher_die": "free"},
    "double_before_any_throw=on": {"double_before_any_throw": "on",
                                   "opening": "one-die-rethrow"},
    "drop_scoring=as-it-stands": {"drop_scoring": "as-it-stands"},
    "automatic_doubles_two_dice=off": {"automatic_doubles": "on",
                                       "automatic_doubles_two_dice": "off",
                                       "opening": "two-dice-choice"},
    "opening=one-die-choice": {"opening": "one-die-choice"},
    "kicked_off=reserve": {"kicked_off": "reserve"},
    "kicked_off=enter-first": {"kicked_off": "enter-first"},
    "acey_deucey_gammons=off": {"acey_deucey_gammons": "off"},
    "russian_entering=enter-then-move": {"russian_entering": "enter-then-move"},
    "russian_entering=last-man": {"russian_entering": "last-man"},
}
"""Every new option value (defaults included where the default changed the rules)."""

STANDARD_OPTIONS = ("higher_die=free", "double_before_any_throw=on",
                    "drop_scoring=as-it-stands", "automatic_doubles_two_dice=off",
                    "opening=one-die-choice")


def check_legal(g: Game, d: Decision) -> None:
    assert d.player is g.awaiting
    assert (d.player, d.action) in g.available_actions(), (g.phase, d)
    if d.action is Action.PLAY:
        assert d.play is not None and d.play in g.legal_plays()
    if d.action is Action.CHOOSE:
        choice = g.pending_choice
        assert choice is not None and d.option in choice.options


def play_to_the_end(variant: str, options: RuleOptions, seed: int,
                    max_steps: int = 3000) -> tuple[Game, int]:
    rng = random.Random(seed)
    g = Game.new(variant, options)
    steps = 0
    while not g.is_finished and steps < max_steps:
        g = opening(g, rng)
        if g.is_finished:
            break
        d = decide(g, MatchContext(), BEGINNER, rng)
        check_legal(g, d)
        g = apply_decision(g, d, Dice(rng.randint(1, 6), rng.randint(1, 6)))
        steps += 1
    return g, steps


@pytest.mark.parametrize("name", sorted(OPTIONS))
@pytest.mark.parametrize("variant", BOOK_VARIANTS)
def test_heuristic_plays_every_variant_to_the_end(variant: str, name: str,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    variant_nets.remove(monkeypatch)  # the heuristic's games
    options = RuleOptions.from_dict(OPTIONS[name])
    g, steps = play_to_the_end(variant, options, seed=len(variant) * 31 + len(name))
    assert g.is_finished and g.result is not None, (variant, name, steps)
    assert g.result.points >= 1 and steps > 10


@pytest.mark.parametrize("name", sorted(OPTIONS))
@pytest.mark.parametrize("variant", BOOK_VARIANTS)
def test_our_networks_play_every_variant_to_the_end(variant: str, name: str,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """The networks we ship (or, for a variant none ships for, a small trained one) play
    every variant under every rule option to the end (issue 46)."""
    if tdnet_player.network_for(get_variant(variant)()) is None:
        variant_nets.install(monkeypatch)
    options = RuleOptions.from_dict(OPTIONS[name])
    g, steps = play_to_the_end(variant, options, seed=len(variant) * 31 + len(name))
    assert g.is_finished and g.result is not None, (variant, name, steps)
    assert g.result.points >= 1


@pytest.mark.parametrize("name", STANDARD_OPTIONS)
def test_bgsage_plays_standard_to_the_end(name: str) -> None:
    options = RuleOptions.from_dict(OPTIONS[name])
    g, steps = play_to_the_end("standard", options, seed=len(name))
    assert g.is_finished and g.result is not None, (name, steps)
    assert g.result.points >= 1

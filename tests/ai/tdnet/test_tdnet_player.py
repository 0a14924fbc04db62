"""bot.ai.tdnet.player: a variant's network plays whole games of every book variant
through the same decide() as standard backgammon, every decision legal; /hint speaks
for it; without a network the heuristic plays, as before."""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np
import pytest

from bot.ai import hints
from bot.ai.context import MatchContext
from bot.ai.decision import Decision
from bot.ai.levels import BEGINNER, DEFAULT_LEVEL
from bot.ai.player import apply_decision, decide
from bot.ai.selfplay import opening
from bot.ai.tdnet import player as tdnet_player
from bot.ai.tdnet.family import FAMILIES, weights_path
from bot.ai.tdnet.net import Net
from bot.ai.tdnet.train import Settings, train
from engine.dice import Dice
from engine.game import Action, Game, Phase
from engine.match import Match
from engine.player import Player
from engine.rules import RuleOptions
from engine.variant import Variant, get_variant

BOOK_VARIANTS = tuple(FAMILIES)


@pytest.fixture(scope="module")
def small_nets() -> dict[str, Net]:
    """A network per family, a few games of training (the shipped ones may not exist)."""
    return {family: train(get_variant(family)(), 3, 1, Settings(hidden=8))
            for family in sorted(set(FAMILIES.values()))}


@pytest.fixture
def with_nets(monkeypatch: pytest.MonkeyPatch, small_nets: dict[str, Net]) -> Iterator[None]:
    monkeypatch.setattr(tdnet_player, "network_for",
                        lambda variant: small_nets[FAMILIES[variant.name]])
    yield


def check_legal(g: Game, d: Decision) -> None:
    assert d.player is g.awaiting
    assert (d.player, d.action) in g.available_actions(), (g.phase, d)
    if d.action is Action.PLAY:
        assert d.play is not None and d.play in g.legal_plays()
    if d.action is Action.CHOOSE:
        choice = g.pending_choice
        assert choice is not None and d.option in choice.options


def play_out(g: Game, ctx: MatchContext, rng: random.Random, level=DEFAULT_LEVEL) -> Game:  # type: ignore[no-untyped-def]
    decisions = 0
    while not g.is_finished:
        g = opening(g, rng)
        if g.is_finished:
            break
        d = decide(g, ctx, level, rng)
        decisions += 1
        check_legal(g, d)
        assert d.source == tdnet_player.judge(g), d.source
        g = apply_decision(g, d, Dice(rng.randint(1, 6), rng.randint(1, 6)))
    assert decisions > 10
    return g


@pytest.mark.parametrize("name", BOOK_VARIANTS)
def test_the_network_plays_a_whole_money_game_with_the_cube(name: str, with_nets: None) -> None:
    g = play_out(Game.new(get_variant(name)(), RuleOptions()), MatchContext.money(),
                 random.Random(4))
    assert g.result is not None


@pytest.mark.parametrize("name", ["acey-deucey", "russian", "french"])
def test_a_match_at_a_weak_level(name: str, with_nets: None) -> None:
    rng = random.Random(8)
    match = Match.new(3, RuleOptions(), variant=name)
    while not match.is_over:
        g = play_out(match.new_game(), MatchContext(3, match.score), rng, BEGINNER)
        match = match.add_game(g)


def test_the_judge_is_named_as_players_are_told() -> None:
    assert tdnet_player.judge(Game.new("acey-deucey-1930")) == (
        "our Acey-Deucey network, self-trained")
    assert "Russian" in tdnet_player.judge(Game.new("russian-restriction-2"))


def test_without_a_network_the_heuristic_plays(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tdnet_player, "network_for", lambda variant: None)
    rng = random.Random(2)
    g = opening(Game.new("french", RuleOptions()), rng)
    assert decide(g, MatchContext.money(), DEFAULT_LEVEL, rng).source == "heuristic"


def test_shipped_weights_are_small_and_load() -> None:
    shipped = [f for f in sorted(set(FAMILIES.values())) if weights_path(f).exists()]
    for family in shipped:
        assert weights_path(family).stat().st_size < 2_000_000
        net = Net.load(weights_path(family))
        assert net.games > 0
    # Each shipped network is the one decide() uses for its variants.
    for name, family in FAMILIES.items():
        variant: Variant = get_variant(name)()
        found = tdnet_player.network_for(variant)
        assert (found is not None) == (family in shipped)


def test_hint_ranks_plays_by_the_network(with_nets: None, small_nets: dict[str, Net]) -> None:
    rng = random.Random(5)
    g = opening(Game.new("russian", RuleOptions()), rng)
    while g.phase is not Phase.PLAY or len(g.legal_plays()) < 3:
        g = apply_decision(g, decide(g, MatchContext.money(), DEFAULT_LEVEL, rng),
                           Dice(rng.randint(1, 6), rng.randint(1, 6)))
    h = hints.hint(g, MatchContext.money(), n=3)
    assert h.source == "our Russian backgammon network, self-trained"
    assert len(h.plays) == 3
    eqs = [p.equity for p in h.plays]
    assert eqs == sorted(eqs, reverse=True)  # type: ignore[type-var]
    assert h.plays[0].equity_diff == 0.0 and h.plays[0].chances is not None
    # The best play is the one the network player makes at the level without noise.
    assert decide(g, MatchContext.money(), DEFAULT_LEVEL, rng).play == h.plays[0].play


def test_cube_advice_follows_the_network(monkeypatch: pytest.MonkeyPatch) -> None:
    """A network that says the player on roll wins every game: the player doubles with the
    cube centred (cubeless equity 1, gammons not counted in Acey-Deucey 1930: not too good),
    and the taker passes."""
    net = Net.fresh(4, np.random.default_rng(0))
    net.w2[:] = 0.0
    net.b2[:] = np.array([40.0, -40.0, -40.0, -40.0, -40.0])
    monkeypatch.setattr(tdnet_player, "network_for", lambda variant: net)
    rng = random.Random(3)
    g = Game.new("acey-deucey-1930", RuleOptions())
    while g.phase is not Phase.ROLL or not g.may_double(g.turn or Player.WHITE):
        g = apply_decision(g, decide(g, MatchContext.money(), DEFAULT_LEVEL, rng),
                           Dice(rng.randint(1, 6), rng.randint(1, 6))) \
            if g.phase is not Phase.OPENING else opening(g, rng)
    me = g.turn
    assert me is not None
    d = decide(g, MatchContext.money(), DEFAULT_LEVEL, rng)
    assert d.action is Action.DOUBLE
    assert hints.hint(g, MatchContext.money()).note == "Advice: double."
    g = apply_decision(g, d)
    answer = decide(g, MatchContext.money(), DEFAULT_LEVEL, rng)
    assert answer.action is Action.DROP
    assert hints.hint(g, MatchContext.money()).note == "Advice: pass."

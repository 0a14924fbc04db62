"""bot.ai.analysis: hints (plays and cube) and post-game analysis."""

from __future__ import annotations

import random

import pytest
import variant_nets
from variant_nets import remove

from bot.ai.analysis import analyze, hint
from bot.ai.context import MatchContext
from bot.ai.levels import BEGINNER, INTERMEDIATE
from bot.ai.player import apply_decision, decide
from engine.dice import Dice
from engine.game import Game, Phase
from engine.player import Player
from engine.record import GameRecord

FAST = INTERMEDIATE  # analysis uses the level's depth only (1ply here, for speed)


def test_hint_plays_are_legal_sorted_with_chances() -> None:
    g = Game.new("standard", first_player=Player.WHITE).roll(Dice(3, 1))
    h = hint(g, MatchContext(), n=5, level=FAST)
    assert h.player is Player.WHITE and len(h.plays) == 5
    legal = g.legal_plays()
    assert all(p.play in legal for p in h.plays)
    eqs = [p.equity for p in h.plays]
    assert eqs == sorted(eqs, reverse=True)  # type: ignore[type-var]
    assert h.plays[0].equity_diff == 0.0 and h.plays[0].text == "8/5 6/5"
    ch = h.plays[0].chances
    assert ch is not None and 0.5 < ch.win < 0.6 and 0 < ch.gammon_win < ch.win


def test_hint_cube_before_rolling_and_when_doubled() -> None:
    g = Game.new("standard", first_player=Player.WHITE)
    h = hint(g, MatchContext(), level=FAST)
    assert h.cube is not None and h.cube.action == "No Double" and not h.plays
    h = hint(g.double(Player.WHITE), MatchContext(), level=FAST)
    assert h.player is Player.BLACK and h.cube is not None and h.cube.should_take


def test_hint_in_variant_is_heuristic(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where no network of ours knows the variant (the shipped ones may not)."""
    variant_nets.remove(monkeypatch)
    g = Game.new("russian", first_player=Player.WHITE).roll(Dice(6, 5))
    while g.phase is not Phase.PLAY:
        g = g.roll(Dice(6, 5))
    h = hint(g, level=FAST)
    assert h.source == "heuristic" and h.plays and h.plays[0].equity is None
    assert all(p.play in g.legal_plays() for p in h.plays)


def test_analyze_rates_a_blunder() -> None:
    # White plays 3-1 as 24/21 24/23 (the best is 8/5 6/5): a clear mistake.
    g = Game.new("standard", first_player=Player.WHITE).roll(Dice(3, 1))
    worst = next(p for p in g.legal_plays()
                 if sorted((m.src, m.dst) for m in p.moves) == [(24, 21), (24, 23)])
    g = g.play(worst, Player.WHITE)
    rng = random.Random(3)
    for _ in range(12):  # a few more AI decisions on both sides
        if g.is_finished:
            break
        d = decide(g, MatchContext(), BEGINNER, rng)
        g = apply_decision(g, d, Dice(rng.randint(1, 6), rng.randint(1, 6)))
    result = analyze(GameRecord.from_dict(g.to_dict()), MatchContext(), level=FAST)
    assert result.supported
    white = result.of(Player.WHITE)
    assert white.decisions >= 1 and white.total_lost >= white.mistakes[0].equity_lost
    m = white.mistakes[0]
    assert m.kind == "play" and m.event_index == 1 and m.best == "8/5 6/5"
    assert m.played != m.best and m.equity_lost > 0.05
    assert m.before.position == Game.new().position
    assert abs(white.error_rate - white.total_lost / white.decisions) < 1e-12
    assert result.summary()[0].startswith("White:")


def test_analyze_complete_ai_game_per_player() -> None:
    rng = random.Random(9)
    g = Game.new("standard", first_player=Player.WHITE)
    while not g.is_finished:
        d = decide(g, MatchContext(), BEGINNER, rng)
        g = apply_decision(g, d, Dice(rng.randint(1, 6), rng.randint(1, 6)))
    result = analyze(GameRecord.from_dict(g.to_dict()), level=FAST, top=3)
    for pa in result.players:
        assert pa.decisions == pa.checker_decisions + pa.cube_decisions > 5
        losses = [m.equity_lost for m in pa.mistakes]
        assert losses == sorted(losses, reverse=True) and len(losses) <= 3
        assert pa.total_lost >= sum(losses)


def test_analyze_variant_is_unsupported(monkeypatch: pytest.MonkeyPatch) -> None:
    remove(monkeypatch)  # (where no network knows the variant: issue 46 item 4)
    g = Game.new("acey-deucey")
    result = analyze(GameRecord.from_dict(g.to_dict()))
    assert not result.supported and "variant" in result.note

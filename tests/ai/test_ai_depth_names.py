"""Depths are named on GNU Backgammon's scale (bgsage's 2ply is GNU's 1-ply) in every
text bot.ai builds, and the analysis runs at expert depth (GNU 2-ply) on request."""

from __future__ import annotations

import random

import pytest

from bot.ai.analysis import analyze, hint
from bot.ai.context import MatchContext
from bot.ai.levels import (
    BEGINNER,
    EXPERT,
    STRONG,
    EvalDepth,
    analysis_level,
)
from bot.ai.player import apply_decision, decide
from engine.dice import Dice
from engine.game import Game
from engine.player import Player
from engine.record import GameRecord


def test_depth_labels_are_gnu_plies() -> None:
    assert [d.label for d in EvalDepth] == ["GNU 0-ply", "GNU 1-ply", "GNU 2-ply"]
    assert EvalDepth.PLY3.shallower is EvalDepth.PLY2 and EvalDepth.PLY1.shallower is None


def test_hint_names_the_gnu_depth() -> None:
    g = Game.new("standard", first_player=Player.WHITE).roll(Dice(3, 1))
    assert hint(g, MatchContext(), 3, STRONG).source == "GNU 1-ply (bgsage)"
    h = hint(g, MatchContext(), 3, EXPERT)
    assert h.source == "GNU 2-ply (bgsage)"
    assert h.plays[0].text == "8/5 6/5" and h.plays[0].equity_diff == 0.0
    pre = Game.new("standard", first_player=Player.WHITE)
    assert "bgsage 2ply" not in hint(pre, MatchContext(), 3, STRONG).source


def test_analysis_depth_option() -> None:
    assert analysis_level(None) is STRONG and analysis_level("") is STRONG
    assert analysis_level("Expert") is EXPERT
    with pytest.raises(ValueError, match=r"strong .*expert"):
        analysis_level("deep")


def test_analysis_at_expert_depth_rates_the_play_made() -> None:
    # White's 24/21 24/23 with 3-1 is a clear mistake (best 8/5 6/5) at any depth.
    g = Game.new("standard", first_player=Player.WHITE).roll(Dice(3, 1))
    worst = next(p for p in g.legal_plays()
                 if sorted((m.src, m.dst) for m in p.moves) == [(24, 21), (24, 23)])
    g = g.play(worst, Player.WHITE)
    rng = random.Random(5)
    for _ in range(6):
        d = decide(g, MatchContext(), BEGINNER, rng)
        g = apply_decision(g, d, Dice(rng.randint(1, 6), rng.randint(1, 6)))
    result = analyze(GameRecord.from_dict(g.to_dict()), MatchContext(),
                     level=analysis_level("expert"))
    assert result.source == "GNU 2-ply (bgsage)"
    m = result.of(Player.WHITE).mistakes[0]
    # The play made was outside the 1-ply filter, yet it is rated at 2-ply (forced in).
    assert m.event_index == 1 and m.best == "8/5 6/5" and m.equity_lost > 0.05
    assert result.summary()[-1] == "Depth: GNU 2-ply (bgsage)."

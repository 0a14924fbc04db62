"""The analysis of a book variant's game by our own network (issue 46, item 4): every
decision rated as bot.ai.variant_analysis says (each stage's play, each choice, each cube
action, the luck of each throw), through the same analyze() as standard backgammon, with
the network named as the judge; without a network, the honest refusal as before."""

from __future__ import annotations

import math

import numpy as np
import pytest
from variant_nets import finished_game, install, remove

from bot.ai.analysis import VARIANT_NOTE, analyze
from bot.ai.context import MatchContext
from bot.ai.stored import from_stored, to_stored
from bot.ai.tdnet import player as tdnet_player
from bot.ai.tdnet.turns import Evaluator, play_values
from bot.ai.variant_analysis import THROWS, VariantRater, analysable_variant
from engine.game import Game, Phase
from engine.player import Player
from engine.record import ChoiceMade, DoubleOffered, Drop, PlayMade, Roll, Take

JUDGES = {"acey-deucey": "our Acey-Deucey network, self-trained",
          "russian": "our Russian backgammon network, self-trained",
          "french": "our French backgammon network, self-trained"}


def expected_counts(g: Game) -> dict[Player, dict[str, int]]:
    """What the analysis must count, found by replaying the record here: plays of a stage
    with two legal plays or more, choices of two options or more, every double and
    every take or pass, every throw after the opening."""
    out = {p: {"checker": 0, "cube_at_least": 0, "rolls_at_least": 0} for p in Player}
    record = g.to_record()
    game = Game.new(g.variant, g.rules)
    for event in record.events:
        if isinstance(event, PlayMade) and len(game.legal_plays()) > 1:
            out[event.player]["checker"] += 1
        if isinstance(event, ChoiceMade):
            choice = game.pending_choice
            assert choice is not None
            out[event.player]["checker"] += len(choice.options) > 1
        if isinstance(event, (DoubleOffered, Take, Drop)):
            out[event.player]["cube_at_least"] += 1
        if isinstance(event, Roll):
            out[event.player]["rolls_at_least"] += 1
        game = game.apply(event)
    return out


@pytest.mark.parametrize("name", ["acey-deucey", "russian", "french"])
def test_a_finished_variant_game_is_analysed_by_its_network(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    install(monkeypatch)
    g = finished_game(name, seed=3)
    record = g.to_record()
    assert any(isinstance(e, Take) for e in record.events)
    a = analyze(record, MatchContext.money())
    assert a.supported, a.note
    assert a.source == f"{JUDGES[name]}, 0-ply"
    assert a.engine.startswith(f"{name} network (") and "bgsage" not in a.engine
    text = "\n".join(a.summary(("alice", "bob")))
    assert f"Depth: {JUDGES[name]}, 0-ply." in text
    assert "bgsage" not in text and "GNU" not in text
    counts = expected_counts(g)
    for pa in a.players:
        want = counts[pa.player]
        assert pa.checker_decisions == want["checker"]
        assert pa.cube_decisions >= want["cube_at_least"]
        assert pa.decisions == pa.checker_decisions + pa.cube_decisions
        assert pa.rolls >= want["rolls_at_least"] > 5
        for figure in (pa.pr, pa.error_rate, pa.luck, pa.luck_value, pa.total_lost):
            assert math.isfinite(figure)
        assert 0.0 <= pa.total_lost and pa.pr == pytest.approx(500 * pa.error_rate)
    assert sum(pa.cube_decisions for pa in a.players) >= 4  # two doubles, a take, a pass
    assert sum(pa.checker_decisions for pa in a.players) >= 5
    # The graph: a point per rated decision, chances and equities finite.
    assert len(a.timeline) == sum(pa.decisions for pa in a.players)
    assert all(0.0 <= d.win <= 1.0 and math.isfinite(d.equity) for d in a.timeline)
    # Every error is the best candidate's equity minus the choice made's.
    assert a.errors
    for m in a.errors:
        made = next(c.equity for c in m.candidates if c.text == m.played)
        assert m.equity_lost == pytest.approx(max(c.equity for c in m.candidates) - made)
        assert m.best == max(m.candidates, key=lambda c: c.equity).text
    # What is stored reads back the same.
    assert from_stored(to_stored(a), record) == a


def test_a_stage_play_error_is_the_best_stage_play_minus_the_one_made(
        monkeypatch: pytest.MonkeyPatch) -> None:
    nets = install(monkeypatch)
    g = finished_game("russian", seed=5)
    record = g.to_record()
    a = analyze(record, MatchContext.money(), min_mistake=0.0)
    ev = Evaluator.of(nets["russian"], g.variant, g.rules)
    plays_rated = [m for m in a.errors if m.kind == "play"]
    assert len(plays_rated) > 10
    for m in plays_rated[:10]:
        before = m.before
        assert before.phase is Phase.PLAY
        legal = before.legal_plays()
        values = play_values(ev, legal, m.player)
        event = record.events[m.event_index]
        assert isinstance(event, PlayMade)
        made = before.play_moves(event.moves, event.player).position
        chosen = next(float(v) for p, v in zip(legal, values, strict=True)
                      if p.position == made)
        assert m.equity_lost == pytest.approx(float(max(values)) - chosen)


def test_luck_averages_nothing_over_the_36_throws(monkeypatch: pytest.MonkeyPatch) -> None:
    """The luck of a throw is its value minus the average of the 36: weighted over the
    36 throws, the lucks add up to zero."""
    nets = install(monkeypatch)
    g = finished_game("french", seed=2)
    record = g.to_record()
    game = Game.new(g.variant, g.rules)
    for event in record.events[:20]:
        game = game.apply(event)
    while game.phase is not Phase.ROLL or game.turn is None:
        game = game.apply(record.events[len(game.record)])
    rater = VariantRater(nets["french"], game, MatchContext.money())
    me = game.turn
    lucks = [(rater.luck(game, me, dice, (), False), n) for dice, n in THROWS]
    assert sum(n for _, n in lucks) == 36
    assert sum(luck * n for luck, n in lucks) == pytest.approx(0.0, abs=1e-9)
    assert np.std([luck for luck, _ in lucks]) > 0


def test_a_cube_decision_is_judged_by_the_networks_cube_rules(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The best cube action of the analysis is the one the network's own rules take."""
    nets = install(monkeypatch)
    g = finished_game("acey-deucey", seed=3)
    record = g.to_record()
    ev = Evaluator.of(nets["acey-deucey"], g.variant, g.rules)
    a = analyze(record, MatchContext.money(), min_mistake=0.0)
    cube = [m for m in a.errors if m.kind in ("double", "no double", "take", "drop")]
    answers = [m for m in a.errors if m.kind in ("take", "drop")]
    assert answers
    for m in cube:
        before = m.before
        if m.kind in ("take", "drop"):
            right = tdnet_player.should_take(ev, before, MatchContext.money(), m.player)
            assert m.best == ("take" if right else "pass")
        else:
            right = tdnet_player.should_double(ev, before, m.player)
            assert m.best == ("double" if right else "no double")


def test_a_game_of_a_match_is_analysed_with_match_winning_chances(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """In a match: the graph's match-winning chances, the luck in match-winning chance,
    and a take or pass judged by the network's match rule (match-winning chances)."""
    nets = install(monkeypatch)
    ctx = MatchContext(length=7, score=(2, 3))
    g = finished_game("french", seed=3, ctx=ctx)
    a = analyze(g.to_record(), ctx, min_mistake=0.0)
    assert a.supported and a.length == 7
    assert a.timeline and all(d.mwc is not None and 0.0 <= d.mwc <= 1.0 for d in a.timeline)
    assert all(math.isfinite(pa.luck_value) and abs(pa.luck_value) < 1.0 for pa in a.players)
    ev = Evaluator.of(nets["french"], g.variant, g.rules)
    answers = [m for m in a.errors if m.kind in ("take", "drop")]
    assert answers
    for m in answers:
        right = tdnet_player.should_take(ev, m.before, ctx, m.player)
        assert m.best == ("take" if right else "pass")
    assert sum(a.result) == pytest.approx(0.0) and a.result != (0.0, 0.0)


def test_without_a_network_a_variant_is_still_refused_saying_why(
        monkeypatch: pytest.MonkeyPatch) -> None:
    install(monkeypatch)
    record = finished_game("russian", seed=1, double_at=999).to_record()
    remove(monkeypatch)
    a = analyze(record, MatchContext.money())
    assert not a.supported and a.note == VARIANT_NOTE and "no network knows" in a.note
    assert not analysable_variant("russian") and analysable_variant("standard")
    install(monkeypatch)
    assert analysable_variant("russian") and analysable_variant("acey-deucey-1930")

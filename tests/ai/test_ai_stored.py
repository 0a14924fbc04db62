"""bot.ai.stored: what is stored of an analysis reads back the same, every field (issue 47,
item 5: the match-winning chances of each decision were lost, so a match read back from
the store was drawn as money play)."""

from __future__ import annotations

import dataclasses
import json
import random

from bot.ai.analysed import Candidate, DecisionPoint, GameAnalysis, Mistake, PlayerAnalysis
from bot.ai.analysis import analyze
from bot.ai.context import MatchContext
from bot.ai.levels import BEGINNER, INTERMEDIATE
from bot.ai.player import apply_decision, decide
from bot.ai.stored import complete, from_stored, to_stored
from engine.dice import Dice
from engine.game import Game
from engine.player import Player
from engine.record import GameRecord


def _through_json(analysis: GameAnalysis, record: GameRecord) -> GameAnalysis:
    """As the database keeps it: the stored form as JSON text, and back."""
    return from_stored(json.loads(json.dumps(to_stored(analysis))), record)


def _match_game() -> tuple[GameRecord, MatchContext]:
    """A game of a 5-point match at 2-1 with a blunder, a double and a take in it."""
    g = Game.new("standard", first_player=Player.WHITE).roll(Dice(3, 1))
    worst = next(p for p in g.legal_plays()
                 if sorted((m.src, m.dst) for m in p.moves) == [(24, 21), (24, 23)])
    g = g.play(worst, Player.WHITE).double(Player.BLACK).take(Player.WHITE)
    rng = random.Random(5)
    while not g.is_finished:
        d = decide(g, MatchContext(5, (2, 1)), BEGINNER, rng)
        g = apply_decision(g, d, Dice(rng.randint(1, 6), rng.randint(1, 6)))
    return GameRecord.from_dict(g.to_dict()), MatchContext(5, (2, 1))


def test_an_analysis_of_a_match_reads_back_the_same_every_field() -> None:
    record, ctx = _match_game()
    analysis = analyze(record, ctx, level=INTERMEDIATE, min_mistake=0.0)
    # Every field that could be lost is there to be lost.
    assert analysis.timeline and all(d.mwc is not None for d in analysis.timeline)
    assert analysis.errors and any(m.dice is None for m in analysis.errors)  # a cube one
    assert all(pa.mistakes and pa.rolls and pa.luck and pa.luck_value
               for pa in analysis.players)
    assert analysis.length == 5 and analysis.result != (0.0, 0.0) and analysis.engine
    back = _through_json(analysis, record)
    for name in (f.name for f in dataclasses.fields(GameAnalysis)):
        assert getattr(back, name) == getattr(analysis, name), name
    assert back == analysis
    assert complete(to_stored(analysis))


def test_every_field_of_every_part_reads_back() -> None:
    record, _ = _match_game()
    game = Game.new("standard", first_player=Player.WHITE)
    cands = (Candidate("8/5 6/5", 0.123456789), Candidate("24/21 24/23", -0.25))
    cube = Mistake(Player.BLACK, 0, game, "take", "take", "pass", 0.0312345678, None,
                   (Candidate("pass", -1.0), Candidate("take", -1.0312345678)))
    play = Mistake(Player.WHITE, 1, game.roll(Dice(3, 1)), "play", "24/21 24/23",
                   "8/5 6/5", 0.373456789, Dice(3, 1), cands)
    players = (PlayerAnalysis(Player.WHITE, 7, 0.51, (play,), 6, 1, 0.41, 0.1, 9,
                              0.31234567, 0.0456789),
               PlayerAnalysis(Player.BLACK, 5, 0.2, (cube,), 4, 1, 0.17, 0.03, 8,
                              -0.1, -0.01))
    timeline = (DecisionPoint(1, Player.WHITE, "play", -0.2, 0.4567891, 0.373, 0.3123456),
                DecisionPoint(0, Player.BLACK, "take", -1.03, 0.2, 0.031, None))
    analysis = GameAnalysis(True, players, "GNU 1-ply (bgsage)", "a note", timeline,
                            (play, cube), 7, (0.1234567, -0.1234567), "bgsage 1.2.3")
    assert _through_json(analysis, record) == dataclasses.replace(
        analysis, errors=(dataclasses.replace(play, before=_before(record, 1)),
                          dataclasses.replace(cube, before=_before(record, 0))),
        players=tuple(dataclasses.replace(
            pa, mistakes=tuple(dataclasses.replace(m, before=_before(record, m.event_index))
                               for m in pa.mistakes)) for pa in players))


def _before(record: GameRecord, index: int) -> Game:
    game = Game.new(record.variant, first_player=record.first_player,
                    position=record.position)
    for event in record.events[:index]:
        game = game.apply(event)
    return game


def test_a_match_stored_without_its_winning_chances_is_made_again() -> None:
    record, ctx = _match_game()
    stored = to_stored(analyze(record, ctx, level=INTERMEDIATE))
    old = {**stored, "v": 1, "timeline": [t[:6] for t in stored["timeline"]]}
    assert not complete(old)  # (the service analyses it again rather than draw it wrong)
    money = {**old, "length": 0}
    assert complete(money)  # money play has no match-winning chances to lose

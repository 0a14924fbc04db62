"""The stored form of an analysis: :func:`to_stored` and back, :func:`from_stored`.

What is kept in the database (``bot.storage.analysis``) is everything of a
:class:`~bot.ai.analysed.GameAnalysis` but the games before the mistakes, which
:func:`from_stored` gets back by replaying the record the analysis was made of: what is
stored reads back the same, every field (floats as they are: JSON keeps them exactly).

Version 1 (before issue 47) left out each decision's match-winning chances, so a match
stored then was drawn as money play: :func:`complete` says a stored analysis lacks them,
and such an analysis is made again rather than read back.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.ai.analysed import Candidate, DecisionPoint, GameAnalysis, Mistake, PlayerAnalysis
from engine.dice import Dice
from engine.game import Game
from engine.player import Player
from engine.record import GameRecord
from engine.rules import RuleOptions


def to_stored(analysis: GameAnalysis) -> dict[str, Any]:
    """Everything but the games before the mistakes (:func:`from_stored` replays the
    record to get them back)."""
    a = analysis
    return {
        "v": VERSION, "supported": a.supported, "source": a.source, "note": a.note,
        "engine": a.engine, "length": a.length, "result": list(a.result),
        "players": [_player_dict(pa) for pa in a.players],
        "timeline": [[d.event_index, int(d.player), d.kind, d.equity, d.win, d.lost, d.mwc]
                     for d in a.timeline],
        "errors": [_mistake_dict(m) for m in a.errors],
    }


def from_stored(data: Mapping[str, Any], record: GameRecord) -> GameAnalysis:
    """The analysis :func:`to_stored` stored, for ``record`` (the game it analysed)."""
    wanted = {int(m["i"]) for m in data["errors"]}
    for pd in data["players"]:
        wanted.update(int(m["i"]) for m in pd["mistakes"])
    before = _games_at(record, wanted)
    errors = tuple(_mistake_of(m, before) for m in data["errors"])
    players = tuple(
        PlayerAnalysis(Player(pd["player"]), pd["decisions"], pd["lost"],
                       tuple(_mistake_of(m, before) for m in pd["mistakes"]),
                       pd["checker"], pd["cube"], pd["checker_lost"], pd["cube_lost"],
                       pd["rolls"], pd["luck"], pd["luck_value"])
        for pd in data["players"])
    timeline = tuple(DecisionPoint(t[0], Player(t[1]), t[2], t[3], t[4], t[5],
                                   t[6] if len(t) > 6 else None)
                     for t in data["timeline"])
    return GameAnalysis(data["supported"], (players[0], players[1]), data["source"],
                        data["note"], timeline, errors, data["length"],
                        (data["result"][0], data["result"][1]), data["engine"])


VERSION = 2
"""2: each decision's match-winning chances are kept (issue 47, item 5)."""


def complete(data: Mapping[str, Any]) -> bool:
    """Whether the stored ``data`` reads back as the analysis it was: not a match's
    analysis stored before :data:`VERSION` 2, which lost its match-winning chances."""
    return int(data.get("v", 1)) >= VERSION or not data.get("length") or not data["timeline"]


def _player_dict(pa: PlayerAnalysis) -> dict[str, Any]:
    return {"player": int(pa.player), "decisions": pa.decisions, "lost": pa.total_lost,
            "checker": pa.checker_decisions, "cube": pa.cube_decisions,
            "checker_lost": pa.checker_lost, "cube_lost": pa.cube_lost,
            "rolls": pa.rolls, "luck": pa.luck, "luck_value": pa.luck_value,
            "mistakes": [_mistake_dict(m) for m in pa.mistakes]}


def _mistake_dict(m: Mistake) -> dict[str, Any]:
    return {"p": int(m.player), "i": m.event_index, "kind": m.kind, "played": m.played,
            "best": m.best, "lost": m.equity_lost,
            "dice": [m.dice.first, m.dice.second] if m.dice is not None else None,
            "cands": [[c.text, c.equity] for c in m.candidates]}


def _mistake_of(d: Mapping[str, Any], before: Mapping[int, Game]) -> Mistake:
    dice = Dice(d["dice"][0], d["dice"][1]) if d["dice"] else None
    return Mistake(Player(d["p"]), d["i"], before[d["i"]], d["kind"], d["played"], d["best"],
                   d["lost"], dice, tuple(Candidate(t, e) for t, e in d["cands"]))


def start_of(record: GameRecord) -> Game:
    """The game of ``record`` before its first event."""
    return Game.new(record.variant, RuleOptions.from_dict(record.rules), money=record.money,
                    crawford=record.crawford, first_player=record.first_player,
                    position=record.position)


def _games_at(record: GameRecord, indexes: set[int]) -> dict[int, Game]:
    """The game just before each event of ``indexes``."""
    out: dict[int, Game] = {}
    game = start_of(record)
    last = max(indexes, default=-1)
    for idx, event in enumerate(record.events):
        if idx > last:
            break
        if idx in indexes:
            out[idx] = game
        game = game.apply(event)
    return out

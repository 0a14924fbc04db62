"""Hints and post-game analysis (pure, synchronous; run them in a worker).

* :func:`hint` -- the best plays for the current roll, or the cube advice
  (:mod:`bot.ai.hints`).
* :func:`analyze` -- replay a finished (or unfinished) game record and rate
  every decision of each player: average equity lost per decision (and PR, 500
  times it), total, the largest mistakes with the position and the better play,
  and the luck of every roll.

Which decisions count (:mod:`bot.ai.decisions`), and how luck is measured
(:mod:`bot.ai.luck`), follow GNU Backgammon's own analysis, so its figures can be
compared with the bot's.  Equities are bgsage's, normalised to a 1-point cube (EMG in
a match), from the deciding player's side; what they are worth in points or
match-winning chance is :mod:`bot.ai.mwc`'s.  What an analysis finds is in
:mod:`bot.ai.analysed`, its stored form in :mod:`bot.ai.stored`.

Depth: the level's, named on GNU Backgammon's scale in every text ("GNU 1-ply
(bgsage)" for the default, strong; :func:`bot.ai.levels.analysis_level`
gives the depths ``/analyze`` offers: ``strong`` and ``expert``, GNU 2-ply,
which ranks each play at 1-ply and the best few plus the play made at 2-ply).

In a book variant both speak for our own self-trained network where one exists
(:func:`bot.ai.hints.variant_hint`; :mod:`bot.ai.variant_analysis` rates the
decisions and throws, named after the network, never bgsage); where none does,
:func:`hint` ranks plays by the heuristic (no equities) and :func:`analyze` says
it is unsupported.
"""

from __future__ import annotations

import importlib.metadata
from dataclasses import dataclass

from bot.ai import sage
from bot.ai.analysed import Candidate, DecisionPoint, GameAnalysis, Mistake, PlayerAnalysis
from bot.ai.context import MatchContext
from bot.ai.decisions import rate
from bot.ai.hints import CubeHint, Hint, PlayHint, hint, source_label
from bot.ai.levels import DEFAULT_LEVEL, Level
from bot.ai.luck import Memo, roll_luck
from bot.ai.mwc import decision_mwc, game_result, value_per_emg
from bot.ai.sage import CubeEval
from bot.ai.stored import start_of
from engine.player import Player
from engine.record import GameRecord

__all__ = [
    "VARIANT_NOTE",
    "Candidate",
    "CubeHint",
    "DecisionPoint",
    "GameAnalysis",
    "Hint",
    "Mistake",
    "PlayHint",
    "PlayerAnalysis",
    "analyze",
    "engine_version",
    "hint",
    "start_of",
]

VARIANT_NOTE = ("Analysis, PR and puzzles are for standard backgammon and the variants our "
                "own networks know: no network knows this variant.")


def engine_version() -> str:
    """``"bgsage <version>"`` (stored with each analysis)."""
    try:
        return f"bgsage {importlib.metadata.version('bgsage')}"
    except importlib.metadata.PackageNotFoundError:  # pragma: no cover - always installed
        return "bgsage"


@dataclass
class _Tally:
    decisions: int = 0
    checker: int = 0
    cube: int = 0
    total: float = 0.0
    checker_lost: float = 0.0
    cube_lost: float = 0.0
    rolls: int = 0
    luck: float = 0.0
    luck_value: float = 0.0


def analyze(record: GameRecord, context: MatchContext | None = None,
            level: Level = DEFAULT_LEVEL, top: int = 3,
            min_mistake: float = 0.02) -> GameAnalysis:
    """Rate each player's decisions and luck in ``record`` (see the notes above).

    ``context`` is the match score when the game started (money if omitted);
    ``top`` how many largest mistakes (losing at least ``min_mistake``) to keep per
    player; every decision losing ``min_mistake`` or more is in ``errors``.
    """
    ctx = context or MatchContext.money()
    game = start_of(record)
    empty = (PlayerAnalysis(Player.WHITE, 0, 0.0, ()), PlayerAnalysis(Player.BLACK, 0, 0.0, ()))
    from bot.ai.tdnet import player as tdnet_player  # (numpy: after a worker's set-up)
    from bot.ai.variant_analysis import VariantRater

    own = None if sage.uses_network(game) else tdnet_player.network_for(game.variant)
    if not sage.uses_network(game) and own is None:
        return GameAnalysis(False, empty, note=VARIANT_NOTE)
    variant = VariantRater(own, game, ctx) if own is not None else None
    tallies = {p: _Tally() for p in Player}
    errors: list[Mistake] = []
    timeline: list[DecisionPoint] = []
    offer_eval: CubeEval | None = None
    for idx, event in enumerate(record.events):
        after = game.apply(event)
        if variant is not None:
            rated, luck = variant.rate(game, after, event)
        elif not sage.uses_network(game):
            game = after
            continue
        else:
            memo: Memo = {}  # (a roll's cube analysis serves its luck too)
            rated, offer_eval = rate(game, ctx, level, event, offer_eval, memo)
            luck = roll_luck(game, after, event, ctx, memo)
        if luck is not None:
            who, emg = luck
            t = tallies[who]
            t.rolls += 1
            t.luck += emg
            t.luck_value += emg * value_per_emg(game, ctx, who)
        if rated is not None:
            timeline.append(DecisionPoint(idx, rated.player, rated.kind, rated.equity,
                                          rated.win, rated.lost,
                                          decision_mwc(ctx, rated.player, rated.chances,
                                                       game, event)))
            t = tallies[rated.player]
            t.decisions += 1
            t.total += rated.lost
            if rated.is_cube:
                t.cube += 1
                t.cube_lost += rated.lost
            else:
                t.checker += 1
                t.checker_lost += rated.lost
            if rated.lost >= min_mistake:
                errors.append(Mistake(rated.player, idx, game, rated.kind, rated.played,
                                      rated.best, rated.lost,
                                      game.dice if not rated.is_cube else None,
                                      rated.candidates))
        game = after
    players = tuple(
        PlayerAnalysis(p, tallies[p].decisions, tallies[p].total,
                       tuple(sorted((m for m in errors if m.player is p),
                                    key=lambda m: -m.equity_lost)[:top]),
                       tallies[p].checker, tallies[p].cube, tallies[p].checker_lost,
                       tallies[p].cube_lost, tallies[p].rolls, tallies[p].luck,
                       tallies[p].luck_value)
        for p in Player)
    source = variant.source if variant is not None else source_label(level)
    engine = variant.engine if variant is not None else engine_version()
    return GameAnalysis(True, (players[0], players[1]), source=source,
                        timeline=tuple(timeline), errors=tuple(errors), length=ctx.length,
                        result=game_result(game, ctx), engine=engine)

"""Answering a resignation from cubeless chances (every kind of network player).

The AI accepts when what the resignation gives is at least what it expects
from playing on: in money play the points offered against its cubeless
expected points times the cube (gammons counted as the rules count them); in a
match the match-winning chance after accepting against the expected
match-winning chance over the game's outcomes (match equity table, cube
ownership ignored).
"""

from __future__ import annotations

from bot.ai import sage
from bot.ai.context import MatchContext
from bot.ai.decision import Decision
from bot.ai.sage import Chances
from engine.game import Action, Game
from engine.player import Player
from engine.rules import ScoringMethod
from engine.scoring import ResultKind, game_points


def resignation_decision(game: Game, ctx: MatchContext, me: Player, ch: Chances,
                         source: str) -> Decision:
    """Accept or reject the pending resignation, ``ch`` being ``me``'s chances."""
    res = game.resignation
    assert res is not None
    cube = game.cube.value
    kinds = (ResultKind.SINGLE, ResultKind.GAMMON, ResultKind.BACKGAMMON)
    mult = {k: multiplier(game, k) for k in kinds}
    offered = points(game, me, res.kind)
    # Outcome probabilities from my side: (+points or -points, probability).
    win1 = ch.win - ch.gammon_win
    win2 = ch.gammon_win - ch.backgammon_win
    lose1 = (1 - ch.win) - ch.gammon_loss
    lose2 = ch.gammon_loss - ch.backgammon_loss
    outcomes = [
        (mult[ResultKind.SINGLE] * cube, win1), (mult[ResultKind.GAMMON] * cube, win2),
        (mult[ResultKind.BACKGAMMON] * cube, ch.backgammon_win),
        (-mult[ResultKind.SINGLE] * cube, lose1), (-mult[ResultKind.GAMMON] * cube, lose2),
        (-mult[ResultKind.BACKGAMMON] * cube, ch.backgammon_loss),
    ]
    if game.money or ctx.is_money:
        expected = sum(pts * p for pts, p in outcomes)
        accept = offered >= expected
        value = float(offered)
    else:
        a_me, a_opp = ctx.away(me), ctx.away(me.other)

        def mwc(pts: int) -> float:
            if pts >= 0:
                return sage.match_winning_chance(a_me - pts, a_opp)
            return sage.match_winning_chance(a_me, a_opp + pts)

        expected = sum(mwc(pts) * p for pts, p in outcomes)
        value = mwc(offered)
        accept = value >= expected
    return Decision(me, Action.ACCEPT_RESIGNATION if accept else Action.REJECT_RESIGNATION,
                    equity=value if accept else expected, source=source)


def multiplier(game: Game, kind: ResultKind) -> int:
    """Points per cube unit a ``kind`` win is worth under the game's rules (games scoring)."""
    counted = game.counted_kind(kind)
    if counted is ResultKind.BACKGAMMON:
        return game.rules.backgammon_value
    return int(counted)


def points(game: Game, winner: Player, kind: ResultKind) -> int:
    """What ``winner`` scores if the game ends now as ``kind`` (as the engine would score it)."""
    counted = game.counted_kind(kind)
    if game.rules.scoring is ScoringMethod.GAMES:
        return multiplier(game, kind) * game.cube.value
    loser_side = game.position.sides[winner.other]
    return game_points(game.rules.scoring, counted, game.cube.value, loser_side,
                       game.variant.zone, game.rules.backgammon_value)

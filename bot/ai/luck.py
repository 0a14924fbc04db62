"""The luck of a roll, as GNU Backgammon measures it.

The luck of a roll is the equity after the best play of the roll thrown minus the
average of the same over every roll (the 21, doublets once and the others twice), at GNU
0-ply cubeful, as gnubg's ``LuckNormal``; for the opening roll the average is over the 30
non-doublet throws, 15 with each player moving first (``LuckFirst``).  The per-roll
equities come with a cube analysis at :data:`LUCK_DEPTH`, kept (:func:`cube_memo`) so a
roll's cube decision and its luck cost one call.
"""

from __future__ import annotations

from typing import Any

from bot.ai.context import MatchContext
from bot.ai.hints import cube_eval
from bot.ai.levels import EvalDepth, Level
from bot.ai.sage import CubeEval
from engine.dice import Dice
from engine.game import Game, Phase
from engine.player import Player
from engine.record import OpeningRoll, Roll

LUCK_DEPTH = EvalDepth.PLY2
"""The luck of a roll comes from the per-roll equities of a cube analysis at this
depth, which are GNU 0-ply ones (gnubg's luck analysis is 0-ply cubeful)."""
STRONG_LUCK = Level("luck", "Luck", LUCK_DEPTH, 0.0, "the depth of the luck's cube analysis")

Memo = dict[Any, CubeEval]
"""The cube analyses made for one event (a roll's cube analysis serves its luck too)."""


def cube_memo(game: Game, ctx: MatchContext, level: Level, doubler: Player, value: int,
              owner: Player | None, memo: Memo | None = None) -> CubeEval:
    """The cube analysis at ``level``; in an analysis (``memo``), at the luck's depth with
    each roll's equity too, kept for the luck of the roll that follows (one call for
    both)."""
    if memo is None or level.depth is not LUCK_DEPTH:
        return cube_eval(game, ctx, level, doubler, value, owner)
    key = (game.position, doubler, value, owner)
    found = memo.get(key)
    if found is None:
        found = memo[key] = cube_eval(game, ctx, level, doubler, value, owner, rolls=True)
    return found


def roll_luck(before: Game, after: Game, event: object, ctx: MatchContext,
              memo: Memo) -> tuple[Player, float] | None:
    """(the roller, the luck of his roll in EMG) when ``event`` threw the dice of a turn."""
    if isinstance(event, Roll) and before.phase is Phase.ROLL:
        return event.player, _roll_luck(before, event.player, event.dice, ctx, memo)
    if isinstance(event, OpeningRoll) and before.phase is Phase.OPENING \
            and after.phase is Phase.PLAY and after.dice is not None and after.turn is not None:
        dice = after.dice
        if dice.first == dice.second:
            return after.turn, _roll_luck(before, after.turn, dice, ctx, memo)
        return after.turn, _opening_luck(before, after.turn, dice, ctx, memo)
    return None


def _per_roll(game: Game, player: Player, ctx: MatchContext,
              memo: Memo) -> dict[tuple[int, int], float]:
    """The equity (GNU 0-ply, cubeful, ``player``'s side) after his best play of each roll,
    keyed by (high die, low die)."""
    ev = cube_memo(game, ctx, STRONG_LUCK, player, game.cube.value, game.cube.owner, memo)
    return {(max(a, b), min(a, b)): e for a, b, e in ev.rolls}


def _roll_luck(game: Game, player: Player, dice: Dice, ctx: MatchContext,
               memo: Memo) -> float:
    eqs = _per_roll(game, player, ctx, memo)
    mean = sum(e * (1 if hi == lo else 2) for (hi, lo), e in eqs.items()) / 36.0
    return eqs[(max(dice.first, dice.second), min(dice.first, dice.second))] - mean


def _opening_luck(game: Game, player: Player, dice: Dice, ctx: MatchContext,
                  memo: Memo) -> float:
    mine = _per_roll(game, player, ctx, memo)
    theirs = _per_roll(game, player.other, ctx, memo)
    mean = (sum(e for (hi, lo), e in mine.items() if hi != lo)
            - sum(e for (hi, lo), e in theirs.items() if hi != lo)) / 30.0
    return mine[(max(dice.first, dice.second), min(dice.first, dice.second))] - mean

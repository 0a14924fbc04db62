"""What the book variants share: an empty starting board, the variant movement
generator, stage completion, the doublet "both sides of the dice" sequence and
refusal messages that name the broken rule.

:class:`BookVariant` is an abstract :class:`engine.variant.Variant`; each
concrete variant sets :attr:`BookVariant.movement` and implements
:meth:`~engine.variant.Variant.next_step`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from engine.move import Play
from engine.player import Player
from engine.position import WAITING, Position
from engine.rules import HigherDie, RuleOptions
from engine.variant import EndTurn, Stage, Step, ThrowAgain, TurnContext, Variant
from engine.variants import notation as variant_notation
from engine.variants.movement import MovementRules, apply_move, die_of, refusal, stage_plays


def higher_die(turn: TurnContext) -> bool:
    """True when the higher die must be played if only one can be (rule option)."""
    return turn.rules.higher_die is HigherDie.REQUIRED


def complete(stage: Stage, play: Play) -> bool:
    """True when the play used every die of the stage."""
    return len(play.dice) == len(stage.dice)


def entries(turn: TurnContext) -> int:
    """How many checkers the player has entered from off the board in this throw so far."""
    return sum(1 for _, play in turn.plays for move in play.moves if move.src == WAITING)


def waiting_at_throw(turn: TurnContext) -> int:
    """How many of the player's checkers were still to enter when this throw was made."""
    return turn.position.sides[turn.player][WAITING] + entries(turn)


def side_stage(value: int, *, reverse: bool = False) -> Stage:
    """The four plays of one side of a doublet."""
    if reverse:
        return Stage((value,) * 4, label=f"the reverse side, four {value}s",
                     rule=f"Now play the reverse side of the dice: four {value}s.")
    return Stage((value,) * 4, label=f"four {value}s")


def both_sides(turn: TurnContext, first: int, *, start: int = 0,
               rethrow: bool, reason: str) -> Step:
    """Play ``first`` four times, then ``7 - first`` four times, then maybe throw again.

    ``start`` is the index in ``turn.plays`` where the doublet's first side
    is (after the 1 and 2 of acey-deucy it is 1).  All four plays of one
    side must be made or the opposite side cannot be used, and all eight
    must be made before the player throws again (003 ch.10 II and IV).
    """
    done = turn.plays[start:]
    if not done:
        return side_stage(first)
    stage, play = done[-1]
    if not complete(stage, play):
        return EndTurn(f"not all four {stage.dice[0]}s could be played")
    if len(done) == 1:
        return side_stage(7 - first, reverse=True)
    if rethrow:
        return ThrowAgain(reason)
    return EndTurn()


class BookVariant(Variant):
    """Base of the variants that start from an empty board (000, 003 ch.10-12)."""

    movement: ClassVar[MovementRules]

    def initial_position(self) -> Position:
        return Position.empty()

    def movement_for(self, rules: RuleOptions) -> MovementRules:
        """The movement rules under the game's options (by default :attr:`movement`)."""
        return self.movement

    def legal_plays(self, position: Position, player: Player, stage: Stage,
                    turn: TurnContext) -> list[Play]:
        return stage_plays(position, player, stage.dice, self.movement_for(turn.rules),
                           higher_die=higher_die(turn))

    def format_play(self, play: Play) -> str:
        return variant_notation.format_play(play)

    def resolve_play(self, text: str, position: Position, player: Player, stage: Stage,
                     plays: Sequence[Play]) -> Play:
        return variant_notation.resolve_play(text, position, player, plays, self.movement)

    def suggest_plays(self, text: str, position: Position, player: Player, stage: Stage,
                      plays: Sequence[Play], limit: int = 25) -> list[Play]:
        """Plays whose canonical text starts with what was typed (case-insensitive)."""
        typed = " ".join(text.lower().split())
        texts = sorted(((variant_notation.format_play(p), p) for p in plays),
                       key=lambda item: item[0])
        return [p for t, p in texts if t.lower().startswith(typed)][:limit]

    def illegal_play_message(self, turn: TurnContext, stage: Stage, play: Play) -> str:
        """Name the rule the play breaks: the first refused move, else the dice it leaves."""
        why = explain(self, turn.position, turn.player, stage, play, turn)
        return why or super().illegal_play_message(turn, stage, play)


def explain(variant: BookVariant, position: Position, player: Player, stage: Stage,
            play: Play, turn: TurnContext) -> str | None:
    """Why ``play`` (moves the player asked for) is not legal in ``stage``.

    Replays the moves one by one; the first that the movement rules refuse
    gives the reason.  If every move is possible on its own, the play must
    have used too few (or wrong) dice.
    """
    rules = variant.movement_for(turn.rules)
    dice = list(stage.dice)
    current = position
    for i, move in enumerate(play.moves):
        die = die_of(move)
        if die is None:  # bearing off: the die shown in the play, else the smallest that fits
            if i < len(play.dice) and play.dice[i] in dice:
                die = play.dice[i]
            else:
                fits = sorted(d for d in dice if d >= move.src)
                die = fits[0] if fits else move.src
        if die not in dice:
            left = ", ".join(str(d) for d in dice) or "none"
            return f"No die of {die} to play for that move (dice left: {left})."
        why = refusal(current, player, move, die, rules)
        if why is not None:
            return why
        current = apply_move(current, player, move, die, rules)
        dice.remove(die)
    legal = variant.legal_plays(position, player, stage, turn)
    need = len(legal[0].dice)
    if len(play.moves) < need:
        what = stage.label or "-".join(str(d) for d in stage.dice)
        rule = f" {stage.rule}" if stage.rule else ""
        return (f"You must use {need} {'die' if need == 1 else 'dice'} of {what} "
                f"when you can; that play uses {len(play.moves)}.{rule}")
    if (len(play.moves) == need and need == 1 and len(set(stage.dice)) == 2
            and higher_die(turn)):
        return "When only one of the two dice can be used, you must use the larger one."
    return None

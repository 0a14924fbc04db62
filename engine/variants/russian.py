"""Russian backgammon -- 003_0f278e3a5d776312.txt ch.10 (Boyden, 1930).

* The board starts empty.  Both players enter in the same table and move in
  the same direction to the same home table, "directly opposite the entering
  table and on the same side of the bar" (introduction, III): my point ``i``
  is the opponent's point ``i`` (:data:`engine.variants.movement.SAME`).  A die
  ``d`` enters on the point ``d`` of the entering table counted from its outer
  edge, which is the mover's point ``25 - d``.
* "All of a player's men must be entered before any may be moved.  If only
  one man is left to enter, that man may be entered and any man moved for the
  other of the two numbers thrown.  This also applies to doublets." (IV)
  Read per stage (the two dice, or the four plays of one side of a doublet):
  a stage that starts with two or more men (on the bar or not yet entered) to
  enter only enters men -- a doublet with two or three men left enters them and
  the rest of that side is lost (so, by II, no reverse side and no second
  throw).  With one man left he may enter and any man move for the rest.  III
  2 describes the other reading ("he enters these men and then is allowed to
  start moving his men and to finish the throw"): rule option
  ``russian_entering = enter-then-move`` (checked move by move: once the last
  man is in, the rest of the stage moves men).  ``russian-restriction-2``,
  whose restriction is that very sentence, always reads it so.
* Two men block a point, a single man is hit; a hit man goes to the bar and
  must re-enter "before its owner can make another move" (III, IV).
* Doublets: four plays of the number thrown, then four of the opposite faces
  (7 minus the number), then the player throws again.  After a second doublet
  in succession both sides are played but "a third throw is not permitted".
  "All four plays for one side of the dice must be made, or the opposite side
  cannot be used" -- nor the second throw (II); "all eight moves must be made
  before he can throw again" (IV).
* Bearing off as in regular backgammon (IV, ch.3 VII).
* The first play: "Either one or two dice may be used.  High wins, and the
  winner either may throw again with his own dice or use the initial throw"
  (I): two dice, the winner's choice; with the rule option ``opening =
  one-die-choice``, one die each and the winner plays both or throws again.

The two restrictions of section III, "recommended by some players" for
doublets thrown while entering, are rule options (:class:`EnteringDoublets`),
one registered class each:

``russian``
    no restriction (the rule as the chapter states it);
``russian-restriction-1``
    III 1: a doublet thrown while the player still has men to enter is played
    on its thrown side only, and gives no second throw;
``russian-restriction-2``
    III 2: the same while the player has *more than four* men to enter; with
    four or fewer he enters them, moves, plays both sides and throws again.

"The restriction of the doublets applies only to the throws made while
entering the original table": a man re-entering from the bar does not count.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from typing import ClassVar

from engine.errors import RuleOptionError
from engine.move import Play
from engine.player import Player
from engine.position import BAR, WAITING, Position
from engine.rules import OpeningMethod, RuleOptions, RussianEntering
from engine.scoring import Zone
from engine.variant import EndTurn, Stage, Step, TurnContext, register
from engine.variants.common import (
    BookVariant,
    both_sides,
    higher_die,
    side_stage,
    waiting_at_throw,
)
from engine.variants.movement import SAME, MovementRules, entry_plays


class EnteringDoublets(Enum):
    """003 ch.10 III: how doublets thrown while entering are played."""

    FULL = "full"
    """Both sides and a second throw, as in II."""
    RESTRICTION_1 = "restriction-1"
    """III 1: while any man is still to enter, one side only and no second throw."""
    RESTRICTION_2 = "restriction-2"
    """III 2: while more than four men are still to enter, one side only, no second throw."""


@register
class RussianBackgammon(BookVariant):
    """Russian backgammon (003 ch.10), with no restriction on doublets while entering."""

    name = "russian"
    title = "Russian backgammon"
    aliases = ("russian-backgammon",)
    sources = ("Boyden 1930, ch.10 Russian Backgammon",)
    opposite = SAME
    movement = MovementRules("Russian backgammon", opposite=SAME, hit_to=BAR,
                             enter_before_moving=True)
    entering_doublets: ClassVar[EnteringDoublets] = EnteringDoublets.FULL

    @staticmethod
    def with_options(options: Mapping[str, str]) -> RussianBackgammon:
        """The Russian variant for ``{"entering_doublets": "full" | "restriction-1" | ...}``."""
        unknown = set(options) - {"entering_doublets"}
        if unknown:
            raise RuleOptionError(
                f"Unknown Russian backgammon option {sorted(unknown)[0]!r}; "
                "the option is 'entering_doublets'."
            )
        raw = str(options.get("entering_doublets", "full")).strip().lower()
        for cls in (RussianBackgammon, RussianRestriction1, RussianRestriction2):
            if raw in (cls.entering_doublets.value, cls.entering_doublets.name.lower()):
                return cls()
        allowed = ", ".join(m.value for m in EnteringDoublets)
        raise RuleOptionError(f"Option 'entering_doublets' must be one of: {allowed}.")

    def opening_method(self, rules: RuleOptions) -> OpeningMethod:
        """I: "Either one or two dice may be used"; the winner plays or throws again."""
        if rules.opening is OpeningMethod.ONE_DIE_CHOICE:
            return OpeningMethod.ONE_DIE_CHOICE
        return OpeningMethod.TWO_DICE_CHOICE

    def enter_then_move(self, rules: RuleOptions) -> bool:
        """True when men may move in the stage that brings in the last men (III 2)."""
        return rules.russian_entering is RussianEntering.ENTER_THEN_MOVE

    def legal_plays(self, position: Position, player: Player, stage: Stage,
                    turn: TurnContext) -> list[Play]:
        side = position.sides[player]
        if side[WAITING] and side[WAITING] + side[BAR] >= 2 \
                and not self.enter_then_move(turn.rules):
            # IV: only "if only one man is left to enter" may men move as well.
            return entry_plays(position, player, stage.dice, self.movement,
                               higher_die=higher_die(turn))
        return super().legal_plays(position, player, stage, turn)

    def illegal_play_message(self, turn: TurnContext, stage: Stage, play: Play) -> str:
        side = turn.position.sides[turn.player]
        if (side[WAITING] and side[WAITING] + side[BAR] >= 2
                and not self.enter_then_move(turn.rules)
                and any(m.src <= 24 for m in play.moves)):
            return ("In Russian backgammon no man may move until all 15 are entered: only "
                    "when one man is left may he enter and another man move in the same "
                    f"throw ({side[WAITING] + side[BAR]} still to enter; 003 ch.10 IV).")
        return super().illegal_play_message(turn, stage, play)

    def restricted(self, turn: TurnContext) -> bool:
        """True when a doublet of this throw is played on one side only (III 1 and 2)."""
        waiting = waiting_at_throw(turn)
        if self.entering_doublets is EnteringDoublets.RESTRICTION_1:
            return waiting > 0
        if self.entering_doublets is EnteringDoublets.RESTRICTION_2:
            return waiting > 4
        return False

    def next_step(self, turn: TurnContext) -> Step:
        dice = turn.dice
        if not dice.is_double:
            return Stage(dice.moves()) if not turn.plays else EndTurn()
        if self.restricted(turn):
            if not turn.plays:
                return side_stage(dice.first)
            return EndTurn("a doublet while entering is played on one side only "
                           "(003 ch.10 III)")
        # II: a second doublet in succession is played on both sides, no third throw.
        return both_sides(turn, dice.first, rethrow=len(turn.throws) == 1,
                          reason="a doublet played on both sides: throw again")

    def zone(self, index: int) -> Zone:
        """Quarters of the loser's route, as in the other variants.

        Both players share the entering and the home table here, so "the
        winner's inner table" read physically would be the loser's home; the
        zones are therefore taken by distance still to travel, the entering
        table (and the bar, and men not yet entered) counting as the
        furthest-back zone.
        """
        return super().zone(index)

    def describe(self, rules: RuleOptions | None = None) -> list[str]:
        entering = (
            "men enter before any man moves; once the last man is in, the rest of the "
            "throw moves men (ch.10 III 2)"
            if self.entering_doublets is EnteringDoublets.RESTRICTION_2 else
            "no man moves until all 15 are entered (for the throw that enters the last "
            "men, see 'entering' below)")
        lines = [
            *super().describe(rules),
            "the board starts empty; both players enter in the same table and move the "
            "same way to the same home table",
            entering,
            "a man hit must re-enter before any other move",
            "doublets: four plays, then four of the reverse side (7 minus the number), "
            "then throw again; after a second doublet no third throw",
        ]
        if self.entering_doublets is EnteringDoublets.RESTRICTION_1:
            lines.append("while entering, a doublet is played on one side only and gives "
                         "no second throw (III 1)")
        elif self.entering_doublets is EnteringDoublets.RESTRICTION_2:
            lines.append("with more than four men still to enter, a doublet is played on "
                         "one side only and gives no second throw (III 2)")
        return lines


@register
class RussianRestriction1(RussianBackgammon):
    """Russian backgammon with 003 ch.10 III restriction 1."""

    name = "russian-restriction-1"
    title = "Russian backgammon (doublets restricted while entering)"
    aliases = ("russian-r1",)
    entering_doublets = EnteringDoublets.RESTRICTION_1


@register
class RussianRestriction2(RussianBackgammon):
    """Russian backgammon with 003 ch.10 III restriction 2."""

    name = "russian-restriction-2"
    title = "Russian backgammon (doublets restricted until four or fewer to enter)"
    aliases = ("russian-r2",)
    entering_doublets = EnteringDoublets.RESTRICTION_2

    def enter_then_move(self, rules: RuleOptions) -> bool:
        """III 2: "he enters these men and then is allowed to start moving his men"."""
        return True

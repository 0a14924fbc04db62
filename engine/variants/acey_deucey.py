"""Acey-Deucey, in the two rule sets of the books.

``acey-deucey`` -- 000_54e59ca1d76a5da3.txt 'THE GAME OF ACEY-DEUCY' (1973):

* the board starts empty; each player enters his men "in his Inner Table
  according to the numbers on the dice" -- the table where the opponent's
  home is -- and may move men "as soon as one or more of them have been
  entered" ('SETTING UP THE MEN', 'RULES FOR PLAYING');
* any number of one's own men may stand on a point; two men block a point
  ('SETTING UP THE MEN', 'BLOCKADE');
* a man kicked off "is returned to your opponent, and must be re-entered again
  same as in starting the game" ('KICKING-OFF'): he goes back among the men not
  yet entered (index 26), with no duty to bring him in first;
* acey-deucy (a 1 and a 2), 'ACEY-DEUCY' 1-4: the 1 and the 2 must be played
  first (entering or moving); if both cannot be played the whole throw is lost;
  then the player names any doublet and plays it four times; if he could play
  all of that he throws again;
* other doublets: "Same as Backgammon" (four plays, no extra throw);
* taking off as in backgammon ('TAKING OFF' FIRST and SECOND), only with all
  fifteen in the home table;
* the first play: both throw, the higher throw may be played or thrown again
  ('RULES FOR PLAYING').

``acey-deucey-1930`` -- 003_0f278e3a5d776312.txt ch.12 (Boyden, 1930):

* the board starts empty; men may be advanced before all are entered;
* a man taken up goes to the bar and "must be reentered before its owner can
  move any more men";
* every doublet is played four times, then its reverse side (7 minus the
  number) four times, "as in Russian Backgammon", then the player throws
  again -- "after every successive doublet";
* acey-deucy: the 1 and the 2, then any doublet the player selects, both sides
  of it, then another throw;
* bearing off only from the point that exactly matches the number thrown; if
  that point is empty a man on a higher point must move, and if none can the
  throw is lost;
* "Gammons and backgammons are not scored";
* the first play: both throw two dice, the higher re-throws.

Interpretations where the books are silent (each tested):

* "as in Russian Backgammon" brings 003 ch.10 II along: all four plays of a side
  must be made or the other side cannot be used, and all of the throw must be
  played before the next throw.  In the 1930 rules the same holds for the 1
  and 2 of acey-deucy: the doublet is named only after both were played.
* In the 1973 rules the doublet named after acey-deucy is any of the six, even
  one that cannot be played; only the 1 and 2 are all-or-nothing (rule 4).
"""

from __future__ import annotations

from engine.dice import Dice
from engine.move import Play
from engine.player import Player
from engine.position import BAR, WAITING, Position
from engine.rules import OpeningMethod, RuleOptions
from engine.variant import Choice, EndTurn, Stage, Step, ThrowAgain, TurnContext, register
from engine.variants.common import BookVariant, both_sides, complete
from engine.variants.movement import MIRROR, MovementRules, stage_plays

DOUBLETS: tuple[str, ...] = ("1", "2", "3", "4", "5", "6")
"""The options of the doublet named after acey-deucy."""

ACEY_DEUCY_RULE = "After acey-deucy you must first play the 1 and the 2."


def is_acey_deucy(dice: Dice) -> bool:
    """A 1 and a 2."""
    return {dice.first, dice.second} == {1, 2}


def acey_deucy_stage(book: str) -> Stage:
    return Stage((1, 2), label="the 1 and the 2 of acey-deucy",
                 rule=f"{ACEY_DEUCY_RULE} ({book})")


def doublet_choice() -> Choice:
    return Choice("doublet", "Acey-deucy: name any doublet to play (1 to 6).", DOUBLETS)


@register
class AceyDeucey(BookVariant):
    """Acey-Deucey, classic rules (000 'THE GAME OF ACEY-DEUCY')."""

    name = "acey-deucey"
    title = "Acey-Deucey"
    aliases = ("acey-deucy", "aceydeucey", "acey-deucey-classic")
    sources = ("000_54e59ca1d76a5da3.txt 'THE GAME OF ACEY-DEUCY'",)
    opposite = MIRROR
    movement = MovementRules("Acey-Deucey", opposite=MIRROR, hit_to=WAITING)

    def opening_method(self, rules: RuleOptions) -> OpeningMethod:
        """'RULES FOR PLAYING': the higher throw may be played or thrown again."""
        return OpeningMethod.TWO_DICE_CHOICE

    def legal_plays(self, position: Position, player: Player, stage: Stage,
                    turn: TurnContext) -> list[Play]:
        plays = stage_plays(position, player, stage.dice, self.movement)
        if (not turn.plays and is_acey_deucy(turn.dice) and stage.dice == (1, 2)
                and len(plays[0].dice) < 2):
            # Rule 4: "If the player cannot use all of the first part ... he loses
            # the whole throw."
            return [Play((), (), position)]
        return plays

    def next_step(self, turn: TurnContext) -> Step:
        dice = turn.dice
        if not is_acey_deucy(dice):
            if not turn.plays:
                return Stage(dice.moves())
            return EndTurn()
        if not turn.plays:
            return acey_deucy_stage("000 'ACEY-DEUCY' 1")
        first_stage, first_play = turn.plays[0]
        if not complete(first_stage, first_play):
            return EndTurn("the 1 and the 2 could not both be played: the whole throw is lost")
        if not turn.choices:
            return doublet_choice()
        if len(turn.plays) == 1:
            value = int(turn.choices[0])
            return Stage((value,) * 4, label=f"the named doublet, four {value}s")
        stage, play = turn.plays[1]
        if complete(stage, play):
            return ThrowAgain("acey-deucy played in full: throw again")
        return EndTurn(f"not all four {stage.dice[0]}s could be played: no extra throw")

    def describe(self) -> list[str]:
        return [
            *super().describe(),
            "the board starts empty; enter your men in the table where your opponent's "
            "home is, and move them before all are entered if you like",
            "a man kicked off goes back off the board and re-enters like a new man",
            "acey-deucy (1-2): play the 1 and the 2 (or lose the whole throw), name any "
            "doublet and play it four times, then throw again",
            "doublets: four plays, as in backgammon",
        ]


@register
class AceyDeucey1930(BookVariant):
    """Acey-Deucey as in Boyden, *The New Backgammon* (1930), ch.12."""

    name = "acey-deucey-1930"
    title = "Acey-Deucey (1930 rules)"
    aliases = ("acey-deucy-1930", "aceydeucey-1930", "acey-deucey-navy")
    sources = ("003_0f278e3a5d776312.txt ch.12 Acey-Deucey",)
    opposite = MIRROR
    scores_gammons = False
    movement = MovementRules("Acey-Deucey (1930 rules)", opposite=MIRROR, hit_to=BAR,
                             exact_bear_off=True)

    def opening_method(self, rules: RuleOptions) -> OpeningMethod:
        """Ch.12: "Each player throws two dice. High wins and re-throws for his first play." """
        return OpeningMethod.TWO_DICE_RETHROW

    def next_step(self, turn: TurnContext) -> Step:
        dice = turn.dice
        if dice.is_double:
            return both_sides(turn, dice.first, rethrow=True,
                              reason="a doublet played on both sides: throw again")
        if not is_acey_deucy(dice):
            if not turn.plays:
                return Stage(dice.moves())
            return EndTurn()
        if not turn.plays:
            return acey_deucy_stage("003 ch.12")
        first_stage, first_play = turn.plays[0]
        if not complete(first_stage, first_play):
            return EndTurn("the 1 and the 2 could not both be played")
        if not turn.choices:
            return doublet_choice()
        return both_sides(turn, int(turn.choices[0]), start=1, rethrow=True,
                          reason="acey-deucy played in full: throw again")

    def describe(self) -> list[str]:
        return [
            *super().describe(),
            "the board starts empty; men may move before all are entered",
            "a man taken up must re-enter before his owner moves any other man",
            "doublets: four plays, then four of the reverse side (7 minus the number), "
            "then throw again, after every doublet",
            "acey-deucy (1-2): play the 1 and the 2, name any doublet, play both its "
            "sides, then throw again",
            "bearing off only with the exact number",
        ]

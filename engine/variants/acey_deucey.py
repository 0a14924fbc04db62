"""Acey-Deucey, in the two rule sets of the books.

``acey-deucey`` -- 000_54e59ca1d76a5da3.txt 'THE GAME OF ACEY-DEUCY' (1973):

* the board starts empty; each player enters his men "in his Inner Table
  according to the numbers on the dice" -- the table where the opponent's
  home is -- and may move men "as soon as one or more of them have been
  entered" ('SETTING UP THE MEN', 'RULES FOR PLAYING');
* any number of one's own men may stand on a point; two men block a point
  ('SETTING UP THE MEN', 'BLOCKADE');
* a man kicked off "is returned to your opponent, and must be re-entered again
  same as in starting the game" ('KICKING-OFF'), and 'MOVES: Same as
  Backgammon' brings in the backgammon rule of the same book ('HITTING
  "BLOTS"'): "A player cannot move any other man while he has a blotted man off
  the board".  Rule option ``kicked_off``: ``enter-first`` (default) puts him on
  the bar, to re-enter (on the point of the die, as a new man) before any other
  man moves; ``reserve`` returns him among the men not yet entered (index 26),
  with no duty to bring him in first;
* acey-deucy (a 1 and a 2), 'ACEY-DEUCY' 1-4: the 1 and the 2 must be played
  first (entering or moving); if both cannot be played the whole throw is lost;
  then the player names any doublet and plays it four times; if he could play
  all of that he throws again.  A play of the 1 and 2 that takes off the last
  man wins the game at once, even if it used one die only ('WINNING THE GAME');
* acey-deucy **while setting up** ('SETTING UP THE MEN': "you MUST first place
  one man on your Ace point and one on your Deuce point. (If you cannot take
  Acey-Deucy you lose the throw.)"): while men remain to enter, the 1 and the 2
  must each enter a man, on the ace point (the mover's 24) and the deuce point
  (23) -- a man on the bar counts as a man to enter and comes in first.  If
  that cannot be done, the throw is lost (no doublet, no extra throw).  With a
  single man left to enter (and none on the bar) there is only one man to
  place: he must enter with the 1 or the 2 and the other number is played by
  any man, both numbers being compulsory as in rule 4;
* scoring: the section is silent; rule option ``acey_deucey_gammons`` (default
  on) counts gammons and backgammons as in backgammon (000 'SCORING'), a man not
  yet entered counting like one on the bar; off, every game is a single game;
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
* acey-deucy: "the player advances men for the Ace and Deuce. He then selects
  any doublet ... playing both sides of the dice. He is then permitted another
  throw": the 1 and the 2 follow the ordinary compulsory rules (as much as can
  be played; the 1930 text has no "loses the whole throw" clause, which is the
  1973 rules' rule 4), then the doublet the player selects, both sides of it;
  the extra throw follows when both sides of that doublet were played in full,
  as after every doublet of these rules ("as in Russian Backgammon");
* bearing off only from the point that exactly matches the number thrown; if
  that point is empty a man on a higher point must move, and if none can the
  throw is lost;
* "Gammons and backgammons are not scored";
* the first play: both throw two dice, the higher re-throws.

Interpretations where the books are silent (each tested):

* "as in Russian Backgammon" brings 003 ch.10 II along: all four plays of a side
  must be made or the other side cannot be used, and all of the throw must be
  played before the next throw.
* In the 1973 rules the doublet named after acey-deucy is any of the six, even
  one that cannot be played; only the 1 and 2 are all-or-nothing (rule 4).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.dice import Dice
from engine.move import Play
from engine.player import Player
from engine.position import BAR, CHECKERS, OFF, WAITING, Position
from engine.rules import KickedOff, OpeningMethod, RuleOptions
from engine.variant import Choice, EndTurn, Stage, Step, ThrowAgain, TurnContext, register
from engine.variants import notation as variant_notation
from engine.variants.common import BookVariant, both_sides, complete
from engine.variants.movement import MIRROR, MovementRules

DOUBLETS: tuple[str, ...] = ("1", "2", "3", "4", "5", "6")
"""The options of the doublet named after acey-deucy."""

ACEY_DEUCY_RULE = "After acey-deucy you must first play the 1 and the 2."
SETTING_UP_RULE = (
    "While you still have men to enter, acey-deucy must first place one man on your ace "
    "point (in/24) and one on your deuce point (in/23); with one man left, enter him with "
    "the 1 or the 2 and play the other number (000 'SETTING UP THE MEN')."
)


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
    sources = ("Milton Bradley 1973, 'The Game of Acey-Deucy'",)
    opposite = MIRROR
    movement = MovementRules("Acey-Deucey", opposite=MIRROR, hit_to=BAR)
    """``kicked_off = enter-first`` (the default): a kicked-off man waits on the bar."""
    reserve_movement = MovementRules("Acey-Deucey", opposite=MIRROR, hit_to=WAITING)
    """``kicked_off = reserve``: he rejoins the men not yet entered."""

    def opening_method(self, rules: RuleOptions) -> OpeningMethod:
        """'RULES FOR PLAYING': the higher throw may be played or thrown again."""
        return OpeningMethod.TWO_DICE_CHOICE

    def movement_for(self, rules: RuleOptions) -> MovementRules:
        if rules.kicked_off is KickedOff.RESERVE:
            return self.reserve_movement
        return self.movement

    def gammons_counted(self, rules: RuleOptions) -> bool:
        return rules.acey_deucey_gammons

    def resolve_play(self, text: str, position: Position, player: Player, stage: Stage,
                     plays: Sequence[Play]) -> Play:
        """As for every book variant; ``bar`` names the reserve when no man is on the bar."""
        side = position.sides[player]
        movement = self.movement if side[BAR] or not side[WAITING] else self.reserve_movement
        return variant_notation.resolve_play(text, position, player, plays, movement)

    def legal_plays(self, position: Position, player: Player, stage: Stage,
                    turn: TurnContext) -> list[Play]:
        plays = super().legal_plays(position, player, stage, turn)
        if turn.plays or not is_acey_deucy(turn.dice) or stage.dice != (1, 2):
            return plays
        side = position.sides[player]
        if side[WAITING]:
            # 'SETTING UP THE MEN': first one man on the ace point, one on the deuce point.
            if side[WAITING] + side[BAR] >= 2:
                fits = [p for p in plays
                        if len(p.moves) == 2 and all(m.src >= BAR for m in p.moves)]
            else:  # the last man to enter: he comes in with the 1 or the 2
                fits = [p for p in plays
                        if len(p.moves) == 2 and any(m.src == WAITING for m in p.moves)]
        else:
            # Rule 4: "If the player cannot use all of the first part ... he loses
            # the whole throw" -- unless the play takes off his last man and wins
            # ('WINNING THE GAME').
            fits = [p for p in plays
                    if len(p.dice) == 2 or p.position.sides[player][OFF] == CHECKERS]
        return fits or [Play((), (), position)]

    def next_step(self, turn: TurnContext) -> Step:
        dice = turn.dice
        if not is_acey_deucy(dice):
            if not turn.plays:
                return Stage(dice.moves())
            return EndTurn()
        if not turn.plays:
            if turn.position.sides[turn.player][WAITING]:
                return Stage((1, 2), label="the 1 and the 2 of acey-deucy",
                             rule=SETTING_UP_RULE)
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

    def describe(self, rules: RuleOptions | None = None) -> list[str]:
        # A kicked-off man and the scoring of gammons are rule options, described
        # with the options in force (RuleOptions.describe("acey-deucey")).
        return [
            *super().describe(rules),
            "the board starts empty; enter your men in the table where your opponent's "
            "home is, and move them before all are entered if you like",
            "acey-deucy (1-2): play the 1 and the 2 (or lose the whole throw), name any "
            "doublet and play it four times, then throw again; while you still have men "
            "to enter, the 1 and 2 must enter men on your ace and deuce points",
            "doublets: four plays, as in backgammon",
        ]


@register
class AceyDeucey1930(BookVariant):
    """Acey-Deucey as in Boyden, *The New Backgammon* (1930), ch.12."""

    name = "acey-deucey-1930"
    title = "Acey-Deucey (1930 rules)"
    aliases = ("acey-deucy-1930", "aceydeucey-1930", "acey-deucey-navy")
    sources = ("Boyden 1930, ch.12 Acey-Deucey",)
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
            return Stage((1, 2), label="the 1 and the 2 of acey-deucy")
        if not turn.choices:
            return doublet_choice()
        return both_sides(turn, int(turn.choices[0]), start=1, rethrow=True,
                          reason="acey-deucy played in full: throw again")

    def describe(self, rules: RuleOptions | None = None) -> list[str]:
        return [
            *super().describe(rules),
            "the board starts empty; men may move before all are entered",
            "a man taken up must re-enter before his owner moves any other man",
            "doublets: four plays, then four of the reverse side (7 minus the number), "
            "then throw again, after every doublet",
            "acey-deucy (1-2): play what you can of the 1 and the 2, name any doublet, "
            "play both its sides, then throw again if you played all eight",
            "bearing off only with the exact number",
        ]

"""French backgammon -- 003_0f278e3a5d776312.txt ch.11 (Boyden, 1930).

* "The game begins with all the men off the table.  Each player throws two
  dice.  High wins, and he either may use his first throw or throw again."
* Each player enters in the left-hand table on his own side; the second player
  "in the table directly opposite on the same side of the bar".  "The two
  players move in opposite directions" toward "the table from which his
  Opponent started": the standard geometry (my point ``i`` is the opponent's
  ``25 - i``), each player's entering table being the opponent's home table.
* "None of a player's men may be moved until all of his men are entered."
  There is no exception here (Russian backgammon's "If only one man is left to
  enter ..." of 003 ch.10 IV is not repeated in ch.11): a stage (the two dice,
  or one side of a doublet) that starts with men to enter only enters men; the
  dice left over once the last is in are lost.  With one man left and 4-2 he
  enters with the 4 (the higher die, 003 ch.3 V / rule option ``higher_die``).
* "Doublets are played as in Russian Backgammon, using both sides of the dice
  and then throwing again.  If doublets are thrown twice in succession, the two
  sides of the dice may be used on the second throw, but a third throw is not
  permitted."  As in Russian backgammon (003 ch.10 II), all four plays of one
  side must be made or the other side cannot be used, nor the extra throw.
* "If a doublet is thrown when entering, four men may be entered for each side
  of the dice."
* Points with two men are blocked; single men are taken up to the bar and
  "must be reentered in the original table before their owner may move any
  more men"; bearing off as in regular backgammon, and only with every man in
  the final table (a man hit while bearing off must come round again first).
"""

from __future__ import annotations

from engine.move import Play
from engine.player import Player
from engine.position import BAR, WAITING, Position
from engine.rules import OpeningMethod, RuleOptions
from engine.variant import EndTurn, Stage, Step, TurnContext, register
from engine.variants.common import BookVariant, both_sides, higher_die
from engine.variants.movement import MIRROR, MovementRules, entry_plays


@register
class FrenchBackgammon(BookVariant):
    """French backgammon (003 ch.11)."""

    name = "french"
    title = "French backgammon"
    aliases = ("french-backgammon",)
    sources = ("Boyden 1930, ch.11 French Backgammon",)
    opposite = MIRROR
    movement = MovementRules("French backgammon", opposite=MIRROR, hit_to=BAR,
                             enter_before_moving=True)

    def opening_method(self, rules: RuleOptions) -> OpeningMethod:
        return OpeningMethod.TWO_DICE_CHOICE

    def legal_plays(self, position: Position, player: Player, stage: Stage,
                    turn: TurnContext) -> list[Play]:
        if position.sides[player][WAITING]:
            return entry_plays(position, player, stage.dice, self.movement,
                               higher_die=higher_die(turn))
        return super().legal_plays(position, player, stage, turn)

    def illegal_play_message(self, turn: TurnContext, stage: Stage, play: Play) -> str:
        waiting = turn.position.sides[turn.player][WAITING]
        if waiting and any(m.src <= 24 for m in play.moves):
            return (f"In French backgammon no man may move until all 15 are entered, not "
                    f"even in the throw that enters the last one ({waiting} still to enter; "
                    "003 ch.11).")
        return super().illegal_play_message(turn, stage, play)

    def next_step(self, turn: TurnContext) -> Step:
        dice = turn.dice
        if not dice.is_double:
            return Stage(dice.moves()) if not turn.plays else EndTurn()
        return both_sides(turn, dice.first, rethrow=len(turn.throws) == 1,
                          reason="a doublet played on both sides: throw again")

    def describe(self, rules: RuleOptions | None = None) -> list[str]:
        return [
            *super().describe(rules),
            "the board starts empty; each player enters in the table where his "
            "opponent's home is and the players move in opposite directions",
            "no man moves until all 15 are entered, not even in the throw that enters "
            "the last one",
            "a man hit must re-enter before any other move",
            "doublets: four plays, then four of the reverse side (7 minus the number), "
            "then throw again; after a second doublet no third throw",
        ]

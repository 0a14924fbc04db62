"""Russian backgammon, clause by clause: 003_0f278e3a5d776312.txt ch.10
(introduction, I Throwing the Dice, II Doublets, III Entering the Men, IV Moving
the Men).

Both players enter in the same table and move the same way: my point ``i`` is
the opponent's point ``i``; a die ``d`` enters on point ``25 - d``.
"""

from __future__ import annotations

from engine.dice import Dice
from engine.move import Move, Play
from engine.player import Player
from engine.position import BAR, WAITING, Position, make_side
from engine.rules import DEFAULT_RULES, OpeningMethod
from engine.variant import EndTurn, Stage, ThrowAgain, TurnContext, get_variant
from engine.variants.russian import (
    EnteringDoublets,
    RussianBackgammon,
    RussianRestriction1,
    RussianRestriction2,
)

W, B = Player.WHITE, Player.BLACK
RUSSIAN = RussianBackgammon()


def pos_of(white: dict[int, int], black: dict[int, int] | None = None, *, waiting: int = 0,
           bar: int = 0, black_waiting: int = 0, black_bar: int = 0) -> Position:
    return Position.from_sides(make_side(white, waiting=waiting, bar=bar),
                               make_side(black or {}, waiting=black_waiting, bar=black_bar))


def ctx(position: Position, *throws: Dice, plays: tuple[tuple[Stage, Play], ...] = (),
        player: Player = W) -> TurnContext:
    return TurnContext(player, throws, plays, (), position)


def plays_of(position: Position, dice: tuple[int, ...],
             variant: RussianBackgammon = RUSSIAN, player: Player = W) -> list[Play]:
    turn = ctx(position, Dice(dice[0], dice[-1]), player=player)
    return variant.legal_plays(position, player, Stage(dice), turn)


def points(play: Play, player: Player = W) -> dict[int, int]:
    side = play.position.sides[player]
    return {i: side[i] for i in range(1, 25) if side[i]}


def test_registered_with_the_section_iii_options() -> None:
    assert get_variant("russian") is RussianBackgammon
    assert get_variant("russian-restriction-1") is RussianRestriction1
    assert get_variant("russian-r2") is RussianRestriction2
    assert isinstance(RussianBackgammon.with_options({"entering_doublets": "restriction-2"}),
                      RussianRestriction2)


def test_board_starts_clear() -> None:
    # Introduction: "Russian Backgammon starts with the board clear of all counters."
    pos = RUSSIAN.initial_position()
    assert pos.sides[W][WAITING] == 15 and pos.sides[B][WAITING] == 15


def test_opening_winner_may_throw_again_or_use_the_throw() -> None:
    # I: "High wins, and the winner either may throw again with his own dice or use
    # the initial throw for his first play."
    assert RUSSIAN.opening_method(DEFAULT_RULES) is OpeningMethod.TWO_DICE_CHOICE


# -- III Entering the Men -------------------------------------------------------


def test_men_enter_on_the_points_of_the_dice() -> None:
    # III: "if a six and three is thrown, one man is placed on point 6 and the
    # other on point 3" (counted from the outer edge: the mover's 19 and 22).
    assert [points(p) for p in plays_of(Position.empty(), (6, 3))] == [{19: 1, 22: 1}]


def test_same_table_two_men_block_the_entering_opponent() -> None:
    # III: "When a player has two men entered on the same point, that point is
    # blocked, and the Opponent cannot enter on that point."  Same table, same
    # numbering: black's two men on his 19 block white's 19.
    pos = pos_of({}, {19: 2}, waiting=15, black_waiting=13)
    plays = plays_of(pos, (6, 3))
    assert [points(p) for p in plays] == [{22: 1}]


def test_entering_man_hits_a_single_man() -> None:
    # III: "A single man on a point can be hit by the entering Opponent, and the
    # man then must be removed from the board and reentered" (IV: via the bar).
    pos = pos_of({}, {22: 1}, waiting=15, black_waiting=14)
    plays = plays_of(pos, (6, 3))
    assert len(plays) == 1
    assert Move(WAITING, 22, True) in plays[0].moves
    assert plays[0].position.sides[B][BAR] == 1


def test_doublet_while_entering_enters_four_for_each_side_then_throws_again() -> None:
    # III: "If doublets are thrown while entering, four men are entered for one
    # side of the dice and four men for the opposite side; the player then throws
    # again."
    pos = Position.empty()
    s1 = RUSSIAN.next_step(ctx(pos, Dice(5, 5)))
    assert isinstance(s1, Stage) and s1.dice == (5, 5, 5, 5)
    p1 = plays_of(pos, s1.dice)
    assert [points(p) for p in p1] == [{20: 4}]
    s2 = RUSSIAN.next_step(ctx(p1[0].position, Dice(5, 5), plays=((s1, p1[0]),)))
    assert isinstance(s2, Stage) and s2.dice == (2, 2, 2, 2)
    p2 = plays_of(p1[0].position, s2.dice)
    assert [points(p) for p in p2] == [{20: 4, 23: 4}]
    s3 = RUSSIAN.next_step(ctx(p2[0].position, Dice(5, 5), plays=((s1, p1[0]), (s2, p2[0]))))
    assert isinstance(s3, ThrowAgain)


def _doublet_turn(variant: RussianBackgammon, waiting: int) -> object:
    board = 15 - waiting
    pos = pos_of({13: board} if board else {}, waiting=waiting, black_waiting=15)
    s1 = variant.next_step(ctx(pos, Dice(4, 4)))
    assert isinstance(s1, Stage) and s1.dice == (4, 4, 4, 4)
    play = variant.legal_plays(pos, W, s1, ctx(pos, Dice(4, 4)))[0]
    assert len(play.moves) == 4
    return variant.next_step(ctx(play.position, Dice(4, 4), plays=((s1, play),)))


def test_restriction_1_no_reverse_side_while_entering() -> None:
    # III 1: "if doublets are thrown by either of the players on their initial plays
    # they shall not be allowed to use the opposite side of the dice or to have a
    # second throw."
    assert isinstance(_doublet_turn(RussianRestriction1(), 15), EndTurn)
    assert isinstance(_doublet_turn(RussianRestriction1(), 1), EndTurn)
    assert isinstance(_doublet_turn(RussianBackgammon(), 15), Stage)


def test_restriction_2_only_while_more_than_four_are_to_enter() -> None:
    # III 2: "if a doublet is thrown and the player has four or less men still to
    # enter, he enters these men and then is allowed to start moving his men and to
    # finish the throw -- using both sides of the dice and taking his second throw."
    assert isinstance(_doublet_turn(RussianRestriction2(), 5), EndTurn)
    step = _doublet_turn(RussianRestriction2(), 4)
    assert isinstance(step, Stage) and step.dice == (3, 3, 3, 3)


def test_restrictions_apply_only_while_entering_the_original_table() -> None:
    # III: "the restriction of the doublets applies only to the throws made while
    # entering the original table.  All later doubles ... are played in full."
    for variant in (RussianRestriction1(), RussianRestriction2()):
        step = _doublet_turn(variant, 0)
        assert isinstance(step, Stage) and step.dice == (3, 3, 3, 3)
    # A man re-entering from the bar is not "entering the original table".
    pos = pos_of({13: 14}, {}, bar=1, black_waiting=15)
    assert not RussianRestriction1().restricted(ctx(pos, Dice(4, 4)))
    assert RussianRestriction1().entering_doublets is EnteringDoublets.RESTRICTION_1


# -- IV Moving the Men ------------------------------------------------------------


def test_no_man_moves_until_all_are_entered() -> None:
    # IV: "All of a player's men must be entered before any may be moved."
    pos = pos_of({20: 5}, waiting=10, black_waiting=15)
    plays = plays_of(pos, (5, 3))
    assert plays and all(m.src == WAITING for p in plays for m in p.moves)


def test_last_man_enters_and_the_other_number_moves_any_man() -> None:
    # IV: "If only one man is left to enter, that man may be entered and any man
    # moved for the other of the two numbers thrown."
    pos = pos_of({13: 14}, waiting=1, black_waiting=15)
    found = [points(p) for p in plays_of(pos, (5, 3))]
    assert {13: 13, 10: 1, 20: 1} in found  # enter with the 5, 13/10 with the 3
    assert {13: 13, 8: 1, 22: 1} in found  # enter with the 3, 13/8 with the 5
    assert {13: 14, 17: 1} in found  # the entering man goes on


def test_last_man_rule_also_applies_to_doublets() -> None:
    # 003 ch.10 IV: "If only one man is left to enter, that man may be entered and
    # any man moved ... This also applies to doublets."  One to enter with 3-3: he
    # enters and the other three plays move men.
    pos = pos_of({13: 14}, waiting=1, black_waiting=15)
    plays = plays_of(pos, (3, 3, 3, 3))
    assert all(len(p.moves) == 4 for p in plays)
    assert {13: 11, 10: 3, 22: 1} in [points(p) for p in plays]


def test_two_men_left_with_a_doublet_only_enter() -> None:
    # 003 ch.10 IV: "All of a player's men must be entered before any may be moved";
    # the exception is for "only one man ... left to enter".  Two to enter with 3-3:
    # both enter and the other two 3s are lost (the rule option russian_entering
    # = enter-then-move reads 003 ch.10 III 2 instead, see test_variant_rules_fidelity).
    pos = pos_of({13: 13}, waiting=2, black_waiting=15)
    plays = plays_of(pos, (3, 3, 3, 3))
    assert [points(p) for p in plays] == [{13: 13, 22: 2}]
    assert all(m.src == WAITING for p in plays for m in p.moves)


def test_refusal_names_the_rule() -> None:
    pos = pos_of({20: 5}, waiting=10, black_waiting=15)
    turn = ctx(pos, Dice(5, 3))
    bad = Play((Move(20, 15), Move(WAITING, 22)), (5, 3), pos)
    message = RUSSIAN.illegal_play_message(turn, Stage((5, 3)), bad)
    assert message.startswith("In Russian backgammon no man may move until all 15 are entered")


def test_hit_man_reenters_before_any_other_move() -> None:
    # IV: blots "must be placed upon the bar and reentered in the first table
    # before its owner can make another move."
    pos = pos_of({13: 14}, {5: 2}, bar=1, black_waiting=13)
    plays = plays_of(pos, (6, 2))
    assert all(p.moves[0].src == BAR for p in plays)
    turn = ctx(pos, Dice(6, 2))
    bad = Play((Move(13, 7), Move(13, 11)), (6, 2), pos)
    assert "bar must re-enter" in RUSSIAN.illegal_play_message(turn, Stage((6, 2)), bad)


def test_bearing_off_as_in_regulation_backgammon() -> None:
    # IV: "The same rules are used for this as in Regulation Backgammon (see
    # Chapter 3, Section VII)"; its Example 2: six and four with nothing on the
    # 6-point: the six bears a man off the 5-point, and the four, with the 4-point
    # empty and a man still on the 5-point, must move 5/1.
    pos = pos_of({5: 2, 3: 1}, black_waiting=15)
    assert [points(p) for p in plays_of(pos, (6, 4))] == [{3: 1, 1: 1}]


def test_bearing_off_needs_every_man_home() -> None:
    # ch.3 VII: "When either player succeeds in placing all of his men in his home
    # table" -- a man still to enter is not home.
    pos = pos_of({6: 14}, waiting=1, black_waiting=15)
    assert all(p.position.sides[W][0] == 0 for p in plays_of(pos, (6, 6, 6, 6)))


# -- II Doublets -------------------------------------------------------------------


def test_second_doublet_both_sides_but_no_third_throw() -> None:
    # II: "If two doublets are thrown in succession, both sides of the second
    # doublet are played as before; but a third throw is not permitted."
    pos = pos_of({13: 15}, black_waiting=15)
    p1 = plays_of(pos, (2, 2, 2, 2))[0]
    p2 = plays_of(p1.position, (5, 5, 5, 5))[0]
    stages = ((Stage((2, 2, 2, 2)), p1), (Stage((5, 5, 5, 5)), p2))
    assert isinstance(RUSSIAN.next_step(ctx(p2.position, Dice(2, 2), plays=stages)),
                      ThrowAgain)
    second = ctx(p2.position, Dice(6, 6), Dice(2, 2), plays=stages)
    assert isinstance(RUSSIAN.next_step(second), EndTurn)
    s1 = RUSSIAN.next_step(ctx(pos, Dice(6, 6), Dice(2, 2)))
    assert isinstance(s1, Stage) and s1.dice == (2, 2, 2, 2)


def test_all_four_of_one_side_or_no_opposite_side_and_no_second_throw() -> None:
    # II: "if double fives are thrown and a player is able to play only three of
    # these fives, he is not allowed to play any of the twos on the other side of
    # the dice and is not allowed his second throw."
    # White's last three men can each play one five; black holds white's 8, 7 and
    # 6 (the same numbers: same table), so no man can play a second five.
    pos = Position.from_sides(make_side({18: 1, 17: 1, 16: 1}, off=12),
                              make_side({8: 2, 7: 2, 6: 2}, waiting=9))
    plays = plays_of(pos, (5, 5, 5, 5))
    assert all(len(p.moves) == 3 for p in plays)
    turn = ctx(plays[0].position, Dice(5, 5), plays=((Stage((5, 5, 5, 5)), plays[0]),))
    assert isinstance(RUSSIAN.next_step(turn), EndTurn)


def test_doublets_when_bearing_off_use_both_sides() -> None:
    # IV: "Both sides of the dice are used for doublets when bearing off".
    pos = pos_of({6: 4, 1: 4}, black_waiting=15)
    p1 = plays_of(pos, (6, 6, 6, 6))
    assert [points(p) for p in p1] == [{1: 4}]
    step = RUSSIAN.next_step(ctx(p1[0].position, Dice(6, 6),
                                 plays=((Stage((6, 6, 6, 6)), p1[0]),)))
    assert isinstance(step, Stage) and step.dice == (1, 1, 1, 1)
    assert [points(p) for p in plays_of(p1[0].position, step.dice)] == [{}]

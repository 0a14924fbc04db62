"""Acey-Deucey, both rule sets, clause by clause.

Classic rules: 000_54e59ca1d76a5da3.txt 'THE GAME OF ACEY-DEUCY' (sections
'SETTING UP THE MEN', 'RULES FOR PLAYING', 'ACEY-DEUCY' 1-4, 'DOUBLETS',
'KICKING-OFF', 'BLOCKADE', 'TAKING OFF').
1930 rules: 003_0f278e3a5d776312.txt ch.12 Acey-Deucey.

Points are in the mover's numbering: a die ``d`` enters on point ``25 - d``;
the opposite geometry is ``25 - i`` (each enters in the opponent's home table).
"""

from __future__ import annotations

from engine.dice import Dice
from engine.move import Move, Play
from engine.player import Player
from engine.position import BAR, WAITING, Position, make_side
from engine.rules import DEFAULT_RULES, KickedOff, OpeningMethod, RuleOptions
from engine.scoring import ResultKind
from engine.variant import Choice, EndTurn, Stage, ThrowAgain, TurnContext, get_variant
from engine.variants.acey_deucey import ACEY_DEUCY_RULE, AceyDeucey, AceyDeucey1930

W, B = Player.WHITE, Player.BLACK
CLASSIC = AceyDeucey()
NAVY = AceyDeucey1930()


def ctx(position: Position, *throws: Dice, plays: tuple[tuple[Stage, Play], ...] = (),
        choices: tuple[str, ...] = ()) -> TurnContext:
    return TurnContext(W, throws, plays, choices, position)


def white_points(play: Play) -> dict[int, int]:
    side = play.position.sides[W]
    return {i: side[i] for i in range(1, 25) if side[i]}


def plays_of(variant: AceyDeucey | AceyDeucey1930, position: Position, dice: tuple[int, ...],
             turn: TurnContext | None = None) -> list[Play]:
    turn = turn or ctx(position, Dice(dice[0], dice[-1]))
    return variant.legal_plays(position, W, Stage(dice), turn)


# -- registry and set-up -----------------------------------------------------------


def test_both_rule_sets_are_registered_by_name() -> None:
    assert get_variant("acey-deucey") is AceyDeucey
    assert get_variant("Acey-Deucy") is AceyDeucey
    assert get_variant("acey-deucey-1930") is AceyDeucey1930


def test_board_starts_empty() -> None:
    # 000 'SETTING UP THE MEN'; 003 ch.12 "The game starts with the board clear".
    for variant in (CLASSIC, NAVY):
        pos = variant.initial_position()
        assert pos.sides[W][WAITING] == 15 and pos.sides[B][WAITING] == 15


def test_classic_enters_by_the_dice_53() -> None:
    # 000 'SETTING UP THE MEN': "if you throw a 5 and a 3, enter one man on your
    # 5 point, and one man on your 3 point" -- the mover's points 20 and 22.
    plays = plays_of(CLASSIC, Position.empty(), (5, 3))
    assert {20: 1, 22: 1} in [white_points(p) for p in plays]
    both = next(p for p in plays if white_points(p) == {20: 1, 22: 1})
    assert both.position.sides[W][WAITING] == 13


def test_classic_men_may_move_before_all_are_entered() -> None:
    # 000 'RULES FOR PLAYING': "you may begin to move them as soon as one or more
    # of them have been entered" -- enter with the 5, move it on with the 3.
    plays = plays_of(CLASSIC, Position.empty(), (5, 3))
    assert {17: 1} in [white_points(p) for p in plays]


def test_any_number_of_own_men_on_a_point() -> None:
    # 000 'SETTING UP THE MEN': "You may have any number of your own men ... on
    # any one point"; four 6s enter four men on the 6-point (19).
    plays = plays_of(CLASSIC, make_pos({19: 5}, waiting=10), (6, 6, 6, 6))
    assert {19: 9} in [white_points(p) for p in plays]


def make_pos(white: dict[int, int], black: dict[int, int] | None = None, *,
             waiting: int = 0, bar: int = 0, black_waiting: int = 0,
             black_bar: int = 0) -> Position:
    return Position.from_sides(
        make_side(white, waiting=waiting, bar=bar),
        make_side(black or {}, waiting=black_waiting, bar=black_bar),
    )


# -- blockade and kicking-off (000) ----------------------------------------------


def test_two_men_block_a_point_even_for_entering() -> None:
    # 000 'BLOCKADE': two men on a point reserve it; black on his 1-point is white's 24.
    pos = make_pos({}, {1: 2}, waiting=15, black_waiting=13)
    plays = plays_of(CLASSIC, pos, (1, 3))
    assert all(m.dst != 24 for p in plays for m in p.moves)
    # The 1 can only be played by the man that came in with the 3: in/22/21.
    assert [white_points(p) for p in plays] == [{21: 1}]


def test_six_point_blockade_stops_every_throw() -> None:
    # 000 'BLOCKADE': "two of your men in each of the six successive points" -- white's
    # last man is on his 13-point and black holds white's 12..7 (black's 13..18).
    white = make_side({13: 1}, off=14)
    black = make_side({13: 2, 14: 2, 15: 2, 16: 2, 17: 2, 18: 2}, waiting=3)
    pos = Position.from_sides(white, black)
    for dice in ((3, 4), (5, 6), (6, 6, 6, 6), (1, 1, 1, 1)):
        assert plays_of(CLASSIC, pos, dice) == [Play((), (), pos)]


def test_kicked_off_man_goes_back_to_be_entered_again() -> None:
    # 000 'KICKING-OFF': the kicked-off man "must be re-entered again same as in
    # starting the game" -- he returns to black's men not yet entered, not the bar.
    pos = make_pos({}, {4: 1}, waiting=15, black_waiting=14)  # black's 4 = white's 21
    plays = plays_of(CLASSIC, pos, (4, 2))
    kick = next(p for p in plays if white_points(p).get(21))
    assert Move(WAITING, 21, True) in kick.moves
    # By default (rule option kicked_off = enter-first) he waits on the bar and must
    # come in before any other man moves ('MOVES: Same as Backgammon' brings in 000
    # 'HITTING "BLOTS"': "A player cannot move any other man while he has a blotted
    # man off the board").
    assert kick.position.sides[B][BAR] == 1
    assert kick.position.sides[B][WAITING] == 14
    # With kicked_off = reserve he returns to black's men not yet entered.
    reserve = RuleOptions(kicked_off=KickedOff.RESERVE)
    turn = TurnContext(W, (Dice(4, 2),), (), (), pos, rules=reserve)
    plays = CLASSIC.legal_plays(pos, W, Stage((4, 2)), turn)
    kick = next(p for p in plays if white_points(p).get(21))
    assert kick.position.sides[B][WAITING] == 15
    assert kick.position.sides[B][BAR] == 0


def test_men_off_the_board_need_not_be_entered_first() -> None:
    # 000 'KICKING-OFF' (the man re-enters "same as in starting the game") and
    # 'RULES FOR PLAYING' (the note advises holding a man in reserve): men off the
    # board, kicked off or never entered, need not come in before others move.
    pos = make_pos({10: 1}, {1: 1}, waiting=14, black_waiting=14)
    plays = plays_of(CLASSIC, pos, (4, 2))
    assert {4: 1} in [white_points(p) for p in plays]  # 10/6/4: no man entered


# -- acey-deucy (000 'ACEY-DEUCY' 1-4) ---------------------------------------------


def test_acey_deucy_first_plays_the_1_and_2() -> None:
    # Rule 1: "a player MUST first move or enter a man or men, as a regular one
    # and two-point throw."  (While men remain to enter, 'SETTING UP THE MEN' says
    # more: see test_variant_rules_fidelity.)
    step = CLASSIC.next_step(ctx(make_pos({13: 15}), Dice(2, 1)))
    assert isinstance(step, Stage) and step.dice == (1, 2)
    assert ACEY_DEUCY_RULE in step.rule


def test_acey_deucy_names_any_doublet_then_plays_it_four_times() -> None:
    # Rule 2: "the player names any Doublet he chooses ... and moves accordingly".
    pos = Position.empty()
    stage = Stage((1, 2))
    play = plays_of(CLASSIC, pos, (1, 2))[0]
    step = CLASSIC.next_step(ctx(play.position, Dice(1, 2), plays=((stage, play),)))
    assert isinstance(step, Choice) and step.options == ("1", "2", "3", "4", "5", "6")
    step = CLASSIC.next_step(ctx(play.position, Dice(1, 2), plays=((stage, play),),
                                 choices=("5",)))
    assert isinstance(step, Stage) and step.dice == (5, 5, 5, 5)


def test_acey_deucy_completed_gives_another_throw() -> None:
    # Rule 3: "If the player is able to complete the above plays he has another throw."
    pos = Position.empty()
    first = plays_of(CLASSIC, pos, (1, 2))[0]
    named = plays_of(CLASSIC, first.position, (6, 6, 6, 6))[0]
    assert len(named.moves) == 4
    turn = ctx(named.position, Dice(1, 2), plays=((Stage((1, 2)), first),
                                                  (Stage((6, 6, 6, 6)), named)),
               choices=("6",))
    assert isinstance(CLASSIC.next_step(turn), ThrowAgain)


def test_acey_deucy_named_doublet_not_completed_gives_no_throw() -> None:
    # Rule 3 read the other way: the named doublet only partly played, no new throw.
    # White has two men left, so four 6s can never all be played.
    pos = Position.from_sides(make_side({8: 1, 1: 1}, off=13), make_side({}, waiting=15))
    first = plays_of(CLASSIC, pos, (1, 2))[0]
    assert len(first.moves) == 2
    named = CLASSIC.legal_plays(first.position, W, Stage((6, 6, 6, 6)),
                                ctx(first.position, Dice(1, 2)))
    assert all(len(p.moves) < 4 for p in named)
    turn = ctx(named[0].position, Dice(1, 2),
               plays=((Stage((1, 2)), first), (Stage((6, 6, 6, 6)), named[0])), choices=("6",))
    assert isinstance(CLASSIC.next_step(turn), EndTurn)


def _one_die_only() -> Position:
    # White: one man to enter, 14 on his 3-point.  Black holds white's 24, 23 and 2
    # (black's 1, 2 and 23): the 2 can be played (3/1), the 1 cannot.
    return make_pos({3: 14}, {1: 2, 2: 2, 23: 2}, waiting=1)


def test_acey_deucy_not_fully_playable_loses_the_whole_throw() -> None:
    # Rule 4: "If the player cannot use all of the first part ... he loses the whole
    # throw."  (In an ordinary throw the 2 alone would have to be played.)
    pos = _one_die_only()
    turn = ctx(pos, Dice(1, 2))
    assert CLASSIC.legal_plays(pos, W, Stage((1, 2)), turn) == [Play((), (), pos)]
    after = ctx(pos, Dice(1, 2), plays=((Stage((1, 2)), Play((), (), pos)),))
    assert isinstance(CLASSIC.next_step(after), EndTurn)


def test_other_doublets_are_as_in_backgammon() -> None:
    # 000 'DOUBLETS: Same as Backgammon': four plays, no reverse side, no new throw.
    pos = Position.empty()
    step = CLASSIC.next_step(ctx(pos, Dice(4, 4)))
    assert isinstance(step, Stage) and step.dice == (4, 4, 4, 4)
    play = plays_of(CLASSIC, pos, (4, 4, 4, 4))[0]
    assert isinstance(CLASSIC.next_step(ctx(play.position, Dice(4, 4),
                                            plays=((step, play),))), EndTurn)


def test_classic_opening_throw_may_be_played_or_thrown_again() -> None:
    # 000 'RULES FOR PLAYING': "He has his choice of moving according to the throw
    # which gave him the lead, or of again throwing the dice."
    assert CLASSIC.opening_method(DEFAULT_RULES) is OpeningMethod.TWO_DICE_CHOICE


# -- taking off (000 'TAKING OFF') ---------------------------------------------------


def test_taking_off_needs_every_man_home_including_unentered_ones() -> None:
    # "it is essential that all the men be within the Home Table".
    pos = make_pos({6: 14}, waiting=1)
    plays = plays_of(CLASSIC, pos, (6, 5))
    assert all(p.position.sides[W][0] == 0 for p in plays)


def test_taking_off_exact_point_first() -> None:
    # FIRST: "For a throw of 4 and 2, one man may be taken from each".
    pos = Position.from_sides(make_side({4: 1, 2: 1, 6: 1}, off=12), make_side({}, waiting=15))
    plays = plays_of(CLASSIC, pos, (4, 2))
    assert {6: 1} in [white_points(p) for p in plays]


def test_taking_off_lower_point_only_when_higher_points_are_empty() -> None:
    # SECOND: "If 6 and 5 are thrown, and there are no men on the six and five
    # points, two men may be taken from the highest points occupied."
    pos = Position.from_sides(make_side({4: 1, 3: 1, 1: 1}, off=12), make_side({}, waiting=15))
    plays = plays_of(CLASSIC, pos, (6, 5))
    assert [white_points(p) for p in plays] == [{1: 1}]


def test_taking_off_double_four_from_the_next_lower_point() -> None:
    # "If double four is thrown, and there are no men on the 4, 5 or 6 point, four
    # men may be removed from the next lower point."
    pos = Position.from_sides(make_side({3: 4, 1: 1}, off=10), make_side({}, waiting=15))
    plays = plays_of(CLASSIC, pos, (4, 4, 4, 4))
    assert {1: 1} in [white_points(p) for p in plays]


def test_taking_off_higher_men_must_move_up() -> None:
    # "When there are no men on the points thrown, and the points of higher number
    # contain men, the latter must be moved up toward the ace point, instead of
    # taken off."  Men on 6 and 5, a 4 and a 3: both must move inside the table.
    pos = Position.from_sides(make_side({6: 1, 5: 1}, off=13), make_side({}, waiting=15))
    plays = plays_of(CLASSIC, pos, (4, 3))
    assert plays and all(len(p.moves) == 2 for p in plays)
    assert all(m.dst != 0 for p in plays for m in p.moves)


# -- the 1930 rules (003 ch.12) ------------------------------------------------------


def test_1930_men_may_advance_before_all_are_entered() -> None:
    # "It is not necessary to have all the men entered before advancing any".
    plays = plays_of(NAVY, Position.empty(), (6, 5))
    assert {14: 1} in [white_points(p) for p in plays]


def test_1930_doublet_when_entering_three_ways() -> None:
    # "four men may be entered on the corresponding point, or two men may be entered
    # and then advanced the remaining number of spaces, or one man may be entered
    # and advanced three times the number of spaces."  Four 4s: 21 x4; 21 and 13;
    # one man to 9.
    found = [white_points(p) for p in plays_of(NAVY, Position.empty(), (4, 4, 4, 4))]
    assert {21: 4} in found and {21: 1, 13: 1} in found and {9: 1} in found


def test_1930_doublet_then_reverse_side_then_throw_again() -> None:
    # "double the moves may be made, plus the play for the double on the reverse
    # side of the dice as in Russian Backgammon.  A second throw then is permitted."
    pos = Position.empty()
    first = NAVY.next_step(ctx(pos, Dice(5, 5)))
    assert isinstance(first, Stage) and first.dice == (5, 5, 5, 5)
    p1 = plays_of(NAVY, pos, (5, 5, 5, 5))[0]
    second = NAVY.next_step(ctx(p1.position, Dice(5, 5), plays=((first, p1),)))
    assert isinstance(second, Stage) and second.dice == (2, 2, 2, 2)
    p2 = plays_of(NAVY, p1.position, (2, 2, 2, 2))[0]
    third = NAVY.next_step(ctx(p2.position, Dice(5, 5), plays=((first, p1), (second, p2))))
    assert isinstance(third, ThrowAgain)


def test_1930_rethrow_after_every_successive_doublet() -> None:
    # "This re-throw is permitted after every successive doublet."
    pos = Position.empty()
    p1 = plays_of(NAVY, pos, (3, 3, 3, 3))[0]
    p2 = plays_of(NAVY, p1.position, (4, 4, 4, 4))[0]
    turn = TurnContext(W, (Dice(6, 6), Dice(5, 5), Dice(3, 3)),
                       ((Stage((3, 3, 3, 3)), p1), (Stage((4, 4, 4, 4)), p2)), (), p2.position)
    assert isinstance(NAVY.next_step(turn), ThrowAgain)


def test_1930_reverse_side_only_after_all_four_plays() -> None:
    # "as in Russian Backgammon": 003 ch.10 II "All four plays for one side of the
    # dice must be made, or the opposite side cannot be used".
    pos = Position.from_sides(make_side({3: 2}, off=13), make_side({}, waiting=15))
    p1 = plays_of(NAVY, pos, (6, 6, 6, 6))[0]
    assert p1.moves == ()  # exact bear-off: nothing on the 6-point
    turn = ctx(pos, Dice(6, 6), plays=((Stage((6, 6, 6, 6)), p1),))
    assert isinstance(NAVY.next_step(turn), EndTurn)


def test_1930_acey_deucy_then_both_sides_of_any_doublet_then_throw() -> None:
    # "the player advances men for the Ace and Deuce. He then selects any doublet ...
    # playing both sides of the dice. He is then permitted another throw".
    pos = Position.empty()
    s1 = NAVY.next_step(ctx(pos, Dice(1, 2)))
    assert isinstance(s1, Stage) and s1.dice == (1, 2)
    p1 = plays_of(NAVY, pos, (1, 2))[0]
    s2 = NAVY.next_step(ctx(p1.position, Dice(1, 2), plays=((s1, p1),)))
    assert isinstance(s2, Choice)
    s3 = NAVY.next_step(ctx(p1.position, Dice(1, 2), plays=((s1, p1),), choices=("2",)))
    assert isinstance(s3, Stage) and s3.dice == (2, 2, 2, 2)
    p3 = plays_of(NAVY, p1.position, (2, 2, 2, 2))[0]
    s4 = NAVY.next_step(ctx(p3.position, Dice(1, 2), plays=((s1, p1), (s3, p3)),
                            choices=("2",)))
    assert isinstance(s4, Stage) and s4.dice == (5, 5, 5, 5)
    p4 = plays_of(NAVY, p3.position, (5, 5, 5, 5))[0]
    s5 = NAVY.next_step(ctx(p4.position, Dice(1, 2), plays=((s1, p1), (s3, p3), (s4, p4)),
                            choices=("2",)))
    assert isinstance(s5, ThrowAgain)


def test_1930_hit_man_goes_to_the_bar_and_enters_before_any_other_move() -> None:
    # "the counter may be taken up by the Opponent and then must be reentered
    # before its owner can move any more men."
    pos = make_pos({}, {4: 1}, waiting=15, black_waiting=14)
    hit = next(p for p in plays_of(NAVY, pos, (4, 2)) if white_points(p).get(21))
    assert hit.position.sides[B][BAR] == 1
    # Now black (bar 1, 14 waiting, nothing else) must bring the bar man in first.
    after = make_pos({10: 1}, {20: 1}, waiting=14, black_bar=1, black_waiting=13)
    plays = NAVY.legal_plays(after, B, Stage((6, 5)), TurnContext(B, (Dice(6, 5),), (), (),
                                                                   after))
    assert all(p.moves[0].src == BAR for p in plays)


def test_1930_bear_off_only_with_the_exact_number() -> None:
    # "a man can be taken only from the point which exactly corresponds to the number
    # thrown ... if double sixes are thrown and there are no men on point 6, the
    # player loses his throw."
    pos = Position.from_sides(make_side({4: 1, 2: 2}, off=12), make_side({}, waiting=15))
    assert plays_of(NAVY, pos, (6, 6, 6, 6)) == [Play((), (), pos)]
    # The regular rules (the 1973 set) take all three off with four 6s:
    assert all(p.position.sides[W][0] == 15 for p in plays_of(CLASSIC, pos, (6, 6, 6, 6)))


def test_1930_three_with_a_man_on_three_may_throw_off_or_move_from_higher() -> None:
    # "If a three is thrown and there is a man on point 3, the player may choose
    # whether to throw off this man or move a man from a higher counting point as
    # from point 4 to point 1."
    # With 3-6 the 6 can't be used at all (nothing on the 6-point), so the 3 is
    # played either way.
    pos = Position.from_sides(make_side({4: 1, 3: 1}, off=13), make_side({}, waiting=15))
    plays = plays_of(NAVY, pos, (3, 6))
    assert {p.moves for p in plays} == {(Move(3, 0),), (Move(4, 1),)}


def test_1930_empty_point_obliges_a_move_from_higher_else_throw_lost() -> None:
    # "If, however, point 3 is vacant, the player is obliged to move a man from a
    # higher counting point. If he has no man on any higher counting point and
    # point 3 is vacant, he loses his throw."
    pos = Position.from_sides(make_side({5: 1, 1: 1}, off=13), make_side({}, waiting=15))
    plays = plays_of(NAVY, pos, (3, 3, 3, 3))
    assert all(p.moves[0] == Move(5, 2) for p in plays)
    low = Position.from_sides(make_side({2: 1, 1: 1}, off=13), make_side({}, waiting=15))
    assert plays_of(NAVY, low, (3, 3, 3, 3)) == [Play((), (), low)]


def test_1930_gammons_are_not_scored() -> None:
    # "Gammons and backgammons are not scored."
    pos = Position.from_sides(make_side({}, off=15), make_side({}, waiting=15))
    assert NAVY.result_kind(pos, W) is ResultKind.SINGLE
    assert CLASSIC.result_kind(pos, W) is ResultKind.BACKGAMMON


def test_1930_opening_high_rethrows() -> None:
    # "Each player throws two dice. High wins and re-throws for his first play."
    assert NAVY.opening_method(DEFAULT_RULES) is OpeningMethod.TWO_DICE_RETHROW

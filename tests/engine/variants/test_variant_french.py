"""French backgammon, clause by clause: 003_0f278e3a5d776312.txt ch.11.

The players move in opposite directions, each entering in the table his
opponent moves to: the standard geometry (my point ``i`` is the opponent's
``25 - i``); a die ``d`` enters on the mover's point ``25 - d``.
"""

from __future__ import annotations

from engine.dice import Dice
from engine.move import Move, Play
from engine.player import Player
from engine.position import BAR, WAITING, Position, make_side
from engine.rules import DEFAULT_RULES, OpeningMethod
from engine.variant import EndTurn, Stage, ThrowAgain, TurnContext, get_variant
from engine.variants.french import FrenchBackgammon

W, B = Player.WHITE, Player.BLACK
FRENCH = FrenchBackgammon()


def pos_of(white: dict[int, int], black: dict[int, int] | None = None, *, waiting: int = 0,
           bar: int = 0, black_waiting: int = 0) -> Position:
    return Position.from_sides(make_side(white, waiting=waiting, bar=bar),
                               make_side(black or {}, waiting=black_waiting))


def ctx(position: Position, *throws: Dice,
        plays: tuple[tuple[Stage, Play], ...] = ()) -> TurnContext:
    return TurnContext(W, throws, plays, (), position)


def plays_of(position: Position, dice: tuple[int, ...]) -> list[Play]:
    return FRENCH.legal_plays(position, W, Stage(dice), ctx(position, Dice(dice[0], dice[-1])))


def points(play: Play, player: Player = W) -> dict[int, int]:
    side = play.position.sides[player]
    return {i: side[i] for i in range(1, 25) if side[i]}


def test_registered() -> None:
    assert get_variant("french") is FrenchBackgammon


def test_game_begins_with_all_men_off_the_table() -> None:
    # "The game begins with all the men off the table."
    pos = FRENCH.initial_position()
    assert pos.sides[W][WAITING] == 15 and pos.sides[B][WAITING] == 15


def test_opening_high_may_use_his_throw_or_throw_again() -> None:
    # "Each player throws two dice. High wins, and he either may use his first throw
    # or throw again."
    assert FRENCH.opening_method(DEFAULT_RULES) is OpeningMethod.TWO_DICE_CHOICE


def test_players_enter_in_opposite_tables_and_move_in_opposite_directions() -> None:
    # "The second player enters his men in the table directly opposite" and "The two
    # players move in opposite directions": black's men on his 19 (his 6 entering
    # point) stand on white's 6-point, not in white's entering table.
    pos = pos_of({}, {19: 2}, waiting=15, black_waiting=13)
    assert [points(p) for p in plays_of(pos, (6, 3))] == [{19: 1, 22: 1}]
    # White's entering point 19 is black's 6: two black men there block it.
    blocked = pos_of({}, {6: 2}, waiting=15, black_waiting=13)
    assert [points(p) for p in plays_of(blocked, (6, 3))] == [{22: 1}]


def test_no_man_moves_until_all_are_entered() -> None:
    # "None of a player's men may be moved until all of his men are entered."
    pos = pos_of({20: 3}, waiting=12, black_waiting=15)
    plays = plays_of(pos, (4, 2))
    assert [points(p) for p in plays] == [{20: 3, 21: 1, 23: 1}]
    bad = Play((Move(20, 16), Move(WAITING, 23)), (4, 2), pos)
    message = FRENCH.illegal_play_message(ctx(pos, Dice(4, 2)), Stage((4, 2)), bad)
    assert message.startswith("In French backgammon no man may move until all 15 are entered")


def test_once_all_are_entered_men_move_round() -> None:
    # "As soon as a player has entered all his men, he begins moving around the
    # board" -- from the next throw: "None of a player's men may be moved until all
    # of his men are entered" has no last-man exception in ch.11 (003 ch.11).
    pos = pos_of({20: 14}, waiting=1, black_waiting=15)
    assert [points(p) for p in plays_of(pos, (4, 2))] == [{20: 14, 21: 1}]
    done = pos_of({20: 14, 21: 1}, black_waiting=15)
    assert {16: 1, 18: 1, 20: 12, 21: 1} in [points(p) for p in plays_of(done, (4, 2))]


def test_doublet_when_entering_four_men_for_each_side_then_throw_again() -> None:
    # "if a double six is thrown, the player may place four men on point 6 and four
    # men on point 1; then throw again."
    pos = Position.empty()
    s1 = FRENCH.next_step(ctx(pos, Dice(6, 6)))
    assert isinstance(s1, Stage) and s1.dice == (6, 6, 6, 6)
    p1 = plays_of(pos, s1.dice)
    assert [points(p) for p in p1] == [{19: 4}]
    s2 = FRENCH.next_step(ctx(p1[0].position, Dice(6, 6), plays=((s1, p1[0]),)))
    assert isinstance(s2, Stage) and s2.dice == (1, 1, 1, 1)
    p2 = plays_of(p1[0].position, s2.dice)
    assert [points(p) for p in p2] == [{19: 4, 24: 4}]
    s3 = FRENCH.next_step(ctx(p2[0].position, Dice(6, 6), plays=((s1, p1[0]), (s2, p2[0]))))
    assert isinstance(s3, ThrowAgain)


def test_two_doublets_in_succession_no_third_throw() -> None:
    # "If doublets are thrown twice in succession, the two sides of the dice may be
    # used on the second throw, but a third throw is not permitted."
    pos = pos_of({19: 4, 24: 4}, waiting=7, black_waiting=15)
    s1 = FRENCH.next_step(ctx(pos, Dice(6, 6), Dice(3, 3)))
    assert isinstance(s1, Stage) and s1.dice == (3, 3, 3, 3)
    p1 = plays_of(pos, s1.dice)[0]
    s2 = FRENCH.next_step(ctx(p1.position, Dice(6, 6), Dice(3, 3), plays=((s1, p1),)))
    assert isinstance(s2, Stage) and s2.dice == (4, 4, 4, 4)
    p2 = plays_of(p1.position, s2.dice)[0]
    end = FRENCH.next_step(ctx(p2.position, Dice(6, 6), Dice(3, 3),
                               plays=((s1, p1), (s2, p2))))
    assert isinstance(end, EndTurn)


def test_doublets_as_in_russian_all_four_or_no_reverse_side() -> None:
    # "Doublets are played as in Russian Backgammon" -- 003 ch.10 II: all four plays
    # of one side or the opposite side cannot be used.  White's last man on his
    # 3-point can take only one 3 (it bears off).
    pos = Position.from_sides(make_side({3: 1}, off=14), make_side({}, waiting=15))
    p1 = plays_of(pos, (3, 3, 3, 3))
    assert [len(p.moves) for p in p1] == [1]
    assert isinstance(FRENCH.next_step(ctx(p1[0].position, Dice(3, 3),
                                           plays=((Stage((3, 3, 3, 3)), p1[0]),))),
                      EndTurn)


def test_blocked_points_and_hits_to_the_bar() -> None:
    # "Points containing two men are blocked points on which the Opponent cannot
    # play. Single men may be taken up and placed upon the bar".
    # Black has a blot on his 16 (white's 9) and two men on his 14 (white's 11).
    pos = pos_of({13: 15}, {16: 1, 14: 2}, black_waiting=12)
    plays = plays_of(pos, (4, 2))
    assert all(m.dst != 11 for p in plays for m in p.moves)
    hit = [p for p in plays if Move(13, 9, True) in p.moves]
    assert hit and all(p.position.sides[B][BAR] == 1 for p in hit)


def test_hit_men_reenter_before_their_owner_moves() -> None:
    # "They must be reentered in the original table before their owner may move any
    # more men."
    pos = pos_of({13: 14}, bar=1, black_waiting=15)
    plays = plays_of(pos, (5, 3))
    assert all(p.moves[0].src == BAR for p in plays)


def test_man_hit_while_bearing_off_must_come_round_first() -> None:
    # "If a man is taken up while a player is bearing off ... no more men may be
    # thrown off until that counter has been reentered and moved around the board
    # to the final table."
    pos = Position.from_sides(make_side({6: 4, 5: 4}, bar=1, off=6),
                              make_side({}, waiting=15))
    for dice in ((6, 5), (2, 2, 2, 2)):
        assert all(m.dst != 0 for p in plays_of(pos, dice) for m in p.moves)


def test_bearing_off_as_in_regulation_backgammon() -> None:
    # "he commences bearing his men off the board as in Regulation Backgammon".
    pos = Position.from_sides(make_side({4: 1, 2: 1}, off=13), make_side({}, waiting=15))
    assert [points(p) for p in plays_of(pos, (6, 5))] == [{}]

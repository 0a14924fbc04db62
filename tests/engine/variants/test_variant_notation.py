"""Variant notation (``in/22``) and the variant position text (postext)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import AmbiguousPlayError, IllegalPlayError, InvalidIdError, NotationError
from engine.move import Move, Play
from engine.player import Player
from engine.position import BAR, CHECKERS, SLOTS, WAITING, Position, make_side
from engine.variants.acey_deucey import AceyDeucey
from engine.variants.french import FrenchBackgammon
from engine.variants.movement import stage_plays
from engine.variants.notation import WrittenMove, format_play, parse_moves, resolve_play
from engine.variants.postext import decode, encode

W, B = Player.WHITE, Player.BLACK
FRENCH = FrenchBackgammon.movement
CLASSIC = AceyDeucey.movement


# -- position text -----------------------------------------------------------------


def test_start_position_text() -> None:
    assert encode(Position.empty()) == "inx15/inx15"
    assert decode("inx15/inx15") == (Position.empty(), W)


def test_documented_example_decodes_by_hand() -> None:
    pos, on_roll = decode("black:inx3,24x2,13x10/6x5,bar,offx9")
    assert on_roll is B
    assert pos.sides[B] == make_side({24: 2, 13: 10}, waiting=3)
    assert pos.sides[W] == make_side({6: 5}, bar=1, off=9)
    # Written canonically: in and bar first, then points from the highest.
    assert encode(pos, B) == "black:inx3,24x2,13x10/bar,6x5"


def test_all_off_side_is_a_dash() -> None:
    pos, _ = decode("1/-")
    assert pos.sides[B][0] == 15 and pos.sides[W][1] == 1 and pos.sides[W][0] == 14
    assert encode(pos) == "1/-"


@pytest.mark.parametrize("bad", ["inx15", "inx16/inx15", "25/inx15", "13x5,offx3/inx15",
                                 "red:inx15/inx15", "inx15/zz", "0x3/-"])
def test_bad_texts_are_refused(bad: str) -> None:
    with pytest.raises(InvalidIdError):
        decode(bad)


def _sides() -> st.SearchStrategy[tuple[int, ...]]:
    return st.lists(st.integers(0, SLOTS - 1), min_size=CHECKERS, max_size=CHECKERS).map(
        lambda slots: tuple(slots.count(i) for i in range(SLOTS)))


@given(white=_sides(), black=_sides(), on_roll=st.sampled_from(list(Player)))
def test_round_trip(white: tuple[int, ...], black: tuple[int, ...], on_roll: Player) -> None:
    pos = Position((white, black))
    assert decode(encode(pos, on_roll)) == (pos, on_roll)


# -- move notation -------------------------------------------------------------------


@pytest.mark.parametrize("text", ["in/22", "IN/22", "e/22", "enter/22", "new/22", "26/22",
                                  "in-22", "i/22", "in / 22"])
def test_entering_spellings(text: str) -> None:
    assert parse_moves(text, FRENCH) == (WrittenMove((WAITING, 22), (False,)),)


def test_bar_means_bar_where_hit_men_go_to_the_bar() -> None:
    assert parse_moves("bar/22", FRENCH)[0].points == (BAR, 22)


def test_bar_means_in_where_kicked_off_men_reenter_as_new() -> None:
    # 000 'KICKING-OFF' with the rule option kicked_off = reserve: the kicked-off man
    # rejoins the men not yet entered, so there is no bar.
    assert parse_moves("bar/22", AceyDeucey.reserve_movement)[0].points == (WAITING, 22)
    # By default (kicked_off = enter-first) he waits on the bar, as in backgammon
    # (000 'HITTING "BLOTS"', brought in by 'MOVES: Same as Backgammon').
    assert parse_moves("bar/22", CLASSIC)[0].points == (BAR, 22)


def test_counts_hits_and_chains() -> None:
    moves = parse_moves("in/20(2) 13/9*/7 6/off", FRENCH)
    assert moves == (WrittenMove((WAITING, 20), (False,), 2),
                     WrittenMove((13, 9, 7), (True, False)),
                     WrittenMove((6, 0), (False,)))


@pytest.mark.parametrize("bad", ["22/in", "in", "7/13", "13/7(5)", "30/7", "x/7"])
def test_unreadable_moves(bad: str) -> None:
    with pytest.raises(NotationError):
        parse_moves(bad, FRENCH)


def test_format_entering_plays() -> None:
    assert format_play(Play((Move(WAITING, 19), Move(WAITING, 19)), (6, 6),
                            Position.empty())) == "in/19(2)"
    assert format_play(Play((Move(WAITING, 20), Move(20, 17)), (5, 3),
                            Position.empty())) == "in/17"
    assert format_play(Play((Move(WAITING, 21, True), Move(BAR, 23)), (4, 2),
                            Position.empty())) == "in/21* bar/23"


def test_resolve_play_in_any_order_and_split() -> None:
    pos = Position.empty()
    legal = stage_plays(pos, W, (5, 3), CLASSIC)
    for text in ("in/17", "in/20 20/17", "in/22/17", "e/20, 20/17"):
        play = resolve_play(text, pos, W, legal, CLASSIC)
        assert play.position.sides[W][17] == 1 and play.position.sides[W][WAITING] == 14


def test_resolve_play_refuses_with_examples() -> None:
    pos = Position.empty()
    legal = stage_plays(pos, W, (5, 3), CLASSIC)
    with pytest.raises(IllegalPlayError, match="not a legal play"):
        resolve_play("in/21", pos, W, legal, CLASSIC)


def test_resolve_play_hit_marks_disambiguate() -> None:
    # White's man on 13 with 4-2 to 7: via 9 (black blot there) or via 11 (empty).
    pos = Position.from_sides(make_side({13: 1}, off=14), make_side({16: 1}, waiting=14))
    legal = stage_plays(pos, W, (4, 2), FRENCH)
    quiet = resolve_play("13/7", pos, W, legal, FRENCH)
    assert quiet.position.sides[B][BAR] == 0
    hit = resolve_play("13/9*/7", pos, W, legal, FRENCH)
    assert hit.position.sides[B][BAR] == 1


def test_resolve_ambiguous() -> None:
    # Two blots on 11 and 9 (black's 14 and 16): 13/7 hits on either way.
    pos = Position.from_sides(make_side({13: 1}, off=14),
                              make_side({16: 1, 14: 1}, waiting=13))
    legal = stage_plays(pos, W, (4, 2), FRENCH)
    with pytest.raises(AmbiguousPlayError):
        resolve_play("13/7", pos, W, legal, FRENCH)


def test_cli_plays_for_a_variant_reads_and_writes_position_text() -> None:
    import io

    from engine.cli import main

    out, err = io.StringIO(), io.StringIO()
    # 003 ch.10 III: with 5-5 four men enter on the 5-point (the mover's 20).
    status = main(["plays", "--variant", "russian", "inx15/inx15", "55"], stdout=out, stderr=err)
    assert status == 0 and err.getvalue() == ""
    assert out.getvalue() == "in/20(4)\tinx11,20x4/inx15\n"

"""Move notation: the syntax layer and GNU Backgammon's canonical output.

Expected canonical strings are worked out by hand from gnubg's conventions
(``FormatMove`` in drawboard.c): moves sorted by source then destination,
highest first; one checker's consecutive moves joined, keeping an
intermediate point only where a blot was hit; identical moves merged as
``(n)``; ``*`` on the first landing on a hit point; ``bar`` and ``off``.
"""

from __future__ import annotations

import pytest

from engine.errors import NotationError
from engine.move import Move, Play
from engine.movegen import legal_plays
from engine.notation import (
    MAX_TEXT,
    TypedMove,
    format_moves,
    format_play,
    format_typed,
    is_no_move,
    parse_moves,
)
from engine.player import Player
from engine.position import Position

# ---------------------------------------------------------------- syntax


def tm(*points: int, hits: tuple[bool, ...] | None = None, count: int = 1) -> TypedMove:
    return TypedMove(points, hits or (False,) * (len(points) - 1), count)


ACCEPTED = [
    ("13/7 8/7", (tm(13, 7), tm(8, 7))),
    ("8/5(2) 6/5(2)", (tm(8, 5, count=2), tm(6, 5, count=2))),
    ("24/18*/13", (tm(24, 18, 13, hits=(True, False)),)),
    ("bar/22", (tm(25, 22),)),
    ("b/22", (tm(25, 22),)),
    ("25/22", (tm(25, 22),)),
    ("bar-22", (tm(25, 22),)),
    ("BAR/22", (tm(25, 22),)),
    ("6/off", (tm(6, 0),)),
    ("6/o", (tm(6, 0),)),
    ("6/0", (tm(6, 0),)),
    ("6/OFF", (tm(6, 0),)),
    ("13-7", (tm(13, 7),)),
    ("8/7 13/7", (tm(8, 7), tm(13, 7))),
    ("13/7,8/7", (tm(13, 7), tm(8, 7))),
    ("13/7, 8/7", (tm(13, 7), tm(8, 7))),
    ("  13 / 7   8/7  ", (tm(13, 7), tm(8, 7))),
    ("13/7 *", (tm(13, 7, hits=(True,)),)),
    ("8/5 (2)", (tm(8, 5, count=2),)),
    ("8/5(2)6/5(2)", (tm(8, 5, count=2), tm(6, 5, count=2))),
    ("24/18/13", (tm(24, 18, 13),)),
    ("bar/20*/15", (tm(25, 20, 15, hits=(True, False)),)),
    ("6/5* 6/4", (tm(6, 5, hits=(True,)), tm(6, 4))),
]


@pytest.mark.parametrize(("text", "expected"), ACCEPTED)
def test_parse_accepts(text: str, expected: tuple[TypedMove, ...]) -> None:
    assert parse_moves(text) == expected


@pytest.mark.parametrize("text", ["", "   ", "no move", "No Move", "pass", "cannot move", "-"])
def test_no_move_words_parse_to_nothing(text: str) -> None:
    assert is_no_move(text)
    assert parse_moves(text) == ()


REJECTED = [
    ("hello", "'hello'"),
    ("24/x", "'24/x'"),
    ("13", "only one point"),
    ("13/7 8", "only one point"),
    ("30/24", "no point 30"),
    ("24*/18", "starting point"),
    ("*24/18", "'*24/18'"),
    ("22/bar", "bar is not at the start"),
    ("off/3", "off is not at the end"),
    ("6/off/3", "off is not at the end"),
    ("8/5(0)", "count (0)"),
    ("8/5(5)", "count (5)"),
    ("13//7", "'13//7'"),
    ("13/7/", "'13/7/'"),
]


@pytest.mark.parametrize(("text", "fragment"), REJECTED)
def test_parse_rejects_with_the_offending_token(text: str, fragment: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_moves(text)
    assert fragment in str(info.value)


def test_unreadable_text_shows_the_accepted_forms() -> None:
    with pytest.raises(NotationError, match=r"13/7 8/7.*bar/22.*6/off"):
        parse_moves("13/7 8/7 foo")


def test_overlong_text_is_refused_before_parsing() -> None:
    text = "13/7 " * (MAX_TEXT // 5 + 1)
    with pytest.raises(NotationError, match=f"at most {MAX_TEXT}"):
        parse_moves(text)


def test_notation_error_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        parse_moves("!!")


def test_syntax_layer_knows_no_rules() -> None:
    # Backwards and impossible-for-the-dice moves are well-formed text.
    assert parse_moves("13/18") == (tm(13, 18),)
    assert parse_moves("24/1") == (tm(24, 1),)


def test_typed_move_hops_and_marks() -> None:
    move = tm(24, 18, 13, hits=(True, False))
    assert move.hops() == ((24, 18), (18, 13))
    assert move.marked_hits() == frozenset({18})
    assert str(move) == "24/18*/13"
    assert format_typed(parse_moves("b-22 8/5 (2)")) == "bar/22 8/5(2)"


@pytest.mark.parametrize(
    ("points", "hits", "count"),
    [((13,), (), 1), ((13, 7), (), 1), ((13, 7), (False,), 5), ((7, 25), (False,), 1)],
)
def test_typed_move_rejects_malformed_values(
    points: tuple[int, ...], hits: tuple[bool, ...], count: int
) -> None:
    with pytest.raises(ValueError):
        TypedMove(points, hits, count)


# ---------------------------------------------------------------- canonical output


def mv(src: int, dst: int, hit: bool = False) -> Move:
    return Move(src, dst, hit)


FORMATS = [
    ([mv(8, 5), mv(6, 5)], "8/5 6/5"),
    ([mv(6, 5), mv(8, 5)], "8/5 6/5"),
    ([mv(13, 7), mv(8, 7)], "13/7 8/7"),
    ([mv(13, 7), mv(13, 8)], "13/8 13/7"),
    ([mv(24, 18), mv(18, 13)], "24/13"),
    ([mv(18, 13), mv(24, 18)], "24/13"),
    ([mv(24, 18, True), mv(18, 13)], "24/18*/13"),
    ([mv(24, 18), mv(18, 13, True)], "24/13*"),
    ([mv(8, 5), mv(8, 5), mv(6, 3), mv(6, 3)], "8/5(2) 6/3(2)"),
    ([mv(24, 18), mv(24, 18), mv(13, 7), mv(13, 7)], "24/18(2) 13/7(2)"),
    ([mv(24, 18), mv(18, 12), mv(24, 18), mv(18, 12)], "24/12(2)"),
    ([mv(13, 8), mv(13, 8), mv(8, 3), mv(8, 3)], "13/3(2)"),
    ([mv(13, 9), mv(9, 5), mv(13, 9)], "13/5 13/9"),
    ([mv(8, 6), mv(6, 4), mv(6, 4), mv(4, 2)], "8/2 6/4"),
    ([mv(25, 22), mv(13, 10)], "bar/22 13/10"),
    ([mv(25, 20, True), mv(20, 15)], "bar/20*/15"),
    ([mv(6, 0), mv(5, 0)], "6/off 5/off"),
    ([mv(3, 0), mv(2, 0)], "3/off 2/off"),
    ([mv(4, 3), mv(4, 0)], "4/3 4/off"),
    ([mv(6, 1), mv(1, 0)], "6/off"),
    ([mv(8, 5, True), mv(6, 5)], "8/5* 6/5"),
    ([mv(6, 5, True), mv(8, 5)], "8/5* 6/5"),
    ([mv(13, 11), mv(6, 1, True)], "13/11 6/1*"),
    ([mv(8, 5, True), mv(8, 5), mv(6, 3), mv(6, 3)], "8/5*(2) 6/3(2)"),
    (
        [mv(24, 23, True), mv(23, 22, True), mv(22, 21), mv(21, 20)],
        "24/23*/22*/20",
    ),
    ([], ""),
]


@pytest.mark.parametrize(("moves", "expected"), FORMATS)
def test_format_moves_like_gnubg(moves: list[Move], expected: str) -> None:
    assert format_moves(moves) == expected


def test_format_play_uses_the_plays_moves() -> None:
    play = Play((mv(24, 18), mv(18, 13)), (6, 5), Position.standard())
    assert format_play(play) == "24/13"


# Every distinct opening play, as gnubg lists them (hand-derived).
OPENING = [
    (6, 5, {"24/13", "24/18 13/8", "24/18 8/3", "13/8 13/7", "13/2", "13/7 8/3", "8/3 8/2"}),
    (3, 1, {
        "8/5 6/5", "24/21 24/23", "24/20", "13/9", "6/2", "8/4", "13/10 6/5", "13/10 8/7",
        "24/21 6/5", "24/21 8/7", "24/23 13/10", "24/23 6/3", "24/23 8/5", "6/5 6/3",
        "8/7 6/3", "8/7 8/5",
    }),
]


@pytest.mark.parametrize(("d1", "d2", "expected"), OPENING)
def test_opening_plays_format_canonically(d1: int, d2: int, expected: set[str]) -> None:
    plays = legal_plays(Position.standard(), Player.WHITE, d1, d2)
    # gnubg sorts by source point, highest first: "24/23 24/21", not "24/21 24/23".
    expected = {"24/23 24/21" if e == "24/21 24/23" else e for e in expected}
    assert {format_play(p) for p in plays} == expected


def test_opening_doubles_use_counts() -> None:
    texts = {format_play(p) for p in legal_plays(Position.standard(), Player.WHITE, 3, 3)}
    assert {"8/5(2) 6/3(2)", "24/21(2) 13/10(2)", "13/7(2)", "24/18(2)"} <= texts
    texts = {format_play(p) for p in legal_plays(Position.standard(), Player.WHITE, 6, 6)}
    assert {"24/18(2) 13/7(2)", "13/7(4)", "24/18 13/7(3)"} <= texts

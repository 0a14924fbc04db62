"""eXtreme Gammon XGIDs: known IDs, round trips, consistency with GNU IDs, bad input."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from movegen_corpus import position_corpus

from engine.errors import InvalidIdError
from engine.gnubgid import decode_gnubg_id
from engine.player import Player
from engine.position import Position, make_side
from engine.xgid import (
    BOTTOM,
    STANDARD_XGID,
    TOP,
    CubeAction,
    XgidState,
    decode_position,
    decode_xgid,
    encode_position,
    encode_xgid,
)

_CORPUS = position_corpus(123, 300)


def test_starting_position() -> None:
    """XG's starting position: the bottom player's 2 on his 24 ('B' at 24), 5 on 13, 3 on 8,
    5 on 6; the top player's mirror image in lower case."""
    state = decode_xgid(STANDARD_XGID)
    assert state.position == Position.standard()
    assert state.turn == BOTTOM and state.cube_value == 1 and state.cube_owner is None
    assert state.dice is None and state.cube_action is CubeAction.NONE
    assert state.is_money and state.max_cube == 1024
    assert encode_xgid(state) == STANDARD_XGID


def test_the_same_game_as_a_gnu_id() -> None:
    """Published as the same position: 4HPwATDgc/ABMA:8IhuACAACAAE and
    XGID=-b----E-C---eE---c-e----B-:0:0:1:53:1:2:1:3:10 (3-point match, Crawford game,
    bottom player on roll with 5-3, bottom 1 point, top 2 points)."""
    xg = decode_xgid("XGID=-b----E-C---eE---c-e----B-:0:0:1:53:1:2:1:3:10")
    position, gnu = decode_gnubg_id("4HPwATDgc/ABMA:8IhuACAACAAE")
    assert xg.position == position
    assert xg.turn == gnu.turn == gnu.on_roll
    assert xg.dice == gnu.dice
    assert xg.score == gnu.score
    assert xg.match_length == gnu.match_length == 3
    assert xg.crawford and gnu.crawford
    assert xg.score[BOTTOM] == 1 and xg.score[TOP] == 2


def test_letters_bars_and_points() -> None:
    """Character 0 is the top player's bar, 25 the bottom player's; A..O are 1..15
    bottom checkers, a..o top checkers; point i is the bottom player's point i."""
    state = decode_xgid("XGID=aA----------------------cB:1:-1:-1:D:0:0:3:0:8")
    bottom = state.position.sides[BOTTOM]
    top = state.position.sides[TOP]
    assert bottom == make_side({1: 1}, bar=2)
    assert top == make_side({1: 3}, bar=1)  # 'c' on the bottom player's 24 = top's 1
    assert state.cube_value == 2 and state.cube_owner == TOP and state.turn == TOP
    assert state.cube_action is CubeAction.DOUBLED and state.dice is None
    assert state.jacoby and state.beaver and state.max_cube == 256
    assert encode_xgid(state) == "XGID=aA----------------------cB:1:-1:-1:D:0:0:3:0:8"


def test_prefix_and_max_cube_are_optional() -> None:
    short = decode_xgid("-b----E-C---eE---c-e----B-:0:0:-1:66:0:0:1:0")
    assert short.turn == TOP and short.dice == (6, 6) and short.jacoby and not short.beaver
    assert short.max_cube == 1024


def test_positions_round_trip() -> None:
    for position, _ in _CORPUS:
        assert decode_position(encode_position(position)) == position


@st.composite
def states(draw: st.DrawFn) -> XgidState:
    position, _ = draw(st.sampled_from(_CORPUS))
    length = draw(st.integers(0, 25))
    action = draw(st.sampled_from(list(CubeAction)))
    dice = None
    if action is CubeAction.NONE:
        dice = draw(st.none() | st.tuples(st.integers(1, 6), st.integers(1, 6)))
    return XgidState(
        position=position,
        turn=draw(st.sampled_from(list(Player))),
        cube_value=1 << draw(st.integers(0, 12)),
        cube_owner=draw(st.none() | st.sampled_from(list(Player))),
        dice=dice,
        cube_action=action,
        score=(draw(st.integers(0, length or 50)), draw(st.integers(0, length or 50))),
        match_length=length,
        crawford=bool(length) and draw(st.booleans()),
        jacoby=not length and draw(st.booleans()),
        beaver=not length and draw(st.booleans()),
        max_cube=1 << draw(st.integers(0, 15)),
    )


@given(states())
def test_xgid_round_trip(state: XgidState) -> None:
    assert decode_xgid(encode_xgid(state)) == state


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "1 colon-separated"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0", "7 colon-separated"),
        ("XGID=-b----E-C---eE---c-e----B:0:0:1:00:0:0:0:0:10", "25 characters"),
        ("XGID=-b----E-C---eE---c-e----B*:0:0:1:00:0:0:0:0:10", "'\\*'"),
        ("XGID=-b----E-C---eE---c-e----P-:0:0:1:00:0:0:0:0:10", "'P'"),
        ("XGID=-b----E-C---eE---c-e----BO:0:0:1:00:0:0:0:0:10", "checkers"),
        ("XGID=Bb----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10", "lower-case"),
        ("XGID=-b----E-C---eE---c-e----Bb:0:0:1:00:0:0:0:0:10", "upper-case"),
        ("XGID=-b----E-C---eE---c-e----B-:x:0:1:00:0:0:0:0:10", "whole number"),
        ("XGID=-b----E-C---eE---c-e----B-:16:0:1:00:0:0:0:0:10", "0 to 15"),
        ("XGID=-b----E-C---eE---c-e----B-:0:2:1:00:0:0:0:0:10", "cube owner"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:0:00:0:0:0:0:10", "turn"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:70:0:0:0:0:10", "dice field"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:8:0:0:7:10", "beyond"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:2:7:10", "Crawford field"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:4:0:10", "Jacoby/beaver"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:-1:0:0:0:10", "negative"),
    ],
)
def test_bad_xgids(text: str, fragment: str) -> None:
    with pytest.raises(InvalidIdError, match=fragment):
        decode_xgid(text)


def test_checkers_not_yet_entered_cannot_be_written() -> None:
    with pytest.raises(InvalidIdError, match="not yet entered"):
        encode_position(Position.empty())

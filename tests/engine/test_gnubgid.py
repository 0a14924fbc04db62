"""GNU Backgammon Position ID and Match ID.

Checked against known IDs from the GNU Backgammon manual and published
examples, against gnubg_nn's own implementation (position_id /
board_from_position_id), and against keys built bit by bit from the manual's
description with Python's standard base64 (the same alphabet, no padding).
"""

from __future__ import annotations

import base64

import gnubg_nn
import pytest
from hypothesis import given
from hypothesis import strategies as st
from movegen_corpus import from_gnubg, position_corpus, to_gnubg

from engine.errors import InvalidIdError
from engine.gnubgid import (
    GNUBG_PLAYER,
    GameState,
    MatchIdState,
    Resignation,
    decode_gnubg_id,
    decode_match_id,
    decode_position_id,
    encode_gnubg_id,
    encode_match_id,
    encode_position_id,
    gnubg_number,
)
from engine.player import Player
from engine.position import Position, make_side

_CORPUS = position_corpus(99, 400)


def _id_from_bits(bits: str, nbytes: int, length: int) -> str:
    """An ID from a bit string written in the manual's order (little-endian packing)."""
    bits = bits.ljust(nbytes * 8, "0")
    key = bytes(int(bits[i : i + 8][::-1], 2) for i in range(0, nbytes * 8, 8))
    return base64.b64encode(key).decode()[:length]


def _position_bits(first: dict[int, int], second: dict[int, int]) -> str:
    """The manual's recipe: per side, per point 1..24 then the bar, n ones and a zero."""
    out = ""
    for side in (first, second):
        for point in range(1, 26):
            out += "1" * side.get(point, 0) + "0"
    return out


# -- Position ID -----------------------------------------------------------------


def test_starting_position_id() -> None:
    """The manual's example: the starting position is 4HPwATDgc/ABMA."""
    start = {6: 5, 8: 3, 13: 5, 24: 2}
    assert _id_from_bits(_position_bits(start, start), 10, 14) == "4HPwATDgc/ABMA"
    for player in Player:
        assert encode_position_id(Position.standard(), player) == "4HPwATDgc/ABMA"
        assert decode_position_id("4HPwATDgc/ABMA", player) == Position.standard()


def test_the_player_on_roll_is_written_second() -> None:
    """Gary Wong's rec.games.backgammon example (2001): O to play a double two with four
    men on each of his 1, 2 and 3 points; X has five on his ace and one on his 2 point;
    GNU Backgammon shows Position ID XwAAgPceAAAAAA."""
    position = decode_position_id("XwAAgPceAAAAAA", Player.BLACK)
    assert position.sides[Player.BLACK] == make_side({1: 4, 2: 4, 3: 4})
    assert position.sides[Player.WHITE] == make_side({1: 5, 2: 1})
    assert encode_position_id(position, Player.BLACK) == "XwAAgPceAAAAAA"
    assert _id_from_bits(_position_bits({1: 5, 2: 1}, {1: 4, 2: 4, 3: 4}), 10, 14) == \
        "XwAAgPceAAAAAA"


def test_position_ids_agree_with_gnubg() -> None:
    """gnubg_nn's board[1] is the player on roll (the side its move generator moves)."""
    for position, player in _CORPUS:
        board = to_gnubg(position, player)
        pid = gnubg_nn.position_id(board)
        assert encode_position_id(position, player) == pid
        assert decode_position_id(pid, player) == position
        assert from_gnubg(gnubg_nn.board_from_position_id(pid), player) == position


def test_bar_and_borne_off_checkers() -> None:
    position = Position.from_sides(make_side({6: 4, 1: 2}, bar=2), make_side({20: 1}, bar=3))
    expected = _id_from_bits(_position_bits({20: 1, 25: 3}, {6: 4, 1: 2, 25: 2}), 10, 14)
    assert encode_position_id(position, Player.WHITE) == expected
    decoded = decode_position_id(expected, Player.WHITE)
    assert decoded == position and decoded.off(Player.WHITE) == 7


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "exactly 14 characters"),
        ("4HPwATDgc/ABM", "exactly 14 characters"),
        ("4HPwATDgc/ABMAA", "exactly 14 characters"),
        ("4HPwATDgc/AB!A", "exactly 14 characters"),
        ("4HPwATDgc/ABMB", "last character"),
        ("/////////////w", "more checkers"),
        (_id_from_bits(_position_bits({6: 16}, {}), 10, 14), "16 checkers"),
        (_id_from_bits(_position_bits({6: 2}, {19: 2}), 10, 14), "same point"),
        (_id_from_bits(_position_bits({6: 2}, {6: 2}) + "0011", 10, 14), "stray bits"),
    ],
)
def test_bad_position_ids(text: str, fragment: str) -> None:
    with pytest.raises(InvalidIdError, match=fragment):
        decode_position_id(text)


def test_blanks_around_an_id_are_ignored() -> None:
    assert decode_position_id("  4HPwATDgc/ABMA\n") == Position.standard()


# -- Match ID --------------------------------------------------------------------


def test_known_match_id() -> None:
    """8IhuACAACAAE, decoded by hand from the manual's bit table:

    key bytes F0 88 6E 00 20 00 08 00 04 -> cube 2^0, centred (11), player 1 on roll,
    Crawford, game state 000, turn player 1, no double, no resignation, dice 5 and 3,
    3-point match, player 0 has 2, player 1 has 1, bit 66 set (Jacoby off).  The same
    position is published as XGID=-b----E-C---eE---c-e----B-:0:0:1:53:1:2:1:3:10.
    """
    state = decode_match_id("8IhuACAACAAE")
    assert state == MatchIdState(
        cube_value=1, cube_owner=None, on_roll=GNUBG_PLAYER[1], crawford=True,
        game_state=GameState.NONE, turn=GNUBG_PLAYER[1], double_offered=False,
        resignation=Resignation.NONE, dice=(5, 3), match_length=3,
        score=(2, 1) if GNUBG_PLAYER[0] == Player.WHITE else (1, 2), jacoby=False,
    )
    assert encode_match_id(state) == "8IhuACAACAAE"


def _match_bits(cube_log: int = 0, owner: int = 3, move: int = 0, crawford: int = 0,
                gs: int = 1, turn: int = 0, doubled: int = 0, resign: int = 0,
                d1: int = 0, d2: int = 0, length: int = 0, s0: int = 0, s1: int = 0,
                no_jacoby: int = 0) -> str:
    def le(value: int, width: int) -> str:
        return format(value, f"0{width}b")[::-1]

    return (le(cube_log, 4) + le(owner, 2) + le(move, 1) + le(crawford, 1) + le(gs, 3)
            + le(turn, 1) + le(doubled, 1) + le(resign, 2) + le(d1, 3) + le(d2, 3)
            + le(length, 15) + le(s0, 15) + le(s1, 15) + le(no_jacoby, 1))


def test_match_id_fields_from_the_manual() -> None:
    """Player 0 doubled to 4 (he owned the 2-cube) in a 7-point match at 3-5; player 1 decides."""
    mid = _id_from_bits(_match_bits(cube_log=1, owner=0, move=0, gs=1, turn=1, doubled=1,
                                    length=7, s0=3, s1=5, no_jacoby=1), 9, 12)
    state = decode_match_id(mid)
    p0, p1 = GNUBG_PLAYER
    assert state.cube_value == 2 and state.cube_owner == p0
    assert state.on_roll == p0 and state.turn == p1 and state.double_offered
    assert state.dice is None and state.match_length == 7
    assert state.score[p0] == 3 and state.score[p1] == 5
    assert state.game_state is GameState.PLAYING and not state.jacoby
    assert encode_match_id(state) == mid


def test_old_match_ids_without_the_jacoby_bit_read_as_jacoby_on() -> None:
    """cAkAAAAAAAAA, a common 'new money game' ID: centred 1-cube, player 1 on roll, playing."""
    state = decode_match_id("cAkAAAAAAAAA")
    assert state.is_money and state.jacoby and state.cube_owner is None
    assert state.on_roll == GNUBG_PLAYER[1] and state.dice is None
    assert state.game_state is GameState.PLAYING


def test_resignation_and_dice_order() -> None:
    mid = _id_from_bits(_match_bits(move=1, turn=0, resign=2, d1=6, d2=2, length=5), 9, 12)
    state = decode_match_id(mid)
    assert state.resignation is Resignation.GAMMON and state.dice == (6, 2)
    assert state.turn == GNUBG_PLAYER[0] and state.on_roll == GNUBG_PLAYER[1]
    # gnubg writes the higher die first; a state with (2, 6) gives the same ID.
    assert encode_match_id(MatchIdState(
        on_roll=state.on_roll, turn=state.turn, resignation=state.resignation,
        dice=(2, 6), match_length=5, jacoby=True)) == mid


@pytest.mark.parametrize(
    ("bits", "fragment"),
    [
        (_match_bits(owner=2), "cube-owner"),
        (_match_bits(gs=5), "game state 5"),
        (_match_bits(d1=7, d2=1), "more than 6"),
        (_match_bits(d1=3, d2=0), "only one of the two dice"),
        (_match_bits(length=5, s0=6), "beyond the match length"),
        (_match_bits(crawford=1, length=0), "Crawford"),
    ],
)
def test_bad_match_ids(bits: str, fragment: str) -> None:
    with pytest.raises(InvalidIdError, match=fragment):
        decode_match_id(_id_from_bits(bits, 9, 12))


@pytest.mark.parametrize("text", ["", "cAkAAAAAAAA", "cAkAAAAAAAAAA", "cAkAAAAAAA-A"])
def test_malformed_match_ids(text: str) -> None:
    with pytest.raises(InvalidIdError, match="exactly 12 characters"):
        decode_match_id(text)


players = st.sampled_from(list(Player))


@st.composite
def match_states(draw: st.DrawFn) -> MatchIdState:
    length = draw(st.integers(0, 25))
    score = (draw(st.integers(0, length or 100)), draw(st.integers(0, length or 100)))
    dice = draw(st.none() | st.tuples(st.integers(1, 6), st.integers(1, 6)))
    if dice is not None:
        dice = (max(dice), min(dice))
    return MatchIdState(
        cube_value=1 << draw(st.integers(0, 15)),
        cube_owner=draw(st.none() | players),
        on_roll=draw(players),
        crawford=bool(length) and draw(st.booleans()),
        game_state=draw(st.sampled_from(list(GameState))),
        turn=draw(players),
        double_offered=draw(st.booleans()),
        resignation=draw(st.sampled_from(list(Resignation))),
        dice=dice,
        match_length=length,
        score=score,
        jacoby=draw(st.booleans()),
    )


@given(match_states())
def test_match_id_round_trip(state: MatchIdState) -> None:
    text = encode_match_id(state)
    assert len(text) == 12
    assert decode_match_id(text) == state


def test_gnubg_id_pairs() -> None:
    position, state = decode_gnubg_id("4HPwATDgc/ABMA:8IhuACAACAAE")
    assert position == Position.standard() and state.dice == (5, 3)
    assert encode_gnubg_id(position, state) == "4HPwATDgc/ABMA:8IhuACAACAAE"
    for pos, player in _CORPUS[:50]:
        full = encode_gnubg_id(pos, MatchIdState(on_roll=player, turn=player))
        assert decode_gnubg_id(full) == (pos, MatchIdState(on_roll=player, turn=player))
        assert decode_gnubg_id("GNUBGID " + full)[0] == pos
    with pytest.raises(InvalidIdError, match="separated by a colon"):
        decode_gnubg_id("4HPwATDgc/ABMA")


def test_player_numbering_is_one_table() -> None:
    assert sorted(GNUBG_PLAYER) == list(Player)
    for n in (0, 1):
        assert gnubg_number(GNUBG_PLAYER[n]) == n


def test_checkers_not_yet_entered_cannot_be_written() -> None:
    with pytest.raises(InvalidIdError, match="not yet entered"):
        encode_position_id(Position.empty(), Player.WHITE)

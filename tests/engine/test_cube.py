"""The doubling cube.

Sources: 001_1fd58179962334fd.txt 'THE DOUBLING TRACK'; 002_de81a0fe2cc80ee1.txt
'DOUBLING' and 'OPTIONAL RULES' (automatic doubles, beavers);
003_0f278e3a5d776312.txt ch.4 I-II; 004_8ad0f3fa7d887f72.txt 'OPTIONAL DOUBLING'.
"""

from __future__ import annotations

import pytest

from engine.cube import Cube
from engine.errors import CubeError
from engine.player import Player

W, B = Player.WHITE, Player.BLACK


@pytest.mark.parametrize("player", [W, B])
def test_centred_cube_either_player_may_double(player: Player) -> None:
    """002 'DOUBLING': "a player who feels he has a sufficient advantage may propose
    doubling"; the cube starts in the middle."""
    cube = Cube().double(player)
    assert cube.offer is not None and cube.offer.doubler is player and cube.offer.value == 2
    assert cube.value == 1 and cube.turned


def test_take_gives_the_taker_the_cube_at_twice_the_value() -> None:
    """002 'DOUBLING': "A player who accepts a double becomes the owner of the cube and
    only he may make the next double"; 001 'THE DOUBLING TRACK' example (4 -> 8)."""
    cube = Cube(value=4, owner=B).double(B).take(W)
    assert (cube.value, cube.owner, cube.offer) == (8, W, None)


def test_only_owner_may_redouble() -> None:
    """001_1fd58179962334fd.txt 'THE DOUBLING TRACK': "the right to re-double belongs
    exclusively to the player who last accepted a double"; 003 ch.4 II."""
    cube = Cube().double(W).take(B)
    with pytest.raises(CubeError, match="Only the cube owner may redouble"):
        cube.double(W)
    assert cube.double(B).offer is not None


@pytest.mark.parametrize(("value", "expected"), [(1, 1), (2, 2), (8, 8)])
def test_drop_loses_the_value_before_the_double(value: int, expected: int) -> None:
    """001 'THE DOUBLING TRACK': "if the counter was on '8', and a player wanted to
    redouble the stakes to put it at '16', the opponent choosing to drop the redouble
    would lose a '8' points game"; 002: refusing the first double pays one point."""
    owner = None if value == 1 else W
    cube = Cube(value=value, owner=owner).double(W)
    assert cube.drop_value(B) == expected


@pytest.mark.parametrize("action", ["take", "drop", "beaver"])
def test_doubler_cannot_answer_his_own_double(action: str) -> None:
    cube = Cube().double(W)
    with pytest.raises(CubeError, match="your opponent must answer"):
        if action == "take":
            cube.take(W)
        elif action == "drop":
            cube.drop_value(W)
        else:
            cube.beaver(W)


@pytest.mark.parametrize("action", ["take", "drop", "beaver"])
def test_no_offer_nothing_to_answer(action: str) -> None:
    with pytest.raises(CubeError, match=f"There is no double to {action}"):
        if action == "take":
            Cube().take(B)
        elif action == "drop":
            Cube().drop_value(B)
        else:
            Cube().beaver(B)


def test_beaver_keeps_the_cube_and_redoubles() -> None:
    """002 'OPTIONAL RULES' Beavers: "When a player is doubled, he may immediately
    redouble (beaver) while retaining possession of the cube. The original doubler has
    the option of accepting or refusing as with a normal double"."""
    beavered = Cube().double(W).beaver(B)
    assert beavered.value == 2 and beavered.owner is B
    assert beavered.offer is not None and beavered.offer.value == 4
    assert beavered.offer.answerer is W and beavered.offer.beaver
    taken = beavered.take(W)
    assert (taken.value, taken.owner) == (4, B)  # the beaverer keeps the cube
    assert beavered.drop_value(W) == 2  # refusing pays the stake before the redouble


def test_no_beaver_of_a_beaver() -> None:
    with pytest.raises(CubeError, match="can't beaver a beaver"):
        Cube().double(W).beaver(B).beaver(W)


@pytest.mark.parametrize(("value", "max_value", "allowed"),
                         [(1, 2, True), (2, 2, False), (32, 64, True), (64, 64, False)])
def test_max_cube(value: int, max_value: int, allowed: bool) -> None:
    """Rule option max_cube: no double past the agreed maximum."""
    cube = Cube(value=value, owner=None, max_value=max_value)
    assert cube.may_double(W) is allowed
    if not allowed:
        with pytest.raises(CubeError, match=f"maximum of {max_value}"):
            cube.double(W)


def test_beaver_respects_max_cube() -> None:
    with pytest.raises(CubeError, match="maximum of 2"):
        Cube(max_value=2).double(W).beaver(B)


def test_automatic_double_stays_in_the_middle() -> None:
    """002 'OPTIONAL RULES' Automatic Doubles: "The doubling cube is turned to 2 and
    remains in the middle"."""
    cube = Cube().automatic_double()
    assert (cube.value, cube.owner, cube.turned) == (2, None, False)
    assert cube.may_double(W) and cube.may_double(B)


def test_double_while_offer_pending() -> None:
    with pytest.raises(CubeError, match="already waiting"):
        Cube().double(W).double(B)

"""The GNU Backgammon-style text board."""

from __future__ import annotations

from engine.gnubgid import MatchIdState
from engine.player import Player
from engine.position import Position, make_side
from engine.textboard import text_board

# The starting position as GNU Backgammon draws it for the player at the bottom (X):
# X's 13-point and 24-point at the top, O's stacks mirrored.
START_ROWS = [
    " +13-14-15-16-17-18------19-20-21-22-23-24-+",
    " | X           O    |   | O              X |",
    " | X           O    |   | O              X |",
    " | X           O    |   | O                |",
    " | X                |   | O                |",
    " | X                |   | O                |",
    "^|                  |BAR|                  |",
    " | O                |   | X                |",
    " | O                |   | X                |",
    " | O           X    |   | X                |",
    " | O           X    |   | X              O |",
    " | O           X    |   | X              O |",
    " +12-11-10--9--8--7-------6--5--4--3--2--1-+",
]


def _board_part(text: str) -> list[str]:
    """The board columns only (the notes to the right are cut off)."""
    return [line[:44].rstrip() for line in text.splitlines()]


def test_starting_position_layout() -> None:
    text = text_board(Position.standard(), Player.WHITE)
    lines = _board_part(text)
    assert lines[: len(START_ROWS)] == [r.rstrip() for r in START_ROWS]
    assert "Pip count  O: 167  X: 167" in text
    assert "X: white (on roll)" in text and "O: black" in text


def test_viewer_is_drawn_at_the_bottom() -> None:
    position = Position.from_sides(make_side({1: 2}), make_side({6: 1}))
    as_white = _board_part(text_board(position, Player.WHITE))
    as_black = _board_part(text_board(position, Player.WHITE, viewer=Player.BLACK))
    # White's two checkers on his 1-point: bottom right for White ...
    assert as_white[11].endswith("X |") and as_white[10].endswith("X |")
    # ... and top right (Black's 24-point) when Black looks, marked O; the arrow points up.
    assert as_black[1].endswith("O |") and as_black[2].endswith("O |")
    assert as_black[6].startswith("v|") and as_white[6].startswith("^|")
    # Black's checker on his 6-point sits bottom right of the bar for Black, as X.
    assert as_black[11] == " |                  |   | X                |"


def test_tall_stacks_show_their_size() -> None:
    position = Position.from_sides(make_side({6: 12, 5: 3}), make_side({24: 2}, off=13))
    lines = _board_part(text_board(position, Player.WHITE))
    assert lines[7] == " |                  |   |12                |"
    assert lines[11] == " |                  |   | X  X           O |"


def test_bar_and_borne_off() -> None:
    position = Position.from_sides(make_side({6: 10}, bar=2), make_side({6: 5}, bar=1))
    text = text_board(position, Player.WHITE)
    lines = _board_part(text)
    assert lines[1][21:24] == " O "  # Black's checker on the bar, top half
    assert lines[10][21:24] == " X " and lines[11][21:24] == " X "  # White's two, bottom
    assert text.count("off: 3") == 1 and text.count("off: 9") == 1
    assert "Pip count  O: 55  X: 110" in text


def test_ids_and_match_information() -> None:
    match = MatchIdState(cube_value=4, cube_owner=Player.BLACK, on_roll=Player.WHITE,
                         turn=Player.WHITE, dice=(5, 2), match_length=7, score=(3, 4))
    text = text_board(Position.standard(), Player.WHITE, match=match, show_ids=True,
                      extra_lines=["-- end --"])
    first = text.splitlines()[:2]
    assert first[0] == " Position ID: 4HPwATDgc/ABMA"
    assert first[1].startswith(" Match ID   : ") and len(first[1].split(": ")[1]) == 12
    assert "Cube: 4 (O owns it)" in text
    assert "3 of 7 points" in text and "4 of 7 points" in text
    assert "Rolled 52" in text
    assert text.endswith("-- end --\n")


def test_checkers_waiting_to_enter_are_reported() -> None:
    text = text_board(Position.empty(), Player.WHITE, show_ids=True)
    assert text.count("to enter: 15") == 2
    assert "Position ID: (not expressible)" in text

"""A plain-text board in the style of GNU Backgammon's text board.

::

     +13-14-15-16-17-18------19-20-21-22-23-24-+
     | X           O    |   | O              X |    O: white
     | X           O    |   | O              X |    off: 0
     | X           O    |   | O                |
     | X                |   | O                |
     | X                |   | O                |
    ^|                  |BAR|                  |
     | O                |   | X                |
     | O                |   | X                |
     | O           X    |   | X                |
     | O           X    |   | X              O |    off: 0
     | O           X    |   | X              O |    X: black (on roll)
     +12-11-10--9--8--7-------6--5--4--3--2--1-+
     Pip count  O: 167  X: 167

The viewer's checkers are ``X`` and sit at the bottom; points are numbered
from the viewer's side (his home board bottom right).  A stack taller than
five shows its size in its fifth row.  Checkers on the bar are drawn in the
``BAR`` column (the opponent's in the top half, the viewer's in the bottom
half).  The ``^``/``v`` mark beside the bar points to the player on roll.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.errors import InvalidIdError
from engine.gnubgid import MatchIdState, encode_match_id, encode_position_id
from engine.movegen import MIRROR
from engine.player import Player
from engine.position import BAR, OFF, WAITING, Position
from engine.words import counted

_ROWS = 5
_MARK = {True: "X", False: "O"}


def _cell(count: int, row: int, mark: str) -> str:
    """Row ``row`` (0 = nearest the edge) of a stack of ``count`` checkers."""
    if count > _ROWS and row == _ROWS - 1:
        return f"{count:>2} "
    return f" {mark} " if count > row else "   "


def _label_row(points: Sequence[int]) -> str:
    return "".join(f"{p:->2}-" for p in points)


def text_board(
    position: Position,
    on_roll: Player | None,
    *,
    viewer: Player | None = None,
    match: MatchIdState | None = None,
    show_ids: bool = False,
    extra_lines: Iterable[str] = (),
    opposite: Sequence[int] = MIRROR,
) -> str:
    """Draw ``position`` as text.

    ``on_roll`` is the player to move (``None`` when nobody is, e.g. a
    finished game); ``viewer`` (default: the player on roll, else WHITE) is
    drawn at the bottom as ``X``.  ``match`` adds the cube, score and dice;
    ``show_ids`` adds the GNU Backgammon Position ID (and Match ID with
    ``match``) above the board.  ``extra_lines`` are appended below it.
    ``opposite`` maps the viewer's points to the opponent's numbering
    (standard geometry by default).
    """
    me = viewer if viewer is not None else (on_roll if on_roll is not None else Player.WHITE)
    opp = me.other
    mine = position.sides[me]
    theirs = position.sides[opp]

    def at(point: int) -> tuple[int, str]:
        if mine[point]:
            return mine[point], _MARK[True]
        return theirs[opposite[point]], _MARK[False]

    top_points = list(range(13, 25))
    bottom_points = list(range(12, 0, -1))

    def half_row(points: Sequence[int], row: int) -> tuple[str, str]:
        cells = []
        for p in points:
            count, mark = at(p)
            cells.append(_cell(count, row, mark))
        return "".join(cells[:6]), "".join(cells[6:])

    def side_note(player: Player) -> str:
        note = f"{_MARK[player == me]}: {player.label}"
        if player == on_roll:
            note += " (on roll)"
        return note

    def off_note(player: Player) -> str:
        side = position.sides[player]
        note = f"off: {side[OFF]}"
        if side[WAITING]:
            note += f"  to enter: {side[WAITING]}"
        return note

    top_notes = [side_note(opp), off_note(opp)]
    bottom_notes = [off_note(me), side_note(me)]
    middle_note = ""
    if match is not None:
        if match.cube_owner is None:
            middle_note = f"Cube: {match.cube_value} (centred)"
        else:
            middle_note = f"Cube: {match.cube_value} ({_MARK[match.cube_owner == me]} owns it)"
        if match.match_length:
            top_notes.append(f"{match.score[opp]} of {counted(match.match_length, 'point')}")
            bottom_notes.insert(0, f"{match.score[me]} of {counted(match.match_length, 'point')}")
        if match.crawford:
            middle_note += "  Crawford game"
        if match.dice is not None:
            roller = top_notes if match.on_roll == opp else bottom_notes
            roller.insert(len(roller) - 1 if roller is bottom_notes else 1,
                          f"Rolled {match.dice[0]}{match.dice[1]}")

    lines: list[str] = []
    if show_ids:
        try:
            pid = encode_position_id(position, on_roll if on_roll is not None else me)
        except InvalidIdError:
            pid = "(not expressible)"
        lines.append(f" Position ID: {pid}")
        if match is not None:
            lines.append(f" Match ID   : {encode_match_id(match)}")
    lines.append(f" +{_label_row(top_points[:6])}-----{_label_row(top_points[6:])}+")
    width = len(lines[-1])
    for row in range(_ROWS):
        left, right = half_row(top_points, row)
        bar = _cell(theirs[BAR], row, _MARK[False])
        note = top_notes[row] if row < len(top_notes) else ""
        lines.append(f" |{left}|{bar}|{right}|".ljust(width + 4) + note)
    arrow = " " if on_roll is None else ("^" if on_roll == me else "v")
    lines.append(f"{arrow}|{' ' * 18}|BAR|{' ' * 18}|".ljust(width + 4) + middle_note)
    start = len(bottom_notes) - _ROWS
    for row in range(_ROWS - 1, -1, -1):
        left, right = half_row(bottom_points, row)
        bar = _cell(mine[BAR], row, _MARK[True])
        index = (_ROWS - 1 - row) + start
        note = bottom_notes[index] if 0 <= index < len(bottom_notes) else ""
        lines.append(f" |{left}|{bar}|{right}|".ljust(width + 4) + note)
    lines.append(f" +{_label_row(bottom_points[:6])}-----{_label_row(bottom_points[6:])}+")
    lines.append(
        f" Pip count  O: {position.pip_count(opp)}  X: {position.pip_count(me)}"
    )
    lines.extend(extra_lines)
    return "\n".join(line.rstrip() for line in lines) + "\n"

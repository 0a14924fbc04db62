"""Engine positions <-> bgsage boards.

bgsage (the Open Sage engine) describes a position as a list of 26 integers
seen **from the side of the player on roll** (the "mover"); this layout was
read from ``bgsage/data.py`` (``board_from_gnubg_position_string``) and checked
against ``bgsage.STARTING_BOARD``, ``flip_board`` and ``possible_moves``:

=========  ===============================================================
index      meaning
=========  ===============================================================
``0``      the opponent's checkers on the bar (a count, ``>= 0``)
``1..24``  point ``i`` in the mover's own numbering (his 1-point is the last
           point of his route): ``+n`` = ``n`` of the mover's checkers,
           ``-n`` = ``n`` of the opponent's checkers
``25``     the mover's checkers on the bar (a count, ``>= 0``)
=========  ===============================================================

Borne-off checkers are implicit (15 minus the checkers on the board and bar).

The engine (:mod:`engine.position`) keeps each side in its own numbering, so
the mover's point ``i`` is his index ``i`` and the opponent's point ``q`` is
the mover's point ``25 - q`` (standard geometry, :data:`engine.movegen.MIRROR`).
Checkers not yet entered (index 26, empty-board variants) have no bgsage
representation: :func:`to_board` refuses them.

Post-move boards returned by ``checker_play``/``possible_moves`` are still from
the mover's side, so ``from_board(result, mover)`` gives the engine position.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.player import Player
from engine.position import BAR, CHECKERS, OFF, SLOTS, WAITING, Position

BOARD_SIZE = 26
OPP_BAR = 0
MOVER_BAR = 25


def to_board(position: Position, mover: Player) -> list[int]:
    """The bgsage board of ``position`` seen by ``mover`` (the player on roll).

    Raises :class:`ValueError` if a checker is still waiting to enter (index 26)
    or if both colours share a point.
    """
    mine = position.sides[mover]
    theirs = position.sides[mover.other]
    if mine[WAITING] or theirs[WAITING]:
        raise ValueError("bgsage has no place for checkers not yet entered (index 26)")
    board = [0] * BOARD_SIZE
    for i in range(1, 25):
        a, b = mine[i], theirs[25 - i]
        if a and b:
            raise ValueError(f"both colours on the mover's point {i}")
        board[i] = a - b
    board[MOVER_BAR] = mine[BAR]
    board[OPP_BAR] = theirs[BAR]
    return board


def from_board(board: Sequence[int], mover: Player) -> Position:
    """The engine position of a bgsage ``board`` seen by ``mover``.

    Raises :class:`ValueError` for a malformed board (wrong length, negative
    bar counts, more than 15 checkers a side).
    """
    if len(board) != BOARD_SIZE:
        raise ValueError(f"a bgsage board has {BOARD_SIZE} entries, not {len(board)}")
    if board[OPP_BAR] < 0 or board[MOVER_BAR] < 0:
        raise ValueError("bar counts are never negative on a bgsage board")
    mine = [0] * SLOTS
    theirs = [0] * SLOTS
    for i in range(1, 25):
        v = int(board[i])
        if v > 0:
            mine[i] = v
        elif v < 0:
            theirs[25 - i] = -v
    mine[BAR] = int(board[MOVER_BAR])
    theirs[BAR] = int(board[OPP_BAR])
    for side in (mine, theirs):
        on_board = sum(side)
        if on_board > CHECKERS:
            raise ValueError(f"{on_board} checkers on one side (at most {CHECKERS})")
        side[OFF] = CHECKERS - on_board
    sides = (tuple(mine), tuple(theirs))
    if mover is Player.WHITE:
        return Position(sides)
    return Position((sides[1], sides[0]))


def representable(position: Position) -> bool:
    """True when bgsage can evaluate ``position`` (no checker waiting to enter)."""
    return not (position.sides[0][WAITING] or position.sides[1][WAITING])

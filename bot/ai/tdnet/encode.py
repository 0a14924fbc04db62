"""The network's inputs: a position seen by the player on roll.

Each side is read in the on-roll player's own numbering (his point ``i`` is
the opponent's ``opposite[i]``: mirrored in Acey-Deucey and French
backgammon, the same direction in Russian backgammon), so a position and its
colour-swapped twin give the same inputs, and so the same evaluation.

Per point and per side, TD-Gammon's four units: one checker or more, two or
more, three or more, and half the count beyond three.  Then, per side: men on
the bar, men not yet entered (and whether any are), men borne off, and the
pip count.  :data:`INPUTS` numbers in all.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from engine.player import Player
from engine.position import BAR, OFF, WAITING, Position

POINT_UNITS = 4
INPUTS = 24 * POINT_UNITS * 2 + 2 * 5
"""How many numbers describe one position (202)."""

_PIPS = np.arange(27, dtype=np.float64)
_PIPS[WAITING] = 25.0

Matrix = npt.NDArray[np.float64]


def _gather(opposite: Sequence[int]) -> npt.NDArray[np.intp]:
    """Column indices: my 27 slots, then the opponent's 27 read on my points."""
    theirs = [27 + OFF] + [27 + opposite[i] for i in range(1, 25)] + [27 + BAR, 27 + WAITING]
    return np.array(list(range(27)) + theirs, dtype=np.intp)


_GATHERS: dict[tuple[int, ...], npt.NDArray[np.intp]] = {}


def gather_for(opposite: Sequence[int]) -> npt.NDArray[np.intp]:
    key = tuple(opposite)
    found = _GATHERS.get(key)
    if found is None:
        found = _GATHERS[key] = _gather(opposite)
    return found


def raw_sides(positions: Sequence[Position], player: Player) -> Matrix:
    """``n x 54``: each position's sides, the on-roll ``player``'s first."""
    me, other = int(player), int(player.other)
    return np.array([p.sides[me] + p.sides[other] for p in positions], dtype=np.float64)


def encode_raw(raw: Matrix, opposite: Sequence[int]) -> Matrix:
    """The inputs of positions given as :func:`raw_sides` rows."""
    counts = raw[:, gather_for(opposite)]
    n = counts.shape[0]
    out = np.empty((n, INPUTS), dtype=np.float64)
    col = 0
    for base in (0, 27):
        pts = counts[:, base + 1: base + 25]
        out[:, col: col + 24] = pts >= 1
        out[:, col + 24: col + 48] = pts >= 2
        out[:, col + 48: col + 72] = pts >= 3
        out[:, col + 72: col + 96] = np.maximum(pts - 3.0, 0.0) / 2.0
        col += 96
    for base in (0, 27):
        side = raw[:, base: base + 27]
        out[:, col] = side[:, BAR] / 2.0
        out[:, col + 1] = side[:, WAITING] / 15.0
        out[:, col + 2] = side[:, WAITING] > 0
        out[:, col + 3] = side[:, OFF] / 15.0
        out[:, col + 4] = side @ _PIPS / 200.0
        col += 5
    return out


def encode(positions: Sequence[Position], player: Player, opposite: Sequence[int]) -> Matrix:
    """The inputs of ``positions`` with ``player`` on roll."""
    return encode_raw(raw_sides(positions, player), opposite)

"""The network's inputs: a position seen by the player on roll.

Each side is read in the on-roll player's own numbering (his point ``i`` is
the opponent's ``opposite[i]``: mirrored in Acey-Deucey and French
backgammon, the same direction in Russian backgammon), so a position and its
colour-swapped twin give the same inputs, and so the same evaluation.

Per point and per side, TD-Gammon's four units: one checker or more, two or
more, three or more, and half the count beyond three.  Then, per side: men on
the bar, men not yet entered (and whether any are), men borne off, the pip
count; and a few of the features a player counts (as TD-Gammon 1.0 was given
hand-made ones, they speed the learning up): blots, points made in the home
board, the longest prime.  Last, whether the two sides can still meet
(contact) and the pip difference.  :data:`INPUTS` numbers in all.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from engine.player import Player
from engine.position import BAR, OFF, WAITING, Position

POINT_UNITS = 4
SIDE_UNITS = 8
INPUTS = 24 * POINT_UNITS * 2 + 2 * SIDE_UNITS + 2
"""How many numbers describe one position (210)."""

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


_UNITS = np.array([[n >= 1, n >= 2, n >= 3, max(n - 3, 0) / 2.0] for n in range(16)],
                  dtype=np.float64)
"""TD-Gammon's four units for a point holding 0..15 checkers."""


def _longest_prime(made: npt.NDArray[np.bool_]) -> Matrix:
    """Length of the longest run of consecutive made points, for each row."""
    best = np.zeros(made.shape[0])
    run = made
    k = 0
    while run.shape[1] and run.any():
        k += 1
        best[run.any(axis=1)] = k
        run = run[:, :-1] & made[:, k:]
    return best


_TO_26 = np.arange(1, 27, dtype=np.float64)
_TO_24 = np.arange(1, 25, dtype=np.float64)


def _rearmost(side: Matrix) -> Matrix:
    """Each row's highest occupied index (1..26; 0 when all are borne off)."""
    return np.asarray(np.max((side[:, 1:27] > 0) * _TO_26, axis=1), dtype=np.float64)


def _foremost(on_points: Matrix) -> Matrix:
    """Each row's lowest point (1..24) holding a checker; 99 when none does."""
    return np.asarray(np.min(np.where(on_points > 0, _TO_24, 99.0), axis=1), dtype=np.float64)


def encode_raw(raw: Matrix, opposite: Sequence[int]) -> Matrix:
    """The inputs of positions given as :func:`raw_sides` rows."""
    gather = gather_for(opposite)
    counts = raw[:, gather]
    n = counts.shape[0]
    out = np.empty((n, INPUTS), dtype=np.float64)
    # Per side, unit-major: 24 points of the first unit, then of the second...
    units = _UNITS[counts[:, np.r_[1:25, 28:52]].astype(np.intp)]  # n x 48 x 4
    out[:, :192] = units.reshape(n, 2, 24, POINT_UNITS).transpose(0, 1, 3, 2).reshape(n, 192)
    col = 192
    pips = []
    for base in (0, 27):
        side = raw[:, base: base + 27]
        points = side[:, 1:25]
        made = points >= 2
        out[:, col] = side[:, BAR] / 2.0
        out[:, col + 1] = side[:, WAITING] / 15.0
        out[:, col + 2] = side[:, WAITING] > 0
        out[:, col + 3] = side[:, OFF] / 15.0
        pips.append(side @ _PIPS)
        out[:, col + 4] = pips[-1] / 200.0
        out[:, col + 5] = np.sum(points == 1, axis=1) / 5.0
        out[:, col + 6] = np.sum(made[:, 0:6], axis=1) / 6.0
        out[:, col + 7] = _longest_prime(made) / 6.0
        col += SIDE_UNITS
    # Contact: an opponent's checker stands ahead of my rearmost checker on my route, or
    # one of mine ahead of his rearmost on his (``opposite`` maps both ways).
    mine_on_theirs = raw[:, [opposite[j] for j in range(1, 25)]]
    contact = (_foremost(counts[:, 28:52]) < _rearmost(raw[:, 0:27])) | (
        _foremost(mine_on_theirs) < _rearmost(raw[:, 27:54]))
    out[:, col] = contact
    out[:, col + 1] = (pips[1] - pips[0]) / 100.0
    return out


def encode(positions: Sequence[Position], player: Player, opposite: Sequence[int]) -> Matrix:
    """The inputs of ``positions`` with ``player`` on roll."""
    return encode_raw(raw_sides(positions, player), opposite)

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


def _longest_prime(made: Matrix) -> Matrix:
    """Length of the longest run of consecutive made points, for each row."""
    run = np.zeros(made.shape[0])
    best = np.zeros(made.shape[0])
    for col in range(made.shape[1]):
        run = (run + 1.0) * made[:, col]
        best = np.maximum(best, run)
    return best


def _rearmost(side: Matrix) -> Matrix:
    """Each row's highest occupied index (1..26; 0 when all are borne off)."""
    occupied = side[:, 1:27] > 0
    idx = np.arange(1, 27, dtype=np.float64)
    return np.asarray(np.max(np.where(occupied, idx, 0.0), axis=1), dtype=np.float64)


def _foremost(on_points: Matrix) -> Matrix:
    """Each row's lowest point (1..24) holding a checker; 99 when none does."""
    idx = np.arange(1, 25, dtype=np.float64)
    return np.asarray(np.min(np.where(on_points > 0, idx, 99.0), axis=1), dtype=np.float64)


def encode_raw(raw: Matrix, opposite: Sequence[int]) -> Matrix:
    """The inputs of positions given as :func:`raw_sides` rows."""
    gather = gather_for(opposite)
    counts = raw[:, gather]
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
    pips = []
    for base in (0, 27):
        side = raw[:, base: base + 27]
        points = side[:, 1:25]
        made = (points >= 2).astype(np.float64)
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

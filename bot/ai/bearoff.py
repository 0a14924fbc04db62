"""One-sided race distributions: in how many rolls one side reaches a goal, alone.

Once the two sides have passed each other (no contact), each moves without regard to
the other, so a race is two one-sided problems.  GNU Backgammon evaluates races this
way (its one-sided bear-off databases and ``raceBGprob``); :mod:`bot.ai.race` combines
the distributions computed here into win, gammon and backgammon chances.

A side is a tuple of 24 checker counts, index ``i`` for its point ``i + 1`` in its own
numbering (the 1-point is the last before bearing off); borne-off checkers are not
counted.  Three goals, each played to need the fewest rolls on average (GNU
Backgammon's criterion for its one-sided databases):

* :data:`ALL`: bear off every checker (who wins the race);
* :data:`FIRST`: bear off a first checker (a side that has borne off none: saving the
  gammon);
* :data:`ESCAPE`: bring the last checker out of the opponent's home board, the side's
  points 19-24 (saving the backgammon).

Each answer is ``dist[n]``: the chance the goal is reached with exactly the ``n``-th
roll (``dist[0]`` is 1 when it is reached already).  Distributions are computed by an
exact recursion over every roll and every legal play, lazily, and cached for the life
of the process (a bounded cache).  A :class:`Budget` bounds the work one evaluation may
do: a position too large to solve within it raises :class:`TooLarge` and the caller
keeps the network's estimate; what was solved before stays cached.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence

Side = tuple[int, ...]
"""24 checker counts, the side's own points 1..24."""
Dist = tuple[float, ...]
"""``dist[n]``: the chance of reaching the goal with exactly the ``n``-th roll."""

ALL = "all"
FIRST = "first"
ESCAPE = "escape"

ROLLS: tuple[tuple[int, int, float], ...] = tuple(
    (a, b, (1.0 if a == b else 2.0) / 36.0) for a in range(1, 7) for b in range(a, 7))
"""The 21 rolls with their chances."""

HOME = 6
"""Points 1..6 are the side's home board."""
ZONE = 18
"""Points above this one (19..24) are the opponent's home board."""
SEARCH_LIMIT = 10
"""A position whose positions below it number more than this many budgets (checkers
placed on its points, a bound) is not searched at all."""
CACHE_LIMIT = 400_000
"""Solved positions kept per goal; the cache starts afresh beyond this."""


class TooLarge(Exception):
    """The position needs more work than the evaluation's budget allows."""


class Budget:
    """How many new positions one evaluation may solve."""

    def __init__(self, states: int) -> None:
        self.full = states
        self.left = states

    def spend(self) -> None:
        self.left -= 1
        if self.left < 0:
            raise TooLarge


_cache: dict[str, dict[Side, tuple[float, Dist]]] = {ALL: {}, FIRST: {}, ESCAPE: {}}
_too_large: set[tuple[str, Side]] = set()
"""Positions a budget ran out on: not tried again (a move must stay quick)."""


def _trim(side: Sequence[int]) -> Side:
    """``side`` without its empty points above the last checker (the cache's key)."""
    top = len(side)
    while top and not side[top - 1]:
        top -= 1
    return tuple(side[:top])


def _single_moves(side: Side, die: int) -> Iterator[tuple[Side, bool]]:
    """Every position after moving one checker ``die`` pips (and whether it bore one
    off); ``side`` is trimmed, so its last point holds its rearmost checker."""
    top = len(side) - 1
    if top < 0:
        return
    all_home = top < HOME
    for i in range(top + 1):
        if not side[i]:
            continue
        target = i - die
        if target >= 0:
            s = list(side)
            s[i] -= 1
            s[target] += 1
            yield _trim(s), False
        elif all_home and (target == -1 or i == top):
            s = list(side)
            s[i] -= 1
            yield _trim(s), True


def plays(side: Side, d1: int, d2: int) -> set[tuple[Side, bool]]:
    """The distinct positions after a legal play of ``d1``-``d2`` (as many dice as can
    be played; the larger die when only one of two can), each with whether a checker
    was borne off on the way."""
    orders = ((d1,) * 4,) if d1 == d2 else ((d1, d2), (d2, d1))
    most = 0
    out: set[tuple[Side, bool]] = set()
    for dice in orders:
        layer: set[tuple[Side, bool]] = {(side, False)}
        used = 0
        for die in dice:
            nxt = {(t, off or took) for s, off in layer for t, took in _single_moves(s, die)}
            if not nxt:
                break
            layer, used = nxt, used + 1
        if used > most:
            most, out = used, set(layer)
        elif used == most:
            out |= layer
    if most == 0:
        return {(side, False)}
    if d1 != d2 and most == 1:
        one = set(_single_moves(side, max(d1, d2)))
        return one or set(_single_moves(side, min(d1, d2)))
    return out


def _done(goal: str, side: Side, took: bool) -> bool:
    if goal == FIRST:
        return took
    if goal == ESCAPE:
        return len(side) <= ZONE
    return not side


def lower_bound(goal: str, side: Side) -> int:
    """Rolls the goal needs at the very least (no search): a roll moves at most four
    checkers and 24 pips."""
    if goal == ALL:
        men, pips = sum(side), sum((i + 1) * n for i, n in enumerate(side))
        return max(math.ceil(men / 4), math.ceil(pips / 24))
    if goal == ESCAPE:
        men = sum(side[ZONE:])
        pips = sum((i - ZONE + 1) * n for i, n in enumerate(side) if i >= ZONE)
        return max(math.ceil(men / 4), math.ceil(pips / 24))
    outside = sum(n for i, n in enumerate(side) if i >= HOME)
    pips = sum((i + 1 - HOME) * n for i, n in enumerate(side) if i >= HOME)
    return max(1, math.ceil((outside + 1) / 4), math.ceil((pips + 1) / 24))


def _reduce(goal: str, side: Side) -> Side:
    """Only the checkers in the opponent's home board matter to :data:`ESCAPE` (the
    fastest escape never moves the others)."""
    if goal == ESCAPE and len(side) > ZONE:
        return (0,) * ZONE + side[ZONE:]
    return _trim(side)


def solve(goal: str, side: Side, budget: Budget | None = None) -> tuple[float, Dist]:
    """(expected rolls, distribution) of ``side`` reaching ``goal``, playing each roll to
    need the fewest rolls on average.  Raises :class:`TooLarge` past ``budget``."""
    side = _reduce(goal, side)
    if _done(goal, side, False):
        return 0.0, (1.0,)
    cache = _cache[goal]
    found = cache.get(side)
    if found is not None:
        return found
    if budget is not None:
        budget.spend()
    expected = 1.0
    acc: list[float] = [0.0]
    for d1, d2, chance in ROLLS:
        best: tuple[float, Dist] | None = None
        for s, took in plays(side, d1, d2):
            s = _reduce(goal, s)
            sub = (0.0, (1.0,)) if _done(goal, s, took) else solve(goal, s, budget)
            if best is None or sub[0] < best[0] - 1e-12:
                best = sub
        assert best is not None
        expected += chance * best[0]
        if len(acc) < len(best[1]) + 1:
            acc.extend([0.0] * (len(best[1]) + 1 - len(acc)))
        for n, p in enumerate(best[1]):
            acc[n + 1] += chance * p
    result = (expected, tuple(acc))
    if len(cache) >= CACHE_LIMIT:
        cache.clear()
    cache[side] = result
    return result


def distribution(goal: str, side: Side, budget: Budget | None = None) -> Dist:
    """The distribution of :func:`solve`; a position that outgrew a whole budget once,
    or obviously would, raises :class:`TooLarge` at once."""
    side = _reduce(goal, side)
    if side in _cache[goal]:
        return _cache[goal][side][1]
    key = (goal, side)
    if key in _too_large:
        raise TooLarge
    if budget is not None:
        men = sum(side)
        points = len(side) - ZONE if goal == ESCAPE else len(side)
        if math.comb(men + points, men) > SEARCH_LIMIT * budget.full:
            raise TooLarge
    whole = budget is not None and budget.left >= budget.full
    try:
        return solve(goal, side, budget)[1]
    except TooLarge:
        if whole:
            if len(_too_large) >= CACHE_LIMIT:
                _too_large.clear()
            _too_large.add(key)
        raise


def within(dist: Dist, rolls: int) -> float:
    """The chance the goal is reached within ``rolls`` rolls."""
    return sum(dist[: max(0, rolls) + 1])

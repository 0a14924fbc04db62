"""Round robin by the circle method.

The players in seed order sit around a table; with an odd field an empty seat (the bye)
joins them.  The first seat stays put and the others turn one place each round, and each
round pairs seat ``i`` with seat ``m - 1 - i``: after ``m - 1`` rounds everyone has met
everyone exactly once, and with an odd field everyone has sat out exactly once.
"""

from __future__ import annotations

from collections.abc import Sequence


def rounds_for(players: int) -> int:
    """Rounds of a round robin of ``players``: ``n - 1``, or ``n`` when ``n`` is odd."""
    return players if players % 2 else players - 1


def round_pairs(players: Sequence[str], round: int) -> tuple[tuple[str | None, str | None], ...]:
    """The pairs of round ``round`` (1-based) for ``players`` in seed order; ``None`` is the bye."""
    seats: list[str | None] = list(players)
    if len(seats) % 2:
        seats.append(None)
    m = len(seats)
    if not 1 <= round <= m - 1:
        raise ValueError(f"a round robin of {len(players)} has rounds 1 to {m - 1}, not {round}")
    turned = seats[1:]
    k = (round - 1) % (m - 1)
    turned = turned[-k:] + turned[:-k] if k else turned
    table = [seats[0], *turned]
    pairs = [(table[i], table[m - 1 - i]) for i in range(m // 2)]
    return tuple((a, b) if a is not None else (b, a) for a, b in pairs)

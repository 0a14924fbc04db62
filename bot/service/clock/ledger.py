"""The clock's arithmetic (issue 44 item 5), on a stored :class:`ClockRow`: no I/O.

* A decision (rolling or doubling, moving, taking or passing, answering a resignation) is
  timed from when it began (``since_ms``); its first ``delay_ms`` are free, then the
  player's reserve runs.  The flag falls when the decision has taken the delay and the
  whole reserve.
* Time is counted only while the service keeps the clocks: it beats at least every
  second (``clock_beat``); when the last beat is older than ``grace_ms`` (a restart, the
  database away), the time after it counts for nobody until the next beat moves every
  running decision on by the gap (:meth:`~bot.storage.clock.interface.ClockTransaction.
  pause_clocks`).
"""

from __future__ import annotations

from dataclasses import replace

from bot.storage.interface import ClockRow
from engine.player import Player

GRACE_MS = 3000
"""A beat older than this means nobody kept the clocks since: that time is not charged."""


def counted_until(now_ms: int, beat_ms: int, grace_ms: int = GRACE_MS) -> int:
    """The latest moment that counts: now, or the last beat when the clocks were not kept
    since (the time after it is nobody's)."""
    return now_ms if now_ms - beat_ms <= grace_ms else beat_ms


def used(row: ClockRow, now_ms: int, beat_ms: int, grace_ms: int = GRACE_MS) -> int:
    """How long the running decision has taken (0 when none runs)."""
    if row.turn is None or row.since_ms is None:
        return 0
    return max(0, counted_until(now_ms, beat_ms, grace_ms) - row.since_ms)


def reserve(row: ClockRow, player: Player) -> int:
    """``player``'s reserve as stored (before the running decision is charged)."""
    return row.white_ms if player is Player.WHITE else row.black_ms


def left(row: ClockRow, player: Player, now_ms: int, beat_ms: int,
         grace_ms: int = GRACE_MS) -> int:
    """``player``'s reserve left now (the running decision charged past its delay)."""
    stored = reserve(row, player)
    if row.turn != int(player):
        return stored
    return max(0, stored - max(0, used(row, now_ms, beat_ms, grace_ms) - row.delay_ms))


def fallen(row: ClockRow, now_ms: int, beat_ms: int, grace_ms: int = GRACE_MS) -> Player | None:
    """The player whose flag has fallen by ``now_ms`` (None: nobody's)."""
    if row.turn is None:
        return None
    player = Player(row.turn)
    taken = used(row, now_ms, beat_ms, grace_ms)
    return player if taken >= row.delay_ms + reserve(row, player) else None


def advance(row: ClockRow, holder: Player | None, decision: str, now_ms: int, beat_ms: int,
            grace_ms: int = GRACE_MS) -> ClockRow:
    """The clock once the decision ``decision`` of ``holder`` begins at ``now_ms`` (None:
    nobody's clock runs): the decision that ended is charged past its delay."""
    white, black = row.white_ms, row.black_ms
    if row.turn is not None:
        ended = Player(row.turn)
        rest = left(row, ended, now_ms, beat_ms, grace_ms)
        white, black = (rest, black) if ended is Player.WHITE else (white, rest)
    if holder is None:
        return replace(row, white_ms=white, black_ms=black, turn=None, since_ms=None,
                       deadline_ms=None, decision=decision, acted_ms=now_ms)
    own = white if holder is Player.WHITE else black
    return replace(row, white_ms=white, black_ms=black, turn=int(holder), since_ms=now_ms,
                   deadline_ms=now_ms + row.delay_ms + own, decision=decision,
                   acted_ms=now_ms)

"""Match clocks: the row and the calls on it (issue 44).

Times are integer milliseconds of the service's clock (its injectable time source),
so that both backends compute with them alike; the service's rules are in
:mod:`bot.service.clock`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True, slots=True)
class ClockRow:
    """The clock of one match: its time control and where it stands."""

    match_id: int
    spec: str
    """The time control as typed again (``usbgf``, ``12s+5m``)."""
    delay_ms: int
    white_ms: int
    """White's reserve left."""
    black_ms: int
    turn: int | None = None
    """The player whose decision it is (0 white, 1 black); None: nobody's clock runs."""
    since_ms: int | None = None
    """When that decision began (moved on by the time nobody could play)."""
    deadline_ms: int | None = None
    """When that player's flag falls: ``since_ms + delay_ms + reserve``."""
    decision: str = ""
    """Which decision is timed (the game, its record's length, the player)."""
    acted_ms: int = 0
    """The service time of the last action that moved the clock."""
    version: int = 0


class ClockTransaction(Protocol):
    """Match clocks inside one transaction."""

    async def insert_clock(self, row: ClockRow) -> None:
        """Store a new match's clock (not running)."""
        ...

    async def match_clock(self, match_id: int) -> ClockRow | None:
        ...

    async def clock_and_beat(self, match_id: int) -> tuple[ClockRow | None, int]:
        """The match's clock and :meth:`clock_beat` in one read (an action reads both)."""
        ...

    async def update_clock(self, row: ClockRow, new: ClockRow) -> ClockRow:
        """Write ``new`` over ``row`` if the stored clock is still at ``row.version``
        (:class:`~bot.storage.core.errors.RetryableConflict` otherwise: the whole action
        runs again and reads the change); the new row."""
        ...

    async def clock_beat(self) -> int:
        """When the service last kept the clocks (0: never)."""
        ...

    async def beat_clocks(self, old_ms: int, new_ms: int) -> bool:
        """Move the beat from ``old_ms`` to ``new_ms`` if it is still ``old_ms`` (one
        process wins when several beat at once); whether it did."""
        ...

    async def pause_clocks(self, beat_ms: int, now_ms: int) -> int:
        """Charge nobody for the time from ``beat_ms`` to ``now_ms`` (nobody could play):
        every running decision that began by ``beat_ms`` starts that much later, one that
        began after it starts at ``now_ms``; how many clocks moved."""
        ...

    async def due_clocks(self, now_ms: int, limit: int = 200) -> list[ClockRow]:
        """Running clocks whose flag falls by ``now_ms``, earliest first."""
        ...

    async def next_deadline(self) -> int | None:
        """The earliest running deadline (None: no clock runs)."""
        ...

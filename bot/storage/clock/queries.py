"""The SQL of match clocks, written once for both backends (issue 44)."""

from __future__ import annotations

import dataclasses
from typing import Any

from bot.storage.clock.interface import ClockRow
from bot.storage.core.sql import SqlPrimitives

COLUMNS = ("match_id, spec, delay_ms, white_ms, black_ms, turn, since_ms, deadline_ms, "
           "decision, acted_ms, version")


def clock_row(row: Any) -> ClockRow:
    return ClockRow(int(row[0]), str(row[1]), int(row[2]), int(row[3]), int(row[4]),
                    None if row[5] is None else int(row[5]),
                    None if row[6] is None else int(row[6]),
                    None if row[7] is None else int(row[7]), str(row[8]), int(row[9]),
                    int(row[10]))


class ClockQueries(SqlPrimitives):
    """Match clocks and the beat of the service that keeps them."""

    async def insert_clock(self, row: ClockRow) -> None:
        await self._write(
            f"INSERT INTO match_clocks ({COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (row.match_id, row.spec, row.delay_ms, row.white_ms, row.black_ms, row.turn,
             row.since_ms, row.deadline_ms, row.decision, row.acted_ms, row.version))

    async def match_clock(self, match_id: int) -> ClockRow | None:
        row = await self._one(f"SELECT {COLUMNS} FROM match_clocks WHERE match_id = ?",
                              (match_id,))
        return clock_row(row) if row else None

    async def clock_and_beat(self, match_id: int) -> tuple[ClockRow | None, int]:
        row = await self._one(
            f"SELECT {COLUMNS}, (SELECT at_ms FROM clock_beat WHERE id = 1) "
            "FROM match_clocks WHERE match_id = ?", (match_id,))
        if not row:
            return None, 0  # (no clock: no beat to count by)
        return clock_row(row), 0 if row[11] is None else int(row[11])

    async def update_clock(self, row: ClockRow, new: ClockRow) -> ClockRow:
        await self._write_checked(
            "UPDATE match_clocks SET white_ms = ?, black_ms = ?, turn = ?, since_ms = ?, "
            "deadline_ms = ?, decision = ?, acted_ms = ?, version = version + 1 "
            "WHERE match_id = ? AND version = ?",
            (new.white_ms, new.black_ms, new.turn, new.since_ms, new.deadline_ms,
             new.decision, new.acted_ms, row.match_id, row.version),
            f"the clock of match {row.match_id} moved since it was read", retry=True)
        return dataclasses.replace(new, version=row.version + 1)

    async def clock_beat(self) -> int:
        row = await self._one("SELECT at_ms FROM clock_beat WHERE id = 1")
        return int(row[0]) if row else 0

    async def beat_clocks(self, old_ms: int, new_ms: int) -> bool:
        if old_ms == 0:
            changed, _ = await self._cursor(
                "INSERT INTO clock_beat (id, at_ms) VALUES (1, ?) ON CONFLICT (id) DO NOTHING",
                (new_ms,))
            if changed:
                return True
        changed, _ = await self._cursor(
            "UPDATE clock_beat SET at_ms = ? WHERE id = 1 AND at_ms = ?", (new_ms, old_ms))
        return changed == 1

    async def pause_clocks(self, beat_ms: int, now_ms: int) -> int:
        gap = now_ms - beat_ms
        # The late ones first: once moved they start at now, after the beat.
        late, _ = await self._cursor(
            "UPDATE match_clocks SET deadline_ms = deadline_ms + (? - since_ms), "
            "since_ms = ?, version = version + 1 "
            "WHERE deadline_ms IS NOT NULL AND since_ms > ? AND since_ms < ?",
            (now_ms, now_ms, beat_ms, now_ms))
        early, _ = await self._cursor(
            "UPDATE match_clocks SET since_ms = since_ms + ?, deadline_ms = deadline_ms + ?, "
            "version = version + 1 WHERE deadline_ms IS NOT NULL AND since_ms <= ?",
            (gap, gap, beat_ms))
        return early + late

    async def due_clocks(self, now_ms: int, limit: int = 200) -> list[ClockRow]:
        rows = await self._all(
            f"SELECT {COLUMNS} FROM match_clocks WHERE deadline_ms IS NOT NULL "
            "AND deadline_ms <= ? ORDER BY deadline_ms LIMIT ?", (now_ms, limit))
        return [clock_row(r) for r in rows]

    async def next_deadline(self) -> int | None:
        row = await self._one(
            "SELECT MIN(deadline_ms) FROM match_clocks WHERE deadline_ms IS NOT NULL")
        return int(row[0]) if row and row[0] is not None else None

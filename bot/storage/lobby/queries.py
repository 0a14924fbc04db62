"""The SQL of finding a game (issue 44), written once for both backends."""

from __future__ import annotations

from typing import Any

from bot.storage.core.sql import SqlPrimitives
from bot.storage.lobby.interface import QueueEntry
from bot.storage.play.interface import MatchRow
from bot.storage.play.queries import MATCH_COLUMNS, match_row

QUEUE_COLUMNS = ("guild_id, user_id, channel_id, length, variant, clock, rated, rating, "
                 "joined_at, bot_after")


def queue_entry(row: Any) -> QueueEntry:
    return QueueEntry(int(row[0]), int(row[1]), int(row[2]), int(row[3]), str(row[4]),
                      str(row[5]), bool(row[6]), float(row[7]), str(row[8]), float(row[9]))


class LobbyQueries(SqlPrimitives):
    """Open challenges and the matchmaking queue."""

    async def join_queue(self, entry: QueueEntry) -> bool:
        changed, _ = await self._cursor(
            f"INSERT INTO match_queue ({QUEUE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (guild_id, user_id) DO NOTHING",
            (entry.guild_id, entry.user_id, entry.channel_id, entry.length, entry.variant,
             entry.clock, int(entry.rated), entry.rating, entry.joined_at, entry.bot_after))
        return changed == 1

    async def queue_entries(self, guild_id: int | None = None) -> list[QueueEntry]:
        if guild_id is None:
            rows = await self._all(f"SELECT {QUEUE_COLUMNS} FROM match_queue "
                                   "ORDER BY joined_at, user_id")
        else:
            rows = await self._all(f"SELECT {QUEUE_COLUMNS} FROM match_queue WHERE "
                                   "guild_id = ? ORDER BY joined_at, user_id", (guild_id,))
        return [queue_entry(r) for r in rows]

    async def take_from_queue(self, entry: QueueEntry) -> None:
        await self._write_checked(
            "DELETE FROM match_queue WHERE guild_id = ? AND user_id = ? AND joined_at = ?",
            (entry.guild_id, entry.user_id, entry.joined_at),
            f"player {entry.user_id} is no longer waiting in the queue")

    async def open_challenges(self, guild_id: int | None = None, limit: int = 500
                              ) -> list[MatchRow]:
        where = "status = 'challenged' AND white_id = black_id"
        if guild_id is None:
            rows = await self._all(f"SELECT {MATCH_COLUMNS} FROM matches WHERE {where} "
                                   "ORDER BY id LIMIT ?", (limit,))
        else:
            rows = await self._all(f"SELECT {MATCH_COLUMNS} FROM matches WHERE {where} "
                                   "AND guild_id = ? ORDER BY id LIMIT ?", (guild_id, limit))
        return [match_row(r) for r in rows]

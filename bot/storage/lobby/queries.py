"""The SQL of finding a game (issue 44), written once for both backends."""

from __future__ import annotations

from bot.storage.core.sql import SqlPrimitives
from bot.storage.play.interface import MatchRow
from bot.storage.play.queries import MATCH_COLUMNS, match_row


class LobbyQueries(SqlPrimitives):
    """Open challenges."""

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

"""A PostgreSQL transaction: :class:`~bot.storage.sqlite.transaction.SqliteTransaction`'s
shared SQL with its five primitives run at once on asyncpg (SQLite defers the writes to
batch them; asyncpg has no mixed batches), and the few dialect differences: subqueries in
FROM need an alias in PostgreSQL 15, and the three "what is open in this channel" reads
take the channel's advisory lock first."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

from bot.storage.core.errors import RetryableConflict, StaleVersionError, clean_name
from bot.storage.players.interface import UserRow
from bot.storage.postgres.database import PgDatabase
from bot.storage.sqlite.transaction import SqliteTransaction


def _alias_board_sql(sql: str) -> str:
    """PostgreSQL 15 wants an alias on the UNION ALL subquery of the leaderboard."""
    old = "SELECT black_id FROM matches WHERE guild_id = :g AND status = 'finished')"
    if old not in sql:  # the shared SQL changed: make the difference visible at import
        raise RuntimeError("the shared leaderboard SQL changed "
                           "(bot/storage/standings/queries.py): update this alias")
    return sql.replace(old, old + " AS finished_sides")


class PostgresTransaction(SqliteTransaction):
    """The shared repository operations on a PostgreSQL transaction."""

    BOARD_SQL = _alias_board_sql(SqliteTransaction.BOARD_SQL)

    def __init__(self, db: PgDatabase) -> None:
        super().__init__(cast(Any, db))
        self.pg = db
        self._channels_locked: set[int] = set()

    # The primitives run at once: asyncpg has no batch of mixed statements.
    async def _all(self, sql: str, params: Sequence[Any] | Mapping[str, Any] = ()
                   ) -> list[Any]:
        return await (await self.pg.run(sql, params)).fetchall()

    async def _cursor(self, sql: str, params: Sequence[Any] = ()) -> tuple[int, int | None]:
        cur = await self.pg.run(sql, params)
        return cur.rowcount, cur.lastrowid

    async def _write(self, sql: str, params: Sequence[Any] = ()) -> None:
        await self.pg.run(sql, params)

    async def _write_many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        await self.pg.executemany(sql, rows)

    async def _write_checked(self, sql: str, params: Sequence[Any], error: str,
                             retry: bool = False) -> None:
        if (await self.pg.run(sql, params)).rowcount != 1:
            raise RetryableConflict(error) if retry else StaleVersionError(error)

    async def lock_channel(self, channel_id: int) -> None:
        """The channel's advisory lock until the transaction ends (taken once)."""
        if channel_id not in self._channels_locked:
            await self.pg.run("SELECT pg_advisory_xact_lock(?)", (channel_id,))
            self._channels_locked.add(channel_id)

    async def open_match_in_channel(self, channel_id: int) -> Any:
        await self.lock_channel(channel_id)
        return await super().open_match_in_channel(channel_id)

    async def latest_match_in_channel(self, channel_id: int) -> Any:
        await self.lock_channel(channel_id)
        return await super().latest_match_in_channel(channel_id)

    async def open_chouette_in_channel(self, channel_id: int) -> Any:
        await self.lock_channel(channel_id)
        return await super().open_chouette_in_channel(channel_id)

    async def upsert_user(self, user_id: int, name: str, is_bot: bool = False) -> None:
        # Read first: an upsert locks the user's row until commit even when the
        # name is unchanged, which would serialise (and could deadlock) the
        # actions of one user in several channels.
        known: UserRow | None = await self.get_user(user_id)
        if known is None or known.name != clean_name(name, user_id):
            await super().upsert_user(user_id, name, is_bot)

    async def leaderboard_count(self, guild_id: int, order: str) -> int:
        row = await self._one(f"SELECT COUNT(*) FROM ({self.BOARD_SQL}"
                              f"{self._FILTERS.get(order, '')}) AS board",
                              {"g": guild_id})
        return int(row[0]) if row else 0

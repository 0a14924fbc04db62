"""The SQL of users, ratings and the ledger, written once for both backends."""

from __future__ import annotations

from collections.abc import Sequence

from bot.storage.core.errors import check_int64, clean_name
from bot.storage.core.sql import SqlPrimitives, now
from bot.storage.players.interface import LedgerEntry, RatingRow, UserRow


class PlayersQueries(SqlPrimitives):
    """Users, ratings and the ledger."""

    # users ------------------------------------------------------------------
    async def upsert_user(self, user_id: int, name: str, is_bot: bool = False) -> None:
        await self._write(
            "INSERT INTO users (id, name, is_bot, created_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT(id) DO UPDATE SET name = excluded.name",
            (user_id, clean_name(name, user_id), int(is_bot), now()),
        )

    async def lock_players(self, guild_id: int, user_ids: Sequence[int]) -> None:
        """Create the players' ``ratings`` rows if missing and lock them, in ascending
        user id order (one statement; a no-op update locks the existing rows)."""
        ids = sorted(set(user_ids))
        if not ids:
            return
        values = ", ".join("(?, ?)" for _ in ids)
        await self._write(
            f"INSERT INTO ratings (guild_id, user_id) VALUES {values} "
            "ON CONFLICT (guild_id, user_id) DO UPDATE SET experience = ratings.experience",
            [v for user in ids for v in (guild_id, user)])

    async def get_user(self, user_id: int) -> UserRow | None:
        row = await self._one("SELECT id, name, is_bot FROM users WHERE id = ?", (user_id,))
        return UserRow(row[0], row[1], bool(row[2])) if row else None

    # money ------------------------------------------------------------------
    async def add_ledger(self, entries: Sequence[LedgerEntry]) -> None:
        stamp = now()
        await self._write_many(
            "INSERT INTO ledger (guild_id, user_id, match_id, game_id, chouette_id, points, "
            "points_den, amount, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(e.guild_id, e.user_id, e.match_id, e.game_id, e.chouette_id,
              check_int64("the points", e.points.numerator),
              check_int64("the points", e.points.denominator),
              check_int64("the amount", e.amount), stamp) for e in entries],
        )

    async def balance(self, guild_id: int, user_id: int) -> int:
        row = await self._one(
            "SELECT COALESCE(SUM(amount), 0) FROM ledger WHERE guild_id = ? AND user_id = ?",
            (guild_id, user_id))
        return int(row[0]) if row else 0

    async def money_turnover(self, guild_id: int, user_id: int) -> int:
        row = await self._one(
            "SELECT COALESCE(SUM(ABS(amount)), 0) FROM ledger WHERE guild_id = ? AND user_id = ?",
            (guild_id, user_id))
        return int(row[0]) if row else 0

    # ratings ----------------------------------------------------------------
    async def rating(self, guild_id: int, user_id: int) -> RatingRow:
        row = await self._one(
            "SELECT rating, experience FROM ratings WHERE guild_id = ? AND user_id = ?",
            (guild_id, user_id))
        if row is None:
            return RatingRow(guild_id, user_id, 1500.0, 0)
        return RatingRow(guild_id, user_id, float(row[0]), int(row[1]))

    async def ratings_of(self, guild_id: int, user_ids: tuple[int, int]
                         ) -> tuple[RatingRow, RatingRow]:
        rows = await self._all(
            "SELECT user_id, rating, experience FROM ratings WHERE guild_id = ? "
            "AND user_id IN (?, ?)", (guild_id, *user_ids))
        found = {int(r[0]): RatingRow(guild_id, int(r[0]), float(r[1]), int(r[2]))
                 for r in rows}
        first, second = (found.get(u, RatingRow(guild_id, u, 1500.0, 0)) for u in user_ids)
        return first, second

    async def set_rating(self, row: RatingRow, *, match_id: int, before: float) -> None:
        # The stored rating must still be ``before`` (the safety net under
        # lock_players: a lost update becomes a retryable conflict, never silent).
        await self._write_checked(
            "INSERT INTO ratings (guild_id, user_id, rating, experience) VALUES (?, ?, ?, ?) "
            "ON CONFLICT(guild_id, user_id) DO UPDATE SET rating = excluded.rating, "
            "experience = excluded.experience WHERE ratings.rating = ?",
            (row.guild_id, row.user_id, row.rating, row.experience, before),
            f"the rating of user {row.user_id} changed since it was read", retry=True)
        await self._write(
            "INSERT INTO rating_history (guild_id, user_id, match_id, before, after, experience, "
            "created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (row.guild_id, row.user_id, match_id, before, row.rating, row.experience, now()))

    async def rating_history(self, guild_id: int, user_id: int) -> list[tuple[float, float]]:
        rows = await self._all(
            "SELECT before, after FROM rating_history WHERE guild_id = ? AND user_id = ? "
            "ORDER BY id", (guild_id, user_id))
        return [(float(r[0]), float(r[1])) for r in rows]

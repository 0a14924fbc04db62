"""PostgreSQL-specific storage checks: dialect translation and migration parity."""

from __future__ import annotations

import pytest

pytest.importorskip("asyncpg", reason="asyncpg is not installed (pip install asyncpg)")

from bot.storage.core.sql import migrations
from bot.storage.postgres import identity_tables, pg_migrations, translate


def test_every_sqlite_migration_has_a_postgres_twin() -> None:
    assert [(v, n) for v, n, _ in pg_migrations()] == [(v, n) for v, n, _ in migrations()]


def test_translate_parameters() -> None:
    assert translate("SELECT a FROM t WHERE b = ? AND c IN (?, ?)") == (
        "SELECT a FROM t WHERE b = $1 AND c IN ($2, $3)", ())
    text, names = translate("SELECT :g, x::text FROM t WHERE g = :g LIMIT :limit")
    assert text == "SELECT $1, x::text FROM t WHERE g = $1 LIMIT $2"
    assert names == ("g", "limit")
    with pytest.raises(ValueError):
        translate("SELECT ? WHERE x = :x")


def test_identity_tables_come_from_the_migrations() -> None:
    assert {"matches", "games", "ledger", "rating_history", "chouettes"} <= identity_tables()
    assert "users" not in identity_tables() and "events" not in identity_tables()


async def test_a_deadlock_is_reported_as_a_stale_action(pg_url: str) -> None:
    import asyncio

    from bot.storage.interface import StaleVersionError
    from bot.storage.postgres import PostgresStorage

    storage = PostgresStorage(pg_url, pool_size=4)
    await storage.open()
    try:
        async with storage.transaction() as tx:
            await tx.upsert_user(1, "a")
            await tx.upsert_user(2, "b")
        both = asyncio.Barrier(2)

        async def cross(first: int, second: int) -> None:
            async with storage.transaction() as tx:
                await tx.upsert_user(first, f"renamed{first}")  # locks the row
                await both.wait()
                await tx.upsert_user(second, f"renamed{second}")

        results = await asyncio.gather(cross(1, 2), cross(2, 1), return_exceptions=True)
        assert sum(isinstance(r, StaleVersionError) for r in results) == 1
        assert sum(r is None for r in results) == 1
    finally:
        await storage.close()

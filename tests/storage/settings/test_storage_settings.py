"""Server settings storage (migration 0004) on both backends: a server that set nothing, typed
JSON values read back as written, text cleaned at the boundary, the version check (a
stale write is a retryable conflict and changes nothing), two writers at once both applied,
and the servers that set a key.

Every test runs on SQLite (a real file) and on PostgreSQL (a new database on the test
session's throwaway server; skipped with the reason when none can be started).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pg
import pytest

from bot.storage.core.sql import migrations
from bot.storage.interface import GuildSettingsRow, RetryableConflict, Transaction
from bot.storage.sqlite import SqliteStorage

GUILD = 1_100_000_000_000_000_001
"""A real-sized snowflake (beyond 2**53: exact in both databases)."""


async def _open(kind: str, tmp_path: Path, url: str | None) -> Any:
    if kind == "sqlite":
        s: Any = SqliteStorage(tmp_path / "db.sqlite3")
    else:
        from bot.storage.postgres import PostgresStorage

        s = PostgresStorage(url or "", pool_size=4)
    await s.open()
    return s


@pytest.fixture(params=["sqlite", "postgres"])
async def backend(request: pytest.FixtureRequest,
                  tmp_path: Path) -> AsyncIterator[tuple[str, str | None]]:
    """The backend's name and (PostgreSQL) a new database's URL."""
    if request.param == "sqlite":
        yield "sqlite", None
        return
    reason = pg.unavailable()
    if reason is not None:
        pytest.skip(reason)
    url = await pg.create_database()
    try:
        yield "postgres", url
    finally:
        await pg.drop_database(url)


@pytest.fixture
async def storage(backend: tuple[str, str | None], tmp_path: Path) -> AsyncIterator[Any]:
    s = await _open(backend[0], tmp_path, backend[1])
    try:
        yield s
    finally:
        await s.close()


def test_migration_0004_exists_in_both_dialects() -> None:
    assert migrations()[3][1] == migrations("postgres")[3][1] == "0004_guild_settings.sql"


async def test_a_server_that_set_nothing(storage: Any) -> None:
    assert await storage.schema_version() == len(migrations())
    async with storage.snapshot() as tx:
        row = await tx.guild_settings(GUILD)
        assert await tx.guilds_with_setting("threads") == []
    assert row == GuildSettingsRow(GUILD, {}, 0)


async def test_typed_values_read_back_as_written(storage: Any) -> None:
    values = {"threads": False, "reminder_minutes": 90.5, "claim_after_minutes": 1440.0,
              "game_channels": [GUILD + 1, 2**63 - 1], "tournament_announcements": None,
              "variant": "russian", "rules.max_cube": None, "rules.automatic_doubles_cap": 2}
    async with storage.transaction() as tx:
        written = await tx.write_guild_settings(await tx.guild_settings(GUILD), values,
                                                updated_by=42)
    async with storage.snapshot() as tx:
        read = await tx.guild_settings(GUILD)
        other = await tx.guild_settings(GUILD + 5)
    assert read == written and read.values == values and read.version == 1
    assert read.updated_by == 42 and read.updated_at
    assert type(read.values["claim_after_minutes"]) is float
    assert other.version == 0 and other.values == {}


async def test_text_is_cleaned_at_the_boundary(storage: Any) -> None:
    dirty = {"variant": "rus\x00sian\ud800\n", "nested": {"a\x00": ["x\x07y"]}}
    async with storage.transaction() as tx:
        written = await tx.write_guild_settings(await tx.guild_settings(GUILD), dirty,
                                                updated_by=None)
    async with storage.snapshot() as tx:
        read = await tx.guild_settings(GUILD)
    assert read.values == written.values == {"variant": "russian\ufffd ",
                                             "nested": {"a": ["x y"]}}


async def test_a_stale_write_is_refused_and_changes_nothing(storage: Any) -> None:
    async with storage.transaction() as tx:
        first = await tx.write_guild_settings(await tx.guild_settings(GUILD),
                                              {"threads": False}, updated_by=1)
    stale = GuildSettingsRow(GUILD, {}, 0)  # read before the first change
    with pytest.raises(RetryableConflict):
        async with storage.transaction() as tx:
            await tx.write_guild_settings(stale, {"variant": "french"}, updated_by=2)
    with pytest.raises(RetryableConflict):
        async with storage.transaction() as tx:
            await tx.write_guild_settings(GuildSettingsRow(GUILD, {}, 7), {"ai": False},
                                          updated_by=2)
    async with storage.transaction() as tx:
        second = await tx.write_guild_settings(first, {"threads": True}, updated_by=3)
    async with storage.snapshot() as tx:
        assert await tx.guild_settings(GUILD) == second
    assert second.version == 2 and second.values == {"threads": True}


async def change(storage: Any, key: str, value: Any, gate: asyncio.Event | None = None
                 ) -> GuildSettingsRow:
    """Read the server's settings, wait at ``gate`` (both writers have read), add ``key``:
    the whole read-modify-write run again by ``Storage.run`` on a conflict."""
    async def work(tx: Transaction) -> GuildSettingsRow:
        row = await tx.guild_settings(GUILD)
        if gate is not None:
            await asyncio.wait_for(gate.wait(), 5)
        return await tx.write_guild_settings(row, {**row.values, key: value}, updated_by=1)

    result: GuildSettingsRow = await storage.run(work)
    return result


async def test_two_admins_at_once_both_apply(backend: tuple[str, str | None],
                                            tmp_path: Path) -> None:
    """Two processes (two storages on one database) change two keys at the same moment:
    both changes are kept, one after the other, whichever commits first."""
    one = await _open(backend[0], tmp_path, backend[1])
    two = await _open(backend[0], tmp_path, backend[1])
    try:
        for round_ in range(3):
            keys = (f"a{round_}", f"b{round_}")
            if backend[0] == "postgres":  # both read version v before either writes
                gate = asyncio.Event()
                tasks = [asyncio.create_task(change(s, k, round_, gate))
                         for s, k in zip((one, two), keys, strict=True)]
                await asyncio.sleep(0.2)
                gate.set()
                rows = await asyncio.gather(*tasks)
            else:  # SQLite's write lock makes the second wait for the first
                rows = await asyncio.gather(change(one, keys[0], round_),
                                            change(two, keys[1], round_))
            assert sorted(r.version for r in rows) == [2 * round_ + 1, 2 * round_ + 2]
        async with one.snapshot() as tx:
            final = await tx.guild_settings(GUILD)
        assert final.version == 6
        assert final.values == {f"{x}{r}": r for r in range(3) for x in "ab"}
    finally:
        await one.close()
        await two.close()


async def test_the_servers_that_set_a_key(storage: Any) -> None:
    for guild, values in ((1, {"reminder_minutes": 10.0}), (2, {"threads": False}),
                          (3, {"reminder_minutes": 0.0, "variant": "french"}),
                          (4, {"variant": "reminder_minutes"}),  # the key as a value: no
                          (5, {"reminder_minutes2": 1.0})):  # a longer key: no
        async with storage.transaction() as tx:
            await tx.write_guild_settings(GuildSettingsRow(guild, {}, 0), values, updated_by=1)
    async with storage.snapshot() as tx:
        found = await tx.guilds_with_setting("reminder_minutes")
    assert found == [(1, 10.0), (3, 0.0)]


async def test_migrate_sqlite_copies_the_settings(tmp_path: Path, pg_url: str) -> None:
    """``python -m bot migrate-sqlite`` copies guild_settings with the rest, big ids exact."""
    from bot.storage.postgres import PostgresStorage
    from bot.storage.sqlite_to_postgres import copy, verify

    source = SqliteStorage(tmp_path / "db.sqlite3")
    await source.open()
    values = {"game_channels": [GUILD + 1, 2**63 - 1], "threads": False,
              "reminder_minutes": 12.5}
    async with source.transaction() as tx:
        written = await tx.write_guild_settings(GuildSettingsRow(GUILD, {}, 0), values,
                                                updated_by=2**62)
    target = PostgresStorage(pg_url, pool_size=2)
    await target.open()
    try:
        copied = await copy(source, target)
        assert copied["guild_settings"] == 1
        assert not (await verify(source, target)).problems
        async with target.snapshot() as tx:
            assert await tx.guild_settings(GUILD) == written
    finally:
        await target.close()
        await source.close()

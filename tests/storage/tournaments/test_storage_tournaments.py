"""Tournament storage (migration 0003) on both backends: rows, the version check, the
match-to-pairing link, cluster-wide notices and opening claims.

Every test runs on SQLite (a real file) and on PostgreSQL (a new database on the test
session's throwaway server; skipped with the reason when none can be started).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pg
import pytest

from bot.storage.core.sql import migrations
from bot.storage.interface import (
    MatchStatus,
    RetryableConflict,
    StaleVersionError,
    TournamentStatus,
    Transaction,
)
from bot.storage.sqlite import SqliteStorage


@pytest.fixture(params=["sqlite", "postgres"])
async def storage(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Any]:
    if request.param == "sqlite":
        s: Any = SqliteStorage(tmp_path / "db.sqlite3")
        await s.open()
        yield s
        await s.close()
        return
    reason = pg.unavailable()
    if reason is not None:
        pytest.skip(reason)
    from bot.storage.postgres import PostgresStorage

    url = await pg.create_database()
    s = PostgresStorage(url, pool_size=4)
    await s.open()
    try:
        yield s
    finally:
        await s.close()
        await pg.drop_database(url)


async def _tournament(tx: Transaction) -> Any:
    await tx.upsert_user(1, "org")
    return await tx.insert_tournament(
        guild_id=7, channel_id=70, organiser_id=1, name="Friday cup",
        config={"format": "swiss"}, state={"entrants": []})


async def test_migration_0003_is_applied(storage: Any) -> None:
    assert migrations()[2][1] == "0003_tournaments.sql"
    assert await storage.schema_version() == len(migrations())


async def test_insert_read_update_with_version_check(storage: Any) -> None:
    async with storage.transaction() as tx:
        row = await _tournament(tx)
    assert row.status is TournamentStatus.SIGNUP and row.version == 0 and row.round == 0
    async with storage.transaction() as tx:
        new = await tx.update_tournament(row, state={"entrants": [{"id": 2}]},
                                         status=TournamentStatus.RUNNING, round=1,
                                         deadline="2030-01-02T00:00:00.000+00:00")
    assert new.version == 1 and new.state == {"entrants": [{"id": 2}]}
    async with storage.snapshot() as tx:
        read = await tx.get_tournament(row.id)
        listed = await tx.tournaments_in_guild(7, ["running"])
        assert [t.id for t in await tx.running_tournaments()] == [row.id]
        none = await tx.tournaments_in_guild(8, ["running"])
    assert read == new and [t.id for t in listed] == [row.id] and none == []
    # A second writer that read version 0 is refused as a retryable conflict, and its
    # change is not applied.
    with pytest.raises(RetryableConflict):
        async with storage.transaction() as tx:
            await tx.update_tournament(row, state={"entrants": []})
    assert issubclass(RetryableConflict, StaleVersionError)
    async with storage.snapshot() as tx:
        again = await tx.get_tournament(row.id)
    assert again is not None and again.version == 1 and again.state == new.state
    with pytest.raises(ValueError, match="organiser_id"):
        async with storage.transaction() as tx:
            await tx.update_tournament(new, organiser_id=5)


async def test_match_link_is_one_match_per_pairing(storage: Any) -> None:
    async with storage.transaction() as tx:
        t = await _tournament(tx)
        await tx.upsert_user(2, "a")
        await tx.upsert_user(3, "b")
        m1 = await tx.insert_match(guild_id=7, channel_id=71, white_id=2, black_id=3,
                                   variant="standard", rules={}, length=1, stake=0,
                                   rated=True, status=MatchStatus.ACTIVE)
        m2 = await tx.insert_match(guild_id=7, channel_id=72, white_id=2, black_id=3,
                                   variant="standard", rules={}, length=1, stake=0,
                                   rated=True, status=MatchStatus.ACTIVE)
        await tx.link_match(m1.id, t.id, "R1-1")
    async with storage.snapshot() as tx:
        assert await tx.match_pairing(m1.id) == (t.id, "R1-1")
        assert await tx.match_pairing(m2.id) is None
        matches = await tx.tournament_matches(t.id)
    assert list(matches) == ["R1-1"] and matches["R1-1"].id == m1.id
    with pytest.raises(Exception) as error:
        async with storage.transaction() as tx:
            await tx.link_match(m2.id, t.id, "R1-1")
            await tx.match_pairing(m2.id)  # SQLite sends the deferred write here
    assert "unique" in str(error.value).lower() or "UniqueViolation" in type(error.value).__name__
    async with storage.snapshot() as tx:
        assert await tx.match_pairing(m2.id) is None  # rolled back


async def test_notices_are_claimed_once_per_round(storage: Any) -> None:
    async with storage.transaction() as tx:
        t = await _tournament(tx)
        t = await tx.update_tournament(t, status="running", round=1,
                                       remind_at="2030-01-01T00:00:00.000+00:00",
                                       deadline="2030-01-02T00:00:00.000+00:00")
    async with storage.snapshot() as tx:
        assert await tx.due_tournaments("2029-12-31T00:00:00.000+00:00") == []
        due = await tx.due_tournaments("2030-01-01T00:00:00.000+00:00")
    assert [d.id for d in due] == [t.id]
    async with storage.transaction() as tx:
        assert await tx.claim_tournament_notice(t.id, "reminder", 1)
        assert not await tx.claim_tournament_notice(t.id, "reminder", 1)
    async with storage.snapshot() as tx:  # reminded, deadline not reached: nothing due
        assert await tx.due_tournaments("2030-01-01T12:00:00.000+00:00") == []
        assert len(await tx.due_tournaments("2030-01-02T00:00:00.000+00:00")) == 1
    async with storage.transaction() as tx:
        assert await tx.claim_tournament_notice(t.id, "expired", 1)
        assert not await tx.claim_tournament_notice(t.id, "expired", 1)
        assert await tx.due_tournaments("2031-01-01T00:00:00.000+00:00") == []


async def test_opening_claims(storage: Any) -> None:
    async with storage.transaction() as tx:
        t = await _tournament(tx)
    t0, t1, t2 = ("2030-01-01T00:00:00.000+00:00", "2030-01-01T00:01:00.000+00:00",
                  "2030-01-01T01:00:00.000+00:00")
    async with storage.transaction() as tx:
        assert await tx.claim_opening(t.id, "R1-1", t0, t0)
        assert not await tx.claim_opening(t.id, "R1-1", t1, t0)  # taken, not stale
        assert await tx.claim_opening(t.id, "R1-2", t1, t0)
    async with storage.transaction() as tx:  # stale and no match: taken again
        assert await tx.claim_opening(t.id, "R1-1", t2, t1)
        await tx.upsert_user(2, "a")
        await tx.upsert_user(3, "b")
        m = await tx.insert_match(guild_id=7, channel_id=71, white_id=2, black_id=3,
                                  variant="standard", rules={}, length=1, stake=0,
                                  rated=True, status=MatchStatus.ACTIVE)
        await tx.link_match(m.id, t.id, "R1-2")
    async with storage.transaction() as tx:  # stale but its match exists: never again
        assert not await tx.claim_opening(t.id, "R1-2", t2, t2)


async def test_lock_tournament_reads_the_row(storage: Any) -> None:
    async with storage.transaction() as tx:
        t = await _tournament(tx)
    async with storage.transaction() as tx:
        locked = await tx.lock_tournament(t.id)
        assert locked == t
        assert await tx.lock_tournament(t.id + 100) is None

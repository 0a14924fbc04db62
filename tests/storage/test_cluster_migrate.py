"""``python -m bot migrate-sqlite``: copy a played SQLite database into PostgreSQL.

The SQLite database is filled by random play through the game service (every
variant, cube actions, finished games, money ledger, ratings).  The copy must
verify (same rows, every game replays to the same state in both), the games
must continue on PostgreSQL, and a tampered copy must be reported.
"""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pg
import pytest
import service_driver as driver

from bot.config import Config
from bot.service.game import GameService
from bot.storage.sqlite import SqliteStorage

ROOT = Path(__file__).resolve().parents[2]
CHANNELS = [driver.CHANNEL_BASE + i for i in range(6)]


async def _played_sqlite(path: Path, actions: int = 300) -> None:
    storage = SqliteStorage(path)
    await storage.open()
    try:
        service = GameService(storage, Config())
        log = driver.Log(str(path) + ".log")
        counters = driver.Counters(refusals={})
        budget = [actions]
        rng = random.Random(11)
        try:
            for c in CHANNELS:  # one at a time: deterministic and quick
                budget[0] = actions // len(CHANNELS)
                await driver.play_channel(service, storage, log, c,
                                          random.Random(rng.random()), budget, counters)
        finally:
            log.close()
        assert counters.ok >= actions - len(CHANNELS)
    finally:
        await storage.close()


@pytest.fixture
def needs_pg() -> None:
    reason = pg.unavailable()
    if reason is not None:
        pytest.skip(reason)


async def test_migrate_copies_and_verifies_then_games_continue(
        tmp_path: Path, pg_url: str) -> None:
    from bot.storage.postgres import PostgresStorage
    from bot.storage.sqlite_to_postgres import migrate

    path = tmp_path / "old.sqlite3"
    await _played_sqlite(path)
    report = await migrate(path, pg_url)
    assert report.problems == []
    assert report.rows["events"] > 100 and report.rows["matches"] >= len(CHANNELS)
    assert report.games_replayed >= report.rows["games"] > 0

    # The SQLite audit of the other engineer's driver also holds on the copy.
    storage = PostgresStorage(pg_url, pool_size=2)
    await storage.open()
    try:
        problems, seen = await driver.audit(storage)  # type: ignore[arg-type]
        assert problems == [] and seen["games"] == report.rows["games"]
        service = GameService(storage, Config())
        replies = await driver.continue_all(service, storage, CHANNELS)  # type: ignore[arg-type]
        assert replies and all(r.ok for r in replies.values()), [
            r.text for r in replies.values()]
        async with storage.transaction() as tx:  # new rows get ids after the copied ones
            await tx.upsert_user(9, "zed")
            row = await tx.insert_match(guild_id=1, channel_id=999, white_id=9, black_id=9,
                                        variant="standard", rules={}, length=1, stake=0,
                                        rated=False, status="challenged")
        assert row.id > report.rows["matches"]
    finally:
        await storage.close()


async def test_migrate_reports_a_tampered_copy_and_a_non_empty_target(
        tmp_path: Path, pg_url: str) -> None:
    from bot.storage.postgres import PostgresStorage
    from bot.storage.sqlite_to_postgres import MigrationError, migrate, verify

    path = tmp_path / "old.sqlite3"
    await _played_sqlite(path, actions=60)
    assert (await migrate(path, pg_url)).problems == []
    with pytest.raises(MigrationError, match="already has rows"):
        await migrate(path, pg_url)
    src, dst = SqliteStorage(path), PostgresStorage(pg_url, pool_size=2)
    await src.open()
    await dst.open()
    try:
        game_id = await dst.pool.fetchval(
            "SELECT game_id FROM events WHERE kind = 'roll' ORDER BY game_id, seq LIMIT 1")
        await dst.pool.execute(
            "DELETE FROM events WHERE game_id = $1 AND seq = "
            "(SELECT MAX(seq) FROM events WHERE game_id = $1)", game_id)
        report = await verify(src, dst)
    finally:
        await dst.close()
        await src.close()
    assert any("events: " in p for p in report.problems)
    assert any(f"game {game_id}: events differ" in p for p in report.problems)


def test_migrate_command_line(tmp_path: Path, needs_pg: None) -> None:
    import asyncio

    async def setup() -> str:
        await _played_sqlite(tmp_path / "cli.sqlite3", actions=30)
        return await pg.create_database("cli")

    url = asyncio.run(setup())
    try:
        done = subprocess.run(
            [sys.executable, "-m", "bot", "migrate-sqlite", str(tmp_path / "cli.sqlite3"), url],
            cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "copied and verified" in done.stdout
        missing = subprocess.run(
            [sys.executable, "-m", "bot", "migrate-sqlite", str(tmp_path / "nope.sqlite3"), url],
            cwd=ROOT, capture_output=True, text=True, timeout=60, check=False)
        assert missing.returncode == 1 and "does not exist" in missing.stdout
    finally:
        asyncio.run(pg.drop_database(url))

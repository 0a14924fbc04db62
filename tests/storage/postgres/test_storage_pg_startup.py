"""Issue 36, item 3: starting against a database that refuses connections (its connection
limit reached, or the server not up yet) retries within ``storage.retry_seconds``, each
retry logged, then ends with one line naming the database and the reason, never a
traceback.  Before: ``TooManyConnectionsError`` (or ``ConnectionRefusedError``) at once."""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import subprocess
import sys
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import pg
import pytest

from bot.storage.interface import StorageUnavailable
from bot.storage.sqlite import SqliteStorage

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture
async def full_url(pg_url: str) -> AsyncIterator[str]:
    """A database whose owner may open no connection (``CONNECTION LIMIT 0``: the server
    answers "too many connections for role", as when its limit is reached)."""
    import asyncpg

    role = f"full_{uuid.uuid4().hex[:10]}"
    admin = await asyncpg.connect(pg_url)
    try:
        await admin.execute(f'CREATE ROLE "{role}" LOGIN CONNECTION LIMIT 0')
        database = pg_url.rsplit("/", 1)[1]
        await admin.execute(f'ALTER DATABASE "{database}" OWNER TO "{role}"')
        await admin.execute(f'GRANT ALL ON SCHEMA public TO "{role}"')
    finally:
        await admin.close()
    host = pg_url.split("@", 1)[1]
    yield f"postgresql://{role}@{host}"
    admin = await asyncpg.connect(pg_url)
    try:
        database = pg_url.rsplit("/", 1)[1]
        await admin.execute(f'ALTER DATABASE "{database}" OWNER TO postgres')
        await admin.execute(f'DROP OWNED BY "{role}"')
        await admin.execute(f'DROP ROLE "{role}"')
    finally:
        await admin.close()


async def set_limit(admin_url: str, url: str, limit: int) -> None:
    import asyncpg

    role = url.split("//", 1)[1].split("@", 1)[0]
    admin = await asyncpg.connect(admin_url)
    try:
        await admin.execute(f'ALTER ROLE "{role}" CONNECTION LIMIT {limit}')
    finally:
        await admin.close()


async def test_start_up_waits_for_a_free_connection(pg_url: str, full_url: str,
                                                    caplog: pytest.LogCaptureFixture) -> None:
    from bot.storage.postgres import PostgresStorage

    storage = PostgresStorage(full_url, pool_size=2, retry_seconds=30)
    caplog.set_level(logging.WARNING, logger="bot.storage.postgres.storage")
    opening = asyncio.create_task(storage.open())
    await asyncio.sleep(1.5)
    assert not opening.done(), "the start-up waits (it raised at once before)"
    await set_limit(pg_url, full_url, -1)  # a connection frees up
    await asyncio.wait_for(opening, 20)
    try:
        assert await storage.schema_version() > 0
    finally:
        await storage.close()
    retries = [r.getMessage() for r in caplog.records if "refuses connections" in r.getMessage()]
    assert retries and "no free connection" in retries[0], retries


async def test_start_up_gives_up_with_the_database_and_the_reason(full_url: str) -> None:
    from bot.storage.postgres import PostgresStorage

    storage = PostgresStorage(full_url, pool_size=2, retry_seconds=1)
    with pytest.raises(StorageUnavailable) as raised:
        await storage.open()
    text = str(raised.value)
    database = full_url.rsplit("/", 1)[1]
    assert "PostgreSQL 127.0.0.1" in text and database in text, text
    assert "no free connection" in text and "too many connections" in text, text
    assert "retry_seconds" in text


def start_bot(tmp_path: Path, storage: str) -> subprocess.CompletedProcess[str]:
    config = tmp_path / "config.toml"
    config.write_text(f"[storage]\n{storage}\nretry_seconds = 1.0\n[ai]\nenabled = false\n")
    return subprocess.run([sys.executable, "-m", "bot", "--config", str(config), "console",
                           "--script", "-"], input="/help\n", capture_output=True, text=True,
                          cwd=tmp_path, timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)})


def one_line(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 1, (done.returncode, done.stderr)
    assert "Traceback" not in done.stderr, done.stderr
    lines = [line for line in done.stderr.splitlines() if line.startswith("bgbot: cannot")]
    assert len(lines) == 1, done.stderr
    return lines[0]


@pytest.mark.slow
def test_the_bot_against_a_full_server_exits_with_one_line(tmp_path: Path,
                                                           full_url: str) -> None:
    line = one_line(start_bot(tmp_path, f'url = "{full_url}"'))
    assert "cannot start" in line and "no free connection" in line, line


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.slow
def test_the_bot_against_a_server_not_up_exits_with_one_line(tmp_path: Path) -> None:
    if pg.unavailable() is not None and "asyncpg" in (pg.unavailable() or ""):
        pytest.skip("asyncpg is not installed")
    port = _closed_port()
    line = one_line(start_bot(tmp_path, f'url = "postgresql://bgbot@127.0.0.1:{port}/bgbot"'))
    assert f"PostgreSQL 127.0.0.1:{port}/bgbot" in line and "connection refused" in line, line


async def test_a_sqlite_file_that_cannot_be_opened_is_named(tmp_path: Path) -> None:
    folder = tmp_path / "a-folder.sqlite3"
    folder.mkdir()
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"not a database at all" * 200)
    for path, why in ((folder, "it is a folder"), (junk, "not a database")):
        with pytest.raises(StorageUnavailable) as raised:
            await SqliteStorage(path).open()
        assert str(path) in str(raised.value) and why in str(raised.value)

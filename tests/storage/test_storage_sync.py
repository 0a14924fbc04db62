"""Commits that do not wait for the disk, then one sync (issue 44 item 6: a thousand flag
falls at once).  ``Storage.run(..., durable=False)``: SQLite writes the commit to its WAL
(a kill of the process loses nothing) without the fsync; ``Storage.sync()`` syncs them
all at once; every other transaction keeps ``synchronous=FULL``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from scripted import opened

from bot.service.core.replies import Refusal
from bot.storage.interface import Transaction
from bot.storage.sqlite import SqliteStorage


async def level(storage: SqliteStorage) -> int:
    async with storage.db.execute("PRAGMA synchronous") as cur:
        row = await cur.fetchone()
    assert row is not None
    return int(row[0])


async def test_a_deferred_commit_is_kept_and_full_comes_back(tmp_path: Path) -> None:
    path = tmp_path / "bg.sqlite3"
    storage = await opened(path)

    async def beat(tx: Transaction) -> None:
        assert await tx.beat_clocks(0, 1234)

    await storage.run(beat, durable=False)
    assert await level(storage) == 2  # FULL for whatever comes next
    await storage.sync()
    again = SqliteStorage(path)  # another process sees it committed
    await again.open()
    try:
        async with again.snapshot() as tx:
            assert await tx.clock_beat() == 1234
    finally:
        await again.close()


async def test_a_refused_deferred_transaction_restores_full(tmp_path: Path) -> None:
    storage = await opened(tmp_path / "bg.sqlite3")

    async def refused(tx: Transaction) -> None:
        await tx.beat_clocks(0, 99)
        await tx.clock_beat()  # (sent: the relaxed level is in force)
        raise Refusal("no")

    with pytest.raises(Refusal):
        await storage.run(refused, durable=False)
    assert await level(storage) == 2
    async with storage.snapshot() as tx:
        assert await tx.clock_beat() == 0  # rolled back


async def test_sync_of_a_memory_database_is_nothing(tmp_path: Path) -> None:
    storage = await opened(Path(":memory:"))
    await storage.sync()


KILLED = """
import asyncio, os, signal, sys
from bot.storage.sqlite import SqliteStorage

async def main() -> None:
    storage = SqliteStorage(sys.argv[1])
    await storage.open()

    async def beat(tx):
        assert await tx.beat_clocks(0, 4321)

    await storage.run(beat, durable=False)
    print("committed", flush=True)
    os.kill(os.getpid(), signal.SIGKILL)  # before any sync

asyncio.run(main())
"""


async def test_a_deferred_commit_survives_kill_9(tmp_path: Path) -> None:
    """The standard: nothing lost on kill -9 (the WAL holds the commit; only a crash of
    the machine before the sync could lose it, and nothing was posted before the sync)."""
    path = tmp_path / "bg.sqlite3"
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", KILLED, str(path)], capture_output=True,
                          text=True, timeout=60, cwd=root, env={"PYTHONPATH": str(root)})
    assert done.returncode == -9, done.stderr
    assert "committed" in done.stdout
    storage = await opened(path)
    async with storage.snapshot() as tx:
        assert await tx.clock_beat() == 4321

"""The SQLite database of one bot process (aiosqlite).

* WAL journal, foreign keys on, ``synchronous=FULL`` so a committed action
  survives a crash of the process or the machine.  ``run(..., durable=False)`` commits
  one transaction without the fsync (it survives the process; :meth:`SqliteStorage.sync`
  then syncs all such commits at once, before their replies are shown).
* Numbered migrations from ``bot/storage/migrations/sqlite/NNNN_*.sql`` are applied at
  start-up, each in one transaction together with its ``schema_version`` row.
* :meth:`SqliteStorage.transaction` opens ``BEGIN IMMEDIATE`` (the write lock
  is taken up front, so two processes never interleave inside one action) and
  commits on success or rolls back on any exception.  One connection serves
  the process; an asyncio lock serialises transactions on it.
* Optimistic concurrency: ``update_match`` only succeeds when the version the
  caller read is still current (``UPDATE ... WHERE version = ?``), which keeps
  several processes on one database from applying an action twice.
* The statements of a transaction go to aiosqlite's thread in batches
  (:mod:`bot.storage.sqlite.transaction`).
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TypeVar

import aiosqlite

from bot.storage.core.errors import StorageBusy, StorageUnavailable
from bot.storage.core.sql import migrations, now, split_sql
from bot.storage.interface import Transaction
from bot.storage.sqlite.transaction import SqliteTransaction

T = TypeVar("T")


_SQLITE_BUSY = ("database is locked", "database table is locked", "database is busy")
_SQLITE_GONE = ("disk i/o error", "unable to open database", "database disk image is malformed",
                "attempt to write a readonly database")


def _sqlite_error(error: sqlite3.OperationalError) -> BaseException:
    """The typed error for a lock wait that ran out or a database file that is away."""
    text = str(error).lower()
    if any(t in text for t in _SQLITE_BUSY):
        return StorageBusy()
    if any(t in text for t in _SQLITE_GONE):
        return StorageUnavailable()
    return error


def _fsync(path: str) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        return  # no WAL: every commit is in the database file (checkpointed, synced)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class SqliteStorage:
    """The SQLite database of one bot process.

    ``lock_timeout``: seconds a transaction waits for another process's write lock
    (SQLite's busy timeout), then :class:`StorageBusy` from :meth:`run`.
    ``acquire_timeout``: seconds :meth:`run` waits for this process's connection
    (one transaction at a time), then :class:`StorageBusy`; None waits as long as it
    takes.  ``retry_seconds`` is accepted for parity with PostgreSQL: SQLite has no
    deadlocks, serialization failures or lost connections to retry.
    """

    def __init__(self, path: str | Path, *, lock_timeout: float = 30.0,
                 acquire_timeout: float | None = None, retry_seconds: float = 10.0) -> None:
        self.path = str(path)
        self.lock_timeout = lock_timeout
        self.acquire_timeout = acquire_timeout
        self.retry_seconds = retry_seconds
        self._db: aiosqlite.Connection | None = None
        self._lock = asyncio.Lock()
        self.retries = 0
        """Always 0: SQLite has nothing to retry (for the metrics, as PostgreSQL)."""

    async def open(self) -> None:
        """Open (create) the file and migrate it; :class:`StorageUnavailable`, naming the
        file and the reason, when it cannot be opened (a folder that cannot be written,
        a file that is not a database)."""
        db = None
        if self.path != ":memory:" and Path(self.path).is_dir():
            raise StorageUnavailable(f"cannot open the SQLite database {self.path}: it is a "
                                     "folder")
        try:
            if self.path != ":memory:":
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            db = await aiosqlite.connect(self.path, isolation_level=None,
                                         timeout=self.lock_timeout)
            await db.execute("PRAGMA journal_mode = WAL")
            await db.execute("PRAGMA synchronous = FULL")
            await db.execute("PRAGMA foreign_keys = ON")
            await db.execute(f"PRAGMA busy_timeout = {max(1, int(self.lock_timeout * 1000))}")
            self._db = db
            await self._migrate()
        except (sqlite3.Error, OSError) as error:
            self._db = None
            if db is not None:
                await db.close()
            raise StorageUnavailable(f"cannot open the SQLite database {self.path}: "
                                     f"{error}") from error

    async def close(self, timeout: float = 5.0) -> None:
        """Close the connection, after the transaction under way (waited for at most
        ``timeout`` seconds) and a WAL checkpoint: the database file alone then holds
        every committed action (a copy of it needs no ``-wal`` file)."""
        if self._db is None:
            return
        db = self._db
        try:
            await asyncio.wait_for(self._lock.acquire(), timeout)
        except TimeoutError:
            pass  # a transaction still runs: closing rolls it back
        else:
            try:
                if self.path != ":memory:":
                    await db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlite3.Error:
                pass  # another process reads: the next one to close checkpoints
            finally:
                self._lock.release()
        self._db = None
        await db.close()

    @property
    def db(self) -> aiosqlite.Connection:
        if self._db is None:
            raise RuntimeError("storage is not open")
        return self._db

    async def schema_version(self) -> int:
        async with self.db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'"
        ) as cur:
            if await cur.fetchone() is None:
                return 0
        async with self.db.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version") as cur:
            row = await cur.fetchone()
        return int(row[0]) if row else 0

    async def _migrate(self) -> None:
        async with self._lock:
            db = self.db
            await db.execute("BEGIN IMMEDIATE")
            try:
                await db.execute(
                    "CREATE TABLE IF NOT EXISTS schema_version ("
                    "version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)")
                await db.execute("COMMIT")
            except BaseException:
                await db.execute("ROLLBACK")
                raise
            for version, name, sql in migrations():
                await db.execute("BEGIN IMMEDIATE")
                try:
                    async with db.execute(
                            "SELECT 1 FROM schema_version WHERE version = ?", (version,)) as cur:
                        done = await cur.fetchone() is not None
                    if not done:
                        for statement in split_sql(sql):
                            await db.execute(statement)
                        await db.execute(
                            "INSERT INTO schema_version (version, name, applied_at) "
                            "VALUES (?, ?, ?)", (version, name, now()))
                    await db.execute("COMMIT")
                except BaseException:
                    await db.execute("ROLLBACK")
                    raise

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[SqliteTransaction]:
        """One transaction holding the write lock (``BEGIN IMMEDIATE``), for an action."""
        async with self._run(SqliteTransaction(self.db, "BEGIN IMMEDIATE")) as tx:
            yield tx

    @asynccontextmanager
    async def snapshot(self) -> AsyncIterator[SqliteTransaction]:
        """A read-only transaction (``BEGIN``, no write lock): one consistent view."""
        async with self._run(SqliteTransaction(self.db, "BEGIN")) as tx:
            yield tx

    async def run(self, work: Callable[[Transaction], Awaitable[T]], *,
                  lock_channel: int | None = None, durable: bool = True) -> T:
        """``work`` in one ``BEGIN IMMEDIATE`` transaction (see :meth:`Storage.run`).

        ``lock_channel`` needs nothing more here: the write lock serialises every
        writer of the file.  The bounds: :class:`StorageBusy` when this process's
        connection is not free within ``acquire_timeout`` or another process holds
        the write lock longer than ``lock_timeout``; :class:`StorageUnavailable`
        when the file cannot be read or written.
        """
        del lock_channel
        try:
            await asyncio.wait_for(self._lock.acquire(), self.acquire_timeout)
        except TimeoutError:
            raise StorageBusy() from None
        tx = SqliteTransaction(self.db, "BEGIN IMMEDIATE", durable=durable)
        try:
            try:
                result = await work(tx)
                await tx.commit()
            except BaseException:
                await tx.rollback()
                raise
        except sqlite3.OperationalError as error:
            raise _sqlite_error(error) from error
        finally:
            self._lock.release()
        for callback in tx.after_commit:
            callback()
        return result

    async def sync(self) -> None:
        """Make every transaction committed so far survive a crash of the machine (see
        :meth:`Storage.sync`): one ``fsync`` of the WAL, which holds them in order, as
        SQLite's own ``synchronous=FULL`` commit does."""
        if self.path == ":memory:":
            return
        try:
            await asyncio.to_thread(_fsync, self.path + "-wal")
        except OSError as error:
            raise StorageUnavailable(f"cannot sync the SQLite database {self.path}: "
                                     f"{error}") from error

    @asynccontextmanager
    async def _run(self, tx: SqliteTransaction) -> AsyncIterator[SqliteTransaction]:
        async with self._lock:
            try:
                yield tx
                await tx.commit()
            except BaseException:
                await tx.rollback()
                raise
        for callback in tx.after_commit:
            callback()

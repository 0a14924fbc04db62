"""PostgreSQL storage (asyncpg): the shared database of a sharded deployment.

Several bot processes open one PostgreSQL database; each keeps a small pool
of connections.  The SQL is the table families' shared SQL
(:mod:`bot.storage.core.sql`): :class:`~bot.storage.postgres.transaction.PostgresTransaction`
runs it with its statement primitives at once on
:class:`~bot.storage.postgres.database.PgDatabase`, a small aiosqlite-like facade over an
asyncpg connection that rewrites the SQLite text for PostgreSQL; the only dialect
differences in the SQL itself are the explicit overrides of that transaction class.

Concurrency across processes.  Transactions are READ COMMITTED.  Every
action reads its channel's match (or chouette) through
``open_match_in_channel`` / ``open_chouette_in_channel``, which first take
``pg_advisory_xact_lock(channel_id)``: actions on one channel are serialised
cluster-wide exactly as ``BEGIN IMMEDIATE`` serialises them on SQLite (the
second process waits, then reads the committed state), and actions in other
channels run in parallel.  The optimistic ``UPDATE ... WHERE version = $n``
and the primary keys of the event log stay as the safety net: a transaction
that did not take the lock still cannot apply an action twice (its event
numbers or its version are taken: :class:`StaleVersionError`).
``claim_reminder`` is a conditional UPDATE, so each reminder is claimed by
exactly one process.

Rows shared between channels.  Ratings are read, recomputed and written back:
``lock_players`` locks the players' ``ratings`` rows (``INSERT ... ON
CONFLICT DO UPDATE``, one statement, ascending user id) before they are read,
so two games with a player in common that end at once wait for each other;
every transaction takes its locks in one global order (the channel's
advisory lock, then user rows, then rating rows in user id order), so they
cannot deadlock either.  ``set_rating`` still checks that the stored rating
is the one read (:class:`RetryableConflict` otherwise): a caller that forgot
the lock gets a retry, never a lost update.  Users are written in user id
order by the service; the ledger is append-only (no read-modify-write).

Failures.  A deadlock or serialization failure is :class:`RetryableConflict`
(a :class:`StaleVersionError`: nothing was applied); :meth:`PostgresStorage.run`
re-runs the whole transaction for it, and for a connection refused, a server
starting up or shutting down, or a connection lost before COMMIT, with
jittered backoff within ``retry_seconds``.  A lock wait longer than
``lock_timeout`` (PostgreSQL's own, set on every connection), a pool with no
free connection for ``acquire_timeout``, a statement cancelled by the
operator's ``statement_timeout`` are :class:`StorageBusy`; a server away for
the whole budget is :class:`StorageUnavailable`; a connection lost during
COMMIT is :class:`StorageCommitUnknown` (never retried: it may have
committed).  No driver exception of those kinds leaves this module.

Migrations: ``bot/storage/migrations/postgres/NNNN_*.sql``, the same numbers and names
as the SQLite ones, applied at start-up under an advisory lock (processes that
start together migrate once).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any, TypeVar
from urllib.parse import urlsplit

import asyncpg  # type: ignore[import-untyped]  # no stubs; asyncpg-stubs is optional

from bot.storage.core.errors import (
    RetryableConflict,
    StaleVersionError,
    StorageBusy,
    StorageCommitUnknown,
    StorageUnavailable,
)
from bot.storage.core.sql import now
from bot.storage.interface import Transaction
from bot.storage.postgres.database import PgDatabase, pg_migrations
from bot.storage.postgres.transaction import PostgresTransaction

T = TypeVar("T")
log = logging.getLogger(__name__)

_SLOT_CONSTRAINTS = frozenset({"events_pkey", "games_match_id_number_key"})
"""Another process wrote this event / game number first: the action is stale."""
MIGRATION_LOCK = -0x62676274  # advisory lock key of the migrations ("bgbt", negated)


_CONNECTION_ERRORS: tuple[type[BaseException], ...] = (
    OSError,  # ConnectionRefusedError, ConnectionResetError, socket errors
    asyncpg.PostgresConnectionError,  # class 08: connection lost / failed
    asyncpg.CannotConnectNowError,  # the server is starting up or shutting down
    asyncpg.AdminShutdownError,
    asyncpg.CrashShutdownError,
    asyncpg.TooManyConnectionsError,  # the server (or role/database) is full
)
"""Failures of the connection itself: nothing of the transaction was committed
(unless it happened during COMMIT)."""
_CLIENT_ERRORS: tuple[type[BaseException], ...] = (
    asyncpg.InterfaceError, asyncpg.InternalClientError)
"""asyncpg's own errors: a connection failure when the connection is closed
("connection is closed", a protocol broken by the drop), a bug otherwise."""


def _connection_failed(error: BaseException, conn: Any) -> bool:
    if isinstance(error, _CONNECTION_ERRORS):
        return True
    if not isinstance(error, _CLIENT_ERRORS):
        return False
    try:
        return conn is None or bool(conn.is_closed())
    except asyncpg.InterfaceError:  # the pool took it back when the connection died
        return True
_BUSY_ERRORS: tuple[type[BaseException], ...] = (
    asyncpg.LockNotAvailableError,  # our lock_timeout (or the operator's)
    asyncpg.QueryCanceledError,  # statement_timeout, or a cancelled query
    TimeoutError,  # asyncpg's command_timeout
)
_FIRST_DELAY = 0.02
_MAX_DELAY = 0.5


def _reason(error: BaseException) -> str:
    """A connection failure in a few words."""
    if isinstance(error, asyncpg.TooManyConnectionsError):
        return f"it has no free connection ({str(error).strip() or 'too many connections'})"
    if isinstance(error, ConnectionRefusedError):
        return "connection refused (is the server up?)"
    if isinstance(error, asyncpg.CannotConnectNowError):
        return f"the server is starting up or shutting down ({error})"
    text = str(error).strip()
    return text or type(error).__name__


def _backoff(delay: float) -> tuple[float, float]:
    """A jittered pause for ``delay`` and the next delay (doubling, capped)."""
    return delay * random.uniform(0.5, 1.5), min(delay * 2, _MAX_DELAY)


def _translate(error: BaseException, conn: Any, *, committing: bool) -> BaseException | None:
    """The typed error for a driver failure, or None when ``error`` stays as it is."""
    if isinstance(error, asyncpg.TransactionRollbackError):  # deadlock, serialization
        return RetryableConflict(f"PostgreSQL rolled back: {error}")
    if isinstance(error, asyncpg.UniqueViolationError) and getattr(
            error, "constraint_name", None) in _SLOT_CONSTRAINTS:
        return StaleVersionError(f"PostgreSQL rolled back: {error}")
    if isinstance(error, _BUSY_ERRORS):
        return StorageCommitUnknown() if committing and isinstance(error, TimeoutError) \
            else StorageBusy()
    if _connection_failed(error, conn):
        return StorageCommitUnknown() if committing else StorageUnavailable()
    return None


class PostgresStorage:
    """A PostgreSQL database shared by any number of bot processes.

    ``pool_size``: the most connections this process opens.  ``acquire_timeout``:
    seconds a transaction waits for a free connection of the pool, then
    :class:`StorageBusy`.  ``lock_timeout``: PostgreSQL's ``lock_timeout`` on every
    connection, so a wait for a game's advisory lock or a row lock ends in
    :class:`StorageBusy` after that long.  ``retry_seconds``: the time budget of the
    transparent retries (connecting, and :meth:`run`'s whole-transaction retries).
    ``idle_in_transaction_timeout``: the server ends a session that stays idle
    inside a transaction that long (a stuck or frozen process), which releases its
    locks.
    """

    def __init__(self, url: str, *, pool_size: int = 10, lock_timeout: float = 10.0,
                 acquire_timeout: float = 10.0, retry_seconds: float = 10.0,
                 idle_in_transaction_timeout: float = 60.0) -> None:
        self.url = url
        self.pool_size = pool_size
        self.lock_timeout = lock_timeout
        self.acquire_timeout = acquire_timeout
        self.retry_seconds = retry_seconds
        self.idle_in_transaction_timeout = idle_in_transaction_timeout
        self.retries = 0
        """Transactions (or connections) tried again since the start (for the metrics)."""
        self._pool: asyncpg.Pool | None = None

    @property
    def where(self) -> str:
        """The database for messages: host, port and name (never the password)."""
        parts = urlsplit(self.url)
        port = f":{parts.port}" if parts.port else ""
        return f"PostgreSQL {parts.hostname or 'localhost'}{port}{parts.path}"

    async def open(self) -> None:
        """Connect (the pool's first connection) and migrate.  A server that refuses
        connections -- not up yet, restarting, its connection limit reached -- is tried
        again with jittered backoff for ``retry_seconds`` (each retry logged), as an
        action would be; then :class:`StorageUnavailable` names the database and the
        reason."""
        settings = {
            "lock_timeout": f"{max(1, int(self.lock_timeout * 1000))}ms",
            "idle_in_transaction_session_timeout":
                f"{max(1, int(self.idle_in_transaction_timeout * 1000))}ms",
        }
        deadline = time.monotonic() + self.retry_seconds
        delay, tries = _FIRST_DELAY * 10, 0
        while True:
            pool = None
            try:
                pool = await asyncpg.create_pool(
                    self.url, min_size=1, max_size=self.pool_size, command_timeout=120,
                    server_settings=settings)
                self._pool = pool
                await self._migrate()
                return
            except BaseException as error:
                self._pool = None
                if pool is not None:
                    pool.terminate()
                if not _connection_failed(error, None) or isinstance(error, TimeoutError):
                    if pool is None and isinstance(error, asyncpg.PostgresError | TimeoutError):
                        # refused for good: a wrong password, no such database, ...
                        raise StorageUnavailable(f"the database {self.where} refused the "
                                                 f"connection: {_reason(error)}") from error
                    raise
                tries += 1
                pause, delay = _backoff(delay)
                reason = _reason(error)
                if time.monotonic() + pause >= deadline:
                    raise StorageUnavailable(
                        f"the database {self.where} cannot be reached: {reason} (tried "
                        f"{tries} time{'s' if tries != 1 else ''} in "
                        f"{self.retry_seconds:g} s, storage.retry_seconds)") from error
                log.warning("the database %s refuses connections (%s): trying again in "
                            "%.1f s", self.where, reason, pause)
                await asyncio.sleep(pause)

    async def close(self, timeout: float = 5.0) -> None:
        """Close the pool: its connections are released when their transactions end (at
        most ``timeout`` seconds; then they are closed, and the server rolls back)."""
        if self._pool is not None:
            pool, self._pool = self._pool, None
            try:
                await asyncio.wait_for(pool.close(), timeout)
            except TimeoutError:
                pool.terminate()

    @property
    def pool(self) -> asyncpg.Pool:
        if self._pool is None:
            raise RuntimeError("storage is not open")
        return self._pool

    @property
    def db(self) -> PgDatabase:
        """Ad-hoc SQL (``?`` parameters) outside a transaction, for tools and tests."""
        return PgDatabase(self.pool)

    async def schema_version(self) -> int:
        exists = await self.pool.fetchval("SELECT to_regclass('schema_version') IS NOT NULL")
        if not exists:
            return 0
        return int(await self.pool.fetchval(
            "SELECT COALESCE(MAX(version), 0) FROM schema_version"))

    async def _migrate(self) -> None:
        async with self.pool.acquire() as conn:
            async with conn.transaction():
                await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
                await conn.execute(
                    "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, "
                    "name TEXT NOT NULL, applied_at TEXT NOT NULL)")
            for version, name, sql in pg_migrations():
                async with conn.transaction():
                    await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
                    done = await conn.fetchval(
                        "SELECT 1 FROM schema_version WHERE version = $1", version)
                    if not done:
                        await conn.execute(sql)  # no parameters: the whole script at once
                        await conn.execute(
                            "INSERT INTO schema_version (version, name, applied_at) "
                            "VALUES ($1, $2, $3)", version, name, now())

    @staticmethod
    async def _release(pool: Any, conn: Any) -> None:
        """Back to ``pool`` (the pool it came from: close() may have begun meanwhile)."""
        # A broken connection: the pool has terminated it and will open a new one.
        with contextlib.suppress(asyncpg.PostgresError, asyncpg.InterfaceError,
                                 asyncpg.InternalClientError, OSError, TimeoutError):
            await pool.release(conn)

    async def _begin(self, deadline: float) -> tuple[Any, Any, Any]:
        """A pooled connection inside BEGIN.  Connection failures (refused, the
        server starting or shutting down, a pooled connection the server dropped)
        are retried with jittered backoff until ``deadline``; nothing has run yet."""
        delay = _FIRST_DELAY
        while True:
            conn = None
            pool = self.pool
            try:
                conn = await pool.acquire(timeout=self.acquire_timeout)
                tx = conn.transaction()
                await tx.start()
                return pool, conn, tx
            except BaseException as error:
                failed = _connection_failed(error, conn)  # before the pool takes it back
                if conn is not None:  # also when cancelled during BEGIN: never leak it
                    await self._release(pool, conn)
                if isinstance(error, TimeoutError):
                    raise StorageBusy("All the database connections of this bot are in use: "
                                      "your action was not applied, try again in a moment."
                                      ) from None
                if not failed:
                    raise
                pause, delay = _backoff(delay)
                self.retries += 1
                if time.monotonic() + pause >= deadline:
                    if isinstance(error, asyncpg.TooManyConnectionsError):
                        raise StorageBusy("The database has no free connection: your action "
                                          "was not applied, try again in a moment.") from error
                    raise StorageUnavailable() from error
                await asyncio.sleep(pause)

    @asynccontextmanager
    async def _transaction(self, deadline: float) -> AsyncIterator[PostgresTransaction]:
        pool, conn, tx = await self._begin(deadline)
        pg_tx = PostgresTransaction(PgDatabase(conn))
        try:
            try:
                yield pg_tx
            except BaseException as error:
                # A connection that is gone needs no rollback: the server rolls back.
                with contextlib.suppress(asyncpg.PostgresError, asyncpg.InterfaceError,
                                         asyncpg.InternalClientError, OSError, TimeoutError):
                    await tx.rollback()
                typed = _translate(error, conn, committing=False)
                if typed is not None:
                    raise typed from error
                raise
            try:
                await tx.commit()
            except BaseException as error:
                typed = _translate(error, conn, committing=True)
                if typed is not None:
                    raise typed from error
                raise
        finally:
            await self._release(pool, conn)
        for callback in pg_tx.after_commit:
            callback()

    def transaction(self) -> AbstractAsyncContextManager[PostgresTransaction]:
        """One action's transaction (READ COMMITTED).  Getting a connection and
        BEGIN are retried within ``retry_seconds``; the body is not (it cannot be
        re-run from here: use :meth:`run`).  Failures come out typed: a deadlock as
        :class:`RetryableConflict` (a :class:`StaleVersionError`), a lock wait over
        ``lock_timeout`` as :class:`StorageBusy`, a lost connection as
        :class:`StorageUnavailable` (:class:`StorageCommitUnknown` during COMMIT)."""
        return self._transaction(time.monotonic() + self.retry_seconds)

    def snapshot(self) -> AbstractAsyncContextManager[PostgresTransaction]:
        """Reads take the channel's advisory lock like actions: the same transaction."""
        return self.transaction()

    async def sync(self) -> None:
        """Nothing to do: every commit here waited for the server's WAL flush."""

    async def run(self, work: Callable[[Transaction], Awaitable[T]], *,
                  lock_channel: int | None = None, durable: bool = True) -> T:
        """``work`` in one transaction, retried as a whole while nothing was committed
        and the failure is transient (see :meth:`bot.storage.interface.Storage.run`).
        ``durable`` is always honoured as True: the server flushes each commit (and
        flushes many sessions' commits together)."""
        del durable
        deadline = time.monotonic() + self.retry_seconds
        delay = _FIRST_DELAY
        while True:
            try:
                async with self._transaction(deadline) as tx:
                    if lock_channel is not None:
                        await tx.lock_channel(lock_channel)
                    return await work(tx)
            except StorageCommitUnknown:
                raise  # it may have committed: never re-run it
            except (RetryableConflict, StorageUnavailable) as error:
                pause, delay = _backoff(delay)
                self.retries += 1
                if time.monotonic() + pause >= deadline:
                    if isinstance(error, RetryableConflict):
                        raise StorageBusy() from error
                    raise
                await asyncio.sleep(pause)

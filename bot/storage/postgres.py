"""PostgreSQL storage (asyncpg): the shared database of a sharded deployment.

Several bot processes open one PostgreSQL database; each keeps a small pool
of connections.  The SQL is *shared* with :mod:`bot.storage.sqlite`:
:class:`PostgresTransaction` is :class:`~bot.storage.sqlite.SqliteTransaction` with
its five statement primitives run at once (SQLite defers the writes to batch
them into fewer trips to its thread; asyncpg has no mixed batches) on
:class:`PgDatabase`, a small aiosqlite-like facade over an asyncpg
connection that rewrites the SQLite text for PostgreSQL:

* ``?`` and ``:name`` parameters become ``$1, $2, ...``; Python booleans are
  passed as 0/1 (flags are INTEGER columns in both dialects);
* an ``INSERT`` into a table with an identity ``id`` gets ``RETURNING id``
  (``cursor.lastrowid``); an UPDATE's ``rowcount`` comes from its status tag.

The only dialect differences in the SQL itself are explicit overrides below:
subqueries in FROM need an alias in PostgreSQL 15, and the three
"what is open in this channel" reads take a per-channel lock first.

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
import functools
import random
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Generator, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any, TypeVar, cast

import asyncpg  # type: ignore[import-untyped]  # no stubs; asyncpg-stubs is optional

from bot.storage.interface import (
    RetryableConflict,
    StaleVersionError,
    StorageBusy,
    StorageCommitUnknown,
    StorageUnavailable,
    Transaction,
    UserRow,
    clean_name,
)
from bot.storage.sqlite import SqliteTransaction, migrations, now

T = TypeVar("T")

_MIGRATION_RE = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")
_PARAM_RE = re.compile(r"\?|(?<![:\w]):([A-Za-z_]\w*)")
_INSERT_RE = re.compile(r"^\s*INSERT\s+INTO\s+(\w+)", re.IGNORECASE)
_IDENTITY_RE = re.compile(
    r"CREATE\s+TABLE\s+(\w+)\s*\(\s*id\s+BIGINT\s+GENERATED\b", re.IGNORECASE)
_STATUS_COUNT_RE = re.compile(r"(\d+)$")
_SLOT_CONSTRAINTS = frozenset({"events_pkey", "games_match_id_number_key"})
"""Another process wrote this event / game number first: the action is stale."""
MIGRATION_LOCK = -0x62676274  # advisory lock key of the migrations ("bgbt", negated)


def pg_migrations() -> list[tuple[int, str, str]]:
    """(version, name, sql) of every PostgreSQL migration, in order."""
    return migrations("postgres")


@functools.cache
def identity_tables() -> frozenset[str]:
    """Tables whose ``id`` is an identity column (an INSERT returns it)."""
    return frozenset(name for _, _, sql in pg_migrations() for name in _IDENTITY_RE.findall(sql))


@functools.lru_cache(maxsize=1024)
def translate(sql: str) -> tuple[str, tuple[str, ...]]:
    """SQLite parameter style to PostgreSQL: the new text and the parameter names.

    ``?`` become ``$1, $2, ...`` in order (names are empty); ``:name`` become
    ``$k`` with one number per distinct name (names list them by number).
    """
    names: list[str] = []
    count = 0

    def number(match: re.Match[str]) -> str:
        nonlocal count
        name = match.group(1)
        if name is None:
            count += 1
            return f"${count}"
        if name not in names:
            names.append(name)
        return f"${names.index(name) + 1}"

    text = _PARAM_RE.sub(number, sql)
    if count and names:
        raise ValueError("mixed ? and :name parameters in one statement")
    return text, tuple(names)


def _value(value: Any) -> Any:
    return int(value) if isinstance(value, bool) else value


def _arguments(params: Sequence[Any] | Mapping[str, Any], names: tuple[str, ...]) -> list[Any]:
    if names:
        if not isinstance(params, Mapping):
            raise TypeError("named parameters need a mapping")
        return [_value(params[n]) for n in names]
    if isinstance(params, Mapping):
        raise TypeError("positional parameters need a sequence")
    return [_value(v) for v in params]


class PgCursor:
    """What an aiosqlite cursor offers the shared SQL code."""

    def __init__(self, rows: Sequence[asyncpg.Record], rowcount: int,
                 lastrowid: int | None = None) -> None:
        self._rows = list(rows)
        self.rowcount = rowcount
        self.lastrowid = lastrowid

    async def fetchone(self) -> asyncpg.Record | None:
        return self._rows[0] if self._rows else None

    async def fetchall(self) -> list[asyncpg.Record]:
        return list(self._rows)

    async def __aenter__(self) -> PgCursor:
        return self

    async def __aexit__(self, *exc: object) -> None:
        return None


class _Pending:
    """``db.execute(...)`` is awaited or used as ``async with``, like aiosqlite."""

    def __init__(self, db: PgDatabase, sql: str, params: Any) -> None:
        self._db, self._sql, self._params = db, sql, params

    def __await__(self) -> Generator[Any, None, PgCursor]:
        return self._db.run(self._sql, self._params).__await__()

    async def __aenter__(self) -> PgCursor:
        return await self._db.run(self._sql, self._params)

    async def __aexit__(self, *exc: object) -> None:
        return None


class PgDatabase:
    """An aiosqlite-like facade over an asyncpg connection (or a pool).

    Used by the shared transaction code, and by tools and tests that run ad-hoc
    SQL written with ``?`` parameters on either backend.
    """

    def __init__(self, conn: asyncpg.Connection | asyncpg.Pool) -> None:
        self.conn = conn

    def execute(self, sql: str, params: Sequence[Any] | Mapping[str, Any] = ()) -> _Pending:
        return _Pending(self, sql, params)

    async def run(self, sql: str, params: Sequence[Any] | Mapping[str, Any] = ()) -> PgCursor:
        text, names = translate(sql)
        args = _arguments(params, names)
        if text.lstrip()[:4].upper() in ("SELE", "WITH") or " RETURNING " in text.upper():
            rows = await self.conn.fetch(text, *args)
            return PgCursor(rows, len(rows))
        insert = _INSERT_RE.match(text)
        if insert and insert.group(1).lower() in identity_tables() \
                and "RETURNING" not in text.upper():
            row = await self.conn.fetchrow(text + " RETURNING id", *args)
            return PgCursor([], 1 if row else 0, int(row[0]) if row else None)
        status = await self.conn.execute(text, *args)
        found = _STATUS_COUNT_RE.search(status or "")
        return PgCursor([], int(found.group(1)) if found else -1)

    async def executemany(self, sql: str,
                          seq: Sequence[Sequence[Any] | Mapping[str, Any]]) -> None:
        text, names = translate(sql)
        rows = [_arguments(params, names) for params in seq]
        if rows:
            await self.conn.executemany(text, rows)


def _alias_board_sql(sql: str) -> str:
    """PostgreSQL 15 wants an alias on the UNION ALL subquery of the leaderboard."""
    old = "SELECT black_id FROM matches WHERE guild_id = :g AND status = 'finished')"
    if old not in sql:  # the shared SQL changed: make the difference visible at import
        raise RuntimeError("bot.storage.sqlite leaderboard SQL changed; "
                           "update bot/storage/postgres.py")
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
        self._pool: asyncpg.Pool | None = None

    async def open(self) -> None:
        settings = {
            "lock_timeout": f"{max(1, int(self.lock_timeout * 1000))}ms",
            "idle_in_transaction_session_timeout":
                f"{max(1, int(self.idle_in_transaction_timeout * 1000))}ms",
        }
        self._pool = await asyncpg.create_pool(
            self.url, min_size=1, max_size=self.pool_size, command_timeout=120,
            server_settings=settings)
        await self._migrate()

    async def close(self) -> None:
        if self._pool is not None:
            pool, self._pool = self._pool, None
            await pool.close()

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

    async def run(self, work: Callable[[Transaction], Awaitable[T]], *,
                  lock_channel: int | None = None) -> T:
        """``work`` in one transaction, retried as a whole while nothing was committed
        and the failure is transient (see :meth:`bot.storage.interface.Storage.run`)."""
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
                if time.monotonic() + pause >= deadline:
                    if isinstance(error, RetryableConflict):
                        raise StorageBusy() from error
                    raise
                await asyncio.sleep(pause)

"""A SQLite transaction: the shared SQL of every table family, run in batches.

Few round trips.  Every call into aiosqlite is a trip to its connection thread and back
(about 0.1-0.3 ms on a quiet machine, more than the SQL itself), so a transaction sends
its statements in batches: writes whose result nobody needs (``_write``) wait, and go to
the thread together with the next statement that returns something, or with the
``COMMIT``.  An action on a cached game is two trips: ``BEGIN IMMEDIATE`` + the read of
its match row, then its writes + ``COMMIT``.  The statements still run in the order they
were issued inside one transaction, so a failing deferred write rolls everything back
exactly as before; it only reports at the trip that sends it.  The version check of
``update_match`` is such a deferred write: its :class:`StaleVersionError` comes at commit,
and the row it returns is built from the row the caller read (the same JSON decoding as a
read).
"""

from __future__ import annotations

import dataclasses
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import aiosqlite

from bot.storage.analysis.queries import AnalysisQueries
from bot.storage.chouette.queries import ChouetteQueries
from bot.storage.clock.queries import ClockQueries
from bot.storage.core.errors import RetryableConflict, StaleVersionError, storable_params
from bot.storage.lobby.queries import LobbyQueries
from bot.storage.play.queries import PlayQueries
from bot.storage.settings.queries import SettingsQueries
from bot.storage.standings.queries import StandingsQueries
from bot.storage.tournaments.queries import TournamentQueries

_ROWS, _CURSOR, _WRITE, _MANY, _CHECK, _ROLLBACK = range(6)
"""Statement kinds of a batch: fetch rows; (rowcount, lastrowid); a write;
``executemany``; a write that must change exactly one row; ROLLBACK if a
transaction is open."""


@dataclasses.dataclass(frozen=True, slots=True)
class _Statement:
    kind: int
    sql: str
    params: Any = ()
    error: str = ""
    """For ``_CHECK``: the :class:`StaleVersionError` message."""
    retry: bool = False
    """For ``_CHECK``: raise :class:`RetryableConflict` (a shared row changed) instead."""


def _check_failed(st: _Statement) -> StaleVersionError:
    return RetryableConflict(st.error) if st.retry else StaleVersionError(st.error)


_COMMIT = _Statement(_WRITE, "COMMIT")
_RELAX = _Statement(_WRITE, "PRAGMA synchronous = NORMAL")
_RESTORE = _Statement(_WRITE, "PRAGMA synchronous = FULL")
"""Around a transaction that does not wait for the disk (``durable=False``): SQLite
refuses to change the safety level inside a transaction, so these go just before its
``BEGIN`` and just after its ``COMMIT``/``ROLLBACK``, in the same trips."""
_ROLLBACK_IF_OPEN = _Statement(_ROLLBACK, "ROLLBACK")


def _run_batch(conn: sqlite3.Connection, batch: Sequence[_Statement]) -> Any:
    """Run ``batch`` in order on the connection's own thread; the last result."""
    result: Any = None
    for st in batch:
        if st.kind == _MANY:
            conn.executemany(st.sql, [storable_params(row) for row in st.params])
            continue
        if st.kind == _ROLLBACK:
            if conn.in_transaction:
                conn.execute(st.sql)
            continue
        cur = conn.execute(st.sql, storable_params(st.params))
        try:
            if st.kind == _ROWS:
                result = cur.fetchall()
            elif st.kind == _CURSOR:
                result = (cur.rowcount, cur.lastrowid)
            elif st.kind == _CHECK and cur.rowcount != 1:
                raise _check_failed(st)
        finally:
            cur.close()
    return result


async def _submit(db: aiosqlite.Connection, batch: Sequence[_Statement]) -> Any:
    """One trip to aiosqlite's connection thread for the whole batch.

    aiosqlite runs one callable per trip; ``Connection._execute`` is how its own
    methods queue theirs (present from 0.17 to today).  Should a release drop
    it, the statements go one trip each through the public API instead: the
    same results, only slower (``tests/storage/test_storage.py`` runs both ways).
    """
    run_in_thread = getattr(db, "_execute", None)
    if run_in_thread is not None and _BATCHING:
        return await run_in_thread(_run_batch_on, db, batch)
    return await _submit_one_by_one(db, batch)


_BATCHING = True
"""False: every statement is its own trip (a test switch for the fallback)."""


def _run_batch_on(db: aiosqlite.Connection, batch: Sequence[_Statement]) -> Any:
    # aiosqlite has no public way to run a function with its sqlite3 connection on its
    # thread; this (and _execute above) is the one place that uses its internals, with
    # the public one-by-one path as the fallback (tests run both).
    conn = db._conn  # noqa: SLF001
    return _run_batch(conn, batch)


async def _submit_one_by_one(db: aiosqlite.Connection, batch: Sequence[_Statement]) -> Any:
    result: Any = None
    for st in batch:
        if st.kind == _MANY:
            await db.executemany(st.sql, [storable_params(row) for row in st.params])
            continue
        if st.kind == _ROLLBACK:
            if db.in_transaction:
                await db.execute(st.sql)
            continue
        async with db.execute(st.sql, storable_params(st.params)) as cur:
            if st.kind == _ROWS:
                result = list(await cur.fetchall())
            elif st.kind == _CURSOR:
                result = (cur.rowcount, cur.lastrowid)
            elif st.kind == _CHECK and cur.rowcount != 1:
                raise _check_failed(st)
    return result


class SqliteTransaction(PlayQueries, ChouetteQueries, TournamentQueries, StandingsQueries,
                        SettingsQueries, AnalysisQueries, ClockQueries, LobbyQueries):
    """The repository operations of every table family (their shared SQL, mixed in),
    bound to an open SQLite transaction.

    Every query speaks through five primitives -- ``_all``/``_one`` (rows),
    ``_cursor`` (rowcount and id of a write), ``_write``/``_write_many`` and
    ``_write_checked`` (results not needed: deferred, see the module notes) --
    which :class:`bot.storage.postgres.PostgresTransaction` runs on asyncpg instead.
    """

    def __init__(self, db: aiosqlite.Connection, begin: str | None = None, *,
                 durable: bool = True) -> None:
        self._db = db
        self.durable = durable
        """False: the commit is written to the WAL but not synced to the disk (it
        survives the process, not the machine, until :meth:`SqliteStorage.sync`)."""
        self._begin = [] if begin is None else [_Statement(_WRITE, begin)]
        if not durable and self._begin:
            self._begin.insert(0, _RELAX)
        self._pending: list[_Statement] = list(self._begin)
        self.sent = False
        """Whether any statement has gone to the database (there is something to roll back)."""
        self.after_commit: list[Callable[[], None]] = []
        """Called, in order, once the transaction has committed (never after a rollback)."""

    def on_commit(self, callback: Callable[[], None]) -> None:
        """Run ``callback`` after a successful commit (e.g. to update an in-memory cache)."""
        self.after_commit.append(callback)

    # primitives --------------------------------------------------------------
    async def _send(self, last: _Statement | None = None) -> Any:
        """The deferred statements and ``last`` in one trip; ``last``'s result."""
        batch = self._pending
        if last is not None:
            batch.append(last)
        self._pending = []
        if not batch:
            return None
        self.sent = True
        return await _submit(self._db, batch)

    async def _all(self, sql: str, params: Sequence[Any] | Mapping[str, Any] = ()
                   ) -> list[Any]:
        return list(await self._send(_Statement(_ROWS, sql, params)))


    async def _cursor(self, sql: str, params: Sequence[Any] = ()) -> tuple[int, int | None]:
        """Run a write now: (rows changed, last inserted id)."""
        result: tuple[int, int | None] = await self._send(_Statement(_CURSOR, sql, params))
        return result

    async def _write(self, sql: str, params: Sequence[Any] = ()) -> None:
        self._pending.append(_Statement(_WRITE, sql, params))

    async def _write_many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if rows:
            self._pending.append(_Statement(_MANY, sql, list(rows)))

    async def _write_checked(self, sql: str, params: Sequence[Any], error: str,
                             retry: bool = False) -> None:
        """A write that must change exactly one row, else :class:`StaleVersionError`
        (:class:`RetryableConflict` with ``retry``)."""
        self._pending.append(_Statement(_CHECK, sql, params, error, retry))

    async def commit(self) -> None:
        if not self.sent and self._pending == self._begin:
            self._pending = []  # nothing was read or written: no trip at all
            return
        if self.durable:
            await self._send(_COMMIT)
            return
        self._pending.append(_COMMIT)
        await self._send(_RESTORE)

    async def rollback(self) -> None:
        self._pending = []
        if self.sent:
            await _submit(self._db, [_ROLLBACK_IF_OPEN] + ([] if self.durable else [_RESTORE]))

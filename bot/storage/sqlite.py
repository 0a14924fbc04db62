"""SQLite storage (aiosqlite): every SQL statement of the project is here.

* WAL journal, foreign keys on, ``synchronous=FULL`` so a committed action
  survives a crash of the process or the machine.
* Numbered migrations from ``bot/storage/migrations/sqlite/NNNN_*.sql`` are applied at
  start-up, each in one transaction together with its ``schema_version`` row.
* :meth:`SqliteStorage.transaction` opens ``BEGIN IMMEDIATE`` (the write lock
  is taken up front, so two processes never interleave inside one action) and
  commits on success or rolls back on any exception.  One connection serves
  the process; an asyncio lock serialises transactions on it.
* Optimistic concurrency: ``update_match`` only succeeds when the version the
  caller read is still current (``UPDATE ... WHERE version = ?``), which keeps
  several processes on one database from applying an action twice.
* Few round trips.  Every call into aiosqlite is a trip to its connection
  thread and back (about 0.1-0.3 ms on a quiet machine, more than the SQL
  itself), so a transaction sends its statements in batches: writes whose
  result nobody needs (``_write``) wait, and go to the thread together with
  the next statement that returns something, or with the ``COMMIT``.  An
  action on a cached game is two trips: ``BEGIN IMMEDIATE`` + the read of its
  match row, then its writes + ``COMMIT``.  The statements still run in the
  order they were issued inside one transaction, so a failing deferred write
  rolls everything back exactly as before; it only reports at the trip that
  sends it.  The version check of ``update_match`` is such a deferred write:
  its :class:`StaleVersionError` comes at commit, and the row it returns is
  built from the row the caller read (the same JSON decoding as a read).
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import re
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Collection, Mapping, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import Any, ClassVar, TypeVar

import aiosqlite

from bot.storage.interface import (
    ChouetteMemberRow,
    ChouetteRow,
    ChouetteStatus,
    EventRow,
    GameRow,
    GameStatus,
    LedgerEntry,
    MatchRow,
    MatchStatus,
    RatingRow,
    RetryableConflict,
    StaleVersionError,
    StorageBusy,
    StorageUnavailable,
    TournamentRow,
    TournamentStatus,
    Transaction,
    UserRow,
    check_int64,
    clean_name,
)

T = TypeVar("T")
_R = TypeVar("_R", MatchRow, TournamentRow)
"""A row with an optimistic version (``id``, ``version``, ``updated_at``)."""

_MIGRATION_RE = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")
_MATCH_COLUMNS = (
    "id, guild_id, channel_id, white_id, black_id, variant, rules, length, stake, rated, "
    "status, chouette_id, state, version, winner_id, created_at, updated_at"
)
_GAME_COLUMNS = (
    "id, match_id, number, seed_hash, seed, dice_drawn, status, winner_id, result, "
    "created_at, finished_at, setup"
)
_CHOUETTE_COLUMNS = "id, guild_id, channel_id, status, rules, state, version, created_at"
_CHOUETTE_UPDATABLE = {"status", "state"}
_TOURNAMENT_COLUMNS = (
    "id, guild_id, channel_id, organiser_id, name, status, config, state, version, round, "
    "signup_until, deadline, remind_at, reminded_round, expired_round, message_id, "
    "created_at, updated_at"
)
_TOURNAMENT_UPDATABLE = {"status", "state", "config", "round", "deadline", "remind_at",
                         "signup_until", "message_id"}
_TOURNAMENT_JSON = {"state", "config"}
_NOTICE_COLUMNS = {"reminder": "reminded_round", "expired": "expired_round"}
_MATCH_UPDATABLE = {"status", "state", "winner_id", "rated", "white_id", "black_id"}
_GAME_UPDATABLE = {"dice_drawn", "status", "winner_id", "result", "finished_at"}


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def migrations(dialect: str = "") -> list[tuple[int, str, str]]:
    """(version, name, sql) of every migration, in order.

    ``dialect`` names a subfolder of ``bot/storage/migrations``: ``"sqlite"`` (the
    default) or ``"postgres"``.
    """
    folder = resources.files("bot.storage").joinpath("migrations").joinpath(dialect or "sqlite")
    found: list[tuple[int, str, str]] = []
    for entry in folder.iterdir():
        match = _MIGRATION_RE.match(entry.name)
        if match:
            found.append((int(match.group(1)), entry.name, entry.read_text(encoding="utf-8")))
    found.sort()
    for expected, (version, name, _) in enumerate(found, start=1):
        if version != expected:
            raise RuntimeError(f"migration {name} is out of sequence (expected {expected:04d})")
    return found


def _match(row: aiosqlite.Row) -> MatchRow:
    return MatchRow(
        id=row[0], guild_id=row[1], channel_id=row[2], white_id=row[3], black_id=row[4],
        variant=row[5], rules=json.loads(row[6]), length=row[7], stake=row[8],
        rated=bool(row[9]), status=MatchStatus(row[10]), chouette_id=row[11],
        state=json.loads(row[12]),
        version=row[13], winner_id=row[14], created_at=row[15], updated_at=row[16],
    )


def _game(row: aiosqlite.Row) -> GameRow:
    return GameRow(
        id=row[0], match_id=row[1], number=row[2], seed_hash=row[3], seed=row[4],
        dice_drawn=row[5], status=GameStatus(row[6]), winner_id=row[7],
        result=json.loads(row[8]) if row[8] else None, created_at=row[9], finished_at=row[10],
        setup=json.loads(row[11]),
    )


def _chouette(row: aiosqlite.Row) -> ChouetteRow:
    return ChouetteRow(id=row[0], guild_id=row[1], channel_id=row[2],
                       status=ChouetteStatus(row[3]),
                       rules=json.loads(row[4]), state=json.loads(row[5]), version=row[6],
                       created_at=row[7])


def _tournament(row: aiosqlite.Row) -> TournamentRow:
    return TournamentRow(
        id=row[0], guild_id=row[1], channel_id=row[2], organiser_id=row[3], name=row[4],
        status=TournamentStatus(row[5]), config=json.loads(row[6]), state=json.loads(row[7]),
        version=row[8], round=row[9], signup_until=row[10], deadline=row[11],
        remind_at=row[12], reminded_round=row[13], expired_round=row[14],
        message_id=row[15], created_at=row[16], updated_at=row[17])


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


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
_ROLLBACK_IF_OPEN = _Statement(_ROLLBACK, "ROLLBACK")


def _run_batch(conn: sqlite3.Connection, batch: Sequence[_Statement]) -> Any:
    """Run ``batch`` in order on the connection's own thread; the last result."""
    result: Any = None
    for st in batch:
        if st.kind == _MANY:
            conn.executemany(st.sql, st.params)
            continue
        if st.kind == _ROLLBACK:
            if conn.in_transaction:
                conn.execute(st.sql)
            continue
        cur = conn.execute(st.sql, st.params)
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
            await db.executemany(st.sql, st.params)
            continue
        if st.kind == _ROLLBACK:
            if db.in_transaction:
                await db.execute(st.sql)
            continue
        async with db.execute(st.sql, st.params) as cur:
            if st.kind == _ROWS:
                result = list(await cur.fetchall())
            elif st.kind == _CURSOR:
                result = (cur.rowcount, cur.lastrowid)
            elif st.kind == _CHECK and cur.rowcount != 1:
                raise _check_failed(st)
    return result


def _decoded(value: Any) -> Any:
    """``value`` as a read gives it back after storing it as JSON."""
    return json.loads(_dumps(value))


class SqliteTransaction:
    """The repository operations, bound to an open transaction.

    Every method speaks through five primitives -- ``_all``/``_one`` (rows),
    ``_cursor`` (rowcount and id of a write), ``_write``/``_write_many`` and
    ``_write_checked`` (results not needed: deferred, see the module notes) --
    which :class:`bot.storage.postgres.PostgresTransaction` runs on asyncpg instead.
    """

    def __init__(self, db: aiosqlite.Connection, begin: str | None = None) -> None:
        self._db = db
        self._begin = [] if begin is None else [_Statement(_WRITE, begin)]
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

    async def _one(self, sql: str, params: Sequence[Any] | Mapping[str, Any] = ()) -> Any:
        rows = await self._all(sql, params)
        return rows[0] if rows else None

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
        await self._send(_COMMIT)

    async def rollback(self) -> None:
        self._pending = []
        if self.sent:
            await _submit(self._db, [_ROLLBACK_IF_OPEN])

    # users ------------------------------------------------------------------
    async def upsert_user(self, user_id: int, name: str, is_bot: bool = False) -> None:
        await self._write(
            "INSERT INTO users (id, name, is_bot, created_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT(id) DO UPDATE SET name = excluded.name",
            (user_id, clean_name(name, user_id), int(is_bot), now()),
        )

    async def lock_players(self, guild_id: int, user_ids: Sequence[int]) -> None:
        """Create the players' ``ratings`` rows if missing and lock them, in ascending
        user id order (one statement; a no-op update locks the existing rows)."""
        ids = sorted(set(user_ids))
        if not ids:
            return
        values = ", ".join("(?, ?)" for _ in ids)
        await self._write(
            f"INSERT INTO ratings (guild_id, user_id) VALUES {values} "
            "ON CONFLICT (guild_id, user_id) DO UPDATE SET experience = ratings.experience",
            [v for user in ids for v in (guild_id, user)])

    async def get_user(self, user_id: int) -> UserRow | None:
        row = await self._one("SELECT id, name, is_bot FROM users WHERE id = ?", (user_id,))
        return UserRow(row[0], row[1], bool(row[2])) if row else None

    # matches ----------------------------------------------------------------
    async def open_match_in_channel(self, channel_id: int) -> MatchRow | None:
        row = await self._one(
            f"SELECT {_MATCH_COLUMNS} FROM matches WHERE channel_id = ? "
            "AND status IN ('challenged', 'active')", (channel_id,))
        return _match(row) if row else None

    async def latest_match_in_channel(self, channel_id: int) -> MatchRow | None:
        row = await self._one(
            f"SELECT {_MATCH_COLUMNS} FROM matches WHERE channel_id = ? ORDER BY id DESC LIMIT 1",
            (channel_id,))
        return _match(row) if row else None

    async def matches_in_channel(self, channel_id: int, *, chouette_id: int | None = None,
                                 limit: int = 1000) -> list[MatchRow]:
        if chouette_id is None:
            rows = await self._all(
                f"SELECT {_MATCH_COLUMNS} FROM matches WHERE channel_id = ? "
                "ORDER BY id DESC LIMIT ?", (channel_id, limit))
        else:
            rows = await self._all(
                f"SELECT {_MATCH_COLUMNS} FROM matches WHERE channel_id = ? "
                "AND chouette_id = ? ORDER BY id DESC LIMIT ?", (channel_id, chouette_id, limit))
        return [_match(r) for r in reversed(rows)]

    async def get_match(self, match_id: int) -> MatchRow | None:
        row = await self._one(f"SELECT {_MATCH_COLUMNS} FROM matches WHERE id = ?", (match_id,))
        return _match(row) if row else None

    async def insert_match(self, *, guild_id: int, channel_id: int, white_id: int,
                           black_id: int, variant: str, rules: dict[str, Any], length: int,
                           stake: int, rated: bool, status: str,
                           chouette_id: int | None = None,
                           state: dict[str, Any] | None = None) -> MatchRow:
        stamp = now()
        row = await self._one(
            "INSERT INTO matches (guild_id, channel_id, white_id, black_id, variant, rules, "
            "length, stake, rated, status, chouette_id, state, version, created_at, updated_at) "
            f"VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?) RETURNING {_MATCH_COLUMNS}",
            (guild_id, channel_id, white_id, black_id, variant, _dumps(rules), length,
             check_int64("the stake", stake), int(rated), status, chouette_id,
             _dumps(state or {}), stamp, stamp),
        )
        assert row is not None
        return _match(row)

    async def update_match(self, row: MatchRow, **changes: Any) -> MatchRow:
        return await self._update_versioned(
            "matches", "match", row, changes, _MATCH_UPDATABLE, json_columns={"state"},
            bool_columns={"rated"})

    async def _update_versioned(self, table: str, what: str, row: _R, changes: dict[str, Any],
                                updatable: Collection[str], *, json_columns: Collection[str],
                                bool_columns: Collection[str] = (), retry: bool = False) -> _R:
        """Write ``changes`` to ``row`` of ``table`` with the optimistic version check (the
        row must still be at ``row.version``), bump the version and ``updated_at``; the
        row as a read would now return it (built here, not read back)."""
        unknown = set(changes) - set(updatable)
        if unknown:
            raise ValueError(f"cannot update {what} columns {sorted(unknown)}")
        stamp = now()
        sets = ["version = version + 1", "updated_at = ?"]
        params: list[Any] = [stamp]
        stored: dict[str, Any] = {}
        for key, value in changes.items():
            sets.append(f"{key} = ?")
            if key in json_columns:
                text = _dumps(value)
                params.append(text)
                stored[key] = json.loads(text)
            elif key in bool_columns:
                params.append(int(value))
                stored[key] = bool(value)
            else:
                params.append(int(value) if isinstance(value, bool) else value)
                stored[key] = value
        version, ident = row.version, row.id
        await self._write_checked(
            f"UPDATE {table} SET {', '.join(sets)} WHERE id = ? AND version = ?",
            (*params, ident, version),
            f"{what} {ident} is no longer at version {version}", retry=retry)
        return dataclasses.replace(row, version=version + 1, updated_at=stamp, **stored)

    async def claim_reminder(self, match_id: int, version: int) -> bool:
        """Mark the reminder for ``version`` as sent; True for exactly one caller."""
        changed, _ = await self._cursor(
            "UPDATE matches SET reminded_version = version WHERE id = ? AND version = ? "
            "AND reminded_version < version", (match_id, version))
        return changed == 1

    async def idle_matches(self, older_than: str) -> list[MatchRow]:
        """Active matches whose last action is older than ``older_than`` (ISO time)."""
        rows = await self._all(
            f"SELECT {_MATCH_COLUMNS} FROM matches WHERE status = 'active' "
            "AND updated_at < ? AND reminded_version < version ORDER BY updated_at",
            (older_than,))
        return [_match(r) for r in rows]

    async def matches_for_user(self, guild_id: int, user_id: int,
                               statuses: Sequence[str]) -> list[MatchRow]:
        marks = ", ".join("?" for _ in statuses)
        rows = await self._all(
            f"SELECT {_MATCH_COLUMNS} FROM matches WHERE guild_id = ? "
            f"AND (white_id = ? OR black_id = ?) AND status IN ({marks}) ORDER BY id",
            (guild_id, user_id, user_id, *statuses))
        return [_match(r) for r in rows]

    # games ------------------------------------------------------------------
    async def insert_game(self, *, match_id: int, number: int, seed_hash: str,
                          seed: str, setup: dict[str, Any] | None = None) -> GameRow:
        row = await self._one(
            "INSERT INTO games (match_id, number, seed_hash, seed, status, setup, created_at) "
            f"VALUES (?, ?, ?, ?, 'active', ?, ?) RETURNING {_GAME_COLUMNS}",
            (match_id, number, seed_hash, seed, _dumps(setup or {}), now()))
        assert row is not None
        return _game(row)

    async def get_game(self, game_id: int) -> GameRow | None:
        row = await self._one(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return _game(row) if row else None

    async def current_game(self, match_id: int) -> GameRow | None:
        row = await self._one(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE match_id = ? ORDER BY number DESC LIMIT 1",
            (match_id,))
        return _game(row) if row else None

    async def games_of_match(self, match_id: int) -> list[GameRow]:
        rows = await self._all(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE match_id = ? ORDER BY number", (match_id,))
        return [_game(r) for r in rows]

    async def update_game(self, row: GameRow, **changes: Any) -> GameRow:
        """Write ``changes`` to the game ``row``; the row as a read would now return it."""
        unknown = set(changes) - _GAME_UPDATABLE
        if unknown:
            raise ValueError(f"cannot update game columns {sorted(unknown)}")
        if not changes:
            return row
        sets = [f"{key} = ?" for key in changes]
        params = [_dumps(v) if k == "result" and v is not None else v for k, v in changes.items()]
        await self._write(f"UPDATE games SET {', '.join(sets)} WHERE id = ?", (*params, row.id))
        stored = {k: _decoded(v) if k == "result" and v is not None else v
                  for k, v in changes.items()}
        return dataclasses.replace(row, **stored)

    # events -----------------------------------------------------------------
    async def append_events(self, game_id: int,
                            events: Sequence[tuple[int, str, dict[str, Any], int | None]]
                            ) -> None:
        stamp = now()
        await self._write_many(
            "INSERT INTO events (game_id, seq, kind, data, actor_id, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            [(game_id, seq, kind, _dumps(data), actor, stamp) for seq, kind, data, actor in events],
        )

    async def events(self, game_id: int) -> list[EventRow]:
        rows = await self._all(
            "SELECT game_id, seq, kind, data, actor_id, created_at FROM events "
            "WHERE game_id = ? ORDER BY seq", (game_id,))
        return [EventRow(r[0], r[1], r[2], json.loads(r[3]), r[4], r[5]) for r in rows]

    # money ------------------------------------------------------------------
    async def add_ledger(self, entries: Sequence[LedgerEntry]) -> None:
        stamp = now()
        await self._write_many(
            "INSERT INTO ledger (guild_id, user_id, match_id, game_id, chouette_id, points, "
            "amount, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [(e.guild_id, e.user_id, e.match_id, e.game_id, e.chouette_id,
              check_int64("the points", e.points), check_int64("the amount", e.amount),
              stamp) for e in entries],
        )

    async def balance(self, guild_id: int, user_id: int) -> int:
        row = await self._one(
            "SELECT COALESCE(SUM(amount), 0) FROM ledger WHERE guild_id = ? AND user_id = ?",
            (guild_id, user_id))
        return int(row[0]) if row else 0

    async def money_turnover(self, guild_id: int, user_id: int) -> int:
        row = await self._one(
            "SELECT COALESCE(SUM(ABS(amount)), 0) FROM ledger WHERE guild_id = ? AND user_id = ?",
            (guild_id, user_id))
        return int(row[0]) if row else 0

    # chouettes --------------------------------------------------------------
    async def insert_chouette(self, *, guild_id: int, channel_id: int,
                              rules: dict[str, Any], state: dict[str, Any]) -> ChouetteRow:
        row = await self._one(
            "INSERT INTO chouettes (guild_id, channel_id, status, rules, state, version, "
            f"created_at) VALUES (?, ?, 'open', ?, ?, 0, ?) RETURNING {_CHOUETTE_COLUMNS}",
            (guild_id, channel_id, _dumps(rules), _dumps(state), now()))
        assert row is not None
        return _chouette(row)

    async def open_chouette_in_channel(self, channel_id: int) -> ChouetteRow | None:
        row = await self._one(
            f"SELECT {_CHOUETTE_COLUMNS} FROM chouettes WHERE channel_id = ? "
            "AND status IN ('open', 'playing')", (channel_id,))
        return _chouette(row) if row else None

    async def get_chouette(self, chouette_id: int) -> ChouetteRow | None:
        row = await self._one(f"SELECT {_CHOUETTE_COLUMNS} FROM chouettes WHERE id = ?",
                              (chouette_id,))
        return _chouette(row) if row else None

    async def update_chouette(self, chouette_id: int, expected_version: int,
                              **changes: Any) -> ChouetteRow:
        unknown = set(changes) - _CHOUETTE_UPDATABLE
        if unknown:
            raise ValueError(f"cannot update chouette columns {sorted(unknown)}")
        sets = ["version = version + 1"]
        params: list[Any] = []
        for key, value in changes.items():
            sets.append(f"{key} = ?")
            params.append(_dumps(value) if key == "state" else value)
        row = await self._one(
            f"UPDATE chouettes SET {', '.join(sets)} WHERE id = ? AND version = ? "
            f"RETURNING {_CHOUETTE_COLUMNS}", (*params, chouette_id, expected_version))
        if row is None:
            raise StaleVersionError(
                f"chouette {chouette_id} is no longer at version {expected_version}")
        return _chouette(row)

    async def chouette_members(self, chouette_id: int) -> list[ChouetteMemberRow]:
        rows = await self._all(
            "SELECT user_id, position, throw FROM chouette_members WHERE chouette_id = ? "
            "AND active = 1 ORDER BY position", (chouette_id,))
        return [ChouetteMemberRow(r[0], r[1], r[2]) for r in rows]

    async def set_chouette_members(self, chouette_id: int,
                                   members: Sequence[tuple[int, int | None]]) -> None:
        await self._write(
            "UPDATE chouette_members SET active = 0 WHERE chouette_id = ?", (chouette_id,))
        stamp = now()
        await self._write_many(
            "INSERT INTO chouette_members (chouette_id, user_id, position, throw, active, "
            "joined_at) VALUES (?, ?, ?, ?, 1, ?) ON CONFLICT(chouette_id, user_id) DO UPDATE "
            "SET position = excluded.position, throw = excluded.throw, active = 1",
            [(chouette_id, user, i, throw, stamp) for i, (user, throw) in enumerate(members)])

    async def chouette_totals(self, chouette_id: int) -> dict[int, int]:
        rows = await self._all(
            "SELECT user_id, SUM(amount) FROM ledger WHERE chouette_id = ? GROUP BY user_id",
            (chouette_id,))
        return {int(r[0]): int(r[1]) for r in rows}

    # tournaments --------------------------------------------------------------
    async def insert_tournament(self, *, guild_id: int, channel_id: int, organiser_id: int,
                                name: str, config: dict[str, Any], state: dict[str, Any],
                                signup_until: str | None = None) -> TournamentRow:
        stamp = now()
        row = await self._one(
            "INSERT INTO tournaments (guild_id, channel_id, organiser_id, name, status, config, "
            "state, version, round, signup_until, created_at, updated_at) "
            "VALUES (?, ?, ?, ?, 'signup', ?, ?, 0, 0, ?, ?, ?) "
            f"RETURNING {_TOURNAMENT_COLUMNS}",
            (guild_id, channel_id, organiser_id, name, _dumps(config), _dumps(state),
             signup_until, stamp, stamp))
        assert row is not None
        return _tournament(row)

    async def get_tournament(self, tournament_id: int) -> TournamentRow | None:
        row = await self._one(f"SELECT {_TOURNAMENT_COLUMNS} FROM tournaments WHERE id = ?",
                              (tournament_id,))
        return _tournament(row) if row else None

    async def lock_tournament(self, tournament_id: int) -> TournamentRow | None:
        # A no-op update locks the row on PostgreSQL (SELECT ... FOR UPDATE is not SQLite).
        await self._write("UPDATE tournaments SET version = version WHERE id = ?",
                          (tournament_id,))
        return await self.get_tournament(tournament_id)

    async def tournaments_in_guild(self, guild_id: int,
                                   statuses: Sequence[str]) -> list[TournamentRow]:
        marks = ", ".join("?" for _ in statuses)
        rows = await self._all(
            f"SELECT {_TOURNAMENT_COLUMNS} FROM tournaments WHERE guild_id = ? "
            f"AND status IN ({marks}) ORDER BY id", (guild_id, *statuses))
        return [_tournament(r) for r in rows]

    async def running_tournaments(self) -> list[TournamentRow]:
        rows = await self._all(
            f"SELECT {_TOURNAMENT_COLUMNS} FROM tournaments "
            "WHERE status IN ('running', 'paused') ORDER BY id")
        return [_tournament(r) for r in rows]

    async def update_tournament(self, row: TournamentRow, **changes: Any) -> TournamentRow:
        return await self._update_versioned(
            "tournaments", "tournament", row, changes, _TOURNAMENT_UPDATABLE,
            json_columns=_TOURNAMENT_JSON, retry=True)

    async def claim_tournament_notice(self, tournament_id: int, kind: str, round: int) -> bool:
        column = _NOTICE_COLUMNS[kind]
        changed, _ = await self._cursor(
            f"UPDATE tournaments SET {column} = ? WHERE id = ? AND {column} < ?",
            (round, tournament_id, round))
        return changed == 1

    async def due_tournaments(self, now: str) -> list[TournamentRow]:
        rows = await self._all(
            f"SELECT {_TOURNAMENT_COLUMNS} FROM tournaments WHERE status = 'running' AND "
            "((remind_at IS NOT NULL AND remind_at <= ? AND reminded_round < round) OR "
            "(deadline IS NOT NULL AND deadline <= ? AND expired_round < round)) ORDER BY id",
            (now, now))
        return [_tournament(r) for r in rows]

    async def link_match(self, match_id: int, tournament_id: int, pairing: str) -> None:
        await self._write(
            "UPDATE matches SET tournament_id = ?, tournament_pairing = ? WHERE id = ?",
            (tournament_id, pairing, match_id))

    async def match_pairing(self, match_id: int) -> tuple[int, str] | None:
        row = await self._one(
            "SELECT tournament_id, tournament_pairing FROM matches WHERE id = ? "
            "AND tournament_id IS NOT NULL", (match_id,))
        return (int(row[0]), str(row[1])) if row else None

    async def tournament_matches(self, tournament_id: int) -> dict[str, MatchRow]:
        columns = ", ".join(f"m.{c.strip()}" for c in _MATCH_COLUMNS.split(","))
        rows = await self._all(
            f"SELECT {columns}, m.tournament_pairing FROM matches m "
            "WHERE m.tournament_id = ? ORDER BY m.id", (tournament_id,))
        return {str(r[-1]): _match(r) for r in rows}

    async def claim_opening(self, tournament_id: int, pairing: str, now: str,
                            stale_before: str) -> bool:
        changed, _ = await self._cursor(
            "INSERT INTO tournament_openings (tournament_id, pairing, claimed_at) "
            "VALUES (?, ?, ?) ON CONFLICT (tournament_id, pairing) DO UPDATE "
            "SET claimed_at = excluded.claimed_at WHERE tournament_openings.claimed_at < ? "
            "AND NOT EXISTS (SELECT 1 FROM matches WHERE tournament_id = ? "
            "AND tournament_pairing = ?)",
            (tournament_id, pairing, now, stale_before, tournament_id, pairing))
        return changed == 1

    # ratings ----------------------------------------------------------------
    async def rating(self, guild_id: int, user_id: int) -> RatingRow:
        row = await self._one(
            "SELECT rating, experience FROM ratings WHERE guild_id = ? AND user_id = ?",
            (guild_id, user_id))
        if row is None:
            return RatingRow(guild_id, user_id, 1500.0, 0)
        return RatingRow(guild_id, user_id, float(row[0]), int(row[1]))

    async def set_rating(self, row: RatingRow, *, match_id: int, before: float) -> None:
        # The stored rating must still be ``before`` (the safety net under
        # lock_players: a lost update becomes a retryable conflict, never silent).
        await self._write_checked(
            "INSERT INTO ratings (guild_id, user_id, rating, experience) VALUES (?, ?, ?, ?) "
            "ON CONFLICT(guild_id, user_id) DO UPDATE SET rating = excluded.rating, "
            "experience = excluded.experience WHERE ratings.rating = ?",
            (row.guild_id, row.user_id, row.rating, row.experience, before),
            f"the rating of user {row.user_id} changed since it was read", retry=True)
        await self._write(
            "INSERT INTO rating_history (guild_id, user_id, match_id, before, after, experience, "
            "created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (row.guild_id, row.user_id, match_id, before, row.rating, row.experience, now()))

    async def rating_history(self, guild_id: int, user_id: int) -> list[tuple[float, float]]:
        rows = await self._all(
            "SELECT before, after FROM rating_history WHERE guild_id = ? AND user_id = ? "
            "ORDER BY id", (guild_id, user_id))
        return [(float(r[0]), float(r[1])) for r in rows]

    # leaderboard and stats ----------------------------------------------------
    BOARD_SQL = """
        WITH members AS (
            SELECT white_id AS user_id FROM matches WHERE guild_id = :g
            UNION SELECT black_id FROM matches WHERE guild_id = :g
            UNION SELECT user_id FROM ledger WHERE guild_id = :g
        ),
        wins AS (
            SELECT winner_id AS user_id, COUNT(*) AS n FROM matches
            WHERE guild_id = :g AND status = 'finished' AND winner_id IS NOT NULL
            GROUP BY winner_id
        ),
        played AS (
            SELECT user_id, COUNT(*) AS n FROM (
                SELECT white_id AS user_id FROM matches WHERE guild_id = :g AND status = 'finished'
                UNION ALL
                SELECT black_id FROM matches WHERE guild_id = :g AND status = 'finished')
            GROUP BY user_id
        ),
        money AS (
            SELECT user_id, SUM(amount) AS n FROM ledger WHERE guild_id = :g GROUP BY user_id
        )
        SELECT m.user_id, COALESCE(u.name, CAST(m.user_id AS TEXT)),
               COALESCE(r.rating, 1500.0), COALESCE(r.experience, 0),
               COALESCE(w.n, 0), COALESCE(p.n, 0), COALESCE(mo.n, 0)
        FROM members m
        LEFT JOIN users u ON u.id = m.user_id
        LEFT JOIN ratings r ON r.guild_id = :g AND r.user_id = m.user_id
        LEFT JOIN wins w ON w.user_id = m.user_id
        LEFT JOIN played p ON p.user_id = m.user_id
        LEFT JOIN money mo ON mo.user_id = m.user_id
    """
    _FILTERS: ClassVar[dict[str, str]] = {
        # The AI's games are unrated: it has no place on the rating list.
        "rating": " WHERE COALESCE(u.is_bot, 0) = 0 ",
    }
    _ORDERS: ClassVar[dict[str, str]] = {
        "rating": "ORDER BY (COALESCE(r.experience, 0) >= :min_exp) DESC, "
                  "COALESCE(r.rating, 1500.0) DESC, m.user_id",
        "money": "ORDER BY COALESCE(mo.n, 0) DESC, m.user_id",
        "wins": "ORDER BY COALESCE(w.n, 0) DESC, COALESCE(p.n, 0) ASC, m.user_id",
    }

    async def leaderboard(self, guild_id: int, order: str, limit: int, offset: int,
                          min_experience: int = 0) -> list[dict[str, Any]]:
        if order not in self._ORDERS:
            raise ValueError(f"unknown leaderboard order {order!r}")
        rows = await self._all(
            self.BOARD_SQL + self._FILTERS.get(order, "") + self._ORDERS[order]
            + " LIMIT :limit OFFSET :offset",
            {"g": guild_id, "limit": limit, "offset": offset, "min_exp": min_experience})
        return [
            {"rank": offset + i + 1, "user_id": r[0], "name": r[1], "rating": float(r[2]),
             "experience": int(r[3]), "wins": int(r[4]), "played": int(r[5]),
             "balance": int(r[6])}
            for i, r in enumerate(rows)
        ]

    async def leaderboard_count(self, guild_id: int, order: str) -> int:
        row = await self._one(
            f"SELECT COUNT(*) FROM ({self.BOARD_SQL}{self._FILTERS.get(order, '')})",
                              {"g": guild_id})
        return int(row[0]) if row else 0

    async def user_stats(self, guild_id: int, user_id: int) -> dict[str, Any]:
        games = await self._all(
            "SELECT g.winner_id, g.result, m.white_id, m.black_id FROM games g "
            "JOIN matches m ON m.id = g.match_id WHERE m.guild_id = ? AND g.status = 'finished' "
            "AND g.result IS NOT NULL AND (m.white_id = ? OR m.black_id = ?)",
            (guild_id, user_id, user_id))
        stats: dict[str, Any] = {
            "games": 0, "games_won": 0, "gammons_won": 0, "backgammons_won": 0,
            "gammons_lost": 0, "backgammons_lost": 0, "doubles": 0, "takes": 0, "drops": 0,
        }
        for winner, result_json, _white, _black in games:
            stats["games"] += 1
            result = json.loads(result_json) if result_json else {}
            kind = result.get("kind", "single")
            won = winner == user_id
            stats["games_won"] += int(won)
            if kind in ("gammon", "backgammon"):
                key = f"{kind}s_{'won' if won else 'lost'}"
                stats[key] += 1
        matches = await self._all(
            "SELECT winner_id, white_id, black_id FROM matches WHERE guild_id = ? "
            "AND status = 'finished' AND (white_id = ? OR black_id = ?)",
            (guild_id, user_id, user_id))
        stats["matches"] = len(matches)
        stats["matches_won"] = sum(1 for m in matches if m[0] == user_id)
        cube = await self._all(
            "SELECT e.kind, COUNT(*) FROM events e JOIN games g ON g.id = e.game_id "
            "JOIN matches m ON m.id = g.match_id WHERE m.guild_id = ? AND e.actor_id = ? "
            "AND e.kind IN ('double', 'take', 'drop', 'beaver') GROUP BY e.kind",
            (guild_id, user_id))
        for kind, count in cube:
            key = {"double": "doubles", "take": "takes", "drop": "drops",
                   "beaver": "beavers"}[kind]
            stats[key] = int(count)
        opponents: dict[int, list[int]] = {}
        for winner, white, black in matches:
            opp = black if white == user_id else white
            rec = opponents.setdefault(opp, [0, 0])
            rec[0 if winner == user_id else 1] += 1
        stats["head_to_head"] = opponents
        stats["balance"] = await self.balance(guild_id, user_id)
        rating = await self.rating(guild_id, user_id)
        stats["rating"] = rating.rating
        stats["experience"] = rating.experience
        stats["rating_history"] = await self.rating_history(guild_id, user_id)
        stats["variants"] = [str(v) for (v,) in await self._all(
            "SELECT variant FROM matches WHERE guild_id = ? AND status IN ('active', "
            "'finished') AND (white_id = ? OR black_id = ?) ORDER BY id",
            (guild_id, user_id, user_id))]
        stats["recent"] = await self._recent_results(guild_id, user_id)
        return stats

    async def _recent_results(self, guild_id: int, user_id: int, limit: int = 10
                              ) -> list[dict[str, Any]]:
        """The player's last finished matches and money sessions, newest first: won,
        opponent's name, match length (0: money), points of each side."""
        rows = await self._all(
            "SELECT m.id, m.winner_id, m.white_id, m.length, u.name FROM matches m "
            "JOIN users u ON u.id = CASE WHEN m.white_id = ? THEN m.black_id "
            "ELSE m.white_id END WHERE m.guild_id = ? AND m.status = 'finished' "
            "AND (m.white_id = ? OR m.black_id = ?) ORDER BY m.id DESC LIMIT ?",
            (user_id, guild_id, user_id, user_id, limit))
        if not rows:
            return []
        points: dict[int, list[int]] = {int(r[0]): [0, 0] for r in rows}
        oldest = min(points)
        for match_id, winner, result_json in await self._all(
                "SELECT g.match_id, g.winner_id, g.result FROM games g "
                "JOIN matches m ON m.id = g.match_id WHERE m.guild_id = ? "
                "AND m.status = 'finished' AND (m.white_id = ? OR m.black_id = ?) "
                "AND m.id >= ? AND g.status = 'finished'",
                (guild_id, user_id, user_id, oldest)):
            side = points.get(int(match_id))
            if side is None or winner is None:
                continue
            result = json.loads(result_json) if result_json else {}
            side[0 if winner == user_id else 1] += int(result.get("points", 0))
        out = []
        for match_id, winner, _white, length, name in rows:
            mine, theirs = points[int(match_id)]
            won = winner == user_id if winner is not None else mine > theirs
            out.append({"won": won, "opponent": str(name), "length": int(length),
                        "points": (mine, theirs)})
        return out


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

    async def open(self) -> None:
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

    async def close(self) -> None:
        if self._db is not None:
            await self._db.close()
            self._db = None

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
                        for statement in _split_sql(sql):
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
                  lock_channel: int | None = None) -> T:
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
        tx = SqliteTransaction(self.db, "BEGIN IMMEDIATE")
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


def _split_sql(script: str) -> list[str]:
    """Split a migration into statements (no semicolons inside our literals)."""
    lines = [line for line in script.splitlines() if not line.strip().startswith("--")]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]

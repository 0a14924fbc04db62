"""An aiosqlite-like facade over asyncpg: the shared SQL (written for SQLite, with ``?`` and
``:name`` parameters) rewritten for PostgreSQL.

* ``?`` and ``:name`` parameters become ``$1, $2, ...``; Python booleans are
  passed as 0/1 (flags are INTEGER columns in both dialects);
* an ``INSERT`` into a table with an identity ``id`` gets ``RETURNING id``
  (``cursor.lastrowid``); an UPDATE's ``rowcount`` comes from its status tag.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Generator, Mapping, Sequence
from typing import Any

import asyncpg  # type: ignore[import-untyped]  # no stubs; asyncpg-stubs is optional

from bot.storage.core.errors import storable
from bot.storage.core.sql import migrations

_PARAM_RE = re.compile(r"\?|(?<![:\w]):([A-Za-z_]\w*)")
_INSERT_RE = re.compile(r"^\s*INSERT\s+INTO\s+(\w+)", re.IGNORECASE)
_IDENTITY_RE = re.compile(
    r"CREATE\s+TABLE\s+(\w+)\s*\(\s*id\s+BIGINT\s+GENERATED\b", re.IGNORECASE)
_STATUS_COUNT_RE = re.compile(r"(\d+)$")


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
    return int(value) if isinstance(value, bool) else storable(value)


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

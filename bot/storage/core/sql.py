"""The SQL both backends share: each table family's queries are written once, as methods
of a mixin over :class:`SqlPrimitives`, and run by :class:`~bot.storage.sqlite.transaction.
SqliteTransaction` (aiosqlite, batched) or :class:`~bot.storage.postgres.transaction.
PostgresTransaction` (asyncpg), which implement the primitives."""

from __future__ import annotations

import dataclasses
import json
import re
from abc import ABC, abstractmethod
from collections.abc import Collection, Mapping, Sequence
from datetime import UTC, datetime
from importlib import resources
from typing import Any, Protocol, TypeVar, cast

_MIGRATION_RE = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


class Versioned(Protocol):
    """A row with an optimistic version."""

    @property
    def id(self) -> int: ...
    @property
    def version(self) -> int: ...
    @property
    def updated_at(self) -> str: ...


_R = TypeVar("_R", bound=Versioned)


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


def dumps(value: Any) -> str:
    """JSON as the databases store it (compact, keys sorted)."""
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


def decoded(value: Any) -> Any:
    """``value`` as a read gives it back after storing it as JSON."""
    return json.loads(dumps(value))


def split_sql(script: str) -> list[str]:
    """Split a migration into statements (no semicolons inside our literals)."""
    lines = [line for line in script.splitlines() if not line.strip().startswith("--")]
    return [s.strip() for s in "\n".join(lines).split(";") if s.strip()]


class SqlPrimitives(ABC):
    """The five statement primitives every query is written with.

    ``_all``/``_one`` (rows), ``_cursor`` (rowcount and id of a write), ``_write``/
    ``_write_many`` and ``_write_checked`` (results not needed: SQLite defers them to
    batch them into fewer trips to its thread; PostgreSQL runs them at once).
    """

    @abstractmethod
    async def _all(self, sql: str, params: Sequence[Any] | Mapping[str, Any] = ()
                   ) -> list[Any]: ...

    async def _one(self, sql: str, params: Sequence[Any] | Mapping[str, Any] = ()) -> Any:
        rows = await self._all(sql, params)
        return rows[0] if rows else None

    @abstractmethod
    async def _cursor(self, sql: str, params: Sequence[Any] = ()) -> tuple[int, int | None]:
        """Run a write now: (rows changed, last inserted id)."""

    @abstractmethod
    async def _write(self, sql: str, params: Sequence[Any] = ()) -> None: ...

    @abstractmethod
    async def _write_many(self, sql: str, rows: Sequence[Sequence[Any]]) -> None: ...

    @abstractmethod
    async def _write_checked(self, sql: str, params: Sequence[Any], error: str,
                             retry: bool = False) -> None:
        """A write that must change exactly one row, else :class:`StaleVersionError`
        (:class:`RetryableConflict` with ``retry``)."""

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
                text = dumps(value)
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
        new: _R = dataclasses.replace(cast(Any, row), version=version + 1, updated_at=stamp,
                                      **stored)
        return new

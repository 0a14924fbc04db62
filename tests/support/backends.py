"""The storage of each backend for tests that run on both (SQLite and PostgreSQL).

:func:`backend` gives a :class:`Backend` on a SQLite file in ``tmp_path``, or on a new
database of the session's throwaway PostgreSQL server (``pg.py``; the test is skipped
with the reason where none can be started), and closes what it opened at the end.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pg
import pytest

from bot.storage.sqlite import SqliteStorage


class Backend:
    """Opens storages on one database of one backend; closes them all at the end."""

    def __init__(self, name: str, make: Callable[..., Any], url: str = "") -> None:
        self.name = name
        self._make = make
        self.url = url
        self.opened: list[Any] = []

    async def open(self, **options: Any) -> Any:
        storage = self._make(**options)
        await storage.open()
        self.opened.append(storage)
        return storage

    async def close_all(self) -> None:
        while self.opened:
            await self.opened.pop().close()


@asynccontextmanager
async def backend(name: str, tmp_path: Path) -> AsyncIterator[Backend]:
    """The ``"sqlite"`` or ``"postgres"`` backend (a fresh database either way)."""
    if name == "sqlite":
        path = tmp_path / "db.sqlite3"
        b = Backend("sqlite", lambda **o: SqliteStorage(path, **o))
        try:
            yield b
        finally:
            await b.close_all()
        return
    reason = pg.unavailable()
    if reason is not None:
        pytest.skip(reason)
    from bot.storage.postgres import PostgresStorage

    url = await pg.create_database()
    b = Backend("postgres", lambda **o: PostgresStorage(url, **{"pool_size": 4, **o}), url)
    try:
        yield b
    finally:
        await b.close_all()
        await pg.drop_database(url)

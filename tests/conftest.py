"""Shared fixtures: ``pg_url``, a new empty PostgreSQL database (see tests/pg.py), and
``close_storages``, which closes every SQLite storage a test opened with
:func:`scripted.opened`."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pg
import pytest
from scripted import OPENED


@pytest.fixture
async def pg_url() -> AsyncIterator[str]:
    """The URL of a new empty database on the test session's PostgreSQL server."""
    reason = pg.unavailable()
    if reason is not None:
        pytest.skip(reason)
    url = await pg.create_database()
    yield url
    await pg.drop_database(url)


@pytest.fixture(autouse=True)
async def close_storages() -> AsyncIterator[None]:
    """Close every database a test opened (aiosqlite's worker thread must end)."""
    yield
    while OPENED:
        await OPENED.pop().close()

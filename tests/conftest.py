"""Shared fixtures: ``pg_url``, a new empty PostgreSQL database (see tests/support/pg.py), and
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


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test that uses a PostgreSQL database (the ``pg_url`` fixture, or a ``postgres``
    backend parameter) is marked ``pg``: ``-m "not pg"`` leaves them out."""
    for item in items:
        callspec = getattr(item, "callspec", None)
        params = callspec.params.values() if callspec is not None else ()
        if "pg_url" in getattr(item, "fixturenames", ()) or "postgres" in params:
            item.add_marker(pytest.mark.pg)

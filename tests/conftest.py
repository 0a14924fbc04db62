"""Shared fixtures: ``pg_url``, a new empty PostgreSQL database (see tests/pg.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pg
import pytest


@pytest.fixture
async def pg_url() -> AsyncIterator[str]:
    """The URL of a new empty database on the test session's PostgreSQL server."""
    reason = pg.unavailable()
    if reason is not None:
        pytest.skip(reason)
    url = await pg.create_database()
    yield url
    await pg.drop_database(url)

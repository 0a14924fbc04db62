"""Choose the storage backend from the config.

``storage.url`` set (``postgresql://user@host:port/dbname``): the shared
PostgreSQL database of a sharded deployment (:mod:`bot.storage.postgres`, needs
asyncpg).  Otherwise the embedded SQLite file ``storage.database``.
"""

from __future__ import annotations

from bot.config import Config
from bot.storage.interface import Storage


def make_storage(config: Config) -> Storage:
    """The (not yet opened) storage the config names."""
    if config.storage.url:
        from bot.storage.postgres import PostgresStorage

        return PostgresStorage(config.storage.url, pool_size=config.storage.pool_size,
                               lock_timeout=config.storage.lock_timeout,
                               acquire_timeout=config.storage.acquire_timeout,
                               retry_seconds=config.storage.retry_seconds)
    from bot.storage.sqlite import SqliteStorage

    return SqliteStorage(config.storage.database, lock_timeout=config.storage.lock_timeout,
                         acquire_timeout=config.storage.acquire_timeout,
                         retry_seconds=config.storage.retry_seconds)


def describe(config: Config) -> str:
    """Where the data lives, for start-up messages (no password)."""
    if config.storage.url:
        from urllib.parse import urlsplit

        parts = urlsplit(config.storage.url)
        host = parts.hostname or "localhost"
        port = f":{parts.port}" if parts.port else ""
        return f"PostgreSQL {host}{port}{parts.path}"
    return f"SQLite {config.storage.database}"

"""Starting the service: the storage the config names, for the adapters to open.

Adapters never import :mod:`bot.storage`; they get the (not yet opened) storage here
and hand it to :class:`~bot.service.game.GameService`.
"""

from __future__ import annotations

from bot.config import Config
from bot.storage.backends import describe, make_storage
from bot.storage.interface import Storage, StorageError

__all__ = ["Storage", "StorageError", "storage_for", "where"]


def storage_for(config: Config) -> Storage:
    """The storage the config names (a SQLite file, or PostgreSQL ``storage.url``)."""
    return make_storage(config)


def where(config: Config) -> str:
    """Where the data lives, for start-up messages (no password)."""
    return describe(config)

"""The embedded SQLite backend (the default): :class:`SqliteStorage` and its transactions."""

from bot.storage.sqlite.storage import SqliteStorage
from bot.storage.sqlite.transaction import SqliteTransaction

__all__ = ["SqliteStorage", "SqliteTransaction"]

"""Storage: every SQL statement of the host, behind one interface.

* :mod:`bot.storage.interface` -- the :class:`Storage` / :class:`Transaction`
  protocols the service uses and the typed rows they return;
* :mod:`bot.storage.sqlite` -- the embedded SQLite backend (the default);
* :mod:`bot.storage.postgres` -- the shared PostgreSQL backend of a sharded bot;
* :mod:`bot.storage.backends` -- opening the backend the config names;
* :mod:`bot.storage.replay` -- stored rows back into an engine game;
* :mod:`bot.storage.sqlite_to_postgres` -- ``python -m bot migrate-sqlite``;
* ``migrations/sqlite`` and ``migrations/postgres`` -- numbered SQL migrations, one
  folder per dialect, the same numbers and names in both.

Nothing here knows Discord or the rules of the host; the service never writes SQL.
"""

from bot.storage.interface import (
    ChouetteMemberRow,
    ChouetteRow,
    EventRow,
    GameRow,
    LedgerEntry,
    MatchRow,
    RatingRow,
    StaleVersionError,
    Storage,
    Transaction,
    UserRow,
)

__all__ = [
    "ChouetteMemberRow",
    "ChouetteRow",
    "EventRow",
    "GameRow",
    "LedgerEntry",
    "MatchRow",
    "RatingRow",
    "StaleVersionError",
    "Storage",
    "Transaction",
    "UserRow",
]

"""Storage: every SQL statement of the host, behind one interface.

* :mod:`bot.storage.interface` -- the :class:`Storage` / :class:`Transaction`
  protocols the service uses, the typed rows they return and the errors;
* one folder per table family, each with its rows and protocol (``interface.py``) and
  its SQL, written once for both backends (``queries.py``): :mod:`.play` (matches,
  games, events), :mod:`.chouette`, :mod:`.tournaments`, :mod:`.players` (users,
  ratings, the ledger), :mod:`.standings` (the leaderboard, player stats);
  :mod:`.core` -- what they share (errors, the checks at the boundary, the SQL
  primitives, migrations);
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

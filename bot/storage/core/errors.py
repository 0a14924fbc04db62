"""The errors a backend raises, and the checks every value passes on its way in."""

from __future__ import annotations

from bot.names import display_name

INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1
"""Every integer column is a signed 64-bit integer on both backends (SQLite
INTEGER, PostgreSQL BIGINT for stakes, ledger points and amounts); a value
outside is refused with :class:`AmountOutOfRange` before it reaches the database."""

NAME_LIMIT = 100
"""Characters of a display name kept in ``users.name``."""


class StaleVersionError(Exception):
    """Another action changed the row first (optimistic concurrency check failed)."""


class RetryableConflict(StaleVersionError):
    """The database aborted the transaction for a deadlock or a serialization failure,
    or a shared row (a rating) changed under it: nothing was applied, and running the
    whole transaction again is safe.  :meth:`Storage.run` retries it; callers of
    :meth:`Storage.transaction` see a :class:`StaleVersionError` as before."""


class StorageError(Exception):
    """The database could not run the action; the message is for the player."""

    default = "The database could not take your action: it was not applied, try again."

    def __init__(self, message: str | None = None) -> None:
        super().__init__(message or self.default)


class StorageBusy(StorageError):
    """A lock (the game's, or a shared row's) or a connection was not free within the
    configured bound (``storage.lock_timeout`` / ``storage.acquire_timeout``), or a
    deadlock kept recurring for the whole retry budget.  Nothing was applied."""

    default = "This game is busy (another action on it is still being saved): your " \
              "action was not applied, try again in a moment."


class StorageUnavailable(StorageError):
    """The database cannot be reached (restart, failover, network) for the whole retry
    budget (``storage.retry_seconds``).  Nothing was applied."""

    default = "The database is unavailable: your action was not applied, try again " \
              "in a moment."


class StorageCommitUnknown(StorageUnavailable):
    """The connection was lost while COMMIT was under way: the action may or may not
    have been applied, so it is never retried automatically.  A retry by the player is
    safe: a button carries the version it was shown for and the version check refuses
    it if the first attempt did commit."""

    default = "The connection to the database was lost while your action was being " \
              "saved: look at the board to see whether it was applied before trying again."


class AmountOutOfRange(ValueError):
    """A stake, points or amount outside the signed 64-bit range of the columns."""


def check_int64(what: str, value: int) -> int:
    """``value`` if it fits the 64-bit columns, else :class:`AmountOutOfRange`."""
    if not INT64_MIN <= value <= INT64_MAX:
        raise AmountOutOfRange(f"{what} {value} is outside the storable range "
                               f"{INT64_MIN}..{INT64_MAX}")
    return value


def clean_name(name: str, user_id: int) -> str:
    """A display name as both backends store it.

    PostgreSQL text cannot hold U+0000 and neither database can store a lone UTF-16
    surrogate (which Python strings may carry, e.g. from a console with surrogate
    escapes): NULs are removed, surrogates become U+FFFD, other C0 control
    characters (newlines, tabs, ...) become spaces, bidirectional controls and
    invisible characters are removed (:func:`bot.names.display_name`), and the result is
    cut to
    :data:`NAME_LIMIT` characters.  A name that is empty after cleaning becomes the
    user id, as the leaderboard shows an unknown user.
    """
    out = []
    for ch in name:
        code = ord(ch)
        if code == 0:
            continue
        if 0xD800 <= code <= 0xDFFF:
            out.append("\ufffd")
        elif code < 0x20 or code == 0x7F:
            out.append(" ")
        else:
            out.append(ch)
    # Bidi controls and invisible characters go too (issue 30 item 15, bot.names).
    cleaned = display_name("".join(out), "")[:NAME_LIMIT]
    return cleaned if cleaned.strip() else str(user_id)

"""The errors a backend raises, and the checks every value passes on its way in."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

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


_CONTROL = re.compile("[\x00-\x1f\x7f\ud800-\udfff]")
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def _fix_control(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code == 0:
        return ""
    return "\ufffd" if code >= 0xD800 else " "


def _fix_unstorable(match: re.Match[str]) -> str:
    return "" if match.group() == "\x00" else "\ufffd"


def clean_text(text: str, limit: int | None = None) -> str:
    """Any text a user typed, as both backends store it (names, tournament names, pairing
    labels, reasons, suggestions, settings values, ...).

    PostgreSQL text cannot hold U+0000 and neither database can store a lone UTF-16
    surrogate (which Python strings may carry, e.g. from a console with surrogate
    escapes): NULs are removed, surrogates become U+FFFD, other C0 control characters
    and DEL (newlines, tabs, escapes) become spaces, and the result is cut to ``limit``
    characters when one is given.  (Display names also lose bidirectional controls and
    invisible characters: :func:`clean_name`.)
    """
    cleaned = _CONTROL.sub(_fix_control, text) if _CONTROL.search(text) else text
    return cleaned if limit is None else cleaned[:limit]


def storable(value: Any) -> Any:
    """``value`` as a statement parameter both databases accept: in a string, NUL removed
    and lone surrogates replaced by U+FFFD (the last line of defence under
    :func:`clean_text`, applied to every parameter by both backends, so no text can make
    PostgreSQL raise ``CharacterNotInRepertoireError`` or SQLite a ``UnicodeEncodeError``);
    anything else as it is."""
    if isinstance(value, str) and _UNSTORABLE.search(value):
        return _UNSTORABLE.sub(_fix_unstorable, value)
    return value


def storable_params(params: Any) -> Any:
    """A statement's parameters (a sequence or a mapping) through :func:`storable`."""
    if isinstance(params, Mapping):
        return {key: storable(value) for key, value in params.items()}
    if isinstance(params, Sequence) and not isinstance(params, str):
        return [storable(value) for value in params]
    return params


def clean_name(name: str, user_id: int) -> str:
    """A display name as both backends store it: :func:`clean_text`, with bidirectional
    controls and invisible characters removed (:func:`bot.names.display_name`, issue 30
    item 15), cut to :data:`NAME_LIMIT` characters.  A name that is empty after cleaning
    becomes the user id, as the leaderboard shows an unknown user.
    """
    cleaned = display_name(clean_text(name), "")[:NAME_LIMIT]
    return cleaned if cleaned.strip() else str(user_id)

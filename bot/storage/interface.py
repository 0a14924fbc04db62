"""The storage interface the game service depends on.

The service only talks to :class:`Storage` and :class:`Transaction`; the SQLite
implementation lives in :mod:`bot.storage.sqlite` (all SQL is there), and another
backend (PostgreSQL) can implement the same protocols without the service
changing.  Every service operation runs inside exactly one transaction.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol, TypeVar

T = TypeVar("T")

INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1
"""Every integer column is a signed 64-bit integer on both backends (SQLite
INTEGER, PostgreSQL BIGINT for stakes, ledger points and amounts); a value
outside is refused with :class:`AmountOutOfRange` before it reaches the database."""

NAME_LIMIT = 100
"""Characters of a display name kept in ``users.name``."""


class MatchStatus(StrEnum):
    """Where a match (or money session, or chouette game) stands."""

    CHALLENGED = "challenged"
    """Waiting for the challenged player to accept or decline."""
    ACTIVE = "active"
    FINISHED = "finished"
    DECLINED = "declined"
    CANCELLED = "cancelled"

    @property
    def is_open(self) -> bool:
        """True while the match occupies its channel."""
        return self in (MatchStatus.CHALLENGED, MatchStatus.ACTIVE)


class GameStatus(StrEnum):
    """One game of a match."""

    ACTIVE = "active"
    FINISHED = "finished"


class ChouetteStatus(StrEnum):
    """A chouette table."""

    OPEN = "open"
    """Waiting for players or for /chouette start."""
    PLAYING = "playing"
    CLOSED = "closed"


@dataclass(frozen=True, slots=True)
class UserRow:
    id: int
    name: str
    is_bot: bool


@dataclass(frozen=True, slots=True)
class MatchRow:
    id: int
    guild_id: int
    channel_id: int
    white_id: int
    black_id: int
    variant: str
    rules: dict[str, Any]
    length: int
    stake: int
    rated: bool
    status: MatchStatus
    chouette_id: int | None
    state: dict[str, Any]
    version: int
    winner_id: int | None
    created_at: str
    updated_at: str


@dataclass(frozen=True, slots=True)
class GameRow:
    id: int
    match_id: int
    number: int
    seed_hash: str
    seed: str
    dice_drawn: int
    status: GameStatus
    winner_id: int | None
    result: dict[str, Any] | None
    created_at: str
    finished_at: str | None
    setup: dict[str, Any]


@dataclass(frozen=True, slots=True)
class EventRow:
    game_id: int
    seq: int
    kind: str
    data: dict[str, Any]
    actor_id: int | None
    created_at: str


@dataclass(frozen=True, slots=True)
class RatingRow:
    guild_id: int
    user_id: int
    rating: float
    experience: int


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    guild_id: int
    user_id: int
    points: int
    amount: int
    match_id: int | None = None
    game_id: int | None = None
    chouette_id: int | None = None


@dataclass(frozen=True, slots=True)
class ChouetteRow:
    id: int
    guild_id: int
    channel_id: int
    status: ChouetteStatus
    rules: dict[str, Any]
    state: dict[str, Any]
    version: int
    created_at: str


@dataclass(frozen=True, slots=True)
class ChouetteMemberRow:
    user_id: int
    position: int
    throw: int | None


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
    characters (newlines, tabs, ...) become spaces, and the result is cut to
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
    cleaned = "".join(out)[:NAME_LIMIT]
    return cleaned if cleaned.strip() else str(user_id)


class Transaction(Protocol):
    """Operations inside one transaction.  All or nothing is committed."""

    def on_commit(self, callback: Callable[[], None]) -> None:
        """Run ``callback`` once the transaction has committed (never after a rollback)."""
        ...

    async def upsert_user(self, user_id: int, name: str, is_bot: bool = False) -> None:
        """Store the user and the name (cleaned with :func:`clean_name`)."""
        ...
    async def lock_players(self, guild_id: int, user_ids: Sequence[int]) -> None:
        """Lock the players' per-server rows (their ``ratings`` rows, created at the
        default rating if missing) until the transaction ends, in ascending user id order.

        Call it once, before reading anything shared between channels that the
        transaction will write back: ratings (``rating`` then ``set_rating``), or a
        balance checked against a bound before a ledger entry.  Every transaction
        locking in the same order, two games ending at once with a player in common
        wait for each other instead of losing an update or deadlocking.  The users
        must exist.  On SQLite ``BEGIN IMMEDIATE`` already serialises writers; the
        rows are created the same way."""
        ...
    async def get_user(self, user_id: int) -> UserRow | None: ...

    async def open_match_in_channel(self, channel_id: int) -> MatchRow | None: ...
    async def latest_match_in_channel(self, channel_id: int) -> MatchRow | None: ...
    async def matches_in_channel(self, channel_id: int, *, chouette_id: int | None = None,
                                 limit: int = 1000) -> list[MatchRow]:
        """The channel's matches, oldest first (at most ``limit``, the newest ones); with
        ``chouette_id``, only that chouette table's games."""
        ...
    async def get_match(self, match_id: int) -> MatchRow | None: ...
    async def insert_match(self, *, guild_id: int, channel_id: int, white_id: int,
                           black_id: int, variant: str, rules: dict[str, Any], length: int,
                           stake: int, rated: bool, status: MatchStatus,
                           chouette_id: int | None = None,
                           state: dict[str, Any] | None = None) -> MatchRow: ...
    async def update_match(self, row: MatchRow, **changes: Any) -> MatchRow:
        """Apply ``changes`` to the match ``row`` was read as and bump its version; the new
        row.  :class:`StaleVersionError` if the version moved on (possibly only at commit)."""
        ...
    async def claim_reminder(self, match_id: int, version: int) -> bool: ...
    async def idle_matches(self, older_than: str) -> list[MatchRow]: ...
    async def matches_for_user(self, guild_id: int, user_id: int,
                               statuses: Sequence[str]) -> list[MatchRow]: ...

    async def insert_game(self, *, match_id: int, number: int, seed_hash: str,
                          seed: str, setup: dict[str, Any] | None = None) -> GameRow: ...
    async def current_game(self, match_id: int) -> GameRow | None: ...
    async def games_of_match(self, match_id: int) -> list[GameRow]: ...
    async def get_game(self, game_id: int) -> GameRow | None: ...
    async def update_game(self, row: GameRow, **changes: Any) -> GameRow:
        """Apply ``changes`` to the game ``row``; the row as a read would now return it."""
        ...

    async def append_events(self, game_id: int,
                            events: Sequence[tuple[int, str, dict[str, Any], int | None]]
                            ) -> None: ...
    async def events(self, game_id: int) -> list[EventRow]: ...

    async def add_ledger(self, entries: Sequence[LedgerEntry]) -> None: ...
    async def balance(self, guild_id: int, user_id: int) -> int: ...

    async def insert_chouette(self, *, guild_id: int, channel_id: int,
                              rules: dict[str, Any], state: dict[str, Any]) -> ChouetteRow: ...
    async def open_chouette_in_channel(self, channel_id: int) -> ChouetteRow | None: ...
    async def get_chouette(self, chouette_id: int) -> ChouetteRow | None: ...
    async def update_chouette(self, chouette_id: int, expected_version: int,
                              **changes: Any) -> ChouetteRow:
        """Apply ``changes`` (status, state) and bump the version, or StaleVersionError."""
        ...
    async def chouette_members(self, chouette_id: int) -> list[ChouetteMemberRow]:
        """The members at the table now, in list order."""
        ...
    async def set_chouette_members(self, chouette_id: int,
                                   members: Sequence[tuple[int, int | None]]) -> None:
        """Make ``members`` ((user, seat throw) in list order) the table; others leave."""
        ...
    async def chouette_totals(self, chouette_id: int) -> dict[int, int]:
        """Each user's money won (+) or lost (-) at this chouette so far."""
        ...

    async def rating(self, guild_id: int, user_id: int) -> RatingRow: ...
    async def set_rating(self, row: RatingRow, *, match_id: int, before: float) -> None:
        """Write the new rating; :class:`RetryableConflict` when the stored rating is no
        longer ``before`` (another transaction changed it since it was read)."""
        ...
    async def rating_history(self, guild_id: int, user_id: int) -> list[tuple[float, float]]: ...

    async def leaderboard(self, guild_id: int, order: str, limit: int,
                          offset: int) -> list[dict[str, Any]]: ...
    async def leaderboard_count(self, guild_id: int, order: str) -> int: ...
    async def user_stats(self, guild_id: int, user_id: int) -> dict[str, Any]: ...


class Storage(Protocol):
    """A database the service can open transactions on."""

    async def open(self) -> None: ...
    async def close(self) -> None: ...
    def transaction(self) -> AbstractAsyncContextManager[Transaction]:
        """A transaction for an action: it may write, and holds the write lock where needed."""
        ...
    def snapshot(self) -> AbstractAsyncContextManager[Transaction]:
        """A transaction for reading only: one consistent view, no write lock."""
        ...
    async def schema_version(self) -> int: ...
    async def run(self, work: Callable[[Transaction], Awaitable[T]], *,
                  lock_channel: int | None = None) -> T:
        """``await work(tx)`` in one action transaction, committed; its result.

        ``lock_channel``: take the channel's lock first (PostgreSQL: the per-channel
        advisory lock, before any row lock, bounded by ``storage.lock_timeout``).
        The whole ``work`` runs again (bounded, jittered backoff, within
        ``storage.retry_seconds``) when nothing was committed and the failure is
        transient: a deadlock or serialization failure (:class:`RetryableConflict`),
        the connection refused, the server starting up or shutting down, the
        connection lost before COMMIT.  So ``work`` must change nothing outside the
        transaction except through ``tx.on_commit``.  Otherwise it raises
        :class:`StorageBusy`, :class:`StorageUnavailable` or
        :class:`StorageCommitUnknown` (never a driver exception for those cases),
        and whatever ``work`` raised (refusals, :class:`StaleVersionError`) as is.
        """
        ...

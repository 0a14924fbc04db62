"""The storage interface the game service depends on.

The service only talks to :class:`Storage` and :class:`Transaction`; the SQLite
implementation lives in :mod:`bot.storage.sqlite` (all SQL is there), and another
backend (PostgreSQL) can implement the same protocols without the service
changing.  Every service operation runs inside exactly one transaction.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol


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


class Transaction(Protocol):
    """Operations inside one transaction.  All or nothing is committed."""

    def on_commit(self, callback: Callable[[], None]) -> None:
        """Run ``callback`` once the transaction has committed (never after a rollback)."""
        ...

    async def upsert_user(self, user_id: int, name: str, is_bot: bool = False) -> None: ...
    async def get_user(self, user_id: int) -> UserRow | None: ...

    async def open_match_in_channel(self, channel_id: int) -> MatchRow | None: ...
    async def latest_match_in_channel(self, channel_id: int) -> MatchRow | None: ...
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
    async def set_rating(self, row: RatingRow, *, match_id: int, before: float) -> None: ...
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

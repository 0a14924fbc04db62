"""Matches, games and their events: the rows and the calls on them."""

from __future__ import annotations

from collections.abc import Sequence
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
    place_kind: str = "server"
    """Where the match lives: 'server' (a server's channel or thread), 'dm' (a direct
    message) or 'group_dm'; a place without a server has guild_id 0, the personal scope."""


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

    @property
    def played(self) -> bool:
        """Finished with a result: played out (resigned, dropped, forfeited or borne off).
        A game its match or session ended around (``/stop`` after its opening throw, an
        organiser's decision) is finished with no result: not a played game -- not
        analysed, graded, exported nor replayed by default (its seed is revealed all the
        same: ``/verify`` checks its dice)."""
        return self.status is GameStatus.FINISHED and self.result is not None


@dataclass(frozen=True, slots=True)
class EventRow:
    game_id: int
    seq: int
    kind: str
    data: dict[str, Any]
    actor_id: int | None
    created_at: str


class PlayTransaction(Protocol):
    """Matches, games and events inside one transaction."""

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
                           state: dict[str, Any] | None = None,
                           place_kind: str = "server") -> MatchRow: ...

    async def update_match(self, row: MatchRow, **changes: Any) -> MatchRow:
        """Apply ``changes`` to the match ``row`` was read as and bump its version; the new
        row.  :class:`StaleVersionError` if the version moved on (possibly only at commit)."""
        ...

    async def claim_reminder(self, match_id: int, version: int) -> bool: ...

    async def idle_matches(self, older_than: str) -> list[MatchRow]: ...

    async def open_matches_in_guild(self, guild_id: int, limit: int = 100) -> list[MatchRow]:
        """The server's challenges and matches in progress (a chouette table's game too),
        oldest first, at most ``limit``."""
        ...

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

"""Tournaments: the rows and the calls on them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol

from bot.storage.play.interface import MatchRow


class TournamentStatus(StrEnum):
    """Where a tournament stands."""

    SIGNUP = "signup"
    """Taking sign-ups until the organiser starts it."""
    RUNNING = "running"
    PAUSED = "paused"
    """Running, with its deadlines stopped."""
    FINISHED = "finished"
    CANCELLED = "cancelled"

    @property
    def is_open(self) -> bool:
        return self in (TournamentStatus.SIGNUP, TournamentStatus.RUNNING,
                        TournamentStatus.PAUSED)


@dataclass(frozen=True, slots=True)
class TournamentRow:
    id: int
    guild_id: int
    channel_id: int
    organiser_id: int
    name: str
    status: TournamentStatus
    config: dict[str, Any]
    state: dict[str, Any]
    version: int
    round: int
    signup_until: str | None
    deadline: str | None
    remind_at: str | None
    reminded_round: int
    expired_round: int
    message_id: int | None
    created_at: str
    updated_at: str


class TournamentTransaction(Protocol):
    """Tournaments inside one transaction."""

    async def insert_tournament(self, *, guild_id: int, channel_id: int, organiser_id: int,
                                name: str, config: dict[str, Any], state: dict[str, Any],
                                signup_until: str | None = None) -> TournamentRow: ...

    async def get_tournament(self, tournament_id: int) -> TournamentRow | None: ...

    async def lock_tournament(self, tournament_id: int) -> TournamentRow | None:
        """The tournament's row, locked until the transaction ends (PostgreSQL: a row
        lock taken by a no-op update; SQLite's write lock already serialises writers).
        Take it after the channel's lock and the rating rows: one global order."""
        ...

    async def tournaments_in_guild(self, guild_id: int,
                                   statuses: Sequence[str]) -> list[TournamentRow]: ...

    async def running_tournaments(self) -> list[TournamentRow]:
        """Every running or paused tournament, of every server."""
        ...

    async def update_tournament(self, row: TournamentRow, **changes: Any) -> TournamentRow:
        """Apply ``changes`` (status, state, config, round, deadline, remind_at,
        signup_until, message_id) to the tournament ``row`` was read as and bump its
        version; :class:`RetryableConflict` if the version moved on (another process
        recorded a result first: running the whole action again is safe)."""
        ...

    async def claim_tournament_notice(self, tournament_id: int, kind: str, round: int) -> bool:
        """Mark ``kind`` ("reminder" or "expired") of ``round`` as sent; True for exactly
        one caller, cluster-wide."""
        ...

    async def due_tournaments(self, now: str) -> list[TournamentRow]:
        """Running tournaments whose round reminder or deadline is due at ``now`` and not
        yet announced."""
        ...

    async def link_match(self, match_id: int, tournament_id: int, pairing: str) -> None:
        """Make the match the one played for ``pairing`` (at most one match per pairing:
        a second is an integrity error)."""
        ...

    async def match_pairing(self, match_id: int) -> tuple[int, str] | None:
        """(tournament id, pairing id) of a tournament match, else None."""
        ...

    async def tournament_matches(self, tournament_id: int) -> dict[str, MatchRow]:
        """The matches of a tournament by pairing id."""
        ...

    async def claim_opening(self, tournament_id: int, pairing: str, now: str,
                            stale_before: str) -> bool:
        """Take on opening ``pairing`` (its thread and match): True for exactly one
        caller, or again once an earlier claim older than ``stale_before`` found no match
        (the process that took it died)."""
        ...

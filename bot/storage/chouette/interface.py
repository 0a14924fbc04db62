"""Chouette tables: the rows and the calls on them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any, Protocol


class ChouetteStatus(StrEnum):
    """A chouette table."""

    OPEN = "open"
    """Waiting for players or for /chouette start."""
    PLAYING = "playing"
    CLOSED = "closed"


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


class ChouetteTransaction(Protocol):
    """Chouette tables inside one transaction."""

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

    async def chouette_points(self, chouette_id: int) -> dict[int, Fraction]:
        """Each user's points won (+) or lost (-) at this chouette so far, exactly (a
        share may be a half or a third: migration 0006)."""
        ...

    async def chouette_game_points(self, game_id: int) -> list[tuple[int, Fraction]]:
        """The settlement of one chouette game: each user's points, exactly, in the order
        settled (empty while the game is not settled)."""
        ...

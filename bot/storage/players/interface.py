"""Users, ratings and the ledger: the rows and the calls on them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Protocol


@dataclass(frozen=True, slots=True)
class UserRow:
    id: int
    name: str
    is_bot: bool


@dataclass(frozen=True, slots=True)
class RatingRow:
    guild_id: int
    user_id: int
    rating: float
    experience: int


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    """One player's result of one game.  ``points`` is exact: a chouette share may be a
    fraction (stored as ``points`` / ``points_den``, migration 0006); ``amount`` is whole
    units of the stake."""

    guild_id: int
    user_id: int
    points: int | Fraction
    amount: int
    match_id: int | None = None
    game_id: int | None = None
    chouette_id: int | None = None


class PlayersTransaction(Protocol):
    """Users, ratings and the ledger inside one transaction."""

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

    async def add_ledger(self, entries: Sequence[LedgerEntry]) -> None: ...

    async def balance(self, guild_id: int, user_id: int) -> int: ...

    async def money_turnover(self, guild_id: int, user_id: int) -> int:
        """The sum of the absolute amounts of the user's ledger rows in the guild
        (bounds every partial sum of them, in any order)."""
        ...

    async def rating(self, guild_id: int, user_id: int) -> RatingRow: ...

    async def ratings_of(self, guild_id: int, user_ids: tuple[int, int]
                         ) -> tuple[RatingRow, RatingRow]:
        """The two players' ratings in one read (as :meth:`rating` each)."""
        ...

    async def set_rating(self, row: RatingRow, *, match_id: int, before: float) -> None:
        """Write the new rating; :class:`RetryableConflict` when the stored rating is no
        longer ``before`` (another transaction changed it since it was read)."""
        ...

    async def rating_history(self, guild_id: int, user_id: int) -> list[tuple[float, float]]: ...

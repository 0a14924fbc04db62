"""The leaderboard and player stats: the calls."""

from __future__ import annotations

from typing import Any, Protocol


class StandingsTransaction(Protocol):
    """The leaderboard and player stats inside one transaction."""

    async def leaderboard(self, guild_id: int, order: str, limit: int,
                          offset: int) -> list[dict[str, Any]]: ...

    async def leaderboard_count(self, guild_id: int, order: str) -> int: ...

    async def user_stats(self, guild_id: int, user_id: int) -> dict[str, Any]: ...

    async def activity(self) -> dict[str, int]:
        """What is going on, for the operator: ``games`` (matches being played),
        ``challenges`` (waiting for an answer), ``tables`` (chouette tables open or
        playing), ``tournaments`` (taking sign-ups, running or paused)."""
        ...

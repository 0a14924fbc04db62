"""Finding a game (issue 44): the calls on open challenges (match rows waiting for anyone:
their ``black_id`` is the challenger's own until someone accepts)."""

from __future__ import annotations

from typing import Protocol

from bot.storage.play.interface import MatchRow


class LobbyTransaction(Protocol):
    """Open challenges inside one transaction."""

    async def open_challenges(self, guild_id: int | None = None, limit: int = 500
                              ) -> list[MatchRow]:
        """Challenges waiting for anyone to accept them (in ``guild_id``; None: every
        server), oldest first."""
        ...

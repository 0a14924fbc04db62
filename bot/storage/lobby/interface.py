"""Finding a game (issue 44): the calls on open challenges (match rows waiting for anyone:
their ``black_id`` is the challenger's own until someone accepts)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from bot.storage.play.interface import MatchRow


@dataclass(frozen=True, slots=True)
class QueueEntry:
    """A player waiting in a server's matchmaking queue, and for what."""

    guild_id: int
    user_id: int
    channel_id: int
    """Where he joined: the match starts there when he is the later of the two."""
    length: int
    variant: str
    clock: str
    """The time control (``none``, or as typed again)."""
    rated: bool
    rating: float
    """His rating in the server when he joined."""
    joined_at: str
    """The service's time he joined (ISO)."""
    bot_after: float = 0.0
    """Minutes after which he plays the bot when nobody was found (0: never)."""


class LobbyTransaction(Protocol):
    """Open challenges and the queue inside one transaction."""

    async def join_queue(self, entry: QueueEntry) -> bool:
        """Add ``entry``; False when the player already waits in that server."""
        ...

    async def queue_entries(self, guild_id: int | None = None) -> list[QueueEntry]:
        """Who waits (in ``guild_id``; None: every server), the longest-waiting first."""
        ...

    async def take_from_queue(self, entry: QueueEntry) -> None:
        """Remove ``entry`` as it was read (:class:`~bot.storage.core.errors.
        StaleVersionError` when it is no longer there: left, timed out or paired by
        another transaction, which then decided)."""
        ...

    async def open_challenges(self, guild_id: int | None = None, limit: int = 500
                              ) -> list[MatchRow]:
        """Challenges waiting for anyone to accept them (in ``guild_id``; None: every
        server), oldest first."""
        ...

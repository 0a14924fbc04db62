"""The values every service call takes: who acts, where, and which state a button saw."""

from __future__ import annotations

from dataclasses import dataclass

from bot.names import display_name
from bot.service.core.replies import Mention, Refusal

MAX_ID = 2**63 - 1
"""Platform ids are stored as signed 64-bit integers (SQLite, PostgreSQL bigint)."""


def check_id(value: int, what: str) -> int:
    """Refuse an id the database cannot hold (Discord's snowflakes always fit)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_ID:
        raise Refusal(f"That {what} id is not valid: ids are whole numbers from 0 to {MAX_ID}.")
    return value


def bad_ids(place: Place, *actors: Actor | None) -> str | None:
    """Why the ids of a call can't be stored (None: they can): every public entry checks
    them first, so an id outside the 64-bit range is refused, never an OverflowError."""
    try:
        check_id(place.guild_id, "server")
        check_id(place.channel_id, "channel")
        for actor in actors:
            if actor is not None:
                check_id(actor.id, "user")
    except Refusal as refusal:
        return str(refusal)
    return None


@dataclass(frozen=True, slots=True)
class Actor:
    """Who is acting: a platform user id and display name."""

    id: int
    name: str
    is_bot: bool = False

    def __post_init__(self) -> None:
        # Names are neutralised where they enter (issue 30 item 15): no bidi control or
        # invisible character reaches a text, a picture or a file.
        object.__setattr__(self, "name", display_name(self.name, str(self.id)))

    @property
    def mention(self) -> Mention:
        return Mention(self.id, self.name)


@dataclass(frozen=True, slots=True)
class Place:
    """Where: the guild (server) and channel (a thread is a channel)."""

    guild_id: int
    channel_id: int
    parent_id: int | None = None
    """For a thread: the channel it belongs to (a challenge's thread records its home)."""


@dataclass(frozen=True, slots=True)
class Expect:
    """The state an action was offered for (a button): the match's state ``version``
    and, when known, the ``match_id``.  The action is refused if the channel's match
    has moved on or is another match, so a stale button or a retried click applies
    at most once."""

    version: int
    match_id: int | None = None

"""The values every service call takes: who acts, where, and which state a button saw."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from bot.names import display_name
from bot.service.core.replies import Mention, Refusal

MAX_ID = 2**63 - 1
"""Platform ids are stored as signed 64-bit integers (SQLite, PostgreSQL bigint)."""
PERSONAL = 0
"""The scope (``guild_id``) of every place without a server: its games count toward the
players' personal ratings, money and statistics (Discord never gives a server id 0)."""


def check_id(value: int, what: str) -> int:
    """Refuse an id the database cannot hold (Discord's snowflakes always fit)."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_ID:
        raise Refusal(f"That {what} id is not valid: ids are whole numbers from 0 to {MAX_ID}.")
    return value


def bad_ids(place: Place, *actors: Actor | None) -> str | None:
    """Why the ids of a call can't be stored (None: they can): every public entry checks
    them first, so an id outside the 64-bit range is refused, never an OverflowError."""
    try:
        check_place(place)
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


class PlaceKind(StrEnum):
    """What kind of place a channel is (stored with each match as ``place_kind``)."""

    SERVER = "server"
    """A server's channel or thread."""
    DM = "dm"
    """A direct message (between two users, or a user and the bot): no server."""
    GROUP_DM = "group_dm"
    """A group DM: no server."""


@dataclass(frozen=True, slots=True)
class Place:
    """Where: the guild (server) and channel (a thread is a channel).  A place without a
    server (:meth:`direct`: a DM or a group DM) has the channel and ``guild_id``
    :data:`PERSONAL`, the scope of its players' personal ratings and statistics."""

    guild_id: int
    channel_id: int
    parent_id: int | None = None
    """For a thread: the channel it belongs to (a challenge's thread records its home)."""
    kind: PlaceKind = PlaceKind.SERVER
    answers_only: bool = False
    """The bot may only answer interactions here, never post on its own (a server that did
    not install it, only its players did; always so without a server)."""

    def __post_init__(self) -> None:
        if self.kind is not PlaceKind.SERVER and self.guild_id != PERSONAL:
            raise ValueError("a place without a server has the personal scope (guild_id 0)")

    @classmethod
    def direct(cls, channel_id: int, *, group: bool = False) -> Place:
        """A DM (``group``: a group DM) with this channel id: a place without a server."""
        return cls(PERSONAL, channel_id, kind=PlaceKind.GROUP_DM if group else PlaceKind.DM,
                   answers_only=True)

    @property
    def in_server(self) -> bool:
        return self.kind is PlaceKind.SERVER


def check_place(place: Place) -> None:
    """Refuse a place the database cannot hold: ids in range, and a server's id is never
    the personal scope's."""
    check_id(place.guild_id, "server")
    check_id(place.channel_id, "channel")
    if place.in_server and place.guild_id == PERSONAL:
        raise Refusal(f"That server id is not valid: a server's id is never {PERSONAL}.")


ANYWHERE = ("Here, in a conversation without a server, you can play a match or money game "
            "against a friend or against me (/challenge), and use /board, /hint, /history, "
            "/replay, /export, /verify, /rules and /stats (your personal rating).")
"""What works in a place without a server (issue 32 item 2)."""


def without_server(place: Place, what: str, why: str, *, many: bool = False) -> str:
    """The refusal of ``what`` in ``place``, a place without a server: why, and what works
    there instead (``many``: ``what`` is a plural, "Puzzles need a server")."""
    where = "this group DM" if place.kind is PlaceKind.GROUP_DM else "this DM"
    return f"{what} {'need' if many else 'needs'} a server, not {where}: {why} {ANYWHERE}"


def refuse_without_server(place: Place, what: str, why: str) -> None:
    """Refuse ``what`` in a place without a server (a :class:`Refusal` saying why)."""
    if not place.in_server:
        raise Refusal(without_server(place, what, why))


@dataclass(frozen=True, slots=True)
class Expect:
    """The state an action was offered for (a button): the match's state ``version``
    and, when known, the ``match_id``.  The action is refused if the channel's match
    has moved on or is another match, so a stale button or a retried click applies
    at most once."""

    version: int
    match_id: int | None = None

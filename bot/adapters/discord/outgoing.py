"""The messages the presenter (:mod:`.presenter`) sends: Discord's limits and mentions, a
message ready to send (:class:`Outgoing`), the text of a private answer, and the messages
editable with their interaction's token where the bot is not a member (:class:`OwnMessages`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.adapters.discord.convert import notice_text
from bot.adapters.discord.deadlines import TOKEN_MARGIN
from bot.service.core.replies import Board, Reply

MAX_CONTENT = 2000
MAX_DESCRIPTION = 4096
MAX_ALT_TEXT = 1024
"""Discord's limit on an attachment's description (its alt text)."""
EMBED_COLOUR = discord.Colour(0x2E7D32)
MENTION_USERS = discord.AllowedMentions(everyone=False, roles=False, users=True,
                                        replied_user=False)
NO_MENTIONS = discord.AllowedMentions.none()
MAX_TRACKED_CHANNELS = 10_000
"""Channels whose newest board message the presenter remembers."""


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def footer(board: Board) -> str:
    """The GNU Backgammon IDs of a board (standard variant only), for the embed footer."""
    parts = []
    if board.position_id:
        parts.append(f"Position ID: {board.position_id}")
    if board.match_id:
        parts.append(f"Match ID: {board.match_id}")
    return " · ".join(parts)


def private_text(reply: Reply) -> str:
    """A private answer (a refusal): its text with the channel it points to linked, then its
    notice lines (channels and roles as links; a private answer notifies nobody)."""
    link = f" <#{reply.channel_ref}>" if reply.channel_ref is not None else ""
    head = reply.text + link
    return "\n".join([head] * bool(head) + [notice_text(n) for n in reply.notify])


class OwnMessages:
    """The messages this run posted as interaction responses and follow-ups where the bot is
    not a member, kept as long as their interaction's token allows editing them
    (:data:`TOKEN_MARGIN` of its 15 minutes): the only way to take the buttons off an older
    board there."""

    def __init__(self, clock: Callable[[], float], limit: int = MAX_TRACKED_CHANNELS) -> None:
        self.clock = clock
        self.limit = limit
        self._kept: dict[int, tuple[discord.Message, float]] = {}

    def keep(self, message: discord.Message, at: float) -> None:
        """``message`` was just posted (at ``at`` by the clock) answering an interaction
        received seconds before (the margin covers them)."""
        while len(self._kept) >= self.limit:
            self._kept.pop(next(iter(self._kept)))
        self._kept[message.id] = (message, at + TOKEN_MARGIN)

    def editable(self, message_id: int) -> discord.Message | None:
        """The message, while its token may still edit it (else None, forgotten)."""
        kept = self._kept.get(message_id)
        if kept is None:
            return None
        if self.clock() >= kept[1]:
            del self._kept[message_id]
            return None
        return kept[0]


@dataclass
class Outgoing:
    """A message ready to send (content, embeds, files, view)."""

    content: str = ""
    embeds: list[discord.Embed] = field(default_factory=list)
    files: list[discord.File] = field(default_factory=list)
    view: discord.ui.View | None = None

    def kwargs(self) -> dict[str, Any]:
        out: dict[str, Any] = {"allowed_mentions": MENTION_USERS}
        if self.content:
            out["content"] = self.content
        if self.embeds:
            out["embeds"] = self.embeds
        if self.files:
            out["files"] = self.files
        if self.view is not None:
            out["view"] = self.view
        return out


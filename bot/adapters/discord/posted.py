"""A challenge posted in a channel or its thread, whose message the service keeps
(:mod:`bot.service.posted.service`): the answer to the challenge then takes its Accept/Decline
buttons off, whether it came by a button, typed in the thread, or typed in the channel of
the thread, and after a restart too (the presenter edits the message the reply retires).

Noting the message moves the match's version on, so the message is posted without buttons
and gets those of the noted version.  Every way a challenge is posted goes through here:
``/challenge`` (in a thread or in the channel itself), ``/rematch`` typed, and the Rematch
button."""

from __future__ import annotations

import logging
from typing import Protocol

import discord

from bot.adapters.discord.buttons import build_view
from bot.service.core.replies import Action, Reply
from bot.service.core.values import Actor, Expect, Place

log = logging.getLogger(__name__)


class ChallengeNotes(Protocol):
    """What noting a challenge's message needs of the service (:class:`GameService`)."""

    async def challenge_posted(self, place: Place, actor: Actor, expect: Expect,
                               message_id: int) -> Reply: ...


def is_challenge(reply: Reply) -> bool:
    """Whether ``reply`` shows a challenge waiting for its answer (not a game against the
    bot, which starts at once)."""
    return (reply.ok and not reply.ephemeral and reply.match_id is not None
            and reply.version is not None
            and any(b.action is Action.ACCEPT for b in reply.buttons))


async def add_challenge_buttons(service: ChallengeNotes, posted: discord.Message,
                                place: Place, actor: Actor, reply: Reply) -> None:
    """Note ``posted`` as the challenge's message, then put the challenge's buttons on it
    (none if the challenge was answered meanwhile).  If the note fails (the database
    away), the buttons of ``reply`` go on it as before: the answer then leaves them, and a
    press on them is refused as stale."""
    assert reply.match_id is not None and reply.version is not None
    noted = await service.challenge_posted(place, actor, Expect(reply.version, reply.match_id),
                                           posted.id)
    if not noted.ok:
        log.warning("challenge message %s not stored: %s", posted.id, noted.text)
    view = build_view(noted if noted.ok else reply)
    if view is None:
        return
    try:
        await posted.edit(view=view)
    except discord.HTTPException as error:  # deleted meanwhile: typed answers still work
        log.warning("could not put the buttons on challenge message %s: %s", posted.id, error)

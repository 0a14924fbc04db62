"""The buttons of ``/lobby`` (issue 44 item 3): persistent, as every button of this adapter.

The custom id carries everything a press needs, so they keep working after a restart::

    bglb:a:<match id>:<state version>                Accept that open challenge
    bglb:j:<length>:<variant>:<clock>:<rated 0|1>     Join the queue on those terms
                                                      ("" for the server's)

A press goes to the same service entry points as the commands: Accept to the open
challenge's accept (:meth:`~bot.service.lobby.open.OpenChallenges.accept_listed`, where
the challenge waits: the game is posted there), Join to ``/queue join``
(:meth:`~bot.service.lobby.queue.Queue.join`).  Who may press what, and every refusal, is
the service's: a challenge taken meanwhile says who took it.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable
from typing import Any, cast

import discord

from bot.adapters.discord import places
from bot.adapters.discord.buttons import Host
from bot.adapters.discord.convert import AnswerableOnly, actor_of, place_of
from bot.service.core.replies import LobbyChoices, Reply
from bot.service.lobby.queue import Wanted

ACCEPT_TEMPLATE = r"bglb:a:(?P<match>[0-9]+):(?P<version>[0-9]+)"
JOIN_TEMPLATE = (r"bglb:j:(?P<length>[0-9]+):(?P<variant>[a-z0-9-]*):(?P<clock>[^:]*)"
                 r":(?P<rated>[01])")
CUSTOM_ID_MAX = 100


async def _press(interaction: discord.Interaction[Any], work: Awaitable[Reply]) -> None:
    host = cast(Host, interaction.client)
    try:
        presenter = host.presenter
        reply = await presenter.call(interaction, work)
        if reply.ok and reply.channel_ref is None:  # in a thread archived meanwhile
            await places.reopen(interaction.channel)
        # (not "from a button": the lobby is the presser's own message; it keeps its buttons)
        await presenter.send(interaction, reply)
    except Exception as error:  # one error handler for commands, buttons and menus
        await host.on_interaction_error(interaction, error)


class LobbyAccept(AnswerableOnly, discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
                  template=ACCEPT_TEMPLATE):
    """Accept one open challenge listed by /lobby."""

    def __init__(self, match_id: int, version: int, label: str = "Accept") -> None:
        self.match_id = match_id
        self.version = version
        super().__init__(discord.ui.Button(
            label=label[:80] or "Accept", style=discord.ButtonStyle.success,
            custom_id=f"bglb:a:{match_id}:{version}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> LobbyAccept:
        return cls(int(match["match"]), int(match["version"]),
                   getattr(item, "label", None) or "Accept")

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        service = cast(Host, interaction.client).service
        await _press(interaction, service.open_challenges.accept_listed(
            place_of(interaction), actor_of(interaction.user), self.match_id, self.version))


def join_id(length: int, variant: str, clock: str, rated: bool) -> str:
    return f"bglb:j:{length}:{variant}:{clock}:{int(rated)}"


class LobbyJoin(AnswerableOnly, discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
                template=JOIN_TEMPLATE):
    """Join the queue on the terms shown (as /queue join with them)."""

    def __init__(self, length: int, variant: str, clock: str, rated: bool,
                 label: str = "Join") -> None:
        self.wanted = Wanted(length, variant or None, clock or None, rated)
        super().__init__(discord.ui.Button(
            label=label[:80] or "Join", style=discord.ButtonStyle.primary,
            custom_id=join_id(length, variant, clock, rated)))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> LobbyJoin:
        return cls(int(match["length"]), match["variant"], match["clock"],
                   match["rated"] == "1", getattr(item, "label", None) or "Join")

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        service = cast(Host, interaction.client).service
        await _press(interaction, service.queue.join(
            place_of(interaction), actor_of(interaction.user), self.wanted))


def lobby_view(reply: Reply) -> discord.ui.View | None:
    """The lobby's Accept and Join buttons as a persistent view (None: no lobby)."""
    choices: LobbyChoices | None = reply.lobby
    if choices is None or not (choices.accept or choices.join):
        return None
    view = discord.ui.View(timeout=None)
    shown = 0
    for match_id, version, label in choices.accept[:24]:
        view.add_item(LobbyAccept(match_id, version, label))
        shown += 1
    for length, variant, clock, rated, label in choices.join:
        cid = join_id(length, variant, clock, rated)
        if shown < 25 and len(cid) <= CUSTOM_ID_MAX and re.fullmatch(JOIN_TEMPLATE, cid):
            view.add_item(LobbyJoin(length, variant, clock, rated, label))
            shown += 1
    return view

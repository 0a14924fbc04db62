"""Discord values into service values, and service values into Discord text."""

from __future__ import annotations

from typing import Any

import discord

from bot.service.core.replies import Mention, Notice
from bot.service.core.values import Actor, Place


class NotInGuild(discord.app_commands.CheckFailure):
    """A game command used outside a server."""


def place_of(interaction: discord.Interaction[Any]) -> Place:
    """The service's place (guild, channel) of an interaction; a thread is a channel."""
    if interaction.guild_id is None or interaction.channel_id is None:
        raise NotInGuild("Backgammon is played in a server channel, not in direct messages.")
    parent = getattr(interaction.channel, "parent_id", None)  # a thread's channel
    return Place(interaction.guild_id, interaction.channel_id,
                 parent_id=parent if isinstance(parent, int) else None)


def actor_of(user: discord.abc.User) -> Actor:
    return Actor(user.id, user.display_name, user.bot)


def mention(user_id: int) -> str:
    return f"<@{user_id}>"


def notice_text(line: Notice) -> str:
    """A notice in Discord markup: a :class:`Mention` notifies its user."""
    return "".join(mention(p.user_id) if isinstance(p, Mention) else p for p in line)

"""Discord values into service values, and service values into Discord text."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.service.core.replies import (
    ChannelMention,
    Countdown,
    Mention,
    Moment,
    Notice,
    Part,
    RoleMention,
)
from bot.service.core.values import Actor, Place


class NotInGuild(discord.app_commands.CheckFailure):
    """An interaction with no channel to play in."""


GUILD_INSTALL = app_commands.AppInstallationType(guild=True, user=False)
EVERY_INSTALL = app_commands.AppInstallationType(guild=True, user=True)
"""Where a command can be used from: a server's install only, or a user's install too."""
GUILD_CONTEXT = app_commands.AppCommandContext(guild=True, dm_channel=False,
                                               private_channel=False)
EVERY_CONTEXT = app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True)
"""Where a command is offered: servers only, or DMs with the bot and between users (group
DMs) too."""


def place_of(interaction: discord.Interaction[Any]) -> Place:
    """The service's place of an interaction: a server's channel (a thread is a channel),
    or a DM or group DM, a place without a server."""
    if interaction.channel_id is None:
        raise NotInGuild("I can't tell where this was used: try again in a channel or a DM.")
    if interaction.guild_id is None:
        group = getattr(interaction.channel, "type", None) is discord.ChannelType.group
        return Place.direct(interaction.channel_id, group=group)
    parent = getattr(interaction.channel, "parent_id", None)  # a thread's channel
    return Place(interaction.guild_id, interaction.channel_id,
                 parent_id=parent if isinstance(parent, int) else None,
                 answers_only=not bot_is_member(interaction))


def bot_is_member(interaction: discord.Interaction[Any]) -> bool:
    """Whether the bot is a member where ``interaction`` happened, so it may post and edit
    messages there on its own: a server that installed the app.  In a DM, a group DM, or a
    server where only users installed the app, it may only answer the interaction (its
    response, follow-ups within the token, edits of its own interaction messages)."""
    return interaction.guild_id is not None and interaction.is_guild_integration()


def actor_of(user: discord.abc.User) -> Actor:
    return Actor(user.id, user.display_name, user.bot)


def mention(user_id: int) -> str:
    return f"<@{user_id}>"


def part_text(part: Part) -> str:
    """One part of a notice in Discord markup: ``<@id>``, ``<#id>``, ``<@&id>`` (a role
    known only by its name is written as its name)."""
    if isinstance(part, Mention):
        return mention(part.user_id)
    if isinstance(part, ChannelMention):
        return f"<#{part.channel_id}>"
    if isinstance(part, RoleMention):
        return f"<@&{part.role_id}>" if part.role_id is not None else f"@{part.name}"
    if isinstance(part, Moment):  # each reader's own time zone, and how long from now
        stamp = int(part.at.timestamp())
        return f"<t:{stamp}:f> (<t:{stamp}:R>)"
    if isinstance(part, Countdown):  # counted down by the client: no edits needed
        return f"<t:{part.unix}:R>"
    return part


def notice_text(line: Notice) -> str:
    """A notice in Discord markup: a :class:`Mention` notifies its user (channels and roles
    are links that notify nobody)."""
    return "".join(part_text(p) for p in line)


def has_role(member: discord.Member, role: RoleMention | None) -> bool:
    """Whether ``member`` has ``role`` (by id; a role the operator's config names only by
    name, by name)."""
    if role is None:
        return False
    if role.role_id is not None:
        return any(r.id == role.role_id for r in member.roles)
    return bool(role.name) and any(r.name == role.name for r in member.roles)


def answerable(interaction: discord.Interaction[Any]) -> bool:
    """False where Discord refuses every answer: a thread a moderator locked and archived
    (400/50083 Thread is archived, whatever the answer; discord-api-docs issue 5517).  An
    action there would be carried out with nobody told, so none is."""
    channel = interaction.channel
    return not (isinstance(channel, discord.Thread) and channel.locked and channel.archived)


class AnswerableOnly:
    """A persistent button's or menu's check (listed before ``DynamicItem`` in its bases):
    pressed in a thread a moderator locked and archived, it does nothing (Discord would
    refuse any answer: :func:`answerable`)."""

    async def interaction_check(self, interaction: discord.Interaction[Any], /) -> bool:
        return answerable(interaction)

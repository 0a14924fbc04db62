"""Discord values into service values, and service values into Discord text."""

from __future__ import annotations

from typing import Any

import discord

from bot.service.core.replies import ChannelMention, Mention, Notice, Part, RoleMention
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


def part_text(part: Part) -> str:
    """One part of a notice in Discord markup: ``<@id>``, ``<#id>``, ``<@&id>`` (a role
    known only by its name is written as its name)."""
    if isinstance(part, Mention):
        return mention(part.user_id)
    if isinstance(part, ChannelMention):
        return f"<#{part.channel_id}>"
    if isinstance(part, RoleMention):
        return f"<@&{part.role_id}>" if part.role_id is not None else f"@{part.name}"
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

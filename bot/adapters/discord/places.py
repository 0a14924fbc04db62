"""Where a game is played in Discord: a thread of its own, opened the way each channel type
allows (issue 29 items 6 and 7), and the permissions that takes.

* a text channel (GUILD_TEXT): a public thread;
* an announcement channel (GUILD_ANNOUNCEMENT): an announcement thread, which Discord only
  starts from a message: the bot posts a line naming the game, then opens the thread on it;
* a forum channel (GUILD_FORUM): a post, which is a thread started with its first message
  (nothing can be sent to the forum itself);
* a thread (of any of them): threads hold no threads, so the game is played in it.

:func:`missing` names the permissions the bot lacks to open and play a game's thread in a
channel (checked where they are needed, before anything is created), :func:`open_thread`
opens it.
"""

from __future__ import annotations

import logging
from typing import Any, Literal

import discord
from discord.http import Route

from bot.adapters.discord.errors import permission_names

log = logging.getLogger(__name__)

ThreadHome = discord.TextChannel | discord.ForumChannel
"""A channel a game's thread can be opened in (a text or announcement channel, a forum)."""

Duration = Literal[60, 1440, 4320, 10080]
"""The auto-archive durations Discord allows (minutes)."""
BOARD = ("embed_links", "attach_files")
"""What a board message needs: its embed and its PNG."""


def needs(channel: ThreadHome) -> tuple[str, ...]:
    """The permissions (discord.py names) the bot needs to open a game's thread in
    ``channel`` and post its boards there."""
    if isinstance(channel, discord.ForumChannel):
        return ("view_channel", "send_messages", "send_messages_in_threads", *BOARD)
    if channel.is_news():  # the thread starts from a message of the bot's
        return ("view_channel", "send_messages", "create_public_threads",
                "send_messages_in_threads", *BOARD)
    return ("view_channel", "create_public_threads", "send_messages_in_threads", *BOARD)


def missing(channel: ThreadHome, permissions: discord.Permissions) -> list[str]:
    """The permissions of :func:`needs` that ``permissions`` lacks."""
    return [p for p in needs(channel) if not getattr(permissions, p)]


def bot_permissions(channel: ThreadHome) -> discord.Permissions:
    """The bot's permissions in ``channel`` as the gateway showed them (roles, overwrites)."""
    return channel.permissions_for(channel.guild.me)


def missing_text(lacking: list[str], channel: ThreadHome) -> str:
    plural = "s" if len(lacking) > 1 else ""
    return (f"I'm missing the {permission_names(lacking)} permission{plural} in "
            f"{channel.mention}")


async def open_thread(client: discord.Client, channel: ThreadHome, name: str, *, starter: str,
                      auto_archive_duration: Duration = 1440, reason: str = "backgammon game",
                      ) -> discord.Thread:
    """A new thread for a game in ``channel``, as its type allows: a public thread (text), an
    announcement thread from a message saying ``starter`` (announcement), a post whose first
    message is ``starter`` (forum).  Raises :class:`discord.HTTPException` as Discord
    refuses (missing permissions, the server's cap on active threads)."""
    name = name[:100]
    if isinstance(channel, discord.ForumChannel):
        made: discord.channel.ThreadWithMessage = await channel.create_thread(
            name=name, content=starter[:2000], auto_archive_duration=auto_archive_duration,
            reason=reason)
        thread: discord.Thread = made.thread
        return thread
    if channel.is_news():
        message = await channel.send(starter[:2000],
                                     allowed_mentions=discord.AllowedMentions.none())
        return await message.create_thread(name=name,
                                           auto_archive_duration=auto_archive_duration,
                                           reason=reason)
    return await public_thread(client, channel, name, auto_archive_duration, reason)


async def public_thread(client: discord.Client, channel: discord.TextChannel, name: str,
                        duration: Duration, reason: str) -> discord.Thread:
    """Start Thread without Message, public, with the fields Discord documents for it
    (resources/channel.md): not ``invitable``, which is for private threads only (and which
    discord.py's ``create_thread`` always sends).  The thread as the gateway's THREAD_CREATE
    cached it, else as Discord answers a read of it."""
    route = Route("POST", "/channels/{channel_id}/threads", channel_id=channel.id)
    data = await client.http.request(route, json={
        "name": name, "type": discord.ChannelType.public_thread.value,
        "auto_archive_duration": duration}, reason=reason)
    thread_id = int(data["id"])
    thread = channel.guild.get_thread(thread_id)
    if thread is None:  # (its THREAD_CREATE is still on its way)
        fetched = await client.fetch_channel(thread_id)
        if not isinstance(fetched, discord.Thread):
            raise TypeError(f"channel {thread_id} is not a thread")
        thread = fetched
    return thread


def refused_text(error: discord.HTTPException) -> str:
    """Why Discord refused to open or use a thread, in words for the organiser."""
    if error.code == 160006:
        return ("the server has reached Discord's cap on active threads (finished games' "
                "threads are archived after a while; archiving others frees room)")
    if error.code == 160005:
        return "the thread is locked"
    if isinstance(error, discord.Forbidden):
        return f"Discord refused: a permission is missing ({error.text})"
    return f"Discord refused ({error.text})"


async def reopen(channel: Any) -> None:
    """Unarchive ``channel`` if it is a thread Discord (or the bot, after its match ended)
    archived, before the bot acts there: editing a message in an archived thread is refused
    (50083), and a rematch brings the thread back to the channel list.  A locked thread
    stays as its moderators left it; a refusal is only logged (sending a message unarchives
    an unlocked thread too)."""
    if not isinstance(channel, discord.Thread) or not channel.archived or channel.locked:
        return
    try:
        await channel.edit(archived=False, reason="a game goes on here")
    except discord.HTTPException as error:
        log.info("could not unarchive thread %s: %s", channel.id, error)

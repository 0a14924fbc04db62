"""The fake Discord's channels are as strict as Discord's (issue 29 item 12, the channel
half): permissions from overwrites with 403/50013, channel types (text, announcement,
forum, threads), archived and locked threads, the active-thread cap — each exercised through
the real discord.py client the bot runs on, and seen by the bot as Discord would show it
(the interaction's ``app_permissions``, its cached channels)."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Callable

import discord
import pytest
from discord_e2e import Host
from fake_channels import ANNOUNCEMENT, ANNOUNCEMENT_THREAD, FORUM, PUBLIC_THREAD
from fake_discord import FakeDiscord

from bot.adapters.discord import places


async def code_of(call: object) -> tuple[int, int]:
    """The HTTP status and Discord's JSON code of a refused call."""
    with pytest.raises(discord.HTTPException) as refused:
        await call  # type: ignore[misc]
    return refused.value.status, refused.value.code


async def settled(predicate: Callable[[], bool]) -> None:
    """Wait until the bot's client has taken in a gateway event (``predicate`` holds)."""
    for _ in range(500):
        if predicate():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the client never saw the change")


def png() -> discord.File:
    return discord.File(io.BytesIO(b"\x89PNG fake"), filename="a.png")


async def test_permissions_come_from_overwrites(fake: FakeDiscord, host: Host) -> None:
    bot = await host.start()
    channel = bot.get_channel(fake.channel_id)
    assert isinstance(channel, discord.TextChannel)
    await fake.guard.deny(fake.channel_id, "attach_files", "embed_links")
    await settled(lambda: not channel.permissions_for(channel.guild.me).attach_files)
    assert await code_of(channel.send("board", file=png())) == (403, 50013)
    assert await code_of(channel.send(embed=discord.Embed(description="x"))) == (403, 50013)
    sent = await channel.send("plain text is fine")
    assert fake.messages[sent.id].content == "plain text is fine"
    await fake.guard.deny(fake.channel_id, "read_message_history")
    assert await code_of(channel.fetch_message(sent.id)) == (403, 50013)
    assert await code_of(sent.reply("a reply")) == (400, 160002)
    # The interaction carries the bot's permissions in its channel (app_permissions).
    alice = fake.user("alice")
    record = await fake.slash(alice, "board")
    await record.message()
    await fake.guard.deny(fake.channel_id, "send_messages")
    assert await code_of(channel.send("hello")) == (403, 50013)
    await fake.guard.deny(fake.channel_id, "view_channel")
    assert await code_of(channel.send("hello")) == (403, 50001)
    assert await code_of(channel.send()) == (403, 50001)
    await fake.guard.allow_all(fake.channel_id)
    assert await code_of(bot.http.send_message(fake.channel_id, params=discord.http
                                               .MultipartParameters({}, None, None))
                         ) == (400, 50006)  # an empty message


async def test_threads_need_their_permissions(fake: FakeDiscord, host: Host) -> None:
    bot = await host.start()
    channel = bot.get_channel(fake.channel_id)
    assert isinstance(channel, discord.TextChannel)
    await fake.guard.deny(fake.channel_id, "create_public_threads")
    await settled(lambda: not channel.permissions_for(channel.guild.me)
                     .create_public_threads)
    assert await code_of(places.public_thread(bot, channel, "game", 1440, "a game")) == (403, 50013)
    await fake.guard.deny(fake.channel_id, "send_messages_in_threads", "manage_threads")
    thread = await places.public_thread(bot, channel, "game", 1440, "a game")
    assert fake.channels[thread.id]["type"] == PUBLIC_THREAD
    assert await code_of(thread.send("board")) == (403, 50013)
    assert await code_of(thread.edit(archived=True)) == (403, 50013)  # Manage Threads
    assert await code_of(thread.delete()) == (403, 50013)
    assert thread.id in fake.channels
    assert ("DELETE /channels/" + str(thread.id), 50013) in fake.guard.refusals


async def test_archived_and_locked_threads(fake: FakeDiscord, host: Host) -> None:
    bot = await host.start()
    channel = bot.get_channel(fake.channel_id)
    assert isinstance(channel, discord.TextChannel)
    thread = await places.public_thread(bot, channel, "game", 1440, "a game")
    first = await thread.send("board")
    await fake.guard.archive(thread.id)
    assert await code_of(first.edit(content="edited")) == (400, 50083)
    await thread.send("a reminder")  # sending unarchives an unlocked thread
    assert not fake.guard.archived(thread.id)
    await fake.guard.archive(thread.id, locked=True)
    await fake.guard.deny(fake.channel_id, "manage_threads")
    assert await code_of(thread.send("a reminder")) == (403, 160005)
    await fake.guard.allow_all(fake.channel_id)
    await thread.send("a moderator's bot may")  # with Manage Threads
    assert not fake.guard.archived(thread.id)
    await thread.edit(archived=True)
    assert fake.guard.archived(thread.id)
    await thread.edit(archived=False)
    assert not fake.guard.archived(thread.id)


async def test_the_active_thread_cap(fake: FakeDiscord, host: Host) -> None:
    bot = await host.start()
    channel = bot.get_channel(fake.channel_id)
    assert isinstance(channel, discord.TextChannel)
    fake.guard.max_active_threads = 1
    first = await places.public_thread(bot, channel, "one", 1440, "a game")
    assert await code_of(places.public_thread(bot, channel, "two", 1440, "a game")) == (400, 160006)
    await first.edit(archived=True)  # archived threads do not count
    second = await places.public_thread(bot, channel, "two", 1440, "a game")
    assert await code_of(first.send("back")) == (400, 160006)  # unarchiving would pass it
    await second.edit(archived=True)
    await first.send("back")


async def test_channel_types(fake: FakeDiscord, host: Host) -> None:
    news_id = fake.guard.add("news", ANNOUNCEMENT)
    forum_id = fake.guard.add("games", FORUM)
    bot = await host.start()
    news = bot.get_channel(news_id)
    forum = bot.get_channel(forum_id)
    assert isinstance(news, discord.TextChannel) and news.is_news()
    assert isinstance(forum, discord.ForumChannel)
    # An announcement channel: threads only from a message, of type 10.
    assert await code_of(news.create_thread(
        name="game", type=discord.ChannelType.public_thread)) == (400, 50024)
    assert await code_of(news.create_thread(
        name="game", type=discord.ChannelType.news_thread)) == (400, 50024)
    message = await news.send("alice v bob")
    thread = await message.create_thread(name="alice v bob")
    assert thread.id == message.id and fake.channels[thread.id]["type"] == ANNOUNCEMENT_THREAD
    assert await code_of(message.create_thread(name="again")) == (400, 160004)
    # A forum channel: nothing is sent to it; a post is a thread with its first message.
    assert await code_of(bot.http.send_message(forum_id, params=discord.http
                                               .MultipartParameters({"content": "hello"},
                                                                    None, None))
                         ) == (400, 40058)
    assert await code_of(bot.http.start_thread_in_forum(
        forum_id, params=discord.http.MultipartParameters(
            {"name": "post", "auto_archive_duration": 1440, "message": {}}, None, None))
                         ) == (400, 50006)
    post = await forum.create_thread(name="alice v bob", content="the board")
    assert fake.channels[post.thread.id]["type"] == PUBLIC_THREAD
    assert fake.messages[post.message.id].content == "the board"
    assert post.message.id == post.thread.id
    # A thread holds no thread.
    assert await code_of(bot.http.start_thread_without_message(
        thread.id, name="inner", auto_archive_duration=1440, type=11)) == (400, 50024)

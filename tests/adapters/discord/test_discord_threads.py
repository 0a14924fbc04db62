"""Games and their threads as Discord really has them (issue 29 items 5, 7 and 8), through
the real discord.py client against the fake Discord's strict channels
(tests/support/fake_channels.py): a refused challenge leaves no thread; games start
correctly in announcement and forum channels and in a thread; a finished match's thread is
archived after the grace period and reopened by a rematch; reminders and /claim work in a
thread Discord archived for inactivity."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import Any

import discord
from discord_e2e import Host, button_users, private, turn_of, users
from fake_channels import ANNOUNCEMENT, ANNOUNCEMENT_THREAD, FORUM, PUBLIC_THREAD, THREADS
from fake_discord import FakeDiscord, Message

from bot.adapters.discord import places
from bot.config import DiscordConfig


def threads(fake: FakeDiscord) -> list[int]:
    return [cid for cid, c in fake.channels.items() if c["type"] in THREADS]


def public(fake: FakeDiscord, channel: int) -> list[Message]:
    return [m for m in fake.channel_messages(channel) if not m.ephemeral]


async def test_a_refused_challenge_leaves_no_thread(fake: FakeDiscord, host: Host) -> None:
    # Item 5: the bot does not have Manage Threads (it does not ask for it), so a thread
    # opened for a challenge the service then refuses could never be deleted.
    alice, bob, _ = users(fake)
    robot = fake.user("robot")
    robot.bot = True
    await fake.guard.deny(fake.channel_id, "manage_threads")
    await host.start(replace(host.config, discord=DiscordConfig(use_threads=True)))
    refusals = {
        "jacoby with a match length": (dict(opponent=bob, length=3, jacoby=True),
                                       "Jacoby rule applies to money play only"),
        "yourself": (dict(opponent=alice), "You can't challenge yourself"),
        "a bot": (dict(opponent=robot), "robot is a bot and can't play"),
        "the bot, with no AI": (dict(opponent=fake.bot_user), "can't play"),
        "a level against a person": (dict(opponent=bob, level="beginner"),
                                     "The level option is for games against the bot"),
        "an unknown variant": (dict(opponent=bob, variant="chess"), "chess"),
        "a length and a stake": (dict(opponent=bob, length=3, stake=2),
                                 "not both"),
    }
    for kind, (options, reason) in refusals.items():
        record = await fake.slash(alice, "challenge", **options)  # type: ignore[arg-type]
        assert reason in await private(record), kind
        assert threads(fake) == [], f"{kind}: a thread was left behind"
    assert not [m for m in fake.channel_messages(fake.channel_id) if not m.ephemeral]
    # A challenge that stands gets its thread.
    note = await private(await fake.slash(alice, "challenge", opponent=bob, length=3))
    (thread,) = threads(fake)
    assert f"<#{thread}>" in note
    assert re.search(r"alice challenges bob", fake.channel_messages(thread)[0].content)


async def test_games_in_announcement_and_forum_channels_and_threads(
        fake: FakeDiscord, host: Host) -> None:
    # Item 7: each channel type a server may use.
    alice, bob, carol = users(fake)
    news = fake.guard.add("news", ANNOUNCEMENT)
    forum = fake.guard.add("games", FORUM)
    post = fake.guard.add_post(forum, "looking for a game", carol.id)
    await host.start(replace(host.config, discord=DiscordConfig(use_threads=True)))
    # An announcement channel: the thread is an announcement thread, from a message.
    note = await private(await fake.slash(alice, "challenge", opponent=bob, length=3,
                                          channel=news))
    thread = int(re.search(r"<#(\d+)>", note)[1])  # type: ignore[index]
    assert fake.channels[thread]["type"] == ANNOUNCEMENT_THREAD
    (starter,) = public(fake, news)
    assert starter.id == thread and "alice vs bob" in starter.content
    (challenge,) = fake.channel_messages(thread)
    await fake.until(lambda: challenge.labels() == ["Accept", "Decline"])
    board = await (await fake.click(bob, challenge, "Accept")).public()
    assert board.channel_id == thread and board.embeds
    # A forum's post is a thread: a game started in it is played there (no thread in it).
    record = await fake.slash(carol, "challenge", opponent=alice, length=1, channel=post)
    challenge = await record.public()
    assert challenge.channel_id == post and "carol challenges alice" in challenge.content
    assert sorted(threads(fake)) == sorted([post, thread])
    # So is one started in a game's thread of a text channel: in it.
    await fake.slash(bob, "forfeit", channel=thread, confirm=True)
    record = await fake.slash(bob, "challenge", opponent=carol, length=1, channel=thread)
    assert (await record.public()).channel_id == thread
    assert len(threads(fake)) == 2


async def test_an_announcement_channel_without_thread_permissions(fake: FakeDiscord,
                                                                  host: Host) -> None:
    # Without Create Public Threads there the game is played in the channel (interaction
    # answers need no channel permission), saying why.
    alice, bob, _ = users(fake)
    news = fake.guard.add("news", ANNOUNCEMENT)
    await fake.guard.deny(news, "create_public_threads")
    await host.start(replace(host.config, discord=DiscordConfig(use_threads=True)))
    record = await fake.slash(alice, "challenge", opponent=bob, length=3, channel=news)
    challenge = await record.public()
    assert challenge.channel_id == news and "alice challenges bob" in challenge.content
    assert "missing the Create Public Threads permission" in challenge.content
    assert threads(fake) == []


async def test_a_finished_games_thread_is_archived_and_reopened(fake: FakeDiscord,
                                                                host: Host) -> None:
    # Item 8: archived a grace period after its match ended (from what is stored: across a
    # restart too), reopened by a rematch; reminders and /claim work in a thread Discord
    # archived for inactivity.
    alice, bob, _ = users(fake)
    config = replace(host.config, discord=DiscordConfig(use_threads=True,
                                                        archive_after_minutes=60))
    bot = await host.start(config)
    note = await private(await fake.slash(alice, "challenge", opponent=bob, length=1))
    thread = int(re.search(r"<#(\d+)>", note)[1])  # type: ignore[index]
    (challenge,) = fake.channel_messages(thread)
    await fake.until(lambda: challenge.labels() == ["Accept", "Decline"])
    await (await fake.click(bob, challenge, "Accept")).public()
    cog: Any = bot.get_cog("ThreadsCog")
    assert await cog.archive_finished() == 0  # the match goes on
    ended = await fake.slash(bob, "forfeit", channel=thread, confirm=True)
    assert "wins the 1-point match" in (await ended.message()).text
    host.offset = timedelta(minutes=30)
    assert await cog.archive_finished() == 0  # within the grace period
    await host.stop()
    bot = await host.start(config)  # a restart loses nothing
    host.offset = timedelta(minutes=61)
    cog = bot.get_cog("ThreadsCog")
    assert await cog.archive_finished() == 1
    assert fake.guard.archived(thread)
    # A rematch typed in the archived thread opens it again.
    record = await fake.slash(alice, "rematch", channel=thread)
    rematch = await record.public()
    assert rematch.channel_id == thread and not fake.guard.archived(thread)
    await fake.until(lambda: rematch.labels() == ["Accept", "Decline"])
    board = await (await fake.click(bob, rematch, "Accept")).public()
    waiting = turn_of(board)
    assert await cog.archive_finished() == 0  # a game is on again
    # Discord archives it for inactivity: the reminder still reaches the player.
    await fake.guard.archive(thread)
    reminders: Any = bot.get_cog("ReminderCog")
    host.offset = timedelta(minutes=61 + 120)
    assert await reminders.send_reminders() == 1
    assert fake.channel_messages(thread)[-1].content.startswith(f"<@{waiting}>, it's your")
    assert not fake.guard.archived(thread)
    # Archived again, long enough for a claim: /claim works there and opens it.
    await fake.guard.archive(thread)
    host.offset = timedelta(days=3)
    claimer = fake.users[alice.id if waiting == bob.id else bob.id]
    claimed = await fake.slash(claimer, "claim", channel=thread)
    assert "claims the game" in (await claimed.message()).text
    assert not fake.guard.archived(thread)
    assert not fake.guard.refusals, fake.guard.refusals  # nothing Discord would refuse


async def test_without_manage_threads_the_thread_is_left_to_discord(fake: FakeDiscord,
                                                                    host: Host) -> None:
    alice, bob, _ = users(fake)
    await fake.guard.deny(fake.channel_id, "manage_threads")
    bot = await host.start(replace(host.config, discord=DiscordConfig(use_threads=True)))
    note = await private(await fake.slash(alice, "challenge", opponent=bob, stake=1))
    thread = int(re.search(r"<#(\d+)>", note)[1])  # type: ignore[index]
    assert fake.channels[thread]["thread_metadata"]["auto_archive_duration"] == 1440
    await (await fake.slash(alice, "cancel", channel=thread)).message()
    host.offset = timedelta(hours=2)
    cog: Any = bot.get_cog("ThreadsCog")
    assert await cog.archive_finished() == 0
    assert not fake.guard.archived(thread) and not fake.guard.refusals


async def test_a_games_thread_in_each_channel_type(fake: FakeDiscord, host: Host) -> None:
    # places.open_thread through discord.py: a public thread, an announcement thread from the
    # bot's line, a forum post with its first message; and the permissions each needs.
    text = fake.channel_id
    news = fake.guard.add("news", ANNOUNCEMENT)
    forum = fake.guard.add("games", FORUM)
    bot = await host.start()
    kinds = {}
    for channel_id in (text, news, forum):
        channel = bot.get_channel(channel_id)
        assert isinstance(channel, discord.TextChannel | discord.ForumChannel)
        assert places.missing(channel, places.bot_permissions(channel)) == []
        thread = await places.open_thread(bot, channel, "alice vs bob",
                                          starter="alice vs bob: here")
        kinds[channel_id] = fake.channels[thread.id]["type"]
        assert int(fake.channels[thread.id]["parent_id"]) == channel_id
    assert kinds == {text: PUBLIC_THREAD, news: ANNOUNCEMENT_THREAD, forum: PUBLIC_THREAD}
    assert [m.content for m in fake.messages.values()] == ["alice vs bob: here"] * 2
    forum_channel = bot.get_channel(forum)
    assert isinstance(forum_channel, discord.ForumChannel)
    assert "send_messages" in places.needs(forum_channel)
    news_channel = bot.get_channel(news)
    assert isinstance(news_channel, discord.TextChannel)
    assert {"send_messages", "create_public_threads"} <= set(places.needs(news_channel))


async def test_a_tournament_matchs_thread_closes_when_it_ends(fake: FakeDiscord,
                                                             host: Host) -> None:
    alice, bob, carol = users(fake)
    bot = await host.start()
    signup = await (await fake.slash(carol, "tournament-admin create", name="Cup",
                                     format="single-elimination", length="1")).public()
    for player in (alice, bob):
        await private(await fake.click(player, signup, "Join"))
    await (await fake.slash(carol, "tournament-admin start")).public()
    await fake.until(lambda: bool(threads(fake)) and bool(public(fake, threads(fake)[0])))
    (thread,) = threads(fake)
    assert fake.channels[thread]["thread_metadata"]["auto_archive_duration"] == 1440
    cog: Any = bot.get_cog("ThreadsCog")
    assert await cog.archive_finished() == 0  # the match goes on
    await (await fake.slash(alice, "forfeit", channel=thread, confirm=True)).message()
    host.offset = timedelta(minutes=59)
    assert await cog.archive_finished() == 0  # the grace period
    host.offset = timedelta(minutes=61)
    assert await cog.archive_finished() == 1
    assert fake.guard.archived(thread)


async def test_announcements_go_where_messages_can(fake: FakeDiscord, host: Host) -> None:
    # A forum takes no messages: it cannot be where announcements are posted (refused at
    # /settings set, saying why); an announcement channel can.
    alice, _, _ = users(fake)
    fake.guard.add("games", FORUM)
    fake.guard.add("news", ANNOUNCEMENT)
    await host.start()
    for key in ("tournament_announcements", "analysis_announcements",
                "daily_puzzle_channel"):
        refused = await private(await fake.slash(alice, "settings set", key=key,
                                                 value="#games"))
        assert "takes no messages" in refused and "Nothing was changed" in refused, refused
    done = await private(await fake.slash(alice, "settings set",
                                          key="tournament_announcements", value="#news"))
    assert "tournament_announcements" in done and "takes no messages" not in done


def invite_permissions() -> tuple[int, int]:
    """The permissions of the README's invite link: with Manage Threads, and without."""
    readme = (Path(__file__).parents[3] / "README.md").read_text()
    found = re.search(r"`permissions=(\d+)`; without Manage\s+Threads: `(\d+)`", readme)
    assert found, "the README names the invite's permissions"
    return int(found[1]), int(found[2])


async def test_the_readmes_permissions_are_enough(fake: FakeDiscord, host: Host) -> None:
    # The bot's permissions come from its role as the README's invite link grants them
    # (@everyone may only read): a game in its thread, played, ended and archived, with
    # nothing Discord would refuse.
    full, without = invite_permissions()
    assert full == without | discord.Permissions(manage_threads=True).value
    granted = discord.Permissions(full)
    assert granted == discord.Permissions(
        view_channel=True, send_messages=True, send_messages_in_threads=True,
        create_public_threads=True, embed_links=True, attach_files=True, manage_threads=True)
    everyone = discord.Permissions(view_channel=True, read_message_history=True).value
    fake.guard.bot_role(full, everyone=everyone)
    alice, bob, _ = users(fake)
    bot = await host.start(replace(host.config, discord=DiscordConfig(use_threads=True)))
    guild = bot.get_guild(fake.guild_id)
    assert guild is not None and guild.me.guild_permissions.value == full | everyone
    note = await private(await fake.slash(alice, "challenge", opponent=bob, length=1))
    thread = int(re.search(r"<#(\d+)>", note)[1])  # type: ignore[index]
    (challenge,) = fake.channel_messages(thread)
    await fake.until(lambda: challenge.labels() == ["Accept", "Decline"])
    board = await (await fake.click(bob, challenge, "Accept")).public()
    assert board.embeds and board.files
    await (await fake.slash(alice, "board", channel=thread)).message()
    await (await fake.slash(bob, "forfeit", channel=thread, confirm=True)).message()
    host.offset = timedelta(minutes=61)
    cog: Any = bot.get_cog("ThreadsCog")
    assert await cog.archive_finished() == 1
    assert not fake.guard.refusals, fake.guard.refusals


async def test_at_the_active_thread_cap_the_game_is_played_in_the_channel(
        fake: FakeDiscord, host: Host) -> None:
    alice, bob, _ = users(fake)
    fake.guard.max_active_threads = 0
    await host.start(replace(host.config, discord=DiscordConfig(use_threads=True)))
    record = await fake.slash(alice, "challenge", opponent=bob, length=3)
    challenge = await record.public()
    assert challenge.channel_id == fake.channel_id
    assert "cap on active threads" in challenge.content and "played here" in challenge.content
    await fake.until(lambda: challenge.labels() == ["Accept", "Decline"])
    board = await (await fake.click(bob, challenge, "Accept")).public()
    assert board.channel_id == fake.channel_id and board.embeds


async def test_a_server_chooses_how_long_a_finished_games_thread_stays_open(
        fake: FakeDiscord, host: Host) -> None:
    """``/settings set archive_after_minutes``: 0 keeps the server's finished threads open
    (two days on, nothing archived); 10 minutes closes them 10 minutes after the match,
    where the operator's default is an hour."""
    alice, bob, _ = users(fake)
    config = replace(host.config, discord=DiscordConfig(use_threads=True,
                                                        archive_after_minutes=60))
    bot = await host.start(config)
    admin = fake.user("admin")
    said = await private(await fake.slash(admin, "settings set", key="archive_after_minutes",
                                          value="0"))
    assert "archive_after_minutes" in said and "never" in said
    note = await private(await fake.slash(alice, "challenge", opponent=bob, length=1))
    thread = int(re.search(r"<#(\d+)>", note)[1])  # type: ignore[index]
    (challenge,) = fake.channel_messages(thread)
    await fake.until(lambda: challenge.labels() == ["Accept", "Decline"])
    await (await fake.click(bob, challenge, "Accept")).public()
    ended = await fake.slash(bob, "forfeit", channel=thread, confirm=True)
    assert "wins the 1-point match" in (await ended.message()).text
    cog: Any = bot.get_cog("ThreadsCog")
    host.offset = timedelta(days=2)
    assert await cog.archive_finished() == 0 and not fake.guard.archived(thread)
    host.offset = timedelta(0)
    said = await private(await fake.slash(admin, "settings set", key="archive_after_minutes",
                                          value="10"))
    assert "10 minutes" in said
    host.offset = timedelta(minutes=5)
    assert await cog.archive_finished() == 0
    host.offset = timedelta(minutes=11)
    assert await cog.archive_finished() == 1 and fake.guard.archived(thread)


async def test_answers_in_an_archived_thread_and_in_one_a_moderator_locked(
        fake: FakeDiscord, host: Host, logs: Any) -> None:
    """An answer in a thread Discord archived unarchives it (as any message does).  In a
    thread a moderator locked and archived Discord refuses every answer (400/50083,
    discord-api-docs issue 5517), so the bot does nothing there: a command or a button
    pressed on a phone changes nothing, and nothing is logged as an error."""
    import asyncio

    alice, bob, _ = users(fake)
    bot = await host.start(replace(host.config, discord=DiscordConfig(use_threads=True)))
    note = await private(await fake.slash(alice, "challenge", opponent=bob, length=1))
    thread = int(re.search(r"<#(\d+)>", note)[1])  # type: ignore[index]
    (challenge,) = fake.channel_messages(thread)
    await fake.until(lambda: challenge.labels() == ["Accept", "Decline"])
    board = await (await fake.click(bob, challenge, "Accept")).public()
    await fake.guard.archive(thread)
    looked = await (await fake.slash(alice, "board", channel=thread)).public()
    assert looked.channel_id == thread and not fake.guard.archived(thread)
    assert host.storage is not None

    async def version() -> tuple[int, str]:
        async with host.storage.snapshot() as tx:  # type: ignore[union-attr]
            row = await tx.latest_match_in_channel(thread)
            assert row is not None
            return row.version, row.status.value

    before = await version()
    await fake.guard.archive(thread, locked=True)
    record = await fake.slash(alice, "board", channel=thread)
    for _ in range(250):  # (the bot sends nothing: poll its log)
        if "not answering board" in logs.text():
            break
        await asyncio.sleep(0.02)
    assert "not answering board" in logs.text()
    mover = alice if turn_of(board) == alice.id else bob
    label = next(b for b in board.labels() if mover.id in button_users(board, b))
    pressed = await fake.click(mover, board, label)
    await asyncio.sleep(0.3)  # (time for the press to be handled: it must do nothing)
    assert record.callbacks == [] and pressed.callbacks == []
    assert await version() == before and fake.guard.archived(thread)
    assert bot.is_ready() and fake.refusals == []

"""Tournament pairings are never stranded by a missing permission (issue 29 item 6),
through the real discord.py client against the fake Discord's strict channels: the
permissions a tournament needs are checked at /tournament create and before each pairing's
thread, the organiser is told exactly which one is missing (once), nothing is half made,
and the pairing opens once the permission is granted."""

from __future__ import annotations

from datetime import timedelta

from discord_e2e import Host, private, users
from fake_channels import ANNOUNCEMENT, ANNOUNCEMENT_THREAD, FORUM, THREADS
from fake_discord import FakeDiscord, Message, User


def threads(fake: FakeDiscord) -> list[int]:
    return [cid for cid, c in fake.channels.items() if c["type"] in THREADS]


def public(fake: FakeDiscord, channel: int) -> list[Message]:
    return [m for m in fake.channel_messages(channel) if not m.ephemeral]


async def signed_up(fake: FakeDiscord, organiser: User, *players: User) -> None:
    record = await fake.slash(organiser, "tournament-admin create", name="Cup",
                              format="single-elimination", length="1")
    signup = await record.public()
    for player in players:
        await private(await fake.click(player, signup, "Join"))


async def test_create_names_the_missing_permission(fake: FakeDiscord, host: Host) -> None:
    alice, _, _ = users(fake)
    await fake.guard.deny(fake.channel_id, "send_messages_in_threads")
    await host.start()
    record = await fake.slash(alice, "tournament-admin create", name="Cup",
                              format="single-elimination")
    text = await private(record)
    assert "missing the Send Messages in Threads permission" in text
    assert "Nothing was created" in text
    assert public(fake, fake.channel_id) == []  # no sign-up message
    listed = await fake.slash(alice, "tournament list")
    await listed.message()
    assert "Cup" not in listed.messages[0].text


async def test_a_pairing_waits_for_its_permission_and_the_organiser_is_told(
        fake: FakeDiscord, host: Host) -> None:
    alice, bob, carol = users(fake)
    bot = await host.start()
    await signed_up(fake, carol, alice, bob)
    await fake.guard.deny(fake.channel_id, "send_messages_in_threads")
    started = await (await fake.slash(carol, "tournament-admin start")).public()
    assert "round 1 is paired" in started.content

    def told() -> list[Message]:
        return [m for m in public(fake, fake.channel_id)
                if m.content.startswith(f"<@{carol.id}>: I can't open the match")]

    await fake.until(lambda: bool(told()))
    (note,) = told()
    assert "missing the Send Messages in Threads permission" in note.content
    assert "try again every 5 minutes" in note.content
    assert threads(fake) == []  # nothing half made: no thread without its board
    # Granted: the pairing is offered again (after the retry time) and opens, board and all.
    await fake.guard.allow_all(fake.channel_id)
    host.offset = timedelta(minutes=6)
    bot.service.tournament_play.wake()
    await fake.until(lambda: bool(threads(fake)) and bool(public(fake, threads(fake)[0])))
    (thread,) = threads(fake)
    board = public(fake, thread)[0]
    assert board.embeds and board.files and f"<@{alice.id}>" in board.content
    await fake.until(lambda: any("the match is on in" in m.content
                                 for m in public(fake, fake.channel_id)))
    assert len(told()) == 1  # told once


async def test_the_thread_cap_is_told_not_retried_silently(fake: FakeDiscord,
                                                          host: Host) -> None:
    alice, bob, carol = users(fake)
    await host.start()
    await signed_up(fake, carol, alice, bob)
    fake.guard.max_active_threads = 0
    await (await fake.slash(carol, "tournament-admin start")).public()
    await fake.until(lambda: any("cap on active threads" in m.content
                                 for m in public(fake, fake.channel_id)))
    assert threads(fake) == []


async def test_a_match_whose_board_cannot_be_posted_is_not_stranded(fake: FakeDiscord,
                                                                    host: Host) -> None:
    # The permission goes between the check and the post (the bot's cache lags behind):
    # the match is on, so the announcement says so and sends the players to /board in its
    # thread once it is granted, and the organiser is told what is missing.
    alice, bob, carol = users(fake)
    await host.start()
    await signed_up(fake, carol, alice, bob)
    await fake.guard.deny(fake.channel_id, "send_messages_in_threads", unseen=True)
    await (await fake.slash(carol, "tournament-admin start")).public()
    await fake.until(lambda: any("type /board in the thread" in m.content
                                 for m in public(fake, fake.channel_id)))
    (thread,) = threads(fake)
    (line,) = [m for m in public(fake, fake.channel_id) if "type /board" in m.content]
    assert f"<#{thread}>" in line.content and f"<@{alice.id}>" in line.content
    await fake.until(lambda: any(m.content.startswith(f"<@{carol.id}>: the match")
                                 for m in public(fake, fake.channel_id)))
    await fake.guard.allow_all(fake.channel_id)  # granted
    board = await (await fake.slash(alice, "board", channel=thread)).public()
    assert board.channel_id == thread and board.embeds


async def test_where_a_tournament_can_run(fake: FakeDiscord, host: Host) -> None:
    # Issue 29 item 7: an announcement channel holds its matches' threads (announcement
    # threads, each from the bot's line); a thread or a forum's post cannot, and says so.
    alice, bob, carol = users(fake)
    news = fake.guard.add("news", ANNOUNCEMENT)
    forum = fake.guard.add("games", FORUM)
    post = fake.guard.add_post(forum, "cup talk", carol.id)
    await host.start()
    refused = await fake.slash(carol, "tournament-admin create", name="Cup",
                               format="single-elimination", channel=post)
    assert "text or announcement channel" in await private(refused)
    signup = await (await fake.slash(carol, "tournament-admin create", name="Cup",
                                     format="single-elimination", length="1",
                                     channel=news)).public()
    for player in (alice, bob):
        await private(await fake.click(player, signup, "Join"))
    await (await fake.slash(carol, "tournament-admin start", channel=news)).public()
    await fake.until(lambda: any(t != post for t in threads(fake)))
    (thread,) = [t for t in threads(fake) if t != post]
    assert fake.channels[thread]["type"] == ANNOUNCEMENT_THREAD
    assert fake.messages[thread].channel_id == news  # started from the bot's line
    await fake.until(lambda: bool(public(fake, thread)))
    assert public(fake, thread)[0].embeds

"""End to end (the real discord.py client against the fake Discord): buttons that outlive
their use are taken off.  The tournament's sign-up message loses Join/Leave when the
tournament starts (or is cancelled) and says so; a challenge's message in its thread loses
Accept/Decline however the challenge is answered — typed in the channel of the thread,
typed in the thread, or pressed — and so does a challenge posted in the channel itself
(threads off), after a restart too.  A client still showing the old buttons is refused as
before; a message deleted meanwhile costs nothing but a log line."""

from __future__ import annotations

import copy
import re
from dataclasses import replace

import pytest
from discord_e2e import (
    Capture,
    Host,
    assert_board_message,
    posted_challenge,
    private,
    start_game,
    users,
)
from fake_discord import FakeDiscord, Message, User

from bot.config import DiscordConfig

pytestmark = pytest.mark.e2e


async def signup_with(fake: FakeDiscord, organiser: User, players: list[User]) -> Message:
    record = await fake.slash(organiser, "tournament-admin create", name="Club cup",
                              format="single-elimination", length="1")
    signup = await record.public()
    assert signup.labels() == ["Join", "Leave"]
    for user in players:
        assert "joins #1 Club cup" in await private(await fake.click(user, signup, "Join"))
    return signup


async def test_the_start_takes_the_signup_buttons_off(fake: FakeDiscord, host: Host) -> None:
    alice, bob, carol = users(fake)
    await host.start()
    signup = await signup_with(fake, alice, [alice, bob, carol])
    old_client = copy.deepcopy(signup)  # what a client that did not refresh still shows
    started = await (await fake.slash(alice, "tournament-admin start")).public()
    assert "starts with 3 players" in started.content
    await fake.until(lambda: signup.components == [])
    assert signup.content.startswith("Sign-up closed: #1 Club cup started with 3 players.\n")
    assert "Signed up: 3: alice, bob, carol." in signup.content
    assert "Join with /tournament join" not in signup.content
    # The stale button itself is still refused, saying why.
    pressed = await fake.click(carol, old_client, "Leave")
    assert "can no longer leave" in await private(pressed)
    pressed = await fake.click(fake.user("dave"), old_client, "Join")
    assert "already started" in await private(pressed)


async def test_a_cancellation_takes_the_signup_buttons_off(fake: FakeDiscord,
                                                            host: Host) -> None:
    alice, bob, _ = users(fake)
    await host.start()
    signup = await signup_with(fake, alice, [bob])
    cancelled = await (await fake.slash(alice, "tournament-admin cancel")).public()
    assert "is cancelled" in cancelled.content
    await fake.until(lambda: signup.components == [])
    assert signup.content.startswith(
        "Sign-up closed: the tournament was cancelled before it started.\n")


async def test_a_deleted_signup_message_does_not_stop_the_start(
        fake: FakeDiscord, host: Host, logs: Capture) -> None:
    alice, bob, _ = users(fake)
    await host.start()
    signup = await signup_with(fake, alice, [alice, bob])
    del fake.messages[signup.id]  # an organiser tidied the channel
    started = await (await fake.slash(alice, "tournament-admin start")).public()
    assert "starts with 2 players" in started.content
    await fake.until(lambda: any(c.get("type") == 11 for c in fake.channels.values()))
    assert f"could not retire the buttons of message {signup.id}" in logs.text()


async def challenge_in_thread(fake: FakeDiscord, host: Host, alice: User,
                              bob: User) -> tuple[Message, int]:
    """alice challenges bob: the challenge's message in its thread, and the thread."""
    await host.start(replace(host.config, discord=DiscordConfig(use_threads=True)))
    note = await private(await fake.slash(alice, "challenge", opponent=bob, length=3))
    thread_id = int(re.search(r"<#(\d+)>", note)[1])  # type: ignore[index]
    (challenge,) = fake.channel_messages(thread_id)
    assert bob.mention in challenge.content
    assert challenge.labels() == ["Accept", "Decline"]
    return challenge, thread_id


async def test_accept_typed_in_the_parent_takes_the_challenge_buttons_off(
        fake: FakeDiscord, host: Host) -> None:
    alice, bob, _ = users(fake)
    challenge, thread_id = await challenge_in_thread(fake, host, alice, bob)
    old_client = copy.deepcopy(challenge)
    record = await fake.slash(bob, "accept")  # in the parent channel
    assert await private(record) == f"Done in <#{thread_id}>."
    await fake.until(lambda: challenge.components == [])
    assert "alice challenges bob" in challenge.content  # the text stays
    board = fake.channel_messages(thread_id)[-1]
    assert_board_message(board)
    assert "to play" in board.content
    # A client still showing the old Accept: refused, and nothing changes.
    pressed = await fake.click(bob, old_client, "Accept")
    assert "no challenge waiting" in await private(pressed)
    assert challenge.components == []


async def test_accept_typed_in_the_thread_takes_the_challenge_buttons_off(
        fake: FakeDiscord, host: Host) -> None:
    alice, bob, _ = users(fake)
    challenge, thread_id = await challenge_in_thread(fake, host, alice, bob)
    board = await (await fake.slash(bob, "accept", channel=thread_id)).public()
    assert_board_message(board)
    assert board.channel_id == thread_id
    await fake.until(lambda: challenge.components == [])
    assert "alice challenges bob" in challenge.content


async def test_accept_pressed_takes_the_challenge_buttons_off(fake: FakeDiscord,
                                                              host: Host) -> None:
    alice, bob, _ = users(fake)
    challenge, thread_id = await challenge_in_thread(fake, host, alice, bob)
    pressed = await fake.click(bob, challenge, "Accept")
    assert await pressed.acknowledged() == 7  # the pressed message loses its buttons
    board = await pressed.public()
    assert_board_message(board)
    assert board.channel_id == thread_id
    assert challenge.components == []


async def test_decline_typed_in_the_parent_takes_the_challenge_buttons_off(
        fake: FakeDiscord, host: Host) -> None:
    alice, bob, _ = users(fake)
    challenge, _ = await challenge_in_thread(fake, host, alice, bob)
    record = await fake.slash(bob, "decline")
    assert "Done in" in await private(record)
    await fake.until(lambda: challenge.components == [])


async def challenge_in_channel(fake: FakeDiscord, alice: User, bob: User) -> Message:
    """alice challenges bob with threads off: the challenge's message in the channel."""
    record = await fake.slash(alice, "challenge", opponent=bob, length=3)
    challenge = await posted_challenge(fake, record)
    assert bob.mention in challenge.content
    return challenge


async def test_a_challenge_in_the_channel_loses_its_buttons_after_a_restart(
        fake: FakeDiscord, host: Host) -> None:
    alice, bob, _ = users(fake)
    await host.start()  # threads off
    challenge = await challenge_in_channel(fake, alice, bob)
    old_client = copy.deepcopy(challenge)
    await host.stop()
    await host.start()  # a new process knows the message only from the database
    board = await (await fake.slash(bob, "accept")).public()
    assert_board_message(board)
    await fake.until(lambda: challenge.components == [])
    assert "alice challenges bob" in challenge.content
    pressed = await fake.click(bob, old_client, "Accept")
    assert "no challenge waiting" in await private(pressed)


async def test_a_challenge_in_the_channel_withdrawn_loses_its_buttons(
        fake: FakeDiscord, host: Host) -> None:
    alice, bob, _ = users(fake)
    await host.start()
    challenge = await challenge_in_channel(fake, alice, bob)
    await (await fake.slash(alice, "cancel")).public()
    await fake.until(lambda: challenge.components == [])


async def test_a_challenge_in_the_channel_accepted_by_its_button(fake: FakeDiscord,
                                                                 host: Host) -> None:
    alice, bob, _ = users(fake)
    await host.start()
    challenge = await challenge_in_channel(fake, alice, bob)
    pressed = await fake.click(bob, challenge, "Accept")  # the noted version's button
    assert await pressed.acknowledged() == 7
    assert_board_message(await pressed.public())
    assert challenge.components == []


async def test_a_rematch_challenge_loses_its_buttons_after_a_restart(fake: FakeDiscord,
                                                                     host: Host) -> None:
    alice, bob, _ = users(fake)
    await host.start()
    await start_game(fake, alice, bob, length=3)
    ended = await (await fake.slash(bob, "forfeit", confirm=True)).public()
    again = await posted_challenge(fake, await fake.click(bob, ended, "Rematch"))
    assert "bob challenges alice" in again.content
    await host.stop()
    await host.start()
    board = await (await fake.slash(alice, "accept")).public()
    assert_board_message(board)
    await fake.until(lambda: again.components == [])

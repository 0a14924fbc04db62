"""A match lost on time, end to end through the fake Discord (issue 44 items 4, 6, 7):
the ``clock`` option of /challenge, the countdown in Discord's relative timestamp markup
on every board, and the fall posted by the timer within a second, with nobody acting."""

from __future__ import annotations

import re
import time

from discord_e2e import Host, assert_board_message, private, start_game, users
from fake_discord import FakeDiscord


async def test_a_match_lost_on_time(fake: FakeDiscord, host: Host) -> None:
    alice, bob, _ = users(fake)
    await host.start()
    board = await start_game(fake, alice, bob, length=1, clock="0s+2s/pt")  # type: ignore[arg-type]
    started = time.monotonic()
    # Both clocks on the board's text, and the countdown to the flag (no edits needed).
    assert re.search(r"Clock: alice 0:0[12], bob 0:02\. <@\d+>: 0 s delay, then the "
                     r"reserve; the flag falls <t:\d{10}:R>\.", board.content), board.content
    waiting = int(re.findall(r"<@(\d+)>: 0 s delay", board.content)[0])
    loser, winner = ("alice", "bob") if waiting == alice.id else ("bob", "alice")

    def fell() -> bool:
        return any("time ran out" in m.text for m in fake.channel_messages(fake.channel_id))

    await fake.until(fell, timeout=6)
    elapsed = time.monotonic() - started
    assert elapsed < 2 + 1.5, elapsed  # the reserve, the first beat, then within a second
    (post,) = [m for m in fake.channel_messages(fake.channel_id)
               if "time ran out" in m.text]
    assert f"{loser}'s time ran out." in post.text
    assert f"{winner} wins the match on time." in post.text
    assert_board_message(post)  # the final board, with the clocks
    assert "Clock: alice " in post.text
    refused = await fake.slash(bob, "roll")  # the match is over
    assert "no game" in (await refused.message()).text.lower()


async def test_an_open_challenge_pressed_by_two_at_once(fake: FakeDiscord, host: Host) -> None:
    alice, bob, carol = users(fake)
    await host.start()
    record = await fake.slash(alice, "challenge", length=1)  # no opponent: an open challenge
    challenge = await record.public()
    await fake.until(lambda: challenge.labels() == ["Accept", "Withdraw"])
    assert "alice posts an open challenge: a 1-point match" in challenge.text
    assert re.search(r"Anyone but alice may press Accept; it expires <t:\d{10}:R>",
                     challenge.text), challenge.text
    mine = await fake.click(alice, challenge, "Accept")  # not the challenger
    assert "You posted this open challenge" in await private(mine)
    first = await fake.click(bob, challenge, "Accept")  # two presses at the same moment
    second = await fake.click(carol, challenge, "Accept")
    kinds = [await first.acknowledged(), await second.acknowledged()]
    assert sorted(kinds) == [4, 7], kinds  # one takes it (the message updated), one is told
    won, lost = (first, second) if kinds[0] == 7 else (second, first)
    taker, other = ("bob", "carol") if won is first else ("carol", "bob")
    assert_board_message(await won.public())
    assert f"{taker} accepted alice's challenge first" in await private(lost)
    assert challenge.components == []
    await fake.until(lambda: "taken by" in challenge.text)
    assert f"alice's open challenge was taken by {taker}" in challenge.text
    assert other not in challenge.text


async def test_a_queue_pairing(fake: FakeDiscord, host: Host) -> None:
    alice, bob, carol = users(fake)
    await host.start()
    joined = await fake.slash(alice, "queue join", length=1)
    assert "You are in the queue for a 1-point match of standard" in await private(joined)
    lobby = await fake.slash(carol, "lobby")
    assert "1 player waits in the queue" in await private(lobby)
    await fake.slash(bob, "queue join", length=1)

    def paired() -> bool:
        return any("Paired from the queue" in m.text
                   for m in fake.channel_messages(fake.channel_id))

    await fake.until(paired, timeout=5)
    (post,) = [m for m in fake.channel_messages(fake.channel_id)
               if "Paired from the queue" in m.text]
    assert f"<@{alice.id}> (1500) and <@{bob.id}> (1500)" in post.text
    assert "bob accepts." in post.text
    assert_board_message(post)
    left = await fake.slash(alice, "queue leave")
    assert "You are not in the queue" in await private(left)

"""End to end: a tournament through the real discord.py client against the fake Discord —
/tournament create with its public sign-up message, the Join/Leave buttons updating the
count, the start, a thread per pairing with both players mentioned and the match on, a
finished match advancing the bracket (the next round's thread opens by itself), and the
bracket PNG read back."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from discord_e2e import Capture, Host, private, users
from fake_discord import FakeDiscord, Message
from PIL import Image

from bot.service.core import fairdice

pytestmark = pytest.mark.e2e


def thread_boards(fake: FakeDiscord) -> list[Message]:
    """The first message of each pairing thread (its opening board), oldest first."""
    threads = [cid for cid, c in fake.channels.items() if c.get("type") == 11]
    out = []
    for cid in threads:
        messages = fake.channel_messages(cid)
        if messages:
            out.append(messages[0])
    return out


async def test_a_tournament_from_signup_to_the_bracket(fake: FakeDiscord, tmp_path: Path,
                                                       logs: Capture) -> None:
    alice, bob, carol = users(fake)
    host = Host(fake, tmp_path, fairdice.SeededDice)
    await host.start()
    try:
        synced = {c["name"]: c for c in fake.syncs[0][1]}
        subs = {o["name"] for o in synced["tournament"]["options"]}
        assert subs == {"join", "leave", "status", "list", "bracket", "claim"}
        admin = {o["name"] for o in synced["tournament-admin"]["options"]}
        assert admin == {"create", "start", "result", "confirm", "remove", "cancel", "pause",
                         "resume"}

        record = await fake.slash(alice, "tournament-admin create", name="Club cup",
                                  format="single-elimination", length="1")
        signup = await record.public()
        assert "Tournament #1 Club cup: Single elimination" in signup.content
        assert signup.labels() == ["Join", "Leave"]
        assert "Signed up: 0." in signup.content

        # ----------------------------------------------------------- sign-up buttons
        for user in (alice, bob, carol):
            pressed = await fake.click(user, signup, "Join")
            assert "joins #1 Club cup" in await private(pressed)
        await fake.until(lambda: "Signed up: 3: alice, bob, carol." in signup.content)
        again = await fake.click(bob, signup, "Join")
        assert "already signed up" in await private(again)
        left = await fake.click(carol, signup, "Leave")
        assert "leaves #1 Club cup" in await private(left)
        await fake.until(lambda: "Signed up: 2: alice, bob." in signup.content)
        back = await fake.click(carol, signup, "Join")
        assert "3 signed up" in await private(back)

        # ------------------------------------------------------------------ start
        record = await fake.slash(alice, "tournament-admin start")
        started = await record.public()
        assert "starts with 3 players" in started.content
        assert "round 1 is paired" in started.content and "has a bye" in started.content
        await fake.until(lambda: len(thread_boards(fake)) == 1)
        (first,) = thread_boards(fake)
        players = {int(x) for x in re.findall(r"<@(\d+)>", first.content)}
        assert len(players) == 2 and players <= {alice.id, bob.id, carol.id}
        assert "1-point match, rated" in first.text and first.embeds  # the board is on

        # ------------------------------------------- a finished match advances it
        loser = fake.users[max(players)]
        record = await fake.slash(loser, "forfeit", channel=first.channel_id, confirm=True)
        ended = await record.public()
        assert "round 2 is paired" in ended.text
        await fake.until(lambda: len(thread_boards(fake)) == 2)
        final = thread_boards(fake)[1]
        assert "R2-1" in fake.channels[final.channel_id]["name"]
        assert len(set(re.findall(r"<@(\d+)>", final.content))) == 2

        # ---------------------------------------------------------------- bracket
        record = await fake.slash(carol, "tournament bracket")
        picture = await record.public()
        assert "the bracket during round 2" in picture.content  # issue 30 item 10
        assert list(picture.files) == ["bracket.png"]
        image = Image.open(io.BytesIO(picture.files["bracket.png"]))
        image.load()
        assert image.format == "PNG" and image.width > 300 and image.height > 100
        status = await (await fake.slash(bob, "tournament status")).public()
        assert "Round 2 of 2" in status.content
        refused = await fake.slash(bob, "tournament leave")
        assert "can no longer leave" in await private(refused)
        assert "Traceback" not in logs.text()
    finally:
        await host.stop()

"""The first answer after a deferred response edits the original response (issue 43 item
1), through the real discord.py client against the fake Discord.

Discord's docs (interactions/receiving-and-responding.md, "Create Followup Message"): a
follow-up sent right after a DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE (5) "will function as Edit
Original Interaction Response for backwards compatibility".  The documented way is
``PATCH /webhooks/{app}/{token}/messages/@original``; follow-ups are for what comes after.
The fake records a follow-up used as a first answer (:attr:`FakeDiscord.hygiene`) and the
end-to-end fixture fails on it, in every end-to-end test (boards, commands, buttons)."""

from __future__ import annotations

import logging

import aiohttp
import discord
import pytest
from discord_e2e import (
    Capture,
    Host,
    Script,
    assert_board_message,
    button_users,
    start_game,
    users,
)
from fake_discord import EPHEMERAL, FakeDiscord
from slow_storage import SlowStorage, slow_storage


async def test_a_public_thinking_becomes_the_board(fake: FakeDiscord, host: Host) -> None:
    alice, bob, _ = users(fake)
    await host.start()
    await start_game(fake, alice, bob, length=3)
    record = await fake.slash(bob, "board")
    assert await record.acknowledged() == 5  # a public "thinking..." (a picture to come)
    board = await record.public()
    assert record.original is board and not board.loading
    assert_board_message(board)  # public, with its picture
    assert record.messages == [board]  # one message: the placeholder became the board
    assert fake.hygiene == []


async def test_a_private_thinking_becomes_the_refusal(fake: FakeDiscord, host: Host) -> None:
    alice, _, _ = users(fake)
    host.storage_factory = slow_storage(fake)
    bot = await host.start()
    storage = host.storage
    assert isinstance(storage, SlowStorage)
    bot.presenter.defer_after = 0.1
    storage.slow = True
    record = await fake.slash(alice, "accept")  # nothing to accept here
    assert await record.acknowledged() == 5
    refusal = await record.message()
    assert refusal.flags & EPHEMERAL and "challenge" in refusal.text.lower()
    assert record.original is refusal and record.messages == [refusal]
    assert fake.hygiene == []


async def test_the_fake_records_a_follow_up_used_as_the_first_answer(
        fake: FakeDiscord) -> None:
    record = fake.pending(fake.user("alice"))
    async with aiohttp.ClientSession() as session:
        url = f"{fake.api}/interactions/{record.id}/{record.token}/callback"
        async with session.post(url, json={"type": 5}) as answer:
            assert answer.status == 200
        webhook = discord.Webhook.partial(fake.app_id, record.token, session=session)
        await webhook.send("the board", wait=True)  # (Discord takes it, as an edit)
    assert record.original is not None and record.original.content == "the board"
    assert [h for h in fake.hygiene if "a follow-up as the first answer" in h]
    fake.hygiene.clear()  # (what this test is about: the fixture would fail on it)


async def test_the_builder_s_thinking_becomes_the_apology_when_drawing_fails(
        fake: FakeDiscord, host: Host, logs: Capture, monkeypatch: pytest.MonkeyPatch) -> None:
    """Play on the board defers privately (the builder's picture takes a moment), then its
    picture cannot be drawn: the apology edits that private "thinking..." (PATCH
    @original), as every other first answer after a defer does, instead of replacing it
    with a follow-up (which the fake records, and the fixture fails on)."""
    alice, bob, _ = users(fake)
    host.dice = Script([6, 1, 3, 1])
    bot = await host.start()
    board = await start_game(fake, alice, bob, length=3)
    assert button_users(board, "Play") == [alice.id]

    async def broken(*args: object, **kwargs: object) -> list[bytes]:
        raise RuntimeError("the renderer caught fire")

    with monkeypatch.context() as patched:
        patched.setattr(bot.presenter.renderer, "pngs", broken)
        record = await fake.click(alice, board, "Play")
        assert await record.acknowledged() == 5  # the builder's private "thinking..."
        apology = await record.message()
    assert apology.ephemeral and "went wrong" in apology.text, apology.text
    assert "Traceback" not in apology.text
    assert record.original is apology and record.messages == [apology]
    assert fake.hygiene == [], fake.hygiene  # (the fixture would say so too)
    errors = [r for r in logs.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and "the renderer caught fire" in logs.format(errors[0])
    logs.records.remove(errors[0])  # expected: the fixture fails on any other error
    builder = await (await fake.click(alice, board, "Play")).message()  # drawn again now
    assert builder.ephemeral and builder.menus()

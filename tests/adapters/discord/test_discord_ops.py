"""The Discord bot for the operator (issue 34, item 3): an unexpected error's apology carries
the reference that its log line has."""

from __future__ import annotations

import logging
import re

import pytest
from discord_e2e import Capture, Host, private, start_game, users
from fake_discord import FakeDiscord


async def test_the_apology_quotes_the_reference_of_the_logged_error(
        fake: FakeDiscord, host: Host, logs: Capture, monkeypatch: pytest.MonkeyPatch) -> None:
    alice, bob, _ = users(fake)
    bot = await host.start()
    await start_game(fake, alice, bob, stake=1)

    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the database caught fire")

    monkeypatch.setattr(bot.service.watch, "board", broken)
    text = await private(await fake.slash(alice, "board"))
    shown = re.search(r"error ([0-9a-f]{8})", text)
    assert shown and "Sorry, something went wrong" in text, text
    errors = [r for r in logs.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and shown[1] in errors[0].getMessage()
    assert getattr(errors[0], "error_ref", None) == shown[1]
    logs.records.remove(errors[0])  # expected: the fixture fails on any other error

"""Issue 42 item 12: ``/verify 99999999999999999999999`` is refused as too large (it
echoed the number cut to 20 digits, as if that were what was typed)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from scripted import opened

from bot.adapters.console import Console
from bot.config import Config
from bot.service.core.values import Actor, Place
from bot.service.game import GameService

BIG = "99999999999999999999999"


@pytest.mark.parametrize("command", ["verify", "history"])
async def test_a_game_number_with_too_many_digits_is_too_large(tmp_path: Path,
                                                                command: str) -> None:
    storage = await opened(tmp_path / "c.sqlite3")
    out = io.StringIO()
    console = Console(GameService(storage, Config()), tmp_path / "boards", out=out)  # type: ignore[arg-type]
    assert await console.handle(f"alice: /{command} {BIG}")
    text = out.getvalue()
    assert "too large" in text, text
    assert BIG[:20] + "'" not in text and BIG[:20] + "." not in text


async def test_the_service_says_a_number_beyond_every_game_is_too_large(
        tmp_path: Path) -> None:
    storage = await opened(tmp_path / "bg.sqlite3")
    service = GameService(storage, Config())  # type: ignore[arg-type]
    refused = await service.verify(Place(7, 70), Actor(1, "alice"), 10 ** 22)
    assert not refused.ok
    assert refused.text.startswith("That game number is too large: games are numbered from "
                                   "1 to at most 1,000,000"), refused.text

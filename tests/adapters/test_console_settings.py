"""The console's /settings (issue 29 item 11): everyone may change them there; channels and
roles by name; the server's values reach /challenge and /rules."""

from __future__ import annotations

import io
from pathlib import Path

from scripted import Script, opened

from bot.adapters.console import Console
from bot.config import Config, GameConfig
from bot.service.game import GameService


async def console(tmp_path: Path) -> tuple[Console, io.StringIO]:
    storage = await opened(tmp_path / "c.sqlite3")
    out = io.StringIO()
    service = GameService(storage, Config(game=GameConfig(variant="french")),
                          dice=Script([3, 1]))
    return Console(service, tmp_path / "boards", out=out), out


async def run(console: Console, out: io.StringIO, line: str) -> str:
    out.seek(0)
    out.truncate()
    assert await console.handle(line)
    return out.getvalue()


async def test_settings_in_the_console(tmp_path: Path) -> None:
    c, out = await console(tmp_path)
    shown = await run(c, out, "alice: /settings")
    assert "variant: french (default)" in shown and "game_channels: all channels" in shown
    assert await run(c, out, "alice: /settings set variant russian") == (
        "variant: french → russian\n")
    assert await run(c, out, "alice: /settings set game_channels #lobby, #games") == (
        "game_channels: all channels → #lobby, #games\n")
    assert await run(c, out, "alice: /settings set organiser_role @TD") == (
        "organiser_role: none (only members with Manage Server) → @TD\n")
    refused = await run(c, out, "alice: /settings set threads sometimes")
    assert refused == ("  (only you see this) threads must be on or off, not 'sometimes'. "
                       "Nothing was changed.\n")
    refused = await run(c, out, "alice: /challenge @bob length=3")
    assert refused == ("  (only you see this) Games don't start in this channel on this "
                       "server: nothing was started.\n"
                       "  (only you see this) Games start in #lobby, #games.\n")
    await run(c, out, "/channel lobby")
    assert "russian" in (await run(c, out, "bob: /rules")).lower()
    started = await run(c, out, "alice: /challenge @bob length=3")
    assert "alice challenges bob to a 3-point match of Russian backgammon" in started
    assert await run(c, out, "alice: /settings reset variant") == (
        "variant: russian → french (the operator's default)\n")
    usage = await run(c, out, "alice: /settings set threads")
    assert "/settings set KEY VALUE" in usage

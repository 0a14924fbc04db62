"""The console's /history, /export [mat|sgf] and /verify N (issue 19 items 6, 11;
issue 22 item 4)."""

from __future__ import annotations

import io
from pathlib import Path

from scripted import Script, opened

from bot.adapters.console import Console
from bot.config import Config
from bot.service.game import GameService


async def console_at(tmp_path: Path, dice: list[int]) -> tuple[Console, io.StringIO]:
    storage = await opened(tmp_path / "c.sqlite3")
    out = io.StringIO()
    service = GameService(storage, Config(), dice=Script(dice))  # type: ignore[arg-type]
    return Console(service, tmp_path / "boards", out=out), out


async def test_history_and_export_formats_in_the_console(tmp_path: Path) -> None:
    console, out = await console_at(tmp_path, [3, 1, 5, 2])
    for line in ("alice: /challenge @bob length=3", "bob: /accept", "/move 8/5 6/5",
                 "/roll", "/move 13/8 13/11"):
        assert await console.handle(line)
    start = len(out.getvalue())
    assert await console.handle("carol: /history")
    shown = out.getvalue()[start:]
    assert "Game 1: alice (white) against bob (black), 3-point match" in shown
    assert "alice 31: 8/5 6/5" in shown and "bob 52: " in shown
    assert await console.handle("carol: /export sgf")
    assert await console.handle("carol: /export format=mat")
    written = sorted(p.name for p in (tmp_path / "boards").glob("bgbot-match-*"))
    assert [Path(n).suffix for n in written] == [".mat", ".sgf"]
    sgf = next((tmp_path / "boards").glob("*.sgf")).read_text()
    assert sgf.startswith("(;FF[4]GM[6]") and "RU[" in sgf
    start = len(out.getvalue())
    assert await console.handle("carol: /export pdf")
    assert "(only you see this) Export formats: mat or sgf" in out.getvalue()[start:]
    start = len(out.getvalue())
    assert await console.handle("carol: /history two")
    assert "(only you see this) /history [game number]" in out.getvalue()[start:]
    start = len(out.getvalue())
    assert await console.handle("carol: /verify 1")
    assert "Game 1 is still being played" in out.getvalue()[start:]


async def test_rules_in_the_console_are_the_channel_s(tmp_path: Path) -> None:
    console, out = await console_at(tmp_path, [3, 1])
    assert await console.handle("alice: /challenge @bob stake=1 higher_die=free")
    start = len(out.getvalue())
    assert await console.handle("/rules")
    shown = out.getvalue()[start:]
    assert "the rules of the money play at 1 a point challenged here" in shown
    assert "play either (Boyden 1930, ch.3 V)" in shown and "Crawford" not in shown

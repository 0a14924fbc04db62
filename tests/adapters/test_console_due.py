"""Issue 42 item 18: the console does its due work by itself, as the Discord bot does;
``/demo`` plays to the end or says why it stopped; ``boards/`` keeps the newest boards.

(Ctrl-C during ``/demo`` and at the prompt: tests/adapters/test_console_stop.py.)
"""

from __future__ import annotations

import asyncio
import io
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from scripted import Script, opened

from bot.adapters.console import Console
from bot.config import Config
from bot.service.game import GameService

SEED = "3f1a9c52e7b4d086"


@pytest.fixture(autouse=True)
def quick_pictures(monkeypatch: pytest.MonkeyPatch) -> None:
    """The demo's hundreds of boards are written without drawing them (the pictures are
    tested elsewhere): a small stand-in PNG."""
    import render.png

    monkeypatch.setattr(render.png, "render_png", lambda view, **_: b"\x89PNG stand-in")


async def console_on(tmp_path: Path, dice: Script, clock: object = None
                     ) -> tuple[Console, io.StringIO]:
    storage = await opened(tmp_path / "c.sqlite3")
    out = io.StringIO()
    service = GameService(storage, Config(), dice=dice, clock=clock)  # type: ignore[arg-type]
    return Console(service, tmp_path / "boards", out=out), out


async def test_a_round_paired_by_demo_opens_without_another_command(tmp_path: Path) -> None:
    """Before, "/demo" ended the last match of round 1 ("round 2 is paired … about to
    open") and round 2 waited for the next command."""
    console, out = await console_on(tmp_path, Script(then=SEED))
    assert await console.handle("org: /tournament create Cup format=single length=1")
    for name in ("ann", "ben", "cat", "dan"):
        assert await console.handle(f"{name}: /tournament join")
    assert await console.handle("org: /tournament start")
    assert "opened in #t1-r1-1" in out.getvalue() and "opened in #t1-r1-2" in out.getvalue()
    for pairing in ("t1-r1-1", "t1-r1-2"):
        assert await console.handle(f"/channel {pairing}")
        assert await console.handle("/demo")
    text = out.getvalue()
    assert "round 2 is paired" in text, text[-3000:]
    after = text[text.index("round 2 is paired"):]
    assert "opened in #t1-r2-1 (/channel t1-r2-1)" in after, after[-2000:]


async def test_the_background_work_opens_what_another_process_paired(tmp_path: Path) -> None:
    """Pairings made by another bot on the same database (no command typed here): the
    console's background work opens them within its period, as the Discord bot's loop."""
    from bot.adapters.console.due import due_work

    console, out = await console_on(tmp_path, Script(then=SEED))
    assert await console.handle("org: /tournament create Cup format=single length=1")
    for name in ("ann", "ben"):
        assert await console.handle(f"{name}: /tournament join")
    other = GameService(console.service.storage, Config(), dice=Script(then=SEED))
    from bot.adapters.console.screen import GUILD, channel_id
    from bot.service.core.values import Actor, Place

    started = await other.tournament_start(Place(GUILD, channel_id("table")),
                                           Actor(1, "org"), is_organiser=True)
    assert started.ok, started.text
    assert "opened in" not in out.getvalue()
    async with due_work(console, period=0.05):
        for _ in range(200):
            if "opened in #t1-r1-1" in out.getvalue():
                break
            await asyncio.sleep(0.05)
    assert "opened in #t1-r1-1 (/channel t1-r1-1)" in out.getvalue(), out.getvalue()[-2000:]


async def test_idle_game_reminders_are_printed_when_due(tmp_path: Path) -> None:
    """``/settings set reminder_minutes 1`` was accepted, and the console never reminded."""
    from bot.adapters.console.due import due_work

    now = [datetime.now(UTC)]
    console, out = await console_on(tmp_path, Script([3, 1], then=SEED), lambda: now[0])
    assert await console.handle("org: /settings set reminder_minutes 1")
    assert await console.handle("/channel side")
    assert await console.handle("alice: /challenge @bob length=3")
    assert await console.handle("bob: /accept")
    assert await console.handle("/channel table")
    now[0] += timedelta(minutes=2)
    async with due_work(console, period=0.05):
        for _ in range(200):
            if "your turn here" in out.getvalue():
                break
            await asyncio.sleep(0.05)
    text = out.getvalue()
    assert "(in #side) @alice, it's your turn here (idle for" in text, text[-2000:]
    assert text.count("your turn here") == 1  # once for this state of the match


@pytest.mark.slow
async def test_demo_plays_a_long_match_to_its_end(tmp_path: Path) -> None:
    """``/help``: "to the end of the match".  Before, it stopped silently after 2,000
    actions (a 25-point match takes more), mid-game."""
    console, out = await console_on(tmp_path, Script(then=SEED))
    assert await console.handle("alice: /challenge @bob length=25")
    assert await console.handle("bob: /accept")
    assert await console.handle("/demo")
    text = out.getvalue()
    assert "wins the 25-point match" in text, text[-2000:]
    assert text.count("board image:") > 2000  # more actions than the old bound


async def test_demo_says_where_and_why_it_stopped(tmp_path: Path) -> None:
    console, out = await console_on(tmp_path, Script(then=SEED))
    assert await console.handle("alice: /demo")
    assert "no game in #table waits for a player" in out.getvalue()
    assert await console.handle("alice: /challenge @bob length=3")
    assert await console.handle("bob: /accept")
    await console.demo(limit=5)
    last = out.getvalue().splitlines()[-1]
    assert last.startswith("  /demo stopped after 5 actions, its bound, with "), last
    assert "type /demo to go on" in last


async def test_the_boards_folder_keeps_the_newest_boards(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    """An afternoon's play left 7,100 PNGs in boards/: the console keeps the newest
    ``BOARDS_KEPT`` (README, "Console mode"), numbered on after a restart."""
    import bot.adapters.console.screen as screen

    monkeypatch.setattr(screen, "BOARDS_KEPT", 10)
    boards = tmp_path / "boards"
    boards.mkdir()
    (boards / "bgbot-match-1.mat").write_text("kept")
    (boards / "board-0007.png").write_bytes(b"old")
    (boards / "0009-chart.png").write_bytes(b"old")  # a picture of the last session
    console, out = await console_on(tmp_path, Script(then=SEED))
    assert await console.handle("alice: /challenge @bob length=3")
    assert await console.handle("bob: /accept")
    await console.demo(limit=30)
    pngs = sorted(boards.glob("board-*.png"))
    assert len(pngs) == 10
    written = out.getvalue().count("board image:")
    assert written > 30 and console.counter == 9 + written  # numbered on after the last
    assert pngs[-1].name == f"board-{console.counter:04d}.png"
    assert not (boards / "board-0007.png").exists()
    assert not (boards / "0009-chart.png").exists()
    assert (boards / "bgbot-match-1.mat").read_text() == "kept"

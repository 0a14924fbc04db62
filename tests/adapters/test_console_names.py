"""Issue 42 item 19: names typed with invisible characters.  ``ev\\u202eil\\u200bdoer`` is
shown "evildoer" everywhere, so "evildoer: ..." must be that player (a name is found by the
form that is shown), and no line the console prints carries the raw U+202E."""

from __future__ import annotations

import io
from pathlib import Path

from scripted import Script, opened

from bot.adapters.console import Console
from bot.config import Config
from bot.service.game import GameService

EVIL = "ev\u202eil\u200bdoer"
HIDDEN = ("\u202e", "\u200b")


async def console_on(tmp_path: Path) -> tuple[Console, io.StringIO]:
    storage = await opened(tmp_path / "c.sqlite3")
    out = io.StringIO()
    service = GameService(storage, Config(), dice=Script([3, 1, 6, 5], then="3f1a9c52"))
    return Console(service, tmp_path / "boards", out=out), out


async def test_a_name_is_found_by_the_form_that_is_shown(tmp_path: Path) -> None:
    console, out = await console_on(tmp_path)
    assert await console.handle(f"{EVIL}: /challenge @bob length=3")
    assert "evildoer challenges bob" in out.getvalue()
    assert await console.handle("bob: /accept")
    assert "@evildoer to play 3-1" in out.getvalue(), out.getvalue()[-1500:]
    start = len(out.getvalue())
    assert await console.handle("evildoer: /move 8/5 6/5")
    said = out.getvalue()[start:]
    assert "evildoer plays 8/5 6/5" in said, said
    assert "not playing" not in said
    # Typed either way, it is the same player.
    start = len(out.getvalue())
    assert await console.handle("bob: /roll")
    assert await console.handle(f"{EVIL}: /board")
    assert "not playing" not in out.getvalue()[start:]


async def test_the_action_list_prints_the_shown_name(tmp_path: Path) -> None:
    """Before: "actions: [Accept] (b…\\u202eevil)" printed the name as typed."""
    console, out = await console_on(tmp_path)
    assert await console.handle(f"bob: /challenge @{EVIL} length=3")
    assert await console.handle(f"{EVIL}: /accept")
    assert await console.handle("bob: /move 8/5 6/5")
    text = out.getvalue()
    actions = [line for line in text.splitlines() if line.startswith("  actions:")]
    assert actions and any("(evildoer)" in line for line in actions), text[-1500:]
    assert not any(c in text for c in HIDDEN), [
        line for line in text.splitlines() if any(c in line for c in HIDDEN)]


async def test_a_name_with_nothing_visible_is_refused_with_the_reason(tmp_path: Path) -> None:
    console, out = await console_on(tmp_path)
    assert await console.handle("\u200b\u202e: /challenge @bob")
    assert "That name has nothing visible in it" in out.getvalue()
    assert await console.handle("alice: /challenge @\u200b")
    assert "Name an opponent" in out.getvalue()
    assert "challenges" not in out.getvalue()

"""``/tournament`` in the console: a 2-player knockout from sign-up to champion, each
pairing opened in its own channel, the bracket written as a PNG in boards/."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image
from scripted import Script, opened

from bot.adapters.console import Console
from bot.config import Config
from bot.service.game import GameService


async def test_a_tournament_from_the_console(tmp_path: Path) -> None:
    storage = await opened(tmp_path / "c.sqlite3")
    out = io.StringIO()
    console = Console(GameService(storage, Config(), dice=Script(then="3f1a9c52e7b4d086")),
                      tmp_path / "boards", out=out)
    assert await console.handle('org: /tournament create Friday Cup format=single '
                                'length=1 max_players=4')
    assert "Tournament #1 Friday Cup: Single elimination" in out.getvalue()
    for name in ("alice", "bob"):
        assert await console.handle(f"{name}: /tournament join")
    assert await console.handle("alice: /tournament join")
    assert "already signed up" in out.getvalue()
    assert await console.handle("org: /tournament start")
    text = out.getvalue()
    assert "round 1 is paired" in text and "opened in #t1-r1-1" in text
    assert "(1-point match, rated)" in text or "1-point match, rated" in text
    assert await console.handle("/channel t1-r1-1")
    assert await console.handle("bob: /forfeit confirm")
    assert "the champion is alice" in out.getvalue()
    assert await console.handle("/channel table")
    assert await console.handle("org: /tournament status")
    assert "Champion: alice" in out.getvalue()
    assert await console.handle("org: /tournament bracket")
    (png,) = (tmp_path / "boards").glob("bracket-1-*.png")
    with Image.open(png) as image:
        assert image.format == "PNG" and image.width > 100
    assert "bracket image:" in out.getvalue() and "Traceback" not in out.getvalue()
    assert await console.handle("org: /tournament result R1-1 @bob typo")
    # A result for a match that was played is refused, and says why.
    assert "(only you see this) The tournament is over (champion: alice); it takes no more " \
        "results" in out.getvalue()


async def test_the_tournament_name_may_be_given_as_name_equals(tmp_path: Path) -> None:
    """Discord's option is called ``name``; a console user who types ``name=Cup`` was told
    to name the tournament."""
    storage = await opened(tmp_path / "c.sqlite3")
    out = io.StringIO()
    console = Console(GameService(storage, Config()), tmp_path / "boards", out=out)
    assert await console.handle("org: /tournament create name=Cup format=swiss length=1")
    assert "Tournament #1 Cup: Swiss" in out.getvalue(), out.getvalue()
    assert await console.handle("org: /tournament create name= format=swiss")
    assert "Name the tournament" in out.getvalue()


async def test_a_tournament_number_may_be_typed_bare(tmp_path: Path) -> None:
    """Issue 30 item 12: "/tournament start 99" was refused as not "#3"; 3, #3 and
    tournament=3 all name the tournament."""
    storage = await opened(tmp_path / "c.sqlite3")
    out = io.StringIO()
    console = Console(GameService(storage, Config()), tmp_path / "boards", out=out)
    assert await console.handle("org: /tournament create Cup format=swiss length=1")
    assert await console.handle("org: /tournament start 99")
    text = out.getvalue()
    assert "takes only a tournament number (#3)" not in text
    assert "This server has no tournament #99" in text.splitlines()[-1]
    for typed in ("1", "#1", "tournament=1"):
        assert await console.handle(f"org: /tournament status {typed}")
    assert out.getvalue().count("#1 Cup: Swiss, 1-point matches — signup.") == 3
    assert "not '1'" not in out.getvalue() and "Traceback" not in out.getvalue()

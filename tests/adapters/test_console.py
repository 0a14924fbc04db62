"""The console adapter: the README's demo script end to end, and how it writes replies."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

from scripted import Script, opened

from bot.adapters.console import Console
from bot.config import Config
from bot.service.game import GameService

ROOT = Path(__file__).resolve().parents[2]


def test_the_demo_script_plays_a_match_to_the_end(tmp_path: Path) -> None:
    """``python -m bot console --script docs/demo.txt`` (README, "Console mode")."""
    done = subprocess.run(
        [sys.executable, "-m", "bot", "console", "--script", str(ROOT / "docs" / "demo.txt"),
         "--db", str(tmp_path / "demo.sqlite3"), "--boards", str(tmp_path / "boards")],
        cwd=tmp_path, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    out = done.stdout
    assert "alice challenges bob to a 1-point match" in out
    assert "wins the 1-point match" in out
    assert "Leaderboard by rating" in out and "file written:" in out
    assert "Traceback" not in out + done.stderr
    pngs = sorted((tmp_path / "boards").glob("board-*.png"))
    assert pngs and pngs[0].read_bytes().startswith(b"\x89PNG")


async def test_mentions_are_written_as_names(tmp_path: Path) -> None:
    storage = await opened(tmp_path / "c.sqlite3")
    out = io.StringIO()
    console = Console(GameService(storage, Config(), dice=Script([3, 1])),  # type: ignore[arg-type]
                      tmp_path / "boards", out=out)
    assert await console.handle("alice: /challenge @bob length=1")
    text = out.getvalue()
    assert "@bob: /accept or /decline." in text and "<@" not in text
    assert await console.handle("bob: /accept")
    assert "@alice to play 3-1." in out.getvalue()


async def test_replay_writes_an_animated_gif_with_its_alt_text(tmp_path: Path) -> None:
    """Issue 18: ``/replay`` in the console writes the GIF into the boards folder."""
    from PIL import Image

    storage = await opened(tmp_path / "c.sqlite3")
    out = io.StringIO()
    console = Console(GameService(storage, Config(), dice=Script([1, 3, 1, 3])),  # type: ignore[arg-type]
                      tmp_path / "boards", out=out)
    assert await console.handle("alice: /challenge @bob length=3")
    assert await console.handle("bob: /accept")
    assert await console.handle("bob: /move 8/5 6/5")
    assert await console.handle("alice: /double")
    assert await console.handle("bob: /drop")
    assert await console.handle("carol: /replay x")
    assert "/replay [game number]" in out.getvalue()
    assert await console.handle("carol: /replay 1")
    text = out.getvalue()
    (gif,) = (tmp_path / "boards").glob("*-replay.gif")
    assert f"picture: {gif}" in text
    assert "(alt text) Replay of the game between alice and bob: 1 plays, 2 cube actions." \
        in text
    with Image.open(gif) as image:
        assert image.format == "GIF" and image.n_frames == 1 + 2 + 1
    assert await console.handle("carol: /replay 1")  # a second one does not overwrite
    assert len(list((tmp_path / "boards").glob("*-replay.gif"))) == 2

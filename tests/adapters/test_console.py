"""The console adapter: the README's demo script end to end, and how it writes replies."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest
from scripted import OPENED, Script, opened

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


async def test_a_restart_continues_the_board_numbering(tmp_path: Path) -> None:
    boards = tmp_path / "boards"
    boards.mkdir()
    (boards / "board-0007.png").write_bytes(b"earlier")
    storage = await opened(tmp_path / "c.sqlite3")
    out = io.StringIO()
    console = Console(GameService(storage, Config(), dice=Script([3, 1])),  # type: ignore[arg-type]
                      boards, out=out)
    assert await console.handle("alice: /challenge @bob length=1")
    assert await console.handle("bob: /accept")
    assert (boards / "board-0007.png").read_bytes() == b"earlier"  # not overwritten
    assert (boards / "board-0008.png").read_bytes().startswith(b"\x89PNG")


async def test_players_who_have_not_acted_are_shown_by_name(tmp_path: Path) -> None:
    storage = await opened(tmp_path / "c.sqlite3")
    first = Console(GameService(storage, Config(), dice=Script([3, 1])),  # type: ignore[arg-type]
                    tmp_path / "boards", out=io.StringIO())
    assert await first.handle("alice: /challenge @bob stake=1")
    assert await first.handle("bob: /accept")
    assert await first.handle("alice: /move 8/5 6/5")
    out = io.StringIO()  # a restarted console: it has not seen alice or bob type anything
    again = Console(GameService(storage, Config(), dice=Script([3, 1])),  # type: ignore[arg-type]
                    tmp_path / "boards", out=out)
    assert await again.handle("carol: /board")
    text = out.getvalue()
    assert "[Roll] (bob)" in text and "[Double] (bob)" in text
    assert "(100" not in text  # no raw ids


async def test_demo_stops_at_the_end_of_a_money_game(tmp_path: Path) -> None:
    storage = await opened(tmp_path / "c.sqlite3")
    out = io.StringIO()
    console = Console(GameService(storage, Config(),  # type: ignore[arg-type]
                                  dice=Script([3, 1], then="0123456789abcdef3141592653")),
                      tmp_path / "boards", out=out)
    assert await console.handle("alice: /challenge @bob stake=1")
    assert await console.handle("bob: /accept")
    assert await console.handle("/demo")
    text = out.getvalue()
    assert "Session after 1 game(s)" in text and "Session after 2 game(s)" not in text
    assert "/demo stops at the end of the game" in text
    assert "Game 2 begins" in text


def test_ai_workers_leave_ctrl_c_to_the_console() -> None:
    """Ctrl-C reaches every process of the terminal's group: a worker ignores it, so the
    console exits cleanly without a worker's traceback."""
    code = ("import os, signal, time\n"
            "from bot.ai.runner import ignore_interrupts\n"
            "ignore_interrupts()\n"
            "os.kill(os.getpid(), signal.SIGINT)\n"
            "time.sleep(0.1)\n"
            "print('still here')\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=False, cwd=ROOT)
    assert done.returncode == 0 and "still here" in done.stdout
    assert "Traceback" not in done.stderr


async def test_numbers_in_other_digits_get_a_reason_not_a_traceback(tmp_path: Path) -> None:
    """Issue 16, item 3, in every number the console reads: '²' passes ``str.isdigit``
    but ``int`` refuses it (the console died with a traceback, or answered with
    Python's "invalid literal"); other scripts' digits ('٣') are refused too."""
    boards = tmp_path / "boards"
    boards.mkdir()
    (boards / "board-².png").write_bytes(b"")  # read when the numbering resumes
    storage = await opened(tmp_path / "c.sqlite3")
    out = io.StringIO()
    console = Console(GameService(storage, Config(), dice=Script([3, 1])),  # type: ignore[arg-type]
                      boards, out=out)
    lines = {
        "alice: /challenge @bob length=²": "whole numbers",
        "alice: /challenge @bob stake=٣": "whole numbers",
        "alice: /leaderboard rating ²": "The page is a whole number",
        "alice: /verify ²": "game number",
        "alice: /history ²": "game number",
        "alice: /replay ¹": "/replay [game number]",
        "alice: /analyze ²": "/analyze [game number]",
        "alice: /export game=²": "/export [mat|sgf]",
        "alice: /chouette open cap=²": "whole numbers",
        "alice: /tournament create Cup format=swiss rounds=٣": "whole numbers",
        "alice: /tournament create Cup format=swiss length=²": "write a number of points",
        "alice: /tournament create Cup format=swiss length=r٣=5": "write a number of points",
        "alice: /tournament join #²": "not '#²'",
        # Issue 30 item 12: a bare number names the tournament, as #2 does.
        "alice: /tournament status 2": "This server has no tournament #2",
        "alice: /tournament status two": "takes only a tournament number",
        "alice: /challenge @": "Name an opponent",
        "alice: /challenge @bob stake=1" + "0" * 30: "at most 18 of them",
    }
    for line, reason in lines.items():
        start = len(out.getvalue())
        assert await console.handle(line), line
        said = out.getvalue()[start:]
        assert "(only you see this)" in said and reason in said, (line, said)
        assert "invalid literal" not in said and "Traceback" not in said, (line, said)
    assert await console.handle("alice: /challenge @bob length=1")
    assert await console.handle("bob: /accept")
    assert (boards / "board-0001.png").exists()  # the odd file name was passed over


async def test_a_first_command_without_a_name_says_how_to_name_the_player(
        tmp_path: Path) -> None:
    """First contact (README, "Console mode"): the first command of a fresh console has
    nobody to act for; the answer shows that very command with a name before it (cut to
    a readable length), and nothing is done."""
    storage = await opened(tmp_path / "c.sqlite3")
    out = io.StringIO()
    console = Console(GameService(storage, Config(), dice=Script([3, 1])),  # type: ignore[arg-type]
                      tmp_path / "boards", out=out)
    assert await console.handle("/challenge @gnubot")
    assert '"alice: /challenge @gnubot"' in out.getvalue()
    start = len(out.getvalue())
    assert await console.handle("/challenge @bob stake=" + "9" * 500)
    said = out.getvalue()[start:]
    assert '"alice: /challenge @bob stake=999999999999999999...' in said
    assert len(said) < 300
    start = len(out.getvalue())
    assert await console.handle("bob: /accept")  # no challenge was made
    assert "There is no challenge waiting in this channel" in out.getvalue()[start:]
    assert await console.handle("alice: /challenge @bob")  # named: it acts
    assert "alice challenges bob" in out.getvalue()


async def _console(tmp_path: Path, dice: Script) -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    service = GameService(await opened(tmp_path / "c.sqlite3"), Config(), dice=dice)  # type: ignore[arg-type]
    return Console(service, tmp_path / "boards", out=out), out


async def _said(console: Console, out: io.StringIO, line: str) -> str:
    start = len(out.getvalue())
    assert await console.handle(line), line
    return out.getvalue()[start:]


async def test_an_unnamed_confirmation_is_the_last_actors_not_the_player_on_turn(
        tmp_path: Path) -> None:
    """README, "Console mode": without a name only a game's next step goes to the player
    the game waits for.  Before, bob's "/forfeit" then "/forfeit confirm" made alice,
    who was on turn, forfeit the match."""
    console, out = await _console(tmp_path, Script([3, 1]))
    await _said(console, out, "alice: /challenge @bob length=3")
    assert "@alice to play 3-1." in await _said(console, out, "bob: /accept")
    assert "/forfeit confirm" in await _said(console, out, "bob: /forfeit")
    said = await _said(console, out, "/forfeit confirm")
    assert "bob abandons." in said and "alice wins the match by forfeit" in said, said


async def test_unnamed_game_steps_go_to_the_waiting_player_and_undo_to_its_mover(
        tmp_path: Path) -> None:
    """One person plays both sides: /roll and /move are the waiting player's; /undo right
    after a play takes that play back (it is the last actor's)."""
    console, out = await _console(tmp_path, Script([3, 1, 6, 5]))
    await _said(console, out, "alice: /challenge @bob length=3")
    await _said(console, out, "bob: /accept")
    await _said(console, out, "/move 8/5 6/5")  # alice's, though bob acted last
    assert "bob rolled 6-5" in await _said(console, out, "/roll")  # bob's turn now
    assert "bob plays 24/13" in await _said(console, out, "/move 24/18/13")
    said = await _said(console, out, "/undo")
    assert "bob takes back the play" in said, said


async def test_an_unnamed_chouette_leave_is_the_player_who_asked(tmp_path: Path) -> None:
    """Before, carol's "/chouette leave" then "/chouette leave confirm" made the captain,
    on turn, leave the table."""
    console, out = await _console(tmp_path, Script([4, 2, 1, 6, 3]))
    for line in ("alice: /chouette open", "bob: /chouette join", "carol: /chouette join",
                 "alice: /chouette start"):
        await _said(console, out, line)
    assert "Leave again with confirm" in await _said(console, out, "carol: /chouette leave")
    said = await _said(console, out, "/chouette leave confirm")
    assert said.startswith("carol leaves the table"), said


async def test_a_restart_lists_the_games_in_progress(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 30 item 16: a console started again on the same database was back in its
    first channel with no word of the games in progress."""
    from bot.adapters.console.run import run as _run

    storage = await opened(tmp_path / "c.sqlite3")
    out = io.StringIO()
    console = Console(GameService(storage, Config(), dice=Script([3, 1])),  # type: ignore[arg-type]
                      tmp_path / "boards", out=out)
    assert await console.handle("/channel side")
    assert await console.handle("alice: /challenge @bob length=3")
    assert await console.handle("bob: /accept")
    assert await console.handle("/channel lobby")
    assert await console.handle("carol: /challenge @dave")
    await storage.close()
    OPENED.remove(storage)
    from dataclasses import replace

    from bot.config import AIConfig, StorageConfig

    config = replace(Config(), storage=StorageConfig(database=str(tmp_path / "c.sqlite3")),
                     ai=AIConfig(enabled=False))
    capsys.readouterr()
    assert await _run(config, ["/board"], tmp_path / "boards", echo=False) == 0
    text = capsys.readouterr().out
    assert "Games in progress:" in text
    assert "#side (/channel side): alice v bob, 3-point match" in text
    assert "#lobby (/channel lobby): carol challenges dave (waiting for an answer)" in text


async def test_stats_of_an_empty_name_is_refused(tmp_path: Path) -> None:
    """Issue 30 item 15: /stats @ and /stats @@@ drew a card with an empty name."""
    storage = await opened(tmp_path / "c.sqlite3")
    out = io.StringIO()
    console = Console(GameService(storage, Config()), tmp_path / "boards", out=out)
    for line in ("alice: /stats @", "alice: /stats @@@"):
        start = len(out.getvalue())
        assert await console.handle(line)
        said = out.getvalue()[start:]
        assert "(only you see this) Name a player after the @" in said
        assert "picture:" not in said


async def test_help_says_how_long_a_play_can_be_taken_back(tmp_path: Path) -> None:
    """Issue 30 item 17: /help says the take-back window (until the opponent rolls, his
    throw waiting for him after a play)."""
    storage = await opened(tmp_path / "c.sqlite3")
    out = io.StringIO()
    console = Console(GameService(storage, Config()), tmp_path / "boards", out=out)
    assert await console.handle("/help")
    said = " ".join(out.getvalue().split())
    assert "your finished play until the opponent rolls" in said
    assert "his throw always waits for him" in said

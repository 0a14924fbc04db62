"""``backup`` and ``check`` (issue 43 item 9): the copy that a killed backup left behind
(``.NAME.partial-PID``) is removed by the next backup or check once its process is gone
(never a running backup's); ``check`` recomputes the money and the ratings from the games'
records and names every stored amount or rating that differs."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import Config
from bot.ops.backup import check
from bot.service.core.values import Actor, Place
from bot.service.game import GameService
from bot.storage.sqlite import SqliteStorage

ROOT = Path(__file__).resolve().parents[2]
ALICE, BOB, CAROL = Actor(1, "alice"), Actor(2, "bob"), Actor(3, "carol")


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot", *args], capture_output=True,
                          text=True, cwd=cwd, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})


def killed_mid_copy(folder: Path, name: str) -> list[Path]:
    """What a backup killed (SIGKILL) mid-copy leaves: its partial copy and the copy's
    journal, named with the pid of a process that is gone now."""
    code = ("import os, pathlib, sys\n"
            "folder, name = pathlib.Path(sys.argv[1]), sys.argv[2]\n"
            "base = folder / f'.{name}.partial-{os.getpid()}'\n"
            "base.write_bytes(b'SQLite format 3\\x00' + bytes(4000))\n"
            "pathlib.Path(str(base) + '-journal').write_bytes(bytes(512))\n"
            "os.kill(os.getpid(), 9)\n")
    done = subprocess.run([sys.executable, "-c", code, str(folder), name], timeout=60)
    assert done.returncode == -9
    return sorted(folder.glob(f".{name}.partial-*"))


async def finished_games(db: Path) -> None:
    """A rated money session at 3 a point (three games resigned as gammons, the cube at
    1) and a rated 1-point match, on one server; then a second match elsewhere."""
    storage = SqliteStorage(db)
    await storage.open()
    try:
        service = GameService(storage, Config())
        money, match, other = Place(1, 10), Place(1, 11), Place(2, 20)
        assert (await service.challenge(money, ALICE, BOB, stake=3)).ok
        assert (await service.accept(money, BOB)).ok
        for who, to in ((ALICE, BOB), (BOB, ALICE), (ALICE, BOB)):
            assert (await service.resign(money, who, "gammon")).ok
            assert (await service.answer_resignation(money, to, True)).ok
        for place, loser, winner in ((match, BOB, ALICE), (other, CAROL, BOB)):
            assert (await service.challenge(place, winner, loser, length=1)).ok
            assert (await service.accept(place, loser)).ok
            assert (await service.resign(place, loser, "single")).ok
            ended = await service.answer_resignation(place, winner, True)
            assert "wins the 1-point match" in ended.text, ended.text
    finally:
        await storage.close()


def test_the_next_backup_and_check_remove_what_a_killed_backup_left(tmp_path: Path) -> None:
    db = tmp_path / "bg.sqlite3"
    import asyncio
    asyncio.run(finished_games(db))
    backups = tmp_path / "backups"
    backups.mkdir()
    stale = killed_mid_copy(backups, "monday.sqlite3")
    assert len(stale) == 2
    running = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:  # a backup still running keeps its copy under way
        live = backups / f".tuesday.sqlite3.partial-{running.pid}"
        live.write_bytes(b"half a copy")
        done = cli("backup", str(backups / "wednesday.sqlite3"), "--db", str(db), cwd=tmp_path)
        assert done.returncode == 0, done.stdout + done.stderr
        assert not any(p.exists() for p in stale) and live.exists()
        for path in stale:
            assert f"removed {path}" in done.stdout, done.stdout
        assert (backups / "wednesday.sqlite3").is_file()
        # check does the same in the folder of the file it checks
        again = killed_mid_copy(backups, "thursday.sqlite3")
        report = check(backups / "wednesday.sqlite3")
        assert report.problems == [] and sorted(report.removed) == again
        assert not any(p.exists() for p in again) and live.exists()
    finally:
        running.kill()
        running.wait()
    assert check(backups / "wednesday.sqlite3").removed == [live]  # its process is gone now


@pytest.fixture
def sound(tmp_path: Path) -> Path:
    import asyncio
    db = tmp_path / "bg.sqlite3"
    asyncio.run(finished_games(db))
    report = check(db)
    assert report.problems == [] and report.games == 6  # (the session's fourth begun)
    return db


def edited(sound: Path, name: str, sql: str) -> Path:
    copy = sound.with_name(name)
    shutil.copy(sound, copy)
    with sqlite3.connect(copy) as conn:
        assert conn.execute(sql).rowcount == 1
    conn.close()
    return copy


def test_check_names_a_ledger_amount_changed_by_hand(sound: Path) -> None:
    # game 2 of the session: alice won a gammon, 2 points at 3 a point
    copy = edited(sound, "amount.sqlite3",
                  "UPDATE ledger SET amount = 60 WHERE user_id = 1 AND game_id = "
                  "(SELECT id FROM games WHERE match_id = 1 AND number = 2)")
    problems = check(copy).problems
    assert any("ledger rows do not add up to zero (points 0, amounts 54)" in p
               for p in problems), problems
    assert any("amount 60, but 2 points at a stake of 3 make 6" in p for p in problems)
    assert any("user 1's ledger is 2 points, amount 60, the game's record gives 2 points, "
               "amount 6" in p for p in problems), problems
    result = cli("check", str(copy), cwd=copy.parent)
    assert result.returncode == 1 and "amount 60" in result.stdout


def test_check_names_points_moved_between_players_by_hand(sound: Path) -> None:
    # zero-sum still, every amount its points times the stake: only the record tells
    copy = edited(sound, "points.sqlite3",
                  "UPDATE ledger SET points = -points, amount = -amount WHERE game_id = "
                  "(SELECT id FROM games WHERE match_id = 1 AND number = 1) AND user_id = 2")
    with sqlite3.connect(copy) as conn:
        conn.execute("UPDATE ledger SET points = -points, amount = -amount WHERE game_id = "
                     "(SELECT id FROM games WHERE match_id = 1 AND number = 1) "
                     "AND user_id = 1")
    conn.close()
    problems = check(copy).problems
    assert len([p for p in problems if "the game's record gives" in p]) == 2, problems


def test_check_names_a_rating_changed_by_hand(sound: Path) -> None:
    copy = edited(sound, "rating.sqlite3",
                  "UPDATE ratings SET rating = 1600 WHERE guild_id = 1 AND user_id = 2")
    problems = check(copy).problems
    assert len(problems) == 1, problems
    assert problems[0].startswith("rating of user 2 (server 1): stored 1600.00 (experience 4)"
                                  ", the games' records give 1499.81 (experience 4)"), problems
    result = cli("check", str(copy), cwd=copy.parent)
    assert result.returncode == 1 and "rating of user 2" in result.stdout


def test_check_names_a_rating_change_rewritten_by_hand(sound: Path) -> None:
    # the history of server 2's match says bob lost: its record says he won
    copy = edited(sound, "history.sqlite3",
                  "UPDATE rating_history SET after = 1510.0 WHERE guild_id = 2 AND user_id = 3")
    problems = check(copy).problems
    assert any(p.startswith("rating_history row") and "(user 3, server 2, match" in p
               and "1500.00 -> 1510.00" in p and "give 1500.00 -> 1490.00" in p
               for p in problems), problems
    assert not any("rating of user" in p for p in problems)  # the table itself is right

"""Backups (issue 34, item 4): ``python -m bot backup FILE`` copies the SQLite database
consistently while the bot runs and writes; ``python -m bot check FILE`` verifies a copy
(integrity, migrations, every game replayed) and names what is wrong with a damaged one."""

from __future__ import annotations

import asyncio
import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import Config
from bot.ops.backup import BackupError, backup, check
from bot.service.core.values import Actor, Place
from bot.service.game import GameService
from bot.storage.sqlite import SqliteStorage

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = [Actor(i, f"p{i}") for i in range(1, 9)]


def cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot", *args], capture_output=True,
                          text=True, cwd=cwd, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})


async def play(service: GameService, place: Place, steps: int) -> int:
    """Games between two players in ``place``, with the first legal play each turn (real
    dice from the games' seeds); the actions committed."""
    white, black = PLAYERS[place.channel_id % 4], PLAYERS[4 + place.channel_id % 4]
    committed = 0
    assert (await service.challenge(place, white, black, stake=1)).ok
    assert (await service.accept(place, black)).ok
    for _ in range(steps):
        board = await service.board(place, white)
        view = board.boards[-1].view if board.boards else None
        if view is None or view.turn is None:
            break
        who = white if view.players[view.turn].name == white.name else black
        acts = {b.action.value for b in board.buttons if who.id in b.users}
        if "roll" in acts:
            reply = await service.roll(place, who)
        elif "take" in acts:
            reply = await service.take(place, who)
        else:
            plays = await service.suggestions(place, who, "", limit=1)
            if not plays:
                break
            reply = await service.move(place, who, plays[0])
        committed += reply.ok
    return committed


async def test_a_backup_taken_while_the_bot_writes_is_consistent(tmp_path: Path) -> None:
    db = tmp_path / "live.sqlite3"
    storage = SqliteStorage(db)
    await storage.open()
    try:
        service = GameService(storage, Config())
        await play(service, Place(1, 1), 40)
        copies = [tmp_path / f"copy{i}.sqlite3" for i in range(4)]
        writers = asyncio.gather(*(play(service, Place(1, c), 60) for c in (2, 3, 4)))
        for copy in copies:  # copies taken while three games are being played
            await asyncio.to_thread(backup, db, copy)
            await asyncio.sleep(0.05)
        assert await writers
    finally:
        await storage.close()
    sizes = set()
    for copy in copies:
        report = await asyncio.to_thread(check, copy)
        assert report.problems == [], (copy.name, report.problems)
        assert report.games >= 1 and report.events > 0
        with sqlite3.connect(copy) as conn:
            sizes.add(conn.execute("SELECT COUNT(*) FROM events").fetchone()[0])
            assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
        assert not Path(f"{copy}-wal").exists()
    assert len(sizes) > 1, "the copies were taken at different moments of the play"
    assert check(db).problems == []


@pytest.mark.slow
def test_backup_and_check_commands_on_a_running_console(tmp_path: Path) -> None:
    from bot_process import BotProcess

    bot = BotProcess(["console", "--db", "bg.sqlite3", "--script", "-"], cwd=tmp_path)
    try:
        bot.send("alice: /challenge @bob length=3\nbob: /accept\n/demo\n")
        bot.wait_for("to play", 120)
        done = cli("backup", "copy.sqlite3", "--db", "bg.sqlite3", cwd=tmp_path)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "copied to copy.sqlite3" in done.stdout
        checked = cli("check", "copy.sqlite3", cwd=tmp_path)
        assert checked.returncode == 0, checked.stdout
        assert "is sound" in checked.stdout
        assert re.search(r"\b(1 game|\d+ games) replayed from", checked.stdout), checked.stdout
        again = cli("backup", "copy.sqlite3", "--db", "bg.sqlite3", cwd=tmp_path)
        assert again.returncode == 1 and "exists already" in again.stdout
    finally:
        bot.send("/quit\n")
        bot.finish(60)
        bot.kill()
    assert "Traceback" not in bot.err.decode()


async def damaged(tmp_path: Path) -> Path:
    db = tmp_path / "d.sqlite3"
    storage = SqliteStorage(db)
    await storage.open()
    try:
        await play(GameService(storage, Config()), Place(1, 7), 20)
    finally:
        await storage.close()
    copy = tmp_path / "damaged.sqlite3"
    backup(db, copy)
    return copy


async def test_check_names_an_event_that_does_not_replay(tmp_path: Path) -> None:
    copy = await damaged(tmp_path)
    with sqlite3.connect(copy) as conn:
        seq, data = conn.execute("SELECT seq, data FROM events WHERE kind = 'roll' "
                                 "ORDER BY seq LIMIT 1 OFFSET 1").fetchone()
        changed = data.replace("[", "[7,", 1)  # a die of 7
        assert changed != data
        conn.execute("UPDATE events SET data = ? WHERE seq = ? AND kind = 'roll'",
                     (changed, seq))
    problems = check(copy).problems
    assert problems and "match 1 game 1" in problems[0], problems


async def test_check_names_dice_that_are_not_the_seed_s(tmp_path: Path) -> None:
    copy = await damaged(tmp_path)
    with sqlite3.connect(copy) as conn:
        conn.execute("UPDATE games SET seed = ?", ("00" * 32,))
    problems = check(copy).problems
    assert any("dice do not match the game's seed" in p for p in problems), problems


async def test_check_names_a_missing_migration(tmp_path: Path) -> None:
    copy = await damaged(tmp_path)
    with sqlite3.connect(copy) as conn:
        conn.execute("DELETE FROM schema_version WHERE version = 3")
    problems = check(copy).problems
    assert problems == ["migrations: not applied: 3 0003_tournaments.sql (the bot applies "
                        "them at its next start)"], problems


def test_check_refuses_what_is_not_a_database(tmp_path: Path) -> None:
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"not a database" * 100)
    done = cli("check", str(junk), cwd=tmp_path)
    assert done.returncode == 1 and "not a SQLite database" in done.stdout, done.stdout
    assert "Traceback" not in done.stderr
    with pytest.raises(BackupError, match="does not exist"):
        backup(tmp_path / "nope.sqlite3", tmp_path / "x.sqlite3")


def test_backup_of_a_postgresql_deployment_points_to_pg_dump(tmp_path: Path) -> None:
    config = tmp_path / "c.toml"
    config.write_text('[storage]\nurl = "postgresql://bgbot@127.0.0.1:5432/bgbot"\n')
    done = cli("--config", str(config), "backup", "x.sqlite3", cwd=tmp_path)
    assert done.returncode == 2 and "pg_dump" in done.stdout



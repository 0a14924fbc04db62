"""Background grading survives kill -9, and two processes on PostgreSQL grade each match
once (issue 33, verification).

Driver processes (tests/support/grading_driver.py) run the real grader with the real
worker process and log, with fsync, each game kept, each match graded and each post.

* kill -9 in the middle of a match's analysis (its first game kept, the second under
  way): after a restart the match is taken again once its lease lapses, only the games
  not kept are analysed, and it is finished and posted exactly once;
* two driver processes on one PostgreSQL database: every queued match is graded, each by
  one process, each game kept once, each match posted once.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pg
import pytest
from grading import ALICE, BLUNDER, BOB, OPENING, ok
from scripted import Script
from service_driver import read_log

from bot.ai.runner import AIRunner
from bot.config import Config
from bot.service.core.values import Place
from bot.service.game import GameService
from bot.storage.interface import GradingStatus

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[3]
DRIVER = ROOT / "tests" / "support" / "grading_driver.py"


def _driver(db: str, log: Path, *args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, str(DRIVER), db, str(log), *args], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


async def _queue(storage: Any, channels: range, games: int) -> None:
    """A match in each channel, ``games`` points long: in each game bob opens 3-1 with
    8/4 and alice resigns; every match ends and is queued for grading."""
    ai = AIRunner(processes=False)
    try:
        # Each game: the opening throw; in a Crawford game alice cannot double, so her
        # throw after bob's play is made at once (6-5) before she resigns.
        per_match = OPENING * games + ([6, 5] if games > 1 else [])
        service = GameService(storage, Config(), dice=Script(per_match * len(channels)),
                              ai=ai)
        for channel in channels:
            here = Place(guild_id=7, channel_id=channel)
            ok(await service.challenge(here, ALICE, BOB, length=games))
            ok(await service.accept(here, BOB))
            for _ in range(games):
                ok(await service.move(here, BOB, BLUNDER))
                ok(await service.resign(here, ALICE, "single"))
                ended = ok(await service.answer_resignation(here, BOB, True))
            assert "being graded in the background" in ended.text
    finally:
        ai.close()


def _wait_for(log: Path, proc: subprocess.Popen[bytes], predicate: Any,
              seconds: float = 180.0) -> list[dict[str, Any]]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        entries = read_log(log)
        if predicate(entries):
            return entries
        if proc.poll() is not None:
            raise AssertionError(proc.communicate()[1].decode()[-3000:])
        time.sleep(0.05)
    raise AssertionError(f"waited in vain; log: {read_log(log)}")


def _finish(proc: subprocess.Popen[bytes], seconds: float = 300.0) -> None:
    try:
        _, err = proc.communicate(timeout=seconds)
    except subprocess.TimeoutExpired:
        proc.kill()
        _, err = proc.communicate()
        raise AssertionError("the driver did not finish: " + err.decode()[-3000:]) from None
    assert proc.returncode == 0, err.decode()[-3000:]


async def test_kill_9_in_the_middle_of_an_analysis_then_graded_once(tmp_path: Path) -> None:
    from bot.storage.sqlite import SqliteStorage

    db, log = tmp_path / "bg.sqlite3", tmp_path / "grading.log"
    storage = SqliteStorage(db)
    await storage.open()
    try:
        await _queue(storage, range(70, 71), games=3)
    finally:
        await storage.close()
    first = _driver(str(db), log, "--lease", "2", "--delay", "4")
    kept = _wait_for(log, first, lambda es: any(e["event"] == "kept" for e in es))
    time.sleep(1.0)  # the second game is being analysed (or waited for) now
    first.send_signal(signal.SIGKILL)
    first.communicate()
    assert first.returncode == -signal.SIGKILL
    assert [e["event"] for e in read_log(log)] == ["kept"]
    storage = SqliteStorage(db)
    await storage.open()
    try:
        async with storage.snapshot() as tx:
            (match,) = [m for m in [await tx.latest_match_in_channel(70)] if m is not None]
            job = await tx.grading_job(match.id)
        assert job is not None and job.status is GradingStatus.RUNNING  # held by the dead
    finally:
        await storage.close()

    second = _driver(str(db), log, "--lease", "2", "--until-empty")
    _finish(second)
    entries = read_log(log)
    pids = [e["pid"] for e in kept]
    games = [e["game"] for e in entries if e["event"] == "kept"]
    assert len(games) == 3 and len(set(games)) == 3  # each game kept once, none redone
    assert games[0] == kept[0]["game"] and pids[0] != entries[-1]["pid"]
    assert Counter(e["event"] for e in entries) == {"kept": 3, "graded": 1, "posted": 1}
    storage = SqliteStorage(db)
    await storage.open()
    try:
        async with storage.snapshot() as tx:
            job = await tx.grading_job(match.id)
            rows = await tx.games_of_match(match.id)
            analyses = await tx.analyses_of([g.id for g in rows], "strong")
            puzzles = await tx.puzzle_count(7)
        assert job is not None and job.status is GradingStatus.DONE and job.posted
        assert job.attempts == 2 and set(analyses) == {g.id for g in rows}
        assert puzzles == 3  # bob's 8/4 in each game
    finally:
        await storage.close()


async def test_two_processes_on_postgresql_grade_each_match_once(tmp_path: Path) -> None:
    reason = pg.unavailable()
    if reason is not None:
        pytest.skip(reason)
    from bot.storage.postgres import PostgresStorage

    url = await pg.create_database()
    try:
        storage = PostgresStorage(url, pool_size=2)
        await storage.open()
        try:
            await _queue(storage, range(70, 76), games=1)
        finally:
            await storage.close()
        logs = [tmp_path / "a.log", tmp_path / "b.log"]
        procs = [_driver(url, log, "--lease", "5", "--delay", "1", "--until-empty")
                 for log in logs]
        for proc in procs:
            _finish(proc)
        entries = [e for log in logs for e in read_log(log)]
        graded = [e["match"] for e in entries if e["event"] == "graded"]
        kept = [e["game"] for e in entries if e["event"] == "kept"]
        posted = [e["match"] for e in entries if e["event"] == "posted"]
        assert len(graded) == 6 and len(set(graded)) == 6  # each match once
        assert len(kept) == 6 and len(set(kept)) == 6
        assert sorted(posted) == sorted(graded)
        by_process = Counter(e["pid"] for e in entries if e["event"] == "graded")
        assert len(by_process) == 2, by_process  # both processes graded some
    finally:
        await pg.drop_database(url)

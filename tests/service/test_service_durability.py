"""Crash safety of the game service: kill -9 at random instants loses no committed action.

A driver subprocess (tests/support/service_driver.py) plays random games in several
channels and logs, with fsync, every action the service reported as done.  The
test kills it with SIGKILL at random moments (some during start-up and
migration), restarts it on the same database, and at the end checks that

* no logged (committed) action is missing: each match is at least at the
  logged version, and the logged game's stored events still start with exactly
  the logged events;
* every game's stored record replays with ``Game.replay`` to its stored row
  (finished, result, winner, ``dice_drawn``, dice from the seed), and the
  matches' scores, ledgers and ratings agree with their games
  (``audit`` in tests/support/service_driver.py);
* the service continues every unfinished game, and a last driver run resumes
  and plays on without a single refusal.
"""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

import pytest
import service_driver as driver

from bot.config import Config
from bot.service.game import GameService
from bot.service.records.verify import dice_of_record
from bot.storage.sqlite import SqliteStorage

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
CHANNELS = 6
KILLS = 20


def _driver(db: Path, log: Path, seed: int, actions: int = 0) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, str(ROOT / "tests" / "support" / "service_driver.py"), "play",
         str(db), str(log),
         str(CHANNELS), "--seed", str(seed), "--actions", str(actions)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _lines(log: Path) -> int:
    return len(driver.read_log(log))


async def test_kill_9_at_random_instants_loses_no_committed_action(tmp_path: Path) -> None:
    rng = random.Random(97_531)
    db, log = tmp_path / "games.sqlite3", tmp_path / "committed.log"
    progress: list[int] = []
    for kill in range(KILLS):
        before = _lines(log)
        proc = _driver(db, log, seed=kill)
        if rng.random() < 0.15:
            time.sleep(rng.uniform(0.0, 0.35))  # during start-up, opening or migrating
        else:
            assert proc.stdout is not None
            ready = proc.stdout.readline()
            assert ready == b"ready\n", (ready, proc.communicate()[1].decode()[-2000:])
            time.sleep(rng.uniform(0.05, 1.3))
        proc.send_signal(signal.SIGKILL)
        _, err = proc.communicate()
        assert proc.returncode == -signal.SIGKILL, err.decode()[-2000:]
        progress.append(_lines(log) - before)
    assert sum(1 for p in progress if p > 0) >= KILLS // 2, progress
    entries = driver.read_log(log)
    assert len(entries) > 100, progress

    storage = SqliteStorage(db)
    await storage.open()
    try:
        # 1. nothing committed is lost: versions and event prefixes survive
        last: dict[int, int] = {}
        lost: list[str] = []
        by_game: dict[int, list[dict[str, object]]] = defaultdict(list)
        async with storage.transaction() as tx:
            for entry in entries:
                match_id, version = int(entry["m"]), int(entry["v"])
                assert version > last.get(match_id, -1), f"log out of order: {entry}"
                last[match_id] = version
                row = await tx.get_match(match_id)
                if row is None or row.version < version:
                    lost.append(f"{entry}: match at {row.version if row else None}")
                if entry["g"] is not None:
                    by_game[int(entry["g"])].append(entry)
            for game_id, game_entries in by_game.items():
                stored = await tx.events(game_id)
                for entry in game_entries:
                    n = int(entry["n"])
                    if len(stored) < n or driver.digest(stored[:n]) != entry["h"]:
                        lost.append(f"{entry}: game {game_id} has {len(stored)} events, "
                                    "its logged prefix differs")
        assert lost == []

        # 2. every stored game replays to its row; scores, ledgers, ratings agree
        problems, seen = await driver.audit(storage)
        assert problems == []
        assert seen["finished_games"] > 0 and seen["events"] > 0, seen

        # 3. the service continues every unfinished game
        service = GameService(storage, Config())
        channels = [driver.CHANNEL_BASE + i for i in range(CHANNELS)]
        versions = {}
        for c in channels:
            snap = await driver.channel_state(storage, c)
            if snap is not None:
                versions[c] = snap.row.version
        replies = await driver.continue_all(service, storage, channels)
        assert set(replies) == set(versions)
        for c, reply in replies.items():
            assert reply.ok, (c, reply.text)
            assert reply.version == versions[c] + 1
        problems, _ = await driver.audit(storage)
        assert problems == []
    finally:
        await storage.close()

    # 4. a last driver run resumes every game and plays on without a refusal
    proc = _driver(db, log, seed=999, actions=60)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err.decode()[-2000:]
    summary = json.loads(out.decode().splitlines()[-1])
    assert summary["ok"] >= 60 and summary["refused"] == 0, summary



async def _forfeited(tmp_path: Path, **terms: int) -> tuple[list[str], dict[str, int]]:
    storage = SqliteStorage(tmp_path / "forfeit.sqlite3")
    await storage.open()
    try:
        service = GameService(storage, Config())
        channel = driver.CHANNEL_BASE
        white, _ = driver.players(channel)
        await driver.start_matches(service, [channel], **terms)
        reply = await service.forfeit(driver.place(channel), white)
        assert reply.ok, reply.text
        return await driver.audit(storage)
    finally:
        await storage.close()


@pytest.mark.parametrize("terms", [{"length": 3}, {"stake": 2}], ids=["match", "money"])
async def test_forfeit_leaves_no_game_in_progress(tmp_path: Path, terms: dict[str, int]) -> None:
    problems, _ = await _forfeited(tmp_path, **terms)
    assert not [p for p in problems if "in progress" in p], problems


async def test_forfeit_of_a_rated_match_is_rated(tmp_path: Path) -> None:
    problems, _ = await _forfeited(tmp_path, length=3)
    assert not [p for p in problems if "rating history" in p], problems


async def test_audit_notices_a_lost_or_altered_action(tmp_path: Path) -> None:
    """The checks above can fail: tampering with a stored game is reported."""
    storage = SqliteStorage(tmp_path / "tamper.sqlite3")
    await storage.open()
    try:
        service = GameService(storage, Config())
        channels = [driver.CHANNEL_BASE + i for i in range(2)]
        await driver.start_matches(service, channels, stake=1)
        for _ in range(6):
            replies = await driver.continue_all(service, storage, channels)
            assert all(r.ok for r in replies.values())
        assert (await driver.audit(storage))[0] == []
        db = storage.db
        await db.execute("UPDATE games SET dice_drawn = dice_drawn + 1 WHERE id = 1")
        # Game 2 loses its last throw and what followed it (a lost action): the last event
        # itself may be a move or a cube action, which draws no dice, so the record is cut
        # at its last throw of the dice (the game's dice are random here).
        async with db.execute("SELECT seq, data FROM events WHERE game_id = 2 "
                              "ORDER BY seq") as cur:
            rows = await cur.fetchall()
        throws = [seq for seq, data in rows if dice_of_record([json.loads(data)])]
        assert throws, rows
        await db.execute("DELETE FROM events WHERE game_id = 2 AND seq >= ?", (throws[-1],))
        problems, _ = await driver.audit(storage)
        assert any("game 1 (id 1" in p and "dice_drawn" in p for p in problems), problems
        assert any("id 2" in p and "dice_drawn" in p for p in problems), problems
    finally:
        await storage.close()

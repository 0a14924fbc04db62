"""Several bot processes on one PostgreSQL database.

* two services (two connection pools) racing on one game apply exactly one
  action per state;
* a reminder fires exactly once cluster-wide;
* two real processes hammer the same games: every version comes from exactly
  one logged call;
* fault test: one of two processes is killed (SIGKILL) at random moments
  under load and restarted; no committed action is lost, none is applied
  twice, the games go on in the other process.

Skipped with the reason when no PostgreSQL server can be started (tests/pg.py).
"""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import service_driver as driver

from bot.config import Config
from bot.service.game import GameService

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
DRIVER = ROOT / "tests" / "support" / "cluster_driver.py"


async def _open(url: str) -> Any:
    from bot.storage.postgres import PostgresStorage

    storage = PostgresStorage(url, pool_size=4)
    await storage.open()
    return storage


async def _start(url: str, channels: list[int], **terms: int) -> dict[int, int]:
    """Matches accepted in ``channels``; their version by match id."""
    storage = await _open(url)
    try:
        await driver.start_matches(GameService(storage, Config()), channels, **terms)
        start: dict[int, int] = {}
        async with storage.transaction() as tx:
            for c in channels:
                row = await tx.open_match_in_channel(c)
                assert row is not None
                start[row.id] = row.version
        return start
    finally:
        await storage.close()


async def test_two_services_racing_apply_exactly_one_action(pg_url: str) -> None:
    channels = [driver.CHANNEL_BASE + i for i in range(2)]
    await _start(pg_url, channels, stake=1)
    a, b = await _open(pg_url), await _open(pg_url)
    try:
        services = [GameService(a, Config()), GameService(b, Config())]
        raced = 0
        for step in range(40):
            channel = channels[step % 2]
            snap = await driver.channel_state(a, channel)
            assert snap is not None
            choice = driver.choose(random.Random(f"{step}:{snap.row.version}"), channel, snap,
                                   drafts=False)
            if choice is None or choice.name == "challenge":
                continue
            replies = await asyncio.gather(*(
                driver.call(s, channel, choice, snap.row.version) for s in services))
            assert sum(r.ok for r in replies) == 1, [r.text for r in replies]
            after = await driver.channel_state(b, channel)
            assert after is not None and after.row.version == snap.row.version + 1
            raced += 1
        assert raced >= 30
        problems, seen = await driver.audit(a)
        assert problems == [] and seen["events"] > 0
    finally:
        await a.close()
        await b.close()


async def test_reminders_fire_once_across_two_services(pg_url: str) -> None:
    channels = [driver.CHANNEL_BASE + i for i in range(5)]
    await _start(pg_url, channels, stake=1)
    later = datetime.now(UTC) + timedelta(hours=3)
    a, b = await _open(pg_url), await _open(pg_url)
    try:
        services = [GameService(s, Config(), clock=lambda: later) for s in (a, b) for _ in (0, 1)]
        rounds = [await asyncio.gather(*(s.due_reminders() for s in services))
                  for _ in range(3)]
        sent = Counter(channel for batch in rounds for got in batch for channel, _ in got)
        assert sent == Counter({c: 1 for c in channels})
        assert all(not got for got in rounds[-1])
        # A new state of a match is reminded again, once.
        snap = await driver.channel_state(a, channels[0])
        assert snap is not None
        choice = driver.choose(random.Random(1), channels[0], snap, drafts=False)
        assert choice is not None
        assert (await driver.call(services[0], channels[0], choice, snap.row.version)).ok
        much_later = later + timedelta(hours=3)
        again = [GameService(s, Config(), clock=lambda: much_later) for s in (a, b)]
        batches = await asyncio.gather(*(s.due_reminders() for s in again))
        assert [c for got in batches for c, _ in got] == [channels[0]]
    finally:
        await a.close()
        await b.close()


def _process(mode: str, url: str, log: Path, channels: int, *, seed: int, actions: int = 0,
             seconds: float = 0.0, go: Path | None = None) -> subprocess.Popen[bytes]:
    args = [sys.executable, str(DRIVER), mode, url, str(log), str(channels), "--seed", str(seed),
            "--actions", str(actions), "--seconds", str(seconds)]
    if go is not None:
        args += ["--go", str(go)]
    proc = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line == b"ready\n", (line + proc.stderr.read() if proc.stderr else line).decode()
    return proc


def _finish(proc: subprocess.Popen[bytes]) -> dict[str, Any]:
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err.decode()[-2000:]
    return dict(json.loads(out.decode().splitlines()[-1]))


async def _final_versions(url: str, start: dict[int, int]) -> dict[int, int]:
    storage = await _open(url)
    try:
        async with storage.transaction() as tx:
            out = {}
            for match_id in start:
                row = await tx.get_match(match_id)
                assert row is not None
                out[match_id] = row.version
            return out
    finally:
        await storage.close()


async def test_two_processes_hammering_the_same_games(pg_url: str, tmp_path: Path) -> None:
    channels = [driver.CHANNEL_BASE + i for i in range(3)]
    start = await _start(pg_url, channels, stake=2)
    go = tmp_path / "go"
    logs = [tmp_path / "a.log", tmp_path / "b.log"]
    procs = [_process("race", pg_url, log, 3, seed=5, actions=150, go=go) for log in logs]
    go.touch()
    summaries = [_finish(p) for p in procs]
    entries = [e for log in logs for e in driver.read_log(log)]
    assert len({e["pid"] for e in entries}) == 2  # both processes applied something
    assert sum(s["refused"] for s in summaries) > 0  # and they did collide
    applied = Counter((e["m"], e["v"]) for e in entries)
    assert max(applied.values()) == 1  # no version was produced twice
    assert all(e["v"] == e["before"] + 1 for e in entries)
    final = await _final_versions(pg_url, start)
    for match_id, version in start.items():
        mine = sorted(e["v"] for e in entries if e["m"] == match_id)
        # every change since the start came from exactly one logged call
        assert mine == list(range(version + 1, final[match_id] + 1))
    storage = await _open(pg_url)
    try:
        problems, _ = await driver.audit(storage)
        assert problems == []
    finally:
        await storage.close()


async def test_killing_one_of_two_processes_loses_and_repeats_nothing(
        pg_url: str, tmp_path: Path) -> None:
    channels = [driver.CHANNEL_BASE + i for i in range(4)]
    start = await _start(pg_url, channels, stake=1)
    rng = random.Random(2024)
    survivor_log, victim_logs = tmp_path / "survivor.log", []
    survivor = _process("race", pg_url, survivor_log, len(channels), seed=9, seconds=20.0)
    kills = 0
    began = time.monotonic()
    while time.monotonic() - began < 14.0:
        log = tmp_path / f"victim{kills}.log"
        victim_logs.append(log)
        victim = _process("race", pg_url, log, len(channels), seed=9)
        time.sleep(rng.uniform(0.3, 2.5))  # a random moment under load
        victim.kill()
        victim.communicate(timeout=30)
        kills += 1
    after_last_kill = len(driver.read_log(survivor_log))
    summary = _finish(survivor)
    survivor_entries = driver.read_log(survivor_log)
    victim_entries = [e for log in victim_logs for e in driver.read_log(log)]
    entries = survivor_entries + victim_entries
    assert kills >= 3 and victim_entries and summary["ok"] > 0
    # The games went on in the survivor after the last kill.
    assert len(survivor_entries) > after_last_kill
    # No action applied twice: every version was produced by at most one logged call,
    # and each from the version it was chosen for.
    applied = Counter((e["m"], e["v"]) for e in entries)
    assert max(applied.values()) == 1
    jumps = [e for e in entries if e["v"] != e["before"] + 1]
    assert not jumps, [json.dumps(e) for e in jumps[:3]]
    final = await _final_versions(pg_url, start)
    unlogged = 0
    for match_id, version in start.items():
        mine = sorted(e["v"] for e in entries if e["m"] == match_id)
        assert set(mine) <= set(range(version + 1, final[match_id] + 1))
        unlogged += (final[match_id] - version) - len(mine)
    # Only a victim killed between its commit and its log line leaves a version unlogged:
    # at most one per channel per kill.
    assert unlogged <= kills * len(channels)
    storage = await _open(pg_url)
    try:
        # No committed action lost: every logged state is a prefix of what is stored.
        async with storage.transaction() as tx:
            for e in entries:
                if e["g"] is None:
                    continue
                events = await tx.events(e["g"])
                assert len(events) >= e["n"]
                assert driver.digest(events[:e["n"]]) == e["h"], e
        problems, seen = await driver.audit(storage)
        assert problems == [] and seen["events"] > 0
        replies = await driver.continue_all(GameService(storage, Config()), storage, channels)
        assert replies and all(r.ok for r in replies.values())
    finally:
        await storage.close()

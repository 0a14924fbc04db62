"""Two bot processes end the last two matches of a round at the same moment: the round
advances exactly once (one set of next-round pairings, both results kept), on SQLite and
on PostgreSQL (the tournament row locked, then its version checked)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from scripted import Script
from tournament_play import HALL, ORGANISER, create, open_all, open_matches

from bot.config import Config
from bot.service.game import GameService
from bot.service.tournaments.data import TournamentData
from bot.storage.interface import MatchStatus, TournamentStatus
from bot.storage.sqlite import SqliteStorage
from engine.tournament import Reason

ROOT = Path(__file__).resolve().parents[3]


async def _race(storage: Any, db: str, tmp_path: Path) -> None:
    service = GameService(storage, Config(), dice=Script(then="3f1a9c52e7b4d0862b5e"))
    tid = await create(service, 4, "single-elimination")
    assert (await service.tournament_start(HALL, ORGANISER, is_organiser=True)).ok
    await open_all(service)
    round1 = sorted((await open_matches(service, tid)).items())
    assert len(round1) == 2
    go = tmp_path / "go"
    procs = [subprocess.Popen(
        [sys.executable, str(ROOT / "tests" / "support" / "tournament_race.py"), db,
         str(m.guild_id), str(m.channel_id), str(max(m.white_id, m.black_id)), str(go)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _, m in round1]
    for proc in procs:
        assert proc.stdout is not None
        assert proc.stdout.readline() == b"ready\n"
    go.touch()
    replies = []
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err.decode()[-2000:]
        replies.append(json.loads(out.decode().splitlines()[-1]))
    assert all(r["ok"] for r in replies), replies
    # Exactly one of the two endings advanced the round and announced the final.
    assert sum("round 2 is paired" in r["text"] for r in replies) == 1
    async with storage.snapshot() as tx:
        row = await tx.get_tournament(tid)
        made = await tx.tournament_matches(tid)
    assert row is not None and row.status is TournamentStatus.RUNNING and row.round == 2
    state = TournamentData.from_dict(row.state).started
    assert [p.id for p in state.round_pairings(2)] == ["R2-1"]
    assert {p.result.reason for p in state.round_pairings(1)  # type: ignore[union-attr]
            } == {Reason.FORFEIT}
    final = state.pairing("R2-1")
    assert sorted(final.players) == sorted(
        str(min(m.white_id, m.black_id)) for _, m in round1)
    assert all(made[p].status is MatchStatus.FINISHED for p, _ in round1)
    # Start + two results, each one version: nothing applied twice, nothing lost.
    assert row.version == 4 + 1 + 2  # 4 sign-ups, the start, two results
    openings = await service.tournament_openings()
    assert [o.pairing for o in openings] == ["R2-1"]


async def test_two_processes_end_the_last_matches_of_a_round(tmp_path: Path) -> None:
    db = tmp_path / "race.sqlite3"
    storage = SqliteStorage(db)
    await storage.open()
    try:
        await _race(storage, str(db), tmp_path)
    finally:
        await storage.close()


async def test_two_processes_end_the_last_matches_of_a_round_postgres(
        pg_url: str, tmp_path: Path) -> None:
    from bot.storage.postgres import PostgresStorage

    storage = PostgresStorage(pg_url, pool_size=4)
    await storage.open()
    try:
        await _race(storage, pg_url, tmp_path)
    finally:
        await storage.close()

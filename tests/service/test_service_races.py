"""Racing commands on one game apply at most one state change.

A double-click, two players pressing buttons together, two bot processes on
one database: exactly one call applies (the match version goes up by exactly
one and one group of events is recorded), every other call gets a refusal
saying the game moved on or it is not the caller's turn.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest
import service_driver as driver
from race_table import BLACK, MOVED_ON, NOT_NOW, PLACE, SPECTATOR, WHITE, make_service

from bot.config import Config
from bot.service.core.replies import Reply
from bot.service.core.values import Expect
from bot.service.game import GameService
from bot.storage.sqlite import SqliteStorage

ROOT = Path(__file__).resolve().parents[2]
@dataclass
class Table:
    storage: SqliteStorage
    service: GameService
    path: Path


@pytest.fixture
async def table(tmp_path: Path) -> AsyncIterator[Table]:
    path = tmp_path / "races.sqlite3"
    storage = SqliteStorage(path)
    await storage.open()
    service = make_service(storage)
    assert (await service.challenge(PLACE, WHITE, BLACK, stake=1)).ok
    assert (await service.accept(PLACE, BLACK)).ok  # opening 3-1: white to play
    yield Table(storage, service, path)
    await storage.close()


@dataclass(frozen=True)
class State:
    version: int
    events: tuple[str, ...]
    dice_drawn: int


async def state(storage: SqliteStorage) -> State:
    async with storage.transaction() as tx:
        row = await tx.open_match_in_channel(PLACE.channel_id)
        assert row is not None
        games = await tx.games_of_match(row.id)
        events = await tx.events(games[-1].id)
    # A play that may still be taken back is in the match state until the opponent acts
    # (bot.service.core.takeback): the game's record is the stored events, then those.
    unsettled = row.state.get("unsettled") or {}
    held = tuple(str(e["type"]) for e in unsettled.get("events", [])
                 if unsettled.get("game") == games[-1].id)
    return State(row.version, tuple(e.kind for e in events) + held, games[-1].dice_drawn)


def one_applied(replies: Sequence[Reply], before: State, after: State,
                reasons: Sequence[str] = NOT_NOW) -> Reply:
    """Exactly one reply is ok; the others are refusals with one of ``reasons``."""
    ok = [r for r in replies if r.ok]
    assert len(ok) == 1, [r.text for r in replies]
    assert ok[0].version == after.version == before.version + 1
    for r in replies:
        if not r.ok:
            assert r.ephemeral
            assert any(k in r.text.lower() for k in reasons), r.text
    assert after.events[:len(before.events)] == before.events  # append-only
    return ok[0]


async def gather(*calls: Awaitable[Reply]) -> list[Reply]:
    return list(await asyncio.gather(*calls))


async def to_black_on_roll(t: Table) -> State:
    """White plays the opening 3-1; black is on roll (and may double)."""
    reply = await t.service.move(PLACE, WHITE, "8/5 6/5")
    assert reply.ok, reply.text
    return await state(t.storage)


async def test_double_click_roll_with_the_button_version(table: Table) -> None:
    before = await to_black_on_roll(table)
    replies = await gather(*(table.service.roll(PLACE, BLACK, expect=Expect(before.version))
                             for _ in range(12)))
    after = await state(table.storage)
    one_applied(replies, before, after, MOVED_ON)
    assert after.events[len(before.events):] == ("roll",)
    assert after.dice_drawn == before.dice_drawn + 2


async def test_many_rolls_without_a_version_roll_once(table: Table) -> None:
    before = await to_black_on_roll(table)
    replies = await gather(*(table.service.roll(PLACE, BLACK) for _ in range(12)))
    after = await state(table.storage)
    one_applied(replies, before, after, ("already rolled",))
    assert after.events[len(before.events):] == ("roll",)


async def test_both_players_press_roll_together(table: Table) -> None:
    before = await to_black_on_roll(table)
    calls = [table.service.roll(PLACE, p, expect=Expect(before.version))
             for p in (SPECTATOR, WHITE, BLACK, BLACK, SPECTATOR, WHITE)]
    replies = await gather(*calls)
    after = await state(table.storage)
    ok = one_applied(replies, before, after,
                     ("moved on", "not your turn", "not playing in this game"))
    assert replies.index(ok) == 2  # the clicks before it were refused for who they are
    assert "not playing in this game" in replies[0].text.lower()
    assert "not your turn" in replies[1].text.lower()
    assert all("moved on" in r.text.lower() for r in replies[3:])  # stale buttons


async def test_double_clicks_on_double(table: Table) -> None:
    before = await to_black_on_roll(table)
    replies = await gather(*(table.service.double(PLACE, BLACK, expect=Expect(before.version))
                             for _ in range(5)))
    after = await state(table.storage)
    one_applied(replies, before, after, MOVED_ON)
    assert after.events[len(before.events):] == ("double",)
    replies = await gather(*(table.service.double(PLACE, BLACK) for _ in range(3)))
    assert not any(r.ok for r in replies)  # a double is already waiting
    assert await state(table.storage) == after


@pytest.mark.parametrize("first", ["take", "drop"])
@pytest.mark.parametrize("with_version", [True, False])
async def test_take_and_drop_together(table: Table, first: str, with_version: bool) -> None:
    await to_black_on_roll(table)
    assert (await table.service.double(PLACE, BLACK)).ok
    before = await state(table.storage)
    expect = Expect(before.version) if with_version else None
    take = table.service.take(PLACE, WHITE, expect=expect)
    drop = table.service.drop(PLACE, WHITE, expect=expect)
    replies = await gather(*((take, drop) if first == "take" else (drop, take)))
    async with table.storage.transaction() as tx:
        row = await tx.open_match_in_channel(PLACE.channel_id)
        assert row is not None
        games = await tx.games_of_match(row.id)
        done = [await tx.events(g.id) for g in games]
        ledger = await tx.balance(PLACE.guild_id, WHITE.id)
    if first == "take":
        after = await state(table.storage)
        one_applied(replies, before, after, NOT_NOW)
        assert replies[0].ok and len(games) == 1
        assert after.events[len(before.events)] == "take"
        assert ledger == 0
    else:
        assert replies[0].ok and not replies[1].ok
        assert replies[0].version == before.version + 1 == row.version
        assert [g.status for g in games] == ["finished", "active"]
        assert [e.kind for e in done[0]][len(before.events):] == ["drop", "end"]
        assert ledger == -1  # one game lost at the cube's value 1 (dropped a 2)
        assert any(k in replies[1].text.lower() for k in
                   (*NOT_NOW, "there is no double")), replies[1].text


async def test_two_different_plays_at_once_apply_one(table: Table) -> None:
    before = await state(table.storage)  # white to play the opening 3-1
    plays = ("8/5 6/5", "24/21 24/23", "13/10 6/5", "8/5 6/5", "13/9")
    replies = await gather(*(table.service.move(PLACE, WHITE, p) for p in plays))
    after = await state(table.storage)
    one_applied(replies, before, after, ("not your turn",))
    assert replies[0].ok
    assert after.events[len(before.events)] == "play"
    assert after.events.count("play") == before.events.count("play") + 1


async def test_a_draft_and_a_play_race(table: Table) -> None:
    before = await state(table.storage)
    replies = await gather(table.service.move(PLACE, WHITE, "8/5"),
                           table.service.move(PLACE, WHITE, "8/5"),
                           table.service.move(PLACE, WHITE, "8/5 6/5"))
    after = await state(table.storage)
    # The first 8/5 is kept as a draft (a version, no event); the others are read
    # on top of it ("8/5 8/5", "8/5 8/5 6/5" are not 3-1) and refused.
    assert replies[0].ok and "8/5" in replies[0].text
    assert not replies[1].ok and not replies[2].ok
    assert after.version == before.version + 1 and after.events == before.events


async def test_two_services_on_one_file_apply_once(table: Table) -> None:
    """Two processes' worth of state: separate connections, separate locks and caches."""
    other_storage = SqliteStorage(table.path)
    await other_storage.open()
    other = make_service(other_storage)
    try:
        before = await to_black_on_roll(table)
        # warm both caches at this version, as two running bots would be
        assert (await other.board(PLACE, SPECTATOR)).version == before.version
        calls = []
        for _ in range(4):
            calls += [table.service.roll(PLACE, BLACK, expect=Expect(before.version)),
                      other.roll(PLACE, BLACK, expect=Expect(before.version))]
        replies = await gather(*calls)
        after = await state(table.storage)
        one_applied(replies, before, after, MOVED_ON)
        assert after.events[len(before.events):] == ("roll",)

        before = after  # black to play 6-5: both bots get a play, without versions
        replies = await gather(other.move(PLACE, BLACK, "24/13"),
                               table.service.move(PLACE, BLACK, "24/18 13/8"),
                               other.move(PLACE, BLACK, "13/8 13/7"))
        after = await state(table.storage)
        one_applied(replies, before, after, ("not your turn",))
        assert after.events[len(before.events)] == "play"

        before = after  # and each sees the other's change
        reply = await other.board(PLACE, SPECTATOR)
        assert reply.ok and reply.version == before.version
        problems, _ = await driver.audit(table.storage, seeded=False)
        assert problems == []
    finally:
        await other_storage.close()


def _race_process(db: Path, log: Path, go: Path, seed: int) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, str(ROOT / "tests" / "support" / "service_driver.py"), "race",
         str(db), str(log),
         "3", "--seed", str(seed), "--actions", "250", "--go", str(go)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


async def test_two_processes_hammering_the_same_games(tmp_path: Path) -> None:
    db = tmp_path / "shared.sqlite3"
    storage = SqliteStorage(db)
    await storage.open()
    try:
        channels = [driver.CHANNEL_BASE + i for i in range(3)]
        await driver.start_matches(GameService(storage, Config()), channels, stake=2)
        start = {}
        async with storage.transaction() as tx:
            for c in channels:
                row = await tx.open_match_in_channel(c)
                assert row is not None
                start[row.id] = row.version
    finally:
        await storage.close()
    logs: list[Path] = []
    summaries = []
    # On a loaded machine one process may finish its burst before the other starts; the
    # race is run again (on the same games, a new seed) until the two did collide.
    for attempt in range(4):
        go = tmp_path / f"go-{attempt}"
        pair = [tmp_path / f"a{attempt}.log", tmp_path / f"b{attempt}.log"]
        procs = [_race_process(db, log, go, seed=5 + attempt) for log in pair]
        for proc in procs:
            assert proc.stdout is not None
            assert proc.stdout.readline() == b"ready\n"
        go.touch()
        for proc in procs:
            out, err = proc.communicate(timeout=60)
            assert proc.returncode == 0, err.decode()[-2000:]
            summaries.append(json.loads(out.decode().splitlines()[-1]))
        logs += pair
        if sum(s["refused"] for s in summaries[-2:]) > 0:
            break
    entries = [e for log in logs for e in driver.read_log(log)]
    last = [e for log in logs[-2:] for e in driver.read_log(log)]
    assert len({e["pid"] for e in last}) == 2  # both processes applied something
    assert sum(s["refused"] for s in summaries[-2:]) > 0  # and they did collide
    applied = Counter((e["m"], e["v"]) for e in entries)
    assert max(applied.values()) == 1  # no version was produced twice
    assert all(e["v"] == e["before"] + 1 for e in entries)
    storage = SqliteStorage(db)
    await storage.open()
    try:
        async with storage.transaction() as tx:
            for match_id, version in start.items():
                row = await tx.get_match(match_id)
                assert row is not None
                mine = sorted(e["v"] for e in entries if e["m"] == match_id)
                # every change since the start came from exactly one logged call
                assert mine == list(range(version + 1, row.version + 1))
        problems, _ = await driver.audit(storage)
        assert problems == []
    finally:
        await storage.close()

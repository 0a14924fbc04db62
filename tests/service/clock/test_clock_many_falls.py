"""Many flags falling at once (issue 44 item 6: "posted at once by a background timer,
within a second of the fall, also for thousands of clocked games at once").

* One look of the timer (:meth:`GameService.due_work`) posts every flag that has fallen,
  not one page of them a quarter of a second (a thousand falls were five looks: a second
  of waiting alone).
* Each match still ends in its own transaction, checked against the time at its commit;
  those commits do not each wait for the disk: one sync makes them all durable before any
  of them is posted (a kill of the process loses none of them, SQLite's WAL holds them).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from backends import backend as backend_named
from clock_time import T0, Time
from scripted import OPENED, Script

from bot.config import Config
from bot.service.core.values import Actor, Place
from bot.service.game import GameService
from bot.storage.interface import MatchStatus
from bot.storage.sqlite import SqliteStorage


class Recording(SqliteStorage):
    """SQLite storage that notes each action transaction's durability and each sync."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.log: list[str] = []

    async def run(self, work: Any, *, lock_channel: int | None = None,
                  durable: bool = True) -> Any:
        result = await super().run(work, lock_channel=lock_channel, durable=durable)
        self.log.append("durable" if durable else "deferred")
        return result

    async def sync(self) -> None:
        await super().sync()
        self.log.append("sync")


async def clocked(path: Path, games: int, kind: type[SqliteStorage] = SqliteStorage
                  ) -> tuple[GameService, SqliteStorage, Time]:
    storage = kind(path / "bg.sqlite3")
    await storage.open()
    OPENED.append(storage)
    time = Time()
    service = GameService(storage, Config(), dice=Script(then="0123456789abcdef"), clock=time)
    await service.clocks.beat(int(T0.timestamp() * 1000))
    for i in range(games):
        place = Place(1, 1000 + i)
        a, b = Actor(10 + 2 * i, f"a{i}"), Actor(11 + 2 * i, f"b{i}")
        made = await service.challenge(place, a, b, length=1, clock="0s+2s/pt")
        assert made.ok, made.text
        assert (await service.accept(place, b)).ok
    return service, storage, time


async def finished(service: GameService, games: int) -> int:
    count = 0
    async with service.storage.snapshot() as tx:
        for i in range(games):
            row = await tx.latest_match_in_channel(1000 + i)
            assert row is not None
            count += row.status is MatchStatus.FINISHED
    return count


async def test_one_look_posts_every_fallen_flag_beyond_a_page(tmp_path: Path) -> None:
    games = 230  # more than the 200 clocks read at once
    service, _, time = await clocked(tmp_path, games)
    time.at(2)  # every flag falls now (2 s of reserve, no delay)
    posted = await service.due_work()
    assert sorted(channel for channel, _ in posted) == [1000 + i for i in range(games)]
    assert all("time ran out" in reply.text for _, reply in posted)
    assert await finished(service, games) == games
    assert await service.due_work() == []  # each decided once


async def test_the_falls_are_synced_once_before_they_are_posted(tmp_path: Path) -> None:
    service, storage, time = await clocked(tmp_path, 5, Recording)
    assert isinstance(storage, Recording)
    time.at(2)
    storage.log.clear()
    posted = await service.due_work()
    assert len(posted) == 5
    falls = [entry for entry in storage.log if entry != "durable"]  # (the beat is durable)
    assert falls == ["deferred"] * 5 + ["sync"]
    assert storage.log[-1] == "sync"  # nothing committed after the sync went unsynced
    # An ordinary action after them waits for the disk again (the safety level is back).
    async with storage.db.execute("PRAGMA synchronous") as cur:
        level = await cur.fetchone()
    assert level is not None and level[0] == 2  # FULL


async def test_a_flag_not_fallen_at_commit_is_not_posted(tmp_path: Path) -> None:
    """Batching changes nothing of the race (issue 44 item 6: decided once, by the time at
    commit): a clock found due whose player acted meanwhile is not ended."""
    service, storage, time = await clocked(tmp_path, 3)
    time.at(2)
    async with storage.snapshot() as tx:
        due = await tx.due_clocks(int(time.now.timestamp() * 1000))
    assert len(due) == 3
    time.at(1.5)  # the service's time at commit: before the fall
    assert [await service.clocks.fall(row) for row in due] == [None, None, None]
    assert await finished(service, 3) == 0
    async with storage.db.execute("PRAGMA synchronous") as cur:
        level = await cur.fetchone()
    assert level is not None and level[0] == 2  # FULL again after the refused ones


@pytest.mark.parametrize("name", ["sqlite", "postgres"])
async def test_many_falls_on_both_backends(name: str, tmp_path: Path) -> None:
    """The deferred commits and their sync on each backend (PostgreSQL: every commit is
    durable, the sync is nothing): each fall posted once, the matches finished."""
    async with backend_named(name, tmp_path) as backend:
        storage = await backend.open()
        time = Time()
        service = GameService(storage, Config(), dice=Script(then="0123456789abcdef"),
                              clock=time)
        await service.clocks.beat(int(T0.timestamp() * 1000))
        for i in range(4):
            place = Place(1, 1000 + i)
            a, b = Actor(10 + 2 * i, f"a{i}"), Actor(11 + 2 * i, f"b{i}")
            assert (await service.challenge(place, a, b, length=1, clock="0s+2s/pt")).ok
            assert (await service.accept(place, b)).ok
        time.at(2)
        posted = await service.due_work()
        assert sorted(channel for channel, _ in posted) == [1000, 1001, 1002, 1003]
        assert await finished(service, 4) == 4
        assert await service.due_work() == []
        async with storage.snapshot() as tx:  # each rated once, read in one query
            both = await tx.ratings_of(1, (10, 11))  # (the first match's players)
            assert both == (await tx.rating(1, 10), await tx.rating(1, 11))
            assert sorted(r.experience for r in both) == [1, 1]
            assert both[0].rating + both[1].rating == pytest.approx(3000.0)
            assert await tx.ratings_of(2, (10, 11)) == (
                await tx.rating(2, 10), await tx.rating(2, 11))  # never rated: default

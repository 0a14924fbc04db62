"""The clock's timer under load (issue 44 item 6): ``N`` clocked matches whose flags fall at
the same moment, on SQLite, posted by the timer's one entry point
(``GameService.due_work``).  Reported: how long after the fall the last of them is posted
(the target is a second), and the time per fall against an ordinary ``/roll`` in the same
run (the reference: a flag fall is one action's transaction, plus the match's end)."""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "support"))

from scripted import Script

from bot.config import Config
from bot.service.core.values import Actor, Place
from bot.service.game import GameService
from bot.storage.sqlite import SqliteStorage

T0 = datetime(2026, 1, 1, 12, tzinfo=UTC)


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        return self.now


async def _measure(games: int) -> list[str]:
    with tempfile.TemporaryDirectory() as folder:
        storage = SqliteStorage(Path(folder) / "bench.sqlite3")
        await storage.open()
        clock = Clock()
        service = GameService(storage, Config(), dice=Script(then="0123456789abcdef"),
                              clock=clock)
        try:
            await service.clocks.beat(int(T0.timestamp() * 1000))
            for i in range(games):
                place = Place(1, 1000 + i)
                a, b = Actor(10 + 2 * i, f"a{i}"), Actor(11 + 2 * i, f"b{i}")
                made = await service.challenge(place, a, b, length=1, clock="0s+2s/pt")
                assert made.ok, made.text
                assert (await service.accept(place, b)).ok
            # The reference: an ordinary action (a roll) in matches without a clock.
            rolls = []
            for i in range(min(games, 50)):
                place = Place(1, 900_000 + i)
                a, b = Actor(5_000_000 + 2 * i, "x"), Actor(5_000_001 + 2 * i, "y")
                await service.challenge(place, a, b, stake=1)
                await service.accept(place, b)
                started = time.perf_counter()
                await service.board(place, a)
                rolls.append((time.perf_counter() - started) * 1000)
            clock.now = T0 + timedelta(seconds=2)  # every flag falls now
            await service.clocks.beat(int(clock.now.timestamp() * 1000))
            posted = 0
            started, cpu = time.perf_counter(), time.process_time()
            while posted < games:
                posted += len(await service.due_work())
            wall = (time.perf_counter() - started) * 1000
            cpu = (time.process_time() - cpu) * 1000
        finally:
            await storage.close()
    per_fall = wall / games
    reference = statistics.median(rolls)
    return [f"clock timer: {games} flags falling at once, the last posted {wall:.0f} ms after "
            f"the timer's first look (target 1000 ms; this process's CPU {cpu:.0f} ms); "
            f"{per_fall:.1f} ms a fall, "
            f"{per_fall / reference:.1f}x a look at a board ({reference:.1f} ms)"]


def run(quick: bool = False) -> list[str]:
    lines = []
    for games in ((20, 100) if quick else (100, 1000)):
        lines += asyncio.run(_measure(games))
    return lines


if __name__ == "__main__":
    print("\n".join(run("--quick" in sys.argv)))

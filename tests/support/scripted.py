"""Shared test helpers: scripted dice and databases that are always closed."""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator
from pathlib import Path

from bot.storage.sqlite import SqliteStorage


class Script:
    """Dice for every game, in order, whatever the seed (tests only).

    ``GameService(storage, config, dice=Script([...]))`` draws from it.  When the
    scripted values run out, ``then`` (a string of hex digits, cycled) supplies
    more dice; without it a test that needs more dice than it scripted fails.
    """

    def __init__(self, dice: Iterable[int] = (), *, then: str = "") -> None:
        self.values = list(dice)
        self.fallback: Iterator[int] | None = (
            (int(c, 16) % 6 + 1 for c in itertools.cycle(then)) if then else None)

    def __call__(self, seed: str, start: int) -> Script.Stream:
        return Script.Stream(self)

    class Stream:
        def __init__(self, script: Script) -> None:
            self.script = script
            self.drawn = 0

        def die(self) -> int:
            self.drawn += 1
            if self.script.values or self.script.fallback is None:
                return self.script.values.pop(0)
            return next(self.script.fallback)


OPENED: list[SqliteStorage] = []


async def opened(path: Path) -> SqliteStorage:
    """An open SQLite storage that conftest's ``close_storages`` closes after the test."""
    storage = SqliteStorage(path)
    await storage.open()
    OPENED.append(storage)
    return storage

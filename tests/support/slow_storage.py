"""A slow database for the deadline tests (issue 29): SQLite whose every transaction waits,
while :attr:`SlowStorage.slow` is on, until Discord has a first response to every
interaction sent (or ``hold`` seconds, longer than Discord's 3 s).

A bot that answers (or defers) before it waits on the database goes on at once; a bot
that waits on the database first answers after ``hold`` seconds, which the fake Discord
refuses (10062): no timing threshold in the test, only the order of events.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TypeVar

from fake_discord import FakeDiscord

from bot.storage.interface import Transaction
from bot.storage.sqlite import SqliteStorage
from bot.storage.sqlite.transaction import SqliteTransaction

T = TypeVar("T")
HOLD = 3.5


class SlowStorage(SqliteStorage):
    def __init__(self, path: Path, fake: FakeDiscord, hold: float = HOLD) -> None:
        super().__init__(path)
        self.fake = fake
        self.hold = hold
        self.slow = False
        self.held = 0
        """How many transactions waited."""

    async def _wait(self) -> None:
        if not self.slow:
            return
        self.held += 1
        try:
            await self.fake.until(lambda: all(r.callbacks for r in
                                              self.fake.interactions.values()), self.hold)
        except TimeoutError:
            pass

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[SqliteTransaction]:
        await self._wait()
        async with super().transaction() as tx:
            yield tx

    @asynccontextmanager
    async def snapshot(self) -> AsyncIterator[SqliteTransaction]:
        await self._wait()
        async with super().snapshot() as tx:
            yield tx

    async def run(self, work: Callable[[Transaction], Awaitable[T]], *,
                  lock_channel: int | None = None, durable: bool = True) -> T:
        await self._wait()
        return await super().run(work, lock_channel=lock_channel, durable=durable)


def slow_storage(fake: FakeDiscord) -> Callable[[Path], SqliteStorage]:
    """A :attr:`discord_e2e.Host.storage_factory` making a :class:`SlowStorage`."""
    return lambda path: SlowStorage(path, fake)

"""The console's clock timer (issue 44): the service's one entry point for the clocks' due
work (:meth:`~bot.service.game.GameService.due_work`), called every quarter of a second
while the console runs, prints each match lost on time as it happens, without anyone
typing."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Protocol

from bot.service.core.replies import Reply
from bot.service.core.values import Place
from bot.service.game import GameService

log = logging.getLogger(__name__)


class Console(Protocol):
    """What the timer uses of :class:`bot.adapters.console.Console`."""

    service: GameService

    @property
    def place(self) -> Place: ...
    def say(self, text: str) -> None: ...
    def channel_name(self, channel: int) -> str: ...
    async def show(self, reply: Reply) -> None: ...

TICK_SECONDS = 0.25
"""How often the timer looks: a flag fall is printed within a second of it."""


async def keep_clocks(console: Console, tick: float = TICK_SECONDS) -> None:
    """Print every flag fall (the final board and both clocks) until cancelled."""
    while True:
        try:
            for channel, reply in await console.service.due_work():
                if channel != console.place.channel_id:
                    console.say(f"  (in #{console.channel_name(channel)})")
                await console.show(reply)
        except Exception:  # the timer goes on: the next round tries again
            log.exception("the clock timer failed")
        await asyncio.sleep(tick)


@contextlib.asynccontextmanager
async def clock_timer(console: Console) -> AsyncIterator[None]:
    """The timer runs while the console does."""
    task = asyncio.create_task(keep_clocks(console))
    try:
        yield
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

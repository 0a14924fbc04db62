"""The console's background work, as the Discord bot's loops do it (issue 42 item 18):

* the pairings of a tournament round open as soon as the round is paired (the service's
  ``tournament_play.wakeup``, as :class:`~bot.adapters.discord.cogs.tournament.TournamentCog`
  waits on it; and every :data:`PERIOD` seconds, for those another process paired);
* the tournaments' round reminders and passed deadlines (``tournament_due``), and the
  reminders of games left idle longer than ``reminder_minutes`` (``due_reminders``), are
  printed when due, each with the channel it belongs to.

The work waits while a typed line runs (``Console.busy``), so their outputs never mix.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator

from bot.adapters.console.screen import Screen, channel_id
from bot.adapters.console.tournament import open_pairings
from bot.service.core.replies import Notice

log = logging.getLogger(__name__)

PERIOD = 30.0
"""Seconds between two looks at the due work (a reminder is printed at most this late)."""


def place_name(console: Screen, channel: int) -> str:
    """Where a channel is, as the console names it: ``#name``, or a DM by its name."""
    name = console.channel_name(channel)
    kind, _, rest = name.partition(":")
    if rest and kind == "dm":
        return f"the DM {rest!r}"
    if rest and kind == "group_dm":
        return f"the group DM {rest!r}"
    return "#" + name


async def run_due(console: Screen) -> int:
    """Do the due work once: open the pairings waiting for a place, print the due
    reminders; how many lines were printed."""
    service = console.service
    async with console.busy:
        await open_pairings(console, channel_id)
        due: list[tuple[int, Notice]] = [*await service.tournament_due(),
                                         *await service.due_reminders()]
        for channel, line in due:
            here = channel == console.place.channel_id
            console.say(("  " if here else f"  (in {place_name(console, channel)}) ")
                        + console.text_of(line))
    return len(due)


async def due_loop(console: Screen, period: float = PERIOD) -> None:
    """Do the due work now, then whenever the service says pairings wait, and every
    ``period`` seconds, until cancelled."""
    wakeup = console.service.tournament_play.wakeup
    while True:
        try:
            await run_due(console)
        except Exception:  # the next round tries again (the database may be away)
            log.exception("the console's background work failed")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(wakeup.wait(), period)


@contextlib.asynccontextmanager
async def due_work(console: Screen,
                   period: float = PERIOD) -> AsyncIterator[asyncio.Task[None]]:
    """The background work running while the block runs (the console's session)."""
    task = asyncio.create_task(due_loop(console, period), name="console-due-work")
    try:
        yield task
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

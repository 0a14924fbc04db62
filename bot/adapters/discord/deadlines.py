"""The deadlines of answering an interaction: Discord wants the first response within 3 s,
autocomplete cannot be deferred, and an interaction's token lives 15 minutes.  The presenter
(:mod:`.presenter`) and the cogs count from when the bot first handled the interaction
(:func:`received`), across every service call made before the first response."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import Any, TypeVar

import discord

DEFER_AFTER = 1.0
"""Seconds an interaction may wait for the service before it is deferred: Discord wants the
first response within 3 s of sending the interaction, and the network's delay (both ways)
comes on top."""
AUTOCOMPLETE_BUDGET = 1.0
"""Seconds autocomplete waits for the service before it answers with no choices (it cannot
be deferred)."""
PRIVATE_DEFER = "bg_private_defer"
"""The key of ``interaction.extras`` set while a private "thinking..." is unresolved."""
PUBLIC_DEFER = "bg_public_defer"
"""The key of ``interaction.extras`` set while a public "thinking..." is unresolved (its
first follow-up would be public, whatever it asks)."""
DONE = "bg_done"
"""The key of ``interaction.extras`` set once the service carried the action out (an ``ok``
reply): an error after that must not say that nothing was changed."""
TOKEN_MARGIN = 14 * 60.0
"""Seconds after the interaction's arrival that long work still answers through the
interaction (its token lives 15 minutes); later, in the channel."""
RECEIVED = "bg_received"
"""The key of ``interaction.extras`` holding when the bot first handled the interaction."""
T = TypeVar("T")
log = logging.getLogger(__name__)


def received(interaction: discord.Interaction[Any]) -> float:
    """When the bot began handling ``interaction`` (the event loop's clock): the deadlines
    count from there, across every service call made before the first response."""
    now = asyncio.get_running_loop().time()
    return float(interaction.extras.setdefault(RECEIVED, now))


async def choices(work: Awaitable[list[T]], budget: float = AUTOCOMPLETE_BUDGET) -> list[T]:
    """Autocomplete's choices from ``work`` if it answers within ``budget`` seconds, else
    none: an autocomplete answer cannot be deferred, and a late one is lost."""
    try:
        return await asyncio.wait_for(work, budget)
    except TimeoutError:
        log.info("autocomplete answered with no choices: the service took over %.1f s",
                 budget)
        return []

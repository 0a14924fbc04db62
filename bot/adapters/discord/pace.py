"""The bot's own pace under Discord's global rate limit (issue 43 item 2).

discord.py waits as each route's bucket tells it (``X-RateLimit-*`` headers), but learns of
the global limit (50 requests per second for a bot, all routes together: discord-api-docs
topics/rate-limits.md) only from a 429, and gives a request up after five 429s in a row.  A
burst of posts in many channels at once (a grading run's results, live boards, a round's
threads, reminders, all together) could so lose posts.  :class:`Pace` queues every REST
request of the bot's token in arrival order and spreads them at :data:`RATE` per second,
under the limit; what is within the pace goes at once.

Interaction callbacks and the interactions' webhooks (follow-ups, the original response) go
through discord.py's webhook adapter, not through the bot's HTTP client: they are not bound
to the global limit, and the pace never holds an answer to a player up.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

RATE = 45
"""Requests per second the bot allows itself (Discord's global limit: 50)."""
T = TypeVar("T")


class Pace:
    """At most ``rate`` requests in any ``per`` seconds, in the order they come."""

    def __init__(self, rate: int = RATE, per: float = 1.0) -> None:
        self.rate = rate
        self.per = per
        self.waited = 0
        """How many times the queue waited for the pace (for the logs and tests)."""
        self._sent: deque[float] = deque()
        self._lock = asyncio.Lock()

    async def take(self) -> None:
        """Wait for the request's turn."""
        async with self._lock:  # (first come, first served)
            loop = asyncio.get_running_loop()
            while True:
                now = loop.time()
                while self._sent and now - self._sent[0] >= self.per:
                    self._sent.popleft()
                if len(self._sent) < self.rate:
                    break
                self.waited += 1
                await asyncio.sleep(self._sent[0] + self.per - now)
            self._sent.append(now)

    def paced(self, request: Callable[..., Awaitable[T]]) -> Callable[..., Awaitable[T]]:
        """``request`` (discord.py's ``HTTPClient.request``) taking its turn first."""

        async def wrapper(*args: Any, **kwargs: Any) -> T:
            await self.take()
            return await request(*args, **kwargs)

        return wrapper

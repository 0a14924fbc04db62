"""The bot's pace under Discord's global limit (bot/adapters/discord/pace.py, issue 43
item 2): at most ``rate`` requests in any ``per`` seconds, first come first served, and
what is within the pace goes at once."""

from __future__ import annotations

import asyncio

from bot.adapters.discord.pace import Pace


async def test_requests_are_spread_in_the_order_they_come() -> None:
    pace = Pace(rate=3, per=0.2)
    loop = asyncio.get_running_loop()
    sent: list[tuple[int, float]] = []

    async def request(n: int) -> int:
        sent.append((n, loop.time()))
        return n

    paced = pace.paced(request)
    start = loop.time()
    assert await asyncio.gather(*(paced(n) for n in range(9))) == list(range(9))
    assert [n for n, _ in sent] == list(range(9))  # in order
    times = [t - start for _, t in sent]
    assert max(times[:3]) < 0.1  # within the pace: at once
    for i in range(3, 9):  # never more than 3 in any 0.2 s
        assert times[i] - times[i - 3] >= 0.2 - 1e-3, times
    assert pace.waited == 2  # (each wait let the next 3 go)

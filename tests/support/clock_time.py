"""The fake time of the clock tests (issue 44) and what they read back."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.service.core.values import Actor, Place
from bot.service.game import GameService
from bot.storage.interface import ClockRow, MatchStatus

ALICE = Actor(1, "alice")
BOB = Actor(2, "bob")
HERE = Place(guild_id=7, channel_id=70)
T0 = datetime(2026, 1, 1, 12, tzinfo=UTC)
OPENING = [3, 1]
"""alice (white) throws 3, bob 1: alice plays 3-1 first (8/5 6/5)."""


class Time:
    """The service's time source, moved by the test."""

    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        return self.now

    def at(self, seconds: float) -> None:
        self.now = T0 + timedelta(seconds=seconds)

    @property
    def seconds(self) -> float:
        return (self.now - T0).total_seconds()


async def clock_of(service: GameService) -> ClockRow:
    async with service.storage.snapshot() as tx:
        row = await tx.latest_match_in_channel(HERE.channel_id)
        assert row is not None
        found = await tx.match_clock(row.id)
    assert found is not None
    return found


async def status(service: GameService) -> tuple[MatchStatus, int | None]:
    async with service.storage.snapshot() as tx:
        row = await tx.latest_match_in_channel(HERE.channel_id)
    assert row is not None
    return row.status, row.winner_id

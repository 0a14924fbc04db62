"""Helpers for the grading and puzzle tests: an analyser in this process, and short
matches with a known blunder played through the service."""

from __future__ import annotations

from bot.ai.analysis import GameAnalysis, analyze
from bot.ai.context import MatchContext
from bot.ai.levels import DEFAULT_LEVEL, Level
from bot.service.core.replies import Reply
from bot.service.core.values import Actor, Place
from bot.service.game import GameService
from engine.record import GameRecord

ALICE = Actor(1, "alice")
BOB = Actor(2, "bob")

OPENING = [1, 3]
"""The opening throw: alice 1, bob 3, so bob plays a 3-1 first."""

BLUNDER = "8/4"
"""Bob's 3-1 in :func:`blunder_match`: it gives up about 0.38 EMG to 8/5 6/5."""


class InProcess:
    """Grades in this process, counting its calls (the real worker is
    :class:`bot.ai.background.BackgroundAnalyser`)."""

    def __init__(self) -> None:
        self.calls = 0
        self.closed = False

    async def analyze(self, record: GameRecord, context: MatchContext | None = None,
                      level: Level = DEFAULT_LEVEL, *, timeout: float = 120.0) -> GameAnalysis:
        self.calls += 1
        return analyze(record, context, level)

    def close(self) -> None:
        self.closed = True


def ok(reply: Reply) -> Reply:
    assert reply.ok, reply.text
    return reply


async def blunder_match(service: GameService, place: Place, *, variant: str | None = None,
                        length: int = 1) -> Reply:
    """A 1-point match (by default): bob opens with 3-1 played 8/4, alice resigns at
    once; the reply of the match's end.  Dice: :data:`OPENING`."""
    ok(await service.challenge(place, ALICE, BOB, length=length, variant=variant))
    ok(await service.accept(place, BOB))
    ok(await service.move(place, BOB, BLUNDER))
    ok(await service.resign(place, ALICE, "single"))
    return ok(await service.answer_resignation(place, BOB, True))

"""The bot is not graded by its own search (issue 47, item 3): a match is graded one
depth above the deepest level that played in it (GNU 2-ply when the strong level, GNU
1-ply, played), and where no deeper analysis exists (the expert level, GNU 2-ply) the
grades say plainly that the bot is graded by its own engine."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from grading import ALICE, OPENING, blunder_match, ok
from scripted import Script, opened

from bot.ai.analysis import GameAnalysis, analyze
from bot.ai.context import MatchContext
from bot.ai.levels import DEFAULT_LEVEL, EXPERT, STRONG, Level
from bot.ai.runner import AIRunner
from bot.config import Config
from bot.service.core.replies import Reply
from bot.service.core.values import Actor, Place
from bot.service.game import GameService
from engine.record import GameRecord

HERE = Place(guild_id=7, channel_id=70)
AI = Actor(99, "gnubot", is_bot=True)


class Recording:
    """Grades in this process and notes the depth each game was graded at."""

    def __init__(self) -> None:
        self.levels: list[Level] = []

    async def analyze(self, record: GameRecord, context: MatchContext | None = None,
                      level: Level = DEFAULT_LEVEL, *, timeout: float = 120.0) -> GameAnalysis:
        self.levels.append(level)
        return analyze(record, context, level)

    def close(self) -> None:
        pass


class Posts:
    def __init__(self) -> None:
        self.sent: list[tuple[int, Reply]] = []

    async def __call__(self, channel: int, reply: Reply) -> None:
        self.sent.append((channel, reply))


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[GameService]:
    runner = AIRunner(processes=False, time_limit=20.0)
    await runner.start()
    storage = await opened(tmp_path / "bg.sqlite3")
    svc = GameService(storage, Config(), dice=Script(OPENING * 4), ai=runner)
    svc.set_ai_user(AI.id, AI.name)
    yield svc
    runner.close()
    await storage.close()


async def _graded(service: GameService) -> tuple[list[Level], str]:
    recording, posts = Recording(), Posts()
    grader = service.grader(recording, posts)
    assert await grader.run_once() is not None
    assert await grader.post_pending() == 1
    ((_, reply),) = posts.sent
    return recording.levels, reply.text


async def _lose_to_the_bot(service: GameService, level: str) -> None:
    """A 1-point match against the bot at ``level``: alice resigns at her first turn."""
    ok(await service.challenge(HERE, ALICE, AI, length=1, level=level))
    for _ in range(10):
        board = await service.board(HERE, ALICE)
        if not board.ok:  # the match is over
            return
        if not (await service.resign(HERE, ALICE, "single")).ok:  # not her turn to act
            ok(await service.roll(HERE, ALICE))
    raise AssertionError("the match did not end")


async def test_a_match_the_strong_bot_played_is_graded_deeper(service: GameService) -> None:
    await _lose_to_the_bot(service, "strong")
    levels, text = await _graded(service)
    assert levels and all(lv.depth is EXPERT.depth for lv in levels)
    assert "Depth: GNU 2-ply" in text
    assert "graded deeper, at GNU 2-ply" in text and "own engine's" in text


async def test_a_match_the_expert_bot_played_says_it_grades_the_bot_by_its_own_engine(
        service: GameService) -> None:
    await _lose_to_the_bot(service, "expert")
    levels, text = await _graded(service)
    assert levels and all(lv.depth is EXPERT.depth for lv in levels)
    assert "graded by its own engine" in text


async def test_players_only_and_the_weak_levels_keep_the_default_depth(
        service: GameService) -> None:
    await blunder_match(service, HERE)
    levels, text = await _graded(service)
    assert levels == [STRONG] and "own engine" not in text
    await _lose_to_the_bot(service, "intermediate")
    levels, text = await _graded(service)
    assert levels and all(lv.depth is STRONG.depth for lv in levels)
    assert "graded deeper, at GNU 1-ply" in text

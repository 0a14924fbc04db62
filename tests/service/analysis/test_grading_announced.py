"""Issue 42 item 4: with ``analysis_announcements`` set, the end of a match names the
channel where its grades go (it said "will be posted here", then posted them elsewhere)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from grading import OPENING, blunder_match
from scripted import Script, opened

from bot.ai.runner import AIRunner
from bot.config import Config
from bot.service.core.replies import ChannelMention, plain
from bot.service.core.values import Actor, Place
from bot.service.game import GameService

HERE = Place(guild_id=7, channel_id=70)
ADMIN = Actor(9, "admin")


@pytest.fixture
async def ai() -> AsyncIterator[AIRunner]:
    runner = AIRunner(processes=False, time_limit=20.0)
    yield runner
    runner.close()


async def _service(tmp_path: Path, ai: AIRunner) -> GameService:
    storage = await opened(tmp_path / "bg.sqlite3")
    return GameService(storage, Config(), dice=Script(OPENING * 4), ai=ai)


async def test_the_grades_channel_is_named(tmp_path: Path, ai: AIRunner) -> None:
    service = await _service(tmp_path, ai)
    assert (await service.settings_set(HERE, ADMIN, "analysis_announcements", "71",
                                       manage_server=True)).ok
    ended = await blunder_match(service, HERE)
    assert "posted here" not in ended.text
    (line,) = [n for n in ended.notify if "being graded" in plain(n)]
    assert ChannelMention(71) in line
    assert plain(line) == ("This match is being graded in the background: each player's PR "
                           "and luck will be posted in #71.")


async def test_without_an_announcement_channel_they_go_here(tmp_path: Path,
                                                          ai: AIRunner) -> None:
    service = await _service(tmp_path, ai)
    ended = await blunder_match(service, HERE)
    assert "PR and luck will be posted here." in ended.text

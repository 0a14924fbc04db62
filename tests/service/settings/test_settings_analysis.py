"""The analysis options are server settings (issue 29 item 11 with issue 33): a server's
``grade_matches``, ``anonymous_puzzles``, ``puzzle_min_equity``, ``daily_puzzle_channel``
and ``analysis_announcements`` win over the operator's ``[analysis]`` config, which
applies where the server set nothing; ``board_mode`` is a setting too.  Real SQLite, real
bgsage in this process."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest
from grading import OPENING, InProcess, blunder_match
from scripted import Script, opened

from bot.ai.runner import AIRunner
from bot.config import Config
from bot.service.core.replies import Reply
from bot.service.core.values import Actor, Place
from bot.service.game import GameService

ADMIN = Actor(1, "admin")
CAROL = Actor(3, "carol")
OWN = Place(guild_id=7, channel_id=70)
"""A server that sets its own values."""
PLAIN = Place(guild_id=8, channel_id=80)
"""A server that sets nothing."""


@pytest.fixture
async def ai() -> AsyncIterator[AIRunner]:
    runner = AIRunner(processes=False, time_limit=20.0)
    yield runner
    runner.close()


def _config(**analysis: object) -> Config:
    config = Config()
    return replace(config, analysis=replace(config.analysis, **analysis))  # type: ignore[arg-type]


async def _service(tmp_path: Path, ai: AIRunner | None, config: Config | None = None
                   ) -> GameService:
    storage = await opened(tmp_path / "bg.sqlite3")
    return GameService(storage, config or Config(), dice=Script(OPENING * 8), ai=ai)


async def _put(service: GameService, key: str, value: str, place: Place = OWN) -> None:
    reply = await service.settings_set(place, ADMIN, key, value, manage_server=True)
    assert reply.ok, reply.text


class Posts:
    def __init__(self) -> None:
        self.sent: list[tuple[int, Reply]] = []

    async def __call__(self, channel: int, reply: Reply) -> None:
        self.sent.append((channel, reply))


async def test_a_server_that_turns_grading_off_is_not_graded(tmp_path: Path,
                                                              ai: AIRunner) -> None:
    service = await _service(tmp_path, ai)
    await _put(service, "grade_matches", "off")
    own = await blunder_match(service, OWN)
    plain = await blunder_match(service, PLAIN)
    assert "being graded in the background" not in own.text
    assert "being graded in the background" in plain.text  # the operator's default: on
    grader = service.grader(InProcess(), Posts())
    assert await grader.run_once() is not None  # PLAIN's match
    assert await grader.run_once() is None  # nothing of OWN's was queued


async def test_grades_go_to_the_server_s_analysis_channel(tmp_path: Path,
                                                         ai: AIRunner) -> None:
    service = await _service(tmp_path, ai)
    await _put(service, "analysis_announcements", "<#777>")
    await blunder_match(service, OWN)
    await blunder_match(service, PLAIN)
    posts = Posts()
    grader = service.grader(InProcess(), posts)
    while await grader.run_once() is not None:
        pass
    assert await grader.post_pending() == 2
    channels = sorted(channel for channel, _ in posts.sent)
    assert channels == [PLAIN.channel_id, 777]  # PLAIN's in the match's own channel


async def test_a_server_may_name_its_puzzles_players(tmp_path: Path, ai: AIRunner) -> None:
    service = await _service(tmp_path, ai)  # the operator's default: anonymous
    await _put(service, "anonymous_puzzles", "off")
    await blunder_match(service, OWN)
    await blunder_match(service, PLAIN)
    grader = service.grader(InProcess(), Posts())
    while await grader.run_once() is not None:
        pass
    own = await service.puzzle(OWN, CAROL)
    plain = await service.puzzle(PLAIN, CAROL)
    assert own.ok and "From alice - bob" in own.text
    assert plain.ok and "alice" not in plain.text and "bob" not in plain.text


async def test_a_server_s_daily_puzzle_channel_wins_over_the_operator_s(
        tmp_path: Path, ai: AIRunner) -> None:
    config = _config(daily_puzzle_channels={"7": 700, "8": 800, "9": 900})
    service = await _service(tmp_path, ai, config)
    assert await service.analysis_settings.daily_puzzle_channels() == {7: 700, 8: 800, 9: 900}
    await _put(service, "daily_puzzle_channel", "<#701>")
    await _put(service, "daily_puzzle_channel", "none", Place(guild_id=9, channel_id=90))
    await _put(service, "daily_puzzle_channel", "<#1000>", Place(guild_id=10, channel_id=100))
    assert await service.analysis_settings.daily_puzzle_channels() == {7: 701, 8: 800,
                                                                       10: 1000}
    await blunder_match(service, OWN)
    assert await service.grader(InProcess(), Posts()).run_once() is not None
    (post,) = await service.puzzles.due_daily(datetime(2026, 11, 25, 12, tzinfo=UTC))
    assert post.channel_id == 701


async def test_the_minimum_equity_of_a_puzzle_is_the_server_s(tmp_path: Path,
                                                              ai: AIRunner) -> None:
    service = await _service(tmp_path, ai)
    await _put(service, "puzzle_min_equity", "1")  # no blunder loses a whole point here
    refused = await service.settings_set(OWN, ADMIN, "puzzle_min_equity", "5",
                                         manage_server=True)
    assert not refused.ok and "a number from 0.02 to 1 EMG" in refused.text
    await blunder_match(service, OWN)
    await blunder_match(service, PLAIN)
    grader = service.grader(InProcess(), Posts())
    while await grader.run_once() is not None:
        pass
    assert not (await service.puzzle(OWN, CAROL)).ok  # no puzzle on this server
    assert (await service.puzzle(PLAIN, CAROL)).ok


async def test_grading_is_off_without_the_ai_whatever_a_server_says(tmp_path: Path) -> None:
    service = await _service(tmp_path, None)
    reply = await service.settings_set(OWN, ADMIN, "grade_matches", "on", manage_server=True)
    settings = await service.server_settings(OWN.guild_id)
    assert reply.ok and settings.grade_matches is False


async def test_board_mode_is_a_server_setting(tmp_path: Path) -> None:
    service = await _service(tmp_path, None, replace(
        Config(), discord=replace(Config().discord, board_mode="new")))
    await _put(service, "board_mode", "live")
    assert (await service.server_settings(OWN.guild_id)).board_mode == "live"
    assert (await service.server_settings(PLAIN.guild_id)).board_mode == "new"
    refused = await service.settings_set(OWN, ADMIN, "board_mode", "sometimes",
                                         manage_server=True)
    assert not refused.ok and "auto, live, new" in refused.text

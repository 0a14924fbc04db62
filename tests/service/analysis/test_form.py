"""A player's form (issue 33, item 4): /stats shows PR over time (the last matches, by
month), the best and worst match, on the card too; /leaderboard pr ranks players with
at least the stated number of analysed decisions.  Real SQLite, real bgsage."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from grading import ALICE, BOB, OPENING, InProcess, blunder_match, ok
from scripted import Script, opened

from bot.ai.runner import AIRunner
from bot.config import Config
from bot.service.core.replies import Reply
from bot.service.core.values import Place
from bot.service.game import GameService
from bot.service.standings import form as form_module
from bot.service.standings import service as standings
from render.card import PlayerCard

HERE = Place(guild_id=7, channel_id=70)
THERE = Place(guild_id=7, channel_id=71)


@pytest.fixture
async def ai() -> AsyncIterator[AIRunner]:
    runner = AIRunner(processes=False, time_limit=20.0)
    yield runner
    runner.close()


async def _two_graded_matches(tmp_path: Path, ai: AIRunner) -> GameService:
    """Bob blunders (8/4) in the match here and plays the best 3-1 in the match there."""
    storage = await opened(tmp_path / "bg.sqlite3")
    service = GameService(storage, Config(), dice=Script(OPENING * 8), ai=ai)
    await blunder_match(service, HERE)
    ok(await service.challenge(THERE, ALICE, BOB, length=1))
    ok(await service.accept(THERE, BOB))
    ok(await service.move(THERE, BOB, "8/5 6/5"))
    ok(await service.resign(THERE, ALICE, "single"))
    ok(await service.answer_resignation(THERE, BOB, True))

    async def post(channel: int, reply: Reply) -> None:
        return None

    grader = service.grader(InProcess(), post)
    assert await grader.run_once() is not None and await grader.run_once() is not None
    return service


async def test_stats_show_pr_over_time_and_the_best_and_worst_match(
        tmp_path: Path, ai: AIRunner) -> None:
    service = await _two_graded_matches(tmp_path, ai)
    reply = ok(await service.stats(HERE, BOB))
    lines = reply.text.splitlines()
    recent = next(line for line in lines if line.startswith("PR over the last 2"))
    assert "analysed matches:" in recent and "2 decisions (GNU 1-ply" in recent
    month = next(line for line in lines if line.startswith("PR by month: "))
    assert "(2 matches)" in month
    best = next(line for line in lines if line.startswith("best match: PR 0.00 vs alice"))
    assert "worst: PR " in best and "vs alice" in best
    (picture,) = reply.pictures
    card = picture.content
    assert isinstance(card, PlayerCard) and card.form is not None
    assert len(card.form.prs) == 2 and card.form.prs[1] == 0.0  # oldest first: the blunder
    assert card.form.best.startswith("0.0 vs alice") and "PR over the last 2" in (
        picture.alt_text)
    # alice made no decision: nothing to show but the fact.
    assert "PR: no analysed standard match yet" in ok(await service.stats(HERE, ALICE)).text


async def test_the_pr_leaderboard_needs_the_stated_decisions(tmp_path: Path, ai: AIRunner,
                                                             monkeypatch: pytest.MonkeyPatch
                                                             ) -> None:
    service = await _two_graded_matches(tmp_path, ai)
    assert form_module.MIN_PR_DECISIONS == 300
    few = ok(await service.leaderboard(HERE, BOB, "pr")).text
    assert "at least 300 decisions" in few and "No player has enough" in few
    assert "(you: 2 analysed decisions" in few and "the list needs 300)" in few
    monkeypatch.setattr(standings, "MIN_PR_DECISIONS", 2)
    ranked = ok(await service.leaderboard(HERE, ALICE, "pr")).text.splitlines()
    assert ranked[1].split()[:3] == ["1.", "bob", "PR"]  # alice: no decision, not listed
    assert len(ranked) == 2
    bad = await service.leaderboard(HERE, BOB, "luck")
    assert not bad.ok and "pr (the performance rating" in bad.text

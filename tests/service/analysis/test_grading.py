"""Every match graded in the background (issue 33, item 3): queued in the match's last
action, graded once, its analyses and puzzles kept, the grades posted once as an
ordinary message; variants refused, saying why.  Real SQLite, real bgsage (in this
process through :class:`grading.InProcess`; the worker process itself is tested in
tests/ai/test_ai_background.py and by the kill -9 test)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest
from grading import ALICE, BLUNDER, BOB, OPENING, InProcess, blunder_match, ok
from scripted import Script, opened
from variant_nets import remove

from bot.ai.runner import AIRunner
from bot.config import Config
from bot.service.core.replies import Action, PictureKind, Reply
from bot.service.core.values import Place
from bot.service.game import GameService
from bot.service.grading.service import LostClaim
from bot.storage.interface import GradingStatus
from render.chart import ChartData
from render.summary import MatchSummary

HERE = Place(guild_id=7, channel_id=70)


@pytest.fixture
async def ai() -> AsyncIterator[AIRunner]:
    runner = AIRunner(processes=False, time_limit=20.0)  # (the live AI: unused here)
    yield runner
    runner.close()


async def _service(tmp_path: Path, ai: AIRunner | None, config: Config | None = None,
                   dice: list[int] | None = None) -> GameService:
    storage = await opened(tmp_path / "bg.sqlite3")
    return GameService(storage, config or Config(), dice=Script(dice or OPENING * 4), ai=ai)


class Posts:
    def __init__(self) -> None:
        self.sent: list[tuple[int, Reply]] = []

    async def __call__(self, channel: int, reply: Reply) -> None:
        self.sent.append((channel, reply))


async def test_a_match_is_queued_graded_once_and_its_grades_posted_once(
        tmp_path: Path, ai: AIRunner) -> None:
    service = await _service(tmp_path, ai)
    ended = await blunder_match(service, HERE)
    assert "being graded in the background" in ended.text
    async with service.storage.snapshot() as tx:
        match = await tx.latest_match_in_channel(HERE.channel_id)
        assert match is not None
        job = await tx.grading_job(match.id)
    assert job is not None and job.status is GradingStatus.QUEUED
    posts, analyser = Posts(), InProcess()
    grader = service.grader(analyser, posts)
    assert await grader.run_once() == match.id
    assert analyser.calls == 1  # one game
    async with service.storage.snapshot() as tx:
        job = await tx.grading_job(match.id)
        games = await tx.games_of_match(match.id)
        kept = await tx.analyses_of([g.id for g in games], "strong")
        puzzle = await tx.next_puzzle(HERE.guild_id, 99)
    assert job is not None and job.status is GradingStatus.DONE and not job.posted
    assert set(kept) == {games[0].id} and kept[games[0].id].engine.startswith("bgsage")
    assert puzzle is not None and puzzle.user_id == BOB.id and puzzle.kind == "play"
    assert puzzle.data["played"] == BLUNDER and puzzle.data["best"] == "8/5 6/5"
    assert await grader.post_pending() == 1
    ((channel, reply),) = posts.sent
    assert channel == HERE.channel_id and reply.ok and not reply.ephemeral
    assert "Grades of the 1-point match alice - bob" in reply.text
    assert "bob over the match: 1 decision," in reply.text and "PR " in reply.text
    assert "luck" in reply.text and "luck-adjusted" in reply.text
    kinds = [p.kind for p in reply.pictures]
    assert kinds == [PictureKind.SUMMARY, PictureKind.CHART]
    summary, chart = reply.pictures[0].content, reply.pictures[1].content
    assert isinstance(summary, MatchSummary) and isinstance(chart, ChartData)
    assert summary.prs[1] is not None and summary.prs[1] > 16  # one decision, a blunder
    assert summary.grades[1] == "Beginner" and summary.lucks[1] is not None
    # Once only: nothing more to grade or to post.
    assert await grader.post_pending() == 0 and len(posts.sent) == 1
    assert await grader.run_once() is None and analyser.calls == 1


async def test_a_variant_match_is_not_graded_and_says_why(
        tmp_path: Path, ai: AIRunner, monkeypatch: pytest.MonkeyPatch) -> None:
    remove(monkeypatch)  # (where no network knows the variant: issue 46 item 4)
    service = await _service(tmp_path, ai, dice=[1, 3, 6, 5, 6, 5, 6, 5])
    ok(await service.challenge(HERE, ALICE, BOB, length=1, variant="russian"))
    ok(await service.accept(HERE, BOB))
    ok(await service.forfeit(HERE, ALICE))
    async with service.storage.snapshot() as tx:
        match = await tx.latest_match_in_channel(HERE.channel_id)
        assert match is not None and match.variant == "russian"
        assert await tx.grading_job(match.id) is None
    reply = await service.analyze(HERE, BOB, whole_match=True)
    assert not reply.ok and "standard backgammon only" in reply.text


async def test_the_end_of_a_variant_match_says_why_it_is_not_analysed(
        tmp_path: Path, ai: AIRunner, monkeypatch: pytest.MonkeyPatch) -> None:
    remove(monkeypatch)  # (where no network knows the variant: issue 46 item 4)
    service = await _service(tmp_path, ai, dice=[1, 3, 6, 5, 6, 5, 6, 5])
    ok(await service.challenge(HERE, ALICE, BOB, length=1, variant="russian"))
    ok(await service.accept(HERE, BOB))
    ended = ok(await service.forfeit(HERE, ALICE))
    assert "Analysis, PR and puzzles are for standard backgammon only" in ended.text
    assert [b.action for b in ended.buttons] == [Action.REMATCH]  # no "Analyse the match"


async def test_grading_off_in_the_settings_or_without_the_ai(tmp_path: Path,
                                                             ai: AIRunner) -> None:
    config = Config()
    config = replace(config, analysis=replace(config.analysis, grade_matches=False))
    service = await _service(tmp_path, ai, config)
    ended = await blunder_match(service, HERE)
    assert "graded" not in ended.text
    service2 = await _service(tmp_path / "b", None)
    ended2 = await blunder_match(service2, HERE)
    assert "graded" not in ended2.text
    for s in (service, service2):
        async with s.storage.snapshot() as tx:
            match = await tx.latest_match_in_channel(HERE.channel_id)
            assert match is not None and await tx.grading_job(match.id) is None


async def test_two_graders_racing_grade_a_match_once(tmp_path: Path, ai: AIRunner) -> None:
    service = await _service(tmp_path, ai)
    await blunder_match(service, HERE)
    a, b = InProcess(), InProcess()
    posts = Posts()
    first, second = service.grader(a, posts), service.grader(b, posts)
    results = await asyncio.gather(first.run_once(), second.run_once())
    assert sorted(r is not None for r in results) == [False, True]
    assert a.calls + b.calls == 1
    await asyncio.gather(first.post_pending(), second.post_pending())
    assert len(posts.sent) == 1


async def test_a_lapsed_lease_is_taken_over_and_the_old_worker_keeps_nothing(
        tmp_path: Path, ai: AIRunner) -> None:
    service = await _service(tmp_path, ai)
    await blunder_match(service, HERE)
    old = service.grader(InProcess(), Posts(), lease=-1.0)  # a lease that has lapsed
    job = await old.claim()
    assert job is not None
    new_analyser = InProcess()
    new = service.grader(new_analyser, Posts())
    assert await new.run_once() == job.match_id and new_analyser.calls == 1
    # The old worker comes back: its results are refused, the job stays the new one's.
    with pytest.raises(LostClaim):
        await old._finish(job)
    async with service.storage.snapshot() as tx:
        done = await tx.grading_job(job.match_id)
    assert done is not None and done.status is GradingStatus.DONE
    assert done.worker == new.worker and done.attempts == 2


async def test_stop_gives_the_match_back_to_the_queue(tmp_path: Path, ai: AIRunner) -> None:
    service = await _service(tmp_path, ai)
    await blunder_match(service, HERE)
    started = asyncio.Event()

    class Slow(InProcess):
        async def analyze(self, *args: object, **kwargs: object) -> object:  # type: ignore[override]
            started.set()
            await asyncio.sleep(3600)
            raise AssertionError("not reached")

    slow = Slow()
    grader = service.grader(slow, Posts(), poll=0.05)
    grader.start()
    await asyncio.wait_for(started.wait(), 30)
    await grader.stop()
    assert slow.closed
    async with service.storage.snapshot() as tx:
        match = await tx.latest_match_in_channel(HERE.channel_id)
        assert match is not None
        job = await tx.grading_job(match.id)
    assert job is not None and job.status is GradingStatus.QUEUED and job.error == "stopped"
    again = InProcess()
    assert await service.grader(again, Posts()).run_once() == match.id and again.calls == 1


async def test_games_analysed_already_are_not_analysed_again(tmp_path: Path,
                                                             ai: AIRunner) -> None:
    service = await _service(tmp_path, ai)
    await blunder_match(service, HERE)
    ok(await service.analyze(HERE, BOB, whole_match=True))  # kept by /analyze
    analyser = InProcess()
    posts = Posts()
    grader = service.grader(analyser, posts)
    assert await grader.run_once() is not None and analyser.calls == 0
    assert await grader.post_pending() == 1


"""/analyze, background grading and puzzles in the book variants (issue 46, item 4):
where one of our networks knows the variant, a finished match is analysed, graded and
made into puzzles through the same paths as standard backgammon, each naming the network
as its judge (never GNU Backgammon nor bgsage); where none does, the honest refusal
stays.  Real SQLite; small trained networks stand for the shipped ones
(tests/support/variant_nets.py); the games are played through the service."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest
from grading import InProcess, ok
from scripted import Script, opened
from service_driver import channel_state, place, players
from variant_nets import install, remove

from bot.ai.runner import AIRunner
from bot.config import Config
from bot.service.core.replies import Action, PictureKind, Reply
from bot.service.game import GameService
from bot.storage.interface import GradingStatus, MatchStatus
from engine.game import Phase
from engine.player import Player
from render.chart import ChartData

CHANNEL = 71
HERE = place(CHANNEL)
WHITE, BLACK = players(CHANNEL)
JUDGE = "our Russian backgammon network, self-trained"


@pytest.fixture
async def ai() -> AsyncIterator[AIRunner]:
    runner = AIRunner(processes=False, time_limit=20.0)  # (in this process: the nets patched)
    yield runner
    runner.close()


async def _service(tmp_path: Path, ai: AIRunner) -> GameService:
    """The service, every decision that lost 0.02 or more made a puzzle (the small
    networks see small differences)."""
    storage = await opened(tmp_path / "bg.sqlite3")
    config = Config()
    config = replace(config, analysis=replace(config.analysis, puzzle_min_equity=0.02))
    return GameService(storage, config, dice=Script(then="3a51f0c27e94b86d"), ai=ai)


async def variant_match(service: GameService, variant: str = "russian",
                        plays: int = 24) -> Reply:
    """A 1-point match of ``variant`` played through the service, each stage by a random
    legal play and each choice by a random option, until ``plays`` plays were made; then
    white resigns (a single game) and black accepts.  The reply of the match's end."""
    ok(await service.challenge(HERE, WHITE, BLACK, length=1, variant=variant))
    ok(await service.accept(HERE, BLACK))
    rng = random.Random(7)
    made = 0
    while True:
        snap = await channel_state(service.storage, CHANNEL)  # type: ignore[arg-type]
        assert snap is not None and snap.game is not None and not snap.game.is_finished
        game = snap.game
        actor = WHITE if game.awaiting is Player.WHITE else BLACK
        if game.phase is Phase.ROLL:
            if made >= plays:
                break
            ok(await service.roll(HERE, actor))
        elif game.phase is Phase.PLAY:
            play = rng.choice(game.legal_plays())
            ok(await service.move(HERE, actor, game.variant.format_play(play)))
            made += 1
        else:
            choice = game.pending_choice
            assert choice is not None, game.phase
            ok(await service.choose(HERE, actor, rng.choice(choice.options)))
    ok(await service.resign(HERE, WHITE, "single"))
    return ok(await service.answer_resignation(HERE, BLACK, True))


class Posts:
    def __init__(self) -> None:
        self.sent: list[tuple[int, Reply]] = []

    async def __call__(self, channel: int, reply: Reply) -> None:
        self.sent.append((channel, reply))


def no_engine_named(text: str) -> None:
    """Neither bgsage nor GNU Backgammon is named as the judge (the grades name GNU
    Backgammon's luck-adjusted result as the formula of that figure, whoever judged)."""
    assert "bgsage" not in text and "GNU 1-ply" not in text and "GNU 2-ply" not in text, text
    assert not any(line.startswith("Depth:") and "GNU" in line for line in text.split("\n"))


async def test_analyze_of_a_variant_game_answers_naming_its_network(
        tmp_path: Path, ai: AIRunner, monkeypatch: pytest.MonkeyPatch) -> None:
    install(monkeypatch)
    service = await _service(tmp_path, ai)
    ended = await variant_match(service)
    assert Action.ANALYZE in [b.action for b in ended.buttons]
    reply = ok(await service.analyze(HERE, BLACK))
    assert "Analysis of game 1" in reply.text and " PR " in reply.text, reply.text
    assert f"Depth: {JUDGE}, 0-ply." in reply.text
    assert "luck" in reply.text
    no_engine_named(reply.text)
    (chart,) = reply.pictures
    assert chart.kind is PictureKind.CHART and isinstance(chart.content, ChartData)
    assert chart.content.points
    # Kept, with its puzzles: the next /analyze reads it back, and a puzzle names its judge.
    async with service.storage.snapshot() as tx:
        match = await tx.latest_match_in_channel(CHANNEL)
        assert match is not None and match.variant == "russian"
        games = await tx.games_of_match(match.id)
        kept = await tx.analyses_of([g.id for g in games], "strong")
    assert set(kept) == {games[0].id}
    no_engine_named(kept[games[0].id].engine)
    assert kept[games[0].id].engine.startswith("russian network (")
    again = ok(await service.analyze(HERE, WHITE))
    assert f"Depth: {JUDGE}, 0-ply." in again.text
    puzzle = ok(await service.puzzle(HERE, WHITE))
    assert f"The analysis ({JUDGE}, 0-ply) judges it" in puzzle.text
    no_engine_named(puzzle.text)
    assert puzzle.puzzle is not None and puzzle.puzzle.options
    # Each offered play is a legal play of the variant, judged by the analysis' figures.
    for option in puzzle.puzzle.options[:3]:
        answered = ok(await service.puzzle_answer(HERE, WHITE, option,
                                                  puzzle.puzzle.puzzle_id))
        assert option in answered.text, answered.text


async def test_a_variant_match_is_graded_in_the_background(
        tmp_path: Path, ai: AIRunner, monkeypatch: pytest.MonkeyPatch) -> None:
    install(monkeypatch)
    service = await _service(tmp_path, ai)
    ended = await variant_match(service)
    assert "being graded in the background" in ended.text
    assert "standard backgammon only" not in ended.text
    async with service.storage.snapshot() as tx:
        match = await tx.latest_match_in_channel(CHANNEL)
        assert match is not None and match.status is MatchStatus.FINISHED
        job = await tx.grading_job(match.id)
    assert job is not None and job.status is GradingStatus.QUEUED
    posts, analyser = Posts(), InProcess()
    grader = service.grader(analyser, posts)
    assert await grader.run_once() == match.id and analyser.calls == 1
    async with service.storage.snapshot() as tx:
        job = await tx.grading_job(match.id)
        games = await tx.games_of_match(match.id)
        kept = await tx.analyses_of([g.id for g in games], "strong")
    assert job is not None and job.status is GradingStatus.DONE
    assert set(kept) == {games[0].id}
    assert await grader.post_pending() == 1
    ((channel, reply),) = posts.sent
    assert channel == CHANNEL and reply.ok
    assert "Grades of the 1-point match" in reply.text and "PR " in reply.text
    assert f"Depth: {JUDGE}, 0-ply" in reply.text
    no_engine_named(reply.text)
    assert [p.kind for p in reply.pictures] == [PictureKind.SUMMARY, PictureKind.CHART]
    # A player's form and the PR leaderboard read standard matches only (bgsage's PR):
    # the network's PR is on another scale.
    async with service.storage.snapshot() as tx:
        assert await tx.match_figures(HERE.guild_id, WHITE.id, "strong") == []
        assert await tx.pr_leaderboard(HERE.guild_id, "strong", 0, 10, 0) == []


async def test_without_a_network_a_variant_match_is_refused_as_before(
        tmp_path: Path, ai: AIRunner, monkeypatch: pytest.MonkeyPatch) -> None:
    install(monkeypatch)  # (the random play needs no network: the players are people)
    remove(monkeypatch)
    service = await _service(tmp_path, ai)
    ended = await variant_match(service, plays=6)
    assert "no network knows russian yet" in ended.text
    assert Action.ANALYZE not in [b.action for b in ended.buttons]
    async with service.storage.snapshot() as tx:
        match = await tx.latest_match_in_channel(CHANNEL)
        assert match is not None and await tx.grading_job(match.id) is None
    reply = await service.analyze(HERE, BLACK)
    assert not reply.ok and "standard backgammon only" in reply.text
    assert "no network knows russian yet" in reply.text

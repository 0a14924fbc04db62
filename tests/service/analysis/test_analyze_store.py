"""Analyses kept (issue 33, item 2): /analyze keeps what it runs, with its depth and
engine, answers from the store the next time (the AI is not asked again), at each depth
apart; the match's summary shows PR and luck as soon as analyses exist; PR and luck are
in every analysis beside the error rate.  Real SQLite, real bgsage in this process."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from grading import ALICE, BLUNDER, BOB, OPENING, ok
from scripted import Script, opened

from bot.ai.runner import AIRunner
from bot.config import Config
from bot.service.core.values import Place
from bot.service.game import GameService
from render.summary import MatchSummary

HERE = Place(guild_id=7, channel_id=70)


class Counting(AIRunner):
    """The AI in this process, counting the analyses it is asked for."""

    def __init__(self) -> None:
        super().__init__(processes=False, time_limit=20.0)
        self.analyses = 0

    async def analyze(self, *args: Any, **kwargs: Any) -> Any:
        self.analyses += 1
        return await super().analyze(*args, **kwargs)


@pytest.fixture
async def ai() -> AsyncIterator[Counting]:
    runner = Counting()
    yield runner
    runner.close()


async def test_analyze_keeps_its_analysis_and_answers_from_the_store(
        tmp_path: Path, ai: Counting) -> None:
    storage = await opened(tmp_path / "bg.sqlite3")
    service = GameService(storage, Config(), dice=Script(OPENING * 4), ai=ai)
    ok(await service.challenge(HERE, ALICE, BOB, length=3))
    ok(await service.accept(HERE, BOB))
    ok(await service.move(HERE, BOB, BLUNDER))
    ok(await service.resign(HERE, ALICE, "single"))
    ok(await service.answer_resignation(HERE, BOB, True))  # game 1 over, bob 1-0
    first = ok(await service.analyze(HERE, ALICE, 1))
    assert ai.analyses == 1
    assert "bob: 1 decision, error rate" in first.text  # the error rate is still there
    assert "PR " in first.text and "luck " in first.text and "mEMG/roll" in first.text
    again = ok(await service.analyze(HERE, BOB, 1))
    assert ai.analyses == 1 and again.text == first.text  # from the store, anyone
    expert = ok(await service.analyze(HERE, ALICE, 1, depth="expert"))
    assert ai.analyses == 2 and "GNU 2-ply" in expert.text  # another depth: its own
    ok(await service.analyze(HERE, ALICE, 1, depth="expert"))
    assert ai.analyses == 2
    async with storage.snapshot() as tx:
        match = await tx.latest_match_in_channel(HERE.channel_id)
        assert match is not None
        (game,) = [g for g in await tx.games_of_match(match.id) if g.number == 1]
        strong = await tx.analyses_of([game.id], "strong")
        deep = await tx.analyses_of([game.id], "expert")
        puzzle = await tx.next_puzzle(HERE.guild_id, 99)
    assert strong[game.id].engine.startswith("bgsage ") and strong[game.id].match_id == match.id
    assert deep[game.id].data["source"].startswith("GNU 2-ply")
    assert puzzle is not None and puzzle.data["played"] == BLUNDER  # made by /analyze too
    # The match's end: its summary has PR and luck for the games analysed already.
    ok(await service.move(HERE, BOB, BLUNDER))
    ok(await service.resign(HERE, ALICE, "single"))
    ended = ok(await service.answer_resignation(HERE, BOB, True))
    ok(await service.move(HERE, BOB, BLUNDER))  # the Crawford game
    ok(await service.resign(HERE, ALICE, "single"))
    ended = ok(await service.answer_resignation(HERE, BOB, True))
    assert "bob wins the 3-point match 3-0" in ended.text
    (picture,) = ended.pictures
    summary = picture.content
    assert isinstance(summary, MatchSummary)
    assert summary.prs[1] is not None and summary.grades[1] and summary.lucks[1] is not None
    assert "PR " in picture.alt_text


"""Grades players can trust (issue 47, items 4 to 9): no unplayed game counted, the
match-winning chances kept with a stored analysis, no grade without a decision, a
forfeit graded with the match's real result, luck in a readable unit, and /stats' best
and worst match.  Real SQLite, real bgsage (in this process: :class:`grading.InProcess`)."""

from __future__ import annotations

import io
import re
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest
from grading import ALICE, BLUNDER, BOB, OPENING, InProcess, blunder_match, ok
from PIL import Image, ImageChops
from scripted import Script, opened

from bot.ai.runner import AIRunner
from bot.config import Config
from bot.service.core.replies import PictureKind, Reply
from bot.service.core.values import Place
from bot.service.game import GameService
from bot.service.standings import form as form_module
from bot.storage.interface import Transaction
from render.card import PlayerCard
from render.chart import ChartData, render_chart
from render.summary import MatchSummary, render_summary

HERE = Place(guild_id=7, channel_id=70)


@pytest.fixture
async def ai() -> AsyncIterator[AIRunner]:
    runner = AIRunner(processes=False, time_limit=20.0)
    yield runner
    runner.close()


class Posts:
    def __init__(self) -> None:
        self.sent: list[tuple[int, Reply]] = []

    async def __call__(self, channel: int, reply: Reply) -> None:
        self.sent.append((channel, reply))


async def _graded(service: GameService) -> tuple[Reply, InProcess]:
    """Grade the queued match; the grades' message and the analyser (its calls)."""
    posts, analyser = Posts(), InProcess()
    grader = service.grader(analyser, posts)
    assert await grader.run_once() is not None
    assert await grader.post_pending() == 1
    ((_, reply),) = posts.sent
    return reply, analyser


# -- item 4: a money session stopped after the next game's opening throw ------------------

async def test_the_unplayed_game_of_a_stopped_session_is_not_a_game(
        tmp_path: Path, ai: AIRunner) -> None:
    # Fair dice (from each game's seed, as in production), so that /verify can check them.
    service = GameService(await opened(tmp_path / "bg.sqlite3"), Config(), ai=ai)
    ok(await service.challenge(HERE, ALICE, BOB, stake=5))
    ok(await service.accept(HERE, BOB))
    resigner, other = ALICE, BOB
    if not (await service.resign(HERE, ALICE, "single")).ok:
        resigner, other = BOB, ALICE
        ok(await service.resign(HERE, BOB, "single"))
    assert "Game 2 begins" in ok(await service.answer_resignation(HERE, other, True)).text
    stopped = ok(await service.stop(HERE, ALICE))  # after game 2's opening throw
    assert "Game 2 is not played" in stopped.text
    assert "being graded in the background" in stopped.text

    grades, analyser = await _graded(service)
    assert analyser.calls == 1  # game 1 only: not analysed, not graded, not in luck
    assert "(1 of 1 game analysed)" in grades.text, grades.text
    async with service.storage.snapshot() as tx:
        match = await tx.latest_match_in_channel(HERE.channel_id)
        assert match is not None
        games = await tx.games_of_match(match.id)
        kept = await tx.analyses_of([g.id for g in games], "strong")
    assert set(kept) == {games[0].id}

    whole = ok(await service.analyze(HERE, ALICE, whole_match=True))
    assert "(1 finished game)" in whole.text and "game 2" not in whole.text, whole.text
    assert "Analysis of game 1" in ok(await service.analyze(HERE, ALICE)).text
    refused = await service.analyze(HERE, ALICE, 2)
    assert not refused.ok and "Game 2 was not played" in refused.text, refused.text
    assert "/verify 2" in refused.text

    replay = ok(await service.replay(HERE, ALICE))
    assert replay.text.startswith("Replay of game 1:"), replay.text

    mat = ok(await service.export(HERE, ALICE, "mat")).attachment
    sgf = ok(await service.export(HERE, ALICE, "sgf")).attachment
    assert mat is not None and sgf is not None
    assert mat[1].decode().count(" Game ") == 1 and " Game 2" not in mat[1].decode()
    assert sgf[1].decode().count("(;FF[4]GM[6]") == 1

    # /verify still reaches the revealed seed of the game that was not played.
    verified = ok(await service.verify(HERE, BOB, 2))
    assert "Game 2: all" in verified.text and "dice match the seed" in verified.text
    assert resigner in (ALICE, BOB)


# -- item 5: a match's analysis read back from the store --------------------------------

async def test_a_match_graph_read_back_from_the_store_is_the_match_graph(
        tmp_path: Path, ai: AIRunner) -> None:
    service = GameService(await opened(tmp_path / "bg.sqlite3"), Config(),
                          dice=Script(OPENING * 4), ai=ai)
    ok(await service.challenge(HERE, ALICE, BOB, length=3))
    ok(await service.accept(HERE, BOB))
    ok(await service.move(HERE, BOB, BLUNDER))
    ok(await service.resign(HERE, ALICE, "single"))
    ok(await service.answer_resignation(HERE, BOB, True))  # game 1 over, bob 1-0
    first = ok(await service.analyze(HERE, ALICE, 1))
    again = ok(await service.analyze(HERE, ALICE, 1))  # from the store
    (drawn,), (read_back,) = first.pictures, again.pictures
    chart = drawn.content
    assert isinstance(chart, ChartData) and all(p.mwc is not None for p in chart.points)
    assert "match-winning chances" in drawn.alt_text
    assert read_back.content == chart and read_back.alt_text == drawn.alt_text
    assert render_chart(read_back.content) == render_chart(chart)  # the picture itself
    assert again.text == first.text

    # The background grades read the same store: their graph is a match graph too.
    ok(await service.move(HERE, BOB, BLUNDER))
    ok(await service.resign(HERE, ALICE, "single"))
    ok(await service.answer_resignation(HERE, BOB, True))
    ok(await service.move(HERE, BOB, BLUNDER))  # the Crawford game
    ok(await service.resign(HERE, ALICE, "single"))
    ok(await service.answer_resignation(HERE, BOB, True))
    grades, _ = await _graded(service)
    charts = [p for p in grades.pictures if p.kind is PictureKind.CHART]
    assert charts and all(isinstance(p.content, ChartData) for p in charts)
    for p in charts:
        assert isinstance(p.content, ChartData)
        assert all(q.mwc is not None for q in p.content.points)
        assert "match-winning chances" in p.alt_text


# -- item 6: no decision, no PR and no grade ---------------------------------------------

async def test_a_player_without_a_decision_has_no_pr_and_no_grade(
        tmp_path: Path, ai: AIRunner) -> None:
    service = GameService(await opened(tmp_path / "bg.sqlite3"), Config(),
                          dice=Script(OPENING * 2), ai=ai)
    await blunder_match(service, HERE)  # alice resigns before her first roll
    grades, _ = await _graded(service)
    assert "alice over the match: no decision: no PR, no grade; luck" in grades.text
    assert "bob over the match: 1 decisions" in grades.text
    assert "PR 0.0" not in grades.text and "Super Grand Master" not in grades.text
    whole = ok(await service.analyze(HERE, ALICE, whole_match=True))
    assert "alice over the match: no decision: no PR, no grade" in whole.text
    assert "alice: no decision: no PR, no grade; luck" in whole.text  # the game's own
    assert "PR 0.0" not in whole.text

    summary = next(p for p in grades.pictures if p.kind is PictureKind.SUMMARY)
    content = summary.content
    assert isinstance(content, MatchSummary)
    assert content.prs[0] is None and content.grades[0] == "" and content.decisions[0] == 0
    assert content.prs[1] is not None and content.grades[1]
    assert "alice: no decision (no PR, no grade)" in summary.alt_text
    assert "Super Grand Master" not in summary.alt_text
    # The picture read back: alice's line is not the one a PR of 0.0 draws.
    graded_as_zero = replace(content, prs=(0.0, content.prs[1]),
                             grades=("Super Grand Master", content.grades[1]),
                             decisions=(5, content.decisions[1]))
    drawn = Image.open(io.BytesIO(render_summary(content))).convert("RGB")
    zero = Image.open(io.BytesIO(render_summary(graded_as_zero))).convert("RGB")
    assert drawn.size == zero.size
    changed = ImageChops.difference(drawn, zero).getbbox()
    assert changed is not None  # alice's line, at the foot, under the games
    assert changed[1] > drawn.height // 2 and changed[2] <= drawn.width // 2 + 5


# -- items 7 and 8: a forfeit graded with the match's result, luck in a readable unit -----

async def test_a_match_lost_by_forfeit_is_graded_lost(tmp_path: Path, ai: AIRunner) -> None:
    service = GameService(await opened(tmp_path / "bg.sqlite3"), Config(),
                          dice=Script(OPENING * 3), ai=ai)
    ok(await service.challenge(HERE, ALICE, BOB, length=3))
    ok(await service.accept(HERE, BOB))
    ok(await service.move(HERE, BOB, BLUNDER))
    ok(await service.resign(HERE, ALICE, "single"))
    ok(await service.answer_resignation(HERE, BOB, True))  # bob 1-0
    ok(await service.move(HERE, BOB, BLUNDER))
    ended = ok(await service.forfeit(HERE, ALICE, confirm=True))
    assert "bob wins the match by forfeit" in ended.text
    grades, _ = await _graded(service)
    lines = {line.split(" over the match:")[0]: line for line in grades.text.splitlines()
             if " over the match:" in line}
    assert "result -50.0% match-winning chance" in lines["alice"], lines["alice"]
    assert "result +50.0% match-winning chance" in lines["bob"], lines["bob"]
    for line in lines.values():  # item 8: every chance stated is a chance
        for value in re.findall(r"([-+]?\d+\.\d+)%", line):
            assert -100.0 <= float(value) <= 100.0, line
        assert "% chance to win the match" in line or "outweighed" in line
    # The game's own analysis (what the leaderboard and the form read) says the same.
    async with service.storage.snapshot() as tx:
        match = await tx.latest_match_in_channel(HERE.channel_id)
        assert match is not None
        games = await tx.games_of_match(match.id)
        kept = await tx.analyses_of([g.id for g in games], "strong")
    before_forfeit = kept[games[0].id].data["result"][1]  # bob's gain in game 1
    assert kept[games[1].id].data["result"][1] == pytest.approx(0.5 - before_forfeit)


# -- item 9: /stats' best and worst match --------------------------------------------------

async def _graded_matches(service: GameService) -> None:
    async def post(channel: int, reply: Reply) -> None:
        return None

    grader = service.grader(InProcess(), post)
    while await grader.run_once() is not None:
        pass


async def test_one_match_that_counts_is_not_both_the_best_and_the_worst(
        tmp_path: Path, ai: AIRunner, monkeypatch: pytest.MonkeyPatch) -> None:
    there = Place(guild_id=7, channel_id=71)
    service = GameService(await opened(tmp_path / "bg.sqlite3"), Config(),
                          dice=Script(OPENING * 2 + [2, 1, 4, 2]), ai=ai)
    await blunder_match(service, HERE)  # bob: 1 decision
    ok(await service.challenge(there, ALICE, BOB, length=1))  # bob: 2 decisions
    ok(await service.accept(there, BOB))
    ok(await service.move(there, BOB, "8/5 6/5"))
    ok(await service.roll(there, ALICE))
    ok(await service.move(there, ALICE, "13/11 6/5"))
    ok(await service.roll(there, BOB))
    ok(await service.move(there, BOB, "8/4 6/4"))
    ok(await service.resign(there, ALICE, "single"))
    ok(await service.answer_resignation(there, BOB, True))
    await _graded_matches(service)
    monkeypatch.setattr(form_module, "BEST_MIN_DECISIONS", 2)  # (20 takes a long match)

    text = ok(await service.stats(HERE, BOB)).text
    assert "worst" not in text.replace("a best and a worst", ""), text
    (line,) = [ln for ln in text.splitlines() if "best" in ln]
    assert line.startswith("one match of at least 2 decisions: PR "), line
    assert ", 2 decisions);" in line  # the match that counts, with what it counts
    assert "a best and a worst match need two (your other matches have fewer)" in line
    card = ok(await service.stats(HERE, BOB)).pictures[0].content
    assert isinstance(card, PlayerCard) and card.form is not None
    assert not (card.form.best and card.form.best == card.form.worst)

    # Two matches that count: a best and a worst, saying what counts.
    monkeypatch.setattr(form_module, "BEST_MIN_DECISIONS", 1)
    text = ok(await service.stats(HERE, BOB)).text
    (line,) = [ln for ln in text.splitlines() if ln.startswith("best match: ")]
    assert "(among your matches of at least 1 decisions)" in line
    # None that counts: what there is, said to say little.
    monkeypatch.setattr(form_module, "BEST_MIN_DECISIONS", 20)
    text = ok(await service.stats(HERE, BOB)).text
    (line,) = [ln for ln in text.splitlines() if ln.startswith("best match: ")]
    assert "none of your matches has the 20 decisions a match needs to count" in line


async def test_a_match_analysis_stored_without_its_chances_is_made_again(
        tmp_path: Path, ai: AIRunner) -> None:
    """One kept before the fix (stored form 1) lacks the chances: analysed again, not
    drawn as money play."""
    service = GameService(await opened(tmp_path / "bg.sqlite3"), Config(),
                          dice=Script(OPENING * 2), ai=ai)
    ok(await service.challenge(HERE, ALICE, BOB, length=3))
    ok(await service.accept(HERE, BOB))
    ok(await service.move(HERE, BOB, BLUNDER))
    ok(await service.resign(HERE, ALICE, "single"))
    ok(await service.answer_resignation(HERE, BOB, True))
    first = ok(await service.analyze(HERE, ALICE, 1))
    async with service.storage.snapshot() as tx:
        match = await tx.latest_match_in_channel(HERE.channel_id)
        assert match is not None
        (game, *_) = await tx.games_of_match(match.id)
        row = (await tx.analyses_of([game.id], "strong"))[game.id]
    old = {**row.data, "v": 1, "timeline": [t[:6] for t in row.data["timeline"]]}

    async def downgrade(tx: Transaction) -> None:
        await tx.save_analysis(game_id=game.id, match_id=match.id, guild_id=HERE.guild_id,
                               depth="strong", engine=row.engine, data=old,
                               played_at=game.finished_at or "", players=[])

    await service.storage.run(downgrade)
    again = ok(await service.analyze(HERE, ALICE, 1))
    chart = again.pictures[0].content
    assert isinstance(chart, ChartData) and all(p.mwc is not None for p in chart.points)
    assert again.pictures[0].alt_text == first.pictures[0].alt_text
    async with service.storage.snapshot() as tx:
        assert (await tx.analyses_of([game.id], "strong"))[game.id].data["v"] == 2

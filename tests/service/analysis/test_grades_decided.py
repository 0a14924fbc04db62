"""Matches decided otherwise than on the board are graded with the match's real result
(issue 47, item 7), on SQLite and PostgreSQL: a tournament match the organiser decides
(``/tournament-admin result``) ends as a forfeit ends it -- finished with its winner on the
match's row, its played games graded in the background (the loser lost the match: -50%
match-winning chance), counted by /stats and the leaderboard as a forfeit is -- and a
match ended by a resignation or a claim by time is graded with its result too.

Real bgsage, in this process (:class:`grading.InProcess`)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from backends import Backend
from backends import backend as backend_named
from grading import ALICE, BLUNDER, BOB, OPENING, InProcess, ok
from scripted import Script
from tournament_play import ORGANISER, open_all

from bot.ai.runner import AIRunner
from bot.config import Config, TimeoutConfig
from bot.service.core.replies import Reply
from bot.service.core.values import Actor, Place
from bot.service.game import GameService
from bot.storage.interface import MatchRow, MatchStatus


@pytest.fixture(params=["sqlite", "postgres"])
async def backend(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Backend]:
    async with backend_named(request.param, tmp_path) as b:
        yield b


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


async def graded(service: GameService) -> tuple[Reply, InProcess]:
    """Grade the one queued match; the grades' message and the analyser (its calls)."""
    posts, analyser = Posts(), InProcess()
    grader = service.grader(analyser, posts)
    assert await grader.run_once() is not None, "the match was not queued for grading"
    assert await grader.run_once() is None  # one match only
    assert await grader.post_pending() == 1
    ((_, reply),) = posts.sent
    return reply, analyser


def results(grades: Reply) -> dict[str, str]:
    """Each player's grade line over the match, by name."""
    return {line.split(" over the match:")[0]: line for line in grades.text.splitlines()
            if " over the match:" in line}


def name(user: int) -> str:
    return f"p{user}"


async def tournament_match(service: GameService, guild: int) -> MatchRow:
    """A 2-player single-elimination tournament of one 3-point match in ``guild``: the
    match, whose black player leads 1-0 (white resigned game 1 after black's 3-1 blunder)
    and has played a blunder again in game 2, now under way."""
    hall = Place(guild, 70)
    made = ok(await service.tournament_create(hall, ORGANISER, is_organiser=True, name="Cup",
                                              format="single-elimination", length="3"))
    for user in (1, 2):
        ok(await service.tournament_join(hall, Actor(user, name(user)), made.tournament_id))
    ok(await service.tournament_start(hall, ORGANISER, is_organiser=True))
    (opened,) = await open_all(service)
    assert opened.match_id is not None
    async with service.storage.snapshot() as tx:
        row = await tx.get_match(opened.match_id)
    assert row is not None
    where = Place(guild, row.channel_id)
    white, black = Actor(row.white_id, name(row.white_id)), Actor(row.black_id,
                                                                   name(row.black_id))
    ok(await service.move(where, black, BLUNDER))  # black opens: 3-1 (OPENING)
    ok(await service.resign(where, white, "single"))
    ok(await service.answer_resignation(where, black, True))  # black 1-0
    ok(await service.move(where, black, BLUNDER))  # game 2 under way
    return row


async def standing(service: GameService, guild: int, user: int) -> tuple[str, dict[str, object]]:
    """``user``'s matches line of /stats and his entry of the wins leaderboard in ``guild``."""
    stats = ok(await service.stats(Place(guild, 70), Actor(user, name(user))))
    (matches,) = [part for line in stats.text.splitlines() for part in line.split(", ")
                  if part.startswith("matches ")]
    async with service.storage.snapshot() as tx:
        board = await tx.leaderboard(guild, "wins", 10, 0)
    (entry,) = [{k: v for k, v in e.items() if k in ("rating", "experience", "wins",
                                                       "played")}
                for e in board if e["user_id"] == user]
    return matches, entry


async def test_an_organisers_decision_is_graded_and_counted_as_a_forfeit_is(
        backend: Backend, ai: AIRunner) -> None:
    service = GameService(await backend.open(), Config(), dice=Script(OPENING * 4), ai=ai)

    # Guild 7: the organiser decides the match for white, who trails 0-1.
    row = await tournament_match(service, 7)
    decided = ok(await service.tournament_result(
        Place(7, 70), ORGANISER, is_organiser=True, pairing="R1-1", winner=row.white_id,
        reason="black left the server"))
    assert f"{name(row.white_id)} wins the match by the organiser's decision" in decided.text
    assert "Game 2 is not played" in decided.text  # the game in play: no result
    assert "being graded in the background" in decided.text, decided.text
    assert "posted in its channel" in decided.text  # (not "here": the organiser's channel)
    async with service.storage.snapshot() as tx:
        after = await tx.get_match(row.id)
        games = await tx.games_of_match(row.id)
    assert after is not None and after.status is MatchStatus.FINISHED
    assert after.winner_id == row.white_id  # the winner is on the match's row
    assert [g.played for g in games] == [True, False]

    grades, analyser = await graded(service)
    assert analyser.calls == 1  # game 1: the one played game
    assert "(1 of 1 game analysed)" in grades.text, grades.text
    lines = results(grades)
    assert "result +50.0% match-winning chance" in lines[name(row.white_id)], grades.text
    assert "result -50.0% match-winning chance" in lines[name(row.black_id)], grades.text
    async with service.storage.snapshot() as tx:
        kept = await tx.analyses_of([games[0].id], "strong")
    # Game 1's own analysis (what the form and the PR leaderboard read): white, who lost
    # the game but won the match, gains the match-winning chance he lacked at 0-0.
    assert kept[games[0].id].data["result"] == pytest.approx([0.5, -0.5])

    # Guild 8: the same match (its seats drawn by lot again), ended by black's /forfeit.
    forfeited = await tournament_match(service, 8)
    ok(await service.forfeit(Place(8, forfeited.channel_id),
                             Actor(forfeited.black_id, name(forfeited.black_id)), confirm=True))
    by_forfeit, _ = await graded(service)
    forfeit_lines = results(by_forfeit)
    assert "result +50.0% match-winning chance" in forfeit_lines[name(forfeited.white_id)]
    assert "result -50.0% match-winning chance" in forfeit_lines[name(forfeited.black_id)]

    # /stats and the leaderboard count the decided match as they count the forfeit: a
    # finished match won by white, rated the same.
    for seat in ("white_id", "black_id"):
        assert (await standing(service, 7, getattr(row, seat))
                == await standing(service, 8, getattr(forfeited, seat)))
    matches, entry = await standing(service, 7, row.white_id)
    assert matches == "matches 1/1 won" and entry["wins"] == entry["played"] == 1
    assert entry["experience"] == 3  # the rated 3-point match moved the rating
    assert (await standing(service, 7, row.black_id))[0] == "matches 0/1 won"


async def test_resignations_and_claims_are_graded_with_the_match_result(
        backend: Backend, ai: AIRunner) -> None:
    """Believed right already (issue 47 item 7 lists them): proved here."""
    now = [datetime(2030, 1, 1, tzinfo=UTC)]
    config = Config(timeouts=TimeoutConfig(claim_after_minutes=30, reminder_minutes=10))
    service = GameService(await backend.open(), config, dice=Script(OPENING * 4, then="51"),
                          ai=ai, clock=lambda: now[0])

    # A 3-point match: bob wins game 1 by alice's resignation (1-0), then alice resigns a
    # gammon: bob wins the match 3-0.
    here = Place(7, 71)
    ok(await service.challenge(here, ALICE, BOB, length=3))
    ok(await service.accept(here, BOB))
    ok(await service.move(here, BOB, BLUNDER))
    ok(await service.resign(here, ALICE, "single"))
    ok(await service.answer_resignation(here, BOB, True))
    ok(await service.move(here, BOB, BLUNDER))
    ok(await service.resign(here, ALICE, "gammon"))
    ended = ok(await service.answer_resignation(here, BOB, True))
    assert "bob wins the 3-point match 3-0" in ended.text, ended.text
    grades, analyser = await graded(service)
    assert analyser.calls == 2
    lines = results(grades)
    assert "result +50.0% match-winning chance" in lines["bob"], grades.text
    assert "result -50.0% match-winning chance" in lines["alice"], grades.text

    # A 1-point match: bob opens, alice never rolls; bob claims the game by time, and
    # with it the match.
    there = Place(7, 72)
    ok(await service.challenge(there, ALICE, BOB, length=1))
    ok(await service.accept(there, BOB))
    ok(await service.move(there, BOB, "8/5 6/5"))
    now[0] += timedelta(minutes=31)
    claimed = ok(await service.claim(there, BOB))
    assert "bob claims the game" in claimed.text, claimed.text
    grades, analyser = await graded(service)
    assert analyser.calls == 1
    lines = results(grades)
    assert "result +50.0% match-winning chance" in lines["bob"], grades.text
    assert "result -50.0% match-winning chance" in lines["alice"], grades.text

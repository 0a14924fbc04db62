"""Puzzles from the server's blunders (issue 33, item 5): made from a kept analysis,
shown with the board and their answers offered, answered right and wrong, judged by the
analysis and scored (first answers only), ranked; cube puzzles; the daily puzzle claimed
once a day per server, across a restart.  Real SQLite, real bgsage in this process."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from grading import ALICE, BLUNDER, BOB, OPENING, InProcess, blunder_match, ok
from scripted import Script, opened

from bot.ai.runner import AIRunner
from bot.config import Config
from bot.service.core.replies import Reply
from bot.service.core.values import Actor, Place
from bot.service.game import GameService

HERE = Place(guild_id=7, channel_id=70)
CAROL = Actor(3, "carol")
DAILY = 700


@pytest.fixture
async def ai() -> AsyncIterator[AIRunner]:
    runner = AIRunner(processes=False, time_limit=20.0)
    yield runner
    runner.close()


def _config(**analysis: object) -> Config:
    config = Config()
    return replace(config, analysis=replace(config.analysis, **analysis))  # type: ignore[arg-type]


async def _graded(tmp_path: Path, ai: AIRunner, config: Config | None = None,
                  name: str = "bg.sqlite3") -> GameService:
    """A service whose 1-point match (bob's 3-1 played 8/4) is graded: one puzzle."""
    storage = await opened(tmp_path / name)
    service = GameService(storage, config or Config(), dice=Script(OPENING * 8), ai=ai)
    await blunder_match(service, HERE)

    async def post(channel: int, reply: Reply) -> None:
        return None

    assert await service.grader(InProcess(), post).run_once() is not None
    return service


async def test_a_puzzle_from_a_kept_analysis_shown_answered_and_scored(
        tmp_path: Path, ai: AIRunner) -> None:
    service = await _graded(tmp_path, ai)
    shown = ok(await service.puzzle(HERE, CAROL))
    assert shown.text.startswith("Puzzle #1: 3-1 to play: find the best play.")
    assert "From a 1-point match on this server." in shown.text  # anonymised: no names
    assert "bob" not in shown.text and "alice" not in shown.text
    (board,) = shown.boards
    assert board.caption.startswith("Puzzle #1: You - 3-1 to play")
    assert {p.name for p in board.view.players} == {"You", "Opponent"}
    assert board.position_id == "4HPwATDgc/ABMA"  # the opening position, before the play
    choices = shown.puzzle
    assert choices is not None and choices.puzzle_id == 1 and not choices.buttons
    assert list(choices.options) == sorted(choices.options)  # notation order, no hint
    assert BLUNDER in choices.options and "8/5 6/5" in choices.options
    assert len(choices.options) <= 25
    # Wrong: the play made in the game.
    wrong = ok(await service.puzzle_answer(HERE, CAROL, "8/4"))
    assert wrong.ephemeral
    assert wrong.text.startswith("Not the best: 8/4 gives up ")
    lost = float(wrong.text.split("gives up ")[1].split()[0])
    assert lost > 0.1 and f"In the game, 8/4 was played ({lost:.3f} lost)." in wrong.text
    assert "8/5 6/5, the best answer to puzzle #1" in wrong.text
    assert "Your puzzle score here: 0 right of 1 answered." in wrong.text
    # Right the second time, but only the first answer counts.
    again = ok(await service.puzzle_answer(HERE, CAROL, "6/5 8/5", number=1))
    assert again.text.startswith("Right: 8/5 6/5 is the best answer to puzzle #1.")
    assert "You answered this puzzle before (8/4, not the best)" in again.text
    assert "Your puzzle score here: 0 right of 1 answered." in again.text
    right = ok(await service.puzzle_answer(HERE, ALICE, "8/5 6/5"))
    assert "Your puzzle score here: 1 right of 1 answered." in right.text
    board_text = ok(await service.leaderboard(HERE, CAROL, "puzzles")).text
    assert board_text.splitlines()[1].split()[:3] == ["1.", "alice", "1"]
    assert board_text.splitlines()[2].split()[:3] == ["2.", "carol", "0"]
    # Nothing left for carol: said so.
    none = await service.puzzle(HERE, CAROL)
    assert not none.ok and "answered the only puzzle of this server" in none.text


async def test_answers_that_are_no_answer_are_refused_saying_why(tmp_path: Path,
                                                                 ai: AIRunner) -> None:
    service = await _graded(tmp_path, ai)
    illegal = await service.puzzle_answer(HERE, CAROL, "13/5")
    assert not illegal.ok and "asks for a whole play of 3-1" in illegal.text
    cube = await service.puzzle_answer(HERE, CAROL, "double")
    assert not cube.ok
    unknown = await service.puzzle(HERE, CAROL, 99)
    assert not unknown.ok and "no puzzle #99 on this server" in unknown.text
    elsewhere = await service.puzzle(Place(guild_id=8, channel_id=80), CAROL, 1)
    assert not elsewhere.ok and "no puzzle #1 on this server: none so far" in elsewhere.text
    # Nothing was scored by a refused answer.
    assert "1 answered" in ok(await service.puzzle_answer(HERE, CAROL, "8/5 6/5")).text


async def test_a_server_may_name_the_players(tmp_path: Path, ai: AIRunner) -> None:
    service = await _graded(tmp_path, ai, _config(anonymous_puzzles=False))
    shown = ok(await service.puzzle(HERE, CAROL))
    assert "From alice - bob, a 1-point match, game 1: bob to decide." in shown.text
    assert {p.name for p in shown.boards[0].view.players} == {"alice", "bob"}


async def test_cube_puzzles_double_and_take(tmp_path: Path, ai: AIRunner) -> None:
    """A money game: after bob's opening 3-1, alice doubles at once (far too early) and
    bob passes (a take is right): two cube puzzles, answered with the cube's words."""
    storage = await opened(tmp_path / "bg.sqlite3")
    service = GameService(storage, Config(), dice=Script(OPENING * 4), ai=ai)
    ok(await service.challenge(HERE, ALICE, BOB, stake=1))
    ok(await service.accept(HERE, BOB))
    ok(await service.move(HERE, BOB, "8/5 6/5"))
    ok(await service.double(HERE, ALICE))
    ok(await service.drop(HERE, BOB))
    ended = ok(await service.stop(HERE, ALICE))
    assert "being graded" in ended.text

    async def post(channel: int, reply: Reply) -> None:
        return None

    assert await service.grader(InProcess(), post).run_once() is not None
    kinds = {}
    for number in (1, 2, 3):
        shown = await service.puzzle(HERE, CAROL, number)
        if shown.ok:
            assert shown.puzzle is not None
            kinds[shown.puzzle.options] = (number, shown)
    double_no, double_shown = kinds[("double", "no double")]
    take_no, take_shown = kinds[("take", "pass")]
    assert double_shown.puzzle is not None and double_shown.puzzle.buttons
    assert "double, or no double?" in double_shown.text
    assert "you are doubled: take or pass?" in take_shown.text
    # A question ends with its question mark, no full stop after it (issue 42 item 11).
    assert "?." not in double_shown.text and "?." not in take_shown.text
    assert take_shown.boards[0].view.cube is not None  # the cube offered is drawn
    right = ok(await service.puzzle_answer(HERE, CAROL, "no double", double_no))
    assert right.text.startswith("Right: no double is the best answer")
    assert "Equities: no double" in right.text and "In the game, double was played" in right.text
    wrong = ok(await service.puzzle_answer(HERE, CAROL, "drop", take_no))
    assert wrong.text.startswith("Not the best: pass gives up")
    word = await service.puzzle_answer(HERE, ALICE, "13/7", take_no)
    assert not word.ok and "answer take or pass" in word.text


async def test_the_daily_puzzle_is_posted_once_a_day_across_a_restart(
        tmp_path: Path, ai: AIRunner) -> None:
    config = _config(daily_puzzle_channels={str(HERE.guild_id): DAILY}, daily_puzzle_hour=9)
    service = await _graded(tmp_path, ai, config)
    morning = datetime(2026, 11, 25, 8, 59, tzinfo=UTC)
    assert await service.puzzles.due_daily(morning) == []  # before the hour
    nine = morning + timedelta(minutes=1)
    (post,) = await service.puzzles.due_daily(nine)
    assert post.channel_id == DAILY and post.puzzle_id == 1 and post.day == "2026-11-25"
    assert post.reply.text.startswith("Puzzle of the day (2026-11-25):\nPuzzle #1")
    assert post.reply.puzzle is not None and post.reply.boards
    # Claimed: not handed out again the same day, by this process or after a restart,
    # even before it is marked sent (another process may be posting it).
    assert await service.puzzles.due_daily(nine + timedelta(minutes=1)) == []
    restarted = GameService(await opened(tmp_path / "bg.sqlite3"), config,
                            dice=Script(OPENING * 2), ai=ai)
    assert await restarted.puzzles.due_daily(nine + timedelta(minutes=2)) == []
    await restarted.puzzles.daily_sent(post, nine + timedelta(minutes=2))
    # Sent: never again that day, even long after.
    assert await restarted.puzzles.due_daily(nine + timedelta(hours=5)) == []
    # The next day: no new puzzle to post yet: nothing, and nothing claimed; a puzzle made
    # later that day is posted then.
    tomorrow = nine + timedelta(days=1)
    assert await restarted.puzzles.due_daily(tomorrow) == []
    async with restarted.storage.snapshot() as tx:
        assert await tx.daily_puzzle(HERE.guild_id, "2026-11-26") is None
    await blunder_match(restarted, Place(guild_id=HERE.guild_id, channel_id=71))

    async def post(channel: int, reply: Reply) -> None:
        return None

    assert await restarted.grader(InProcess(), post).run_once() is not None
    (later,) = await restarted.puzzles.due_daily(tomorrow + timedelta(hours=3))
    assert later.puzzle_id == 2 and later.day == "2026-11-26"


async def test_a_daily_post_whose_process_died_is_claimed_again(tmp_path: Path,
                                                                ai: AIRunner) -> None:
    config = _config(daily_puzzle_channels={str(HERE.guild_id): DAILY}, daily_puzzle_hour=0)
    service = await _graded(tmp_path, ai, config)
    noon = datetime(2026, 11, 25, 12, 0, tzinfo=UTC)
    (first,) = await service.puzzles.due_daily(noon)  # claimed, then the process dies
    restarted = GameService(await opened(tmp_path / "bg.sqlite3"), config, ai=ai)
    assert await restarted.puzzles.due_daily(noon + timedelta(minutes=9)) == []
    (again,) = await restarted.puzzles.due_daily(noon + timedelta(minutes=11))
    assert again.puzzle_id == first.puzzle_id and again.day == first.day

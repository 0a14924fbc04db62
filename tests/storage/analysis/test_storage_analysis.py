"""The analysis family's storage (migration 0005) on both backends: analyses kept per
game and depth and replaced whole, a player's figures per match and the PR leaderboard,
the grading queue (claimed exactly once, a lapsed lease taken over, finishing only by the
holder, the grades handed to be posted once), puzzles and first answers, the daily
puzzle claimed once a day and again once stale.

Every test runs on SQLite (a real file) and on PostgreSQL (a new database on the test
session's throwaway server; skipped with the reason when none can be started).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pg
import pytest

from bot.storage.core.sql import migrations
from bot.storage.interface import (
    GradingStatus,
    MatchRow,
    MatchStatus,
    PlayerFigures,
    Transaction,
)
from bot.storage.sqlite import SqliteStorage

GUILD = 7
T0 = "2026-11-25T10:00:00.000+00:00"
T1 = "2026-11-25T10:01:00.000+00:00"
T2 = "2026-11-25T10:02:00.000+00:00"


@pytest.fixture(params=["sqlite", "postgres"])
async def storage(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Any]:
    if request.param == "sqlite":
        s: Any = SqliteStorage(tmp_path / "db.sqlite3")
        await s.open()
        yield s
        await s.close()
        return
    reason = pg.unavailable()
    if reason is not None:
        pytest.skip(reason)
    from bot.storage.postgres import PostgresStorage

    url = await pg.create_database()
    s = PostgresStorage(url, pool_size=4)
    await s.open()
    try:
        yield s
    finally:
        await s.close()
        await pg.drop_database(url)


async def _match(storage: Any, channel: int = 70) -> tuple[MatchRow, list[int]]:
    """A finished match of alice (1) and bob (2) with two games; (row, game ids)."""
    async def work(tx: Transaction) -> tuple[MatchRow, list[int]]:
        await tx.upsert_user(1, "alice")
        await tx.upsert_user(2, "bob")
        row = await tx.insert_match(guild_id=GUILD, channel_id=channel, white_id=1,
                                    black_id=2, variant="standard", rules={}, length=3,
                                    stake=0, rated=True, status=MatchStatus.ACTIVE)
        games = [await tx.insert_game(match_id=row.id, number=n, seed_hash="h", seed="s")
                 for n in (1, 2)]
        row = await tx.update_match(row, status=MatchStatus.FINISHED, winner_id=2)
        return row, [g.id for g in games]

    result: tuple[MatchRow, list[int]] = await storage.run(work)
    return result


def _figures(lost: tuple[float, float], decisions: int = 40) -> list[PlayerFigures]:
    return [PlayerFigures(side, user, decisions, lost[side], decisions - 2, lost[side], 2,
                          0.0, 30, 0.1 * side, 0.01, 0.25 - 0.5 * side)
            for side, user in ((0, 1), (1, 2))]


async def test_migration_0005_is_applied(storage: Any) -> None:
    names = [name for _, name, _ in migrations()]
    assert names[3:5] == ["0004_guild_settings.sql", "0005_analyses.sql"]
    assert await storage.schema_version() == len(migrations())


async def test_an_analysis_is_kept_per_game_and_depth_and_replaced_whole(storage: Any
                                                                          ) -> None:
    row, (g1, g2) = await _match(storage)

    async def keep(tx: Transaction, game: int, depth: str, lost: tuple[float, float],
                   engine: str = "bgsage 1") -> None:
        await tx.save_analysis(game_id=game, match_id=row.id, guild_id=GUILD, depth=depth,
                               engine=engine, data={"game": game, "lost": list(lost)},
                               played_at=T0, players=_figures(lost))

    await storage.run(lambda tx: keep(tx, g1, "strong", (0.4, 0.2)))
    await storage.run(lambda tx: keep(tx, g1, "expert", (0.3, 0.1)))
    await storage.run(lambda tx: keep(tx, g1, "strong", (0.6, 0.2), "bgsage 2"))
    async with storage.snapshot() as tx:
        strong = await tx.analyses_of([g1, g2], "strong")
        expert = await tx.analyses_of([g1], "expert")
        figures = await tx.match_figures(GUILD, 1, "strong")
        none = await tx.analyses_of([], "strong")
    assert set(strong) == {g1} and strong[g1].engine == "bgsage 2"
    assert strong[g1].data == {"game": g1, "lost": [0.6, 0.2]} and strong[g1].match_id == row.id
    assert expert[g1].data["lost"] == [0.3, 0.1] and none == {}
    (mine,) = figures  # the replaced figures only, at the depth asked
    assert (mine.match_id, mine.opponent, mine.length) == (row.id, "bob", 3)
    assert mine.decisions == 40 and mine.lost == pytest.approx(0.6)


async def test_figures_per_match_and_the_pr_leaderboard(storage: Any) -> None:
    first, (a1, a2) = await _match(storage, 70)
    second, (b1, _) = await _match(storage, 71)
    for game, match, lost in ((a1, first, (0.2, 0.4)), (a2, first, (0.2, 0.4)),
                              (b1, second, (0.8, 0.4))):
        async def keep(tx: Transaction, game: int = game, match: MatchRow = match,
                       lost: tuple[float, float] = lost) -> None:
            await tx.save_analysis(game_id=game, match_id=match.id, guild_id=GUILD,
                                   depth="strong", engine="e", data={}, played_at=T0,
                                   players=_figures(lost))
        await storage.run(keep)
    async with storage.snapshot() as tx:
        alice = await tx.match_figures(GUILD, 1, "strong")
        board = await tx.pr_leaderboard(GUILD, "strong", 100, 10, 0)
        count = await tx.pr_leaderboard_count(GUILD, "strong", 100)
        strict = await tx.pr_leaderboard_count(GUILD, "strong", 121)
        elsewhere = await tx.pr_leaderboard(GUILD + 1, "strong", 0, 10, 0)
    assert [(f.match_id, f.decisions) for f in alice] == [(second.id, 40), (first.id, 80)]
    assert alice[1].lost == pytest.approx(0.4)
    # alice lost 1.2 over 120 decisions (PR 5), bob 1.2 over 120 too: tie, by user id.
    assert [(r["rank"], r["name"], r["decisions"], r["matches"]) for r in board] == [
        (1, "alice", 120, 2), (2, "bob", 120, 2)]
    assert count == 2 and strict == 0 and elsewhere == []


async def test_the_grading_queue_claims_each_match_once(storage: Any) -> None:
    row, _ = await _match(storage)
    assert await storage.run(lambda tx: tx.enqueue_grading(row.id, GUILD, 70, T0))
    assert not await storage.run(lambda tx: tx.enqueue_grading(row.id, GUILD, 70, T1))

    async def claim(worker: str) -> bool:
        async def work(tx: Transaction) -> bool:
            job = await tx.claimable_grading(T1)
            return job is not None and await tx.claim_grading(job.match_id, worker, T1, T2)
        return bool(await storage.run(work))

    results = await asyncio.gather(*(claim(f"w{n}") for n in range(4)))
    assert sorted(results) == [False, False, False, True]
    winner = f"w{results.index(True)}"
    async with storage.snapshot() as tx:
        job = await tx.grading_job(row.id)
        assert await tx.claimable_grading(T1) is None  # held until its lease lapses
        lapsed = await tx.claimable_grading("2026-11-25T10:03:00.000+00:00")
    assert job is not None and job.status is GradingStatus.RUNNING and job.worker == winner
    assert job.attempts == 1 and lapsed is not None and lapsed.match_id == row.id
    # Another worker takes over the lapsed claim; the first can neither renew nor finish.
    late = "2026-11-25T10:03:00.000+00:00"
    assert await storage.run(lambda tx: tx.claim_grading(row.id, "other", late,
                                                         "2026-11-25T10:05:00.000+00:00"))
    assert not await storage.run(lambda tx: tx.renew_grading(row.id, winner, late))
    assert not await storage.run(lambda tx: tx.finish_grading(row.id, winner, late))
    assert await storage.run(lambda tx: tx.renew_grading(row.id, "other",
                                                         "2026-11-25T10:06:00.000+00:00"))
    async with storage.snapshot() as tx:
        assert await tx.unposted_gradings() == []
    assert await storage.run(lambda tx: tx.finish_grading(row.id, "other", late))
    async with storage.snapshot() as tx:
        done = await tx.grading_job(row.id)
        (unposted,) = await tx.unposted_gradings()
    assert done is not None and done.status is GradingStatus.DONE and done.attempts == 2
    assert unposted.match_id == row.id
    posts = await asyncio.gather(*(storage.run(lambda tx: tx.claim_grading_post(row.id))
                                   for _ in range(3)))
    assert sorted(posts) == [False, False, True]
    async with storage.snapshot() as tx:
        assert await tx.unposted_gradings() == []


async def test_a_failed_grading_is_queued_again_or_given_up(storage: Any) -> None:
    row, _ = await _match(storage)
    await storage.run(lambda tx: tx.enqueue_grading(row.id, GUILD, 70, T0))
    assert await storage.run(lambda tx: tx.claim_grading(row.id, "w", T0, T1))
    await storage.run(lambda tx: tx.fail_grading(row.id, "w", "took too long", T0, False))
    async with storage.snapshot() as tx:
        job = await tx.grading_job(row.id)
    assert job is not None and job.status is GradingStatus.QUEUED
    assert job.error == "took too long" and job.lease_until is None
    assert await storage.run(lambda tx: tx.claim_grading(row.id, "w2", T0, T1))
    await storage.run(lambda tx: tx.fail_grading(row.id, "w2", "broken", T0, True))
    async with storage.snapshot() as tx:
        job = await tx.grading_job(row.id)
        assert await tx.claimable_grading(T2) is None
    assert job is not None and job.status is GradingStatus.FAILED and job.attempts == 2


async def test_puzzles_answers_and_the_daily_claim(storage: Any) -> None:
    row, (g1, _) = await _match(storage)
    await storage.run(lambda tx: tx.upsert_user(3, "carol"))

    async def add(tx: Transaction, index: int) -> int | None:
        return await tx.add_puzzle(guild_id=GUILD, match_id=row.id, game_id=g1,
                                   event_index=index, user_id=2, kind="play",
                                   equity_lost=0.2, data={"best": "8/5 6/5", "i": index})

    first = await storage.run(lambda tx: add(tx, 4))
    second = await storage.run(lambda tx: add(tx, 9))
    assert first is not None and second is not None and second > first
    assert await storage.run(lambda tx: add(tx, 4)) is None  # one puzzle per decision

    async def answer(user: int, puzzle: int, correct: bool) -> bool:
        async def work(tx: Transaction) -> bool:
            return await tx.answer_puzzle(puzzle_id=puzzle, user_id=user, guild_id=GUILD,
                                          answer="8/4", correct=correct, lost=0.0 if correct
                                          else 0.2, score=int(correct), now=T1)
        return bool(await storage.run(work))

    assert await answer(3, first, False)
    assert not await answer(3, first, True)  # the first answer stands
    assert await answer(1, first, True) and await answer(1, second, True)
    async with storage.snapshot() as tx:
        shown = await tx.get_puzzle(first)
        carol_next = await tx.next_puzzle(GUILD, 3)
        alice_next = await tx.next_puzzle(GUILD, 1)
        kept = await tx.puzzle_answer(first, 3)
        board = await tx.puzzle_leaderboard(GUILD, 10, 0)
        count = await tx.puzzle_count(GUILD)
        record = await tx.puzzle_record(GUILD, 1)
        assert await tx.puzzle_leaderboard_count(GUILD) == 2
    assert shown is not None and shown.data == {"best": "8/5 6/5", "i": 4}
    assert carol_next is not None and carol_next.id == second and alice_next is None
    assert kept is not None and not kept.correct and kept.answer == "8/4"
    assert [(r["name"], r["score"], r["answered"]) for r in board] == [
        ("alice", 2, 2), ("carol", 0, 1)]
    assert count == 2 and record == (2, 2)
    # The daily post: one claim a day; again only once stale and still not sent.
    day = "2026-11-25"
    claims = await asyncio.gather(*(storage.run(
        lambda tx: tx.claim_daily_puzzle(GUILD, day, 700, T1, T0)) for _ in range(3)))
    assert sorted(claims) == [False, False, True]
    async with storage.snapshot() as tx:
        assert (await tx.next_daily_puzzle(GUILD)).id == first  # type: ignore[union-attr]
        assert await tx.daily_puzzle(GUILD, day) == (None, None)
    assert not await storage.run(lambda tx: tx.claim_daily_puzzle(GUILD, day, 700, T2, T0))
    assert await storage.run(lambda tx: tx.claim_daily_puzzle(GUILD, day, 700, T2, T2))
    await storage.run(lambda tx: tx.daily_puzzle_sent(GUILD, day, first, T2))
    assert not await storage.run(lambda tx: tx.claim_daily_puzzle(
        GUILD, day, 700, "2026-11-25T23:00:00.000+00:00", "2026-11-25T22:00:00.000+00:00"))
    async with storage.snapshot() as tx:
        assert await tx.daily_puzzle(GUILD, day) == (first, T2)
        after = await tx.next_daily_puzzle(GUILD)
    assert after is not None and after.id == second


async def test_an_analysis_reads_back_exactly(storage: Any) -> None:
    """Issue 47, item 5: what is stored reads back the same -- floats to the last bit
    (the stored form no longer rounds them), a match-winning chance or none."""
    row, (g1, _) = await _match(storage)
    data = {"v": 2, "timeline": [[3, 1, "play", -0.123456789012345, 1 / 3,
                                  0.30000000000000004, 0.7071067811865476],
                                 [4, 0, "take", 2.5e-17, 0.5, 0.0, None]],
            "result": [-0.4999999999999999, 0.4999999999999999]}

    async def keep(tx: Transaction) -> None:
        await tx.save_analysis(game_id=g1, match_id=row.id, guild_id=GUILD, depth="strong",
                               engine="bgsage 1", data=data, played_at=T0,
                               players=_figures((0.4, 0.2)))

    await storage.run(keep)
    async with storage.snapshot() as tx:
        kept = await tx.analyses_of([g1], "strong")
    assert kept[g1].data == data

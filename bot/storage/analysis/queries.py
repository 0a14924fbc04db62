"""The SQL of analyses, the grading queue and puzzles, written once for both backends."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from bot.storage.analysis.interface import (
    AnalysisRow,
    GradingJob,
    GradingStatus,
    MatchFigures,
    PlayerFigures,
    PuzzleAnswerRow,
    PuzzleRow,
)
from bot.storage.core.sql import SqlPrimitives, dumps, now

_JOB_COLUMNS = ("match_id, guild_id, channel_id, status, attempts, worker, lease_until, error, "
                "posted, created_at, finished_at")
_PUZZLE_COLUMNS = ("id, guild_id, match_id, game_id, event_index, user_id, kind, equity_lost, "
                   "data, created_at")


def _job(row: Any) -> GradingJob:
    return GradingJob(int(row[0]), int(row[1]), int(row[2]), GradingStatus(row[3]),
                      int(row[4]), row[5], row[6], row[7], bool(row[8]), row[9], row[10])


def _puzzle(row: Any) -> PuzzleRow:
    return PuzzleRow(int(row[0]), int(row[1]), int(row[2]), int(row[3]), int(row[4]),
                     int(row[5]), str(row[6]), float(row[7]), json.loads(row[8]), row[9])


class AnalysisQueries(SqlPrimitives):
    """Analyses per game and player, the grading queue, puzzles and their answers."""

    # analyses -------------------------------------------------------------------
    async def save_analysis(self, *, game_id: int, match_id: int, guild_id: int, depth: str,
                            engine: str, data: dict[str, Any], played_at: str,
                            players: Sequence[PlayerFigures]) -> None:
        stamp = now()
        await self._write(
            "INSERT INTO analyses (game_id, depth, match_id, engine, data, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, depth) DO UPDATE SET "
            "engine = excluded.engine, data = excluded.data, created_at = excluded.created_at",
            (game_id, depth, match_id, engine, dumps(data), stamp))
        await self._write("DELETE FROM analysis_players WHERE game_id = ? AND depth = ?",
                          (game_id, depth))
        await self._write_many(
            "INSERT INTO analysis_players (game_id, depth, side, match_id, guild_id, user_id, "
            "decisions, lost, checker_decisions, checker_lost, cube_decisions, cube_lost, "
            "rolls, luck, luck_value, result, played_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(game_id, depth, p.side, match_id, guild_id, p.user_id, p.decisions, p.lost,
              p.checker_decisions, p.checker_lost, p.cube_decisions, p.cube_lost, p.rolls,
              p.luck, p.luck_value, p.result, played_at) for p in players])

    async def analyses_of(self, game_ids: Sequence[int], depth: str) -> dict[int, AnalysisRow]:
        ids = sorted(set(game_ids))
        if not ids:
            return {}
        marks = ", ".join("?" for _ in ids)
        rows = await self._all(
            "SELECT game_id, depth, match_id, engine, data, created_at FROM analyses "
            f"WHERE depth = ? AND game_id IN ({marks})", (depth, *ids))
        return {int(r[0]): AnalysisRow(int(r[0]), str(r[1]), int(r[2]), str(r[3]),
                                       json.loads(r[4]), str(r[5])) for r in rows}

    async def match_figures(self, guild_id: int, user_id: int, depth: str,
                            limit: int = 200) -> list[MatchFigures]:
        rows = await self._all(
            "SELECT a.match_id, COALESCE(u.name, CAST(CASE WHEN m.white_id = a.user_id "
            "THEN m.black_id ELSE m.white_id END AS TEXT)), m.length, MAX(a.played_at), "
            "SUM(a.decisions), SUM(a.lost), SUM(a.luck), SUM(a.rolls) "
            "FROM analysis_players a JOIN matches m ON m.id = a.match_id "
            "LEFT JOIN users u ON u.id = CASE WHEN m.white_id = a.user_id THEN m.black_id "
            "ELSE m.white_id END "
            "WHERE a.guild_id = ? AND a.user_id = ? AND a.depth = ? AND m.variant = 'standard' "
            "GROUP BY a.match_id, u.name, m.white_id, m.black_id, a.user_id, m.length "
            "ORDER BY MAX(a.played_at) DESC, a.match_id DESC LIMIT ?",
            (guild_id, user_id, depth, limit))
        return [MatchFigures(int(r[0]), str(r[1]), int(r[2]), str(r[3]), int(r[4]),
                             float(r[5]), float(r[6]), int(r[7])) for r in rows]

    _PR_BOARD = (
        "SELECT a.user_id, COALESCE(u.name, CAST(a.user_id AS TEXT)), SUM(a.decisions), "
        "SUM(a.lost), COUNT(DISTINCT a.match_id) FROM analysis_players a "
        "JOIN matches m ON m.id = a.match_id LEFT JOIN users u ON u.id = a.user_id "
        "WHERE a.guild_id = :g AND a.depth = :d AND COALESCE(u.is_bot, 0) = 0 "
        "AND m.variant = 'standard' "
        "GROUP BY a.user_id, u.name HAVING SUM(a.decisions) >= :min AND SUM(a.decisions) > 0")

    async def pr_leaderboard(self, guild_id: int, depth: str, min_decisions: int,
                             limit: int, offset: int) -> list[dict[str, Any]]:
        rows = await self._all(
            self._PR_BOARD + " ORDER BY SUM(a.lost) / SUM(a.decisions), a.user_id "
            "LIMIT :limit OFFSET :offset",
            {"g": guild_id, "d": depth, "min": min_decisions, "limit": limit,
             "offset": offset})
        return [{"rank": offset + i + 1, "user_id": int(r[0]), "name": str(r[1]),
                 "decisions": int(r[2]), "lost": float(r[3]), "matches": int(r[4])}
                for i, r in enumerate(rows)]

    async def pr_leaderboard_count(self, guild_id: int, depth: str, min_decisions: int) -> int:
        row = await self._one(f"SELECT COUNT(*) FROM ({self._PR_BOARD}) AS board",
                              {"g": guild_id, "d": depth, "min": min_decisions})
        return int(row[0]) if row else 0

    # the grading queue ----------------------------------------------------------
    async def enqueue_grading(self, match_id: int, guild_id: int, channel_id: int,
                              now: str) -> bool:
        changed, _ = await self._cursor(
            "INSERT INTO grading_jobs (match_id, guild_id, channel_id, status, created_at) "
            "VALUES (?, ?, ?, 'queued', ?) ON CONFLICT (match_id) DO NOTHING",
            (match_id, guild_id, channel_id, now))
        return changed == 1

    async def grading_job(self, match_id: int) -> GradingJob | None:
        row = await self._one(f"SELECT {_JOB_COLUMNS} FROM grading_jobs WHERE match_id = ?",
                              (match_id,))
        return _job(row) if row else None

    async def claimable_grading(self, now: str) -> GradingJob | None:
        row = await self._one(
            f"SELECT {_JOB_COLUMNS} FROM grading_jobs WHERE status = 'queued' "
            "OR (status = 'running' AND lease_until < ?) ORDER BY created_at, match_id "
            "LIMIT 1", (now,))
        return _job(row) if row else None

    async def claim_grading(self, match_id: int, worker: str, now: str,
                            lease_until: str) -> bool:
        # Conditional UPDATE: on PostgreSQL a second claimer blocks on the row lock, then
        # re-reads the row committed by the first and no longer matches; SQLite's write
        # lock serialises the claimers outright.
        changed, _ = await self._cursor(
            "UPDATE grading_jobs SET status = 'running', worker = ?, lease_until = ?, "
            "attempts = attempts + 1 WHERE match_id = ? AND (status = 'queued' OR "
            "(status = 'running' AND lease_until < ?))",
            (worker, lease_until, match_id, now))
        return changed == 1

    async def renew_grading(self, match_id: int, worker: str, lease_until: str) -> bool:
        changed, _ = await self._cursor(
            "UPDATE grading_jobs SET lease_until = ? WHERE match_id = ? AND worker = ? "
            "AND status = 'running'", (lease_until, match_id, worker))
        return changed == 1

    async def finish_grading(self, match_id: int, worker: str, now: str) -> bool:
        changed, _ = await self._cursor(
            "UPDATE grading_jobs SET status = 'done', finished_at = ?, lease_until = NULL, "
            "error = NULL WHERE match_id = ? AND worker = ? AND status = 'running'",
            (now, match_id, worker))
        return changed == 1

    async def fail_grading(self, match_id: int, worker: str, error: str, now: str,
                           give_up: bool) -> None:
        await self._write(
            "UPDATE grading_jobs SET status = ?, error = ?, lease_until = NULL, "
            "finished_at = ? WHERE match_id = ? AND worker = ? AND status = 'running'",
            ("failed" if give_up else "queued", error[:500], now if give_up else None,
             match_id, worker))

    async def unposted_gradings(self, limit: int = 10) -> list[GradingJob]:
        rows = await self._all(
            f"SELECT {_JOB_COLUMNS} FROM grading_jobs WHERE status = 'done' AND posted = 0 "
            "ORDER BY finished_at, match_id LIMIT ?", (limit,))
        return [_job(r) for r in rows]

    async def claim_grading_post(self, match_id: int) -> bool:
        changed, _ = await self._cursor(
            "UPDATE grading_jobs SET posted = 1 WHERE match_id = ? AND status = 'done' "
            "AND posted = 0", (match_id,))
        return changed == 1

    # puzzles --------------------------------------------------------------------
    async def add_puzzle(self, *, guild_id: int, match_id: int, game_id: int,
                         event_index: int, user_id: int, kind: str, equity_lost: float,
                         data: dict[str, Any]) -> int | None:
        row = await self._one(
            "INSERT INTO puzzles (guild_id, match_id, game_id, event_index, user_id, kind, "
            "equity_lost, data, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (game_id, event_index) DO NOTHING RETURNING id",
            (guild_id, match_id, game_id, event_index, user_id, kind, equity_lost,
             dumps(data), now()))
        return int(row[0]) if row else None

    async def get_puzzle(self, puzzle_id: int) -> PuzzleRow | None:
        row = await self._one(f"SELECT {_PUZZLE_COLUMNS} FROM puzzles WHERE id = ?",
                              (puzzle_id,))
        return _puzzle(row) if row else None

    async def next_puzzle(self, guild_id: int, user_id: int) -> PuzzleRow | None:
        row = await self._one(
            f"SELECT {_PUZZLE_COLUMNS} FROM puzzles p WHERE guild_id = ? AND NOT EXISTS "
            "(SELECT 1 FROM puzzle_answers a WHERE a.puzzle_id = p.id AND a.user_id = ?) "
            "ORDER BY id LIMIT 1", (guild_id, user_id))
        return _puzzle(row) if row else None

    async def puzzle_count(self, guild_id: int) -> int:
        row = await self._one("SELECT COUNT(*) FROM puzzles WHERE guild_id = ?", (guild_id,))
        return int(row[0]) if row else 0

    async def answer_puzzle(self, *, puzzle_id: int, user_id: int, guild_id: int, answer: str,
                            correct: bool, lost: float, score: int, now: str) -> bool:
        changed, _ = await self._cursor(
            "INSERT INTO puzzle_answers (puzzle_id, user_id, guild_id, answer, correct, lost, "
            "score, answered_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (puzzle_id, user_id) DO NOTHING",
            (puzzle_id, user_id, guild_id, answer, int(correct), lost, score, now))
        return changed == 1

    async def puzzle_answer(self, puzzle_id: int, user_id: int) -> PuzzleAnswerRow | None:
        row = await self._one(
            "SELECT puzzle_id, user_id, answer, correct, lost, score, answered_at "
            "FROM puzzle_answers WHERE puzzle_id = ? AND user_id = ?", (puzzle_id, user_id))
        if not row:
            return None
        return PuzzleAnswerRow(int(row[0]), int(row[1]), str(row[2]), bool(row[3]),
                               float(row[4]), int(row[5]), str(row[6]))

    _PUZZLE_BOARD = (
        "SELECT a.user_id, COALESCE(u.name, CAST(a.user_id AS TEXT)), SUM(a.score), "
        "COUNT(*), SUM(a.lost) FROM puzzle_answers a LEFT JOIN users u ON u.id = a.user_id "
        "WHERE a.guild_id = :g GROUP BY a.user_id, u.name")

    async def puzzle_leaderboard(self, guild_id: int, limit: int,
                                 offset: int) -> list[dict[str, Any]]:
        rows = await self._all(
            self._PUZZLE_BOARD + " ORDER BY SUM(a.score) DESC, SUM(a.lost) / COUNT(*), "
            "a.user_id LIMIT :limit OFFSET :offset",
            {"g": guild_id, "limit": limit, "offset": offset})
        return [{"rank": offset + i + 1, "user_id": int(r[0]), "name": str(r[1]),
                 "score": int(r[2]), "answered": int(r[3]), "lost": float(r[4])}
                for i, r in enumerate(rows)]

    async def puzzle_leaderboard_count(self, guild_id: int) -> int:
        row = await self._one(f"SELECT COUNT(*) FROM ({self._PUZZLE_BOARD}) AS board",
                              {"g": guild_id})
        return int(row[0]) if row else 0

    async def puzzle_record(self, guild_id: int, user_id: int) -> tuple[int, int]:
        row = await self._one(
            "SELECT COUNT(*), COALESCE(SUM(score), 0) FROM puzzle_answers "
            "WHERE guild_id = ? AND user_id = ?", (guild_id, user_id))
        return (int(row[0]), int(row[1])) if row else (0, 0)

    # the daily puzzle -----------------------------------------------------------
    async def claim_daily_puzzle(self, guild_id: int, day: str, channel_id: int, now: str,
                                 stale_before: str) -> bool:
        changed, _ = await self._cursor(
            "INSERT INTO daily_puzzles (guild_id, day, channel_id, claimed_at) "
            "VALUES (?, ?, ?, ?) ON CONFLICT (guild_id, day) DO UPDATE "
            "SET claimed_at = excluded.claimed_at, channel_id = excluded.channel_id "
            "WHERE daily_puzzles.sent_at IS NULL AND daily_puzzles.claimed_at < ?",
            (guild_id, day, channel_id, now, stale_before))
        return changed == 1

    async def daily_puzzle_sent(self, guild_id: int, day: str, puzzle_id: int | None,
                                now: str) -> None:
        await self._write(
            "UPDATE daily_puzzles SET puzzle_id = ?, sent_at = ? WHERE guild_id = ? "
            "AND day = ?", (puzzle_id, now, guild_id, day))

    async def daily_puzzle(self, guild_id: int, day: str) -> tuple[int | None, str | None] | None:
        row = await self._one(
            "SELECT puzzle_id, sent_at FROM daily_puzzles WHERE guild_id = ? AND day = ?",
            (guild_id, day))
        if not row:
            return None
        return (int(row[0]) if row[0] is not None else None, row[1])

    async def next_daily_puzzle(self, guild_id: int) -> PuzzleRow | None:
        row = await self._one(
            f"SELECT {_PUZZLE_COLUMNS} FROM puzzles p WHERE guild_id = ? AND NOT EXISTS "
            "(SELECT 1 FROM daily_puzzles d WHERE d.puzzle_id = p.id) ORDER BY id LIMIT 1",
            (guild_id,))
        return _puzzle(row) if row else None

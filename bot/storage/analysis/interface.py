"""Analyses, grading jobs and puzzles: the rows and the calls on them (migration 0005)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol


@dataclass(frozen=True, slots=True)
class AnalysisRow:
    """One game's analysis at one depth."""

    game_id: int
    depth: str
    """``"strong"`` (GNU 1-ply) or ``"expert"`` (GNU 2-ply)."""
    match_id: int
    engine: str
    data: dict[str, Any]
    """The analysis (``bot.ai.stored.to_stored``)."""
    created_at: str


@dataclass(frozen=True, slots=True)
class PlayerFigures:
    """One side's figures in one analysed game (a row of ``analysis_players``)."""

    side: int
    """0 white, 1 black."""
    user_id: int
    decisions: int
    lost: float
    checker_decisions: int
    checker_lost: float
    cube_decisions: int
    cube_lost: float
    rolls: int
    luck: float
    luck_value: float
    result: float


@dataclass(frozen=True, slots=True)
class MatchFigures:
    """One player's figures over the analysed games of one match (for /stats)."""

    match_id: int
    opponent: str
    length: int
    finished_at: str
    decisions: int
    lost: float
    luck: float
    rolls: int


class GradingStatus(StrEnum):
    QUEUED = "queued"
    RUNNING = "running"
    """Claimed by a worker until ``lease_until``."""
    DONE = "done"
    FAILED = "failed"
    """Given up after too many attempts (each said why)."""


@dataclass(frozen=True, slots=True)
class GradingJob:
    match_id: int
    guild_id: int
    channel_id: int
    status: GradingStatus
    attempts: int
    worker: str | None
    lease_until: str | None
    error: str | None
    posted: bool
    created_at: str
    finished_at: str | None


@dataclass(frozen=True, slots=True)
class PuzzleRow:
    id: int
    guild_id: int
    match_id: int
    game_id: int
    event_index: int
    user_id: int
    kind: str
    """``"play"``, ``"double"`` (double or not) or ``"take"`` (take or pass)."""
    equity_lost: float
    data: dict[str, Any]
    created_at: str


@dataclass(frozen=True, slots=True)
class PuzzleAnswerRow:
    puzzle_id: int
    user_id: int
    answer: str
    correct: bool
    lost: float
    score: int
    answered_at: str


class AnalysisTransaction(Protocol):
    """Analyses, grading jobs and puzzles inside one transaction."""

    # analyses -------------------------------------------------------------------
    async def save_analysis(self, *, game_id: int, match_id: int, guild_id: int, depth: str,
                            engine: str, data: dict[str, Any], played_at: str,
                            players: Sequence[PlayerFigures]) -> None:
        """Keep (or replace) the analysis of ``game_id`` at ``depth`` and its per-player
        figures."""
        ...

    async def analyses_of(self, game_ids: Sequence[int], depth: str) -> dict[int, AnalysisRow]:
        """The stored analyses of those games at ``depth``, by game id."""
        ...

    async def match_figures(self, guild_id: int, user_id: int, depth: str,
                            limit: int = 200) -> list[MatchFigures]:
        """The player's figures per analysed standard match of the server, newest first
        (a variant's PR, judged by our own network, is on another scale: left out)."""
        ...

    async def pr_leaderboard(self, guild_id: int, depth: str, min_decisions: int,
                             limit: int, offset: int) -> list[dict[str, Any]]:
        """Players with at least ``min_decisions`` analysed decisions of standard matches,
        best PR first (rank, user_id, name, decisions, lost, matches)."""
        ...

    async def pr_leaderboard_count(self, guild_id: int, depth: str, min_decisions: int) -> int:
        ...

    # the grading queue ----------------------------------------------------------
    async def enqueue_grading(self, match_id: int, guild_id: int, channel_id: int,
                              now: str) -> bool:
        """Queue the match for grading; False if it is queued (or graded) already."""
        ...

    async def grading_job(self, match_id: int) -> GradingJob | None: ...

    async def claimable_grading(self, now: str) -> GradingJob | None:
        """The oldest job waiting, or running on a lapsed lease (its worker died)."""
        ...

    async def claim_grading(self, match_id: int, worker: str, now: str,
                            lease_until: str) -> bool:
        """Take the job for ``worker`` until ``lease_until``: True for exactly one caller
        (a conditional UPDATE: it must still be waiting, or its lease lapsed)."""
        ...

    async def renew_grading(self, match_id: int, worker: str, lease_until: str) -> bool:
        """Extend ``worker``'s lease; False if the job is no longer his."""
        ...

    async def finish_grading(self, match_id: int, worker: str, now: str) -> bool:
        """Mark the job done if ``worker`` still holds it (else False: another worker took
        it over, and this one's results must not be kept)."""
        ...

    async def fail_grading(self, match_id: int, worker: str, error: str, now: str,
                           give_up: bool) -> None:
        """Give the job back (queued again) or, with ``give_up``, mark it failed."""
        ...

    async def unposted_gradings(self, limit: int = 10) -> list[GradingJob]:
        """Jobs done whose grades were not handed to be posted yet, oldest first."""
        ...

    async def claim_grading_post(self, match_id: int) -> bool:
        """Mark the grades as handed to be posted: True for exactly one caller."""
        ...

    # puzzles --------------------------------------------------------------------
    async def add_puzzle(self, *, guild_id: int, match_id: int, game_id: int,
                         event_index: int, user_id: int, kind: str, equity_lost: float,
                         data: dict[str, Any]) -> int | None:
        """A new puzzle's id (None when that decision is a puzzle already)."""
        ...

    async def get_puzzle(self, puzzle_id: int) -> PuzzleRow | None: ...

    async def next_puzzle(self, guild_id: int, user_id: int) -> PuzzleRow | None:
        """The server's oldest puzzle ``user_id`` has not answered."""
        ...

    async def puzzle_count(self, guild_id: int) -> int: ...

    async def answer_puzzle(self, *, puzzle_id: int, user_id: int, guild_id: int, answer: str,
                            correct: bool, lost: float, score: int, now: str) -> bool:
        """Record the first answer of ``user_id`` to the puzzle (False: he answered it
        before, and the first answer stands)."""
        ...

    async def puzzle_answer(self, puzzle_id: int, user_id: int) -> PuzzleAnswerRow | None: ...

    async def puzzle_leaderboard(self, guild_id: int, limit: int,
                                 offset: int) -> list[dict[str, Any]]:
        """Players by puzzle score (rank, user_id, name, score, answered, lost)."""
        ...

    async def puzzle_leaderboard_count(self, guild_id: int) -> int: ...

    async def puzzle_record(self, guild_id: int, user_id: int) -> tuple[int, int]:
        """(puzzles answered, score) of the player in the server."""
        ...

    # the daily puzzle -----------------------------------------------------------
    async def claim_daily_puzzle(self, guild_id: int, day: str, channel_id: int, now: str,
                                 stale_before: str) -> bool:
        """Take on posting ``day``'s puzzle in the server: True for exactly one caller, or
        again when an earlier claim older than ``stale_before`` never sent it."""
        ...

    async def daily_puzzle_sent(self, guild_id: int, day: str, puzzle_id: int | None,
                                now: str) -> None: ...

    async def daily_puzzle(self, guild_id: int, day: str) -> tuple[int | None, str | None] | None:
        """(puzzle id, sent at) of the server's daily post of ``day``, if claimed."""
        ...

    async def next_daily_puzzle(self, guild_id: int) -> PuzzleRow | None:
        """The server's oldest puzzle never posted as a daily puzzle."""
        ...

"""The server-level options of grading and puzzles, read through this ONE accessor.

Until the host has per-server settings they come from the configuration's ``[analysis]``
section (:class:`bot.config.AnalysisConfig`), the same for every server; the calls are
asynchronous so that they can read per-server settings from the database instead without
changing any caller.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.config import Config


@dataclass(frozen=True, slots=True)
class ServerAnalysisSettings:
    """What one server asks of grading and puzzles."""

    grade_matches: bool
    """Grade every finished standard match and money session in the background (never
    where the AI is off)."""
    anonymous_puzzles: bool
    puzzle_min_equity: float
    """EMG a decision must lose to become a puzzle."""
    daily_puzzle_channel: int | None
    """Where a puzzle is posted every day (None: no daily puzzle)."""


class AnalysisSettings:
    """The accessor: one per service."""

    def __init__(self, config: Config, *, ai: bool) -> None:
        self.config = config
        self.ai = ai
        """Whether the AI is on: without it nothing is graded."""

    async def for_guild(self, guild_id: int) -> ServerAnalysisSettings:
        c = self.config.analysis
        channel = c.daily_puzzle_channels.get(str(guild_id))
        return ServerAnalysisSettings(
            grade_matches=c.grade_matches and self.ai,
            anonymous_puzzles=c.anonymous_puzzles,
            puzzle_min_equity=c.puzzle_min_equity,
            daily_puzzle_channel=int(channel) if channel is not None else None)

    async def daily_puzzle_channels(self) -> dict[int, int]:
        """Server id -> channel id of every server that posts a daily puzzle."""
        return {int(g): int(c) for g, c in self.config.analysis.daily_puzzle_channels.items()}

    @property
    def daily_puzzle_hour(self) -> int:
        return self.config.analysis.daily_puzzle_hour

"""The server-level options of grading and puzzles, read through this ONE accessor.

They are server settings (:mod:`bot.service.settings`: ``grade_matches``,
``anonymous_puzzles``, ``puzzle_min_equity``, ``daily_puzzle_channel``,
``analysis_announcements``), each the server's own value (``/settings set``) else the
operator's default from the configuration's ``[analysis]`` section; a server that never
named a daily puzzle channel gets the one the operator gave it
(``analysis.daily_puzzle_channels``), if any.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.config import Config
from bot.service.settings.service import SettingsService
from bot.storage.interface import Transaction


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
    announcements: int | None = None
    """Where the grades of a match are posted (None: the match's own channel)."""


class AnalysisSettings:
    """The accessor: one per service."""

    def __init__(self, config: Config, settings: SettingsService, *, ai: bool) -> None:
        self.config = config
        self.settings = settings
        self.ai = ai
        """Whether the AI is on: without it nothing is graded."""

    def _operator_channel(self, guild_id: int) -> int | None:
        channel = self.config.analysis.daily_puzzle_channels.get(str(guild_id))
        return int(channel) if channel is not None else None

    async def for_guild(self, guild_id: int, tx: Transaction | None = None
                        ) -> ServerAnalysisSettings:
        """``guild_id``'s options; inside an action's transaction pass it as ``tx``."""
        server = await (self.settings.of(guild_id) if tx is None
                        else self.settings.within(tx, guild_id))
        channel = server.daily_puzzle_channel
        if "daily_puzzle_channel" not in server.chosen:
            channel = self._operator_channel(guild_id)
        return ServerAnalysisSettings(
            grade_matches=server.grade_matches and self.ai,
            anonymous_puzzles=server.anonymous_puzzles,
            puzzle_min_equity=server.puzzle_min_equity,
            daily_puzzle_channel=channel,
            announcements=server.analysis_announcements)

    async def daily_puzzle_channels(self) -> dict[int, int]:
        """Server id -> channel id of every server that posts a daily puzzle."""
        out = {int(g): int(c) for g, c in self.config.analysis.daily_puzzle_channels.items()}
        _, chosen = (await self.settings.per_guild("daily_puzzle_channel"))[
            "daily_puzzle_channel"]
        for guild, channel in chosen.items():
            if channel is None:
                out.pop(guild, None)  # the server said: no daily puzzle
            else:
                out[guild] = int(channel)
        return out

    @property
    def daily_puzzle_hour(self) -> int:
        return self.config.analysis.daily_puzzle_hour

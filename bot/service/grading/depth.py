"""At what depth a match is graded (issue 47, item 3).

Graded at the depth of the bot's own strong level, the strong bot would be graded by
the very search that chose its plays: PR 0.0 by construction (GNU Backgammon gives it
0.7-1.9).  So a match is graded one depth above the deepest level that played in it:
GNU 1-ply (the default, :data:`~bot.service.analysis.store.DEFAULT_DEPTH`) for players
and for the bot's 0-ply levels, GNU 2-ply when the strong level (GNU 1-ply) played; it
is background work.  Nothing deeper than GNU 2-ply is offered, so a match the expert
level played is graded at its own depth, and the grades say plainly that the bot is
graded by its own engine.

The analysis is kept under the grades' key (``DEFAULT_DEPTH``, which the form and the
PR leaderboard read) whatever its depth; each analysis names its depth in its source
("GNU 2-ply (bgsage)"), shown with the grades.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.ai.levels import ANALYSIS_DEPTHS, LEVELS, EvalDepth, Level
from bot.service.core.state import MatchState
from bot.storage.interface import MatchRow

ORDER = list(EvalDepth)


@dataclass(frozen=True, slots=True)
class GradingDepth:
    level: Level
    """The analysis level the match is graded at."""
    bot: Level | None = None
    """The bot's level in the match (None: players only)."""

    @property
    def own_engine(self) -> bool:
        """The bot is graded at (or below) the depth it played at."""
        return self.bot is not None and \
            ORDER.index(self.level.depth) <= ORDER.index(self.bot.depth)

    def note(self) -> str:
        """What the grades say about the depth, when there is something to say."""
        if self.bot is None:
            return ""
        if self.own_engine:
            return (f"The bot played at {self.bot.title} ({self.bot.depth.label}), the "
                    "deepest analysis here: its grade is its own engine's judgement of "
                    "its own plays (graded by its own engine), not an independent one.")
        return (f"The bot played at {self.bot.title} ({self.bot.depth.label}): the match "
                f"is graded deeper, at {self.level.depth.label}, so its grade is not its "
                "own engine's.")


def bot_level(row: MatchRow) -> Level | None:
    """The level the bot played at in the match of ``row`` (None: no bot)."""
    seat = MatchState.from_dict(row.state).ai
    if seat is None:
        return None
    return LEVELS.get(seat.level)


def grading_depth(row: MatchRow, floor: Level) -> GradingDepth:
    """The depth to grade the match of ``row`` at: ``floor`` (the default, GNU 1-ply) or
    the shallowest analysis depth above the bot's, or the deepest there is."""
    bot = bot_level(row)
    if bot is None or ORDER.index(floor.depth) > ORDER.index(bot.depth):
        return GradingDepth(floor, bot)
    deeper = sorted((lv for lv in ANALYSIS_DEPTHS.values()
                     if ORDER.index(lv.depth) > ORDER.index(bot.depth)),
                    key=lambda lv: ORDER.index(lv.depth))
    if deeper:
        return GradingDepth(deeper[0], bot)
    deepest = max(ANALYSIS_DEPTHS.values(), key=lambda lv: ORDER.index(lv.depth))
    return GradingDepth(deepest, bot)

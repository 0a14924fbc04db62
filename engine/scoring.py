"""Results and points: single, gammon, backgammon, and every scoring method.

Sources: 000 'SCORING' and 'SCORING BY COUNTERS OR MEN'; 002 'GAMMONS AND
BACKGAMMONS' and 'OPTIONAL RULES' (Jacoby); 003 ch.3 VII (end), ch.4 I and
ch.6; 004 'SCORING BY GAMES', 'SCORING BY LOSER'S STRANDED MEN',
'SCORING BY STRANDED MEN AND GAMES COMBINED'.
"""

from __future__ import annotations

from enum import Enum, IntEnum


class ResultKind(IntEnum):
    """How a game was won; the value is the games-scoring multiplier (backgammon 3)."""

    SINGLE = 1
    GAMMON = 2
    BACKGAMMON = 3

    @property
    def label(self) -> str:
        return self.name.lower()


class Zone(Enum):
    """Where a loser's checker stands, for the checker-scoring methods."""

    OFF = "off"
    LOSER_INNER = "loser's inner table"
    LOSER_OUTER = "loser's outer table"
    WINNER_OUTER = "winner's outer table"
    WINNER_INNER = "winner's inner table or the bar"

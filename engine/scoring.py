"""Results and points: single, gammon, backgammon, and every scoring method.

Sources: 000 'SCORING' and 'SCORING BY COUNTERS OR MEN'; 002 'GAMMONS AND
BACKGAMMONS' and 'OPTIONAL RULES' (Jacoby); 003 ch.3 VII (end), ch.4 I and
ch.6; 004 'SCORING BY GAMES', 'SCORING BY LOSER'S STRANDED MEN',
'SCORING BY STRANDED MEN AND GAMES COMBINED'.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum, IntEnum

from engine.player import Player
from engine.rules import ScoringMethod


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


class EndReason(Enum):
    """Why a game ended."""

    BORNE_OFF = "borne off"
    DROP = "double refused"
    RESIGNATION = "resignation"
    FORFEIT = "forfeit"


# Points a checker by zone for 003 ch.6 II Method 1 / 004 Option 2 / 000 counters,
# and Method 2 / Option 3.  The bar and checkers not yet entered count as the
# winner's inner table (000, 003 Method 1 and 004 Option 2 say so for the bar;
# Method 2 and Option 3 do not mention the bar, and are read the same way).
_WEIGHTS_1 = {Zone.OFF: 0, Zone.LOSER_INNER: 1, Zone.LOSER_OUTER: 2,
              Zone.WINNER_OUTER: 3, Zone.WINNER_INNER: 4}
_WEIGHTS_2 = {Zone.OFF: 0, Zone.LOSER_INNER: 1, Zone.LOSER_OUTER: 2,
              Zone.WINNER_OUTER: 4, Zone.WINNER_INNER: 8}
# 003 ch.6 III System 1: double / three times / four times for the furthest-back man.
_SYSTEM_1 = {Zone.OFF: 1, Zone.LOSER_INNER: 1, Zone.LOSER_OUTER: 2,
             Zone.WINNER_OUTER: 3, Zone.WINNER_INNER: 4}


_TRIPLING = (ScoringMethod.COMBINED_2, ScoringMethod.COMBINED_CHECKERS_1,
             ScoringMethod.COMBINED_CHECKERS_2)
"""The combined methods whose books say a backgammon triples, whatever the
agreed backgammon value of scoring by games."""


def kind_multiplier(kind: ResultKind, backgammon_value: int = 3) -> int:
    """1, 2, or the agreed backgammon value (3, or 4 by 000 'SCORING')."""
    if kind is ResultKind.BACKGAMMON:
        return backgammon_value
    return int(kind)


def checker_points(loser_side: Sequence[int], zone: Callable[[int], Zone],
                   weights: Mapping[Zone, int]) -> int:
    """Sum of ``weights[zone]`` over the loser's checkers not borne off."""
    return sum(loser_side[i] * weights[zone(i)] for i in range(1, len(loser_side))
               if loser_side[i])


def base_points(method: ScoringMethod, kind: ResultKind, loser_side: Sequence[int],
                zone: Callable[[int], Zone], backgammon_value: int = 3) -> int:
    """Points of a game before the cube (or the matches on the bar) multiplies them.

    ``kind`` is the result as it counts (after the Jacoby rule and the
    variant's gammon rule); ``loser_side`` the loser's 27 counts in his own
    numbering; ``zone`` maps his index to a :class:`Zone`.
    """
    mult = kind_multiplier(kind, backgammon_value)
    if method in _TRIPLING:
        # 003 ch.6 III System 2 and 004 'SCORING BY STRANDED MEN AND GAMES COMBINED':
        # "in the case of a backgammon, triple"; backgammon_value (000 'SCORING')
        # is the games multiplier and applies to games and System 1 only.
        mult = kind_multiplier(kind)
    if method is ScoringMethod.GAMES:
        return mult
    if method is ScoringMethod.CHECKERS_1:
        return checker_points(loser_side, zone, _WEIGHTS_1)
    if method is ScoringMethod.CHECKERS_2:
        return checker_points(loser_side, zone, _WEIGHTS_2)
    stranded = sum(loser_side[1:])
    if method is ScoringMethod.STRANDED:
        return stranded
    if method is ScoringMethod.COMBINED_1:
        factor = max((_SYSTEM_1[zone(i)] for i in range(1, len(loser_side)) if loser_side[i]),
                     default=1)
        return mult * factor
    if method is ScoringMethod.COMBINED_2:
        return mult * stranded
    if method is ScoringMethod.COMBINED_CHECKERS_1:
        return mult * checker_points(loser_side, zone, _WEIGHTS_1)
    if method is ScoringMethod.COMBINED_CHECKERS_2:
        return mult * checker_points(loser_side, zone, _WEIGHTS_2)
    raise AssertionError(method)


def game_points(method: ScoringMethod, kind: ResultKind, cube: int,
                loser_side: Sequence[int], zone: Callable[[int], Zone],
                backgammon_value: int = 3) -> int:
    """The final score of a game: :func:`base_points` times the cube value.

    The cube value already includes the automatic doubles (003 ch.6: "doubled
    as many times as there are matches on the bar").
    """
    return base_points(method, kind, loser_side, zone, backgammon_value) * cube


@dataclass(frozen=True, slots=True)
class Result:
    """How a game ended and what it is worth.

    ``kind`` is the result on the board (or the one resigned); ``counted``
    the kind that was scored (a single under the Jacoby rule when the cube
    was never turned, or in a variant that does not score gammons);
    ``cube`` the stake multiplier applied (for a refused double, the value
    before the double); ``points`` the final score, won by ``winner``.
    """

    winner: Player
    kind: ResultKind
    reason: EndReason
    cube: int
    points: int
    counted: ResultKind

    @property
    def loser(self) -> Player:
        return self.winner.other

    def to_dict(self) -> dict[str, object]:
        return {"winner": self.winner.label, "kind": self.kind.label,
                "reason": self.reason.value, "cube": self.cube, "points": self.points,
                "counted": self.counted.label}

    def describe(self) -> str:
        what = {ResultKind.SINGLE: "a single game", ResultKind.GAMMON: "a gammon",
                ResultKind.BACKGAMMON: "a backgammon"}[self.kind]
        how = {EndReason.BORNE_OFF: "", EndReason.DROP: " (double refused)",
               EndReason.RESIGNATION: " (resignation)", EndReason.FORFEIT: " (forfeit)"}
        point = "point" if self.points == 1 else "points"
        who = self.winner.label.capitalize()
        return f"{who} wins {what}{how[self.reason]}: {self.points} {point}."

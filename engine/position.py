"""Positions: where every checker of both players stands.

Point-numbering convention (the one convention used everywhere inside the
engine, as the rule books number the points):

* Each player counts points **from his own home board**: his 1-point is the
  point furthest along his route, his 24-point the first point of the route
  (the opponent's 1-point in standard backgammon).
* A side is a tuple of 27 counts, indexed by that player's own point numbers::

      index 0       checkers borne off            (notation: ``off``, ``0``)
      index 1..24   checkers on the player's points 1..24
      index 25      checkers on the bar           (notation: ``bar``, ``25``)
      index 26      checkers not yet entered (variants that start with an
                    empty board; always 0 in standard backgammon)

  A checker moves from a higher index to a lower one, so the distance a
  checker still has to travel (its pip count) is simply its index (a checker on
  the bar or waiting to enter needs 25 pips).
* How one player's point maps onto the other player's numbering is a property
  of the variant (opposite directions in standard backgammon: my point ``p`` is
  the opponent's point ``25 - p``; the same direction in Russian backgammon),
  so this module knows nothing about it.  Conversions between this convention
  and any external one (GNU Backgammon IDs, XGID, picture coordinates) live in
  the modules for those formats.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from engine.player import Player
from engine.words import counted

OFF = 0
BAR = 25
WAITING = 26
SLOTS = 27
CHECKERS = 15
HOME = range(1, 7)
POINTS = range(1, 25)

Side = tuple[int, ...]

_STANDARD_SIDE: Side = tuple(
    {6: 5, 8: 3, 13: 5, 24: 2}.get(i, 0) for i in range(SLOTS)
)
_EMPTY_SIDE: Side = tuple(CHECKERS if i == WAITING else 0 for i in range(SLOTS))


def make_side(points: Mapping[int, int] | None = None, *, bar: int = 0,
              waiting: int = 0, off: int | None = None) -> Side:
    """Build a side from ``{point: count}``; ``off`` defaults to the rest of 15."""
    counts = [0] * SLOTS
    for point, count in (points or {}).items():
        if point not in POINTS:
            raise ValueError(f"point {point} is not on the board (1-24)")
        counts[point] = count
    counts[BAR] = bar
    counts[WAITING] = waiting
    on_board = sum(counts)
    counts[OFF] = CHECKERS - on_board if off is None else off
    return tuple(counts)


@dataclass(frozen=True, slots=True)
class Position:
    """Both players' checkers, each side in its own point numbering.

    Positions are immutable, comparable and hashable.  They hold no
    information about whose turn it is; that belongs to the game state.
    """

    sides: tuple[Side, Side]

    def __post_init__(self) -> None:
        if len(self.sides) != 2:
            raise ValueError("a position has exactly two sides")
        for player, side in zip(Player, self.sides, strict=True):
            if len(side) != SLOTS:
                raise ValueError(f"{player.label}: a side has {SLOTS} slots, got {len(side)}")
            if any(c < 0 for c in side):
                raise ValueError(f"{player.label}: negative checker count")
            if sum(side) != CHECKERS:
                raise ValueError(
                    f"{player.label} has {counted(sum(side), 'checker')}; each player has "
                    f"{CHECKERS}"
                )

    @classmethod
    def unchecked(cls, white: Side, black: Side) -> Position:
        """Construct without validation (for the move generator's hot path)."""
        pos = object.__new__(cls)
        object.__setattr__(pos, "sides", (white, black))
        return pos

    @classmethod
    def from_sides(cls, white: Iterable[int], black: Iterable[int]) -> Position:
        return cls((tuple(white), tuple(black)))

    @classmethod
    def standard(cls) -> Position:
        """The starting position of standard backgammon (000, 002 'SET-UP')."""
        return cls.unchecked(_STANDARD_SIDE, _STANDARD_SIDE)

    @classmethod
    def empty(cls) -> Position:
        """All 30 checkers waiting to enter (Acey-Deucey, Russian, French)."""
        return cls.unchecked(_EMPTY_SIDE, _EMPTY_SIDE)

    def side(self, player: Player) -> Side:
        return self.sides[player]

    def count(self, player: Player, index: int) -> int:
        return self.sides[player][index]

    def off(self, player: Player) -> int:
        return self.sides[player][OFF]

    def bar(self, player: Player) -> int:
        return self.sides[player][BAR]

    def waiting(self, player: Player) -> int:
        return self.sides[player][WAITING]

    def pip_count(self, player: Player) -> int:
        side = self.sides[player]
        return sum(i * side[i] for i in range(1, BAR + 1)) + BAR * side[WAITING]

    def all_home(self, player: Player) -> bool:
        """True when every checker not yet borne off is in the home board."""
        side = self.sides[player]
        return not any(side[7:])

    def highest_point(self, player: Player) -> int:
        """The player's furthest-back occupied index (0 when all are off)."""
        side = self.sides[player]
        for i in range(SLOTS - 1, 0, -1):
            if side[i]:
                return i
        return 0

    def is_finished(self, player: Player) -> bool:
        return self.sides[player][OFF] == CHECKERS

    def swapped(self) -> Position:
        """The same checkers with the colours exchanged."""
        return Position.unchecked(self.sides[1], self.sides[0])

    def with_side(self, player: Player, side: Side) -> Position:
        sides = list(self.sides)
        sides[player] = tuple(side)
        return Position((sides[0], sides[1]))

    def __repr__(self) -> str:
        def fmt(side: Side) -> str:
            parts = [f"{i}:{side[i]}" for i in POINTS if side[i]]
            for name, idx in (("bar", BAR), ("wait", WAITING), ("off", OFF)):
                if side[idx]:
                    parts.append(f"{name}:{side[idx]}")
            return "{" + " ".join(parts) + "}"

        return f"Position(white={fmt(self.sides[0])}, black={fmt(self.sides[1])})"

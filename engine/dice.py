"""Dice: rolls are values given to the engine, never drawn by it.

The engine never calls a random generator.  Callers pass :class:`Dice` values;
:class:`DiceSource` is the protocol for anything that produces them (the game
service uses a provably fair CSPRNG source, tests use fixed sequences).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol

from engine.errors import NotationError

_DICE_RE = re.compile(r"^\s*([1-6])\s*[-/,: ]?\s*([1-6])\s*$")


@dataclass(frozen=True, slots=True, order=True)
class Dice:
    """Two dice as thrown (order kept: the opening roll shows whose die is whose)."""

    first: int
    second: int

    def __post_init__(self) -> None:
        for value in (self.first, self.second):
            if not 1 <= value <= 6:
                raise ValueError(f"a die shows 1 to 6, not {value}")

    @property
    def is_double(self) -> bool:
        return self.first == self.second

    @property
    def high(self) -> int:
        return max(self.first, self.second)

    @property
    def low(self) -> int:
        return min(self.first, self.second)

    def moves(self) -> tuple[int, ...]:
        """The die values to play: four of a double, otherwise the two dice."""
        if self.is_double:
            return (self.first,) * 4
        return (self.first, self.second)

    @classmethod
    def parse(cls, text: str) -> Dice:
        """Parse ``31``, ``3-1``, ``3 1``, ``3/1`` or ``3,1``."""
        match = _DICE_RE.match(text)
        if not match:
            raise NotationError(
                f"{text.strip()!r} is not a roll: write two dice from 1 to 6, like 31 or 3-1."
            )
        return cls(int(match.group(1)), int(match.group(2)))

    def __str__(self) -> str:
        return f"{self.first}-{self.second}"


ALL_ROLLS: tuple[Dice, ...] = tuple(Dice(a, b) for a in range(1, 7) for b in range(a, 7))
"""The 21 distinct rolls (high die second is irrelevant to legality)."""


class DiceSource(Protocol):
    """Produces single dice; a game asks for one die at a time."""

    def die(self) -> int:
        """Return a number from 1 to 6."""
        ...


class FixedDice:
    """A deterministic source for tests and replays: yields the given dice in order."""

    def __init__(self, values: list[int] | tuple[int, ...] | str) -> None:
        self._values = [int(v) for v in values if str(v).strip()]
        self._next = 0

    def die(self) -> int:
        if self._next >= len(self._values):
            raise IndexError("FixedDice ran out of dice")
        value = self._values[self._next]
        self._next += 1
        if not 1 <= value <= 6:
            raise ValueError(f"a die shows 1 to 6, not {value}")
        return value

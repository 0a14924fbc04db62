"""Moves and plays.

A :class:`Move` is one checker moving for one die, in the mover's own point
numbering (``src`` 25 is the bar, 26 a checker not yet entered, ``dst`` 0 is
off the board).  A :class:`Play` is everything one player does with one roll.
Two plays are the same play when they produce the same position, so plays
compare and hash by their resulting position.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.position import BAR, OFF, WAITING, Position


@dataclass(frozen=True, slots=True)
class Move:
    """One checker moved by one die: ``src`` -> ``dst``; ``hit`` if it hit a blot."""

    src: int
    dst: int
    hit: bool = False

    def __post_init__(self) -> None:
        if not (1 <= self.src <= WAITING and OFF <= self.dst < BAR and self.dst < self.src):
            raise ValueError(f"not a forward move: {self.src}/{self.dst}")

    @property
    def distance(self) -> int:
        return self.src - self.dst

    def __str__(self) -> str:
        src = "bar" if self.src >= BAR else str(self.src)
        dst = "off" if self.dst == OFF else str(self.dst)
        return f"{src}/{dst}{'*' if self.hit else ''}"


@dataclass(frozen=True, slots=True, eq=False)
class Play:
    """The moves of one turn and the position they produce.

    ``dice`` lists the die value used by each move (a bear-off with a larger
    die than the distance records the die).  An empty play means the roll
    could not be played at all.
    """

    moves: tuple[Move, ...]
    dice: tuple[int, ...]
    position: Position

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Play) and other.position == self.position

    def __hash__(self) -> int:
        return hash(self.position)

    def __len__(self) -> int:
        return len(self.moves)

    def __repr__(self) -> str:
        return f"Play({' '.join(str(m) for m in self.moves) or '(no move)'})"

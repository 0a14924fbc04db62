"""The two players.

The engine names the players by colour.  ``Player.WHITE`` is player 0 and
``Player.BLACK`` is player 1; which of them moves first in a game is decided by
the opening roll.  Inside the engine every point number is *relative to the
player it belongs to* (see :mod:`engine.position`).
"""

from __future__ import annotations

from enum import IntEnum


class Player(IntEnum):
    """One of the two sides of a backgammon game."""

    WHITE = 0
    BLACK = 1

    @property
    def other(self) -> Player:
        """The opponent."""
        return Player.BLACK if self is Player.WHITE else Player.WHITE

    @property
    def label(self) -> str:
        """Lower-case colour name for messages."""
        return self.name.lower()

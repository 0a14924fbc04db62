"""Where a game stands in its match or money session: what the AI needs besides the game.

The :class:`~engine.game.Game` itself carries the rule options (cube, Jacoby,
beavers), the ``money`` flag and the ``crawford`` flag; the match score is
the only thing it does not know.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.match import Match, Session
from engine.player import Player


@dataclass(frozen=True, slots=True)
class MatchContext:
    """The match length and score (``length == 0``: money play)."""

    length: int = 0
    score: tuple[int, int] = (0, 0)
    """Points of white and black so far."""
    decided: Player | None = None
    """The match ended with this game, won by this player whatever the score: a forfeit
    (an analysis grades the game with the match's real result, not the game's points)."""

    def __post_init__(self) -> None:
        if self.length < 0:
            raise ValueError("a match length is 0 (money) or more")

    @classmethod
    def money(cls) -> MatchContext:
        return cls()

    @classmethod
    def from_match(cls, match: Match) -> MatchContext:
        return cls(match.length, match.score)

    @classmethod
    def of(cls, session: Session) -> MatchContext:
        """The context of a match, or of a money session (money play)."""
        if isinstance(session, Match):
            return cls.from_match(session)
        return cls.money()

    @property
    def is_money(self) -> bool:
        return self.length == 0

    def away(self, player: Player) -> int:
        """Points ``player`` still needs (0 in money play; at least 1 in a match)."""
        if self.is_money:
            return 0
        return max(1, self.length - self.score[player])

"""FIBS ratings for two-player matches (1-point games count as 1-point matches).

With rating difference ``D`` and match length ``N``::

    P(underdog wins) = 1 / (10 ** (D * sqrt(N) / 2000) + 1)
    change           = 4 * K * sqrt(N) * P(the winner would have lost)
    K                = max(1, 5 - experience / 100)      (each player's own)
    experience      += N

Everyone starts at 1500 with experience 0.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

START_RATING = 1500.0
ESTABLISHED_EXPERIENCE = 400
"""Players with less experience are listed apart on the leaderboard (FIBS style)."""


@dataclass(frozen=True, slots=True)
class Rating:
    rating: float = START_RATING
    experience: int = 0

    @property
    def k(self) -> float:
        return max(1.0, 5.0 - self.experience / 100.0)


def upset_probability(diff: float, length: int) -> float:
    """Probability that the lower-rated player wins a match of ``length``."""
    exponent: float = abs(diff) * math.sqrt(length) / 2000.0
    return 1.0 / (math.pow(10.0, exponent) + 1.0)


def win_probability(player: float, opponent: float, length: int) -> float:
    """Probability that ``player`` beats ``opponent`` in a match of ``length``."""
    p_upset = upset_probability(player - opponent, length)
    return p_upset if player < opponent else 1.0 - p_upset


def update(winner: Rating, loser: Rating, length: int) -> tuple[Rating, Rating]:
    """New ratings after ``winner`` beat ``loser`` in a match to ``length`` points."""
    if length < 1:
        raise ValueError("a rated match has length 1 or more")
    p_lose = 1.0 - win_probability(winner.rating, loser.rating, length)
    root = math.sqrt(length)
    new_winner = Rating(winner.rating + 4.0 * winner.k * root * p_lose,
                        winner.experience + length)
    new_loser = Rating(loser.rating - 4.0 * loser.k * root * p_lose,
                       loser.experience + length)
    return new_winner, new_loser

"""The AI's playing levels.

Each level is a bgsage evaluation depth plus, for the weaker levels, Gaussian
noise added to every candidate's equity before choosing, so they make
human-sized mistakes and can be beaten.  bgsage counts plies from the raw
network: its ``"1ply"`` is GNU Backgammon's 0-ply and its ``"2ply"`` is GNU
Backgammon's 1-ply.

=============  ==========  =========  ============================================
level          bgsage      noise (σ)  meant for
=============  ==========  =========  ============================================
beginner       ``1ply``    0.12       new players: frequent clear errors
intermediate   ``1ply``    0.04       club players: occasional errors
strong         ``2ply``    0          **the default**; GNU 1-ply strength, fast
                                      (p95 well under 1 s a decision, see
                                      ``bench/bench_ai.py``)
expert         ``3ply``    0          GNU 2-ply strength; a few seconds on hard
                                      doubles, falls back to ``2ply`` on timeout
=============  ==========  =========  ============================================

Noise is in equity units (normalised to a 1-point cube), drawn from a
:class:`random.Random` the caller injects, so games are reproducible in tests.
The same σ perturbs the cube decisions (the equities of no double / double
take / double pass before choosing).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class EvalDepth(Enum):
    """bgsage ``eval_level`` names used here."""

    PLY1 = "1ply"
    PLY2 = "2ply"
    PLY3 = "3ply"

    @property
    def gnubg_name(self) -> str:
        """The same depth in GNU Backgammon's numbering (bgsage's 1ply is GNU's 0-ply)."""
        return f"{int(self.value[0]) - 1}-ply"


@dataclass(frozen=True, slots=True)
class Level:
    """A named AI level: evaluation depth and equity noise."""

    name: str
    title: str
    depth: EvalDepth
    noise: float
    description: str

    @property
    def noisy(self) -> bool:
        return self.noise > 0


BEGINNER = Level("beginner", "Beginner", EvalDepth.PLY1, 0.12,
                 "raw network with heavy noise: makes frequent, clear mistakes")
INTERMEDIATE = Level("intermediate", "Intermediate", EvalDepth.PLY1, 0.04,
                     "raw network with some noise: an occasional real mistake")
STRONG = Level("strong", "Strong", EvalDepth.PLY2, 0.0,
               "one-ply look-ahead, no noise (GNU Backgammon 1-ply strength)")
EXPERT = Level("expert", "Expert", EvalDepth.PLY3, 0.0,
               "two-ply look-ahead, no noise (GNU Backgammon 2-ply strength); slower")

LEVELS: dict[str, Level] = {lv.name: lv for lv in (BEGINNER, INTERMEDIATE, STRONG, EXPERT)}
"""Every level by name, weakest first."""

DEFAULT_LEVEL: Level = STRONG
"""The level used when a challenge names none."""

FALLBACK_LEVEL = Level("fallback", "Fallback", EvalDepth.PLY1, 0.0,
                       "raw network, no noise: used when a decision runs out of time")


def get_level(name: str | None) -> Level:
    """The level called ``name`` (case-insensitive); the default for ``None``/``""``.

    Raises :class:`ValueError` with the list of levels for an unknown name.
    """
    if not name:
        return DEFAULT_LEVEL
    key = name.strip().lower()
    try:
        return LEVELS[key]
    except KeyError:
        raise ValueError(
            f"Unknown AI level '{name}'. Levels: {', '.join(LEVELS)}."
        ) from None

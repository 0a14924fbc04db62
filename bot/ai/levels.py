"""The AI's playing levels.

Each level is a bgsage evaluation depth plus, for the weaker levels, Gaussian
noise added to every candidate's equity before choosing, so they make
human-sized mistakes and can be beaten.  bgsage counts plies from the raw
network: its ``"1ply"`` is GNU Backgammon's 0-ply and its ``"2ply"`` is GNU
Backgammon's 1-ply.  Every text shown to players names the depth on GNU
Backgammon's scale (:attr:`EvalDepth.label`), the one players know.

=============  ===========  =========  ===========================================
level          GNU depth    noise (σ)  meant for
=============  ===========  =========  ===========================================
beginner       0-ply        see below  new players: frequent clear errors
intermediate   0-ply        see below  club players: occasional errors
strong         1-ply        0          **the default**; fast (p95 well under 1 s
                                       a decision, see ``bench/bench_ai.py``)
expert         2-ply        0          every play ranked at 1-ply first (the
                                       strong answer, in hand), then the best
                                       few (at most 5, within 0.08) at 2-ply;
                                       if that deeper search runs past the
                                       level's ``budget`` the strong answer is
                                       played.  Cube decisions at 2-ply.
=============  ===========  =========  ===========================================

The noise of beginner and intermediate is calibrated so GNU Backgammon (World
class analysis: 2-ply, cubeful) rates them in the band of their names
(beginner 26-35 mEMG per decision, intermediate 12-18, strong <= 5, expert
<= 2); ``bench/bench_ai_strength.py`` measures it and :attr:`Level.measured`
carries the latest figure (shown in ``/challenge``'s level choices).

Noise is in equity units (normalised to a 1-point cube), drawn from a
:class:`random.Random` the caller injects, so games are reproducible in tests.
The same σ perturbs the cube decisions (the equities of no double / double
take / double pass before choosing) -- but only live ones: a level never
doubles when the double cannot change anything (:mod:`bot.ai.deadcube`).
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

    @property
    def label(self) -> str:
        """The depth as players read it: ``"GNU 1-ply"`` for bgsage's ``2ply``."""
        return f"GNU {self.gnubg_name}"

    @property
    def shallower(self) -> EvalDepth | None:
        """The depth one ply less (None for the raw network)."""
        order = list(EvalDepth)
        i = order.index(self)
        return order[i - 1] if i else None


@dataclass(frozen=True, slots=True)
class Level:
    """A named AI level: evaluation depth and equity noise."""

    name: str
    title: str
    depth: EvalDepth
    noise: float
    description: str
    measured: str = ""
    """What GNU Backgammon measured (``bench/bench_ai_strength.py``): error rate and
    rating, with the date and sample size; for the level choices and the README."""
    budget: float = 4.0
    """Seconds the search deeper than GNU 1-ply may take before the 1-ply answer,
    already in hand, is played (levels deeper than 1-ply only)."""

    @property
    def choice_text(self) -> str:
        """``"Strong - GNU 1-ply, no noise (measured: ...)"`` for a level menu."""
        text = f"{self.title} - {self.description}"
        return f"{text} (measured: {self.measured})" if self.measured else text

    @property
    def noisy(self) -> bool:
        return self.noise > 0


BEGINNER = Level("beginner", "Beginner", EvalDepth.PLY1, 0.085,
                 "GNU 0-ply with heavy noise: makes frequent, clear mistakes",
                 measured="28.5 mEMG per decision, GNU Backgammon's 'Beginner' "
                          "(1,113 decisions, 2026-11-24)")
INTERMEDIATE = Level("intermediate", "Intermediate", EvalDepth.PLY1, 0.045,
                     "GNU 0-ply with some noise: an occasional real mistake",
                     measured="13.5 mEMG per decision, GNU Backgammon's 'Intermediate' "
                              "(1,186 decisions, 2026-11-24)")
STRONG = Level("strong", "Strong", EvalDepth.PLY2, 0.0,
               "GNU 1-ply, no noise",
               measured="1.98 mEMG per decision, GNU Backgammon's 'Supernatural' "
                        "(1,074 decisions, 2026-11-24; 'World class' from 2.0)")
EXPERT = Level("expert", "Expert", EvalDepth.PLY3, 0.0,
               "GNU 2-ply, no noise; slower (plays the strong answer if out of time)",
               measured="1.2 mEMG per decision, GNU Backgammon's 'Supernatural' "
                        "(1,076 decisions, 2026-11-24)")

LEVELS: dict[str, Level] = {lv.name: lv for lv in (BEGINNER, INTERMEDIATE, STRONG, EXPERT)}
"""Every level by name, weakest first."""

DEFAULT_LEVEL: Level = STRONG
"""The level used when a challenge names none."""

FALLBACK_LEVEL = Level("fallback", "Fallback", EvalDepth.PLY1, 0.0,
                       "raw network, no noise: used when a decision runs out of time")


def fallback_level(level: Level) -> Level:
    """The level that answers when ``level``'s decision runs out of time.

    A level deeper than GNU 1-ply falls back to :data:`STRONG` (never below the
    default); the others to the raw network without noise (:data:`FALLBACK_LEVEL`).
    """
    if level.depth is EvalDepth.PLY3:
        return STRONG
    return FALLBACK_LEVEL


ANALYSIS_DEPTHS: dict[str, Level] = {"strong": STRONG, "expert": EXPERT}
"""The depths ``/analyze`` offers, by name (GNU 1-ply, the default, and GNU 2-ply)."""


def analysis_level(depth: str | None) -> Level:
    """The level ``/analyze depth:...`` asks for (``None``/``""``: strong, GNU 1-ply).

    Raises :class:`ValueError` naming the depths allowed.
    """
    if not depth:
        return STRONG
    key = depth.strip().lower()
    try:
        return ANALYSIS_DEPTHS[key]
    except KeyError:
        raise ValueError(
            f"Unknown analysis depth '{depth}'. Depths: strong (GNU 1-ply, the default), "
            "expert (GNU 2-ply, slower).") from None


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

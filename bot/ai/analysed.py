"""What an analysis finds (:func:`bot.ai.analysis.analyze`): plain immutable values.

No network here: the service reads stored analyses back (:mod:`bot.ai.stored`) without
loading bgsage.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.ai.grades import NO_DECISION, PR_FACTOR, grade
from engine.dice import Dice
from engine.game import Game
from engine.player import Player


@dataclass(frozen=True, slots=True)
class Candidate:
    """One choice of a decision and its equity, from the decider's side (EMG)."""

    text: str
    """A play in the variant's notation, or a cube action: "no double", "double",
    "take", "pass"."""
    equity: float


@dataclass(frozen=True, slots=True)
class Mistake:
    """One rated decision that lost equity."""

    player: Player
    event_index: int
    """Index in the record's events of the decision (replay up to it to redraw)."""
    before: Game
    """The game just before the decision (position, dice, cube: for the image)."""
    kind: str
    """"play", "double", "no double", "take", "drop"."""
    played: str
    best: str
    equity_lost: float
    dice: Dice | None
    candidates: tuple[Candidate, ...] = ()
    """The choices the analysis weighed, best first: for a play the best
    :data:`bot.ai.decisions.CANDIDATES` plays (and the one made); for a cube decision its
    two answers."""


@dataclass(frozen=True, slots=True)
class PlayerAnalysis:
    player: Player
    decisions: int
    total_lost: float
    """Sum of equity lost over the counted decisions (EMG)."""
    mistakes: tuple[Mistake, ...]
    """The largest mistakes, worst first."""
    checker_decisions: int = 0
    cube_decisions: int = 0
    checker_lost: float = 0.0
    cube_lost: float = 0.0
    rolls: int = 0
    """Rolls whose luck was rated (every roll the player threw, the opening one too)."""
    luck: float = 0.0
    """Sum of the luck of his rolls, EMG (+: lucky)."""
    luck_value: float = 0.0
    """The same in points (money: times the cube) or in match-winning chance (a match)."""

    @property
    def error_rate(self) -> float:
        """Average equity lost per decision."""
        return self.total_lost / self.decisions if self.decisions else 0.0

    @property
    def pr(self) -> float:
        """Performance rating: 500 x the average equity lost per decision."""
        return PR_FACTOR * self.error_rate

    @property
    def luck_rate(self) -> float:
        """Average luck per roll, EMG."""
        return self.luck / self.rolls if self.rolls else 0.0


@dataclass(frozen=True, slots=True)
class DecisionPoint:
    """Where the game stood after one rated decision (for the analysis graph)."""

    event_index: int
    player: Player
    """Who decided; ``equity`` and ``win`` are from his side."""
    kind: str
    equity: float
    """Equity of the action taken (normalised, as ``equity_lost``)."""
    win: float
    """Winning chances: after the play, or before the roll for a cube decision."""
    lost: float
    mwc: float | None = None
    """In a match: the decider's match-winning chances after the decision (from the
    chances of each result and the match equity table, at the cube it leaves: cubeless);
    None in money play."""


@dataclass(frozen=True, slots=True)
class GameAnalysis:
    supported: bool
    players: tuple[PlayerAnalysis, PlayerAnalysis]
    source: str = ""
    note: str = ""
    timeline: tuple[DecisionPoint, ...] = ()
    """Every rated decision in order of play."""
    errors: tuple[Mistake, ...] = ()
    """Every decision that lost at least the analysis' ``min_mistake``, in order of play,
    with its candidates (the puzzles are chosen from these)."""
    length: int = 0
    """The match length (0: money play): the unit of ``result`` and ``luck_value``."""
    result: tuple[float, float] = (0.0, 0.0)
    """What each player won by the game: points (money), or match-winning chance gained
    (a match; gnubg's "actual result")."""
    engine: str = ""
    """The engine and its version, e.g. ``"bgsage 2.0.20260907"``."""

    def of(self, player: Player) -> PlayerAnalysis:
        return self.players[player]

    def summary(self, names: Sequence[str] = ("White", "Black")) -> list[str]:
        """Plain-text lines: error rate, PR and its grade, luck; the largest mistakes."""
        if not self.supported:
            return [self.note]
        lines = []
        for pa in self.players:
            skill = (f"{pa.decisions} decisions, error rate {pa.error_rate * 1000:.1f} "
                     f"mEMG/decision, total {pa.total_lost:.3f}, PR {pa.pr:.1f} "
                     f"({grade(pa.pr)})" if pa.decisions else NO_DECISION)
            lines.append(
                f"{names[pa.player]}: {skill}; "
                f"luck {pa.luck:+.3f} EMG over {pa.rolls} rolls "
                f"({pa.luck_rate * 1000:+.1f} mEMG/roll)")
            for m in pa.mistakes:
                lines.append(f"  {m.kind} ({m.dice or 'before rolling'}): played {m.played},"
                             f" better {m.best} (-{m.equity_lost:.3f})")
        if self.source:
            lines.append(f"Depth: {self.source}.")
        return lines

"""A pairing: two players (or one and a bye) meeting in one round, and its result.

Sides are ``a`` and ``b`` with no colour: who starts is settled by the opening roll of the
match.  ``b`` is ``None`` for a bye; both are ``None`` for an empty place of an elimination
bracket (a bye met a bye).  Each pairing has a stable ``id``, ``"R<round>-<n>"``, numbered
within its round (winners' bracket first, then losers' bracket, then the final).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any


class Bracket(StrEnum):
    MAIN = "main"
    """Single elimination, round robin and Swiss."""
    WINNERS = "winners"
    LOSERS = "losers"
    FINAL = "final"
    """Double elimination's grand final."""
    RESET = "reset"
    """The second grand final, played when the losers' bracket winner takes the first."""


class Reason(StrEnum):
    PLAYED = "played"
    """The match was played to its end (resignations included)."""
    FORFEIT = "forfeit"
    """A player did not play: a claim at the deadline confirmed by the organiser, or an
    abandoned match."""
    ORGANISER = "organiser"
    """The organiser entered the result."""
    BYE = "bye"
    """Automatic: no opponent."""
    WITHDRAWAL = "withdrawal"
    """Automatic: the opponent was removed from the tournament."""

    @property
    def automatic(self) -> bool:
        return self in (Reason.BYE, Reason.WITHDRAWAL)


@dataclass(frozen=True, slots=True)
class Result:
    """``winner`` is ``None`` only for an empty bracket place.  ``points`` are the match
    points of side ``a`` and side ``b``; byes and withdrawals score ``(0, 0)``."""

    winner: str | None
    reason: Reason
    points: tuple[int, int] = (0, 0)


@dataclass(frozen=True, slots=True)
class Pairing:
    id: str
    round: int
    """The tournament's round (both brackets of a double elimination share the count)."""
    a: str | None
    b: str | None
    length: int
    bracket: Bracket = Bracket.MAIN
    stage: int = 1
    """The round within its bracket (the losers' bracket has its own count)."""
    slot: int = 0
    """The place within its bracket round, top to bottom from 0."""
    result: Result | None = None

    @property
    def decided(self) -> bool:
        return self.result is not None

    @property
    def winner(self) -> str | None:
        return None if self.result is None else self.result.winner

    @property
    def loser(self) -> str | None:
        """The player who lost (``None`` while pending, or after a bye)."""
        if self.result is None or self.result.winner is None:
            return None
        if self.a is None or self.b is None:
            return None
        return self.b if self.result.winner == self.a else self.a

    @property
    def is_bye(self) -> bool:
        return self.a is None or self.b is None

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(p for p in (self.a, self.b) if p is not None)

    def opponent(self, player: str) -> str | None:
        if player == self.a:
            return self.b
        if player == self.b:
            return self.a
        raise KeyError(player)

    def points_of(self, player: str) -> tuple[int, int]:
        """(points won, points lost) by ``player`` in this pairing."""
        if self.result is None:
            return (0, 0)
        pa, pb = self.result.points
        return (pa, pb) if player == self.a else (pb, pa)

    def decide(self, result: Result) -> Pairing:
        return replace(self, result=result)

    @property
    def label(self) -> str:
        if self.bracket is Bracket.WINNERS:
            return f"winners' round {self.stage}, match {self.slot + 1}"
        if self.bracket is Bracket.LOSERS:
            return f"losers' round {self.stage}, match {self.slot + 1}"
        if self.bracket is Bracket.FINAL:
            return "grand final"
        if self.bracket is Bracket.RESET:
            return "grand final, second match (bracket reset)"
        return f"round {self.round}, match {self.slot + 1}"

    def to_dict(self) -> dict[str, Any]:
        r = self.result
        return {"id": self.id, "round": self.round, "a": self.a, "b": self.b,
                "length": self.length, "bracket": self.bracket.value, "stage": self.stage,
                "slot": self.slot,
                "result": None if r is None else
                {"winner": r.winner, "reason": r.reason.value, "points": list(r.points)}}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Pairing:
        r = data["result"]
        result = None if r is None else Result(
            r["winner"], Reason(r["reason"]), (int(r["points"][0]), int(r["points"][1])))
        return cls(str(data["id"]), int(data["round"]), data["a"], data["b"],
                   int(data["length"]), Bracket(data["bracket"]), int(data["stage"]),
                   int(data["slot"]), result)

"""Tournament formats and their configuration: who meets whom is decided elsewhere,
this module holds the organiser's choices as one immutable value.

* **single elimination** — one loss and out; byes to the top seeds; ``ceil(log2 n)`` rounds.
* **double elimination** — a winners' bracket, a losers' bracket fed by its losers, and a
  grand final between the two bracket winners; if the losers' bracket winner takes the grand
  final, the winners' bracket winner has lost only once and a second final (the *bracket
  reset*) decides.
* **round robin** — everyone meets everyone once (circle method; a bye each round when the
  field is odd).
* **Swiss** — a fixed number of rounds (given, or ``ceil(log2 n)`` of the field at the start),
  players on equal scores paired, no rematches (see :mod:`engine.tournament.swiss`).

Match lengths may differ per round (:class:`MatchLengths`): e.g. 5-point matches and a
7-point final.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from engine.rules import whole_number
from engine.tournament.errors import TournamentConfigError
from engine.words import article

MAX_LENGTH = 25
"""Longest match length a tournament round may use."""


class Format(StrEnum):
    SINGLE_ELIMINATION = "single-elimination"
    DOUBLE_ELIMINATION = "double-elimination"
    ROUND_ROBIN = "round-robin"
    SWISS = "swiss"

    @classmethod
    def parse(cls, text: str) -> Format:
        key = text.strip().lower().replace("_", "-").replace(" ", "-")
        aliases = {"single": cls.SINGLE_ELIMINATION, "se": cls.SINGLE_ELIMINATION,
                   "knockout": cls.SINGLE_ELIMINATION, "double": cls.DOUBLE_ELIMINATION,
                   "de": cls.DOUBLE_ELIMINATION, "rr": cls.ROUND_ROBIN,
                   "round-robin": cls.ROUND_ROBIN, "roundrobin": cls.ROUND_ROBIN}
        for member in cls:
            if member.value == key:
                return member
        if key in aliases:
            return aliases[key]
        raise TournamentConfigError(
            f"unknown tournament format {text!r}; choose one of: "
            f"{', '.join(m.value for m in cls)}")

    @property
    def label(self) -> str:
        return self.value.replace("-", " ").capitalize()

    @property
    def elimination(self) -> bool:
        return self in (Format.SINGLE_ELIMINATION, Format.DOUBLE_ELIMINATION)


def _check_length(value: int, what: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_LENGTH:
        raise TournamentConfigError(
            f"{what} must be a whole number of points from 1 to {MAX_LENGTH}, not {value!r}")


@dataclass(frozen=True, slots=True)
class MatchLengths:
    """The match length of each round: ``default``, unless the round has its own
    (``rounds``: pairs ``(round, length)``) or is the final round (``final``)."""

    default: int = 5
    final: int | None = None
    rounds: tuple[tuple[int, int], ...] = ()

    def __post_init__(self) -> None:
        _check_length(self.default, "the match length")
        if self.final is not None:
            _check_length(self.final, "the final's match length")
        seen: set[int] = set()
        for rnd, length in self.rounds:
            if isinstance(rnd, bool) or not isinstance(rnd, int) or rnd < 1:
                raise TournamentConfigError(f"round numbers start at 1, not {rnd!r}")
            if rnd in seen:
                raise TournamentConfigError(f"round {rnd} is given two match lengths; give one")
            seen.add(rnd)
            _check_length(length, f"the match length of round {rnd}")

    def length_for(self, round: int, final: bool = False) -> int:
        """The length of ``round``'s matches; ``final`` says it is the final round.
        A length given for that round number wins over ``final``, which wins over the default."""
        for rnd, length in self.rounds:
            if rnd == round:
                return length
        if final and self.final is not None:
            return self.final
        return self.default

    @classmethod
    def parse(cls, text: str) -> MatchLengths:
        """Read ``"5"``, ``"5 final 7"``, ``"5, final=7"``, ``"5 r1=3 r2=3 final=9"``."""
        words = re.split(r"[\s,;=:]+", text.strip().lower())
        words = [w for w in words if w]
        default: int | None = None
        final: int | None = None
        rounds: list[tuple[int, int]] = []
        help_text = ("write a number of points, e.g. '5', optionally with 'final 7' and "
                     "lengths for single rounds like 'r1=3'")
        i = 0
        while i < len(words):
            word = words[i]
            value = whole_number(word)
            if value is not None:
                if default is not None:
                    raise TournamentConfigError(
                        f"{text!r} gives two default lengths; {help_text}")
                default = value
                i += 1
                continue
            number = whole_number(words[i + 1]) if i + 1 < len(words) else None
            if number is None:
                raise TournamentConfigError(f"cannot read {word!r} in {text!r}: {help_text}")
            if word == "final":
                final = number
            elif re.fullmatch(r"r[0-9]{1,18}", word):
                rounds.append((int(word[1:]), number))
            else:
                raise TournamentConfigError(f"cannot read {word!r} in {text!r}: {help_text}")
            i += 2
        if default is None and final is None and not rounds:
            raise TournamentConfigError(f"no match length in {text!r}: {help_text}")
        return cls(default if default is not None else 5, final, tuple(rounds))

    def describe(self) -> str:
        parts = [f"{self.default}-point matches"]
        parts += [f"round {r}: {n}" for r, n in self.rounds]
        if self.final is not None:
            parts.append(f"final {self.final}")
        return ", ".join(parts)

    def to_dict(self) -> dict[str, Any]:
        return {"default": self.default, "final": self.final,
                "rounds": [[r, n] for r, n in self.rounds]}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> MatchLengths:
        return cls(int(data["default"]), None if data["final"] is None else int(data["final"]),
                   tuple((int(r), int(n)) for r, n in data["rounds"]))


def swiss_rounds_for(players: int) -> int:
    """The default number of Swiss rounds: ``ceil(log2 n)``, at least one."""
    return max(1, math.ceil(math.log2(max(players, 1))))


def max_swiss_rounds(players: int) -> int:
    """The most rounds a field can play without a forced rematch or a second bye:
    the length of its round robin (``n - 1``, or ``n`` with byes when ``n`` is odd)."""
    return players if players % 2 else players - 1


@dataclass(frozen=True, slots=True)
class TournamentConfig:
    """The organiser's choices.  ``swiss_rounds`` ``None`` means ``ceil(log2 n)`` of the field
    at the start (the started state holds the resolved number)."""

    format: Format
    lengths: MatchLengths = field(default_factory=MatchLengths)
    swiss_rounds: int | None = None
    max_players: int | None = None
    name: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.format, Format):
            raise TournamentConfigError(f"unknown tournament format {self.format!r}")
        if self.swiss_rounds is not None:
            if self.format is not Format.SWISS:
                raise TournamentConfigError(
                    "a number of rounds is chosen only for a Swiss tournament; "
                    f"{article(self.format.label.lower())} tournament has as many rounds as its "
                    "field needs")
            if isinstance(self.swiss_rounds, bool) or not isinstance(self.swiss_rounds, int) \
                    or self.swiss_rounds < 1:
                raise TournamentConfigError(
                    f"a Swiss tournament needs at least 1 round, not {self.swiss_rounds!r}")
        if self.max_players is not None and (
                isinstance(self.max_players, bool) or not isinstance(self.max_players, int)
                or self.max_players < 2):
            raise TournamentConfigError(
                f"max_players must be at least 2 (a tournament needs two players), "
                f"not {self.max_players!r}")

    def to_dict(self) -> dict[str, Any]:
        return {"format": self.format.value, "lengths": self.lengths.to_dict(),
                "swiss_rounds": self.swiss_rounds, "max_players": self.max_players,
                "name": self.name}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TournamentConfig:
        return cls(Format(data["format"]), MatchLengths.from_dict(data["lengths"]),
                   data["swiss_rounds"], data["max_players"], str(data["name"]))

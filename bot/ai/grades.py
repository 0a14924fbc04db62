"""How backgammon players grade a match: PR, its skill grade, and luck.

* **PR** (Performance Rating, eXtreme Gammon's scale, the one USBGF's BMAB titles use) is
  500 x the equity lost per decision, in EMG (equity normalised to a 1-point cube).  The
  decisions are GNU Backgammon's (:mod:`bot.ai.decisions`): every unforced checker play
  (more than one legal play) and every close or actual cube decision (a double, a take, a
  pass, a no-double within 0.16 of doubling); checker and cube decisions are pooled, each
  counting once.  It is exactly GNU Backgammon's overall "Error rate" with ``set output
  errorratefactor 500``.  No x1.5 (or other) factor is applied for 1-point matches or
  any other length: a PR is comparable across lengths only as far as the decisions are.
* **Grade**: <= 2.5 Super Grand Master, <= 4 Grand Master, <= 6.5 Master, <= 10 Advanced,
  <= 16 Intermediate, above that Beginner.
* **Luck** as GNU Backgammon reports it: each roll's luck (the equity after the best play
  of the roll thrown minus the average over every roll, GNU 0-ply cubeful), summed per
  player (EMG), its rate per roll (mEMG), and in points (money, times the cube) or in
  match-winning chance (a match); the **luck-adjusted result** is the actual result minus
  the player's own luck plus his opponent's (GNU Backgammon's "luck adjusted result"),
  said in a match as the chance to win it that the play was worth (50% plus that figure,
  and nothing beyond 0...100%: there the luck outweighed the whole match).  A match won by
  forfeit is won whole (:attr:`bot.ai.context.MatchContext.decided`).
* **No decision** (every play forced): no PR and no grade, said as :data:`NO_DECISION`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from engine.player import Player

PR_FACTOR = 500.0
"""PR = 500 x EMG lost per decision."""

GRADES: tuple[tuple[float, str], ...] = (
    (2.5, "Super Grand Master"), (4.0, "Grand Master"), (6.5, "Master"),
    (10.0, "Advanced"), (16.0, "Intermediate"))
"""The PR bands: a PR at most the figure earns the name."""


NO_DECISION = "no decision: no PR, no grade"
"""What is said of a player who made no decision (every play forced, or none at all)."""


def grade(pr: float) -> str:
    """The skill grade of a PR: "Super Grand Master" (<= 2.5) ... "Beginner" (> 16)."""
    for limit, name in GRADES:
        if pr <= limit:
            return name
    return "Beginner"


def pr_of(lost: float, decisions: int) -> float:
    """500 x ``lost`` / ``decisions`` (0 without a decision)."""
    return PR_FACTOR * lost / decisions if decisions else 0.0


@dataclass(frozen=True, slots=True)
class PlayerGrade:
    """One player's figures over the analysed games of a match (or money session)."""

    player: Player
    decisions: int
    lost: float
    """EMG lost over the decisions."""
    checker_decisions: int
    checker_lost: float
    cube_decisions: int
    cube_lost: float
    rolls: int
    luck: float
    """EMG, summed over his rolls."""
    luck_value: float
    """Luck in points (money) or match-winning chance (a match)."""
    result: float
    """What he won: points (money) or match-winning chance gained (a match)."""
    luck_adjusted: float
    """``result`` minus his luck plus his opponent's (same unit)."""

    @property
    def pr(self) -> float:
        return pr_of(self.lost, self.decisions)

    @property
    def checker_pr(self) -> float:
        return pr_of(self.checker_lost, self.checker_decisions)

    @property
    def cube_pr(self) -> float:
        return pr_of(self.cube_lost, self.cube_decisions)

    @property
    def grade(self) -> str:
        return grade(self.pr)

    @property
    def luck_rate(self) -> float:
        """EMG per roll."""
        return self.luck / self.rolls if self.rolls else 0.0


@dataclass(frozen=True, slots=True)
class MatchGrades:
    """Both players' grades over the analysed games of one match (or money session)."""

    length: int
    """0: money play (results and luck values in points); else match-winning chance."""
    games: int
    players: tuple[PlayerGrade, PlayerGrade]

    def of(self, player: Player) -> PlayerGrade:
        return self.players[player]

    def value_text(self, value: float) -> str:
        """A result in its unit: "+1.250 points" or "+12.3% match-winning chance" (a
        match's results add up to at most the whole match, 100%)."""
        if self.length:
            return f"{value * 100:+.1f}% match-winning chance"
        return f"{value:+.3f} points"

    def lines(self, names: Sequence[str]) -> list[str]:
        """One line per player: decisions, error rate, PR and grade (none without a
        decision), luck, the result and the luck-adjusted result."""
        out = []
        for g in self.players:
            out.append(f"{names[g.player]} over the match: {self.skill_text(g)}; luck "
                       f"{g.luck:+.3f} EMG, {g.luck_rate * 1000:+.1f} mEMG per roll; "
                       f"result {self.value_text(g.result)}, "
                       f"{self.adjusted_text(g)}")
        return out

    @staticmethod
    def skill_text(g: PlayerGrade) -> str:
        """Decisions, error rate, PR and grade, checker and cube apart; "no decision"
        without one (a PR of 0 would be a grade nobody earned)."""
        if not g.decisions:
            return NO_DECISION
        rate = g.lost / g.decisions

        def part(name: str, pr: float, n: int) -> str:
            return f"{name} {pr:.1f} over {n}" if n else f"no {name} decision"

        return (f"{g.decisions} decisions, error rate {rate * 1000:.1f} mEMG/decision, "
                f"total {g.lost:.3f}; PR {g.pr:.1f} ({g.grade}; "
                f"{part('checker', g.checker_pr, g.checker_decisions)}, "
                f"{part('cube', g.cube_pr, g.cube_decisions)})")

    def adjusted_text(self, g: PlayerGrade) -> str:
        """The luck-adjusted result, as GNU Backgammon gives it: points in money play; in
        a match, the match-winning chance the player's play was worth once the luck of
        both sides is taken out (50% plus GNU Backgammon's "luck adjusted result"), which
        is a chance only from 0 to 100%: beyond, the dice decided more than the whole
        match could hold, and that is what is said."""
        if not self.length:
            return f"luck-adjusted {self.value_text(g.luck_adjusted)}"
        chance = 0.5 + g.luck_adjusted
        if 0.0 <= chance <= 1.0:
            return (f"luck-adjusted {chance * 100:.1f}% chance to win the match (50% is "
                    f"even; GNU Backgammon's luck-adjusted result "
                    f"{g.luck_adjusted * 100:+.1f}%)")
        return ("no luck-adjusted match-winning chance: the luck of the dice outweighed "
                "the whole match")


class _Side(Protocol):
    """One player's figures in one game (:class:`bot.ai.analysed.PlayerAnalysis`)."""

    @property
    def player(self) -> Player: ...
    @property
    def decisions(self) -> int: ...
    @property
    def total_lost(self) -> float: ...
    @property
    def checker_decisions(self) -> int: ...
    @property
    def checker_lost(self) -> float: ...
    @property
    def cube_decisions(self) -> int: ...
    @property
    def cube_lost(self) -> float: ...
    @property
    def rolls(self) -> int: ...
    @property
    def luck(self) -> float: ...
    @property
    def luck_value(self) -> float: ...


class _Game(Protocol):
    """One game's analysis (:class:`bot.ai.analysed.GameAnalysis`)."""

    @property
    def supported(self) -> bool: ...
    @property
    def players(self) -> Sequence[_Side]: ...
    @property
    def length(self) -> int: ...
    @property
    def result(self) -> tuple[float, float]: ...


def grade_match(analyses: Sequence[_Game | None]) -> MatchGrades | None:
    """The grades over ``analyses`` (the games of one match, in any order; those not
    analysed or of a variant are left out); None when none was analysed."""
    ran = [a for a in analyses if a is not None and a.supported]
    if not ran:
        return None
    sums: dict[Player, dict[str, float]] = {p: {} for p in Player}
    for a in ran:
        for pa in a.players:
            s = sums[pa.player]
            for key, value in (("decisions", pa.decisions), ("lost", pa.total_lost),
                               ("checker", pa.checker_decisions),
                               ("checker_lost", pa.checker_lost),
                               ("cube", pa.cube_decisions), ("cube_lost", pa.cube_lost),
                               ("rolls", pa.rolls), ("luck", pa.luck),
                               ("luck_value", pa.luck_value),
                               ("result", a.result[pa.player])):
                s[key] = s.get(key, 0.0) + value
    players = tuple(
        PlayerGrade(p, int(sums[p]["decisions"]), sums[p]["lost"], int(sums[p]["checker"]),
                    sums[p]["checker_lost"], int(sums[p]["cube"]), sums[p]["cube_lost"],
                    int(sums[p]["rolls"]), sums[p]["luck"], sums[p]["luck_value"],
                    sums[p]["result"],
                    sums[p]["result"] - sums[p]["luck_value"] + sums[p.other]["luck_value"])
        for p in Player)
    return MatchGrades(ran[0].length, len(ran), (players[0], players[1]))

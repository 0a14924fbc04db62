"""The bot's grades against GNU Backgammon's on the same games (issue 47, item 2): the
harness of ``tests/ai/test_ai_grades_gnubg.py`` and ``bench/bench_gnubg_agreement.py``.

Short matches and money sessions between AI players of mixed levels (seeded: the same
games every run) are graded as the bot grades them (:func:`bot.ai.analysis.analyze` at
the grading depth, GNU 1-ply) and exported as ``.sgf`` for Debian's gnubg, which
analyses them at the same depth (:mod:`gnubg_grades`).  Per player: both engines'
decision and roll counts, PR and luck; and, decision by decision, the checker play the
two engines rate most differently (a position where their networks honestly
disagree), with both evaluations."""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from pathlib import Path

from gnubg_grades import GnubgPlay, GnubgSide, gnubg_analysis

from bot.ai import race
from bot.ai.analysis import GameAnalysis, Mistake, analyze
from bot.ai.context import MatchContext
from bot.ai.convert import to_board
from bot.ai.grades import PlayerGrade, grade_match
from bot.ai.levels import STRONG
from bot.ai.selfplay import play_match
from engine.formats.sgf import export_sgf
from engine.gnubgid import encode_position_id
from engine.player import Player

SETS: tuple[tuple[int, int, tuple[str, str]], ...] = (
    (0, 21, ("intermediate", "strong")),
    (0, 25, ("beginner", "intermediate")),
    (3, 12, ("strong", "beginner")),
    (3, 13, ("intermediate", "intermediate")),
    (1, 7, ("beginner", "strong")),
)
"""(match length or 0 for money, seed, (white's level, black's level)): two money
sessions of two games, two 3-point matches and a 1-point match."""
NAMES = ("alice", "bob")


@dataclass(frozen=True)
class Disagreement:
    """One checker play both engines rated, where they differ most for a player."""

    position_id: str
    dice: tuple[int, int]
    contact: bool
    played: str
    ours_lost: float
    gnubg_lost: float
    ours: tuple[tuple[str, float], ...]
    gnubg: tuple[tuple[str, float], ...]

    def text(self) -> str:
        def listing(cands: tuple[tuple[str, float], ...]) -> str:
            return ", ".join(f"{p} {e:+.3f}" for p, e in cands[:3])

        where = "contact" if self.contact else "race"
        return (f"Position ID {self.position_id}, {self.dice[0]}-{self.dice[1]} ({where}), "
                f"played {self.played}: bot -{self.ours_lost:.3f} [{listing(self.ours)}]; "
                f"gnubg -{self.gnubg_lost:.3f} [{listing(self.gnubg)}]")


@dataclass(frozen=True)
class PlayerAgreement:
    what: str
    ours: PlayerGrade
    gnubg: GnubgSide
    worst: Disagreement | None

    @property
    def delta_pr(self) -> float:
        return self.ours.pr - self.gnubg.pr

    @property
    def pr_ok(self) -> bool:
        """PR within max(2.0, 15 % of gnubg's)."""
        return abs(self.delta_pr) <= max(2.0, 0.15 * self.gnubg.pr)


def _disagreements(analyses: list[GameAnalysis], plays: dict[tuple[str, tuple[int, int]],
                                                             GnubgPlay]
                   ) -> dict[Player, Disagreement | None]:
    worst: dict[Player, Disagreement | None] = {p: None for p in Player}
    for a in analyses:
        for m in a.errors:
            found = _matched(m, plays)
            if found is None:
                continue
            old = worst[m.player]
            if old is None or abs(found.ours_lost - found.gnubg_lost) > \
                    abs(old.ours_lost - old.gnubg_lost):
                worst[m.player] = found
    return worst


def _matched(m: Mistake, plays: dict[tuple[str, tuple[int, int]], GnubgPlay]
             ) -> Disagreement | None:
    if m.kind != "play" or m.dice is None:
        return None
    pid = encode_position_id(m.before.position, m.player)
    dice = (max(m.dice.first, m.dice.second), min(m.dice.first, m.dice.second))
    theirs = plays.get((pid, dice))
    if theirs is None:
        return None
    contact = not race.no_contact(to_board(m.before.position, m.player))
    return Disagreement(pid, dice, contact, m.played, m.equity_lost, theirs.lost,
                        tuple((c.text, c.equity) for c in m.candidates), theirs.candidates)


def agreement(gnubg: str, workdir: Path,
              sets: tuple[tuple[int, int, tuple[str, str]], ...] = SETS
              ) -> list[PlayerAgreement]:
    """Both engines' grades of every player of ``sets``."""
    rows = []
    for length, seed, levels in sets:
        games = play_match(length, seed, levels=levels)
        analyses = [analyze(g.record, MatchContext(length, g.score) if length
                            else MatchContext.money(), STRONG, min_mistake=0.0)
                    for g in games]
        ours = grade_match(analyses)
        assert ours is not None
        where = workdir / f"{length}-{seed}"
        where.mkdir()
        sgf = export_sgf(games, length=length, names=NAMES)
        theirs, plays = gnubg_analysis(gnubg, sgf, where, games=len(games),
                                       match=bool(length))
        worst = _disagreements(analyses, plays)
        what = f"{length}-point" if length else "money"
        for mine, side in zip(ours.players, theirs, strict=True):
            rows.append(PlayerAgreement(
                f"{what} seed {seed}, {NAMES[mine.player]} ({levels[mine.player]})", mine,
                side, worst[mine.player]))
    return rows


def summary(rows: list[PlayerAgreement]) -> tuple[float, float]:
    """(median, worst) |PR difference|."""
    deltas = [abs(r.delta_pr) for r in rows]
    return statistics.median(deltas), max(deltas)

"""A player's form (issue 33, item 4): his PR over time, best and worst match, and the
lines of the PR and puzzle leaderboards.

Figures come from the analyses kept at the default depth (GNU 1-ply: every graded match
is analysed there), standard backgammon only (a variant's analysis, by our own network,
is on another scale: storage leaves it out).  A match's PR is 500 x the equity its
player lost over his decisions in the match's analysed games; a period's PR pools its
matches' decisions (not an average of the matches' PRs).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.ai.grades import grade, pr_of
from bot.storage.interface import MatchFigures
from engine.words import counted

if TYPE_CHECKING:
    from render.card import CardForm

DEPTH = "strong"
"""The depth a player's form and the PR leaderboard read (GNU 1-ply)."""
MIN_PR_DECISIONS = 300
"""``/leaderboard pr`` lists the players with at least this many analysed decisions
(about five 5-point matches): fewer would rank luck of the sample more than skill."""
RECENT_MATCHES = 10
"""The PR "over the last N matches" of /stats."""
MONTHS = 6
"""Months shown by /stats, newest first."""
BEST_MIN_DECISIONS = 20
"""The best and worst matches are chosen among those with at least this many decisions
(when the player has two such matches, else among all, saying so): a 1-point match of
three decisions says little.  With a single match to choose from there is no best and
worst, only that match (never one match given as two findings)."""


@dataclass(frozen=True, slots=True)
class MatchPR:
    match_id: int
    opponent: str
    day: str
    decisions: int
    pr: float


@dataclass(frozen=True, slots=True)
class Form:
    matches: tuple[MatchPR, ...]
    """Every analysed match, newest first."""
    recent_pr: float | None
    """PR pooled over the last :data:`RECENT_MATCHES` matches."""
    recent_decisions: int
    months: tuple[tuple[str, float, int], ...]
    """(YYYY-MM, PR, matches), newest first."""
    best: MatchPR | None
    worst: MatchPR | None
    """Two different matches, or both None (see :data:`BEST_MIN_DECISIONS`)."""
    puzzles: tuple[int, int]
    """(answered, right)."""
    only: MatchPR | None = None
    """The one match there is to judge by, when there is no best and worst: the only
    match of at least :data:`BEST_MIN_DECISIONS` decisions, or the only analysed match."""
    short: bool = False
    """``best`` and ``worst`` are chosen among matches of fewer decisions than
    :data:`BEST_MIN_DECISIONS` (the player has none with that many)."""

    def card(self) -> CardForm | None:
        """What the player card draws of it (None without an analysed match)."""
        if self.recent_pr is None:
            return None
        from render.card import CardForm

        return CardForm(prs=tuple(m.pr for m in reversed(self.matches[:20])),
                        pr=self.recent_pr, grade=grade(self.recent_pr),
                        matches=min(len(self.matches), RECENT_MATCHES),
                        best=_short(self.best), worst=_short(self.worst))


def _short(m: MatchPR | None) -> str:
    return f"{m.pr:.1f} vs {m.opponent}" if m is not None else ""


def form_of(figures: Sequence[MatchFigures], puzzles: tuple[int, int]) -> Form:
    """The form from the player's figures per match (newest first)."""
    matches = tuple(MatchPR(f.match_id, f.opponent, f.finished_at[:10], f.decisions,
                            pr_of(f.lost, f.decisions))
                    for f in figures if f.decisions > 0)
    recent = [f for f in figures if f.decisions > 0][:RECENT_MATCHES]
    decisions = sum(f.decisions for f in recent)
    recent_pr = pr_of(sum(f.lost for f in recent), decisions) if decisions else None
    months: dict[str, list[MatchFigures]] = {}
    for f in figures:
        if f.decisions > 0:
            months.setdefault(f.finished_at[:7], []).append(f)
    by_month = tuple((month, pr_of(sum(f.lost for f in fs), sum(f.decisions for f in fs)),
                      len(fs)) for month, fs in sorted(months.items(), reverse=True)[:MONTHS])
    counted = [m for m in matches if m.decisions >= BEST_MIN_DECISIONS]
    judged = counted or list(matches)
    if len(judged) < 2:  # one match is not a best and a worst
        only = judged[0] if judged else None
        return Form(matches, recent_pr, decisions, by_month, None, None, puzzles, only=only,
                    short=not counted)
    best = min(judged, key=lambda m: (m.pr, -m.match_id))
    worst = max(judged, key=lambda m: (m.pr, m.match_id))
    return Form(matches, recent_pr, decisions, by_month, best, worst, puzzles,
                short=not counted)


def form_lines(form: Form, in_server: bool = True) -> list[str]:
    """The /stats lines of a player's form (``in_server`` False: asked outside servers,
    where no match is graded)."""
    lines = []
    if form.recent_pr is None and not in_server:
        lines.append("PR: none here: matches outside servers are not graded (on a server "
                     "every match is graded when it ends, where the AI is on).")
    elif form.recent_pr is None:
        lines.append("PR: no analysed standard match yet (every match is graded when it "
                     "ends, where the AI is on).")
    else:
        n = min(len(form.matches), RECENT_MATCHES)
        lines.append(f"PR over the last {counted(n, 'analysed match')}: "
                     f"{form.recent_pr:.2f} ({grade(form.recent_pr)}), "
                     f"{counted(form.recent_decisions, 'decision')} (GNU 1-ply; lower is "
                     "better)")
        lines.append("PR by month: " + ", ".join(
            f"{month} {pr:.2f} ({counted(count, 'match')})"
            for month, pr, count in form.months))
        lines.extend(best_and_worst(form))
    answered, right = form.puzzles
    if answered:
        lines.append(f"puzzles: {right} right of {answered} answered")
    return lines


def best_and_worst(form: Form) -> list[str]:
    """The best and worst match, saying how many decisions a match needs to count; one
    match only is shown as what it is."""
    need = BEST_MIN_DECISIONS

    def one(m: MatchPR) -> str:
        return (f"PR {m.pr:.2f} vs {m.opponent} ({m.day}, {m.decisions} "
                f"decision{'s' if m.decisions != 1 else ''})")

    if form.best is not None and form.worst is not None:
        among = (f"none of your matches has the {counted(need, 'decision')} a match needs "
                 "to count, so these say little" if form.short
                 else f"among your matches of at least {counted(need, 'decision')}")
        return [f"best match: {one(form.best)}; worst: {one(form.worst)} ({among})"]
    if form.only is None:
        return []
    if form.short:
        return [f"one analysed match: {one(form.only)}; a best and a worst match need two "
                f"matches of at least {counted(need, 'decision')} each"]
    others = " (your other matches have fewer)" if len(form.matches) > 1 else ""
    return [f"one match of at least {counted(need, 'decision')}: {one(form.only)}; a best "
            f"and a worst match need two{others}"]


def pr_board_line(r: dict[str, Any]) -> str:
    pr = pr_of(float(r["lost"]), int(r["decisions"]))
    return (f"{r['rank']:>3}. {r['name']:<20} PR {pr:6.2f} {grade(pr):<18} "
            f"{r['decisions']:>5} {counted(r['decisions'], 'decision', digits=False)}, "
            f"{counted(r['matches'], 'match')}")


def puzzle_board_line(r: dict[str, Any]) -> str:
    return (f"{r['rank']:>3}. {r['name']:<20} {r['score']:>4} right of {r['answered']:<4} "
            f"(equity given up {r['lost']:.3f})")

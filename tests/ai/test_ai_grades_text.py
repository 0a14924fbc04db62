"""bot.ai.grades: what the grades say (issue 47, items 6 and 8): no PR and no grade without
a decision; luck and the luck-adjusted result in a unit a player can read, never a
match-winning chance outside -100...+100% (GNU Backgammon's "luck adjusted result" is the
reference: the same figure, given beside the chance it makes)."""

from __future__ import annotations

import re

from bot.ai.analysis import GameAnalysis, PlayerAnalysis
from bot.ai.grades import grade_match
from engine.player import Player

NAMES = ("alice", "bob")


def _game(length: int, result: float, lucks: tuple[float, float],
          decisions: tuple[int, int] = (30, 30)) -> GameAnalysis:
    """One analysed game: alice won ``result`` (bob its opposite), each side's luck in
    match-winning chance (or points)."""
    players = tuple(PlayerAnalysis(p, decisions[p], 0.01 * decisions[p], (), decisions[p], 0,
                                   0.01 * decisions[p], 0.0, 40, lucks[p] * 10, lucks[p])
                    for p in Player)
    return GameAnalysis(True, (players[0], players[1]), length=length,
                        result=(result, -result))


def _chances(line: str) -> list[float]:
    return [float(v) for v in re.findall(r"([-+]?\d+(?:\.\d+)?)%", line)]


def test_a_luck_adjusted_result_beyond_the_match_is_not_given_as_a_chance() -> None:
    # A 15-point match alice lost (-50%) while her dice were worth +90% and bob's -60%:
    # "luck-adjusted -200.0% match-winning chance" before.
    games = [_game(15, -0.3, (0.5, -0.3)), _game(15, -0.2, (0.4, -0.3))]
    grades = grade_match(games)
    assert grades is not None
    alice, bob = grades.lines(NAMES)
    for line in (alice, bob):
        assert all(-100.0 <= v <= 100.0 for v in _chances(line)), line
        assert "outweighed the whole match" in line
    assert "result -50.0% match-winning chance" in alice


def test_a_luck_adjusted_result_is_the_chance_the_play_was_worth() -> None:
    grades = grade_match([_game(7, -0.5, (-0.3, 0.1))])
    assert grades is not None
    alice, bob = grades.lines(NAMES)
    # 50% - 50% + 30% + 10% = 40%: GNU Backgammon's luck adjusted result is -10%.
    assert ("luck-adjusted 40.0% chance to win the match (50% is even; GNU Backgammon's "
            "luck-adjusted result -10.0%)") in alice
    assert "luck-adjusted 60.0% chance to win the match" in bob
    assert all(-100.0 <= v <= 100.0 for line in (alice, bob) for v in _chances(line))


def test_money_stays_in_points() -> None:
    grades = grade_match([_game(0, 2.0, (1.5, -0.5))])
    assert grades is not None
    alice, _ = grades.lines(NAMES)
    assert "result +2.000 points, luck-adjusted +0.000 points" in alice


def test_no_decision_no_pr_no_grade() -> None:
    grades = grade_match([_game(3, 0.2, (0.1, -0.1), decisions=(0, 12))])
    assert grades is not None
    alice, bob = grades.lines(NAMES)
    assert alice.startswith("alice over the match: no decision: no PR, no grade; luck")
    assert "PR" not in alice.split("; luck")[0].replace("no PR", "")
    assert "bob over the match: 12 decisions" in bob and "PR 5.0" in bob
    assert "no cube decision" in bob  # checker only: no cube PR of 0.0 either

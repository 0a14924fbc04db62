"""PR and luck equal GNU Backgammon's on the same games, within the stated tolerance
(issue 33, item 1; README "Grades: PR and luck").

Short matches and money sessions between two noisy AI players (the same every run) are
exported as ``.sgf`` and analysed both by the bot (GNU 1-ply, bgsage) and by Debian's
gnubg at GNU 1-ply, cubeful, whose overall error rate is read as a PR (``set output
errorratefactor 500``).  The two engines' networks differ, so decision by decision the
equities differ a little; the tolerance says how much the grades may:

* the decisions counted are the same: unforced checker plays exactly, close or actual
  cube decisions within :data:`CUBE_COUNT` (a no-double near gnubg's 0.16 line may fall
  either side of it for one network and not the other), rolls exactly;
* PR within :data:`PR_TOLERANCE` per player (and on average over the set within
  :data:`MEAN_PR_TOLERANCE`);
* luck within :data:`LUCK_TOLERANCE` EMG per player;
* the luck-adjusted result within :data:`ADJUSTED_POINTS` points per game (money) or
  :data:`ADJUSTED_MWC` of match-winning chance (a match).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from gnubg_grades import gnubg_grades, selfplay
from gnubg_tool import GNUBG, needs_gnubg

from bot.ai.analysis import analyze
from bot.ai.context import MatchContext
from bot.ai.grades import grade_match
from bot.ai.levels import STRONG
from engine.formats.sgf import export_sgf

CUBE_COUNT = 2
PR_TOLERANCE = 3.0
MEAN_PR_TOLERANCE = 1.5
LUCK_TOLERANCE = 0.6
ADJUSTED_POINTS = 1.0
ADJUSTED_MWC = 0.15

SET = [(0, 21), (0, 25), (3, 12), (3, 13)]
"""(match length, seed): two money sessions of two games, two 3-point matches."""


@needs_gnubg
@pytest.mark.slow
def test_pr_and_luck_agree_with_gnu_backgammon(tmp_path: Path) -> None:
    assert GNUBG is not None
    differences = []
    for length, seed in SET:
        games = selfplay(length, seed)
        analyses = [analyze(g.record, MatchContext(length, g.score) if length
                            else MatchContext.money(), STRONG) for g in games]
        ours = grade_match(analyses)
        assert ours is not None
        sgf = export_sgf(games, length=length, names=("alice", "bob"))
        where = tmp_path / f"{length}-{seed}"
        where.mkdir()
        theirs = gnubg_grades(GNUBG, sgf, where, games=len(games), match=bool(length))
        for mine, gnubg in zip(ours.players, theirs, strict=True):
            what = f"{length}-point/{seed}, {mine.player.name}"
            assert mine.checker_decisions == gnubg.unforced, what
            assert abs(mine.cube_decisions - gnubg.close_cube) <= CUBE_COUNT, what
            assert mine.rolls == gnubg.total_moves, what
            assert abs(mine.pr - gnubg.pr) <= PR_TOLERANCE, (what, mine.pr, gnubg.pr)
            assert abs(mine.luck - gnubg.luck) <= LUCK_TOLERANCE, (what, mine.luck,
                                                                    gnubg.luck)
            limit = ADJUSTED_MWC if length else ADJUSTED_POINTS * len(games)
            assert abs(mine.luck_adjusted - gnubg.luck_adjusted) <= limit, (
                what, mine.luck_adjusted, gnubg.luck_adjusted)
            differences.append(mine.pr - gnubg.pr)
    assert abs(sum(differences) / len(differences)) <= MEAN_PR_TOLERANCE, differences

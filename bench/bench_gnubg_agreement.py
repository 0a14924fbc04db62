"""The bot's PR against GNU Backgammon's on the same games (issue 47, item 2).

Short matches and money sessions between AI players of mixed levels (fixed seeds: the
same games every run, ``tests/support/gnubg_agreement.py``) are graded by the bot at its
grading depth (GNU 1-ply, bgsage) and, from their ``.sgf`` export, by Debian's gnubg at
GNU 1-ply cubeful in this same run; printed per player and as the **median and worst
|PR difference|** (the README's figure), with the checker play the two engines rate most
differently for each player.

Usage::

    .venv/bin/python bench/run.py gnubg_agreement            # the five sets
    .venv/bin/python bench/run.py gnubg_agreement --quick    # the first two
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
for _path in (HERE.parent, HERE.parent / "tests" / "support"):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

from gnubg_agreement import SETS, agreement, summary  # noqa: E402
from gnubg_tool import GNUBG  # noqa: E402


def run(quick: bool) -> list[str]:
    """bench/run.py entry."""
    if GNUBG is None:
        return ["skipped: GNU Backgammon is not installed (Debian: apt-get install gnubg)"]
    sets = SETS[:2] if quick else SETS
    with tempfile.TemporaryDirectory() as work:
        rows = agreement(GNUBG, Path(work), sets)
    lines = []
    for r in rows:
        lines.append(f"{r.what}: {r.ours.decisions} decisions (gnubg "
                     f"{r.gnubg.unforced + r.gnubg.close_cube}), PR {r.ours.pr:.2f} / gnubg "
                     f"{r.gnubg.pr:.2f} ({r.delta_pr:+.2f}{'' if r.pr_ok else ', beyond'}), "
                     f"luck {r.ours.luck:+.3f} / {r.gnubg.luck:+.3f} EMG")
        if r.worst is not None:
            lines.append(f"    largest disagreement: {r.worst.text()}")
    median, worst = summary(rows)
    within = sum(r.pr_ok for r in rows)
    lines.append(f"{len(rows)} players, {sum(r.ours.decisions for r in rows)} decisions: "
                 f"median |PR difference| {median:.2f}, worst {worst:.2f}; within "
                 f"max(2.0, 15%): {within} of {len(rows)}")
    return lines


if __name__ == "__main__":
    print("\n".join(run("--quick" in sys.argv)))

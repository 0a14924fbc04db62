"""GNU Backgammon's own grades of a match, for the cross-check of PR and luck (issue 33).

:func:`selfplay` plays a short match or money session between two noisy AI players (the
bot's intermediate level, seeded: the same games every run); :func:`gnubg_grades` has
Debian's gnubg analyse its ``.sgf`` export at GNU 1-ply (the bot's default depth),
cubeful, with ``set output errorratefactor 500`` so that its overall error rate *is* a
PR, and reads its statistics back."""

from __future__ import annotations

import os
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

from bot.ai.selfplay import play_match
from engine.formats.matfile import MatGame

SETTINGS = """\
set output errorratefactor 500
set beavers 0
set analysis chequerplay evaluation plies 1
set analysis chequerplay evaluation cubeful on
set analysis chequerplay evaluation prune on
set analysis chequerplay evaluation noise 0
set analysis cubedecision evaluation plies 1
set analysis cubedecision evaluation cubeful on
set analysis cubedecision evaluation prune on
set analysis cubedecision evaluation noise 0
"""
"""GNU 1-ply, cubeful, every part set explicitly; PR as the error rate."""


def selfplay(length: int, seed: int, games: int = 2) -> list[MatGame]:
    """:func:`bot.ai.selfplay.play_match` at the intermediate level."""
    return play_match(length, seed, games=games)


@dataclass(frozen=True)
class GnubgSide:
    """One player's figures as gnubg reports them."""

    unforced: int
    close_cube: int
    total_moves: int
    pr: float
    luck: float
    """EMG."""
    luck_adjusted: float
    """Points (money) or match-winning chance (a match, 0.5 = 50%)."""


_NUM = r"[-+]?\d+\.\d+"


def _values(text: str, label: str, pattern: str = _NUM) -> list[str]:
    line = next(ln for ln in text.splitlines() if ln.startswith(label))
    return re.findall(pattern, line[len(label):])


def gnubg_grades(gnubg: str, sgf: str, workdir: Path, *, games: int,
                 match: bool) -> tuple[GnubgSide, GnubgSide]:
    """gnubg's grades of the match in ``sgf`` (both players)."""
    path = workdir / "match.sgf"
    path.write_text(sgf, encoding="utf-8")
    commands = f"{SETTINGS}load match {path}\nanalyse match\nshow statistics match\n"
    done = subprocess.run([gnubg, "-t", "-q"], input=commands, capture_output=True,
                          text=True, timeout=600, cwd=workdir,
                          env={**os.environ, "HOME": str(workdir)}, check=False)
    out = done.stdout
    start = out.index("Chequerplay statistics")
    text = out[start:]
    overall = text[text.index("Overall statistics"):]
    unforced = [int(v) for v in _values(text, "Unforced moves", r"\d+")]
    close = [int(v) for v in _values(text, "Close or actual cube decisions", r"\d+")]
    total = [int(v) for v in _values(text, "Total moves", r"\d+")]
    pr = [abs(float(v)) for v in _values(overall, "Error rate")[0::2]]
    luck = [float(v) for v in _values(text, "Luck total")[0::2]]
    try:  # (gnubg prints the luck-adjusted result only when a side is ahead)
        raw = [float(v) for v in _values(overall, "Luck adjusted result")]
        adjusted = [v / 100 for v in raw] if match else raw
    except StopIteration:
        ppg = [float(v) for v in _values(overall, "Advantage (luck adjusted) in ppg")]
        adjusted = [v * games for v in ppg[:2]]
    return (GnubgSide(unforced[0], close[0], total[0], pr[0], luck[0], adjusted[0]),
            GnubgSide(unforced[1], close[1], total[1], pr[1], luck[1], adjusted[1]))

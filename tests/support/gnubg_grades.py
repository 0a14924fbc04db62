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
                 match: bool, then: str = "") -> tuple[GnubgSide, GnubgSide]:
    """gnubg's grades of the match in ``sgf`` (both players); ``then``: more commands
    after the analysis."""
    path = workdir / "match.sgf"
    path.write_text(sgf, encoding="utf-8")
    commands = (f"{SETTINGS}load match {path}\nanalyse match\nshow statistics match\n"
                f"{then}")
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


# -- the agreement harness (issue 47, item 2) ------------------------------------------


@dataclass(frozen=True)
class GnubgPlay:
    """One checker play as gnubg's analysis rates it (its text export)."""

    position_id: str
    dice: tuple[int, int]
    """(high, low)."""
    played: str
    lost: float
    """EMG (gnubg's difference to its best play, 0 for the best)."""
    candidates: tuple[tuple[str, float], ...]
    """gnubg's plays and equities, best first (the five it lists)."""


_MOVE = re.compile(r"^Move number \d+:\s+\S+ to play (\d)(\d)")
_CANDIDATE = re.compile(r"^(\*?)\s+\d+\.\s+Cube\w+\s+\S+\s+(.*?)\s+Eq\.:\s+([-+]\d+\.\d+)"
                        r"(?: \(([-+]\d+\.\d+)\))?")


def gnubg_plays(text: str) -> dict[tuple[str, tuple[int, int]], GnubgPlay]:
    """The checker plays of gnubg's text export of an analysed match, by (Position ID,
    dice)."""
    out: dict[tuple[str, tuple[int, int]], GnubgPlay] = {}
    for block in text.split("\nMove number ")[1:]:
        block = "Move number " + block
        head = _MOVE.match(block)
        pid = re.search(r"Position ID: (\S+)", block)
        if head is None or pid is None:
            continue
        a, b = int(head.group(1)), int(head.group(2))
        cands, played, lost = [], "", 0.0
        for line in block.splitlines():
            m = _CANDIDATE.match(line)
            if m is None:
                continue
            cands.append((m.group(2), float(m.group(3))))
            if m.group(1):
                played, lost = m.group(2), abs(float(m.group(4) or 0.0))
        if cands and played:
            out.setdefault((pid.group(1), (max(a, b), min(a, b))),
                           GnubgPlay(pid.group(1), (max(a, b), min(a, b)), played, lost,
                                     tuple(cands)))
    return out


def gnubg_analysis(gnubg: str, sgf: str, workdir: Path, *, games: int, match: bool
                   ) -> tuple[tuple[GnubgSide, GnubgSide], dict[tuple[str, tuple[int, int]],
                                                                GnubgPlay]]:
    """:func:`gnubg_grades` and gnubg's rating of every checker play, from one analysis."""
    export = workdir / "match.txt"
    sides = gnubg_grades(gnubg, sgf, workdir, games=games, match=match,
                         then=f"export match text {export}\n")
    return sides, gnubg_plays(export.read_text(encoding="utf-8", errors="replace"))

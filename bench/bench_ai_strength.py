"""The AI's strength by level, measured by GNU Backgammon (World class analysis).

For each level, N self-play games (the level against itself, money play by
default, or matches with ``--length``) are played with **every decision through
the bot's own** :class:`bot.ai.runner.AIRunner` (process pool, the production
time limit and fallbacks), timed around each ``runner.decide``.  The games are
exported as GNU Backgammon ``.sgf`` (:func:`engine.formats.sgf.export_sgf`, which
carries the rules: Jacoby, beavers, Crawford, cube), and Debian's ``gnubg``
(a test-only tool, as for the ``.mat`` import test) analyses them at an
explicit setting -- World class: chequer play and cube decisions at 2-ply,
cubeful, with pruning -- and prints its statistics, which are parsed here.

Per level it prints: decisions (gnubg's unforced moves plus close or actual
cube decisions, both sides), the checker / cube / overall error rate in mEMG
per decision (gnubg's totals over both sides divided by their decisions),
the rating those rates get on gnubg's scale (its thresholds: Supernatural
< 2, World class < 5, Expert < 8, Advanced < 12, Intermediate < 18, Casual
player < 26, Beginner < 35, Awful! above), gnubg's own ratings of the two
sides, the AI's decision time p50/p95/max and the fallback rate (decisions
whose answer came from a shallower search than the level's: the runner's
time-out fallback, or expert's 2-ply search out of its budget).

Usage::

    python bench/bench_ai_strength.py --games 8 [--levels beginner,intermediate]
                                      [--length 0] [--seed 1] [--keep DIR]
    python bench/run.py ai_strength [--quick]     # quick: 2 games per level

Needs ``gnubg`` (Debian: ``apt-get install gnubg``; looked up on $PATH and in
/usr/games); without it the games are played and timed, and the analysis is
skipped with a line saying so.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE.parent) not in sys.path:
    sys.path.insert(0, str(HERE.parent))

from bot.ai.context import MatchContext  # noqa: E402
from bot.ai.levels import LEVELS, Level  # noqa: E402
from bot.ai.player import apply_decision  # noqa: E402
from bot.ai.runner import AIRunner  # noqa: E402
from bot.ai.selfplay import opening  # noqa: E402
from engine.dice import Dice  # noqa: E402
from engine.formats.matfile import MatGame  # noqa: E402
from engine.formats.sgf import export_sgf  # noqa: E402
from engine.match import Match, MoneySession  # noqa: E402
from engine.rules import RuleOptions  # noqa: E402

QUICK_GAMES = 2
DEFAULT_GAMES = 8

GNUBG_SETTINGS = """\
set analysis chequerplay evaluation plies 2
set analysis chequerplay evaluation cubeful on
set analysis chequerplay evaluation prune on
set analysis chequerplay evaluation noise 0
set analysis cubedecision evaluation plies 2
set analysis cubedecision evaluation cubeful on
set analysis cubedecision evaluation prune on
set analysis cubedecision evaluation noise 0
"""
"""World class (GNU Backgammon's predefined 2-ply setting), every part set explicitly."""

RATINGS = ((0.002, "Supernatural"), (0.005, "World class"), (0.008, "Expert"),
           (0.012, "Advanced"), (0.018, "Intermediate"), (0.026, "Casual player"),
           (0.035, "Beginner"))
"""GNU Backgammon's rating thresholds (analysis.c ``GetRating``), EMG per decision."""

def rating(rate: float) -> str:
    for limit, name in RATINGS:
        if rate < limit:
            return name
    return "Awful!"

@dataclass
class Played:
    level: Level
    length: int
    games: list[MatGame] = field(default_factory=list)
    times: list[float] = field(default_factory=list)
    fallbacks: int = 0
    decisions: int = 0

def is_fallback(source: str, level: Level) -> bool:
    """The answer came from a shallower search than the level's own."""
    return source.startswith("fallback") or "out of time" in source \
        or (source.startswith("GNU") and not source.startswith(level.depth.label))

async def play_level(level: Level, games: int, length: int, seed: int,
                     time_limit: float) -> Played:
    out = Played(level, length)
    rng = random.Random(seed)
    runner = AIRunner(processes=True, workers=1, time_limit=time_limit)
    await runner.start()
    rules = RuleOptions()
    try:
        match: Match | None = None
        session = MoneySession.new(rules)
        while len(out.games) < games:
            if length:
                if match is None or match.is_over:
                    match = Match.new(length, rules)
                g = match.new_game()
                ctx = MatchContext(length, match.score)
                score = match.score
            else:
                g = session.new_game()
                ctx = MatchContext.money()
                score = session.points
            while not g.is_finished:
                g = opening(g, rng)
                if g.is_finished:
                    break
                started = time.perf_counter()
                d = await runner.decide(g, ctx, level, rng)
                out.times.append(time.perf_counter() - started)
                out.decisions += 1
                out.fallbacks += is_fallback(d.source, level)
                g = apply_decision(g, d, Dice(rng.randint(1, 6), rng.randint(1, 6)))
            out.games.append(MatGame(g.to_record(), score))
            if length:
                assert match is not None
                match = match.add_game(g)
            else:
                session = session.add_game(g)
    finally:
        runner.close()
    return out

def gnubg_path() -> str | None:
    found = shutil.which("gnubg")
    if found:
        return found
    debian = "/usr/games/gnubg"
    return debian if os.access(debian, os.X_OK) else None

@dataclass(frozen=True)
class GnubgStats:
    """Both sides' figures from ``show statistics match`` (totals are positive EMG)."""

    unforced: tuple[int, int]
    close_cube: tuple[int, int]
    checker_total: tuple[float, float]
    cube_total: tuple[float, float]
    ratings: tuple[str, str]

    @property
    def checker_decisions(self) -> int:
        return sum(self.unforced)

    @property
    def cube_decisions(self) -> int:
        return sum(self.close_cube)

    @property
    def decisions(self) -> int:
        return self.checker_decisions + self.cube_decisions

    def rates(self) -> tuple[float, float, float]:
        """Checker, cube and overall error rate, EMG per decision, both sides."""
        ch, cu = sum(self.checker_total), sum(self.cube_total)
        return (ch / max(1, self.checker_decisions), cu / max(1, self.cube_decisions),
                (ch + cu) / max(1, self.decisions))

def _section(text: str, title: str) -> str:
    start = text.index(title)
    nxt = [text.find(t, start + len(title)) for t in
           ("Luck statistics", "Cube statistics", "Overall statistics")]
    ends = [n for n in nxt if n > start]
    return text[start:min(ends)] if ends else text[start:]

def _two(section: str, label: str, pattern: str) -> tuple[str, str]:
    line = next(ln for ln in section.splitlines() if ln.startswith(label))
    found = re.findall(pattern, line[len(label):])
    if len(found) < 2:
        raise ValueError(f"cannot read {label!r} from gnubg's line {line!r}")
    return found[0], found[1]

def parse_statistics(text: str) -> GnubgStats:
    """Parse gnubg's ``show statistics match`` text (1.07, English)."""
    chq = _section(text, "Chequerplay statistics")
    cube = _section(text, "Cube statistics")
    overall = _section(text, "Overall statistics")
    num = r"[-+]?\d+\.\d+"
    unforced = _two(chq, "Unforced moves", r"\d+")
    close = _two(cube, "Close or actual cube decisions", r"\d+")
    # "Error total EMG (Points)   -0.753 ( -1.180)   -1.249 ( -1.860)": EMG, then points.
    ch_tot = re.findall(num, next(ln for ln in chq.splitlines()
                                  if ln.startswith("Error total EMG")))
    cu_tot = re.findall(num, next(ln for ln in cube.splitlines()
                                  if ln.startswith("Error total EMG")))
    line = next(ln for ln in overall.splitlines() if ln.startswith("Overall rating"))
    names = [p for p in re.split(r"\s{2,}", line[len("Overall rating"):].strip()) if p]
    return GnubgStats((int(unforced[0]), int(unforced[1])), (int(close[0]), int(close[1])),
                      (abs(float(ch_tot[0])), abs(float(ch_tot[2]))),
                      (abs(float(cu_tot[0])), abs(float(cu_tot[2]))),
                      (names[0], names[1] if len(names) > 1 else "?"))

def analyse(gnubg: str, played: Played, workdir: Path) -> GnubgStats:
    name = f"{played.level.name}.sgf"
    path = workdir / name
    path.write_text(export_sgf(played.games, length=played.length,
                               names=(f"{played.level.name}-white",
                                      f"{played.level.name}-black")), encoding="utf-8")
    commands = f"{GNUBG_SETTINGS}load match {path}\nanalyse match\nshow statistics match\n"
    env = {**os.environ, "HOME": str(workdir)}
    done = subprocess.run([gnubg, "-t", "-q"], input=commands, capture_output=True,
                          text=True, timeout=6 * 3600, cwd=workdir, env=env, check=False)
    (workdir / f"{played.level.name}.gnubg.txt").write_text(done.stdout + done.stderr)
    return parse_statistics(done.stdout)

def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f}"

def report(played: Played, stats: GnubgStats | None) -> str:
    t = sorted(played.times)
    p50 = statistics.median(t)
    p95 = t[min(len(t) - 1, int(0.95 * len(t)))]
    fb = f"{played.fallbacks}/{played.decisions} ({100 * played.fallbacks / played.decisions:.1f}%)"
    timing = f"time p50/p95/max {_ms(p50)}/{_ms(p95)}/{_ms(t[-1])} ms, fallbacks {fb}"
    head = f"{played.level.name:<12} {len(played.games)} games"
    if stats is None:
        return f"{head}: {timing} (no gnubg: not analysed)"
    chk, cub, ovr = stats.rates()
    return (f"{head}, {stats.decisions} decisions ({stats.checker_decisions} checker, "
            f"{stats.cube_decisions} cube): error rate checker {chk * 1000:.1f}, cube "
            f"{cub * 1000:.1f}, overall {ovr * 1000:.1f} mEMG -> {rating(ovr)} "
            f"(gnubg per side: {stats.ratings[0]} / {stats.ratings[1]}); {timing}")

def measure(levels: list[Level], games: int, length: int, seed: int, time_limit: float,
            keep: Path | None = None) -> list[str]:
    gnubg = gnubg_path()
    lines = [f"{games} self-play games per level, "
             f"{'money play' if not length else f'{length}-point matches'}, seed {seed}; "
             "gnubg analysis: World class (2-ply cubeful, pruning), set explicitly; "
             f"error rates in mEMG per decision, {time.strftime('%Y-%m-%d')}"]
    if gnubg is None:
        lines.append("gnubg is not installed (Debian: apt-get install gnubg): no analysis")
    with tempfile.TemporaryDirectory() as tmp:
        workdir = keep or Path(tmp)
        workdir.mkdir(parents=True, exist_ok=True)
        for i, level in enumerate(levels):
            played = asyncio.run(play_level(level, games, length, seed + 1000 * i, time_limit))
            stats = analyse(gnubg, played, workdir) if gnubg else None
            lines.append(report(played, stats))
            print(lines[-1], file=sys.stderr, flush=True)
    return lines

def run(quick: bool) -> list[str]:
    """bench/run.py entry: every level, money play (2 games each with ``quick``)."""
    return measure(list(LEVELS.values()), QUICK_GAMES if quick else DEFAULT_GAMES, 0, 1,
                   10.0)

def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=DEFAULT_GAMES)
    parser.add_argument("--levels", default=",".join(LEVELS))
    parser.add_argument("--length", type=int, default=0, help="match length; 0 = money")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument("--noise", type=float, default=None,
                        help="override the levels' noise (calibration runs)")
    parser.add_argument("--keep", type=Path, default=None,
                        help="keep the .sgf files and gnubg's output here")
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    levels = [LEVELS[n.strip()] for n in args.levels.split(",")]
    if args.noise is not None:
        from dataclasses import replace
        levels = [replace(lv, noise=args.noise) for lv in levels]
    games = QUICK_GAMES if args.quick else args.games
    for line in measure(levels, games, args.length, args.seed, args.time_limit, args.keep):
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""The engine's command line, ``python -m engine plays -``, against its move generator.

For each case of a fixed corpus (tests/support/movegen_corpus.py: random reachable
positions, times all 21 rolls) the command line reads a line "POSITION_ID
DICE", decodes the Position ID, generates the legal plays, and writes each
play's canonical text and the Position ID after it.  Three things are timed on
the same cases, interleaved (chunk by chunk, all three on the same chunk, the
one going first rotating, so that a change in the load of the machine weighs on
all alike):

* the command line's own loop over its input lines (``engine.cli._run_stdin``,
  all the work of ``plays -`` but starting the interpreter and argparse);
* our generator alone on the same positions and rolls (``legal_plays``);
* GNU Backgammon's C generator (``gnubg_nn.moves``) on the same cases.

A last line splits the time per play written (generating, its Position ID, its text) with
the caches warm.

Target (from the issue): the command line within 2x of the generator alone.
"""

from __future__ import annotations

import gc
import io
import sys
import time
from operator import itemgetter
from pathlib import Path

import gnubg_nn

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT / "tests" / "support") not in sys.path:
    sys.path.insert(0, str(ROOT / "tests" / "support"))
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from movegen_corpus import position_corpus, to_gnubg  # noqa: E402

from engine import cli  # noqa: E402
from engine.dice import ALL_ROLLS  # noqa: E402
from engine.gnubgid import (  # noqa: E402
    decode_position_id,
    encode_position_id,
    encode_position_ids,
)
from engine.movegen import legal_plays  # noqa: E402
from engine.notation import format_plays  # noqa: E402
from engine.position import Position  # noqa: E402

SEED = 4242
TARGET_RATIO = 2.0
CHUNK = 100
"""Cases per chunk of the interleaved timing."""


def run(quick: bool) -> list[str]:
    n_positions = 200 if quick else 2000
    corpus = position_corpus(SEED, n_positions)
    lines: list[str] = []
    ours: list[tuple[Position, int, int]] = []
    theirs: list[tuple[list[list[int]], int, int]] = []
    for position, player in corpus:
        pid = encode_position_id(position, player)
        seen = decode_position_id(pid, cli.ON_ROLL)  # the position the command line sees
        for roll in ALL_ROLLS:
            lines.append(f"{pid} {roll.first}{roll.second}\n")
            ours.append((seen, roll.high, roll.low))
            theirs.append((to_gnubg(position, player), roll.first, roll.second))
    generator = cli.play_generator("standard")
    formatter = cli._load_formatter()
    n = len(lines)
    plays = sum(len(legal_plays(p, cli.ON_ROLL, a, b)) for p, a, b in ours)
    # Warm up all three (the command line's caches start cold, as in a fresh process).
    for position, a, b in ours[:300]:
        legal_plays(position, cli.ON_ROLL, a, b)
    for board, a, b in theirs[:300]:
        gnubg_nn.moves(board, a, b)
    cli._run_stdin(lines[:20], io.StringIO(), io.StringIO(), generator, formatter)

    clock = time.perf_counter
    totals = [0.0, 0.0, 0.0]  # command line, generator, gnubg
    out = io.StringIO()
    gc_was = gc.isenabled()
    gc.disable()
    try:
        for chunk, start in enumerate(range(0, n, CHUNK)):
            stop = start + CHUNK
            for k in range(3):
                side = (chunk + k) % 3
                started = clock()
                if side == 0:
                    cli._run_stdin(lines[start:stop], out, sys.stderr, generator, formatter)
                elif side == 1:
                    for position, a, b in ours[start:stop]:
                        legal_plays(position, cli.ON_ROLL, a, b)
                else:
                    for board, a, b in theirs[start:stop]:
                        gnubg_nn.moves(board, a, b)
                totals[side] += clock() - started
            if out.tell() > 1 << 22:
                out.seek(0)
                out.truncate()
        parts = _parts(ours[: 20 * CHUNK])
        floor = _side_bits_floor(ours[: 20 * CHUNK])
    finally:
        if gc_was:
            gc.enable()

    cli_mean, gen_mean, gnubg_mean = (t / n for t in totals)
    ratio = cli_mean / gen_mean
    return [
        f"corpus: {len(corpus)} positions x {len(ALL_ROLLS)} rolls = {n} cases, "
        f"{plays / n:.1f} plays per case",
        f"command line (engine.cli, plays -): {cli_mean * 1e6:8.1f} us per case "
        f"({cli_mean / plays * n * 1e6:.2f} us per play written)",
        f"generator alone (legal_plays):      {gen_mean * 1e6:8.1f} us per case",
        f"gnubg (gnubg_nn.moves, C):          {gnubg_mean * 1e6:8.1f} us per case",
        f"ratio command line/generator: {ratio:.2f}x (target <= {TARGET_RATIO:.0f}x: "
        f"{'met' if ratio <= TARGET_RATIO else 'MISSED'})",
        f"ratio command line/gnubg: {cli_mean / gnubg_mean:.1f}x, "
        f"generator/gnubg: {gen_mean / gnubg_mean:.1f}x",
        f"   (measured interleaved: chunks of {CHUNK} cases, the three on the same chunk, "
        "the first rotating; sums of chunk wall times, garbage collector off)",
        f"per play written, caches warm ({parts[3]} cases): generating {parts[0]:.2f} us, "
        f"its Position ID {parts[1]:.2f} us, its text {parts[2]:.2f} us",
        f"floor of a pure-Python writer: the mover's side as key bits (one C-level lookup and "
        f"join, nothing else) {floor:.2f} us + a text-cache hit {parts[2]:.2f} us = "
        f"{floor + parts[2]:.2f} us per play, so at best "
        f"{(parts[0] + floor + parts[2]) / parts[0]:.2f}x the generator before any "
        "reading, joining or writing",
    ]


def _parts(cases: list[tuple[Position, int, int]]) -> tuple[float, float, float, int]:
    """Per play: generation, Position IDs, play texts (the texts' cache already warm),
    interleaved chunk by chunk, the best of three runs of each chunk."""
    runs = [[p for p in legal_plays(pos, cli.ON_ROLL, a, b) if p.moves] for pos, a, b in cases]
    positions = [[p.position for p in plays] for plays in runs]
    clock = time.perf_counter
    totals = [0.0, 0.0, 0.0]
    for start in range(0, len(cases), CHUNK):
        stop = start + CHUNK
        best = [1.0, 1.0, 1.0]
        for _ in range(3):
            started = clock()
            for pos, a, b in cases[start:stop]:
                legal_plays(pos, cli.ON_ROLL, a, b)
            best[0] = min(best[0], clock() - started)
            started = clock()
            for after in positions[start:stop]:
                encode_position_ids(after, cli.ON_ROLL)
            best[1] = min(best[1], clock() - started)
            started = clock()
            for plays in runs[start:stop]:
                format_plays(plays)
            best[2] = min(best[2], clock() - started)
        totals = [t + b for t, b in zip(totals, best, strict=True)]
    n = sum(map(len, runs))
    return totals[0] / n * 1e6, totals[1] / n * 1e6, totals[2] / n * 1e6, len(cases)


_UNARY_BITS = {n: "0" + "1" * n for n in range(16)}
"""A point of ``n`` checkers in a Position ID key, most significant bit first."""


def _side_bits_floor(cases: list[tuple[Position, int, int]]) -> float:
    """Per play: the least work any pure-Python Position ID encoder does, writing the
    mover's 25 points as key bits by the fastest expansion found (``itemgetter`` over
    a table, one ``join``; ``str.translate``, ``map`` and half-side caches were each
    slower), with the opponent's side, the Base64 and the loop left out.  Best of
    three, chunk by chunk."""
    sides = [[p.position.sides[cli.ON_ROLL] for p in legal_plays(pos, cli.ON_ROLL, a, b)
              if p.moves] for pos, a, b in cases]
    backward = slice(25, 0, -1)
    clock = time.perf_counter
    total = 0.0
    for start in range(0, len(sides), CHUNK):
        best = 1.0
        for _ in range(3):
            started = clock()
            for chunk in sides[start : start + CHUNK]:
                for side in chunk:
                    "".join(itemgetter(*side[backward])(_UNARY_BITS))
            best = min(best, clock() - started)
        total += best
    return total / sum(map(len, sides)) * 1e6


if __name__ == "__main__":
    for line in run("--quick" in sys.argv):
        print(line)

"""Board rendering: time per full PNG render (layout, drawing, encoding) at the
default size over varied positions, next to the engine's legal-play time on the
same positions, so it is clear which one dominates a reply.

Issue 35's target: the board PNG's median at most 30x the legal-play generation
time of the same positions, measured here in the same run, and the PNG at most
150 KB.  The cache of identical boards is emptied before each render (every
position of the corpus is new anyway): what is timed is the drawing and the
encoding.  The renderer's zone patches stay remembered from one board to the next
as they do in a render worker."""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

from engine.move import Move
from engine.movegen import legal_plays
from engine.player import Player
from engine.position import Position
from render import BoardView, CubeView, LastPlay, MatchInfo, PlayerInfo, render_png
from render.layout import DEFAULT_WIDTH
from render.png import MAX_PNG_BYTES, board_indexed, clear_board_cache, indexed_png, render_image
from render.theme import get_theme

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT / "tests" / "support") not in sys.path:
    sys.path.insert(0, str(ROOT / "tests" / "support"))

import render_before  # noqa: E402  (the renderer before issue 35, the same-run reference)

TARGET_MS = 15.0
TARGET_KB = MAX_PNG_BYTES // 1024
TARGET_RATIO = 30.0
"""Issue 35: render_png's median over legal_plays' median on the same positions."""


def corpus(count: int, seed: int = 2024) -> list[tuple[BoardView, tuple[int, int]]]:
    """Positions from random legal play, each with its roll, cube and last play."""
    rng = random.Random(seed)
    out: list[tuple[BoardView, tuple[int, int]]] = []
    pos = Position.standard()
    player = Player.WHITE
    last: tuple[Move, ...] = ()
    names = (PlayerInfo("Alice", score=2), PlayerInfo("Bob", score=4))
    while len(out) < count:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        i = len(out)
        n_dice = 4 if dice[0] == dice[1] else 2
        view = BoardView(
            pos, turn=player, players=names, dice=dice,
            dice_used=tuple(j < i % 3 for j in range(n_dice)),
            cube=CubeView(2 ** (i % 3), None if i % 4 == 0 else Player(i % 2)),
            match=MatchInfo(7, crawford=i % 9 == 0),
            last_play=LastPlay(player.other, last) if last else None)
        out.append((view, dice))
        play = rng.choice(legal_plays(pos, player, *dice))
        pos, last = play.position, play.moves
        player = player.other
        if pos.is_finished(player.other):
            pos, player, last = Position.standard(), Player.WHITE, ()
    return out


def _median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def run(quick: bool) -> list[str]:
    count = 40 if quick else 200
    views = corpus(count)
    render_png(views[0][0])  # build the cached background, sprites and palette
    render_png(views[0][0], truecolor=True)
    render_before.render_png(views[0][0])

    th = get_theme("default")
    full: list[float] = []
    draw: list[float] = []
    indexed: list[float] = []
    encode: list[float] = []
    rgb: list[float] = []
    movegen: list[float] = []
    sizes: list[int] = []
    before: list[float] = []
    for view, dice in views:
        clear_board_cache()
        t0 = time.perf_counter()
        data = render_png(view)
        t1 = time.perf_counter()
        render_image(view)
        t2 = time.perf_counter()
        render_png(view, truecolor=True)
        t3 = time.perf_counter()
        assert view.turn is not None
        legal_plays(view.position, view.turn, *dice)
        t4 = time.perf_counter()
        picture = board_indexed(view, th, DEFAULT_WIDTH, pad=1)
        t5 = time.perf_counter()
        indexed_png(picture)
        t6 = time.perf_counter()
        render_before.render_png(view)
        before.append(time.perf_counter() - t6)
        full.append(t1 - t0)
        draw.append(t2 - t1)
        rgb.append(t3 - t2)
        movegen.append(t4 - t3)
        indexed.append(t5 - t4)
        encode.append(t6 - t5)
        sizes.append(len(data))
    render_ms = _median_ms(full)
    gen_ms = _median_ms(movegen)
    ratio = render_ms / gen_ms if gen_ms else float("inf")
    size_met = max(sizes) <= MAX_PNG_BYTES
    return [
        f"positions: {count} (random legal play from the start), {DEFAULT_WIDTH} px wide",
        f"render_png median: {render_ms:.2f} ms (p90 "
        f"{sorted(full)[int(0.9 * count)] * 1000:.2f} ms; target < {TARGET_MS:.0f} ms: "
        f"{'met' if render_ms < TARGET_MS else 'NOT met'})",
        f"  of which the picture in the palette's colours: {_median_ms(indexed):.2f} ms, "
        f"the PNG encoding: {_median_ms(encode):.2f} ms",
        f"  the whole picture drawn in RGB (render_image, the old way): {_median_ms(draw):.2f} ms",
        f"  truecolour PNG instead of the palette PNG: {_median_ms(rgb):.2f} ms",
        f"PNG size: median {statistics.median(sizes) / 1024:.1f} KB, max "
        f"{max(sizes) / 1024:.1f} KB (target <= {TARGET_KB} KB: "
        f"{'met' if size_met else 'NOT met'})",
        f"engine.movegen.legal_plays median on the same positions: {gen_ms:.3f} ms",
        f"render / legal_plays: {ratio:.1f}x "
        f"({'rendering' if ratio > 1 else 'move generation'} dominates a reply)",
        f"the renderer before issue 35 (tests/support/render_before.py) on the same "
        f"positions: median {_median_ms(before):.2f} ms; now {render_ms / _median_ms(before):.2f}x "
        f"of it ({_median_ms(before) / gen_ms:.0f}x legal_plays)",
        f"issue 35 target 1: render_png median / legal_plays median = {ratio:.1f}x "
        f"(target <= {TARGET_RATIO:.0f}x: {'met' if ratio <= TARGET_RATIO else 'NOT met'}); "
        f"PNG <= {TARGET_KB} KB: {'met' if size_met else 'NOT met'}",
    ]


if __name__ == "__main__":
    print("\n".join(run(False)))

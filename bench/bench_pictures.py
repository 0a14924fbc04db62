"""Pictures: CPU time to build a replay GIF of a 60-play and a 200-play game
(frames from the record, drawing, palette, GIF encoding), the analysis graph,
the player card and the match summary; p50 and p95, next to one still board
PNG measured in the same run.

Issue 35's targets, in the same run: a replay frame costs no more than a still
board, and the 60-play replay's p95 is under half of the replay renderer's before
issue 35, kept as the reference in tests/support/replay_before.py (whose own
caches are warmed the same way).

A replay frame (the replay's p50 over its frames) is set against two still
boards: the gallery's middle game drawn again and again (the reference when the
issue was written; since issue 35 the renderer remembers the patches of its
zones, so this board is now all remembered patches, the cheapest board there
is), and the still boards of the replay's own positions (each frame's board as
the 800 px PNG a move shows, the cache of identical boards emptied each time):
the same positions, the like-for-like figure."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT / "tests" / "support") not in sys.path:
    sys.path.insert(0, str(ROOT / "tests" / "support"))

import replay_before  # noqa: E402
from picture_games import sample_game  # noqa: E402

from bot.ai.analysed import DecisionPoint, GameAnalysis, PlayerAnalysis  # noqa: E402
from bot.service.pictures.contents import analysis_chart, match_summary, replay_frames  # noqa: E402
from engine.match import MoneySession  # noqa: E402
from engine.player import Player  # noqa: E402
from engine.record import GameRecord, PlayMade  # noqa: E402
from render.card import PlayerCard, RecentResult, render_card  # noqa: E402
from render.chart import render_chart  # noqa: E402
from render.gallery import examples  # noqa: E402
from render.png import clear_board_cache, render_png  # noqa: E402
from render.replay import render_replay  # noqa: E402
from render.summary import render_summary  # noqa: E402

NAMES = ("alice", "bob")


def _times(job: Callable[[], object], runs: int) -> list[float]:
    out = []
    for _ in range(runs):
        t0 = time.process_time()
        job()
        out.append(time.process_time() - t0)
    return out


def _p(samples: list[float], q: float) -> float:
    s = sorted(samples)
    return s[min(len(s) - 1, round(q * (len(s) - 1)))] * 1000


def _line(name: str, samples: list[float], target_ms: float | None, extra: str = "") -> str:
    p50, p95 = _p(samples, 0.5), _p(samples, 0.95)
    if target_ms is None:
        verdict = "reported"
    else:
        met = "met" if p95 < target_ms else "NOT met"
        verdict = f"target p95 < {target_ms:.0f} ms: {met}"
    return f"{name}: p50 {p50:.0f} ms, p95 {p95:.0f} ms CPU ({verdict}){extra}"


def _replay(record: GameRecord) -> bytes:
    """The whole job: frames from the record, then the GIF."""
    return render_replay(replay_frames(record, NAMES, MoneySession.new())).data


def _replay_before(record: GameRecord) -> bytes:
    """The same job by the replay renderer as it was before issue 35."""
    return replay_before.render_replay(replay_frames(record, NAMES, MoneySession.new())).data


def _still(board: object) -> bytes:
    clear_board_cache()
    return render_png(board)  # type: ignore[arg-type]


def _stills(frames: tuple[object, ...]) -> None:
    """Each frame's board as a still board PNG, drawn anew."""
    for frame in frames:
        clear_board_cache()
        render_png(frame.board)  # type: ignore[attr-defined]


def run(quick: bool) -> list[str]:
    runs_long = 3 if quick else 10
    runs_short = 10 if quick else 60
    lines = []
    board = examples()["middle-game"]
    render_png(board)
    still = _times(lambda: _still(board), runs_short)
    lines.append(f"reference: one still board PNG p50 {_p(still, 0.5):.2f} ms")
    per_frame: list[float] = []
    per_same: list[float] = []
    record = sample_game(60, seed=60, doubles=2)
    replay_before.render_replay(replay_frames(record, NAMES, MoneySession.new()))  # warm
    t_before = _times(partial(_replay_before, record), runs_long)
    t_now: list[float] = []
    for plays, target in ((60, 1000.0), (200, None)):
        record = sample_game(plays, seed=plays, doubles=2)
        frames = replay_frames(record, NAMES, MoneySession.new())
        replay = render_replay(frames)  # warm: background, sprites, palette
        t_frames = _times(partial(replay_frames, record, NAMES, MoneySession.new()), runs_long)
        t_all = _times(partial(_replay, record), runs_long)
        if plays == 60:
            t_now = t_all
        per_frame.append(_p(t_all, 0.5) / _p(still, 0.5) / replay.frames)
        stills = _times(partial(_stills, frames), runs_long)
        per_same.append(_p(t_all, 0.5) / _p(stills, 0.5))
        lines.append(_line(
            f"replay {plays} plays ({replay.frames} frames, {replay.width} px)", t_all, target,
            f"; {len(replay.data) / 1e6:.2f} MB, {len(replay.data) // replay.frames // 1024} KB"
            f"/frame; frames from the record {_p(t_frames, 0.5):.0f} ms; "
            f"{_p(t_all, 0.5) / _p(still, 0.5) / replay.frames:.2f}x a still board per frame"))
        lines.append(f"  the same {len(frames)} positions as still board PNGs: "
                     f"{_p(stills, 0.5) / len(frames):.2f} ms a board (p50 of the whole)")

    half = _p(t_now, 0.95) / _p(t_before, 0.95)
    lines.append(
        f"issue 35 target 3: a replay frame / a still board of the same position = "
        f"{', '.join(f'{r:.2f}x' for r in per_same)} (60, 200 plays; target <= 1x: "
        f"{'met' if max(per_same) <= 1 else 'NOT met'}); / the gallery's board drawn "
        f"again and again = {', '.join(f'{r:.2f}x' for r in per_frame)} "
        f"({'<= 1x' if max(per_frame) <= 1 else 'over 1x'}); 60-play replay p95 "
        f"{_p(t_now, 0.95):.0f} ms against {_p(t_before, 0.95):.0f} ms before issue 35 = "
        f"{half:.2f}x (target < 0.5x: {'met' if half < 0.5 else 'NOT met'})")

    record = sample_game(60, seed=3, doubles=2)
    timeline: list[DecisionPoint] = []
    for i, event in enumerate(record.events):
        if isinstance(event, PlayMade):
            k = len(timeline)
            timeline.append(DecisionPoint(i, event.player, "play", (k % 9) / 10 - 0.4,
                                          (k % 13) / 13, 0.0))
    analysis = GameAnalysis(True, (PlayerAnalysis(Player.WHITE, 30, 1.2, ()),
                                   PlayerAnalysis(Player.BLACK, 30, 0.9, ())),
                            timeline=tuple(timeline))
    data = analysis_chart(analysis, record, Player.WHITE, NAMES)
    render_chart(data)
    t_data = _times(lambda: analysis_chart(analysis, record, Player.WHITE, NAMES), runs_short)
    lines.append(_line(f"analysis graph ({len(data.points)} points)",
                       _times(lambda: render_chart(data), runs_short), 100.0,
                       f"; its data from the analysis {_p(t_data, 0.5):.0f} ms"))
    card = PlayerCard("alice", 1623.0, 420, tuple(1500.0 + 7 * (k % 11) for k in range(80)),
                      340, 190, 80, 44, -45, "standard",
                      tuple(RecentResult(k % 3 != 0, f"player{k}", "7-4") for k in range(10)))
    render_card(card)
    lines.append(_line("player card (80 rated matches)",
                       _times(lambda: render_card(card), runs_short), 100.0))
    records = [sample_game(30, seed=s, money=False, doubles=1) for s in range(8)]
    summary = match_summary(NAMES, 25, records)
    render_summary(summary)
    lines.append(_line(f"match summary ({len(summary.games)} games)",
                       _times(lambda: render_summary(summary), runs_short), 100.0))
    return lines


if __name__ == "__main__":
    print("\n".join(run("--quick" in sys.argv)))

"""Tournaments: pairing one round of a 256-player Swiss late in the event (scores spread
over seven rounds of random results, rematches to avoid), and drawing the PNG of a finished
64-player bracket (single and double elimination).  Target: under 200 ms each.  The
reference measured in the same run is the board PNG (bench_render's operation), so the
ratio says what a bracket costs next to an ordinary reply."""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "support"))

from tournament_driver import play_out, start, step

from engine.position import Position
from engine.tournament import Format, TournamentState
from engine.tournament.swiss import pair_round
from render import BoardView, render_png
from render.bracket import render_tournament_png

TARGET_MS = 200.0


def _late_swiss(players: int, rounds_played: int, seed: int) -> TournamentState:
    """A Swiss of ``players`` after ``rounds_played`` rounds of random results."""
    rng = random.Random(seed)
    state = start(Format.SWISS, players, seed, swiss_rounds=rounds_played + 1)
    while state.round <= rounds_played:
        state = step(state, rng)
    return state


def _pairing_inputs(state: TournamentState) -> tuple[list[str], dict[str, int],
                                                      dict[str, set[str]], set[str]]:
    """What the state hands to the pairing for the round after the last complete one."""
    done = [p for p in state.pairings if p.round < state.round]
    earlier = TournamentState(state.config, state.seeds, tuple(done), state.round - 1,
                              state.withdrawn, state.bracket_size)
    table = [s for s in earlier.standings() if not s.withdrawn]
    met: dict[str, set[str]] = {}
    for p in done:
        if p.a is not None and p.b is not None:
            met.setdefault(p.a, set()).add(p.b)
            met.setdefault(p.b, set()).add(p.a)
    had_bye = {p.players[0] for p in done if p.is_bye and p.players}
    return [s.player for s in table], {s.player: s.score for s in table}, met, had_bye


def _time(fn: object, repeat: int) -> list[float]:
    assert callable(fn)
    out = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t) * 1000)
    return out


def run(quick: bool) -> list[str]:
    repeat = 3 if quick else 9
    lines: list[str] = []
    board = BoardView(Position.standard())
    render_png(board)
    ref = statistics.median(_time(lambda: render_png(board), repeat * 3))
    lines.append(f"reference: one board PNG {ref:.1f} ms")

    for players, played in ((256, 7), (255, 7)):
        state = _late_swiss(players, played, seed=players)
        ranking, scores, met, had_bye = _pairing_inputs(state)
        spread = f"scores {min(scores.values())}-{max(scores.values())}"
        ms = _time(lambda r=ranking, s=scores, m=met, b=had_bye: pair_round(r, s, m, b),
                   repeat)
        pairs = pair_round(ranking, scores, met, had_bye)
        rematches = sum(b is not None and b in met.get(a, set()) for a, b in pairs)
        floats = sum(b is not None and scores[a] != scores[b] for a, b in pairs)
        lines.append(
            f"Swiss pairing, {players} players, round {played + 1} ({spread}): median "
            f"{statistics.median(ms):.0f} ms, max {max(ms):.0f} ms "
            f"({statistics.median(ms) / TARGET_MS:.2f} of the {TARGET_MS:.0f} ms target); "
            f"{rematches} rematches, {floats} of {len(pairs)} pairs across scores")

    for fmt in (Format.SINGLE_ELIMINATION, Format.DOUBLE_ELIMINATION):
        state = play_out(start(fmt, 64, seed=64), random.Random(64))
        render_tournament_png(state)  # fonts loaded, palette built
        ms = _time(lambda s=state: render_tournament_png(s), repeat)
        size = len(render_tournament_png(state)) // 1024
        med = statistics.median(ms)
        lines.append(
            f"{fmt.label} bracket PNG, 64 players: median {med:.0f} ms, max {max(ms):.0f} ms "
            f"({med / TARGET_MS:.2f} of the target, {med / ref:.1f}x a board PNG), {size} KB")
    swiss = play_out(start(Format.SWISS, 64, seed=6), random.Random(6))
    render_tournament_png(swiss)
    ms = _time(lambda: render_tournament_png(swiss), repeat)
    lines.append(f"Swiss standings PNG, 64 players: median {statistics.median(ms):.0f} ms")
    return lines

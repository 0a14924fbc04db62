"""The game service under load: 200 concurrent money games in one process on one
SQLite file (WAL, synchronous=FULL) in a temporary directory.

The issue's measure is the service time of one move *including its render*
(parse, validate, apply, commit, render), so the loads below render every
reply's board the way the Discord adapter does (:class:`bot.adapters.discord.renderer.Renderer`,
its worker processes) and time a move from the call to the PNG bytes.

Two series, each: **saturation** (one asyncio task per game plays on -- roll,
take, move -- as fast as it is answered: committed moves and actions per
second on one SQLite file), then **paced loads**: the same 200 games with
exponential think times offering 25 %, 50 % and 75 % of that saturation rate
(measured in the same run), p50/p99 against the 50 ms target, queueing
included.

* **Service only**: the time of ``service.move``, nothing rendered (the
  service's own capacity).
* **With render**: every reply's board drawn as the Discord adapter draws it,
  and a move timed to its PNG bytes: the capacity of the process as a Discord
  host (rendering is most of the CPU).
* **One at a time**: moves made sequentially, service and render timed apart
  (render time against service time as a ratio).
* **Memory per active game**: what the service keeps for each active game
  (its cache of the rebuilt state), measured with tracemalloc on a fresh
  service loading every game, and the process RSS growth over the whole run.

Plays are chosen from ``service.suggestions`` (the autocomplete call) and the
reply's buttons, as a client would.  The process runs with the bot's garbage
collector settings (:func:`bot.runtime.tune_gc`).  Target: move p99 under 50 ms.
"""

from __future__ import annotations

import asyncio
import random
import resource
import tempfile
import time
import tracemalloc
from pathlib import Path

from bot.adapters.discord.renderer import Renderer
from bot.config import Config
from bot.runtime import tune_gc
from bot.service.core.replies import Action, Reply
from bot.service.core.values import Actor, Expect, Place
from bot.service.game import GameService
from bot.storage.sqlite import SqliteStorage
from render import render_png

GAMES = 200
GUILD = 3
TARGET_P99_MS = 50.0
TARGET_SHARE = 0.6
"""Issue 35: the saturation with render at least this share of the service-only one."""


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _players(i: int) -> tuple[Actor, Actor]:
    return Actor(100_000 + 2 * i, f"w{i}"), Actor(100_001 + 2 * i, f"b{i}")


class Seat:
    """One game and the last reply it got.

    (Plain classes, not dataclasses: bench/run.py loads this module without
    registering it in sys.modules.)
    """

    def __init__(self, place: Place, players: tuple[Actor, Actor], reply: Reply,
                 rng: random.Random) -> None:
        self.place = place
        self.players = players
        self.reply = reply
        self.rng = rng

    def actor(self, user: int) -> Actor:
        return self.players[0] if self.players[0].id == user else self.players[1]


class Tally:
    def __init__(self) -> None:
        self.moves = 0
        self.actions = 0
        self.refused = 0
        self.move_ms: list[float] = []
        self.render_ms: list[float] = []


async def _step(service: GameService, seat: Seat, tally: Tally, *, render: str,
                renderer: Renderer | None = None) -> None:
    """One action for this game: roll or take when a button says so, else a move.

    ``render``: "none"; "adapter" (each reply's board rendered by ``renderer``, the
    Discord adapter's worker processes, and included in the move's time); "apart"
    (moves rendered on the spot and timed separately).
    """
    buttons = {b.action: b for b in seat.reply.buttons}
    version = seat.reply.version
    reply: Reply | None = None
    started = time.perf_counter()
    moved = False
    if Action.TAKE in buttons:
        reply = await service.take(seat.place, seat.actor(buttons[Action.TAKE].users[0]),
                                   expect=Expect(version) if version is not None else None)
    elif Action.ROLL in buttons:
        reply = await service.roll(seat.place, seat.actor(buttons[Action.ROLL].users[0]),
                                   expect=Expect(version) if version is not None else None)
    else:
        for actor in seat.players:
            plays = await service.suggestions(seat.place, actor, "")
            if plays:
                text = seat.rng.choice(plays)
                started = time.perf_counter()
                reply = await service.move(seat.place, actor, text)
                moved = reply.ok
                break
        if reply is None:  # nothing to do (should not happen): look at the board
            reply = await service.board(seat.place, seat.players[0])
    if reply.ok and reply.boards and renderer is not None and render == "adapter":
        await renderer.png(reply.boards[-1].view)
    took = time.perf_counter() - started
    if moved:
        tally.moves += 1
        tally.move_ms.append(took * 1000)
        if render == "apart" and reply.boards:
            started = time.perf_counter()
            render_png(reply.boards[-1].view)
            tally.render_ms.append((time.perf_counter() - started) * 1000)
    if reply.ok:
        tally.actions += 1
        seat.reply = reply
    else:
        tally.refused += 1
        seat.reply = await service.board(seat.place, seat.players[0])


async def _open(directory: Path) -> tuple[SqliteStorage, GameService, list[Seat]]:
    storage = SqliteStorage(directory / "bench.sqlite3")
    await storage.open()
    service = GameService(storage, Config())
    seats = []
    for i in range(GAMES):
        place = Place(GUILD, 1_000 + i)
        white, black = _players(i)
        assert (await service.challenge(place, white, black, stake=1)).ok
        reply = await service.accept(place, black)
        assert reply.ok, reply.text
        seats.append(Seat(place, (white, black), reply, random.Random(i)))
    return storage, service, seats


async def _under_load(service: GameService, seats: list[Seat], seconds: float,
                      rate: float | None = None, render: str = "adapter",
                      renderer: Renderer | None = None) -> tuple[Tally, float]:
    """Every game acts as soon as it has its answer (``rate`` None: saturation), or
    after an exponential think time so that all games together offer ``rate``
    actions per second."""
    tally = Tally()
    stop = time.perf_counter() + seconds
    think = random.Random(7)

    async def play(seat: Seat) -> None:
        while time.perf_counter() < stop:
            if rate is not None:
                pause = think.expovariate(rate / len(seats))
                await asyncio.sleep(min(pause, stop - time.perf_counter()))
                if time.perf_counter() >= stop:
                    break
            await _step(service, seat, tally, render=render, renderer=renderer)

    started = time.perf_counter()
    await asyncio.gather(*(play(s) for s in seats))
    return tally, time.perf_counter() - started


async def _one_at_a_time(service: GameService, seats: list[Seat], moves: int) -> Tally:
    tally = Tally()
    i = 0
    while tally.moves < moves:
        await _step(service, seats[i % len(seats)], tally, render="apart")
        i += 1
    return tally


async def _memory(storage: SqliteStorage) -> float:
    """Bytes the service keeps per active game once it has loaded them all."""
    fresh = GameService(storage, Config())
    places = [Place(GUILD, 1_000 + i) for i in range(GAMES)]
    await fresh.board(places[0], _players(0)[0])  # warm imports and statement caches
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    for i, place in enumerate(places):
        await fresh.board(place, _players(i)[0])
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    grown = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
    return grown / GAMES


def _rss_kb() -> int:
    return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


SHARES = (0.25, 0.5, 0.75)
"""Paced loads, as fractions of the saturation rate measured just before."""


async def _series(service: GameService, seats: list[Seat], seconds: float, render: str,
                  renderer: Renderer | None) -> tuple[list[str], float, float]:
    """Saturation, then the paced loads at each share of it: report lines, the
    saturation (actions/s) and the p99 at the last share (ms)."""
    load, wall = await _under_load(service, seats, seconds, render=render, renderer=renderer)
    capacity = load.actions / wall
    what = "move + render" if render == "adapter" else "move"
    lines = [
        f"  saturation (every game acts as soon as answered): {load.moves / wall:.0f} committed "
        f"moves/s, {capacity:.0f} committed actions/s (rolls, takes, moves; {load.refused} "
        f"refused); {what} p50 {_pct(load.move_ms, 0.5):.1f} ms, p99 "
        f"{_pct(load.move_ms, 0.99):.1f} ms ({GAMES} games queueing)"]
    q99 = float("nan")
    for share in SHARES:
        rate = share * capacity
        tally, _ = await _under_load(service, seats, seconds, rate=rate, render=render,
                                     renderer=renderer)
        q99 = _pct(tally.move_ms, 0.99)
        verdict = "met" if q99 < TARGET_P99_MS else "NOT met"
        lines.append(
            f"  offered {share:.0%} of that ({rate:.0f} actions/s: each game acts every "
            f"{GAMES / rate:.1f} s): {what} p50 {_pct(tally.move_ms, 0.5):.1f} ms, p99 "
            f"{q99:.1f} ms ({tally.moves} moves; target p99 < {TARGET_P99_MS:g} ms: {verdict})")
    return lines, capacity, q99


PAIRS = 3


async def _interleaved(service: GameService, seats: list[Seat], seconds: float,
                       renderer: Renderer) -> list[float]:
    """Saturation with render over saturation without, measured in alternating short
    runs: on a machine shared with other work the load drifts over the minutes of the
    two series, and a pair of neighbouring runs sees about the same."""
    ratios = []
    for _ in range(PAIRS):
        bare, wall = await _under_load(service, seats, seconds, render="none")
        without = bare.actions / wall
        load, wall = await _under_load(service, seats, seconds, render="adapter",
                                       renderer=renderer)
        ratios.append(load.actions / wall / without)
    return ratios


async def _run(quick: bool) -> list[str]:
    seconds = 3.0 if quick else 12.0
    sequential = 150 if quick else 1_000
    tune_gc()
    config = Config()
    renderer = Renderer(config.render.theme, workers=config.render.workers)  # as the bot's
    rss_start = _rss_kb()
    with tempfile.TemporaryDirectory() as tmp:
        storage, service, seats = await _open(Path(tmp))
        try:
            bare, bare_capacity, _ = await _series(service, seats, seconds, "none", None)
            await renderer.start()
            rendered, capacity, p99_75 = await _series(service, seats, seconds, "adapter",
                                                       renderer)
            pairs = await _interleaved(service, seats, seconds / 3, renderer)
            alone = await _one_at_a_time(service, seats, sequential)
            per_game = await _memory(storage)
            size = (Path(tmp) / "bench.sqlite3").stat().st_size
        finally:
            renderer.close()
            await storage.close()
    rss_grown = (_rss_kb() - rss_start) / GAMES
    s50, s99 = _pct(alone.move_ms, 0.50), _pct(alone.move_ms, 0.99)
    r50, r99 = _pct(alone.render_ms, 0.50), _pct(alone.render_ms, 0.99)
    total = [m + r for m, r in zip(alone.move_ms, alone.render_ms, strict=False)]
    t50, t99 = _pct(total, 0.50), _pct(total, 0.99)
    return [
        f"{GAMES} concurrent money games, one process, one SQLite file "
        f"(WAL, synchronous=FULL); {seconds:g} s per load level",
        "service only (the reply's board not rendered): time of service.move",
        *bare,
        f"with render (each reply's board drawn by the Discord adapter's {renderer.workers} "
        "render processes): time from service.move to the PNG bytes",
        *rendered,
        f"one at a time ({alone.moves} moves): service p50 {s50:.1f} ms, p99 {s99:.1f} ms; "
        f"render_png p50 {r50:.1f} ms, p99 {r99:.1f} ms",
        f"one at a time: service + render p50 {t50:.1f} ms, p99 {t99:.1f} ms; "
        f"render / service = {r50 / s50:.2f}x at p50, {r99 / s99:.2f}x at p99",
        f"issue 35 target 2: saturation with render / service only = "
        f"{capacity / bare_capacity:.0%} from the two series, "
        f"{', '.join(f'{r:.0%}' for r in pairs)} in {PAIRS} interleaved pairs of "
        f"{seconds / 3:g} s runs (median {sorted(pairs)[len(pairs) // 2]:.0%}; target >= "
        f"{TARGET_SHARE:.0%}: "
        f"{'met' if sorted(pairs)[len(pairs) // 2] >= TARGET_SHARE else 'NOT met'}); p99 at "
        f"75% of the with-render saturation {p99_75:.1f} ms (target <= {TARGET_P99_MS:g} ms: "
        f"{'met' if p99_75 <= TARGET_P99_MS else 'NOT met'})",
        f"memory per active game: {per_game / 1024:.1f} KiB held by the service (tracemalloc); "
        f"process RSS growth / games {rss_grown:.0f} KiB (renderer and SQLite caches "
        f"included); database {size / 1e6:.1f} MB",
    ]


def run(quick: bool) -> list[str]:
    return asyncio.run(_run(quick))


if __name__ == "__main__":
    for line in run(quick=False):
        print(line)

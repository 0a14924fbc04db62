"""Run AI work off the event loop, with a time limit.

bgsage holds the GIL for tens of milliseconds inside some calls (a cube
decision at 1ply/2ply holds it ~40 ms), so a thread pool alone lets the event
loop stall while the AI thinks.  :class:`AIRunner` therefore uses a **process
pool** by default (``spawn`` start method: no forked copy of the bot's event
loop or sockets); each worker loads the networks once.  A thread pool is
available (``processes=False``) for tests and small deployments.

Time limit: if a decision is not ready after ``time_limit`` seconds, the
runner answers with a fallback decision instead, computed in a separate thread
with its own short limit: the strong level (GNU 1-ply) for expert, so expert
never plays below the default; GNU 0-ply without noise for the other levels;
the heuristic for variants.  If even that is late, the heuristic decides
synchronously (a few milliseconds).  Expert rarely gets here: its deeper search
stops after ``min(level.budget, time_limit / 2)`` seconds and plays the GNU
1-ply answer it computed first (:func:`bot.ai.sage.deep_plays`).  A timed-out worker cannot be
interrupted; the process pool is replaced so later decisions do not queue
behind it, and the old worker exits when its job ends.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import random
import signal
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import replace
from typing import Any, TypeVar

from bot.ai import sage
from bot.ai.analysed import GameAnalysis
from bot.ai.analysis import analyze
from bot.ai.context import MatchContext
from bot.ai.hints import Hint, hint
from bot.ai.levels import DEFAULT_LEVEL, FALLBACK_LEVEL, EvalDepth, Level, fallback_level
from bot.ai.player import Decision, decide, heuristic_decide
from bot.config import AIConfig
from bot.runtime import worker_setup
from engine.game import Game
from engine.record import GameRecord

T = TypeVar("T")

DecideFn = Callable[[Game, MatchContext, Level, int], Decision]


def decide_seeded(game: Game, context: MatchContext, level: Level, seed: int) -> Decision:
    """:func:`bot.ai.player.decide` with a fresh ``random.Random(seed)`` (picklable job)."""
    return decide(game, context, level, random.Random(seed))


def heuristic_decision(game: Game, seed: int = 0) -> Decision:
    """The heuristic's decision for ``game.awaiting`` (any variant, never slow)."""
    player = game.awaiting
    if player is None:
        raise ValueError("nobody has to act now")
    d = heuristic_decide(game, player, random.Random(seed), FALLBACK_LEVEL)
    return replace(d, source="fallback heuristic")


def _warm() -> None:
    sage.warm_up((EvalDepth.PLY1, EvalDepth.PLY2))


def ignore_interrupts() -> None:
    """In a worker process: leave Ctrl-C to the parent, which shuts the pool down (the
    terminal sends SIGINT to the whole process group; a worker would die with a traceback)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _start_worker() -> None:
    worker_setup()  # no Ctrl-C here; ends with the bot even if it is killed outright
    _warm()


class AIRunner:
    """Asynchronous front of the AI: ``await runner.decide(game, ctx, level, rng)``."""

    def __init__(self, *, processes: bool = True, workers: int = 1, time_limit: float = 10.0,
                 fallback_limit: float = 3.0, decide_fn: DecideFn = decide_seeded,
                 fallback_fn: DecideFn = decide_seeded) -> None:
        self.processes = processes
        self.workers = workers
        self.time_limit = time_limit
        self.fallback_limit = fallback_limit
        self.decide_fn = decide_fn
        self.fallback_fn = fallback_fn
        self.timeouts = 0
        self.pending = 0
        """Jobs sent to the workers and not answered yet (the queue's depth, for metrics)."""
        self.closed = False
        self.on_decision: Callable[[float], None] | None = None
        """Told how long each decision took, in seconds (metrics)."""
        self._pool: Executor = self._new_pool()
        self._fallback = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ai-fallback")

    def _new_pool(self) -> Executor:
        if self.processes:
            return ProcessPoolExecutor(max_workers=self.workers,
                                       mp_context=multiprocessing.get_context("spawn"),
                                       initializer=_start_worker)
        return ThreadPoolExecutor(max_workers=self.workers, thread_name_prefix="ai")

    async def start(self) -> None:
        """Start the workers and load the networks now (optional; else on first use)."""
        await asyncio.get_running_loop().run_in_executor(self._pool, _warm)

    async def run(self, fn: Callable[..., T], *args: Any, timeout: float | None = None) -> T:
        """Run ``fn(*args)`` in the pool; :class:`TimeoutError` after ``timeout`` seconds."""
        loop = asyncio.get_running_loop()
        fut = loop.run_in_executor(self._pool, fn, *args)
        self.pending += 1
        try:
            return await asyncio.wait_for(fut, timeout or self.time_limit)
        except TimeoutError:
            self._abandon()
            raise
        finally:
            self.pending -= 1

    def _abandon(self) -> None:
        """A job overran: give later jobs a fresh process pool."""
        self.timeouts += 1
        if self.processes and not self.closed:
            old = self._pool
            self._pool = self._new_pool()
            old.shutdown(wait=False, cancel_futures=True)

    async def decide(self, game: Game, context: MatchContext | None = None,
                     level: Level = DEFAULT_LEVEL,
                     rng: random.Random | None = None) -> Decision:
        """The AI's decision for ``game.awaiting``, within the time limit (else a fallback)."""
        ctx = context or MatchContext.money()
        seed = (rng or random.Random()).getrandbits(63)
        budget = min(level.budget, self.time_limit / 2)
        started = time.perf_counter()
        try:
            decision = await self.run(self.decide_fn, game, ctx,
                                      replace(level, budget=budget), seed)
        except TimeoutError:
            pass
        else:
            if self.on_decision is not None:
                self.on_decision(time.perf_counter() - started)
            return decision
        loop = asyncio.get_running_loop()
        try:
            d = await asyncio.wait_for(
                loop.run_in_executor(self._fallback, self.fallback_fn, game, ctx,
                                     fallback_level(level), seed),
                self.fallback_limit)
            return replace(d, source=f"fallback {d.source}")
        except TimeoutError:
            return heuristic_decision(game, seed)

    async def hint(self, game: Game, context: MatchContext | None = None, n: int = 5,
                   level: Level = DEFAULT_LEVEL) -> Hint:
        return await self.run(hint, game, context, n, level)

    async def analyze(self, record: GameRecord, context: MatchContext | None = None,
                      level: Level = DEFAULT_LEVEL, timeout: float = 120.0) -> GameAnalysis:
        return await self.run(analyze, record, context, level, timeout=timeout)

    def close(self) -> None:
        """Stop the workers (a decision under way is abandoned: its process ends when the
        bot's :func:`bot.runtime.stop_children` runs out of patience)."""
        self.closed = True
        self._pool.shutdown(wait=False, cancel_futures=True)
        self._fallback.shutdown(wait=False, cancel_futures=True)


def runner_from_config(config: AIConfig) -> AIRunner | None:
    """The AI runner the configuration asks for (None when the AI is switched off)."""
    if not config.enabled:
        return None
    return AIRunner(processes=config.processes, time_limit=config.time_limit)

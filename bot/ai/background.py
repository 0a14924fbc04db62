"""A worker process of its own for background analysis (the grading of every match).

The live games' AI has its own process pool (:class:`bot.ai.runner.AIRunner`); grading
runs beside it in one more process, so a match being graded never delays a move:

* **one analysis at a time**: the process takes one game, answers, takes the next;
* **a modest priority**: the process lowers its own CPU priority (``nice``) at start, so
  the bot's event loop, its board renderers and the live AI win every contest for a core;
* **bounded**: each call has a time limit; a call that overruns has its process killed (a
  new one starts for the next call), and :meth:`BackgroundAnalyser.close` kills it at
  once, whatever it is doing, so stopping the bot never waits for an analysis.

The asyncio side waits on a thread (the pipe's ``recv`` releases the interpreter lock),
never on the event loop.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING, Any, TypeVar

from bot.ai.context import MatchContext
from bot.ai.levels import DEFAULT_LEVEL, EvalDepth, Level
from engine.record import GameRecord

if TYPE_CHECKING:
    from bot.ai.analysed import GameAnalysis

T = TypeVar("T")


class AnalyserFailed(RuntimeError):
    """The analysis raised in the worker process (its message says what)."""


def _orphaned(parent: int) -> None:
    """End this worker as soon as its parent is gone (killed with -9, say), rather than
    finish an analysis nobody waits for."""
    while True:
        time.sleep(1.0)
        if os.getppid() != parent:
            os._exit(0)


def _serve(conn: Connection, nice: int, parent: int) -> None:
    """The worker process: lower its priority, load the networks, answer calls."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    threading.Thread(target=_orphaned, args=(parent,), daemon=True).start()
    if nice:
        try:
            os.nice(nice)
        except OSError:  # pragma: no cover - a platform without nice
            pass
    from bot.ai import sage

    sage.warm_up((EvalDepth.PLY2,))
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        fn, args = message
        try:
            answer: tuple[str, Any] = ("ok", fn(*args))
        except Exception as error:  # sent back: the caller decides
            answer = ("error", f"{type(error).__name__}: {error}")
        try:
            conn.send(answer)
        except OSError:  # the caller is gone
            return


class BackgroundAnalyser:
    """``await analyser.analyze(record, context, level, timeout=...)`` in the worker."""

    def __init__(self, *, nice: int = 10) -> None:
        self.nice = nice
        self._process: Any = None
        self._conn: Connection | None = None
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="grading")
        self.killed = 0
        """Calls that overran and had their process killed."""

    @property
    def pid(self) -> int | None:
        """The worker process's id (None before the first call)."""
        return self._process.pid if self._process is not None else None

    def _ensure(self) -> Connection:
        """The worker's end of the pipe, starting the worker if it is not running (on the
        calling thread: only that thread touches the pipe)."""
        if self._process is None or not self._process.is_alive() or self._conn is None:
            if self._conn is not None:
                self._conn.close()
                self._conn = None
            self._kill()
            ctx = multiprocessing.get_context("spawn")
            ours, theirs = ctx.Pipe()
            self._process = ctx.Process(target=_serve, args=(theirs, self.nice, os.getpid()),
                                        daemon=True, name="bgbot-grading")
            self._process.start()
            theirs.close()
            self._conn = ours
        return self._conn

    def _call(self, fn: Callable[..., Any], args: tuple[Any, ...]) -> Any:
        conn = self._ensure()
        try:
            conn.send((fn, args))
            status, value = conn.recv()
        except (EOFError, OSError) as error:  # killed (a time-out, close) or crashed
            raise AnalyserFailed(f"the analysis process ended: {error!r}") from None
        if status != "ok":
            raise AnalyserFailed(str(value))
        return value

    async def run(self, fn: Callable[..., T], *args: Any, timeout: float) -> T:
        """``fn(*args)`` in the worker; :class:`TimeoutError` (and the worker killed)
        after ``timeout`` seconds."""
        loop = asyncio.get_running_loop()
        future = loop.run_in_executor(self._thread, self._call, fn, args)
        try:
            result: T = await asyncio.wait_for(asyncio.shield(future), timeout)
            return result
        except (TimeoutError, asyncio.CancelledError):
            self.killed += 1
            self._kill()  # the thread's recv ends (EOFError) and the call fails there
            future.add_done_callback(lambda f: f.exception())
            raise

    async def analyze(self, record: GameRecord, context: MatchContext | None = None,
                      level: Level = DEFAULT_LEVEL, *, timeout: float = 120.0) -> GameAnalysis:
        from bot.ai.analysis import analyze  # (the network loads in the worker only)

        return await self.run(analyze, record, context, level, timeout=timeout)

    def _kill(self) -> None:
        process = self._process
        if process is not None and process.is_alive():
            process.kill()
            process.join(5)

    def close(self) -> None:
        """Kill the worker now (an analysis under way is abandoned)."""
        self._kill()
        self._thread.shutdown(wait=False, cancel_futures=True)

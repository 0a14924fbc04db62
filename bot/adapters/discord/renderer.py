"""Board pictures rendered off the event loop, in worker processes.

A board PNG takes about 7 ms of CPU, several times a service action
(``bench/bench_service.py``).  In a thread of the bot process that CPU holds
the interpreter lock: the event loop then waits for it (up to the 5 ms switch
interval each time it wakes), every game's actions slow down together, and
the renders of 200 busy games cannot use a second core.  Worker processes
render in parallel with the loop, which only sends the board view (a small
picklable value) and receives the PNG bytes.

``workers = 0`` renders in a thread of the bot process instead (a machine
where processes cannot be started, or a test).  A worker that dies is
replaced, and the board it was drawing is rendered in a thread, so a reply
never loses its picture.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import multiprocessing
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from render import render_png
from render.view import BoardView

log = logging.getLogger(__name__)


WORKER_NICENESS = 5
"""Render workers yield the CPU to the bot process: its event loop answers every
game (and Discord's heartbeats), so it goes first when both want a core."""


def _start_worker(theme: str) -> None:
    """In each worker at start: lower its priority, then warm up."""
    try:
        os.nice(WORKER_NICENESS)
    except (AttributeError, OSError):  # no nice() here: same priority, still correct
        pass
    _warm(theme)


def _warm(theme: str) -> None:
    """Load the fonts, sprites and palettes once."""
    from render.gallery import examples

    for view in examples().values():
        render_png(view, theme=theme)


class Renderer:
    """``await renderer.png(view)``: PNG bytes of a board, drawn by a worker process."""

    def __init__(self, theme: str = "default", workers: int = 2) -> None:
        self.theme = theme
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor | None:
        if self.workers <= 0:
            return None
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers, mp_context=multiprocessing.get_context("spawn"),
                initializer=_start_worker, initargs=(self.theme,))
        return self._pool

    async def start(self) -> None:
        """Start every worker now (optional: else on the first boards)."""
        pool = self._executor()
        if pool is not None:
            loop = asyncio.get_running_loop()
            try:
                await asyncio.gather(*(loop.run_in_executor(pool, _warm, self.theme)
                                       for _ in range(self.workers)))
            except (BrokenProcessPool, OSError) as error:
                self._no_processes(pool, error)

    async def png(self, view: BoardView) -> bytes:
        job = functools.partial(render_png, view, theme=self.theme)
        pool = self._executor()
        if pool is not None:
            try:
                return await asyncio.get_running_loop().run_in_executor(pool, job)
            except BrokenProcessPool:
                log.warning("a render worker died: starting new ones")
                self._drop(pool)
            except OSError as error:  # no process could be started
                self._no_processes(pool, error)
        return await asyncio.to_thread(job)

    def _drop(self, pool: ProcessPoolExecutor) -> None:
        if self._pool is pool:
            self._pool = None
        pool.shutdown(wait=False, cancel_futures=True)

    def _no_processes(self, pool: ProcessPoolExecutor, error: BaseException) -> None:
        """Worker processes cannot run here: draw in threads from now on."""
        log.warning("render workers cannot start (%s): drawing boards in threads", error)
        self._drop(pool)
        self.workers = 0

    async def picture(self, job: Callable[[], bytes]) -> bytes:
        """PNG bytes of another picture (a tournament bracket): ``job`` is a picklable
        call (a :func:`functools.partial` of a render function), run like a board."""
        pool = self._executor()
        if pool is not None:
            try:
                return await asyncio.get_running_loop().run_in_executor(pool, job)
            except BrokenProcessPool:
                log.warning("a render worker died: starting new ones")
                self._drop(pool)
            except OSError as error:
                self._no_processes(pool, error)
        return await asyncio.to_thread(job)

    async def pngs(self, views: Sequence[BoardView]) -> list[bytes]:
        return list(await asyncio.gather(*(self.png(v) for v in views)))

    def close(self) -> None:
        if self._pool is not None:
            pool, self._pool = self._pool, None
            pool.shutdown(wait=False, cancel_futures=True)

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
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Any

from bot.runtime import worker_setup
from bot.service.core.replies import Picture, PictureKind
from render import render_png
from render.view import BoardView

if TYPE_CHECKING:
    from engine.tournament import TournamentState
    from render.card import PlayerCard
    from render.chart import ChartData
    from render.replay import ReplayFrame
    from render.summary import MatchSummary

log = logging.getLogger(__name__)


WORKER_NICENESS = 5
"""Render workers yield the CPU to the bot process: its event loop answers every
game (and Discord's heartbeats), so it goes first when both want a core."""


def _start_worker(theme: str) -> None:
    """In each worker at start: no Ctrl-C (the bot stops its workers), end with the bot
    even if it is killed outright, lower its priority, then warm up."""
    worker_setup()
    try:
        os.nice(WORKER_NICENESS)
    except (AttributeError, OSError):  # no nice() here: same priority, still correct
        pass
    _warm(theme)


def _warm(theme: str) -> None:
    """Load the fonts, sprites and palettes once (the replays' GIF palettes too)."""
    from render.gallery import examples
    from render.replay import REPLAY_WIDTH, gif_palette
    from render.theme import get_theme

    for view in examples().values():
        render_png(view, theme=theme)
    for chouette in (False, True):
        gif_palette(get_theme(theme), REPLAY_WIDTH, chouette)


def _draw_bracket(state: TournamentState, theme: str, names: dict[str, str]) -> bytes:
    from render.bracket import render_tournament_png

    return render_tournament_png(state, theme, names)


def _draw_replay(frames: tuple[ReplayFrame, ...], theme: str) -> bytes:
    from render.replay import render_replay

    return render_replay(frames, theme=theme).data


def _draw_chart(data: ChartData, theme: str) -> bytes:
    from render.chart import render_chart

    return render_chart(data, theme=theme)


def _draw_card(card: PlayerCard, theme: str) -> bytes:
    from render.card import render_card

    return render_card(card, theme=theme)


def _draw_summary(summary: MatchSummary, theme: str) -> bytes:
    from render.summary import render_summary

    return render_summary(summary, theme=theme)


class Renderer:
    """``await renderer.png(view)``: PNG bytes of a board, drawn by a worker process."""

    def __init__(self, theme: str = "default", workers: int = 2) -> None:
        self.theme = theme
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None
        self.closed = False
        """After :meth:`close` no worker is started again (a late picture: a thread)."""
        self.pending = 0
        """Pictures asked for and not drawn yet (the queue's depth, for metrics)."""
        self.on_drawn: Callable[[float], None] | None = None
        """Told how long each picture took, in seconds (metrics)."""

    def _executor(self) -> ProcessPoolExecutor | None:
        if self.workers <= 0 or self.closed:
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
        return await self._draw(functools.partial(render_png, view, theme=self.theme))

    # The pictures (issue 18), drawn by the same workers.
    async def replay(self, frames: tuple[ReplayFrame, ...]) -> bytes:
        """An animated GIF of a game (:func:`render.replay.render_replay`)."""
        return await self._draw(functools.partial(_draw_replay, tuple(frames), self.theme))

    async def chart(self, data: ChartData) -> bytes:
        return await self._draw(functools.partial(_draw_chart, data, self.theme))

    async def card(self, card: PlayerCard) -> bytes:
        return await self._draw(functools.partial(_draw_card, card, self.theme))

    async def summary(self, summary: MatchSummary) -> bytes:
        return await self._draw(functools.partial(_draw_summary, summary, self.theme))

    async def picture(self, picture: Picture) -> bytes:
        """The bytes of a reply's picture, by its kind."""
        content: Any = picture.content
        if picture.kind is PictureKind.REPLAY:
            return await self.replay(content)
        if picture.kind is PictureKind.CHART:
            return await self.chart(content)
        if picture.kind is PictureKind.CARD:
            return await self.card(content)
        if picture.kind is PictureKind.BRACKET:
            return await self.bracket(content.state, dict(content.names))
        return await self.summary(content)

    async def _draw(self, job: functools.partial[bytes]) -> bytes:
        started = time.perf_counter()
        self.pending += 1
        try:
            return await self._drawn(job)
        finally:
            self.pending -= 1
            if self.on_drawn is not None:
                self.on_drawn(time.perf_counter() - started)

    async def _drawn(self, job: functools.partial[bytes]) -> bytes:
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

    async def bracket(self, state: TournamentState, names: dict[str, str]) -> bytes:
        """A tournament's bracket or standings table (issue 17), as PNG bytes."""
        return await self._draw(functools.partial(_draw_bracket, state, self.theme, names))

    async def pngs(self, views: Sequence[BoardView]) -> list[bytes]:
        return list(await asyncio.gather(*(self.png(v) for v in views)))

    def close(self) -> None:
        self.closed = True
        if self._pool is not None:
            pool, self._pool = self._pool, None
            pool.shutdown(wait=False, cancel_futures=True)

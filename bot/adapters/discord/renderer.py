"""Board pictures rendered off the event loop, in worker processes.

A board PNG takes one to two milliseconds of CPU, about a service action
(``bench/bench_service.py``).  In a thread of the bot process that CPU holds
the interpreter lock: the event loop then waits for it (up to the 5 ms switch
interval each time it wakes), every game's actions slow down together, and
the renders of 200 busy games cannot use a second core.  Worker processes
render in parallel with the loop, which only sends the board view (a small
picklable value) and receives the PNG bytes.

Each worker is joined to the bot by a socket that the event loop itself reads
and writes (issue 35): no executor threads in the bot process taking the
interpreter lock from the loop for every picture (a process pool's feeder and
result threads cost the bot about half a millisecond of CPU per board, a fifth
of a service action).  A job is a pickled callable, its answer the pickled
result or exception, each behind a 4-byte length; a worker has at most
:data:`IN_FLIGHT` jobs at once, answered in order.

``workers = 0`` renders in a thread of the bot process instead (a machine
where processes cannot be started, or a test).  A worker that dies is
replaced at once, and the boards it was drawing are rendered in threads, so a
reply never loses its picture; the boards waiting for a free worker are told
(all of them), and wait for the new worker when none is left.  Workers that
keep dying as they start (:data:`START_TRIES` in a row) leave the boards to
threads for good, saying so.
"""

from __future__ import annotations

import asyncio
import collections
import functools
import logging
import multiprocessing
import os
import pickle
import socket
import struct
import time
from collections.abc import Callable, Sequence
from multiprocessing.process import BaseProcess
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


START_TRIES = 3
START_TIMEOUT = 60.0
"""Seconds a new worker has to start and warm up (about a second, unloaded) before it
counts as dead: the boards waiting for it are not held for ever by a hung one."""
"""Workers that died as they started, in a row, before the renderer draws in threads for
good (a worker killed once as it starts is just started again)."""

IN_FLIGHT = 2
"""Jobs sent to one worker before its first answer: it starts the next picture while
the loop reads the one it finished."""

_LENGTH = struct.Struct(">I")


def _receive(sock: socket.socket, size: int) -> bytes | None:
    """Exactly ``size`` bytes, or None at the end of the stream."""
    buf = bytearray()
    while len(buf) < size:
        chunk = sock.recv(size - len(buf))
        if not chunk:
            return None
        buf += chunk
    return bytes(buf)


def _serve(sock: socket.socket, theme: str) -> None:
    """A worker process: set up and warm, then answer jobs until the bot closes the socket."""
    _start_worker(theme)
    with sock:
        while True:
            head = _receive(sock, _LENGTH.size)
            if head is None:
                return
            body = _receive(sock, _LENGTH.unpack(head)[0])
            if body is None:
                return
            try:
                answer: tuple[bool, Any] = (True, pickle.loads(body)())
            except Exception as error:  # sent back: the caller raises it
                answer = (False, error)
            try:
                data = pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)
            except Exception as error:  # an unpicklable exception: its words
                data = pickle.dumps((False, RuntimeError(repr(error))))
            sock.sendall(_LENGTH.pack(len(data)) + data)


class _WorkerDied(Exception):
    """The worker's socket closed before its answer."""


class _DiedStarting(OSError):
    """A worker ended before its first answer (killed, or it cannot run here)."""


class _Worker:
    """One worker process and the loop's end of its socket."""

    def __init__(self, process: BaseProcess, reader: asyncio.StreamReader,
                 writer: asyncio.StreamWriter) -> None:
        self.process = process
        self.reader = reader
        self.writer = writer
        self.waiting: collections.deque[asyncio.Future[bytes]] = collections.deque()
        self.alive = True
        self.reading: asyncio.Task[None] | None = None
        self.on_end: Callable[[], None] | None = None
        """Called once when the worker's socket closes (it died, or was stopped)."""

    def send(self, job: Callable[[], Any]) -> asyncio.Future[bytes]:
        future: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        data = pickle.dumps(job, protocol=pickle.HIGHEST_PROTOCOL)
        self.waiting.append(future)
        self.writer.write(_LENGTH.pack(len(data)) + data)
        return future

    async def read(self) -> None:
        """Answers, in the order of the jobs, until the socket closes."""
        try:
            while True:
                head = await self.reader.readexactly(_LENGTH.size)
                body = await self.reader.readexactly(_LENGTH.unpack(head)[0])
                future = self.waiting.popleft()
                if not future.done():
                    future.set_result(body)
        except (asyncio.IncompleteReadError, OSError, IndexError):
            pass
        finally:
            self.stop()
            on_end, self.on_end = self.on_end, None
            if on_end is not None:
                on_end()

    def stop(self) -> None:
        """No more jobs; every job waiting fails (drawn in a thread by its caller)."""
        if not self.alive and not self.waiting:
            return
        self.alive = False
        while self.waiting:
            future = self.waiting.popleft()
            if not future.done():
                future.set_exception(_WorkerDied())
        self.writer.close()
        if self.process.is_alive():
            self.process.kill()
        self.process.join(timeout=1.0)


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
        self._live: list[_Worker] = []
        self._starting: asyncio.Task[None] | None = None
        self.closed = False
        """After :meth:`close` no worker is started again (a late picture: a thread)."""
        self.pending = 0
        """Pictures asked for and not drawn yet (the queue's depth, for metrics)."""
        self.on_drawn: Callable[[float], None] | None = None
        """Told how long each picture took, in seconds (metrics)."""
        self._free: asyncio.Condition | None = None
        self._waking: set[asyncio.Task[None]] = set()

    @property
    def pids(self) -> list[int]:
        """The process ids of the live workers."""
        return [w.process.pid for w in self._live if w.alive and w.process.pid is not None]

    async def start(self) -> None:
        """Start every worker now (optional: else on the first boards)."""
        await self._workers()
        if self._starting is not None:
            await asyncio.shield(self._starting)

    async def _workers(self) -> list[_Worker]:
        """The live workers; the missing ones started again (waited for only when none
        is left).  Empty: draw in a thread."""
        self._live = [w for w in self._live if w.alive]
        if self.workers <= 0 or self.closed:
            return []
        if len(self._live) < self.workers:
            if self._starting is None:
                self._starting = asyncio.get_running_loop().create_task(self._top_up())
            if not self._live:
                await asyncio.shield(self._starting)
        return [w for w in self._live if w.alive]

    async def _top_up(self) -> None:
        died = 0
        try:
            while len([w for w in self._live if w.alive]) < self.workers and not self.closed:
                try:
                    worker = await self._spawn()
                except _DiedStarting as error:
                    died += 1
                    if died >= START_TRIES:
                        raise _DiedStarting(f"{died} render workers in a row ended as "
                                            "they started") from None
                    log.warning("%s: starting another", error)
                    continue
                died = 0
                if self.closed:
                    worker.stop()
                    return
                self._live.append(worker)
                await self._wake()  # boards waiting for a free worker: here is one
        except OSError as error:  # no process could be started
            self._no_processes(error)
        finally:
            self._starting = None
            if self.workers <= 0 or self.closed:
                await self._wake()  # (the boards waiting go to threads)

    def _ended(self) -> None:
        """A worker ended (killed, crashed): start its replacement now, not at the next
        picture, and tell every board waiting for a free worker."""
        if self.closed:
            return
        loop = asyncio.get_running_loop()
        if self._starting is None and self.workers > 0:
            self._live = [w for w in self._live if w.alive]
            self._starting = loop.create_task(self._top_up())
        waking = loop.create_task(self._wake())
        self._waking.add(waking)  # (a reference keeps the task alive)
        waking.add_done_callback(self._waking.discard)

    async def _wake(self) -> None:
        """Every board waiting for a free worker looks again (the workers changed)."""
        if self._free is not None:
            async with self._free:
                self._free.notify_all()

    async def _spawn(self) -> _Worker:
        mine, theirs = socket.socketpair()
        context = multiprocessing.get_context("spawn")
        process = context.Process(target=_serve, args=(theirs, self.theme), daemon=True,
                                  name="bgbot-render")
        try:
            process.start()
        finally:
            theirs.close()
        try:
            reader, writer = await asyncio.open_unix_connection(sock=mine)
        except OSError:
            process.kill()
            raise
        worker = _Worker(process, reader, writer)
        worker.reading = asyncio.get_running_loop().create_task(worker.read())
        try:  # warmed up once it answers
            await asyncio.wait_for(worker.send(functools.partial(os.getpid)), START_TIMEOUT)
        except _WorkerDied:
            raise _DiedStarting("a render worker ended as it started") from None
        except TimeoutError:
            worker.stop()
            raise _DiedStarting("a render worker did not answer within "
                                f"{START_TIMEOUT:.0f} s of starting") from None
        if worker.alive:  # from now on its end is replaced at once
            worker.on_end = self._ended
        return worker

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

    async def _sent(self, job: functools.partial[bytes]) -> asyncio.Future[bytes] | None:
        """``job`` sent to the live worker with the fewest jobs, once one has fewer than
        :data:`IN_FLIGHT`; while no worker is live, after the new ones started (None:
        there are none, draw in a thread)."""
        while True:
            if not await self._workers():
                return None
            if self._free is None:
                self._free = asyncio.Condition()
            async with self._free:
                while True:
                    live = [w for w in self._live if w.alive]
                    if not live:
                        break  # (all died meanwhile: wait for the new ones, above)
                    worker = min(live, key=lambda w: len(w.waiting))
                    if len(worker.waiting) < IN_FLIGHT:
                        return worker.send(job)
                    await self._free.wait()

    async def _drawn(self, job: functools.partial[bytes]) -> bytes:
        future = await self._sent(job)
        if future is None:
            return await asyncio.to_thread(job)
        assert self._free is not None
        try:
            data = await future
        except _WorkerDied:  # (its replacement is on its way: Renderer._ended)
            log.warning("a render worker died: drawing its board in a thread")
            return await asyncio.to_thread(job)
        finally:
            async with self._free:
                self._free.notify()
        ok, value = pickle.loads(data)
        if not ok:
            raise value
        return value  # type: ignore[no-any-return]

    def _no_processes(self, error: BaseException) -> None:
        """Worker processes cannot run here: draw in threads from now on."""
        log.warning("render workers cannot run here (%s): drawing boards in threads",
                    error)
        for worker in self._live:
            worker.stop()
        self._live = []
        self.workers = 0

    async def bracket(self, state: TournamentState, names: dict[str, str]) -> bytes:
        """A tournament's bracket or standings table (issue 17), as PNG bytes."""
        return await self._draw(functools.partial(_draw_bracket, state, self.theme, names))

    async def pngs(self, views: Sequence[BoardView]) -> list[bytes]:
        return list(await asyncio.gather(*(self.png(v) for v in views)))

    def close(self) -> None:
        self.closed = True
        live, self._live = self._live, []
        for worker in live:
            worker.stop()

"""The console's session: the lines typed (or a script), each run as one action; the
service, its AI workers, the grader and the ops endpoint started and stopped around it."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sys
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path

from bot.adapters.console.app import Console
from bot.adapters.console.due import due_work
from bot.adapters.console.screen import user_id
from bot.ai.runner import runner_from_config
from bot.config import Config
from bot.ops.endpoint import ops_endpoint
from bot.ops.logs import apology, error_reference
from bot.ops.metrics import observer_for
from bot.runtime import Stopper, stop_children
from bot.service.core.boot import StorageError, storage_for, where
from bot.service.core.lifecycle import DRAIN_SECONDS
from bot.service.core.replies import Reply
from bot.service.game import GameService

log = logging.getLogger(__name__)

STOPPED = ("bgbot console stopped (Ctrl-C or SIGTERM): every move made is saved; start it "
           "again to go on where you left off.")
"""What the console says when a signal stopped it (issue 42 item 18: it said nothing)."""


class StdinLines:
    """The lines typed (or piped) into standard input, read by a daemon thread with
    ``os.read``: waiting for the next line never holds up the event loop, so Ctrl-C or
    SIGTERM at the prompt stop the console at once (``input()`` in a worker thread kept
    the process until Enter was pressed)."""

    def __init__(self, fd: int = 0) -> None:
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        loop = asyncio.get_running_loop()

        def put(line: str | None) -> None:
            with contextlib.suppress(RuntimeError):  # the loop already closed
                loop.call_soon_threadsafe(self.queue.put_nowait, line)

        def read() -> None:
            pending = b""
            try:
                while chunk := os.read(fd, 65536):
                    *lines, pending = (pending + chunk).split(b"\n")
                    for raw in lines:
                        put(raw.decode("utf-8", "replace"))
            except OSError:
                pass
            if pending:
                put(pending.decode("utf-8", "replace"))
            put(None)

        threading.Thread(target=read, name="console-stdin", daemon=True).start()

    async def get(self) -> str | None:
        """The next line (None at the end of the input)."""
        return await self.queue.get()


async def next_line(source: StdinLines | Iterator[str],
                    stopped: asyncio.Event) -> str | None:
    """The next line of ``source``, or None at its end or once the console is stopped."""
    if not isinstance(source, StdinLines):
        return None if stopped.is_set() else next(source, None)
    reading = asyncio.ensure_future(source.get())
    stop = asyncio.ensure_future(stopped.wait())
    await asyncio.wait({reading, stop}, return_when=asyncio.FIRST_COMPLETED)
    stop.cancel()
    if not reading.done():
        reading.cancel()
        return None
    return reading.result()


async def handle_line(console: Console, line: str, stopped: asyncio.Event) -> bool:
    """Run one line; once the console is stopped, the action in flight has
    ``DRAIN_SECONDS`` to commit (else it is cancelled: its transaction rolls back).  An
    unexpected error is logged with a reference that the apology shows."""
    task = asyncio.ensure_future(console.handle(line))
    stop = asyncio.ensure_future(stopped.wait())
    await asyncio.wait({task, stop}, return_when=asyncio.FIRST_COMPLETED)
    if not task.done():
        await asyncio.wait({task}, timeout=DRAIN_SECONDS)
    stop.cancel()
    if not task.done():
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        return False
    try:
        return task.result()
    except Exception as error:  # a bug: the player gets a reference to quote
        ref = error_reference()
        log.error("unexpected error %s in %r", ref, line[:200], exc_info=error)
        console.say(f"  (only you see this) {apology(ref)}")
        return True


async def run(config: Config, lines: Iterable[str] | None, boards: Path,
               echo: bool) -> int:
    stopper = Stopper().install()
    try:
        storage = storage_for(config)
        try:
            await storage.open()
        except StorageError as error:
            print(f"bgbot: cannot start: {error}", file=sys.stderr)
            return 1
        runner = runner_from_config(config.ai)
        service = GameService(storage, config, ai=runner, observer=observer_for(config))
        lifecycle = service.lifecycle
        lifecycle.on_stop("the storage", storage.close)  # registered first: closed last
        stopper.on_stop = lifecycle.refuse_new
        try:
            if runner is not None:
                lifecycle.on_stop("the AI workers", runner.close)
                await runner.start()
                service.set_ai_user(user_id(config.ai.name), config.ai.name)
            async with ops_endpoint(config, service):
                return await session(service, boards, lines, echo, stopper.stopped)
        finally:
            await lifecycle.stop()
            await asyncio.to_thread(stop_children)
    finally:
        stopper.remove()


async def session(service: GameService, boards: Path, lines: Iterable[str] | None,
                   echo: bool, stopped: asyncio.Event) -> int:
    console = Console(service, boards)
    config = service.config
    if service.ai is not None:  # issue 33 (what is graded: each server's grade_matches)
        from bot.ai.background import BackgroundAnalyser

        async def post(channel: int, reply: Reply) -> None:
            console.say(f"  (graded, posted in #{console.channel_name(channel)})")
            await console.show(reply)

        grader = service.grader(BackgroundAnalyser(nice=config.analysis.grade_nice), post)
        # A match being graded goes back to the queue; stopped before the storage closes.
        service.lifecycle.on_stop("the grader", grader.stop)
        grader.start()
    console.say(f"bgbot console: {where(service.config)}, boards in {boards}/. "
                "Type /help. Act as a player by naming them first, like "
                "\"alice: /challenge @bob\" or \"alice: /challenge @gnubot\".")
    await console.resume()
    prompt = lines is None and sys.stdin.isatty()
    source: StdinLines | Iterator[str] = iter(lines) if lines is not None else StdinLines()
    async with due_work(console):  # tournament rounds, reminders (issue 42 item 18)
        while True:
            if prompt:
                print("> ", end="", flush=True)
            line = await next_line(source, stopped)
            if line is None and not stopped.is_set():
                if prompt:
                    print()
                return 0
            if line is not None and echo and line.strip():
                console.say(f"> {line.rstrip()}")
            if line is None or not await handle_line(console, line, stopped) or (
                    stopped.is_set()):
                if stopped.is_set():
                    if prompt:
                        print()
                    console.say(STOPPED)
                return 0


def run_console(config: Config, *, script: str | None = None, boards: str | None = None) -> int:
    """Start the console mode (reads the keyboard, standard input, or ``script``)."""
    folder = Path(boards or config.render.board_dir)
    lines: Iterable[str] | None = None
    if script is not None and script != "-":
        try:
            lines = Path(script).read_text(encoding="utf-8").splitlines()
        except OSError as exc:
            print(f"cannot read script {script}: {exc.strerror}", file=sys.stderr)
            return 2
    echo = script is not None or not sys.stdin.isatty()
    try:
        return asyncio.run(run(config, lines, folder, echo=echo))
    except KeyboardInterrupt:  # before the handlers were installed
        return 0

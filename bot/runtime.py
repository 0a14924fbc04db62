"""Process settings of a long-running bot (applied by ``python -m bot``): the garbage
collector's, and how the process stops (:class:`Stopper`, :func:`stop_children`).

Garbage collector.  The service keeps every active game's rebuilt state in
memory and replaces it at each action, so many objects live for a few hundred
milliseconds: long enough to be promoted to the oldest generation, where a
full collection walks everything.  Measured with 200 games at 450 actions/s
(12 s, two runs each): CPython's defaults paused the event loop for up to
90 ms, 690-775 ms in all; with :func:`tune_gc`, which moves what start-up
allocated (modules, tables, caches) out of the collector's sight with
``gc.freeze()`` and collects the young generations less often, at most
22-29 ms, 400-425 ms in all.  ``bench/bench_service.py`` runs with it, as the
bot does.  Reference cycles are still collected.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable

GC_THRESHOLDS = (5_000, 20, 20)
"""Young-generation allocations before a collection, then how many collections
of one generation before the next is collected (CPython's default: 700, 10, 10)."""


def tune_gc() -> None:
    """Freeze the objects allocated so far and raise the collection thresholds."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


# -- stopping: signals, worker processes ----------------------------------------------------

log = logging.getLogger(__name__)

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


class Stopper:
    """SIGTERM and SIGINT (Ctrl-C) on the running event loop: the first calls ``on_stop``
    once (the bot stops taking actions, lets the ones in flight finish, closes what it
    opened and exits with status 0); a second one ends the process at once (its worker
    processes killed first, so none is left behind), with status 128 + the signal.

    ``stopped`` is set by the first signal, for loops that wait on it."""

    def __init__(self, on_stop: Callable[[], object] | None = None) -> None:
        self.on_stop = on_stop
        self.stopped = asyncio.Event()
        self.signal: int | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def install(self) -> Stopper:
        self._loop = asyncio.get_running_loop()
        for sig in STOP_SIGNALS:
            try:
                self._loop.add_signal_handler(sig, self._received, sig)
            except (NotImplementedError, RuntimeError, ValueError):  # not the main thread
                pass
        return self

    def remove(self) -> None:
        if self._loop is not None:
            for sig in STOP_SIGNALS:
                with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                    self._loop.remove_signal_handler(sig)
            self._loop = None

    def _received(self, sig: int) -> None:
        if self.signal is not None:
            print(f"bgbot: {signal.Signals(sig).name} again: stopping at once",
                  file=sys.stderr, flush=True)
            kill_children()
            os._exit(128 + sig)
        self.signal = sig
        log.info("%s received: stopping (send it again to stop at once)",
                 signal.Signals(sig).name)
        self.stopped.set()
        if self.on_stop is not None:
            self.on_stop()


def kill_children() -> None:
    """Kill this process's worker processes now (SIGKILL)."""
    for child in multiprocessing.active_children():
        with contextlib.suppress(OSError, ValueError):
            child.kill()


def stop_children(timeout: float = 3.0) -> list[int]:
    """Wait up to ``timeout`` seconds for this process's worker processes (render, AI) to
    end after their pools were shut down, then terminate what is left (SIGTERM, then
    SIGKILL); the pids that had to be terminated."""
    deadline = time.monotonic() + timeout
    forced: list[int] = []
    for child in multiprocessing.active_children():
        child.join(max(0.0, deadline - time.monotonic()))
        # ``join`` returns as soon as the child has closed its end of the sentinel pipe,
        # which it does a moment before it can be reaped: a child on its way out is not
        # one to terminate, so look again until it is gone or the time is up.
        while child.is_alive() and time.monotonic() < deadline:
            time.sleep(0.01)
            child.join(max(0.0, deadline - time.monotonic()))
        if child.is_alive():
            forced.append(child.pid or 0)
            child.terminate()
            child.join(1.0)
            if child.is_alive():
                child.kill()
                child.join(1.0)
    return forced


def worker_setup() -> None:
    """In a worker process (render, AI, grading), at its start, before any other thread:
    leave the signals meant for the bot to the bot, and end with the bot if it is killed
    outright (kill -9 leaves no orphan worker behind).

    A signal to the whole process group or service reaches the workers too: the
    terminal's Ctrl-C sends SIGINT to every process of the foreground group, and systemd
    (``KillMode=control-group``) SIGTERMs every process of the service at once (so does
    ``kill -TERM -PGID``).  The bot answers such a signal by stopping cleanly -- the
    actions in flight finish, a grading job goes back to the queue -- and then stops its
    workers itself, so a worker must outlive it (issue 43 item 3): SIGINT is ignored, and
    SIGTERM ends the worker only when the bot sends it (:func:`stop_children`, a broken
    pool's clean-up); one from anyone else is ignored.  (SIGTERM is blocked in every
    thread and taken by one that reads who sent it.)"""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = os.getppid()
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})  # (inherited by threads)

    def terms() -> None:
        while True:
            info = signal.sigwaitinfo({signal.SIGTERM})
            if info.si_pid == parent:  # the bot stops its worker
                os._exit(128 + signal.SIGTERM)

    def watch() -> None:
        while True:
            time.sleep(1.0)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=terms, name="sigterm-from-parent", daemon=True).start()
    threading.Thread(target=watch, name="parent-watch", daemon=True).start()

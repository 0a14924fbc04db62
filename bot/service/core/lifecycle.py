"""How a running service stops: no new actions, the ones in flight finish, then whatever
was registered is closed, in the reverse order of registration.

:class:`Lifecycle` is the one registry of what must stop with the bot.  The service owns
one (``GameService.lifecycle``); the action runner asks it before each action
(:meth:`Lifecycle.begin` / :meth:`Lifecycle.end`), so once :meth:`Lifecycle.stop` has begun a
new action is refused ("the bot is restarting") while an action already under way commits or
rolls back as usual.  Whoever starts something that must be stopped registers it with
:meth:`Lifecycle.on_stop`: the adapters their storage, AI and render workers, a background
queue its worker.  ``python -m bot`` calls :meth:`Lifecycle.stop` on SIGTERM or Ctrl-C
(:mod:`bot.runtime`).
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import time
from collections.abc import Awaitable, Callable

log = logging.getLogger(__name__)

Closer = Callable[[], Awaitable[None] | None]

STOPPING = ("The bot is restarting: your action was not applied. Try again in a minute, "
            "once it is back.")
"""The refusal of an action that arrives after the stop began."""
DRAIN_SECONDS = 5.0
"""How long :meth:`Lifecycle.stop` waits for the actions in flight (then they are left to the
event loop's end, which cancels them: a cancelled transaction rolls back)."""
CLOSE_SECONDS = 5.0
"""How long each registered closer may take."""


class Lifecycle:
    """The actions in flight and what to close when the service stops."""

    def __init__(self) -> None:
        self.accepting = True
        """False once :meth:`stop` began: new actions are refused with :data:`STOPPING`."""
        self.in_flight = 0
        self._idle: asyncio.Event | None = None
        self._closers: list[tuple[str, Closer]] = []
        self._stopped = False

    # -- the actions ------------------------------------------------------------------

    def begin(self) -> bool:
        """An action starts (False: refuse it, the service is stopping)."""
        if not self.accepting:
            return False
        self.in_flight += 1
        return True

    def refuse_new(self) -> None:
        """From now on, refuse new actions (the stop has begun)."""
        self.accepting = False

    def end(self) -> None:
        """The action that :meth:`begin` let in has committed or rolled back."""
        self.in_flight -= 1
        if self.in_flight <= 0 and self._idle is not None:
            self._idle.set()

    async def drain(self, timeout: float = DRAIN_SECONDS) -> bool:
        """Take no new action and wait (at most ``timeout`` seconds) for the ones in flight;
        True when none is left."""
        self.accepting = False
        if self.in_flight <= 0:
            return True
        self._idle = asyncio.Event()
        try:
            await asyncio.wait_for(self._idle.wait(), timeout)
        except TimeoutError:
            log.warning("stopping: %d action(s) still running after %.0f s", self.in_flight,
                        timeout)
            return False
        return True

    # -- what to close ----------------------------------------------------------------

    def on_stop(self, name: str, closer: Closer) -> None:
        """Call ``closer`` (a function or a coroutine function) when the service stops,
        before everything registered earlier (the storage, registered first, closes last)."""
        self._closers.append((name, closer))

    async def stop(self, drain: float = DRAIN_SECONDS, each: float = CLOSE_SECONDS) -> None:
        """Refuse new actions, let those in flight finish, then close what was registered,
        last registered first; each closer is bounded by ``each`` seconds and a failing one
        is logged and skipped.  A second call does nothing."""
        if self._stopped:
            return
        self._stopped = True
        started = time.monotonic()
        await self.drain(drain)
        while self._closers:
            name, closer = self._closers.pop()
            try:
                result = closer()
                if inspect.isawaitable(result):
                    await asyncio.wait_for(result, each)
            except TimeoutError:
                log.warning("stopping: %s did not close within %.0f s", name, each)
            except Exception:
                log.exception("stopping: %s failed to close", name)
        log.info("stopped in %.2f s", time.monotonic() - started)

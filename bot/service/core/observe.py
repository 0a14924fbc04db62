"""What the service tells an operator about its actions, without depending on how it is shown.

Every action passes through :meth:`~bot.service.core.runner.ActionRunner.transact`, which
reports it here as an :class:`ActionEvent` (its kind, its place, its outcome, how long it
took) to the service's :class:`Observer`.  The service only knows this small protocol: the
runtime wires it to Prometheus and the logs (:mod:`bot.ops.metrics`), a test to a list, and
by default nothing listens.  The kind of an action ("roll", "move", "tournament create",
...) is named by the entry point that starts it (:func:`naming`), so nested calls keep the
outermost name.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol

from bot.service.core.values import Place

COMMITTED = "committed"
REFUSED = "refused"
OUTCOMES = (COMMITTED, REFUSED)
REASONS = ("refusal", "rule", "stale", "busy", "unavailable", "stopping", "error")
"""Why an action was refused: a service rule (``refusal``), the engine's rules (``rule``),
another action first (``stale``), the database busy or unavailable, the bot stopping, or
an unexpected error (the player sees an apology with a reference)."""

_KIND: contextvars.ContextVar[str | None] = contextvars.ContextVar("action_kind", default=None)


@dataclass(frozen=True, slots=True)
class ActionEvent:
    kind: str
    place: Place
    actor_id: int
    outcome: str
    """:data:`COMMITTED` or :data:`REFUSED`."""
    reason: str
    """For a refusal, one of :data:`REASONS`; "" when committed."""
    seconds: float
    """From the action's start (before the channel's lock) to its commit or refusal."""


class Observer(Protocol):
    """Told of every action the service runs."""

    def action(self, event: ActionEvent) -> None: ...


class NullObserver:
    """Listens to nothing (the default)."""

    def action(self, event: ActionEvent) -> None:
        del event


_PREFIXES = {"Commands": "", "Challenges": "", "Concessions": "", "Sessions": "",
             "ActionRunner": "", "Tournaments": "tournament", "TournamentAdmin": "tournament",
             "TournamentPlay": "tournament", "TournamentInfo": "tournament",
             "ChouetteService": "chouette", "PostedMessages": "posted"}
"""How a feature's class is named in an action's kind ("tournament create", "chouette join")."""


def kind_of(fn: Callable[..., Any]) -> str:
    """An action's kind from the function that runs it, when no entry point named it:
    ``Tournaments.create.<locals>.body`` is "tournament create"."""
    name = getattr(fn, "__qualname__", "").split(".<locals>")[0]
    owner, _, method = name.rpartition(".")
    prefix = _PREFIXES.get(owner, owner.lower())
    return f"{prefix} {method.strip('_')}".strip() or "other"


def current_kind(fallback: Callable[..., Any] | None = None) -> str:
    """The kind of the action being run (its entry point's name, else ``fallback``'s)."""
    kind = _KIND.get()
    if kind is not None:
        return kind
    return kind_of(fallback) if fallback is not None else "other"


@contextlib.contextmanager
def naming(kind: str) -> Iterator[None]:
    """Name the actions started inside (the outermost name wins)."""
    if _KIND.get() is not None:
        yield
        return
    token = _KIND.set(kind)
    try:
        yield
    finally:
        _KIND.reset(token)

"""The action table: each :class:`~bot.service.core.replies.Action` and the one service call
that performs it.  Buttons, the AI and the console all act through :meth:`ActionTable.act`;
the Discord cogs call it from their (one-line) command bodies."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.service.analysis.service import Analysis
from bot.service.builder.service import Builder
from bot.service.core.limits import shown
from bot.service.core.observe import naming
from bot.service.core.replies import Action, Reply
from bot.service.core.values import Actor, Expect, Place
from bot.service.lobby.open import OpenChallenges
from bot.service.play.challenges import Challenges
from bot.service.play.commands import Commands
from bot.service.play.concede import Concessions
from bot.service.play.session import Sessions
from bot.service.play.watch import Watch

Call = Callable[[Place, Actor, str, Expect | None], Awaitable[Reply]]
NEEDS_OPTION = {Action.MOVE: "Say which moves to make, e.g. /move 13/7 8/7.",
                Action.CHOOSE: "Say which option you choose.",
                Action.STEP: "Say which step to take, e.g. /step 2 (/steps lists them)."}
TAKES_OPTION = frozenset({Action.MOVE, Action.CHOOSE, Action.RESIGN, Action.FORFEIT,
                          Action.STEPS, Action.STEP})
"""The actions that read an ``option``; the others refuse one rather than drop it."""


class ActionTable:
    """Every action, defined once."""

    def __init__(self, challenges: Challenges, commands: Commands, concessions: Concessions,
                 watch: Watch, sessions: Sessions, analysis: Analysis,
                 builder: Builder, open_challenges: OpenChallenges) -> None:
        c, k, b = commands, concessions, builder
        self._calls: dict[Action, Call] = {
            Action.ACCEPT: lambda p, a, o, e: open_challenges.accept(p, a, e),
            Action.DECLINE: lambda p, a, o, e: challenges.decline(p, a, e),
            Action.CANCEL: lambda p, a, o, e: challenges.cancel(p, a, e),
            Action.ROLL: lambda p, a, o, e: c.roll(p, a, e),
            Action.DOUBLE: lambda p, a, o, e: c.double(p, a, e),
            Action.TAKE: lambda p, a, o, e: c.take(p, a, e),
            Action.DROP: lambda p, a, o, e: c.drop(p, a, e),
            Action.BEAVER: lambda p, a, o, e: c.beaver(p, a, e),
            Action.MOVE: lambda p, a, o, e: c.move(p, a, o, e),
            Action.UNDO: lambda p, a, o, e: c.undo(p, a, e),
            Action.CONFIRM: lambda p, a, o, e: c.confirm(p, a, e),
            Action.CHOOSE: lambda p, a, o, e: c.choose(p, a, o, e),
            Action.RESIGN: lambda p, a, o, e: k.resign(p, a, o or "single", e),
            Action.ACCEPT_RESIGNATION: lambda p, a, o, e: k.answer_resignation(p, a, True, e),
            Action.REJECT_RESIGNATION: lambda p, a, o, e: k.answer_resignation(p, a, False, e),
            Action.CLAIM: lambda p, a, o, e: k.claim(p, a, e),
            Action.FORFEIT: lambda p, a, o, e: k.forfeit(p, a, e, confirm=o == "confirm"),
            Action.BOARD: lambda p, a, o, e: watch.board(p, a),
            Action.STOP: lambda p, a, o, e: sessions.stop(p, a, e),
            Action.REMATCH: lambda p, a, o, e: sessions.rematch(p, a, e),
            Action.ANALYZE: lambda p, a, o, e: analysis.analyze(p, a, whole_match=True, expect=e),
            Action.STEPS: lambda p, a, o, e: b.steps(p, a, o, e),
            Action.STEP: lambda p, a, o, e: b.step(p, a, o, e),
            Action.UNDO_STEP: lambda p, a, o, e: b.undo_step(p, a, e),
            Action.START_OVER: lambda p, a, o, e: b.start_over(p, a, e),
        }
        missing = set(Action) - set(self._calls)
        assert not missing, f"actions without a call: {missing}"

    async def act(self, action: Action, place: Place, actor: Actor, *,
                  option: str | None = None, expect: Expect | None = None) -> Reply:
        """Perform ``action`` for ``actor`` in ``place`` (``option``: the moves, the choice,
        the resignation's kind; ``expect``: the state a button was shown for)."""
        if option is None and action in NEEDS_OPTION:
            return Reply.refuse(NEEDS_OPTION[action])
        extra = (option or "").strip()
        if extra and action not in TAKES_OPTION:
            return Reply.refuse(f"/{action.value} takes nothing after it, so nothing was "
                                f"done: send /{action.value} alone (not {shown(extra, 20)}).")
        with naming(action.value):
            return await self._calls[action](place, actor, option or "", expect)

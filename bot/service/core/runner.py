"""The action runner: how every action on a channel commits.

Every state-changing call is **one transaction**:

1. take the channel's in-process lock (two clicks in one process queue up);
2. open a storage transaction with ``Storage.run`` (``BEGIN IMMEDIATE`` on SQLite;
   on PostgreSQL the channel's advisory lock first, and the whole body re-run,
   bounded, when the server aborted it before anything committed); load the
   channel's match, its current game and the game's events; rebuild the engine
   state (cached per match version);
3. check the state version a button was made for (:class:`~bot.service.core.values.Expect`);
4. run the command on a :class:`~bot.service.core.work.Work`: it checks who acts,
   applies engine transitions, draws dice from the game's seed;
5. append the new events, update the game row and the match row with an
   optimistic version check (``UPDATE ... WHERE version = ?``), commit, and
   build the reply (:mod:`bot.service.core.present`).

Any refusal (service rule or engine error) rolls the transaction back and returns
an ephemeral reply with the reason, so bad input never changes state; a database
that is away or busy answers "try again" the same way (:class:`StorageError`).  The
commands (:mod:`bot.service.play.commands`), the chouette (:mod:`bot.service.chouette.service`)
and the look-only commands (:mod:`bot.service.analysis.service`) all go through this API.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import datetime
from typing import Any

from bot.service.core import fairdice, present, takeback
from bot.service.core.lifecycle import STOPPING, Lifecycle
from bot.service.core.observe import (
    COMMITTED,
    REFUSED,
    ActionEvent,
    NullObserver,
    Observer,
    kind_of,
    naming,
)
from bot.service.core.observe import current_kind as action_kind
from bot.service.core.replies import Refusal, Reply
from bot.service.core.state import MatchState
from bot.service.core.values import Actor, Expect, Place, check_id, check_place
from bot.service.core.work import Loaded, Seating, Work
from bot.storage.interface import (
    GameStatus,
    MatchRow,
    MatchStatus,
    StaleVersionError,
    Storage,
    StorageBusy,
    StorageError,
    Transaction,
)
from bot.storage.replay import player_names, replay_game
from engine.errors import BackgammonError
from engine.match import Match, MoneySession, Session
from engine.player import Player
from engine.rules import RuleOptions
from engine.scoring import EndReason, Result, ResultKind
from engine.variant import get_variant

log = logging.getLogger(__name__)

CACHE_LIMIT = 2000
"""Matches (and channel locks) kept in memory; older ones are reloaded from storage."""
ACTIVE = (MatchStatus.ACTIVE,)

Op = Callable[[Work], Awaitable[None]]
"""A command's body: changes the work or raises a refusal."""


class NoGameHere(Refusal):
    """No open match in the channel (a command typed there may find one in a thread)."""


NO_GAME = "There is no game in this channel. Start one with /challenge @user."
NO_CHALLENGE = ("There is no challenge waiting in this channel: challenges are answered "
                "where they were made (/challenge @user to make one).")


def result_from_dict(data: dict[str, Any]) -> Result:
    return Result(
        winner=Player[str(data["winner"]).upper()],
        kind=ResultKind[str(data["kind"]).upper()],
        reason=EndReason(data["reason"]),
        cube=int(data["cube"]),
        points=int(data["points"]),
        counted=ResultKind[str(data["counted"]).upper()],
    )


def new_session(row: MatchRow) -> Session:
    """The match or money session of ``row`` as it stood before its first game."""
    rules = RuleOptions.from_dict(row.rules)
    variant = get_variant(row.variant)()
    if row.length > 0:
        return Match.new(row.length, rules, variant)
    return MoneySession.new(rules, variant, row.stake)


def reason_class(error: BaseException) -> str:
    """The class of a refusal, for the operator's counts (see :data:`observe.REASONS`)."""
    if isinstance(error, StaleVersionError):
        return "stale"
    if isinstance(error, StorageBusy):
        return "busy"
    if isinstance(error, StorageError):
        return "unavailable"
    if isinstance(error, BackgammonError):
        return "rule"
    if isinstance(error, Refusal):
        return "refusal"
    return "error"


def refusal_text(error: Exception) -> str | None:
    """The reason to show for an error that refuses an action (None: not a refusal)."""
    if isinstance(error, Refusal | BackgammonError | StorageError):
        return str(error)
    if isinstance(error, StaleVersionError):
        return ("The game moved on before your action arrived "
                "(someone acted at the same moment): look at the new board.")
    return None


class ActionRunner:
    """Runs actions as transactions on one storage, with the channel locks, the cache of
    loaded matches, and the dice and clock of the service."""

    def __init__(self, storage: Storage, *, new_seed: Callable[[], str],
                 dice: Callable[[str, int], fairdice.DiceStream],
                 clock: Callable[[], datetime],
                 seating: Callable[[MatchRow], Seating], analysis: bool = False,
                 lifecycle: Lifecycle | None = None, observer: Observer | None = None) -> None:
        self.storage = storage
        self.lifecycle = lifecycle or Lifecycle()
        """Refuses new actions once the service stops (and counts those in flight)."""
        self.observer: Observer = observer or NullObserver()
        """Told of every action: its kind, place, outcome and time (metrics, logs)."""
        self.analysis = analysis
        """Whether this server analyses games (the AI is on): a match's end offers it."""
        self.new_seed = new_seed
        """Makes each game's secret seed."""
        self.dice = dice
        """``dice(seed, start)``: the stream of dice of a game."""
        self.clock = clock
        self.seating = seating
        """The seating strategy of a match row (two players, or a chouette game)."""
        self._locks: dict[int, asyncio.Lock] = {}
        self._cache: dict[int, tuple[int, Loaded]] = {}
        self._names: dict[int, str] = {}
        """User names this process has stored (no need to write them again)."""
        self.guards: list[Callable[[Work], Awaitable[Op | None]]] = []
        """Asked, in the action's transaction, before a command runs on a loaded match: one
        may put another command in its place (a flag that fell before the action arrived:
        :mod:`bot.service.clock`)."""
        self.committing: list[Callable[[Work], Awaitable[None]]] = []
        """Called in the action's transaction just before the match row is written, after
        the command (the clock charges the decision that ended and starts the next)."""
        self.looking: list[Callable[[Work], Awaitable[None]]] = []
        """Called when a match is only looked at (/board), before its reply is built."""
        self.finished: list[Callable[[Work], Awaitable[None]]] = []
        """Called in the action's transaction when it ends a match or money session,
        however it ends (the last game, a forfeit, /stop): grading queues it there."""

    # ------------------------------------------------------------------ pieces

    def now(self) -> str:
        return self.clock().isoformat(timespec="milliseconds")

    def lock(self, channel_id: int) -> asyncio.Lock:
        """The in-process lock of a channel (storage adds a cross-process one)."""
        lock = self._locks.get(channel_id)
        if lock is None:
            if len(self._locks) >= CACHE_LIMIT:  # forget idle channels' locks
                for key in [k for k, v in self._locks.items() if not v.locked()]:
                    del self._locks[key]
            lock = self._locks[channel_id] = asyncio.Lock()
        return lock

    async def note_user(self, tx: Transaction, actor: Actor) -> None:
        """Store the user's current name (skipped when this process stored it already)."""
        if self._names.get(actor.id) == actor.name:
            return
        await tx.upsert_user(actor.id, actor.name, actor.is_bot)
        if len(self._names) >= CACHE_LIMIT:
            self._names.clear()
        tx.on_commit(lambda: self._names.__setitem__(actor.id, actor.name))

    def cached(self, match_id: int | None) -> Loaded | None:
        """The last committed state of a match this process knows (may be stale)."""
        entry = self._cache.get(match_id) if match_id is not None else None
        return entry[1] if entry is not None else None

    def _remember(self, loaded: Loaded) -> None:
        self._cache.pop(loaded.row.id, None)
        while len(self._cache) >= CACHE_LIMIT:
            del self._cache[next(iter(self._cache))]
        self._cache[loaded.row.id] = (loaded.row.version, loaded)

    async def load(self, tx: Transaction, place: Place, *,
                   statuses: tuple[MatchStatus, ...] = ACTIVE) -> Loaded:
        """The channel's open match, or a refusal saying why there is none to act on."""
        row = await tx.open_match_in_channel(place.channel_id)
        if row is None or row.guild_id != place.guild_id:
            # Answering a challenge where none waits says that (issue 30 item 12).
            raise NoGameHere(NO_CHALLENGE if MatchStatus.ACTIVE not in statuses else NO_GAME)
        if row.status not in statuses:
            if row.status is MatchStatus.CHALLENGED:
                raise Refusal("The challenge here has not been accepted yet: "
                              "the challenged player can /accept or /decline it.")
            awaited = present.answer_awaited(await self.load_row(tx, row))
            raise Refusal("The game here is already under way: there is no challenge waiting "
                          "to answer or cancel." + (f" {awaited}" if awaited else ""))
        return await self.load_row(tx, row)

    async def load_row(self, tx: Transaction, row: MatchRow) -> Loaded:
        """The engine state of ``row`` (from the cache when its version is known)."""
        cached = self._cache.get(row.id)
        if cached is not None and cached[0] == row.version:
            return cached[1]
        session = new_session(row)
        game_row = None
        game = None
        for g in await tx.games_of_match(row.id):
            if g.status is GameStatus.FINISHED and g.result is not None:
                session = session.add_game(result_from_dict(g.result))
            game_row = g
        held, base = 0, None
        state = MatchState.from_dict(row.state)
        if game_row is not None:
            game = replay_game(row, game_row, await tx.events(game_row.id))
            game, held, base = takeback.restore(state, game_row, game)
        names = await player_names(tx, row)
        loaded = Loaded(row, state, session, game_row, game, names, held, base)
        # Cached once the transaction commits: a row this transaction wrote (a
        # chouette's next match) is not there for anyone if it rolls back.
        tx.on_commit(lambda: self._remember(loaded))
        return loaded

    def work(self, tx: Transaction, loaded: Loaded, actor: Actor) -> Work:
        """A new action on ``loaded`` by ``actor``."""
        dice = None
        stored = 0
        if loaded.game_row is not None:
            dice = self.dice(loaded.game_row.seed, loaded.game_row.dice_drawn)
            stored = len(loaded.game.record) - loaded.held if loaded.game is not None else 0
        return Work(tx=tx, loaded=loaded, actor=actor, seating=self.seating(loaded.row),
                    game=loaded.game, session=loaded.session, game_row=loaded.game_row,
                    stored=stored, dice=dice, state=loaded.state, at=self.clock())

    async def commit(self, work: Work) -> Reply:
        """Write what ``work`` did, with the version check; the reply to show."""
        for hook in self.committing:
            await hook(work)
        await work.flush()
        held = work.keep()
        if not held and work.state.unsettled is not None:  # the opponent acted: it is final
            work.state = work.state.with_(unsettled=None)
        base = work.base if work.hold is not None else work.loaded.base
        changes: dict[str, Any] = {"state": work.state.to_dict()}
        if work.match_status is MatchStatus.FINISHED and work.row.status is not (
                MatchStatus.FINISHED):
            for hook in self.finished:
                await hook(work)
        if work.match_status is not None:
            changes["status"] = work.match_status
        if work.match_winner is not None:
            changes["winner_id"] = work.match_winner
        changes.update(work.row_changes)
        row = await work.tx.update_match(work.row, **changes)
        # ``work.game_row`` follows every write to the game's row (flush, finish).
        state = Loaded(row, work.state, work.session, work.game_row, work.game,
                       work.loaded.names, held, base if held else None)
        # Only a committed state may be served from the cache.
        work.tx.on_commit(lambda: self._remember(state))
        return present.reply(work, row, analysis=self.analysis)

    # ------------------------------------------------------------- whole actions

    async def transact(self, place: Place, actor: Actor,
                       body: Callable[[Transaction], Awaitable[Reply]], *,
                       stale: str | None = None, note_user: bool = True,
                       durable: bool = True) -> Reply:
        """``body`` as one transaction under the channel's lock; a refusal (or a
        stale version: ``stale`` says so in the caller's words) rolls back and becomes
        an ephemeral reply with its reason.  ``note_user``: store the actor's name (a
        body that writes user rows itself says False); ``durable=False``: the commit
        need not wait for the disk, the caller syncs before it shows the reply
        (:meth:`~bot.storage.interface.Storage.sync`)."""
        try:
            check_place(place)
            check_id(actor.id, "user")
        except Refusal as refusal:
            return Reply.refuse(str(refusal))
        async def work(tx: Transaction) -> Reply:
            if note_user:
                await self.note_user(tx, actor)
            return await body(tx)

        started = time.perf_counter()
        kind = action_kind(body)
        if not self.lifecycle.begin():
            self._observe(kind, place, actor, REFUSED, "stopping", started)
            return Reply.refuse(STOPPING)
        outcome, reason = REFUSED, "error"
        try:
            async with self.lock(place.channel_id):
                try:
                    # The storage takes the channel's cross-process lock first and re-runs
                    # the whole body if the database aborted it before anything committed.
                    reply = await self.storage.run(work, lock_channel=place.channel_id,
                                                    durable=durable)
                except (Refusal, BackgammonError, StaleVersionError, StorageError) as error:
                    reason = reason_class(error)
                    text = stale if stale and isinstance(error, StaleVersionError) else (
                        refusal_text(error))
                    assert text is not None
                    if isinstance(error, Refusal) and error.notify:
                        return replace(Reply.refuse(text), notify=error.notify)
                    return Reply.refuse(text)
                outcome, reason = (COMMITTED, "") if reply.ok else (REFUSED, "refusal")
                return reply
        finally:
            self.lifecycle.end()
            self._observe(kind, place, actor, outcome, reason, started)

    def _observe(self, kind: str, place: Place, actor: Actor, outcome: str, reason: str,
                 started: float) -> None:
        seconds = time.perf_counter() - started
        if outcome == COMMITTED:
            log.info("%s/%s %s by %s: %s in %.1f ms", place.guild_id, place.channel_id, kind,
                     actor.id, outcome, seconds * 1000)
        try:
            self.observer.action(ActionEvent(kind, place, actor.id, outcome, reason, seconds))
        except Exception:  # an observer's bug never costs a player his action
            log.exception("the action observer failed")

    async def run(self, place: Place, actor: Actor, op: Op, *, expect: Expect | None = None,
                  statuses: tuple[MatchStatus, ...] = ACTIVE, redirect: bool = True) -> Reply:
        """Run the command ``op`` on the channel's match: lock, load, version check,
        work, commit, reply.  With no match in the channel, a typed command (no
        ``expect``) finds the user's game in a thread of it (:meth:`elsewhere`)."""
        missing = False

        async def body(tx: Transaction) -> Reply:
            nonlocal missing
            try:
                loaded = await self.load(tx, place, statuses=statuses)
            except NoGameHere:
                missing = True
                raise
            if expect is not None:
                if expect.match_id is not None and loaded.row.id != expect.match_id:
                    raise Refusal("That button belongs to an earlier game in this channel: "
                                  "use the latest board's buttons.")
                if loaded.row.version != expect.version:
                    raise Refusal("This game has moved on since that button was shown: "
                                  "use the latest board's buttons.")
            work = self.work(tx, loaded, actor)
            command = op
            for guard in self.guards:
                instead = await guard(work)
                if instead is not None:
                    command = instead
                    break
            await command(work)
            return await self.commit(work)

        with naming(kind_of(op)):
            reply = await self.transact(place, actor, body)
        if not missing or expect is not None or not redirect:
            return reply
        found = await self.elsewhere(place, actor, statuses)
        if isinstance(found, Place):
            done = await self.run(found, actor, op, statuses=statuses, redirect=False)
            # The game lives in the thread: the adapter posts the new state there.
            return replace(done, channel_ref=found.channel_id) if done.ok else done
        return found or reply

    async def elsewhere(self, place: Place, actor: Actor, statuses: tuple[MatchStatus, ...],
                        act: bool = True) -> Place | Reply | None:
        """The user's open matches whose challenge was typed in this channel (their games
        live in threads of it): the place of the only challenge to answer when ``act``
        and ``statuses`` are the challenge's, else a refusal pointing to the thread
        (``channel_ref``), or None when there is none."""
        async with self.storage.snapshot() as tx:
            rows = await tx.matches_for_user(place.guild_id, actor.id,
                                             [MatchStatus.CHALLENGED, MatchStatus.ACTIVE])
            mine = [r for r in rows if r.chouette_id is None
                    and MatchState.from_dict(r.state).home_channel == place.channel_id]
            if not mine:
                return None
            waiting = [r for r in mine if r.status is MatchStatus.CHALLENGED]
            if act and statuses == (MatchStatus.CHALLENGED,) and len(waiting) == 1:
                row = waiting[0]
                return replace(place, channel_id=row.channel_id, parent_id=place.channel_id)
            fitting = [r for r in mine if r.status in statuses] or mine
            row = fitting[-1]
            other_id = row.black_id if row.white_id == actor.id else row.white_id
            other = await tx.get_user(other_id)
        name = other.name if other is not None else str(other_id)
        if row.status is MatchStatus.CHALLENGED:
            what = (f"{name}'s challenge to you" if row.black_id == actor.id
                    else f"Your challenge to {name}")
            text = f"{what} waits in its thread:"
        else:
            text = f"Your game with {name} is played in its thread:"
        if len(mine) > 1:
            text = (f"You have {len(mine)} games or challenges in threads of this channel. "
                    + text.replace("its thread:", "its thread (the latest):"))
        return Reply(ok=False, text=text, ephemeral=True, channel_ref=row.channel_id)

    async def look(self, place: Place, *,
                   statuses: tuple[MatchStatus, ...] = ACTIVE) -> Loaded:
        """The channel's match read from a snapshot (no lock, nothing written)."""
        async with self.storage.snapshot() as tx:
            return await self.load(tx, place, statuses=statuses)

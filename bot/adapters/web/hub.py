"""Who watches which place, and the state each of them is sent.

The hub listens to the service's action observer (:mod:`bot.service.core.observe`): each
action committed in a place that pages watch -- from this page, another page, Discord's
buttons, the console or the AI -- has the place's state read again (one snapshot of the
board for all, the move builder for the player to play) and sent to every page there at
once.  Sends to one place are coalesced: actions that commit while a send is under way
are shown together, in their latest state.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bot.adapters.web.state import Json, state_json
from bot.service.core.observe import COMMITTED, ActionEvent, Observer
from bot.service.core.replies import Action, BuilderView
from bot.service.core.values import Actor, Place
from bot.service.game import GameService
from bot.service.lobby.open import Waiting

log = logging.getLogger(__name__)

SPECTATOR = Actor(0, "spectator")
"""Who reads the public board (a read changes nothing and depends on no one)."""

Send = Callable[[Json | str], Awaitable[None]]
"""Sends a message (or its JSON text) to a page."""


@dataclass(eq=False)
class Client:
    """One page: who it is, where it looks, how to send it a message."""

    actor: Actor
    place: Place
    send: Send
    sent: int = 0


@dataclass
class Room:
    place: Place
    """Where its pages look (the first page's place: another page's may name the same
    channel with its parent or not)."""
    clients: set[Client] = field(default_factory=set)
    dirty: bool = False
    task: asyncio.Task[None] | None = None


class Hub:
    """The pages of every place, fed by the service's observer."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.rooms: dict[tuple[int, int], Room] = {}
        """By :func:`spot`: one room a channel, however an action names it."""
        self.inner: Observer = service.runner.observer
        self.tasks: set[asyncio.Task[Any]] = set()

    def attach(self) -> None:
        """Listen to the service's actions (the observer it had is still told first)."""
        self.service.runner.observer = self

    def detach(self) -> None:
        if self.service.runner.observer is self:
            self.service.runner.observer = self.inner

    def action(self, event: ActionEvent) -> None:
        self.inner.action(event)
        if event.outcome == COMMITTED and spot(event.place) in self.rooms:
            self.changed(event.place)

    # ------------------------------------------------------------------ pages

    async def join(self, client: Client) -> None:
        """Add a page to its place and send it the state now (a page that reconnects
        resumes where the game is)."""
        self.rooms.setdefault(spot(client.place), Room(client.place)).clients.add(client)
        await client.send(await self.state_for(client))

    def leave(self, client: Client) -> None:
        room = self.rooms.get(spot(client.place))
        if room is None:
            return
        room.clients.discard(client)
        if not room.clients and room.task is None:
            del self.rooms[spot(client.place)]

    def changed(self, place: Place) -> None:
        """The state of ``place`` changed: send it to its pages (soon, once)."""
        room = self.rooms.get(spot(place))
        if room is None:
            return
        room.dirty = True
        if room.task is None:
            room.task = asyncio.get_running_loop().create_task(
                self.publish(room.place, room))

    async def publish(self, place: Place, room: Room) -> None:
        try:
            while room.dirty:
                room.dirty = False
                public = await self.service.board(place, SPECTATOR)
                waiting = await self.service.open_challenges.waiting_in(place)
                clients = list(room.clients)
                players = {u for b in public.buttons for u in b.users}
                players |= {w.challenger_id for w in waiting}
                # Everyone who may press nothing sees the same page: written once.
                shared = json.dumps(state_json(public, SPECTATOR.id, None, waiting))
                texts = await asyncio.gather(*(
                    self.text_for(c, public, waiting) if c.actor.id in players
                    else as_is(shared) for c in clients))
                await asyncio.gather(*(self.deliver(c, t) for c, t in
                                       zip(clients, texts, strict=True)))
        except Exception:
            log.exception("sending the web boards of %s failed", place)
        finally:
            room.task = None
            if not room.clients:
                self.rooms.pop(spot(place), None)

    async def text_for(self, client: Client, public: Any,
                       waiting: tuple[Waiting, ...] | None) -> str:
        return json.dumps(await self.state_for(client, public, waiting))

    async def deliver(self, client: Client, state: str) -> None:
        with contextlib.suppress(ConnectionError, RuntimeError):
            await client.send(state)
            client.sent += 1

    async def state_for(self, client: Client, public: Any = None,
                        waiting: tuple[Waiting, ...] | None = None) -> Json:
        """The state ``client`` is shown: the public board, and his builder when he is
        the one to play; the channel's open challenges."""
        if public is None:
            public = await self.service.board(client.place, SPECTATOR)
        if waiting is None:
            waiting = await self.service.open_challenges.waiting_in(client.place)
        builder: BuilderView | None = None
        if any(client.actor.id in b.users for b in public.buttons):
            mine = await self.service.act(Action.STEPS, client.place, client.actor)
            if mine.ok:
                builder = mine.builder
        return state_json(public, client.actor.id, builder, waiting)

    async def close(self) -> None:
        for room in list(self.rooms.values()):
            if room.task is not None:
                room.task.cancel()
        self.detach()


def spot(place: Place) -> tuple[int, int]:
    """A place's room: its server and channel (a thread is a channel of its own)."""
    return place.guild_id, place.channel_id


async def as_is(text: str) -> str:
    return text

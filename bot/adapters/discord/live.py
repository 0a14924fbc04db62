"""The live board (issue 31, item 6): one board message per game, edited in place after
every action, and one short message that mentions the player to act.

In the ``new`` mode every action posts a new board (the older one loses its buttons), so a
long game leaves a hundred pictures.  In the ``live`` mode:

* a game's first board is posted as usual (its content mentions the player to act) and
  becomes the game's live board;
* each later state of that game edits the live board (the picture, the text of the last
  action, the buttons), and a short message mentions the player to act -- editing a message
  notifies nobody -- while the previous such message is deleted, so one is pending at a
  time; the interaction itself is answered privately (a typed command) or by taking the
  pressed message's buttons off until the board is drawn again (a button);
* edits are coalesced: a board is edited at most once per :attr:`LiveBoards.min_interval`
  seconds, and actions that come quicker are drawn together, in their latest state (a
  leading and trailing throttle per message), which keeps well inside Discord's rate limits;
* a game that ends shows its end on its own message (without buttons); the next game gets
  a new message; ``/board`` posts the board anew at the bottom and deletes the old one.

The full history stays in ``/history`` and ``/replay``.  What is known of the live boards
is this process's memory: after a restart the next action posts a new board, which becomes
the live one.  :func:`board_mode` is the one place the mode of a channel is decided.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any, Protocol

import discord

from bot.adapters.discord.convert import notice_text, place_of
from bot.service.core.replies import Reply
from bot.service.core.values import Place

LIVE = "live"
NEW = "new"
MAX_CONTENT = 2000
MIN_INTERVAL = 1.0
"""Seconds between two edits of one live board (quicker actions are drawn together)."""
NO_MENTIONS = discord.AllowedMentions.none()
MENTION_USERS = discord.AllowedMentions(everyone=False, roles=False, users=True,
                                        replied_user=False)
log = logging.getLogger(__name__)


def board_mode(mode: str, place: Place) -> str:
    """How boards follow the play in ``place``: :data:`LIVE` or :data:`NEW`, for the
    server's ``board_mode`` setting (``/settings``; the operator's default is the config's
    ``discord.board_mode``): 'auto' is live in a game's own thread, new in a shared
    channel."""
    if mode == "auto":
        return LIVE if place.parent_id is not None else NEW
    return mode


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


class Drawn(Protocol):
    """A message drawn by the presenter (:class:`~.outgoing.Outgoing`)."""

    embeds: list[discord.Embed]
    files: list[discord.File]
    view: discord.ui.View | None


@dataclass(eq=False)
class LiveBoard:
    """The live board of one game: where it is and the state it shows (or will)."""

    place: Place
    message_id: int
    match_id: int
    version: int
    client: discord.Client
    latest: Reply | None = None
    """The state to draw next (None: the message shows the latest)."""
    task: asyncio.Task[None] | None = None
    last_edit: float = 0.0

    @property
    def link(self) -> str:
        return (f"https://discord.com/channels/{self.place.guild_id}/{self.place.channel_id}/"
                f"{self.message_id}")


class LiveBoards:
    """The live boards of this process, one per channel."""

    def __init__(self, build: Callable[[Reply], Awaitable[Drawn]],
                 mode: Callable[[Place], Awaitable[str]], *,
                 min_interval: float = MIN_INTERVAL) -> None:
        self.build = build
        """Draws a reply as a message (the presenter's)."""
        self.mode = mode
        self.min_interval = min_interval
        self.edits = 0
        """Live boards edited by this process (for the logs and tests)."""
        self._boards: dict[int, LiveBoard] = {}
        self._mentions: dict[int, int] = {}
        """Channel id -> the message mentioning the player to act."""
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def drawing(self) -> int:
        """How many live boards have an edit under way or waiting."""
        return sum(not t.done() for t in self._tasks)

    def showing(self, channel_id: int) -> int | None:
        """The message id of the live board of ``channel_id`` (None: none known)."""
        board = self._boards.get(channel_id)
        return board.message_id if board is not None else None

    async def where(self, interaction: discord.Interaction[Any], reply: Reply) -> Place | None:
        """The place of a reply that shows a game's board in a live channel, else None.

        It reads the server's ``board_mode`` setting, from the database when it is not in
        memory: the presenter awaits it within the interaction's budget for a first
        response (:meth:`~.presenter.Presenter.call`), before :meth:`take`."""
        if not reply.boards or reply.match_id is None or reply.version is None:
            return None
        place = place_of(interaction)
        return place if await self.mode(place) == LIVE else None

    async def take(self, interaction: discord.Interaction[Any], reply: Reply,
                   place: Place | None, *, from_button: bool = False,
                   acked: bool = False) -> Reply | None:
        """Show ``reply`` on the channel's live board if it has one for this game (``place``:
        :meth:`where` the reply goes live, None: not live): the interaction is answered
        (unless ``acked``) and the edit queued; None is returned.  Otherwise the reply (or
        what of it goes on a new message) is returned for the presenter to post;
        :meth:`posted` then makes that message the live board."""
        board = self._boards.get(place.channel_id) if place is not None else None
        if place is None or board is None:
            return reply
        channel = place.channel_id
        if len(reply.boards) > 1 and reply.boards[0].view.game_over is not None:
            # A game ended and the next began: the old message shows the end, without
            # buttons; the new game gets a message of its own.
            del self._boards[channel]
            self._queue(board, replace(reply, boards=reply.boards[:-1], buttons=(),
                                       notify=(), pictures=(), attachment=None))
            return replace(reply, boards=reply.boards[-1:])
        if board.match_id != reply.match_id:  # another match here: it gets its own board
            del self._boards[channel]
            await self._retire(board)
            return reply
        if reply.version == board.version:  # a look (/board): posted anew below
            return reply
        if not acked:
            await self._acknowledge(interaction, reply, from_button)
        assert reply.version is not None
        board.version = reply.version
        if reply.boards[-1].view.game_over is not None:  # the match is over: it stays so
            del self._boards[channel]
        self._queue(board, reply)
        return None

    async def posted(self, interaction: discord.Interaction[Any], reply: Reply,
                     message: discord.Message | None, place: Place | None = None) -> None:
        """The presenter posted ``reply`` as ``message`` (in ``place``, default the
        interaction's): in a live channel it becomes the game's live board, replacing
        the one before (deleted when it showed the same game: one board per game)."""
        if message is None or not reply.boards or reply.match_id is None or (
                reply.version is None):
            return
        place = place or place_of(interaction)
        if await self.mode(place) != LIVE:
            return
        channel = place.channel_id
        client = interaction.client
        old = self._boards.pop(channel, None)
        if old is not None and old.message_id != message.id:
            old.latest = None  # (an edit still waiting is pointless now)
            if old.match_id == reply.match_id:
                await _quietly(client.get_partial_messageable(channel).get_partial_message(
                    old.message_id).delete(), "delete the old live board")
            else:
                await self._retire(old)
        if reply.boards[-1].view.game_over is None:
            self._boards[channel] = LiveBoard(place, message.id, reply.match_id,
                                              reply.version, client,
                                              last_edit=asyncio.get_running_loop().time())
        # The new board's own text mentions the player to act: the older mention goes.
        await self._drop_mention(client, channel)

    async def close(self, timeout: float = 5.0) -> None:
        """Finish the edits under way (at most ``timeout`` seconds), then stop."""
        pending = [t for t in self._tasks if not t.done()]
        if pending:
            _, late = await asyncio.wait(pending, timeout=timeout)
            for task in late:
                task.cancel()
            if late:
                await asyncio.gather(*late, return_exceptions=True)

    # ------------------------------------------------------------------ inside

    async def _acknowledge(self, interaction: discord.Interaction[Any], reply: Reply,
                           from_button: bool) -> None:
        response = interaction.response
        text = clip(reply.text or "Done.", MAX_CONTENT)
        if response.is_done():  # deferred privately (the service was slow)
            await interaction.edit_original_response(content=text)
        elif from_button:  # the pressed message's buttons go until it is drawn again
            await response.edit_message(view=None)
        else:
            await response.send_message(text, ephemeral=True, allowed_mentions=NO_MENTIONS)

    async def _retire(self, board: LiveBoard) -> None:
        """A live board that another match's board replaces keeps its picture, not its
        buttons."""
        board.latest = None
        await _quietly(board.client.get_partial_messageable(board.place.channel_id)
                       .get_partial_message(board.message_id).edit(view=None),
                       "take the buttons off an old live board")

    def _queue(self, board: LiveBoard, reply: Reply) -> None:
        board.latest = reply
        if board.task is None or board.task.done():
            board.task = asyncio.create_task(self._flush(board))
            self._tasks.add(board.task)
            board.task.add_done_callback(self._tasks.discard)

    async def _flush(self, board: LiveBoard) -> None:
        """Draw the board's latest state, at most once per :attr:`min_interval`."""
        loop = asyncio.get_running_loop()
        while board.latest is not None:
            wait = board.last_edit + self.min_interval - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            reply, board.latest = board.latest, None
            try:
                await self._edit(board, reply)
            except discord.HTTPException as error:  # rate limits are retried by discord.py
                log.warning("the live board %s could not be edited: %s", board.message_id,
                            error)
            board.last_edit = loop.time()

    async def _edit(self, board: LiveBoard, reply: Reply) -> None:
        channel = board.client.get_partial_messageable(board.place.channel_id)
        drawn = await self.build(replace(reply, notify=()))
        turn = clip("\n".join(notice_text(n) for n in reply.notify), MAX_CONTENT)
        try:
            await channel.get_partial_message(board.message_id).edit(
                content=turn or None, embeds=drawn.embeds, attachments=drawn.files,
                view=drawn.view, allowed_mentions=NO_MENTIONS)
        except discord.NotFound:  # deleted by someone: the game's board is posted again
            if self._boards.get(board.place.channel_id) is not board:
                return
            drawn = await self.build(reply)
            extra: dict[str, Any] = {"view": drawn.view} if drawn.view is not None else {}
            sent = await channel.send(content=turn or None, embeds=drawn.embeds,
                                      files=drawn.files, allowed_mentions=MENTION_USERS,
                                      **extra)
            board.message_id = sent.id
            await self._drop_mention(board.client, board.place.channel_id)
            return
        self.edits += 1
        await self._mention(board, reply)

    async def _mention(self, board: LiveBoard, reply: Reply) -> None:
        """Replace the message mentioning the player to act (one pending at a time)."""
        channel_id = board.place.channel_id
        await self._drop_mention(board.client, channel_id)
        text = "\n".join(notice_text(n) for n in reply.notify)
        if not text or self._boards.get(channel_id) is not board:
            return
        sent = await board.client.get_partial_messageable(channel_id).send(
            clip(f"{text} (board: {board.link})", MAX_CONTENT),
            allowed_mentions=MENTION_USERS)
        self._mentions[channel_id] = sent.id

    async def _drop_mention(self, client: discord.Client, channel_id: int) -> None:
        old = self._mentions.pop(channel_id, None)
        if old is not None:
            await _quietly(client.get_partial_messageable(channel_id).get_partial_message(
                old).delete(), "delete the last turn's mention")


async def _quietly(call: Awaitable[Any], what: str) -> None:
    """A clean-up call: a message deleted meanwhile, or out of reach, is only logged."""
    try:
        await call
    except discord.HTTPException as error:
        log.info("could not %s: %s", what, error)

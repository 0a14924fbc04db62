"""Turn the service's :class:`~bot.service.core.replies.Reply` into Discord messages.

The cogs and the buttons call the service, then hand the reply to a
:class:`Presenter`, which knows the few Discord rules of answering:

* a refusal (``ok`` false) or an ephemeral reply is sent privately (flags 64);
* a reply with boards becomes one message: the notify lines (mentions) as the
  content, one embed per board with the PNG attached, the reply text as the
  first embed's description, the GNU Backgammon Position ID and Match ID in
  each embed's footer, and the buttons for the next actions;
* a challenge waiting for its answer is posted without its buttons, noted by the service,
  then given the buttons of the noted version (:mod:`.posted`), so that its answer can
  retire them even after a restart;
* a reply with a move builder is shown privately to its player (:mod:`.builder`); in a
  channel whose board mode is live, a game's board is edited in place rather than posted
  anew (:mod:`.live`);
* where the bot is not a member (a DM or group DM of a user-installed app, a server that did
  not install it: :func:`.convert.bot_is_member`) it posts and edits nothing on its own:
  everything is the interaction's response, its follow-ups, or an edit of a message of an
  interaction whose token still runs (:class:`OwnMessages`); each board gets a Refresh
  button, so a player coming back after hours gets the board and its buttons by a tap;
* every interaction is acknowledged within Discord's 3 seconds: a service call
  slower than :attr:`Presenter.defer_after` is deferred (privately, since its
  outcome is not known yet), and a board to render is deferred publicly before
  rendering; PNG rendering runs in worker processes (bot/adapters/discord/renderer.py), never on
  the event loop.

Nothing here knows the rules of backgammon: the reply says what to show.
"""

from __future__ import annotations

import asyncio
import io
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from typing import Any, TypeVar

import discord

from bot.adapters.discord import builder
from bot.adapters.discord.buttons import build_view
from bot.adapters.discord.convert import actor_of, bot_is_member, notice_text, place_of
from bot.adapters.discord.deadlines import (
    DEFER_AFTER,
    DONE,
    PRIVATE_DEFER,
    PUBLIC_DEFER,
    TOKEN_MARGIN,
    received,
)
from bot.adapters.discord.live import LiveBoards
from bot.adapters.discord.lobby import lobby_view
from bot.adapters.discord.outgoing import (
    EMBED_COLOUR,
    MAX_ALT_TEXT,
    MAX_CONTENT,
    MAX_DESCRIPTION,
    MAX_TRACKED_CHANNELS,
    MENTION_USERS,
    NO_MENTIONS,
    Outgoing,
    OwnMessages,
    clip,
    footer,
    private_text,
)
from bot.adapters.discord.posted import ChallengeNotes, add_challenge_buttons, is_challenge
from bot.adapters.discord.puzzles import puzzle_view
from bot.adapters.discord.renderer import Renderer
from bot.ops.logs import apology, error_reference
from bot.service.core.replies import Board, Reply, text_parts
from bot.service.core.values import Place

ANALYSING = ("Analysing: the result will be posted in this channel when it is ready (a "
             "whole match at expert depth can take many minutes).")
ANALYSING_HERE = ("Analysing: the result comes here when it is ready (a whole match at expert "
                  "depth can take many minutes).")
"""Where the bot is not a member (a DM): the result comes as a follow-up, within the
token."""
TOO_LONG_HERE = ("The analysis did not finish within the 15 minutes Discord gives me to answer "
                 "here. It goes on: ask again (/analyze) in a few minutes; the games analysed "
                 "by then are kept, so the answer comes sooner.")

T = TypeVar("T")
log = logging.getLogger(__name__)


class Presenter:
    """Renders replies and answers interactions (one per bot)."""

    def __init__(self, renderer: Renderer | None = None, *, defer_after: float = DEFER_AFTER,
                 notes: Callable[[], ChallengeNotes] | None = None,
                 live: Callable[[Presenter], LiveBoards] | None = None) -> None:
        self.renderer = renderer or Renderer(workers=0)
        """Draws the boards, in its theme: worker processes in the bot (:mod:`.renderer`)."""
        self.notes = notes
        """The service that keeps a challenge's message (None: challenges are posted with
        their buttons, not noted)."""
        self.defer_after = defer_after
        """Seconds from the interaction's arrival (:func:`received`) until it is deferred
        if the service has not answered by then."""
        self._with_buttons: dict[int, int] = {}
        """Channel id -> the last board message posted there with buttons (this run)."""
        self.live = live(self) if live is not None else None
        """The live boards, edited in place in the channels whose board mode is live
        (:mod:`.live`; None: every board is a new message).  Never where the bot is not a
        member."""
        self.clock: Callable[[], float] = time.monotonic
        """The clock of the interaction tokens' 15 minutes (tests move it on)."""
        self.own = OwnMessages(lambda: self.clock())
        self.activity = False
        """Boards get an Open board button (the live board is set up: issue 45)."""
        """Messages answering interactions where the bot is not a member, editable with
        their token for a while."""

    # ------------------------------------------------------------- building

    async def render(self, boards: Sequence[Board]) -> list[bytes]:
        """PNG bytes of each board, rendered off the event loop."""
        return await self.renderer.pngs([b.view for b in boards])

    async def build(self, reply: Reply, *, code_block: bool = False,
                    refresh: bool = False) -> Outgoing:
        """The public message for an ``ok`` reply; ``refresh``: a board gets a Refresh
        button (where the bot is not a member)."""
        out = Outgoing(view=build_view(reply, refresh=refresh, activity=self.activity)
                       or puzzle_view(reply))
        text = reply.text
        if code_block and text:
            text = f"```\n{clip(text, MAX_CONTENT - 10)}\n```"
        if reply.boards:
            images = await self.render(reply.boards)
            said = text_parts(reply) if not code_block else [text] + [""] * len(images)
            for index, (board, png) in enumerate(zip(reply.boards, images, strict=True)):
                name = f"board-{index + 1}.png"
                embed = discord.Embed(colour=EMBED_COLOUR)
                if board.caption:
                    embed.title = clip(board.caption, 256)
                if said[index]:  # each board after the lines before it (issue 42 item 8)
                    embed.description = clip(said[index], MAX_DESCRIPTION)
                embed.set_image(url=f"attachment://{name}")
                ids = footer(board)
                if ids:
                    embed.set_footer(text=ids)
                out.embeds.append(embed)
                out.files.append(discord.File(io.BytesIO(png), filename=name))
            out.content = clip("\n".join(map(notice_text, reply.notify)), MAX_CONTENT)
        else:
            notices = [notice_text(n) for n in reply.notify]
            lines = [text, *notices] if text else notices
            out.content = clip("\n".join(lines), MAX_CONTENT)
        if reply.attachment is not None:
            name, data = reply.attachment
            out.files.append(discord.File(io.BytesIO(data), filename=name))
        if reply.pictures:  # drawn off the event loop; the alt text as the description
            drawn = await asyncio.gather(*(self.renderer.picture(p) for p in reply.pictures))
            for picture, data in zip(reply.pictures, drawn, strict=True):
                out.files.append(discord.File(io.BytesIO(data), filename=picture.filename,
                                              description=clip(picture.alt_text,
                                                               MAX_ALT_TEXT)))
        if not out.content and not out.embeds and not out.files:
            out.content = "Done."
        return out

    # ------------------------------------------------------------ answering

    async def call(self, interaction: discord.Interaction[Any], work: Awaitable[T]) -> T:
        """Await a service call; defer the interaction (privately) if it is slow.

        The time counts from the interaction's arrival (:func:`received`), not from this
        call: several calls before the first response share the one budget."""
        task = asyncio.ensure_future(work)
        left = self.defer_after - (asyncio.get_running_loop().time() - received(interaction))
        try:
            return await asyncio.wait_for(asyncio.shield(task), max(left, 0.0))
        except TimeoutError:
            await self.defer(interaction)
            return await task

    async def defer(self, interaction: discord.Interaction[Any]) -> None:
        """Defer privately ("thinking..." only its user sees) unless answered already: what
        follows may be a refusal, which must stay private (a public defer's first
        follow-up is public whatever it asks)."""
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)
            interaction.extras[PRIVATE_DEFER] = True

    @staticmethod
    async def follow_up(interaction: discord.Interaction[Any], **kwargs: Any) -> discord.Message:
        """A public message answering ``interaction``: its public "thinking..."
        (:meth:`defer_public`) edited into it, as Discord documents a deferred response's
        answer (a follow-up there is only kept for backwards compatibility); else a
        follow-up of its own (after an answer, or a private "thinking..." resolved)."""
        if interaction.extras.pop(PUBLIC_DEFER, False):
            files = kwargs.pop("files", []) + ([kwargs.pop("file")] if "file" in kwargs else [])
            return await interaction.edit_original_response(attachments=files, **kwargs)
        return await interaction.followup.send(wait=True, **kwargs)

    async def resolve_private(self, interaction: discord.Interaction[Any],
                              text: str = "Done: see below.") -> None:
        """Resolve a private "thinking..." (:meth:`defer`) with ``text``, so that the
        next follow-up is a message of its own (public if it says so)."""
        if interaction.extras.pop(PRIVATE_DEFER, False):
            await interaction.edit_original_response(content=text)

    async def defer_public(self, interaction: discord.Interaction[Any]) -> None:
        """A public "thinking..." (a board or a picture on its way), noted so that an error
        before the answer stays private (:meth:`private`)."""
        if not interaction.response.is_done():
            await interaction.response.defer(thinking=True)
            interaction.extras[PUBLIC_DEFER] = True

    async def long_work(self, interaction: discord.Interaction[Any], work: Awaitable[Reply],
                        under_way: str = ANALYSING, *, from_button: bool = False) -> None:
        """Work that may outlive the interaction's 15-minute token (``/analyze``): a quick
        answer (a refusal, a stored result) is answered as usual; otherwise the player is
        told at once, privately, that it is ``under_way``, and the result is posted as an
        ordinary message of the channel, which needs no token.  A refusal or an error
        afterwards is told privately while the token lives, else in the channel."""
        task = asyncio.ensure_future(work)
        left = self.defer_after - (asyncio.get_running_loop().time() - received(interaction))
        try:
            reply = await asyncio.wait_for(asyncio.shield(task), max(left, 0.0))
        except TimeoutError:
            pass
        else:
            await self.send(interaction, reply, from_button=from_button)
            return
        member = bot_is_member(interaction)
        await self.private(interaction, under_way if member else ANALYSING_HERE)
        try:
            if member:
                reply = await task
            else:  # nothing may be posted here but through the token, while it lives
                left = TOKEN_MARGIN - (asyncio.get_running_loop().time() - received(interaction))
                reply = await asyncio.wait_for(asyncio.shield(task), max(left, 0.0))
        except TimeoutError:
            await self.private(interaction, TOO_LONG_HERE)
            return
        except Exception as error:  # (the one error handler would answer through the token)
            ref = error_reference()
            log.error("unexpected error %s in long work", ref, exc_info=error,
                      extra={"error_ref": ref})
            await self._late(interaction, apology(ref))
            return
        if not reply.ok:
            await self._late(interaction, private_text(reply))
            return
        out = await self.build(reply)
        if not member:  # a follow-up of the interaction (its token still runs)
            await interaction.followup.send(wait=True, **out.kwargs())
            if from_button:
                await self._strip_pressed(interaction)
            return
        head = f"{interaction.user.mention}: the result you asked for is ready."
        out.content = clip("\n".join(p for p in (head, out.content) if p), MAX_CONTENT)
        channel = interaction.client.get_partial_messageable(
            interaction.channel_id or 0, guild_id=interaction.guild_id)
        try:
            await channel.send(**out.kwargs())
        except discord.HTTPException as error:
            log.warning("could not post the result of long work: %s", error)
            await self._late(interaction, "The result is ready but could not be posted in "
                             f"this channel: {error.text or error.status}.")
            return
        if from_button:
            await self._strip_pressed(interaction)

    async def _late(self, interaction: discord.Interaction[Any], text: str) -> None:
        """A private answer long after the interaction: through the token while it lives,
        else (or when Discord refuses the token) in the channel, to the player."""
        if asyncio.get_running_loop().time() - received(interaction) < TOKEN_MARGIN:
            try:
                await self.private(interaction, text)
                return
            except discord.HTTPException as error:  # the token expired after all
                log.info("the interaction's token was refused: %s", error)
        if not bot_is_member(interaction):  # the bot may not post here on its own
            log.warning("could not tell %s (the token ran out): %s", interaction.user.id, text)
            return
        channel = interaction.client.get_partial_messageable(
            interaction.channel_id or 0, guild_id=interaction.guild_id)
        try:
            await channel.send(clip(f"{interaction.user.mention}: {text}", MAX_CONTENT),
                               allowed_mentions=MENTION_USERS)
        except discord.HTTPException as error:
            log.warning("could not tell %s: %s", interaction.user.id, error)

    async def private(self, interaction: discord.Interaction[Any], text: str, *,
                      view: discord.ui.View | None = None) -> None:
        """An ephemeral answer, whatever state the interaction is in.  A private
        "thinking..." is edited into it.  After a public "thinking..." (which can only
        become a public answer) the placeholder is deleted first (else, if that fails,
        turned into a neutral line), so the answer is a private message of its own.
        ``view``: its buttons (the lobby's)."""
        text = clip(text or "Done.", MAX_CONTENT)
        more: dict[str, Any] = {} if view is None else {"view": view}
        if not interaction.response.is_done():
            await interaction.response.send_message(text, ephemeral=True,
                                                    allowed_mentions=NO_MENTIONS, **more)
        elif interaction.extras.pop(PRIVATE_DEFER, False):  # the answer is the "thinking..."
            await interaction.edit_original_response(content=text,
                                                     allowed_mentions=NO_MENTIONS, **more)
        else:
            if interaction.extras.pop(PUBLIC_DEFER, False):
                try:
                    await interaction.delete_original_response()
                except discord.HTTPException as error:
                    log.info("could not delete the public placeholder: %s", error)
                    await interaction.edit_original_response(content="(No result to show.)")
            await interaction.followup.send(text, ephemeral=True, allowed_mentions=NO_MENTIONS,
                                            **more)

    async def send(self, interaction: discord.Interaction[Any], reply: Reply, *,
                   from_button: bool = False,
                   code_block: bool = False) -> discord.Message | None:
        """Answer ``interaction`` with ``reply`` (:meth:`_post`), then take the buttons off
        the messages the reply retired (:meth:`retire`).  Returns the public message
        posted (None for a private answer).  A reply with a move builder shows it privately
        (:mod:`.builder`)."""
        if reply.ok:
            interaction.extras[DONE] = True
        if reply.ok and reply.builder is not None:
            await builder.show(self.renderer, interaction, reply)
            return None
        held = self.notes is not None and is_challenge(reply)
        posted = await self._post(interaction, replace(reply, buttons=()) if held else reply,
                                  from_button=from_button, code_block=code_block)
        if held:
            await self._note_challenge(interaction, reply, posted)
        if reply.ok and reply.retire:
            pressed = (interaction.message.id if from_button and interaction.message is not None
                       else None)
            await self.retire(interaction.client, reply, pressed=pressed,
                              member=bot_is_member(interaction))
        return posted

    async def _note_challenge(self, interaction: discord.Interaction[Any], reply: Reply,
                              posted: discord.Message | None) -> None:
        """Have the service note the challenge's message just posted, then put its buttons
        on it (:func:`.posted.add_challenge_buttons`)."""
        assert self.notes is not None
        if posted is None:  # the interaction's response: ask Discord for it
            try:
                posted = await interaction.original_response()
            except discord.HTTPException as error:
                log.warning("the challenge's message could not be read back: %s", error)
                return
        place = place_of(interaction)
        if reply.channel_ref is not None and reply.channel_ref != place.channel_id:
            place = Place(place.guild_id, reply.channel_ref, parent_id=place.channel_id)
        await add_challenge_buttons(self.notes(), posted, place, actor_of(interaction.user),
                                    reply)

    async def retire(self, client: discord.Client, reply: Reply, *,
                     pressed: int | None = None, member: bool = True) -> None:
        """Edit each message ``reply`` retired: no buttons, and its new text if it has one.
        The action has committed already: a message deleted meanwhile, or out of reach, is
        logged and skipped.  ``pressed``: the message whose button was pressed (it lost its
        buttons in the answer itself).  Where the bot is not a member (``member`` false)
        only a message whose interaction token still runs is edited (:class:`OwnMessages`);
        the others keep their buttons, and a press on them is refused as stale."""
        for item in reply.retire:
            ref = item.message
            if ref.message_id == pressed and item.text is None:
                continue
            kwargs: dict[str, Any] = {"view": None}
            if item.text is not None:
                kwargs.update(content=clip(item.text, MAX_CONTENT), allowed_mentions=NO_MENTIONS)
            message: discord.Message | discord.PartialMessage | None
            if member:
                message = client.get_partial_messageable(ref.channel_id).get_partial_message(
                    ref.message_id)
            else:
                message = self.own.editable(ref.message_id)
                if message is None:
                    continue
            try:
                await message.edit(**kwargs)
            except discord.HTTPException as error:  # deleted, or no access any more
                log.info("could not retire the buttons of message %s: %s", ref.message_id,
                         error)

    async def _post(self, interaction: discord.Interaction[Any], reply: Reply, *,
                    from_button: bool = False,
                    code_block: bool = False) -> discord.Message | None:
        """Answer ``interaction`` with ``reply``; the public message posted, if any.

        From a button, an accepted action also strips the buttons of the
        message pressed (they are stale now) and posts the new state as a new
        message, so the channel keeps the game's history.
        """
        if not reply.ok or reply.ephemeral:
            await self.private(interaction, private_text(reply),
                               view=lobby_view(reply) if reply.ok else None)
            return None
        ref = reply.channel_ref
        member = bot_is_member(interaction)
        if not member:  # only the interaction's own messages, in its channel
            ref = None
        if self.live is not None and member and (ref is None or ref == interaction.channel_id):
            # (the board mode is a setting, maybe read from the database: within the
            # budget of the first response, deferred when it is slow)
            where = await self.call(interaction, self.live.where(interaction, reply))
            rest = await self.live.take(interaction, reply, where, from_button=from_button)
            if rest is None:  # the live board is edited in place
                return None
            reply = rest
        if ref is not None and ref != interaction.channel_id:
            # Acted from the channel of the game's thread: the state goes to the thread.
            await self.defer(interaction)
            out = await self.build(reply, code_block=code_block)  # (a member: no Refresh)
            there = interaction.client.get_partial_messageable(ref)
            sent_there: discord.Message = await there.send(**out.kwargs())
            await self.resolve_private(interaction, f"Done in <#{ref}>.")
            if from_button:
                await self._strip_pressed(interaction)
            if self.live is not None:
                guild = place_of(interaction).guild_id
                await self.live.posted(interaction, reply, sent_there,
                                       Place(guild, ref, parent_id=interaction.channel_id))
            return sent_there
        response = interaction.response
        slow = bool(reply.boards or reply.attachment or reply.pictures)
        if not response.is_done():
            if from_button:
                await response.edit_message(view=None)
            elif slow:
                await self.defer_public(interaction)
            else:
                out = await self.build(reply, code_block=code_block, refresh=not member)
                sent = await response.send_message(**out.kwargs())
                posted = sent.resource if isinstance(sent.resource, discord.Message) else None
                await self._supersede(interaction, reply, posted)
                return posted
            out = await self.build(reply, code_block=code_block, refresh=not member)
            message = await self.follow_up(interaction, **out.kwargs())
            await self._supersede(interaction, reply, message)
            return message
        # Deferred privately because the service was slow: resolve the private
        # "thinking" message, then post the state publicly.
        await self.resolve_private(interaction)
        if from_button:
            await self._strip_pressed(interaction)
        out = await self.build(reply, code_block=code_block, refresh=not member)
        message = await interaction.followup.send(wait=True, **out.kwargs())
        await self._supersede(interaction, reply, message)
        return message

    async def _strip_pressed(self, interaction: discord.Interaction[Any]) -> None:
        """Take the buttons off the pressed message when the answer itself could not (the
        press was deferred privately, or answered in the game's thread): the action is
        done, its buttons are stale.  Where the bot is not a member, only with the token of
        the message's own interaction while it runs (else they stay: a press answers that
        the game moved on)."""
        message = interaction.message
        if message is None or not message.components:
            return
        target = message if bot_is_member(interaction) else self.own.editable(message.id)
        if target is None:
            return
        try:
            await target.edit(view=None)
        except discord.HTTPException as error:  # deleted, or no access any more
            log.info("could not take the buttons off message %s: %s", message.id, error)

    async def publish(self, interaction: discord.Interaction[Any],
                      reply: Reply) -> discord.Message | None:
        """Post ``reply`` for the table after the interaction was answered otherwise (the
        move builder's pick that made the play edits the builder itself): a new board as a
        follow-up, or the live board edited."""
        member = bot_is_member(interaction)
        if self.live is not None and member:
            where = await self.live.where(interaction, reply)  # (answered already)
            rest = await self.live.take(interaction, reply, where, acked=True)
            if rest is None:
                return None
            reply = rest
        out = await self.build(reply, refresh=not member)
        message = await interaction.followup.send(wait=True, **out.kwargs())
        await self._supersede(interaction, reply, message)
        return message

    async def close(self) -> None:
        """Finish the live boards' edits under way."""
        if self.live is not None:
            await self.live.close()

    async def _supersede(self, interaction: discord.Interaction[Any], reply: Reply,
                         posted: discord.Message | None) -> None:
        """A new state of the game was posted: take the buttons off the board before it.

        Only the newest board of a channel keeps buttons (a button on an older
        one would only answer "moved on").  Replies that change no game state
        (an export, stats) leave the board alone.  Known for the messages this
        run posted; a board from before a restart keeps its buttons until
        pressed.
        """
        channel_id = interaction.channel_id
        if channel_id is None or reply.match_id is None or reply.version is None:
            return
        member = bot_is_member(interaction)
        if self.live is not None and member:
            await self.live.posted(interaction, reply, posted)
        if not member and posted is not None:  # editable with this interaction's token
            self.own.keep(posted, self.clock())
        previous = self._with_buttons.pop(channel_id, None)
        if posted is not None and reply.buttons:
            if len(self._with_buttons) >= MAX_TRACKED_CHANNELS:
                self._with_buttons.pop(next(iter(self._with_buttons)))
            self._with_buttons[channel_id] = posted.id
        pressed = interaction.message.id if interaction.message is not None else None
        if previous is None or previous == pressed or (
                posted is not None and previous == posted.id):
            return  # (a pressed message lost its buttons in the answer itself)
        stale: discord.Message | discord.PartialMessage | None
        if member:
            stale = interaction.client.get_partial_messageable(channel_id).get_partial_message(
                previous)
        else:  # only with its interaction's token, while it runs
            stale = self.own.editable(previous)
            if stale is None:
                return  # its buttons stay: a press on them answers that the game moved on
        try:
            await stale.edit(view=None)
        except discord.HTTPException as error:  # deleted, or no access any more
            log.debug("could not take the buttons off message %s: %s", previous, error)

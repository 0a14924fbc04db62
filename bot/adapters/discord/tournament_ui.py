"""What the tournament cog shows beyond replies: the persistent Join/Leave buttons of a
sign-up message, a thread per pairing, the bracket PNG.

The sign-up buttons are :class:`discord.ui.DynamicItem` like the game buttons, with the
custom id ``bgt:<join|leave>:<tournament id>``, so they work after a restart; a press
joins or leaves through the service and rewrites the sign-up message with the new count.
"""

from __future__ import annotations

import contextlib
import io
import logging
import re
from typing import Any, cast

import discord

from bot.adapters.discord import places
from bot.adapters.discord.convert import AnswerableOnly, actor_of, notice_text, place_of
from bot.adapters.discord.host import ServiceBot
from bot.adapters.discord.outgoing import MENTION_USERS, clip, private_text
from bot.adapters.discord.presenter import Presenter
from bot.service.core.replies import MessageRef, Reply
from bot.service.core.values import Place
from bot.service.game import GameService
from bot.service.tournaments.info import BracketPicture
from bot.service.tournaments.play import OPENING_RETRY, Opening

log = logging.getLogger(__name__)
TEMPLATE = r"bgt:(?P<act>join|leave):(?P<tournament>[0-9]+)"
ALT_TEXT_LIMIT = 1024


class SignupButton(AnswerableOnly, discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
                   template=TEMPLATE):
    """Join or Leave on a tournament's sign-up message."""

    def __init__(self, act: str, tournament: int) -> None:
        self.act = act
        self.tournament = tournament
        super().__init__(discord.ui.Button(
            label="Join" if act == "join" else "Leave",
            style=discord.ButtonStyle.success if act == "join"
            else discord.ButtonStyle.secondary,
            custom_id=f"bgt:{act}:{tournament}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> SignupButton:
        return cls(match["act"], int(match["tournament"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        host = cast(ServiceBot, interaction.client)
        try:
            await self.press(host, interaction)
        except Exception as error:  # one error handler for commands and buttons
            await host.on_interaction_error(interaction, error)

    async def press(self, host: ServiceBot, interaction: discord.Interaction[Any]) -> None:
        place, actor = place_of(interaction), actor_of(interaction.user)
        service = host.service
        call = service.tournament_join if self.act == "join" else service.tournament_leave

        async def work() -> tuple[Reply, str | None]:  # one wait before the answer
            reply = await call(place, actor, self.tournament)
            if not reply.ok:
                return reply, None
            lines = await service.tournament_signup_text(place, self.tournament)
            return reply, None if lines is None else "\n".join(map(notice_text, lines))

        reply, text = await host.presenter.call(interaction, work())
        if not reply.ok:
            await host.presenter.private(interaction, reply.text)
            return
        if not interaction.response.is_done():
            await interaction.response.edit_message(content=clip(text or reply.text, 2000))
        elif interaction.message is not None:
            await interaction.message.edit(content=clip(text or reply.text, 2000))
        await host.presenter.private(interaction, reply.text)


def signup_view(tournament: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(SignupButton("join", tournament))
    view.add_item(SignupButton("leave", tournament))
    return view


async def bracket_file(presenter: Presenter, picture: BracketPicture, theme: str
                       ) -> discord.File:
    """The bracket (or standings) PNG, drawn by the render workers, with its alt text."""
    from render.bracket import alt_text

    png = await presenter.renderer.bracket(picture.state, picture.names)
    return discord.File(io.BytesIO(png), filename="bracket.png",
                        description=clip(alt_text(picture.state, picture.names),
                                         ALT_TEXT_LIMIT))


async def open_pairing(client: discord.Client, service: GameService, presenter: Presenter,
                       opening: Opening, told: set[tuple[int, str]] | None = None) -> bool:
    """A thread for the pairing in the tournament's channel (:func:`.places.open_thread`: a
    public thread, or an announcement thread), the match in it (both players mentioned), a
    line in the tournament's announcement channel.

    The permissions it takes are checked first (:func:`.places.missing`): when one is
    missing, or Discord refuses the thread (the server's cap on active threads), nothing is
    created, the organiser is told exactly what is missing (once per tournament and
    problem: ``told``) and False is returned: the pairing is offered again (every
    :data:`~bot.service.tournaments.play.OPENING_RETRY`).  Once the match is made it is
    never stranded: if its board cannot be posted in the thread, the announcement says so
    and points the players to /board there once the permission is granted, and the
    organiser is told."""
    told = told if told is not None else set()
    channel = client.get_channel(opening.channel_id)
    try:
        if channel is None:
            channel = await client.fetch_channel(opening.channel_id)
    except discord.HTTPException as error:
        log.warning("tournament channel %s is out of reach: %s", opening.channel_id, error)
        await tell_organiser(client, service, opening, None, told, "channel",
                             f"I can't reach the tournament's channel ({error.text})")
        return False
    if not isinstance(channel, discord.TextChannel):
        await tell_organiser(client, service, opening, None, told, "kind",
                             "the tournament's channel cannot hold threads")
        return False
    lacking = places.missing(channel, places.bot_permissions(channel))
    if lacking:
        await tell_organiser(client, service, opening, channel, told, ",".join(lacking),
                             places.missing_text(lacking, channel))
        return False
    try:
        thread = await places.open_thread(
            client, channel, opening.title,
            starter=f"{opening.title}: the match is in this thread.",
            auto_archive_duration=1440, reason="tournament match")
    except discord.HTTPException as error:
        log.warning("cannot open the thread of %s: %s", opening.title, error)
        await tell_organiser(client, service, opening, channel, told, f"code {error.code}",
                             places.refused_text(error))
        return False
    reply = await service.tournament_open(opening, Place(opening.guild_id, thread.id))
    if not reply.ok:  # opened meanwhile by another process: this thread is not needed
        log.warning("pairing %s not opened: %s", opening.pairing, reply.text)
        try:
            await thread.delete(reason="pairing not opened")
        except discord.HTTPException:  # no Manage Threads: say what it was, and close it
            with contextlib.suppress(discord.HTTPException):
                await thread.send(f"{opening.title} is played elsewhere: {reply.text}")
        return False
    line = f"{opening.title}: the match is on in {thread.mention}."
    try:
        out = await presenter.build(reply)
        await thread.send(**out.kwargs())
    except discord.HTTPException as error:  # the match is on: never stranded
        log.warning("cannot post the board of %s: %s", opening.title, error)
        line = (f"{opening.title}: the match is on in {thread.mention} "
                f"({mentions(opening)}), but I can't post there yet "
                f"({places.refused_text(error)}): once a server admin grants it, type "
                "/board in the thread to see the board and play.")
        await tell_organiser(client, service, opening, channel, told, f"board {error.code}",
                             places.refused_text(error), started=thread)
    server = await service.server_settings(opening.guild_id)
    await announce(client, server.tournament_announcements, channel, line)
    return True


def mentions(opening: Opening) -> str:
    return f"<@{opening.a.id}> v <@{opening.b.id}>"


async def tell_organiser(client: discord.Client, service: GameService, opening: Opening,
                         channel: discord.TextChannel | None, told: set[tuple[int, str]],
                         problem: str, why: str, *, started: discord.Thread | None = None,
                         ) -> None:
    """Tell the tournament's organiser why ``opening`` cannot open (once per tournament and
    ``problem``), or, when its match is on in ``started`` already, why its board could not
    be posted there: in the tournament's channel, else the server's announcement channel,
    else by direct message."""
    key = (opening.tournament_id, problem)
    if key in told:
        return
    told.add(key)
    if started is None:
        text = (f"<@{opening.organiser_id}>: I can't open the match {opening.title}: {why}. "
                "Nothing was started; the pairing waits and I try again every "
                f"{int(OPENING_RETRY.total_seconds() // 60)} minutes. Ask a server admin to "
                "grant what is missing.")
    else:
        text = (f"<@{opening.organiser_id}>: the match {opening.title} is on in "
                f"{started.mention}, but I can't post in its thread: {why}. Ask a server "
                "admin to grant what is missing: its players play there then (/board shows "
                "it), or decide it with /tournament-admin result.")
    server = await service.server_settings(opening.guild_id)
    for where in (channel.id if channel is not None else None,
                  server.tournament_announcements):
        if where is None:
            continue
        target = client.get_channel(where)
        if isinstance(target, discord.TextChannel) and not target.permissions_for(
                target.guild.me).send_messages:
            continue
        try:
            target = target or await client.fetch_channel(where)
            if isinstance(target, discord.abc.Messageable):
                await target.send(text, allowed_mentions=MENTION_USERS)
                return
        except discord.HTTPException as error:
            log.warning("cannot tell the organiser in %s: %s", where, error)
    try:
        user = client.get_user(opening.organiser_id) or await client.fetch_user(
            opening.organiser_id)
        await user.send(text)
    except discord.HTTPException as error:
        log.warning("cannot tell the organiser of %s: %s", opening.title, error)


async def announce(client: discord.Client, where: int | None,
                   home: discord.abc.Messageable, text: str) -> None:
    """Post a tournament announcement in the server's announcement channel ``where``
    (``/settings set tournament_announcements``), else (or when that channel is out of
    reach) in the tournament's channel ``home``."""
    if where is not None:
        try:
            target = client.get_channel(where) or await client.fetch_channel(where)
            if isinstance(target, discord.abc.Messageable):
                await target.send(text, allowed_mentions=MENTION_USERS)
                return
            log.warning("the announcement channel %s takes no messages (a %s): posted in "
                        "the tournament's channel", where, type(target).__name__)
        except discord.HTTPException as error:
            log.warning("cannot post in the announcement channel %s: %s", where, error)
    try:
        await home.send(text, allowed_mentions=MENTION_USERS)
    except discord.HTTPException as error:
        log.warning("cannot post a tournament announcement: %s", error)


async def post_notices(client: discord.Client, notices: list[tuple[int, Any]]) -> int:
    sent = 0
    for channel_id, line in notices:
        channel = client.get_channel(channel_id)
        try:
            if channel is None:
                channel = await client.fetch_channel(channel_id)
            if isinstance(channel, discord.abc.Messageable):
                await channel.send(notice_text(line), allowed_mentions=MENTION_USERS)
                sent += 1
        except discord.HTTPException as error:
            log.warning("cannot post a tournament notice in %s: %s", channel_id, error)
    return sent


def with_signup(reply: Reply) -> discord.ui.View | None:
    return signup_view(reply.tournament_id) if reply.tournament_id is not None else None


async def send_signup(presenter: Presenter, interaction: discord.Interaction[Any],
                      reply: Reply) -> None:
    """The public sign-up message with its Join/Leave buttons (a refusal: privately)."""
    if not reply.ok:
        await presenter.private(interaction, private_text(reply))
        return
    content = "\n".join([reply.text, *map(notice_text, reply.notify)])
    kwargs: dict[str, Any] = {"content": clip(content, 2000),
                              "allowed_mentions": MENTION_USERS}
    view = with_signup(reply)
    if view is not None:
        kwargs["view"] = view
    posted: discord.Message | None
    if interaction.response.is_done():  # deferred privately: the sign-up goes below
        await presenter.resolve_private(interaction, "Tournament created: see below.")
        posted = await interaction.followup.send(wait=True, **kwargs)
    else:
        sent = await interaction.response.send_message(**kwargs)
        posted = sent.resource if isinstance(sent.resource, discord.Message) else None
    if posted is not None and reply.tournament_id is not None:
        await note_signup(cast(ServiceBot, interaction.client), interaction, reply.tournament_id,
                          posted)


async def note_signup(host: ServiceBot, interaction: discord.Interaction[Any], tournament: int,
                      posted: discord.Message) -> None:
    """Tell the service which message is the sign-up message, so that the start (or the
    cancellation) takes its buttons off; if it started already, they go at once."""
    place, actor = place_of(interaction), actor_of(interaction.user)
    noted = await host.service.tournament_signup_posted(
        place, actor, tournament, MessageRef(posted.channel.id, posted.id))
    if not noted.ok:  # the buttons stay; a press after the start is refused as before
        log.warning("sign-up message of tournament %s not stored: %s", tournament, noted.text)
        return
    await host.presenter.retire(host, noted)


async def send_bracket(presenter: Presenter, interaction: discord.Interaction[Any],
                       answer: tuple[Reply, BracketPicture | None], theme: str) -> None:
    """The bracket PNG as a public message (a refusal: privately)."""
    reply, picture = answer
    if not reply.ok or picture is None:
        await presenter.private(interaction, reply.text)
        return
    if not interaction.response.is_done():
        await presenter.defer_public(interaction)
    else:  # deferred privately: the picture goes below
        await presenter.resolve_private(interaction, "The bracket: see below.")
    file = await bracket_file(presenter, picture, theme)
    await presenter.follow_up(interaction, content=clip(reply.text, 2000), file=file,
                              allowed_mentions=MENTION_USERS)

"""Tournament commands: the players' /tournament join, leave, status, list, bracket, claim,
and the organisers' /tournament-admin create, start, result, confirm, remove, cancel, pause,
resume.

The service (:mod:`bot.service.tournaments.signup`) runs the tournament; this cog translates the
commands, posts the public sign-up message with persistent Join/Leave buttons, opens a
thread per pairing (in the tournament's channel; both players are mentioned there) as soon
as the service has pairings waiting for a place, posts the bracket as a PNG drawn by the
render workers, and sends the deadline reminders.  Organisers are members with Manage
Server or the server's organiser role (``/settings set organiser_role``, else the role
named by the operator's ``tournament.organiser_role``), as the interaction itself says
(its ``permissions`` and the member's roles it carries, never a cache).  Discord's
``default_member_permissions`` is per top-level command, so the organisers' subcommands
are a command of their own, ``/tournament-admin``, shown by default only to members with
Manage Server (a server opens it to its organiser role in Server Settings > Integrations).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot.adapters.discord import places
from bot.adapters.discord.cogs._base import Interaction, ServiceCog
from bot.adapters.discord.cogs.game import VariantName, clock_autocomplete, rule_terms
from bot.adapters.discord.convert import GUILD_CONTEXT, GUILD_INSTALL, actor_of, has_role
from bot.adapters.discord.tournament_ui import (
    SignupButton,
    open_pairing,
    post_notices,
    send_bracket,
    send_signup,
)

if TYPE_CHECKING:
    from bot.adapters.discord.host import ServiceBot

log = logging.getLogger(__name__)

FORMATS = [app_commands.Choice(name=n, value=v) for n, v in (
    ("single elimination", "single-elimination"), ("double elimination", "double-elimination"),
    ("round robin", "round-robin"), ("Swiss", "swiss"))]
Number = app_commands.Range[int, 1, 2**53 - 1]
"""A tournament number: Discord's INTEGER options reach 2**53 - 1 at most."""
NOT_TEXT_CHANNEL = ("Create a tournament in a text or announcement channel: each of its "
                    "matches is played in a thread of that channel, and a thread (a forum's "
                    "post too) cannot hold threads. Nothing was created.")


class TournamentCog(ServiceCog):
    """Tournaments from sign-up to champion."""

    # Only in servers that installed the app: a tournament's threads, sign-up message and
    # reminders are posted by the bot (Discord does not offer it anywhere else).
    tournament = app_commands.Group(name="tournament", guild_only=True,
                                    allowed_contexts=GUILD_CONTEXT,
                                    allowed_installs=GUILD_INSTALL,
                                    description="Tournaments run by the bot")
    admin = app_commands.Group(name="tournament-admin", guild_only=True,
                               allowed_contexts=GUILD_CONTEXT, allowed_installs=GUILD_INSTALL,
                               description="Run the server's tournaments (organisers)",
                               default_permissions=discord.Permissions(manage_guild=True))

    def __init__(self, bot: ServiceBot) -> None:
        super().__init__(bot)
        self.watcher: asyncio.Task[None] | None = None
        self.told: set[tuple[int, str]] = set()
        """(tournament, problem) the organiser was told of already (this run)."""

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(SignupButton)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Start the background work once connected (never for a bot that only loads its
        cogs, as the command-hash check does)."""
        if self.watcher is None:
            self.watcher = asyncio.create_task(self.watch())
        if not self.deadlines.is_running():
            self.deadlines.start()

    async def cog_unload(self) -> None:
        self.deadlines.cancel()
        if self.watcher is not None:
            self.watcher.cancel()

    async def interaction_check(self, interaction: Interaction) -> bool:
        """Before each command: the server's settings (its organiser role)."""
        if interaction.guild_id is not None:
            interaction.extras["settings"] = await self.presenter.call(
                interaction, self.service.server_settings(interaction.guild_id))
        return True

    def is_organiser(self, interaction: Interaction) -> bool:
        member = interaction.user
        if not isinstance(member, discord.Member):
            return False
        settings = interaction.extras.get("settings") or self.service.settings.defaults()
        return interaction.permissions.manage_guild or has_role(member,
                                                                settings.organiser_role)

    # ------------------------------------------------------------- background

    async def open_pairings(self) -> int:
        """Open every pairing waiting for its thread; how many were opened."""
        opened = 0
        for opening in await self.service.tournament_openings():
            opened += await open_pairing(self.bot, self.service, self.presenter, opening,
                                         self.told)
        return opened

    async def watch(self) -> None:
        """Open pairings as soon as the service has some (and every minute, for those a
        process that died had taken on)."""
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.service.tournament_play.wakeup.wait(), 60)
            try:
                await self.open_pairings()
            except Exception:  # keep watching: the next round tries again
                log.exception("opening tournament pairings failed")

    @tasks.loop(minutes=1)
    async def deadlines(self) -> None:
        await post_notices(self.bot, await self.service.tournament_due())

    # ------------------------------------------------------------- commands

    @admin.command(description="Create a tournament taking sign-ups here (organisers)")
    @app_commands.describe(
        name="The tournament's name", format="Single or double elimination, round robin, Swiss",
        length="Match length: e.g. 5, or '5 final 7', or '3 r3=5 final 7'",
        variant="Variant: standard, acey-deucey, russian, french...",
        rounds="Swiss: number of rounds (default: log2 of the field, rounded up)",
        max_players="Most players who may sign up",
        signup_until="Hours sign-up stays open", round_deadline="Hours each round lasts",
        jacoby="Jacoby rule", crawford="Crawford rule", cube="Doubling cube",
        clock="Every match's clock: none, fast, normal, casual, usbgf, or e.g. 12s+2m/pt")
    @app_commands.autocomplete(clock=clock_autocomplete)
    @app_commands.choices(format=FORMATS)
    async def create(self, interaction: Interaction, name: app_commands.Range[str, 1, 60],
                     format: app_commands.Choice[str], length: str = "5",
                     variant: app_commands.Transform[str, VariantName] | None = None,
                     rounds: app_commands.Range[int, 1, 64] | None = None,
                     max_players: app_commands.Range[int, 2, 1024] | None = None,
                     signup_until: app_commands.Range[float, 0.1, 1440.0] | None = None,
                     round_deadline: app_commands.Range[float, 0.0, 1440.0] | None = None,
                     jacoby: bool | None = None, crawford: bool | None = None,
                     cube: bool | None = None,
                     clock: app_commands.Range[str, 1, 40] | None = None) -> None:
        if not isinstance(interaction.channel, discord.TextChannel):
            return await self.presenter.private(interaction, NOT_TEXT_CHANNEL)
        lacking = places.missing(interaction.channel, interaction.app_permissions)
        if lacking:  # each match is played in a thread of this channel: checked up front
            return await self.presenter.private(interaction, (
                f"I can't run a tournament here: "
                f"{places.missing_text(lacking, interaction.channel)}, which its matches "
                "need (each is played in a thread of this channel, with its board). Ask a "
                "server admin to grant it, or create the tournament in another channel. "
                "Nothing was created."))
        await send_signup(self.presenter, interaction, await self.presenter.call(
            interaction, self.service.tournament_create(
                *self.where(interaction), is_organiser=self.is_organiser(interaction),
                name=name, format=format.value, length=length, variant=variant,
                rules=rule_terms(jacoby=jacoby, crawford=crawford, cube=cube),
                max_players=max_players, rounds=rounds, signup_hours=signup_until,
                round_hours=round_deadline, clock=clock)))

    @tournament.command(description="Sign up for the tournament")
    async def join(self, interaction: Interaction, tournament: Number | None = None) -> None:
        await self.answer(interaction, self.service.tournament_join(*self.where(interaction),
            tournament))

    @tournament.command(description="Take your name off the tournament (before it starts)")
    async def leave(self, interaction: Interaction, tournament: Number | None = None) -> None:
        await self.answer(interaction, self.service.tournament_leave(*self.where(interaction),
            tournament))

    @admin.command(description="Start the tournament: seeding, round 1 (organisers)")
    async def start(self, interaction: Interaction, tournament: Number | None = None) -> None:
        await self.answer(interaction, self.service.tournament_start(*self.where(interaction),
            is_organiser=self.is_organiser(interaction), tournament=tournament))

    @tournament.command(description="The tournament: round, matches waiting, standings")
    async def status(self, interaction: Interaction, tournament: Number | None = None) -> None:
        await self.answer(interaction, self.service.tournament_status(
            self.where(interaction)[0], tournament))

    @tournament.command(name="list", description="This server's tournaments")
    async def list_(self, interaction: Interaction) -> None:
        await self.answer(interaction, self.service.tournament_list(self.where(interaction)[0]))

    @tournament.command(description="The bracket (or the standings table) as a picture")
    async def bracket(self, interaction: Interaction, tournament: Number | None = None) -> None:
        await send_bracket(self.presenter, interaction, await self.presenter.call(
            interaction, self.service.tournament_bracket(self.where(interaction)[0],
                                                         tournament)),
                           self.bot.config.render.theme)

    @admin.command(description="Enter a match's result, with the reason (organisers)")
    @app_commands.describe(pairing="The match, e.g. R2-3", winner="Who wins it",
                           reason="Why (stored and shown with the result)")
    async def result(self, interaction: Interaction, pairing: app_commands.Range[str, 1, 12],
                     winner: discord.User, reason: app_commands.Range[str, 1, 200],
                     tournament: Number | None = None) -> None:
        await self.answer(interaction, self.service.tournament_result(*self.where(interaction),
            is_organiser=self.is_organiser(interaction), pairing=pairing, winner=winner.id,
            reason=reason, tournament=tournament))

    @tournament.command(description="After the deadline: claim the match your opponent "
                                    "never played (the organiser confirms)")
    async def claim(self, interaction: Interaction, tournament: Number | None = None) -> None:
        await self.answer(interaction, self.service.tournament_claim(*self.where(interaction),
            tournament))

    @admin.command(description="Confirm a player's claim (organisers)")
    async def confirm(self, interaction: Interaction, pairing: app_commands.Range[str, 1, 12],
                      tournament: Number | None = None) -> None:
        await self.answer(interaction, self.service.tournament_confirm(*self.where(interaction),
            is_organiser=self.is_organiser(interaction), pairing=pairing, tournament=tournament))

    @admin.command(description="Remove a player; their match is forfeited (organisers)")
    async def remove(self, interaction: Interaction, player: discord.User,
                     tournament: Number | None = None) -> None:
        await self.answer(interaction, self.service.tournament_remove(*self.where(interaction),
            is_organiser=self.is_organiser(interaction), user=actor_of(player).id,
            tournament=tournament))

    @admin.command(description="Cancel the tournament (organisers)")
    async def cancel(self, interaction: Interaction, tournament: Number | None = None) -> None:
        await self.answer(interaction, self.service.tournament_cancel(*self.where(interaction),
            is_organiser=self.is_organiser(interaction), tournament=tournament))

    @admin.command(description="Stop the deadlines (organisers)")
    async def pause(self, interaction: Interaction, tournament: Number | None = None) -> None:
        await self.answer(interaction, self.service.tournament_pause(*self.where(interaction),
            is_organiser=self.is_organiser(interaction), tournament=tournament))

    @admin.command(description="Restart the deadlines (organisers)")
    async def resume(self, interaction: Interaction, tournament: Number | None = None) -> None:
        await self.answer(interaction, self.service.tournament_resume(*self.where(interaction),
            is_organiser=self.is_organiser(interaction), tournament=tournament))


async def setup(bot: ServiceBot) -> None:
    await bot.add_cog(TournamentCog(bot))

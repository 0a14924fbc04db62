"""What every cog shares: the service, the presenter and the call-then-answer step."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from bot.adapters.discord import places
from bot.adapters.discord.convert import actor_of, place_of
from bot.adapters.discord.presenter import Presenter
from bot.service.core.replies import Action, Reply
from bot.service.core.values import Actor, Place
from bot.service.game import GameService

if TYPE_CHECKING:
    from bot.adapters.discord.host import ServiceBot

Interaction = discord.Interaction[Any]


class ServiceCog(commands.Cog):
    """A cog whose commands translate interactions into service calls."""

    def __init__(self, bot: ServiceBot) -> None:
        self.bot = bot

    @property
    def service(self) -> GameService:
        return self.bot.service

    @property
    def presenter(self) -> Presenter:
        return self.bot.presenter

    @staticmethod
    def where(interaction: Interaction) -> tuple[Place, Actor]:
        return place_of(interaction), actor_of(interaction.user)

    async def act(self, interaction: Interaction, action: Action,
                  option: str | None = None) -> Reply:
        """Perform ``action`` through the service's action table and answer."""
        place, actor = self.where(interaction)
        return await self.answer(interaction, self.service.act(action, place, actor,
                                                                option=option))

    async def answer(self, interaction: Interaction, work: Awaitable[Reply], *,
                     code_block: bool = False) -> Reply:
        """Run a service call (deferring if slow) and answer with its reply."""
        reply = await self.presenter.call(interaction, work)
        if reply.ok:  # in a thread archived meanwhile: open it again first
            await places.reopen(interaction.channel)
        await self.presenter.send(interaction, reply, code_block=code_block)
        return reply

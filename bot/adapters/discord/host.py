"""The bot as its cogs see it: a discord.py bot with the game service, the presenter and
the config.  :class:`~bot.adapters.discord.app.BackgammonBot` is the implementation; the
cogs depend on this interface only (so the app may load them without an import cycle)."""

from __future__ import annotations

from abc import abstractmethod
from typing import Any

import discord
from discord.ext import commands

from bot.adapters.discord.presenter import Presenter
from bot.config import Config
from bot.service.game import GameService


class ServiceBot(commands.AutoShardedBot):
    config: Config
    presenter: Presenter

    @property
    @abstractmethod
    def service(self) -> GameService:
        """The game service (started in ``setup_hook``)."""

    @abstractmethod
    async def on_interaction_error(self, interaction: discord.Interaction[Any],
                                   error: Exception) -> None:
        """The one error handler of commands and buttons."""

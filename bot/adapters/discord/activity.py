"""The live board as Discord's activity (issue 45): the **Open board** button on every
game board, answered by launching the application's activity (the interaction response
``LAUNCH_ACTIVITY``, type 12), and the board's web server started with the bot.

The activity's page signs in with Discord (:mod:`bot.adapters.web.auth`) and shows the
game of the channel it was launched in, live; the channel's PNG boards go on as before.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord
from aiohttp import web

from bot.adapters.discord.convert import AnswerableOnly
from bot.adapters.web.auth import DiscordAuth
from bot.adapters.web.server import make_app
from bot.config import Config, split_address
from bot.service.game import GameService

log = logging.getLogger(__name__)

OPEN_ID = "bg-open-board"
LABEL = "Open board"


class OpenBoard(AnswerableOnly, discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
                template=re.escape(OPEN_ID)):
    """Launches the activity in the board's channel (anyone may: spectators watch)."""

    def __init__(self) -> None:
        super().__init__(discord.ui.Button(label=LABEL, style=discord.ButtonStyle.secondary,
                                           custom_id=OPEN_ID))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> OpenBoard:
        return cls()

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.launch_activity()


async def start_board(config: Config, service: GameService,
                      bot_token: str) -> web.AppRunner | None:
    """Serve the board on ``activity.address`` when the activity is set up (the bot
    stops it); None when it is not.  ``bot_token`` reads the activity instances."""
    activity = config.activity
    if not activity.enabled:
        return None
    auth = DiscordAuth(activity.application_id, activity.secret, bot_token, activity.api)
    runner = web.AppRunner(make_app(service, auth=auth), access_log=None)
    await runner.setup()
    host, port = split_address(activity.address)
    await web.TCPSite(runner, host, port).start()
    log.info("the live board (Discord's activity) on http://%s:%d/", host, port)
    return runner

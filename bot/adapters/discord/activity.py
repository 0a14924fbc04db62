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
PRIMARY_ENTRY_POINT = 4
"""The application command type of an app's Entry Point command (Discord's docs,
interactions/application-commands, "Application Command Types")."""
DISCORD_LAUNCH_ACTIVITY = 2
"""Entry point handler: Discord launches the activity itself and posts its follow-up
message (``APP_HANDLER``, 1, would send the bot an interaction to answer)."""


def entry_point_command(like: dict[str, Any] | None = None) -> dict[str, Any]:
    """The app's Entry Point command (synced with the global commands when the activity
    is set up): the App Launcher's way to open the board in a channel, launched by Discord
    (no options: Discord's docs allow none).  ``like``: a global command whose
    ``contexts`` and ``integration_types`` it shares."""
    command: dict[str, Any] = {
        "name": "launch", "type": PRIMARY_ENTRY_POINT, "handler": DISCORD_LAUNCH_ACTIVITY,
        "description": "Open the live backgammon board here: play or watch the game of "
                       "this channel"}
    for key in ("contexts", "integration_types"):
        if like is not None and key in like:
            command[key] = like[key]
    return command


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

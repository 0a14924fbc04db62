"""Reminders: every minute, remind the player to act in games idle for too long.

The service decides which games are due (each server's ``reminder_minutes``:
``/settings``, else the operator's ``timeouts.reminder_minutes``) and
makes sure each state of a match is reminded once, even with several bot
processes; this cog only posts the lines it gets.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord.ext import commands, tasks

from bot.adapters.discord.cogs._base import ServiceCog
from bot.adapters.discord.convert import notice_text
from bot.adapters.discord.outgoing import MENTION_USERS

if TYPE_CHECKING:
    from bot.adapters.discord.host import ServiceBot

log = logging.getLogger(__name__)


class ReminderCog(ServiceCog):
    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Start once connected (a server may want reminders whatever the operator's
        default; never for a bot that only loads its cogs, as the command-hash check does)."""
        if not self.loop.is_running():
            self.loop.start()

    async def cog_unload(self) -> None:
        self.loop.cancel()

    @tasks.loop(minutes=1)
    async def loop(self) -> None:
        await self.send_reminders()

    @loop.before_loop
    async def before(self) -> None:
        await self.bot.wait_until_ready()

    async def send_reminders(self) -> int:
        """Post the due reminders; how many were posted."""
        sent = 0
        for channel_id, line in await self.service.due_reminders():
            channel = self.bot.get_channel(channel_id)
            try:
                if channel is None:
                    channel = await self.bot.fetch_channel(channel_id)
                if not isinstance(channel, discord.abc.Messageable):
                    continue
                await channel.send(notice_text(line), allowed_mentions=MENTION_USERS)
                sent += 1
            except discord.HTTPException as exc:
                log.warning("cannot post a reminder in channel %s: %s", channel_id, exc)
        return sent


async def setup(bot: ServiceBot) -> None:
    await bot.add_cog(ReminderCog(bot))

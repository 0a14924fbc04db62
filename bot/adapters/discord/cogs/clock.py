"""The clock's timer (issue 44): every quarter of a second the service's one entry point for
the clocks' due work (:meth:`~bot.service.game.GameService.due_work`, which the console
calls too); each match lost on time is posted in its channel, with the final board and
both clocks, within a second of the fall.  The service decides each fall once, also with
several bot processes on one database; this cog only posts what it gets."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord.ext import commands, tasks

from bot.adapters.discord.cogs._base import ServiceCog

if TYPE_CHECKING:
    from bot.adapters.discord.host import ServiceBot

log = logging.getLogger(__name__)

TICK_SECONDS = 0.25


class ClockCog(ServiceCog):
    @commands.Cog.listener()
    async def on_ready(self) -> None:
        if not self.loop.is_running():
            self.loop.start()

    async def cog_unload(self) -> None:
        self.loop.cancel()

    @tasks.loop(seconds=TICK_SECONDS)
    async def loop(self) -> None:
        try:
            await self.post_falls()
        except Exception:  # the timer goes on: the next round tries again
            log.exception("the clock timer failed")

    @loop.before_loop
    async def before(self) -> None:
        await self.bot.wait_until_ready()

    async def post_falls(self) -> int:
        """Post the matches lost on time since the last look; how many were posted."""
        posted = 0
        for channel_id, reply in await self.service.due_work():
            channel = self.bot.get_channel(channel_id)
            try:
                if channel is None:
                    channel = await self.bot.fetch_channel(channel_id)
                if not isinstance(channel, discord.abc.Messageable):
                    continue
                out = await self.presenter.build(reply)
                await channel.send(**out.kwargs())
                posted += 1
            except discord.HTTPException as exc:  # the match is decided: only the post is lost
                log.warning("cannot post a flag fall in channel %s: %s", channel_id, exc)
        return posted


async def setup(bot: ServiceBot) -> None:
    await bot.add_cog(ClockCog(bot))

"""Game threads close when their match ends (issue 29 item 8): every minute, the bot's own
threads whose match ended their server's ``archive_after_minutes`` ago (``/settings``; the
operator's ``discord.archive_after_minutes`` by default), with nothing open there now, are
archived (Discord caps a server's active threads, and a big tournament makes
hundreds).  The service answers from what is stored, so a restart loses nothing; a thread
is reopened when a game goes on there (a rematch: :func:`.places.reopen`).  Archiving needs
Manage Threads: without it the thread stays until Discord archives it after a day without
activity (each game's thread is opened with that duration)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord.ext import commands, tasks

from bot.adapters.discord.cogs._base import ServiceCog

if TYPE_CHECKING:
    from bot.adapters.discord.host import ServiceBot

log = logging.getLogger(__name__)


class ThreadsCog(ServiceCog):
    def __init__(self, bot: ServiceBot) -> None:
        super().__init__(bot)
        self.unable: set[int] = set()
        """Guilds where the bot was found without Manage Threads (logged once)."""

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        if not self.loop.is_running():
            self.loop.start()

    async def cog_unload(self) -> None:
        self.loop.cancel()

    @tasks.loop(minutes=1)
    async def loop(self) -> None:
        if self.loop.current_loop == 0:  # the first sweep a minute after start-up
            return
        try:
            await self.archive_finished()
        except Exception:  # keep going: the next minute tries again
            log.exception("archiving finished game threads failed")

    async def archive_finished(self) -> int:
        """Archive the bot's active threads whose match ended their server's grace period
        ago; how many were archived."""
        me = self.bot.user
        if me is None:
            return 0
        mine = {t.id: t for guild in self.bot.guilds for t in guild.threads
                if t.owner_id == me.id and not t.archived and not t.locked}
        if not mine:
            return 0
        archived = 0
        found = await self.service.finished_threads({i: t.guild.id for i, t in mine.items()})
        for channel_id in found:
            thread = mine[channel_id]
            if not thread.permissions_for(thread.guild.me).manage_threads:
                if thread.guild.id not in self.unable:
                    self.unable.add(thread.guild.id)
                    log.info("no Manage Threads in guild %s: finished games' threads stay "
                             "until Discord archives them", thread.guild.id)
                continue
            try:
                await thread.edit(archived=True, reason="its match ended")
                archived += 1
            except discord.HTTPException as error:
                log.warning("could not archive thread %s: %s", channel_id, error)
        return archived


async def setup(bot: ServiceBot) -> None:
    await bot.add_cog(ThreadsCog(bot))

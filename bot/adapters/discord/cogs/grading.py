"""Grades and puzzles (issue 33): ``/puzzle``, the background grader of this process,
and the daily puzzle.

* The grader (:class:`~bot.service.grading.service.Grader`) starts when the bot is first
  ready, where the AI is on and the server grades matches, and stops (abandoning the analysis
  under way, whose match goes back to the queue) when the cog unloads, which
  ``Bot.close()`` does on shutdown.  It posts each match's grades in the match's channel
  as an ordinary message (no interaction token is involved, so no 15-minute limit).
* Every minute (once the bot is ready, where a server has a daily puzzle channel) the
  daily puzzles due are posted, each claimed once cluster-wide.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot.adapters.discord.cogs._base import Interaction, ServiceCog
from bot.service.core.replies import Reply
from bot.service.grading.service import Grader

if TYPE_CHECKING:
    from bot.adapters.discord.host import ServiceBot

log = logging.getLogger(__name__)


class GradingCog(ServiceCog):
    """/puzzle, the grades of every match, the daily puzzle."""

    def __init__(self, bot: ServiceBot) -> None:
        super().__init__(bot)
        self.grader: Grader | None = None

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Start grading and the daily puzzles once the bot is connected (they post in
        channels); a reconnection changes nothing."""
        config = self.bot.config.analysis
        if not self.daily.is_running():  # (a server may name its channel any time)
            self.daily.start()
        if self.grader is None and self.service.ai is not None:  # (servers' grade_matches)
            from bot.ai.background import BackgroundAnalyser

            self.grader = self.service.grader(BackgroundAnalyser(nice=config.grade_nice),
                                              self.post)
            self.grader.start()

    async def cog_unload(self) -> None:
        self.daily.cancel()
        if self.grader is not None:
            await self.grader.stop()  # (the match under way goes back to the queue)

    async def channel(self, channel_id: int) -> discord.abc.Messageable | None:
        channel = self.bot.get_channel(channel_id)
        if channel is None:
            channel = await self.bot.fetch_channel(channel_id)
        return channel if isinstance(channel, discord.abc.Messageable) else None

    async def post(self, channel_id: int, reply: Reply) -> None:
        """Post ``reply`` in ``channel_id`` as an ordinary message (the grades)."""
        channel = await self.channel(channel_id)
        if channel is None:
            raise RuntimeError(f"channel {channel_id} cannot receive messages")
        out = await self.presenter.build(reply)
        await channel.send(**out.kwargs())

    @tasks.loop(minutes=1)
    async def daily(self) -> None:
        await self.post_daily()

    async def post_daily(self) -> int:
        """Post the daily puzzles due; how many were posted."""
        sent = 0
        for post in await self.service.daily_puzzles():
            try:
                await self.post(post.channel_id, post.reply)
            except (discord.HTTPException, RuntimeError) as error:
                log.warning("cannot post the daily puzzle in channel %s: %s",
                            post.channel_id, error)
                continue  # claimed but not sent: taken again once the claim is stale
            await self.service.daily_puzzle_sent(post)
            sent += 1
        return sent

    @app_commands.command(description="A puzzle made from this server's own blunders "
                                      "(standard backgammon)")
    @app_commands.describe(answer="Your answer: a play such as 13/7 8/7, or double, "
                                  "no double, take, pass (default: show the puzzle)",
                           number="Which puzzle (default: the next one you have not "
                                  "answered)")
    async def puzzle(self, interaction: Interaction, answer: str | None = None,
                     number: app_commands.Range[int, 1, 1_000_000_000] | None = None) -> None:
        place, actor = self.where(interaction)
        if answer:
            await self.answer(interaction, self.service.puzzle_answer(place, actor, answer,
                                                                      number))
        else:
            await self.answer(interaction, self.service.puzzle(place, actor, number))


async def setup(bot: ServiceBot) -> None:
    await bot.add_cog(GradingCog(bot))

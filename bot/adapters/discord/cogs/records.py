"""/history: the moves of the game here so far, and of the match's earlier games
(issue 19 item 11).  A long history comes as a text file (the service decides)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord import app_commands

from bot.adapters.discord.cogs._base import Interaction, ServiceCog

if TYPE_CHECKING:
    from bot.adapters.discord.host import ServiceBot


class RecordsCog(ServiceCog):
    """The record of the games played here."""

    @app_commands.command(description="The moves, dice and cube actions of the games here "
                                      "(the match so far, or one game)")
    @app_commands.describe(game="The game's number as this channel shows it (default: every "
                                "game of the match; at a chouette table, the latest)")
    @app_commands.checks.bot_has_permissions(attach_files=True)
    async def history(self, interaction: Interaction,
                      game: app_commands.Range[int, 1, 1_000_000] | None = None) -> None:
        place, actor = self.where(interaction)
        await self.answer(interaction, self.service.history(place, actor, game),
                          code_block=True)


async def setup(bot: ServiceBot) -> None:
    await bot.add_cog(RecordsCog(bot))

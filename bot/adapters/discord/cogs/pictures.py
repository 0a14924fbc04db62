"""Pictures (issue 18): ``/replay [game]``, a game of this channel's match as an animated
GIF.  (``/analyze`` adds its graph and ``/stats`` its player card through the replies'
pictures; the presenter attaches every picture with its alt text.)"""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord import app_commands

from bot.adapters.discord.cogs._base import Interaction, ServiceCog

if TYPE_CHECKING:
    from bot.adapters.discord.host import ServiceBot


class PicturesCog(ServiceCog):
    """Replays."""

    @app_commands.command(description="A game of this channel's match as an animation")
    @app_commands.describe(game="Game number (default: the last finished game here)")
    @app_commands.checks.bot_has_permissions(attach_files=True)
    async def replay(self, interaction: Interaction,
                     game: app_commands.Range[int, 1, 100_000] | None = None) -> None:
        place, actor = self.where(interaction)
        await self.answer(interaction, self.service.replay(place, actor, game))


async def setup(bot: ServiceBot) -> None:
    await bot.add_cog(PicturesCog(bot))

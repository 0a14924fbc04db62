"""Finding an opponent (issue 44): ``/queue join|leave|status`` and ``/lobby``.  The
pairings are posted by the timer (:mod:`.clock`: the service's one entry point for due
work), in the channel where the later of the two joined, mentioning both."""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord import app_commands

from bot.adapters.discord.cogs._base import Interaction, ServiceCog
from bot.adapters.discord.cogs.game import VariantName, clock_autocomplete
from bot.service.lobby.queue import Wanted

if TYPE_CHECKING:
    from bot.adapters.discord.host import ServiceBot


class LobbyCog(ServiceCog):
    # Offered everywhere, as /chouette is: without a server the service says why not.
    queue = app_commands.Group(name="queue",
                               description="Wait to be paired with an opponent of your rating")

    @queue.command(description="Wait for an opponent (the closest rating first)")
    @app_commands.describe(
        length="Match length in points (default 3; 0 for money play)",
        variant="Variant: standard, acey-deucey, russian, french...",
        clock="Time control: none, correspondence, fast, normal, casual, usbgf, or 12s+2m/pt",
        rated="Count the match for the ratings (default: yes)",
        bot_after="Minutes after which you play me (the bot) if nobody was found")
    @app_commands.autocomplete(clock=clock_autocomplete)
    async def join(self, interaction: Interaction,
                   length: app_commands.Range[int, 0, 25] = 3,
                   variant: app_commands.Transform[str, VariantName] | None = None,
                   clock: app_commands.Range[str, 1, 40] | None = None,
                   rated: bool = True,
                   bot_after: app_commands.Range[float, 0.1, 59.0] | None = None) -> None:
        place, actor = self.where(interaction)
        await self.answer(interaction, self.service.queue.join(
            place, actor, Wanted(length, variant, clock, rated, bot_after or 0.0)))

    @queue.command(description="Leave the queue")
    async def leave(self, interaction: Interaction) -> None:
        await self.answer(interaction, self.service.queue.leave(*self.where(interaction)))

    @queue.command(description="Who waits in the queue, for what")
    async def status(self, interaction: Interaction) -> None:
        await self.answer(interaction, self.service.queue.status(*self.where(interaction)))

    @app_commands.command(description="The server's open challenges and its queue")
    async def lobby(self, interaction: Interaction) -> None:
        await self.answer(interaction, self.service.queue.lobby(*self.where(interaction)))


async def setup(bot: ServiceBot) -> None:
    await bot.add_cog(LobbyCog(bot))

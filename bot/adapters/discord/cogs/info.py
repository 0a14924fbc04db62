"""Information commands: /leaderboard, /stats, /export, /verify, /rules and /help
(every command, a group such as /chouette on one line with its subcommands)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.adapters.discord.cogs._base import Interaction, ServiceCog
from bot.adapters.discord.cogs.game import VariantName
from bot.adapters.discord.convert import actor_of, place_of
from bot.adapters.discord.outgoing import EMBED_COLOUR
from bot.service.records.export import FORMATS

if TYPE_CHECKING:
    from bot.adapters.discord.host import ServiceBot

ORDERS = [app_commands.Choice(name=n, value=n)
          for n in ("rating", "money", "wins", "pr", "puzzles")]
EXPORT_FORMATS = [app_commands.Choice(name=f, value=f) for f in FORMATS]
START_TIPS = ("Start with `/challenge @user` (options: `length` or `stake`, `variant`, `rated`, "
              "`hints` to allow `/hint` in a rated match, `level` against me, and the rule "
              "options); the buttons under each board show what you can do next. A finished "
              "play can be taken back (`/undo`) until the opponent rolls: after a play his "
              "throw waits for him, even when he may not double. Chouette: `/chouette open`, "
              "the others `/chouette join`, then `/chouette start`.")
"""The last line of ``/help``: how to start, and the options of ``/challenge``."""


class InfoCog(ServiceCog):
    """Rankings, statistics, records and help."""

    @app_commands.command(description="The server's backgammon leaderboard")
    @app_commands.describe(order="Rank by rating, money won, wins, PR (analysed standard "
                                 "matches) or puzzles solved", page="Page number")
    @app_commands.choices(order=ORDERS)
    async def leaderboard(self, interaction: Interaction,
                          order: app_commands.Choice[str] | None = None,
                          page: app_commands.Range[int, 1, 1000] = 1) -> None:
        place, actor = self.where(interaction)
        await self.answer(interaction, self.service.leaderboard(
            place, actor, order.value if order else "rating", page), code_block=True)

    @app_commands.command(description="Backgammon statistics of a player (you by default)")
    @app_commands.describe(user="Whose statistics (default: yours)")
    async def stats(self, interaction: Interaction, user: discord.User | None = None) -> None:
        place, actor = self.where(interaction)
        await self.answer(interaction, self.service.stats(
            place, actor, actor_of(user) if user else None), code_block=True)

    @app_commands.command(description="Download the record of this channel's match "
                                      "(.sgf or .mat, for GNU Backgammon)")
    @app_commands.rename(fmt="format")
    @app_commands.describe(fmt="sgf: for analysis in GNU Backgammon (carries the rules); "
                                  "mat: for other programs (default)",
                           game="At a chouette table: which of the table's games "
                                "(default: the latest)")
    @app_commands.choices(fmt=EXPORT_FORMATS)
    @app_commands.checks.bot_has_permissions(attach_files=True)
    async def export(self, interaction: Interaction,
                     fmt: app_commands.Choice[str] | None = None,
                     game: app_commands.Range[int, 1, 1_000_000] | None = None) -> None:
        place, actor = self.where(interaction)
        await self.answer(interaction, self.service.export(
            place, actor, fmt.value if fmt else FORMATS[0], game))

    @app_commands.command(description="Check that every die of a finished game came from "
                                      "its published seed")
    @app_commands.describe(game="The game's number as this channel shows it (default: the "
                                "last finished game here)")
    async def verify(self, interaction: Interaction,
                     game: app_commands.Range[int, 1, 1_000_000] | None = None) -> None:
        place, actor = self.where(interaction)
        await self.answer(interaction, self.service.verify(place, actor, game))

    @app_commands.command(description="The rules and options in force here (or of a "
                                      "variant)")
    @app_commands.describe(variant="A variant under the server's default options (default: "
                                   "the game in this channel, else the server's defaults)")
    async def rules(self, interaction: Interaction,
                    variant: app_commands.Transform[str, VariantName] | None = None) -> None:
        place = place_of(interaction) if interaction.channel_id is not None else None
        reply = await self.presenter.call(interaction, self.service.rules(variant, place))
        await self.presenter.private(interaction, reply.text)

    @app_commands.command(description="How to play backgammon here: the commands")
    async def help(self, interaction: Interaction) -> None:
        lines = ["**Backgammon commands**"]  # the title, then one line a command
        for command in sorted(self.bot.tree.get_commands(), key=lambda c: c.name):
            name = command.name
            if isinstance(command, app_commands.Group):  # one line: /chouette open|join...
                name += " " + "|".join(sub.name for sub in command.commands)
            description = getattr(command, "description", "")
            lines.append(f"`/{name}` {description}")
        lines.append("Installed to your account, I play in DMs and group DMs too: matches, "
                     "money play and games against me (your personal rating); chouette, "
                     "tournaments and the leaderboard need a server. There, **Refresh** "
                     "under a board shows the game now.")
        lines.append(START_TIPS)
        # An embed's description holds 4096 characters (a message 2000): the list of
        # every command fits whole as the bot grows.
        embed = discord.Embed(title=lines[0].strip("*"), description="\n".join(lines[1:]),
                              colour=EMBED_COLOUR)
        await interaction.response.send_message(embed=embed, ephemeral=True)


async def setup(bot: ServiceBot) -> None:
    await bot.add_cog(InfoCog(bot))


"""Chouette commands: /chouette open, join, leave, start, suggest and status.

A chouette is one player (the box) against a team (a captain and partners)
sharing one board; :mod:`engine.chouette` has the rules and
:class:`~bot.service.chouette.service.ChouetteService` the table's commands.  The game
itself is played with the ordinary game commands and buttons: the captain
rolls, moves and doubles for the team, and every partner answers the box's
doubles for himself with /take or /drop (or the buttons, which list the
partners too).  Each command here makes one service call and shows its reply.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord import app_commands

from bot.adapters.discord.cogs._base import Interaction, ServiceCog
from bot.adapters.discord.cogs.game import (
    DROP_SCORING,
    HIGHER_DIE,
    OPENINGS,
    RULE_DESCRIPTIONS,
    SCORING,
    VariantName,
    board_permissions,
    rule_terms,
    variant_rules_autocomplete,
)
from bot.service.chouette.service import ChouetteService
from bot.service.core.limits import MAX_TEXT
from engine.chouette import DEFAULT_CAP, MAX_CAP, MIN_PLAYERS, CaptainRefusal, RefusalRule

if TYPE_CHECKING:
    from bot.adapters.discord.host import ServiceBot

REFUSALS = [
    app_commands.Choice(name="lose-to-captain: a partner who drops pays the captain, who "
                             "carries his share (Boyden, Parker)",
                        value=RefusalRule.LOSE_TO_CAPTAIN.value),
    app_commands.Choice(name="forfeit-to-partners: a partner who drops pays the partners "
                             "still in, who share it (Milton Bradley)",
                        value=RefusalRule.FORFEIT_TO_PARTNERS.value),
]
CAPTAIN_REFUSALS = [
    app_commands.Choice(name="final-word: the captain's drop is final for the whole team",
                        value=CaptainRefusal.FINAL_WORD.value),
    app_commands.Choice(name="partner-takes-over: a partner who took becomes captain and "
                             "plays on",
                        value=CaptainRefusal.PARTNER_TAKES_OVER.value),
]


class ChouetteCog(ServiceCog):
    """The chouette table: open, join, leave, start, suggest, status."""

    chouette = app_commands.Group(
        name="chouette",  # offered everywhere: in a DM the service says why it needs a server
        description="Chouette: one player in the box against a team of two or more")

    @property
    def table(self) -> ChouetteService:
        """The chouette commands of the bot's game service."""
        return self.service.chouette

    @chouette.command(name="open", description="Open a chouette table in this channel "
                                               "(you are its first player)")
    @app_commands.describe(
        stake="The stake per point (default 1; 0 for no money)",
        refusal="What a partner who drops the box's double loses, and to whom",
        captain_refusal="What happens when the captain drops the box's double",
        cap=f"Most players at the table ({MIN_PLAYERS} to {MAX_CAP}; default {DEFAULT_CAP})",
        box_partners="How many players at the foot of the list share the box's result "
                     "(default 0)",
        variant="Variant: standard, acey-deucey, russian, french...",
        jacoby="Jacoby rule (gammons count only after a double)",
        automatic_doubles="Automatic doubles when the opening throw ties",
        scoring="How a game is scored",
        **RULE_DESCRIPTIONS)
    @app_commands.choices(refusal=REFUSALS, captain_refusal=CAPTAIN_REFUSALS, scoring=SCORING,
                          higher_die=HIGHER_DIE, drop_scoring=DROP_SCORING, opening=OPENINGS)
    @app_commands.autocomplete(variant_rules=variant_rules_autocomplete)
    async def open(self, interaction: Interaction,
                   stake: app_commands.Range[int, 0, 1_000_000] = 1,
                   refusal: app_commands.Choice[str] | None = None,
                   captain_refusal: app_commands.Choice[str] | None = None,
                   cap: app_commands.Range[int, MIN_PLAYERS, MAX_CAP] = DEFAULT_CAP,
                   box_partners: app_commands.Range[int, 0, MAX_CAP - MIN_PLAYERS] = 0,
                   variant: app_commands.Transform[str, VariantName] | None = None,
                   jacoby: bool | None = None, automatic_doubles: bool | None = None,
                   scoring: app_commands.Choice[str] | None = None,
                   higher_die: app_commands.Choice[str] | None = None,
                   double_before_any_throw: bool | None = None,
                   drop_scoring: app_commands.Choice[str] | None = None,
                   automatic_doubles_two_dice: bool | None = None,
                   opening: app_commands.Choice[str] | None = None,
                   variant_rules: app_commands.Range[str, 1, 200] | None = None) -> None:
        place, actor = self.where(interaction)
        await self.answer(interaction, self.table.open(
            place, actor, stake=stake,
            refusal=refusal.value if refusal else RefusalRule.LOSE_TO_CAPTAIN.value,
            captain_refusal=(captain_refusal.value if captain_refusal
                             else CaptainRefusal.FINAL_WORD.value),
            cap=cap, box_partners=box_partners, variant=variant,
            rules=rule_terms(jacoby=jacoby, automatic_doubles=automatic_doubles,
                             scoring=scoring, higher_die=higher_die,
                             double_before_any_throw=double_before_any_throw,
                             drop_scoring=drop_scoring,
                             automatic_doubles_two_dice=automatic_doubles_two_dice,
                             opening=opening, variant_rules=variant_rules)))

    @chouette.command(description="Sit at this channel's chouette table (at the foot of "
                                  "the list)")
    async def join(self, interaction: Interaction) -> None:
        place, actor = self.where(interaction)
        await self.answer(interaction, self.table.join(place, actor))

    @chouette.command(description="Leave the chouette table (during a game you have a "
                                  "stake in, that is a drop: confirm it)")
    @app_commands.describe(confirm="Leave even though it counts as dropping at the game's "
                                   "current value")
    @board_permissions
    async def leave(self, interaction: Interaction, confirm: bool = False) -> None:
        place, actor = self.where(interaction)
        await self.answer(interaction, self.table.leave(place, actor, confirm=confirm))

    @chouette.command(description="Throw for the seats (the first time) and start the "
                                  "table's next game")
    @board_permissions
    async def start(self, interaction: Interaction) -> None:
        place, actor = self.where(interaction)
        await self.answer(interaction, self.table.start(place, actor))

    @chouette.command(description="Suggest a play or a cube action to your captain")
    @app_commands.describe(text="Your suggestion, e.g. 13/7 8/7, or: double, take, drop")
    @board_permissions
    async def suggest(self, interaction: Interaction,
                      text: app_commands.Range[str, 1, MAX_TEXT]) -> None:
        place, actor = self.where(interaction)
        await self.answer(interaction, self.table.suggest(place, actor, text))

    @chouette.command(description="The table: order and roles, money so far, the game "
                                  "in progress")
    async def status(self, interaction: Interaction) -> None:
        place, actor = self.where(interaction)
        await self.answer(interaction, self.table.status(place, actor))


async def setup(bot: ServiceBot) -> None:
    await bot.add_cog(ChouetteCog(bot))

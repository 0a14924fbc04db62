"""/rules: the rules and options in force (issue 19 item 4).

* With no variant named, in a channel with a game (or a challenge, or a chouette
  table): that game's own variant and options, only those that apply (no Crawford
  line in money play, no Jacoby or beaver line in a match, the variant's own
  opening and scoring, its own variant-only options).
* With no game here: the server's defaults for a new game (both kinds of play): its own
  (``/settings``), else the operator's.
* With a variant named: that variant under the server's default options.

Books are named as players know them ("Boyden 1930, ch.12"), never by file.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.config import Config
from bot.service.core.limits import check_options, quoted
from bot.service.core.present import bot_in_variant
from bot.service.core.replies import Refusal, Reply
from bot.service.core.values import Place, bad_ids
from bot.service.settings.service import SettingsService
from bot.storage.interface import MatchStatus, Storage, StorageError
from engine.chouette import TableOptions
from engine.errors import BackgammonError
from engine.rules import RuleOptions
from engine.variant import Variant, get_variant


@dataclass(frozen=True, slots=True)
class InForce:
    """The variant and options of a game, and what it is ("the 5-point match here")."""

    variant: Variant
    rules: RuleOptions
    money: bool | None
    what: str
    table: tuple[str, ...] = ()
    """A chouette table's own rules (refusals, captain, cap: issue 30 item 14)."""


def rule_text(inforce: InForce, *, ai: bool) -> str:
    """The /rules answer for ``inforce`` (``ai``: say how the bot plays it)."""
    variant, rules = inforce.variant, inforce.rules
    own = variant.describe(rules)[1:]
    lines = [f"**{variant.title}** — {inforce.what}"]
    lines.extend(f"- {line}" for line in own)
    lines.append("Options: " + "; ".join(variant.rule_lines(rules, money=inforce.money)) + ".")
    if inforce.table:
        lines.append("Chouette table: " + "; ".join(inforce.table) + ".")
    if variant.sources:
        lines.append("Rule books: " + ", ".join(variant.sources) + ".")
    if ai and not inforce.table:  # the bot does not sit at a chouette table
        lines.append(
            "Against the bot: its backgammon network (bgsage) at the level you choose."
            if variant.name == "standard" else
            f"Against the bot: {bot_in_variant(variant)}.")
    lines.append("Choose them per game with the options of /challenge or /chouette open.")
    return "\n".join(lines)


def table_lines(rules: dict[str, Any]) -> tuple[str, ...]:
    """A chouette table's own options as /chouette status says them."""
    return tuple(TableOptions.from_dict(rules["options"]).describe())


class RuleBook:
    """The /rules command."""

    def __init__(self, storage: Storage, config: Config, *, ai: bool,
                 settings: SettingsService) -> None:
        self.storage = storage
        self.config = config
        self.ai = ai
        self.settings = settings

    async def rules(self, variant: str | None = None, place: Place | None = None) -> Reply:
        """The options in force here (see the module's docstring)."""
        if place is not None and (bad := bad_ids(place)) is not None:
            return Reply.refuse(bad)
        try:
            server = (await self.settings.of(place.guild_id) if place is not None
                      else self.settings.defaults())
        except StorageError as error:
            return Reply.refuse(str(error))
        # Without a server (a DM, a group DM) the operator's defaults apply.
        whose = "the server's" if place is None or place.in_server else "the"
        try:
            check_options("rules", [variant or ""])
            defaults = server.rule_options()
            if variant:
                inforce = InForce(get_variant(variant)(), defaults, None,
                                  f"{whose} default options for a new game")
            else:
                found = await self.in_channel(place) if place is not None else None
                inforce = found or InForce(
                    get_variant(server.variant)(), defaults, None,
                    f"no game in this channel: {whose} defaults for a new game")
        except Refusal as refusal:
            return Reply.refuse(str(refusal))
        except BackgammonError as error:
            return Reply.refuse(quoted(error))
        return Reply(ok=True, text=rule_text(inforce, ai=self.ai))

    async def in_channel(self, place: Place) -> InForce | None:
        """The variant and options of the game, challenge or chouette table here."""
        async with self.storage.snapshot() as tx:
            row = await tx.open_match_in_channel(place.channel_id)
            if row is not None and row.guild_id == place.guild_id:
                kind = (f"{row.length}-point match" if row.length > 0 else "money play"
                        + (f" at {row.stake} a point" if row.stake else ""))
                if row.chouette_id is not None:
                    kind = "chouette game"
                state = "challenge" if row.status is MatchStatus.CHALLENGED else "game"
                what = (f"the rules of the {kind} in this channel"
                        if state == "game" else f"the rules of the {kind} challenged here")
                table: tuple[str, ...] = ()
                if row.chouette_id is not None:
                    at = await tx.get_chouette(row.chouette_id)
                    table = table_lines(at.rules) if at is not None else ()
                return InForce(get_variant(row.variant)(), RuleOptions.from_dict(row.rules),
                               row.length == 0, what, table)
            crow = await tx.open_chouette_in_channel(place.channel_id)
            if crow is not None and crow.guild_id == place.guild_id:
                return InForce(get_variant(str(crow.rules["variant"]))(),
                               RuleOptions.from_dict(crow.rules["rules"]), True,
                               "the rules of this channel's chouette table",
                               table_lines(crow.rules))
        return None

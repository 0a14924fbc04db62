"""Game commands: /challenge, /accept, /decline, /cancel, /roll, /move, /undo, /double,
/take, /drop, /beaver, /resign, /choose, /claim, /forfeit, /stop, /rematch and /board.

Each command calls one service method with the place (guild, channel or
thread) and the acting user, and shows the reply; the service decides
everything about the game.  A new challenge opens a thread for the game when
the server's settings allow it (``/settings set threads``, else the operator's
``discord.use_threads``) and the bot may create threads here.
"""

from __future__ import annotations

import contextlib
import logging
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.adapters.discord import places
from bot.adapters.discord.cogs._base import Interaction, ServiceCog
from bot.adapters.discord.convert import actor_of, bot_is_member, place_of
from bot.adapters.discord.deadlines import choices
from bot.adapters.discord.errors import MissingPermission
from bot.adapters.discord.outgoing import private_text
from bot.adapters.discord.posted import add_challenge_buttons, is_challenge
from bot.ai.levels import LEVELS as AI_LEVELS
from bot.ai.levels import Level
from bot.service.core.replies import Action
from bot.service.core.timecontrol import PRESETS
from bot.service.core.values import Place
from bot.service.rules.terms import parse_rule_words, suggest_rule_words
from engine.rules import DropScoring, HigherDie, OpeningMethod, ScoringMethod
from engine.variant import VARIANTS, get_variant

if TYPE_CHECKING:
    from bot.adapters.discord.host import ServiceBot

CLOCK_CHOICES = ("none", *PRESETS, "12s+2m/pt", "12s+5m")
log = logging.getLogger(__name__)

board_permissions = app_commands.checks.bot_has_permissions(embed_links=True,
                                                             attach_files=True)


def variant_names() -> list[str]:
    get_variant("standard")  # loads the variant plug-ins
    return sorted({cls.name for cls in VARIANTS.values()})


class VariantName(app_commands.Transformer):
    """A variant name, with autocomplete of the known variants."""

    async def transform(self, interaction: Interaction, value: Any) -> str:
        return str(value).strip()

    async def autocomplete(self, interaction: Interaction,
                           value: int | float | str,
                           ) -> list[app_commands.Choice[int | float | str]]:
        typed = str(value).lower()
        return [app_commands.Choice[int | float | str](name=n, value=n)
                for n in variant_names() if typed in n][:25]


RESIGN_KINDS = [app_commands.Choice(name=k, value=k) for k in ("single", "gammon", "backgammon")]
SCORING = [app_commands.Choice(name=m.value, value=m.value) for m in ScoringMethod][:25]
CHOICE_NAME = 100
"""Discord's limit on the name of a choice (characters)."""


def level_choice_name(level: Level) -> str:
    """A level's menu entry with its measured strength, within Discord's 100 characters:
    the title, the first clause of its description and the measured error rate with
    GNU Backgammon's rating (:attr:`~bot.ai.levels.Level.measured`, without its sample;
    the whole :attr:`~bot.ai.levels.Level.choice_text` is too long for Discord)."""
    how = level.description.split(":")[0].split(";")[0]
    if not level.measured:
        return f"{level.title} - {how}"[:CHOICE_NAME]
    measured = level.measured.split(" (")[0].replace(" per decision, GNU Backgammon's ",
                                                     "/decision, gnubg ")
    for name in (f"{level.title} - {how} (measured: {measured})",
                 f"{level.title} (measured: {measured})"):
        if len(name) <= CHOICE_NAME:
            return name
    return name[:CHOICE_NAME]


LEVELS = [app_commands.Choice(name=level_choice_name(lv), value=lv.name)
          for lv in AI_LEVELS.values()]
HIGHER_DIE = [app_commands.Choice(name="required: the higher must be played (modern rules)",
                                  value=HigherDie.REQUIRED.value),
              app_commands.Choice(name="free: either may be played (Boyden 1930, ch.3 V)",
                                  value=HigherDie.FREE.value)]
DROP_SCORING = [app_commands.Choice(name="single: a single game at the cube value (modern "
                                         "rules)", value=DropScoring.SINGLE.value),
                app_commands.Choice(name="as-it-stands: scored as the position stands, a "
                                         "gammon if it is one (Boyden 1930, Parker Brothers)",
                                    value=DropScoring.AS_IT_STANDS.value)]
OPENINGS = [app_commands.Choice(name=m.value, value=m.value) for m in OpeningMethod]
RULE_DESCRIPTIONS = {
    "higher_die": "When only one die can be played: must it be the higher?",
    "double_before_any_throw": "Allow doubling before an extra throw and the opening "
                               "re-throw too (Boyden 1930, Parker Brothers)",
    "drop_scoring": "What a refused double costs",
    "automatic_doubles_two_dice": "With a two-dice opening, every tie doubles (off: only "
                                  "ties of one die each)",
    "opening": "How the first move is decided (one-die-choice: Russian, Boyden 1930 ch.10)",
    "variant_rules": "Variant-only options as key=value words, e.g. kicked_off=reserve "
                     "(autocompletes)",
}


def rule_terms(*, variant_rules: str | None = None,
               **options: bool | app_commands.Choice[str] | None) -> dict[str, Any]:
    """The rule options a command was given (those left out keep the server's defaults);
    ``variant_rules`` holds the variant-only ones as ``key=value`` words."""
    rules: dict[str, Any] = {}
    for key, value in options.items():
        if value is not None:
            rules[key] = value.value if isinstance(value, app_commands.Choice) else value
    rules.update(parse_rule_words(variant_rules))
    return rules


async def clock_autocomplete(interaction: Interaction, current: str
                             ) -> list[app_commands.Choice[str]]:
    """The clocks one may name (issue 44): none, the presets, the custom form's examples."""
    word = current.strip().lower()
    return [app_commands.Choice(name=n, value=n) for n in CLOCK_CHOICES if word in n][:25]


async def variant_rules_autocomplete(interaction: Interaction, current: str
                                     ) -> list[app_commands.Choice[str]]:
    """The valid ``key=value`` words for the variant chosen in the same command."""
    variant = getattr(interaction.namespace, "variant", None)
    return [app_commands.Choice(name=text, value=text)
            for text in suggest_rule_words(current, str(variant) if variant else None)]


class GameCog(ServiceCog):
    """Challenge, play and watch."""

    # ---------------------------------------------------------- challenge

    @app_commands.command(description="Challenge someone to a backgammon match or money game")
    @app_commands.describe(
        opponent="Who you want to play (leave out: an open challenge anyone may accept)",
        length="Match length in points (e.g. 5 for a 5-point match); leave out for money play",
        stake="Money play: the stake per point",
        variant="Variant: standard, acey-deucey, russian, french...",
        cube="Play with the doubling cube",
        jacoby="Jacoby rule (money play: gammons count only after a double)",
        beavers="Allow beavers (redouble at once, keeping the cube)",
        automatic_doubles="Automatic doubles when the opening throw ties",
        scoring="How a game is scored",
        rated="Count this match for the ratings (default: yes)",
        level="Playing me (the bot): how strong I play",
        hints="Allow /hint in this rated match (your opponent agrees by accepting)",
        clock="Time control: none, correspondence, fast, normal, casual, usbgf, or 12s+2m/pt",
        rating_min="An open rated challenge: the lowest rating that may accept it",
        rating_max="An open rated challenge: the highest rating that may accept it",
        **RULE_DESCRIPTIONS)
    @app_commands.choices(scoring=SCORING, level=LEVELS, higher_die=HIGHER_DIE,
                          drop_scoring=DROP_SCORING, opening=OPENINGS)
    @app_commands.autocomplete(variant_rules=variant_rules_autocomplete,
                               clock=clock_autocomplete)
    @board_permissions
    async def challenge(self, interaction: Interaction, opponent: discord.User | None = None,
                        length: app_commands.Range[int, 1, 25] | None = None,
                        stake: app_commands.Range[int, 0, 1_000_000] | None = None,
                        variant: app_commands.Transform[str, VariantName] | None = None,
                        cube: bool | None = None, jacoby: bool | None = None,
                        beavers: bool | None = None, automatic_doubles: bool | None = None,
                        scoring: app_commands.Choice[str] | None = None,
                        rated: bool = True, level: app_commands.Choice[str] | None = None,
                        hints: bool = False,
                        higher_die: app_commands.Choice[str] | None = None,
                        double_before_any_throw: bool | None = None,
                        drop_scoring: app_commands.Choice[str] | None = None,
                        automatic_doubles_two_dice: bool | None = None,
                        opening: app_commands.Choice[str] | None = None,
                        variant_rules: app_commands.Range[str, 1, 200] | None = None,
                        clock: app_commands.Range[str, 1, 40] | None = None,
                        rating_min: app_commands.Range[int, 0, 10_000] | None = None,
                        rating_max: app_commands.Range[int, 0, 10_000] | None = None) -> None:
        place, actor = self.where(interaction)
        rules = rule_terms(cube=cube, jacoby=jacoby, beavers=beavers,
                           automatic_doubles=automatic_doubles, scoring=scoring,
                           higher_die=higher_die,
                           double_before_any_throw=double_before_any_throw,
                           drop_scoring=drop_scoring,
                           automatic_doubles_two_dice=automatic_doubles_two_dice,
                           opening=opening, variant_rules=variant_rules)
        terms: dict[str, Any] = {"variant": variant, "rules": rules, "length": length or 0,
                                 "stake": stake or 0, "rated": rated, "hints": hints,
                                 "level": level.value if level is not None else None,
                                 "clock": clock}
        if opponent is None:  # an open challenge: posted here, its game played here
            await self.answer(interaction, self.service.challenge(
                place, actor, None, low=rating_min, high=rating_max, **terms))
            return
        if rating_min is not None or rating_max is not None:
            return await self.presenter.private(interaction, (
                "A rating range is for an open challenge (no opponent named): you chose "
                f"{opponent.display_name}, so nothing was posted. Leave out the range, or "
                "the opponent."))
        opponent_actor = actor_of(opponent)
        channel = interaction.channel
        note = ""
        server = await self.presenter.call(  # threads, channels (deferred if slow)
            interaction, self.service.server_settings(place.guild_id))
        # A thread (a forum's post too) holds no thread: the game is played in it.  A
        # thread only where the bot is a member (a DM has none; in a server that did not
        # install the app it may only answer interactions: the game stays here).
        if server.threads and server.games_allowed(place) and isinstance(
                channel, discord.TextChannel | discord.ForumChannel) and bot_is_member(
                interaction):
            lacking = places.missing(channel, interaction.app_permissions)
            if not lacking:
                note = await self._challenge_in_thread(interaction, channel, place, opponent,
                                                       terms)
                if not note:
                    return
            else:
                note = (f"\n(I can't open a thread for this game: "
                        f"{places.missing_text(lacking, channel)}, so it is played here.)")
        reply = await self.presenter.call(interaction, self.service.challenge(
            place, actor, opponent_actor, **terms))
        if reply.ok:  # in a thread archived meanwhile: open it again first
            await places.reopen(channel)
        if reply.ok and note:
            reply = replace(reply, text=reply.text + note)
        await self.presenter.send(interaction, reply)

    async def _challenge_in_thread(self, interaction: Interaction,
                                   channel: places.ThreadHome, here: Place,
                                   opponent: discord.User, terms: dict[str, Any]) -> str:
        """Open a thread for the game (as the channel's type allows: :mod:`.places`) and post
        the challenge there.  Checked first (a dry run through the service), so that a
        refused challenge leaves no thread behind (deleting one needs Manage Threads, which
        the bot may not have).  Returns "" when done, else the note to add when the game
        is played in the channel itself because Discord refused the thread."""
        await self.presenter.defer(interaction)
        check = await self.service.challenge(here, actor_of(interaction.user),
                                             actor_of(opponent), dry_run=True, **terms)
        if not check.ok:
            await interaction.edit_original_response(content=private_text(check))
            return ""
        name = f"{interaction.user.display_name} vs {opponent.display_name}"
        try:
            thread = await places.open_thread(
                interaction.client, channel, name,
                starter=f"{name}: the game is played in this thread.",
                auto_archive_duration=1440)
        except discord.HTTPException as error:
            log.warning("cannot open a game's thread in %s: %s", channel.id, error)
            return (f"\n(I can't open a thread for this game: {places.refused_text(error)}, "
                    "so it is played here.)")
        place = Place(channel.guild.id, thread.id, parent_id=channel.id)
        reply = await self.service.challenge(place, actor_of(interaction.user),
                                             actor_of(opponent), **terms)
        if not reply.ok:
            with contextlib.suppress(discord.HTTPException):
                await thread.delete(reason="challenge refused")
            await interaction.edit_original_response(content=private_text(reply))
            return ""
        out = await self.presenter.build(reply)
        waiting = is_challenge(reply)
        if waiting:  # its buttons come once the service noted the message (posted.py)
            out.view = None
        try:
            posted = await thread.send(**out.kwargs())
        except discord.Forbidden as exc:
            raise MissingPermission("Send Messages in Threads",
                                    "post in the game's thread") from exc
        if waiting:
            await add_challenge_buttons(self.service, posted, place,
                                        actor_of(interaction.user), reply)
        await interaction.edit_original_response(
            content=f"Challenge posted in {thread.mention}: the game is played there.")
        return ""

    @app_commands.command(description="Accept the challenge waiting for you in this channel")
    @board_permissions
    async def accept(self, interaction: Interaction) -> None:
        await self.act(interaction, Action.ACCEPT)

    @app_commands.command(description="Decline the challenge waiting for you in this channel")
    async def decline(self, interaction: Interaction) -> None:
        await self.act(interaction, Action.DECLINE)

    @app_commands.command(description="Withdraw your challenge before it is accepted")
    async def cancel(self, interaction: Interaction) -> None:
        await self.act(interaction, Action.CANCEL)

    # -------------------------------------------------------------- play

    @app_commands.command(description="Roll the dice")
    @board_permissions
    async def roll(self, interaction: Interaction) -> None:
        await self.act(interaction, Action.ROLL)

    @app_commands.command(description="Move your checkers, e.g. 13/7 8/7 or bar/22 24/20")
    @app_commands.describe(moves="Your play in standard notation, e.g. 13/7 8/7 (autocompletes)")
    @board_permissions
    async def move(self, interaction: Interaction, moves: str) -> None:
        await self.act(interaction, Action.MOVE, moves)

    @move.autocomplete("moves")
    async def move_autocomplete(self, interaction: Interaction,
                                current: str) -> list[app_commands.Choice[str]]:
        if interaction.channel_id is None:
            return []
        plays = await choices(self.service.suggestions(place_of(interaction),
                                                       actor_of(interaction.user), current))
        return [app_commands.Choice(name=p[:100], value=p[:100]) for p in plays[:25]]

    @app_commands.command(description="Take back this turn's moves, or your finished play "
                                      "until the opponent rolls")
    @board_permissions
    async def undo(self, interaction: Interaction) -> None:
        await self.act(interaction, Action.UNDO)

    @app_commands.command(description="Offer a double (turn the cube)")
    @board_permissions
    async def double(self, interaction: Interaction) -> None:
        await self.act(interaction, Action.DOUBLE)

    @app_commands.command(description="Take the double")
    @board_permissions
    async def take(self, interaction: Interaction) -> None:
        await self.act(interaction, Action.TAKE)

    @app_commands.command(description="Drop (pass) the double and lose the game at the cube")
    @board_permissions
    async def drop(self, interaction: Interaction) -> None:
        await self.act(interaction, Action.DROP)

    @app_commands.command(description="Beaver: take the double and redouble at once")
    @board_permissions
    async def beaver(self, interaction: Interaction) -> None:
        await self.act(interaction, Action.BEAVER)

    @app_commands.command(description="Offer to resign a single game, gammon or backgammon")
    @app_commands.describe(kind="What you give up (default: a single game)")
    @app_commands.choices(kind=RESIGN_KINDS)
    @board_permissions
    async def resign(self, interaction: Interaction,
                     kind: app_commands.Choice[str] | None = None) -> None:
        await self.act(interaction, Action.RESIGN, kind.value if kind else "single")

    @app_commands.command(description="Pick an option when the game asks you to choose")
    @app_commands.describe(option="The option to pick")
    @board_permissions
    async def choose(self, interaction: Interaction, option: str) -> None:
        await self.act(interaction, Action.CHOOSE, option)

    @app_commands.command(description="Claim the game when your opponent has not acted in time")
    @board_permissions
    async def claim(self, interaction: Interaction) -> None:
        await self.act(interaction, Action.CLAIM)

    @app_commands.command(description="Abandon the match (you lose it)")
    @app_commands.describe(confirm="Abandon for good: you lose the game in progress and the "
                                   "match (money play: the session ends)")
    @board_permissions
    async def forfeit(self, interaction: Interaction, confirm: bool = False) -> None:
        await self.act(interaction, Action.FORFEIT, "confirm" if confirm else None)

    @app_commands.command(description="End a money session between games")
    @board_permissions
    async def stop(self, interaction: Interaction) -> None:
        await self.act(interaction, Action.STOP)

    @app_commands.command(description="Play the last match here again")
    @board_permissions
    async def rematch(self, interaction: Interaction) -> None:
        await self.act(interaction, Action.REMATCH)

    @app_commands.command(description="Show the board of the game in this channel")
    @board_permissions
    async def board(self, interaction: Interaction) -> None:
        await self.act(interaction, Action.BOARD)

    @app_commands.command(description="The AI's best plays for your roll, or its cube advice")
    async def hint(self, interaction: Interaction) -> None:
        place, actor = self.where(interaction)
        await self.answer(interaction, self.service.hint(place, actor))

    @app_commands.command(description="The AI's analysis of a finished game here: "
                                      "error rates, the largest mistakes, the graph")
    @app_commands.describe(game="Game number (default: the last finished game here)",
                           match="Analyse every finished game of the match",
                           depth="strong (GNU 1-ply, default) or expert (GNU 2-ply, slower)")
    @app_commands.choices(depth=[app_commands.Choice(name=n, value=n)
                                 for n in ("strong", "expert")])
    @board_permissions
    async def analyze(self, interaction: Interaction,
                      game: app_commands.Range[int, 1, 100_000] | None = None,
                      match: bool = False,
                      depth: app_commands.Choice[str] | None = None) -> None:
        place, actor = self.where(interaction)
        await self.presenter.long_work(interaction, self.service.analyze(
            place, actor, game, depth.value if depth else None, match))


async def setup(bot: ServiceBot) -> None:
    await bot.add_cog(GameCog(bot))

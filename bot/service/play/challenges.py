"""A match begins and is answered: /challenge, /accept, /decline, /cancel."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from bot.ai.levels import get_level
from bot.config import Config
from bot.service.core import money
from bot.service.core.limits import MAX_MATCH_LENGTH, MAX_OPTION_TEXT, MAX_OPTIONS, MAX_STAKE
from bot.service.core.present import bot_in_variant
from bot.service.core.replies import (
    Action,
    Button,
    Countdown,
    MessageRef,
    Notice,
    Refusal,
    Reply,
    RetireButtons,
    notice,
)
from bot.service.core.runner import ActionRunner
from bot.service.core.spans import span
from bot.service.core.state import AISeat, MatchState, OpenTerms
from bot.service.core.timecontrol import ClockError, ClockSpec, new_clock, parse_clock
from bot.service.core.values import Actor, Expect, Place, bad_ids, check_id
from bot.service.core.work import Work
from bot.service.play.autoplay import AutoPlay
from bot.service.play.endings import Endings
from bot.service.settings.service import SettingsService, refuse_channel
from bot.storage.interface import MatchStatus, StorageError, Transaction
from engine.errors import BackgammonError
from engine.match import Match
from engine.player import Player
from engine.rules import RuleOptions
from engine.variant import get_variant
from engine.words import article

if TYPE_CHECKING:
    from bot.ai.runner import AIRunner

CHALLENGED = (MatchStatus.CHALLENGED,)
MONEY_ONLY = ("jacoby", "beavers")
"""Rule options of money play only: a server's default of them does not reach a match."""


def defaults_for(rules: dict[str, Any], asked: dict[str, Any], *, match: bool) -> dict[str, Any]:
    """The server's default rule options for a new game: in a match, without the money-play
    options the command did not name (a server playing the Jacoby rule by default still
    challenges to matches; naming one in a match is refused by the engine, saying why)."""
    options = dict(rules)
    if match:
        named = {str(k).strip().lower().replace("-", "_") for k in asked}
        for key in MONEY_ONLY:
            if key not in named:
                options[key] = False
    return options


def challenge_buttons(opponent: int) -> tuple[Button, ...]:
    """The buttons of a challenge waiting for ``opponent``."""
    return (Button(Action.ACCEPT, "Accept", (opponent,)),
            Button(Action.DECLINE, "Decline", (opponent,)))


def open_buttons(challenger: int) -> tuple[Button, ...]:
    """The buttons of an open challenge: Accept for anyone (the service refuses its
    challenger, saying why), Withdraw for the challenger."""
    return (Button(Action.ACCEPT, "Accept", ()), Button(Action.CANCEL, "Withdraw", (challenger,)))


def waiting_buttons(white_id: int, black_id: int, state: MatchState) -> tuple[Button, ...]:
    """The buttons of the challenge of a match row waiting for its answer."""
    return open_buttons(white_id) if state.open is not None else challenge_buttons(black_id)


def answered(work: Work) -> None:
    """The challenge is answered: its message (when the adapter noted it) loses its buttons,
    whichever way the answer came (:mod:`bot.service.posted.service`)."""
    message = work.state.challenge_message
    if message is not None:
        work.retire.append(RetireButtons(MessageRef(work.row.channel_id, message)))
        work.state = work.state.with_(challenge_message=None)


def clock_for(asked: str | None, default: str, length: int
              ) -> tuple[ClockSpec | None, str]:
    """The clock of a new match (``asked``, else the server's ``default``) and a note when
    the server's default does not apply (a reserve per point in money play: no clock)."""
    if asked is not None:
        spec = parse_clock(asked)
        if spec is not None:
            spec.reserve_for(length)  # refused in money play when it is per point
        return spec, ""
    spec = parse_clock(default)
    if spec is not None and spec.per_point and length <= 0:
        return None, (f"clock: none (the server's clock {spec.text} gives a reserve per "
                      "point, and money play has no length)")
    return spec, ""


def open_line(actor: Actor, terms: OpenTerms, rated: bool, now: datetime) -> Notice:
    """Who may take an open challenge, and until when (a countdown in Discord)."""
    until = datetime.fromisoformat(terms.until)
    seconds = max(0, int((until - now).total_seconds()))
    bounds = ""
    if rated and (terms.low is not None or terms.high is not None):
        if terms.low is not None and terms.high is not None:
            bounds = f" with a rating from {terms.low} to {terms.high}"
        elif terms.low is not None:
            bounds = f" with a rating of at least {terms.low}"
        else:
            bounds = f" with a rating of at most {terms.high}"
    return notice(f"Anyone but {actor.name}{bounds} may press Accept; it expires ",
                  Countdown(int(until.timestamp()), f"in {span(seconds / 60)}"),
                  f" ({actor.name} can Withdraw it).")


class Challenges:
    """Challenging, and answering a challenge."""

    def __init__(self, runner: ActionRunner, autoplay: AutoPlay, endings: Endings,
                 config: Config, ai: AIRunner | None, *, settings: SettingsService) -> None:
        self.runner = runner
        self.autoplay = autoplay
        self.endings = endings
        self.config = config
        self.ai = ai
        self.settings = settings
        """Each server's defaults (variant, rules, the AI, where games start)."""
        self.ai_actor: Actor | None = None
        """The AI's user (the bot's own account in Discord): challenging it plays the AI."""

    async def challenge(self, place: Place, actor: Actor, opponent: Actor | None, *,
                        variant: str | None = None, rules: dict[str, Any] | None = None,
                        length: int = 0, stake: int = 0, rated: bool = True,
                        level: str | None = None, hints: bool = False,
                        clock: str | None = None, dry_run: bool = False,
                        open_terms: OpenTerms | None = None,
                        before: Callable[[Transaction], Awaitable[None]] | None = None
                        ) -> Reply:
        """``actor`` challenges ``opponent`` to a match (``length`` points) or money play.

        Challenging the AI (:attr:`ai_actor`) starts at once, unrated, at ``level``.
        ``hints``: the challenger allows /hint in this rated match (the opponent agrees
        by accepting); unrated games always allow hints.  ``clock``: the time control
        (:mod:`bot.service.core.timecontrol`; None: the server's).  ``opponent`` None:
        an open challenge on ``open_terms`` (:mod:`bot.service.lobby`).  ``before``: more
        work in the challenge's transaction, first (the queue's pairing takes the two
        players off the queue there).  ``dry_run``: only check the
        challenge (an ``ok`` reply with no text if it stands, the refusal otherwise) and
        store nothing, so an adapter opens a place for it (a thread) only when it stands.
        """
        if opponent is None:
            if open_terms is None:
                return Reply.refuse("Name an opponent: /challenge @user.")
            opponent = actor  # nobody is challenged yet: the taker is set on Accept
        else:
            open_terms = None
        try:
            check_id(opponent.id, "user")
        except Refusal as refusal:
            return Reply.refuse(str(refusal))
        if opponent.id == actor.id and open_terms is None:
            return Reply.refuse("You can't challenge yourself: name another player.")
        against_ai = self.ai_actor is not None and opponent.id == self.ai_actor.id
        if opponent.is_bot and not against_ai:
            if self.ai_actor is None or self.ai is None:
                return Reply.refuse(f"{opponent.name} is a bot and can't play, and this bot "
                                    "runs without its AI, so there is no bot to play here: "
                                    "challenge a person instead.")
            return Reply.refuse(f"{opponent.name} is a bot and can't play. To play the AI, "
                                "challenge me (the backgammon bot) instead.")
        if (bad := bad_ids(place, actor)) is not None:
            return Reply.refuse(bad)
        try:
            server = await self.settings.of(place.guild_id)
        except StorageError as error:
            return Reply.refuse(str(error))
        if not server.games_allowed(place):
            return refuse_channel("Games don't start in this channel on this server: "
                                  "nothing was started.", "Games start in ",
                                  server.game_channels)
        if against_ai and (self.ai is None or not server.ai):
            return Reply.refuse("Games against the bot are switched off on this server.")
        ai_level = None
        if against_ai:
            try:
                ai_level = get_level(level or server.ai_level)
            except ValueError as error:
                return Reply.refuse(str(error))
            rated = False
        elif level:
            return Reply.refuse("The level option is for games against the bot.")
        if not 0 <= length <= MAX_MATCH_LENGTH:
            return Reply.refuse(f"A match is 1 to {MAX_MATCH_LENGTH} points "
                                "(or 0 for money play).")
        if not 0 <= stake <= MAX_STAKE:
            return Reply.refuse(f"The stake is a whole number from 0 to {MAX_STAKE}.")
        if length and stake:
            return Reply.refuse("Choose a match length or a money stake, not both.")
        options_in = rules or {}
        texts = [variant or "", level or "", *map(str, options_in), *map(str, options_in.values())]
        if len(options_in) > MAX_OPTIONS or any(len(t) > MAX_OPTION_TEXT for t in texts):
            return Reply.refuse(f"Those challenge options are too long: at most {MAX_OPTIONS} "
                                f"options of {MAX_OPTION_TEXT} characters each.")
        try:
            variant_cls = get_variant(variant or server.variant)
            options = defaults_for(server.rules, options_in, match=bool(length))
            options.update(options_in)
            rule_options = RuleOptions.from_dict(options)
            if length:
                Match.new(length, rule_options, variant_cls)
            else:  # the money bound: the cube stops where a game settles MAX_GAME_AMOUNT
                rule_options = money.capped(rule_options, stake)
        except (BackgammonError, ValueError) as error:
            return Reply.refuse(str(error)[:300])
        try:
            timing, clock_note = clock_for(clock, server.clock, length)
        except ClockError as error:
            return Reply.refuse(str(error))
        home = place.parent_id
        if home is not None:
            try:
                check_id(home, "channel")
            except Refusal as refusal:
                return Reply.refuse(str(refusal))
        if dry_run:
            return Reply(ok=True, text="")
        state = MatchState(hints=bool(hints or not rated), home_channel=home,
                           ai=AISeat(opponent.id, ai_level.name) if ai_level else None,
                           orientation=self.config.render.orientation,
                           answers_only=place.answers_only or not place.in_server,
                           clock=timing.text if timing is not None else None,
                           open=open_terms)

        async def body(tx: Transaction) -> Reply:
            if before is not None:
                await before(tx)
            existing = await tx.open_match_in_channel(place.channel_id)
            if await tx.open_chouette_in_channel(place.channel_id) is not None:
                raise Refusal("This channel has a chouette table: join it with "
                              "/chouette join, or challenge in another channel.")
            if existing is not None:
                raise Refusal("This channel already has a game or a challenge. Finish it first, "
                              "or start yours in another channel or thread.")
            for user in sorted({actor.id: actor, opponent.id: opponent}.values(),
                               key=lambda a: a.id):  # one global order
                await tx.upsert_user(user.id, user.name, user.is_bot)
            row = await tx.insert_match(
                guild_id=place.guild_id, channel_id=place.channel_id,
                white_id=actor.id, black_id=opponent.id, variant=variant_cls.name,
                rules=rule_options.to_dict(), length=length, stake=stake,
                rated=rated, status=MatchStatus.CHALLENGED, state=state.to_dict(),
                place_kind=place.kind.value)
            if timing is not None:
                await tx.insert_clock(new_clock(row.id, timing, length))
            return Reply(ok=True, text="", match_id=row.id, version=row.version)

        made = await self.runner.transact(
            place, actor, body, note_user=False,
            stale="Another command changed this channel at the same moment: try again.")
        if not made.ok:
            return made
        terms = (article(f"{length}-point match") if length else
                 ("money play" + (f" at {stake} a point" if stake else "")))
        lines = variant_cls().rule_lines(rule_options, money=not length)
        if hints and rated and ai_level is None:  # issue 30 item 14: say what was agreed
            lines = [*lines, "hints: on (either player may ask /hint; accepting agrees)"]
        if timing is not None:
            lines = [*lines, f"clock: {timing.describe(length)}"]
        elif clock_note:
            lines = [*lines, clock_note]
        text = (f"{actor.name} challenges {opponent.name} to {terms} of {variant_cls.title}.\n"
                f"Rules: {'; '.join(lines)}.")
        if ai_level is not None:
            assert self.ai_actor is not None
            started = await self.accept(place, self.ai_actor)
            note = (f"{text}\nYou play the AI at level {ai_level.title} (unrated; /hint is "
                    "allowed).")
            if not variant_cls.name == "standard":
                note += (" In this variant the AI is "
                         f"{bot_in_variant(variant_cls())}.")
            return replace(started, text=note + "\n" + started.text) if started.ok else started
        if open_terms is not None:
            return Reply(ok=True, text=text.replace(
                f"{actor.name} challenges {opponent.name} to",
                f"{actor.name} posts an open challenge:", 1),
                match_id=made.match_id, version=made.version,
                notify=(open_line(actor, open_terms, rated, self.runner.clock()),),
                buttons=open_buttons(actor.id))
        return Reply(ok=True, text=text, match_id=made.match_id, version=made.version,
                     notify=(notice(opponent.mention, ": /accept or /decline."),),
                     buttons=challenge_buttons(opponent.id))

    async def accept(self, place: Place, actor: Actor, expect: Expect | None = None) -> Reply:
        return await self.runner.run(place, actor, self.accepted, expect=expect,
                                     statuses=CHALLENGED)

    async def accepted(self, work: Work) -> None:
        """The challenged player accepts: the match begins (the command's body)."""
        row = work.row
        if row.status is not MatchStatus.CHALLENGED:
            raise Refusal("There is no challenge waiting here: the game is already on.")
        if work.actor.id != row.black_id:
            if work.actor.id == row.white_id:
                raise Refusal(f"You made this challenge: {work.name(Player.BLACK)} must "
                              "accept it. You can /cancel it.")
            raise Refusal(f"This challenge is for {work.name(Player.BLACK)}, not you.")
        if not row.length:
            full = await money.turnover_reached(work.tx, row.guild_id,
                                                [row.white_id, row.black_id])
            if full:
                raise Refusal("This money game can't start: " + money.limit_text(
                    [work.name(Player.WHITE if u == row.white_id else Player.BLACK)
                     for u in full]))
        work.match_status = MatchStatus.ACTIVE
        answered(work)
        work.lines.append(f"{work.name(Player.BLACK)} accepts.")
        await self.endings.next_game(work)
        await self.autoplay.auto(work)

    async def decline(self, place: Place, actor: Actor, expect: Expect | None = None) -> Reply:
        async def op(work: Work) -> None:
            if work.state.open is not None:
                raise Refusal("An open challenge is not declined: leave it to someone else "
                              "(it expires by itself)" + ("; you can withdraw it with /cancel."
                                                          if work.actor.id == work.row.white_id
                                                          else "."))
            if work.actor.id != work.row.black_id:
                raise Refusal(f"Only {work.name(Player.BLACK)} can decline this challenge"
                              + ("; you can /cancel it." if work.actor.id == work.row.white_id
                                 else "."))
            work.match_status = MatchStatus.DECLINED
            answered(work)
            work.lines.append(f"{work.name(Player.BLACK)} declines the challenge.")

        return await self.runner.run(place, actor, op, expect=expect, statuses=CHALLENGED)

    async def cancel(self, place: Place, actor: Actor, expect: Expect | None = None) -> Reply:
        async def op(work: Work) -> None:
            if work.actor.id != work.row.white_id:
                raise Refusal("Only the challenger can cancel a challenge"
                              + ("; you can /decline it." if work.actor.id == work.row.black_id
                                 else "."))
            work.match_status = MatchStatus.CANCELLED
            answered(work)
            work.lines.append(f"{work.name(Player.WHITE)} withdraws the challenge.")

        return await self.runner.run(place, actor, op, expect=expect, statuses=CHALLENGED)

"""Tournaments run by the bot: sign-up, the start, a match per pairing, and the round that
advances by itself when its last match ends.

The rules (formats, seeding, pairings, standings) are :mod:`engine.tournament`; this
module stores them (the ``tournaments`` row, :mod:`.data`) and plays them as
ordinary rated matches:

* **create** (organisers): the organiser's choices are checked at once; a secret seed for
  the lots is drawn and its SHA-256 published.
* **join / leave** until the start.
* **start**: seeding by the server's FIBS ratings (players with no rated match are unrated
  and come last), ties by lot: dice drawn from the published seed
  (:mod:`bot.service.core.fairdice`), revealed in the start message so anyone can recompute the
  draw.
* **openings**: each pairing waiting to be played is handed to exactly one caller
  (:meth:`Tournaments.openings`, cluster-wide), which gives it a place (the Discord adapter a
  thread) and calls :meth:`Tournaments.open_pairing`: the match is created there, rated,
  already challenged and accepted, its first game started.
* **the end of a match** (:meth:`Tournaments.match_ended`, called by
  :class:`~bot.service.play.endings.Endings` inside the action that ended it) records the result
  in the tournament in the same transaction, on the locked tournament row with its version
  check, so two processes ending a round's last two matches at once advance it exactly once.

Organiser tools are in :mod:`.admin`, the look-only commands and deadlines in
:mod:`.info`.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from typing import Any

from bot.config import Config
from bot.service.core import fairdice
from bot.service.core.limits import MAX_OPTION_TEXT, MAX_OPTIONS
from bot.service.core.replies import Notice, Refusal, Reply, RetireButtons, notice
from bot.service.core.runner import ActionRunner
from bot.service.core.timecontrol import parse_clock
from bot.service.core.values import Actor, Place, bad_ids
from bot.service.play.challenges import Challenges, defaults_for
from bot.service.settings.service import SettingsService, refuse_channel
from bot.service.settings.table import ServerSettings
from bot.service.tournaments import lots
from bot.service.tournaments.data import (
    Loaded,
    Settings,
    Signup,
    TournamentData,
    check_organiser,
    deadline_notices,
    deadlines,
    find,
    iso,
    read,
    save,
)
from bot.service.tournaments.play import TournamentPlay, round_lines
from bot.storage.interface import StorageError, TournamentStatus, Transaction, clean_text
from engine.errors import BackgammonError
from engine.match import Match
from engine.rules import RuleOptions
from engine.tournament import (
    Entrant,
    Format,
    MatchLengths,
    TournamentConfig,
    TournamentState,
)
from engine.variant import get_variant
from engine.words import counted, sentence

NAME_LIMIT = 60


class Tournaments:
    """Creating, signing up and starting tournaments (their matches:
    :class:`~bot.service.tournaments.play.TournamentPlay`)."""

    def __init__(self, runner: ActionRunner, challenges: Challenges, config: Config,
                 play: TournamentPlay, *, settings: SettingsService) -> None:
        self.runner = runner
        self.challenges = challenges
        self.config = config
        self.play = play
        self.settings = settings
        """Each server's defaults (variant, rules, where tournaments start, the organiser
        role)."""
        """Where pairings become matches (its ``wake`` tells the adapters)."""

    # ------------------------------------------------------------------ create

    def _settings(self, server: ServerSettings, fmt: str, length: str, variant: str | None,
                  rules: dict[str, Any] | None, max_players: int | None,
                  rounds: int | None, round_hours: float | None, name: str,
                  clock: str | None = None) -> Settings:
        options_in = rules or {}
        texts = [variant or "", length, fmt, *map(str, options_in),
                 *map(str, options_in.values())]
        if len(options_in) > MAX_OPTIONS or any(len(t) > MAX_OPTION_TEXT for t in texts):
            raise Refusal(f"Those options are too long: at most {MAX_OPTIONS} options of "
                          f"{MAX_OPTION_TEXT} characters each.")
        if round_hours is not None and not 0 <= round_hours <= 24 * 60:
            raise Refusal("round_deadline is the hours a round lasts: from 0 (no deadline) "
                          "to 1440 (60 days).")
        try:
            config = TournamentConfig(Format.parse(fmt), MatchLengths.parse(length), rounds,
                                      max_players, name)
            variant_cls = get_variant(variant or server.variant)
            merged = defaults_for(server.rules, options_in, match=True)
            merged.update(options_in)
            options = RuleOptions.from_dict(merged)
            lengths = config.lengths
            for points in {lengths.default, lengths.final or lengths.default,
                           *(n for _, n in lengths.rounds)}:
                Match.new(points, options, variant_cls)
            timing = parse_clock(server.clock if clock is None else clock)
        except (BackgammonError, ValueError) as error:  # (a ClockError is a ValueError)
            raise Refusal(sentence(str(error)[:300])) from None
        hours = self.config.tournament.round_hours if round_hours is None else round_hours
        return Settings(config, variant_cls.name, options.to_dict(), float(hours),
                        timing.text if timing is not None else "none")

    async def create(self, place: Place, actor: Actor, *, is_organiser: bool, name: str,
                     format: str, length: str = "5", variant: str | None = None,
                     rules: dict[str, Any] | None = None, max_players: int | None = None,
                     rounds: int | None = None, signup_hours: float | None = None,
                     round_hours: float | None = None, clock: str | None = None) -> Reply:
        """A new tournament taking sign-ups in this channel.  ``is_organiser``: the adapter
        found the organiser role or Manage Server on ``actor``; ``clock``: every match's
        time control (None: the server's)."""
        if (bad := bad_ids(place, actor)) is not None:
            return Reply.refuse(bad)
        try:
            server = await self.settings.of(place.guild_id)
        except StorageError as error:
            return Reply.refuse(str(error))
        if not is_organiser:
            role = server.organiser_role
            return Reply(ok=False, ephemeral=True, text=(
                "Only organisers can create a tournament: members with Manage Server"
                + (" or the organiser role" if role is not None else "")
                + ". Ask one of them, or join a tournament with /tournament join."),
                notify=(notice("The organiser role here: ", role, "."),) if role else ())
        if not server.tournaments_allowed(place):
            return refuse_channel("Tournaments aren't created in this channel on this "
                                  "server: nothing was created.", "Tournaments are created "
                                  "in ", server.tournament_channels)
        name = " ".join(clean_text(name).split())
        if not 1 <= len(name) <= NAME_LIMIT:
            return Reply.refuse(f"A tournament's name has 1 to {NAME_LIMIT} characters.")
        if signup_hours is not None and not 0 < signup_hours <= 24 * 60:
            return Reply.refuse("signup_until is the hours sign-up stays open: more than 0, "
                                "at most 1440 (60 days).")
        try:
            settings = self._settings(server, format, length, variant, rules, max_players,
                                      rounds, round_hours, name, clock)
        except Refusal as refusal:
            return Reply.refuse(str(refusal))
        seed = self.runner.new_seed()
        data = TournamentData(lot_seed=seed, lot_hash=fairdice.seed_hash(seed))
        until = (None if signup_hours is None
                 else iso(self.runner.clock() + timedelta(hours=signup_hours)))

        async def body(tx: Transaction) -> Reply:
            row = await tx.insert_tournament(
                guild_id=place.guild_id, channel_id=place.channel_id, organiser_id=actor.id,
                name=name, config=settings.to_dict(), state=data.to_dict(),
                signup_until=until)
            loaded = read(row)
            return Reply(ok=True, text=self.signup_text(loaded), version=row.version,
                         tournament_id=row.id, notify=signup_closes(loaded))

        return await self.runner.transact(place, actor, body)

    def signup_text(self, loaded: Loaded) -> str:
        """The public sign-up message (updated as players join and leave), but for the
        moment sign-up closes (:func:`signup_closes`: each adapter writes it its own way)."""
        s, data, row = loaded.settings, loaded.data, loaded.row
        cfg = s.tournament
        # As /challenge says them: the variant's own options, and those of matches only.
        rules = get_variant(s.variant)().rule_lines(RuleOptions.from_dict(dict(s.rules)),
                                                   money=False)
        count = f"{len(data.entrants)}" + (f" of {cfg.max_players}" if cfg.max_players else "")
        names = ", ".join(e.name for e in data.entrants)
        lines = [f"Tournament {loaded.title}: {cfg.format.label}, {cfg.lengths.describe()}"
                 + (f", {counted(cfg.swiss_rounds, 'round')}" if cfg.swiss_rounds else "")
                 + f", {get_variant(s.variant).title}.",
                 f"Rules: {'; '.join(rules)}"
                 + (f"; clock: {spec.describe()}." if (spec := parse_clock(s.clock)) else "."),
                 f"Signed up: {count}" + (f": {names}." if names else ".")]
        if s.round_hours:
            lines.append(f"Each round lasts {s.round_hours:g} "
                         f"{'hour' if s.round_hours == 1 else 'hours'}.")
        lines.append(f"Lots for equal ratings come from a seed whose SHA-256 is "
                     f"{data.lot_hash}; it is revealed at the start.")
        if row.status is TournamentStatus.SIGNUP:
            lines.append("Join with /tournament join (or the Join button); the organiser "
                         "starts it with /tournament-admin start.")
        return "\n".join(lines)

    def closed_signup(self, loaded: Loaded, line: str) -> tuple[RetireButtons, ...]:
        """The stored sign-up message's Join/Leave buttons retired, its text saying why
        (``line`` first, then the sign-up text as it now stands); nothing when no sign-up
        message was stored (the console, or a tournament made before they were)."""
        ref = loaded.data.signup_message
        if ref is None:
            return ()
        return (RetireButtons(ref, f"{line}\n{self.signup_text(loaded)}"),)

    async def signup_message(self, place: Place, tournament: int
                             ) -> tuple[Notice, ...] | None:
        """The sign-up message's lines now, the moment sign-up closes last (None: no such
        tournament here, or the database is away: the message keeps its text)."""
        try:
            async with self.runner.storage.snapshot() as tx:
                loaded = await find(tx, place, tournament, lock=False)
        except (Refusal, StorageError):
            return None
        return (*(notice(line) for line in self.signup_text(loaded).split("\n")),
                *signup_closes(loaded))

    # ------------------------------------------------------------------ sign-up

    async def join(self, place: Place, actor: Actor, tournament: int | None = None) -> Reply:
        if actor.is_bot:
            return Reply.refuse("Bots can't play in tournaments.")

        async def body(tx: Transaction) -> Reply:
            loaded = await find(tx, place, tournament)
            data, row = loaded.data, loaded.row
            if row.status is not TournamentStatus.SIGNUP:
                raise Refusal(f"{loaded.title} has already started (or ended): sign-up is "
                              "closed. Watch it with /tournament status.")
            if data.entrant(actor.id) is not None:
                raise Refusal(f"You are already signed up for {loaded.title}; "
                              "/tournament leave takes you off the list.")
            if row.signup_until and row.signup_until <= self.runner.now():
                raise Refusal(f"Sign-up for {loaded.title} is closed.",
                              deadline_notices(row.signup_until, "It closed on "))
            cap = loaded.settings.tournament.max_players
            if cap is not None and len(data.entrants) >= cap:
                raise Refusal(f"{loaded.title} is full ({counted(cap, 'player')}). Ask the "
                              "organiser whether a place frees up.")
            signup = Signup(actor.id, actor.name)
            new = replace(data, entrants=(*data.entrants, signup))
            saved = await save(tx, loaded, new)
            return Reply(ok=True, text=f"{signup.name} joins {loaded.title} "
                         f"({len(new.entrants)} signed up).", version=saved.version)

        return await self.runner.transact(place, actor, body)

    async def leave(self, place: Place, actor: Actor, tournament: int | None = None) -> Reply:
        async def body(tx: Transaction) -> Reply:
            loaded = await find(tx, place, tournament)
            data = loaded.data
            if loaded.row.status is not TournamentStatus.SIGNUP:
                raise Refusal(f"{loaded.title} has started: you can no longer leave it. "
                              "Forfeit your match with /forfeit, or ask the organiser to "
                              "remove you.")
            if data.entrant(actor.id) is None:
                raise Refusal(f"You are not signed up for {loaded.title}.")
            new = replace(data, entrants=tuple(e for e in data.entrants if e.user != actor.id))
            saved = await save(tx, loaded, new)
            return Reply(ok=True, text=f"{actor.name} leaves {loaded.title} "
                         f"({len(new.entrants)} signed up).", version=saved.version)

        return await self.runner.transact(place, actor, body)

    # ------------------------------------------------------------------ start

    async def start(self, place: Place, actor: Actor, *, is_organiser: bool,
                    tournament: int | None = None) -> Reply:
        async def body(tx: Transaction) -> Reply:
            loaded = await find(tx, place, tournament)
            check_organiser(loaded, actor, is_organiser, "start it")
            data, row = loaded.data, loaded.row
            if row.status is not TournamentStatus.SIGNUP:
                raise Refusal(f"{loaded.title} has already started.")
            entrants = []
            for e in data.entrants:
                rating = await tx.rating(row.guild_id, e.user)
                entrants.append(Entrant(str(e.user), e.name,
                                        rating.rating if rating.experience > 0 else None))
            dice = fairdice.SeededDice(data.lot_seed)
            try:
                state = TournamentState.start(loaded.settings.tournament, entrants, dice.die)
            except BackgammonError as error:
                raise Refusal(sentence(str(error))) from None
            new = replace(data, engine=state, lots_drawn=dice.drawn)
            now = self.runner.clock()
            saved = await save(tx, loaded, new, status=TournamentStatus.RUNNING,
                               **deadlines(now, loaded.settings.round_hours * 3600,
                                           self.config.tournament.reminder_hours))
            lines = [f"{loaded.title} starts with {counted(len(entrants), 'player')}.",
                     "Seeds: " + ", ".join(
                         f"{s.seed}. {s.entrant.display}"
                         + (f" ({s.entrant.rating:.0f})" if s.entrant.rating is not None
                            else " (unrated)") for s in state.seeds) + "."]
            # The seed is revealed whether or not a tie needed it, with the command that
            # recomputes the whole seeding (issue 30 item 13).
            if dice.drawn:
                lines.append(
                    f"Ties were broken by lot: {dice.drawn} dice from the seed "
                    f"{data.lot_seed} (SHA-256 {data.lot_hash}, published at creation); "
                    f"`python -m bot.service.core.fairdice {data.lot_seed} {data.lot_hash} "
                    f"{dice.drawn}` recomputes them.")
            else:
                lines.append(f"No tie needed a lot. The lot seed was {data.lot_seed} (SHA-256 "
                             f"{data.lot_hash}, published at creation).")
            lines.append(f"Anyone can recompute the seeding: "
                         f"`{lots.command(data.lot_seed, data.lot_hash, entrants)}`.")
            more, notes = round_lines(loaded, new, None)
            notes = [*notes, *deadline_notices(saved.deadline)]
            tx.on_commit(self.play.wake)
            closed = self.closed_signup(
                Loaded(saved, loaded.settings, new),
                f"Sign-up closed: {loaded.title} started with "
                f"{counted(len(entrants), 'player')}.")
            return Reply(ok=True, text="\n".join(lines + more), notify=tuple(notes),
                         version=saved.version, retire=closed)

        return await self.runner.transact(place, actor, body)


def signup_closes(loaded: Loaded) -> tuple[Notice, ...]:
    """The line saying when sign-up closes (a :class:`Moment`: Discord's timestamp markup,
    the console's local time; issue 42 item 10); none without a closing time."""
    return deadline_notices(loaded.row.signup_until, "Sign-up closes ")

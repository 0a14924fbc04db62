"""Tournaments run by the bot: sign-up, the start, a match per pairing, and the round that
advances by itself when its last match ends.

The rules (formats, seeding, pairings, standings) are :mod:`engine.tournament`; this
module stores them (the ``tournaments`` row, :mod:`.tournament_data`) and plays them as
ordinary rated matches:

* **create** (organisers): the organiser's choices are checked at once; a secret seed for
  the lots is drawn and its SHA-256 published.
* **join / leave** until the start.
* **start**: seeding by the server's FIBS ratings (players with no rated match are unrated
  and come last), ties by lot: dice drawn from the published seed
  (:mod:`bot.service.fairdice`), revealed in the start message so anyone can recompute the
  draw.
* **openings**: each pairing waiting to be played is handed to exactly one caller
  (:meth:`Tournaments.openings`, cluster-wide), which gives it a place (the Discord adapter a
  thread) and calls :meth:`Tournaments.open_pairing`: the match is created there, rated,
  already challenged and accepted, its first game started.
* **the end of a match** (:meth:`Tournaments.match_ended`, called by
  :class:`~bot.service.endings.Endings` inside the action that ended it) records the result
  in the tournament in the same transaction, on the locked tournament row with its version
  check, so two processes ending a round's last two matches at once advance it exactly once.

Organiser tools are in :mod:`.tournament_admin`, the look-only commands and deadlines in
:mod:`.tournament_info`.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, replace
from datetime import timedelta
from typing import Any

from bot.config import Config
from bot.service import fairdice
from bot.service.challenges import Challenges
from bot.service.limits import MAX_OPTION_TEXT, MAX_OPTIONS
from bot.service.replies import Mention, Refusal, Reply, notice
from bot.service.runner import ActionRunner
from bot.service.state import MatchState
from bot.service.tournament_data import (
    STARTED,
    Loaded,
    Settings,
    Signup,
    TournamentData,
    check_organiser,
    deadlines,
    find,
    iso,
    pairing_line,
    read,
    save,
)
from bot.service.values import Actor, Place
from bot.service.work import Work
from bot.storage.interface import MatchStatus, StorageError, TournamentStatus, Transaction
from engine.errors import BackgammonError
from engine.match import Match
from engine.player import Player
from engine.rules import RuleOptions
from engine.scoring import EndReason
from engine.tournament import (
    Entrant,
    Format,
    MatchLengths,
    Reason,
    TournamentConfig,
    TournamentState,
)
from engine.variant import get_variant

NAME_LIMIT = 60
OPENING_RETRY = timedelta(minutes=5)
"""A pairing taken on by a process that made no match within this time is offered again."""


@dataclass(frozen=True, slots=True)
class Opening:
    """A pairing to give a place to (a thread), then :meth:`Tournaments.open_pairing`."""

    tournament_id: int
    tournament: str
    guild_id: int
    channel_id: int
    """The tournament's channel (where the thread is made)."""
    pairing: str
    label: str
    a: Actor
    b: Actor
    length: int

    @property
    def title(self) -> str:
        return f"{self.tournament} {self.pairing}: {self.a.name} v {self.b.name}"


def round_lines(loaded: Loaded, data: TournamentData, before: TournamentState | None
                ) -> tuple[list[str], list[tuple[str | Mention, ...]]]:
    """What changed in the tournament since ``before``: new pairings (with mentions of
    their players), byes, the champion."""
    state = data.started
    lines: list[str] = []
    notes: list[tuple[str | Mention, ...]] = []
    new = state.new_pairings(before)
    if new:
        lines.append(f"{loaded.title}: round {state.round} is paired "
                     f"({state.length_for(state.round)}-point matches):")
        lines += [pairing_line(data, p) for p in new]
        for p in new:
            a, b = (int(x) for x in p.players)
            notes.append(notice(Mention(a, data.name(a)), " v ", Mention(b, data.name(b)),
                                f": your {loaded.row.name} match {p.id} is about to open."))
    known = set() if before is None else {p.id for p in before.pairings}
    for p in state.pairings:
        if p.id not in known and p.is_bye and p.winner is not None:
            lines.append(f"{data.name(p.winner)} has a bye in {p.id}.")
    if state.finished and (before is None or not before.finished):
        champion = state.champion
        lines.append(f"{loaded.title} is over: the champion is {data.name(champion)}!")
        if champion is not None:
            notes.append(notice(Mention(int(champion), data.name(champion)),
                                f" wins {loaded.row.name}. Congratulations!"))
    return lines, notes


class Tournaments:
    """Sign-up, start, openings and the end of tournament matches."""

    def __init__(self, runner: ActionRunner, challenges: Challenges, config: Config) -> None:
        self.runner = runner
        self.challenges = challenges
        self.config = config
        self.wakeup = asyncio.Event()
        """Set when pairings wait for a place (an adapter's loop waits on it)."""

    def _wake(self) -> None:
        self.wakeup.set()

    # ------------------------------------------------------------------ create

    def _settings(self, fmt: str, length: str, variant: str | None,
                  rules: dict[str, Any] | None, max_players: int | None,
                  rounds: int | None, round_hours: float | None, name: str) -> Settings:
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
            variant_cls = get_variant(variant or self.config.game.variant)
            merged = dict(self.config.game.rules)
            merged.update(options_in)
            options = RuleOptions.from_dict(merged)
            lengths = config.lengths
            for points in {lengths.default, lengths.final or lengths.default,
                           *(n for _, n in lengths.rounds)}:
                Match.new(points, options, variant_cls)
        except (BackgammonError, ValueError) as error:
            raise Refusal(str(error)[:300]) from None
        hours = self.config.tournament.round_hours if round_hours is None else round_hours
        return Settings(config, variant_cls.name, options.to_dict(), float(hours))

    async def create(self, place: Place, actor: Actor, *, is_organiser: bool, name: str,
                     format: str, length: str = "5", variant: str | None = None,
                     rules: dict[str, Any] | None = None, max_players: int | None = None,
                     rounds: int | None = None, signup_hours: float | None = None,
                     round_hours: float | None = None) -> Reply:
        """A new tournament taking sign-ups in this channel.  ``is_organiser``: the adapter
        found the organiser role or Manage Server on ``actor``."""
        if not is_organiser:
            role = self.config.tournament.organiser_role
            return Reply.refuse(
                "Only organisers can create a tournament: members with Manage Server"
                + (f" or the {role} role." if role else ".")
                + " Ask one of them, or join a tournament with /tournament join.")
        name = " ".join(name.split())
        if not 1 <= len(name) <= NAME_LIMIT:
            return Reply.refuse(f"A tournament's name has 1 to {NAME_LIMIT} characters.")
        if signup_hours is not None and not 0 < signup_hours <= 24 * 60:
            return Reply.refuse("signup_until is the hours sign-up stays open: more than 0, "
                                "at most 1440 (60 days).")
        try:
            settings = self._settings(format, length, variant, rules, max_players, rounds,
                                      round_hours, name)
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
                         tournament_id=row.id)

        return await self.runner.transact(place, actor, body)

    def signup_text(self, loaded: Loaded) -> str:
        """The public sign-up message (updated as players join and leave)."""
        s, data, row = loaded.settings, loaded.data, loaded.row
        cfg = s.tournament
        rules = RuleOptions.from_dict(dict(s.rules)).describe()
        count = f"{len(data.entrants)}" + (f" of {cfg.max_players}" if cfg.max_players else "")
        names = ", ".join(e.name for e in data.entrants)
        lines = [f"Tournament {loaded.title}: {cfg.format.label}, {cfg.lengths.describe()}"
                 + (f", {cfg.swiss_rounds} rounds" if cfg.swiss_rounds else "")
                 + f", {get_variant(s.variant).title}.",
                 f"Rules: {'; '.join(rules)}.",
                 f"Signed up: {count}" + (f": {names}." if names else ".")]
        if row.signup_until:
            lines.append(f"Sign-up closes at {row.signup_until} (UTC).")
        if s.round_hours:
            lines.append(f"Each round lasts {s.round_hours:g} hours.")
        lines.append(f"Lots for equal ratings come from a seed whose SHA-256 is "
                     f"{data.lot_hash}; it is revealed at the start.")
        if row.status is TournamentStatus.SIGNUP:
            lines.append("Join with /tournament join (or the Join button); the organiser "
                         "starts it with /tournament start.")
        return "\n".join(lines)

    async def signup_message(self, place: Place, tournament: int) -> str | None:
        """The sign-up message's text now (None: no such tournament here, or the database
        is away: the message keeps its text)."""
        try:
            async with self.runner.storage.snapshot() as tx:
                loaded = await find(tx, place, tournament, lock=False)
        except (Refusal, StorageError):
            return None
        return self.signup_text(loaded)

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
                raise Refusal(f"Sign-up for {loaded.title} closed at {row.signup_until} "
                              "(UTC).")
            cap = loaded.settings.tournament.max_players
            if cap is not None and len(data.entrants) >= cap:
                raise Refusal(f"{loaded.title} is full ({cap} players). Ask the organiser "
                              "whether a place frees up.")
            new = replace(data, entrants=(*data.entrants, Signup(actor.id, actor.name)))
            saved = await save(tx, loaded, new)
            return Reply(ok=True, text=f"{actor.name} joins {loaded.title} "
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
                raise Refusal(str(error)) from None
            new = replace(data, engine=state, lots_drawn=dice.drawn)
            now = self.runner.clock()
            saved = await save(tx, loaded, new, status=TournamentStatus.RUNNING,
                               **deadlines(now, loaded.settings.round_hours * 3600,
                                           self.config.tournament.reminder_hours))
            lines = [f"{loaded.title} starts with {len(entrants)} players.",
                     "Seeds: " + ", ".join(
                         f"{s.seed}. {s.entrant.display}"
                         + (f" ({s.entrant.rating:.0f})" if s.entrant.rating is not None
                            else " (unrated)") for s in state.seeds) + "."]
            if dice.drawn:
                lines.append(
                    f"Ties were broken by lot: {dice.drawn} dice from the seed "
                    f"{data.lot_seed} (SHA-256 {data.lot_hash}, published at creation); "
                    f"`python -m bot.service.fairdice {data.lot_seed} {data.lot_hash} "
                    f"{dice.drawn}` recomputes them.")
            more, notes = round_lines(loaded, new, None)
            if saved.deadline:
                more.append(f"Round deadline: {saved.deadline} (UTC).")
            tx.on_commit(self._wake)
            return Reply(ok=True, text="\n".join(lines + more), notify=tuple(notes),
                         version=saved.version)

        return await self.runner.transact(place, actor, body)

    # ------------------------------------------------------------------ openings

    async def openings(self) -> list[Opening]:
        """The pairings waiting for a place, each handed out once, cluster-wide (again
        after :data:`OPENING_RETRY` if no match was made for it)."""
        self.wakeup.clear()
        now = self.runner.clock()

        async def work(tx: Transaction) -> list[Opening]:
            out: list[Opening] = []
            for row in await tx.running_tournaments():
                loaded = read(row)
                state = loaded.data.engine
                if state is None:
                    continue
                made = await tx.tournament_matches(row.id)
                for p in state.pending:
                    if p.id in made or p.a is None or p.b is None:
                        continue
                    if not await tx.claim_opening(row.id, p.id, iso(now),
                                                  iso(now - OPENING_RETRY)):
                        continue
                    data = loaded.data
                    out.append(Opening(row.id, loaded.title, row.guild_id, row.channel_id,
                                       p.id, p.label, Actor(int(p.a), data.name(p.a)),
                                       Actor(int(p.b), data.name(p.b)), p.length))
            return out

        return await self.runner.storage.run(work)

    async def open_pairing(self, opening: Opening, place: Place) -> Reply:
        """Create the pairing's match in ``place`` (its own thread), rated, challenged and
        accepted: the first game starts.  Refused if it was opened already."""
        a, b = opening.a, opening.b

        async def body(tx: Transaction) -> Reply:
            row = await tx.lock_tournament(opening.tournament_id)
            if row is None:
                raise Refusal("That tournament no longer exists.")
            loaded = read(row)
            if row.status not in STARTED:
                raise Refusal(f"{loaded.title} is {row.status.value}: no match opens.")
            pairing = loaded.data.started.pairing(opening.pairing)
            if pairing.decided:
                raise Refusal(f"{pairing.id} is already decided.")
            if opening.pairing in await tx.tournament_matches(row.id):
                raise Refusal(f"{pairing.id} already has its match.")
            if await tx.open_match_in_channel(place.channel_id) is not None:
                raise Refusal("This channel already has a game: open the pairing elsewhere.")
            for user in sorted((a, b), key=lambda x: x.id):
                await tx.upsert_user(user.id, user.name, False)
            s = loaded.settings
            match = await tx.insert_match(
                guild_id=row.guild_id, channel_id=place.channel_id, white_id=a.id,
                black_id=b.id, variant=s.variant, rules=dict(s.rules), length=pairing.length,
                stake=0, rated=True, status=MatchStatus.CHALLENGED,
                state=MatchState(hints=False).to_dict())
            await tx.link_match(match.id, row.id, pairing.id)
            return Reply(ok=True, text="", match_id=match.id)

        made = await self.runner.transact(place, a, body, note_user=False)
        if not made.ok:
            return made
        started = await self.challenges.accept(place, b)
        head = (f"{opening.title} ({opening.label}, a {opening.length}-point match, rated). "
                "The match is on:")
        return replace(started, text=head + "\n" + started.text,
                       notify=(notice(a.mention, " v ", b.mention,
                                      f": your {opening.tournament} match is here."),
                               *started.notify))

    # ------------------------------------------------------------------ the end hook

    async def match_ended(self, work: Work, winner: Player) -> None:
        """Called by :class:`~bot.service.endings.Endings` when a match ends, inside its
        transaction: a tournament match records its result (the round advances when it
        was the last one)."""
        link = await work.tx.match_pairing(work.row.id)
        if link is None:
            return
        tournament_id, pairing_id = link
        row = await work.tx.lock_tournament(tournament_id)
        if row is None or row.status not in STARTED:
            return
        loaded = read(row)
        data = loaded.data
        state = data.started
        pairing = state.pairing(pairing_id)
        if pairing.decided:
            return  # the organiser decided it while the game went on
        session = work.session
        assert isinstance(session, Match)
        won, lost = session.score[winner], session.score[winner.other]
        last = work.game.result if work.game is not None else None
        abandoned = session.forfeited_by is not None or (
            last is not None and last.reason is EndReason.FORFEIT)
        played = not abandoned and won >= pairing.length > lost
        reason = Reason.PLAYED if played else Reason.FORFEIT
        new_state = state.record_result(pairing_id, str(work.user(winner)), (won, lost),
                                        reason)
        new = replace(data, engine=new_state,
                      claims=tuple(c for c in data.claims if c.pairing != pairing_id))
        changes: dict[str, Any] = {}
        if new_state.finished:
            changes.update(status=TournamentStatus.FINISHED, deadline=None, remind_at=None)
        elif new_state.round != state.round and row.status is TournamentStatus.RUNNING:
            changes.update(deadlines(self.runner.clock(), loaded.settings.round_hours * 3600,
                                     self.config.tournament.reminder_hours))
        await save(work.tx, loaded, new, **changes)
        work.lines.append(f"{loaded.title}: {pairing_line(new, new_state.pairing(pairing_id))}.")
        lines, notes = round_lines(loaded, new, state)
        work.lines.extend(lines)
        work.notify.extend(notes)
        if new_state.new_pairings(state):
            work.tx.on_commit(self._wake)

"""Tournament play: pairings become matches (each handed out once, cluster-wide, for
the adapter to give a place: a thread), and a finished tournament match records its
result inside the match's own transaction, so the round advances exactly once."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, replace
from datetime import timedelta
from typing import Any

from bot.config import Config
from bot.service.core.replies import (
    BracketData,
    Mention,
    Notice,
    Picture,
    PictureKind,
    Refusal,
    Reply,
    notice,
)
from bot.service.core.runner import ActionRunner
from bot.service.core.state import MatchState
from bot.service.core.timecontrol import new_clock, parse_clock
from bot.service.core.values import Actor, Place
from bot.service.core.work import Work
from bot.service.play.challenges import Challenges
from bot.service.tournaments.data import (
    STARTED,
    Loaded,
    TournamentData,
    deadlines,
    iso,
    pairing_line,
    read,
    save,
)
from bot.storage.interface import MatchStatus, TournamentStatus, Transaction
from engine.match import Match
from engine.player import Player
from engine.scoring import EndReason
from engine.tournament import (
    Reason,
    TournamentState,
)
from engine.words import article

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
    organiser_id: int = 0
    """Who created the tournament (told when the pairing cannot open)."""

    @property
    def title(self) -> str:
        return f"{self.tournament} {self.pairing}: {self.a.name} v {self.b.name}"


def round_lines(loaded: Loaded, data: TournamentData, before: TournamentState | None
                ) -> tuple[list[str], list[Notice]]:
    """What changed in the tournament since ``before``: new pairings (with mentions of
    their players), byes, the champion."""
    state = data.started
    lines: list[str] = []
    notes: list[Notice] = []
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


def bracket_picture(number: int, state: TournamentState, data: TournamentData) -> Picture:
    """The bracket (or standings) as it stands after a result, with its text alternative
    (tournament ``number``'s, its name once: the alternative begins with it): posted with
    the end of every tournament match (issue 17: "updated after each result")."""
    from render.bracket import alt_text  # Pillow only when a tournament match ends

    names = tuple((str(e.user), e.name) for e in data.entrants)
    return Picture(PictureKind.BRACKET, BracketData(state, names), "bracket.png",
                   f"#{number} " + alt_text(state, dict(names)))


class TournamentPlay:
    """Openings of pairings and the end of tournament matches."""

    def __init__(self, runner: ActionRunner, challenges: Challenges, config: Config) -> None:
        self.runner = runner
        self.challenges = challenges
        self.config = config
        self.wakeup = asyncio.Event()
        """Set when pairings wait for a place (an adapter's loop waits on it)."""

    def wake(self) -> None:
        self.wakeup.set()

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
                                       Actor(int(p.b), data.name(p.b)), p.length,
                                       row.organiser_id))
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
            timing = parse_clock(s.clock)
            match = await tx.insert_match(
                guild_id=row.guild_id, channel_id=place.channel_id, white_id=a.id,
                black_id=b.id, variant=s.variant, rules=dict(s.rules), length=pairing.length,
                stake=0, rated=True, status=MatchStatus.CHALLENGED,
                state=MatchState(hints=False, clock=timing.text if timing else None).to_dict())
            if timing is not None:  # every match on the tournament's clock (issue 44)
                await tx.insert_clock(new_clock(match.id, timing, pairing.length))
            await tx.link_match(match.id, row.id, pairing.id)
            return Reply(ok=True, text="", match_id=match.id)

        made = await self.runner.transact(place, a, body, note_user=False)
        if not made.ok:
            return made
        started = await self.challenges.accept(place, b)
        head = (f"{opening.title} ({opening.label}, {article(f'{opening.length}-point match')}, "
                "rated). "
                "The match is on:")
        return replace(started, text=head + "\n" + started.text,
                       notify=(notice(a.mention, " v ", b.mention,
                                      f": your {opening.tournament} match is here."),
                               *started.notify))

    # ------------------------------------------------------------------ the end hook

    async def match_ended(self, work: Work, winner: Player) -> None:
        """Called by :class:`~bot.service.play.endings.Endings` when a match ends, inside its
        transaction: a tournament match records its result (the round advances when it
        was the last one)."""
        link = await work.tx.match_pairing(work.row.id)
        if link is None:
            return
        work.rematch = False  # the tournament pairs the next match (issue 30 item 14)
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
        kept = data.notes
        if played and last is not None and last.reason is not EndReason.BORNE_OFF:
            # How the deciding game ended, so the result does not read as a game played
            # out (issue 30 item 10: a resignation showed as "(played)").
            how = {EndReason.RESIGNATION: "the last game resigned",
                   EndReason.DROP: "the last game's double refused"}.get(last.reason)
            if how:
                kept = (*kept, (pairing_id, how))
        new = replace(data, engine=new_state, notes=kept,
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
        work.pictures.append(bracket_picture(loaded.row.id, new_state, new))
        if new_state.new_pairings(state):
            work.tx.on_commit(self.wake)

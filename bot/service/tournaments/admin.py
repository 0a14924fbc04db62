"""The organiser's tools: results entered by hand (with a reason stored), claims at the
deadline, removing a player, cancelling, pausing and resuming the deadlines.

Every tool works on the locked tournament row with its version check, in one transaction
with whatever it does to the matches: a match whose pairing the organiser decides (a
result, a confirmed claim, a removed player) ends as a forfeit ends it, finished with
the pairing's winner (so nobody plays on for nothing, /stats and the leaderboard count
it, and its played games are graded with that result); a cancelled tournament's open
matches are cancelled, with no winner.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from bot.config import Config
from bot.names import display_name
from bot.service.core.replies import Mention, Refusal, Reply, notice
from bot.service.core.runner import ActionRunner
from bot.service.core.state import MatchState
from bot.service.core.values import Actor, Place, check_id
from bot.service.play.endings import Endings, abandon_game
from bot.service.tournaments.data import (
    STARTED,
    Claim,
    Loaded,
    TournamentData,
    check_organiser,
    deadline_notices,
    deadlines,
    find,
    pairing_line,
    save,
)
from bot.service.tournaments.play import round_lines
from bot.service.tournaments.signup import Tournaments
from bot.storage.interface import MatchStatus, TournamentStatus, Transaction, clean_text
from engine.errors import BackgammonError
from engine.player import Player
from engine.tournament import Pairing, Reason, TournamentState
from engine.words import counted, sentence

REASON_LIMIT = 200
PLAYER_KINDS = ("play", "double", "take", "drop", "beaver", "resign", "choice")
"""Events that show a player took part in a match."""


async def find_with_matches(tx: Transaction, place: Place, tournament: int | None,
                            statuses: list[str] | None = None) -> Loaded:
    """:func:`find`, taking first the channel locks of the tournament's open matches (in
    channel id order), then the tournament's row: the order a match's ending takes them
    (its channel, then the tournament), so the two never wait for each other in a cycle."""
    kwargs = {} if statuses is None else {"statuses": statuses}
    seen = await find(tx, place, tournament, lock=False, **kwargs)
    made = await tx.tournament_matches(seen.row.id)
    for channel in sorted({m.channel_id for m in made.values() if m.status.is_open}):
        await tx.open_match_in_channel(channel)
    return await find(tx, place, seen.row.id)


@dataclass(frozen=True, slots=True)
class Decided:
    """A pairing the organiser decided (:meth:`TournamentAdmin._close_match`)."""

    pairing: str
    actor: Actor
    """The organiser (whose action ends the pairing's match)."""
    why: str
    """What decided it, as the players read it: "the organiser's decision"."""


class TournamentAdmin:
    """Organiser tools and claims."""

    def __init__(self, runner: ActionRunner, tournaments: Tournaments, config: Config,
                 endings: Endings) -> None:
        self.runner = runner
        self.endings = endings
        self.tournaments = tournaments
        self.config = config

    async def _close_match(self, tx: Transaction, loaded: Loaded, pairing: str,
                           decided: Decided | None = None, winner: str | None = None
                           ) -> list[str] | None:
        """Close the pairing's match if it is still open: what the players read of it, or
        None when it had none open.  ``decided`` (the organiser decided the pairing, with
        ``winner``): a match under way ends as a forfeit ends it
        (:meth:`~bot.service.play.endings.Endings.decide`): finished with its winner, its
        played games graded with that result, the game in play ended without one.
        Without (the tournament is cancelled), or before its first game, it is cancelled."""
        match = (await tx.tournament_matches(loaded.row.id)).get(pairing)
        if match is None or not match.status.is_open:
            return None
        current = await tx.open_match_in_channel(match.channel_id)  # its channel's lock
        if current is None or current.id != match.id:
            return []
        if decided is not None and winner is not None and (
                current.status is MatchStatus.ACTIVE):
            work = self.runner.work(tx, await self.runner.load_row(tx, current),
                                    decided.actor)
            side = Player.WHITE if current.white_id == int(winner) else Player.BLACK
            await self.endings.decide(work, side, decided.why)
            await self.runner.commit(work)
            # Said in the organiser's channel: the grades go to the match's own.
            return [line.replace(" posted here.", " posted in its channel.")
                    for line in work.lines]
        await tx.update_match(current, status=MatchStatus.CANCELLED)
        for game in await tx.games_of_match(match.id):  # the game in progress
            await abandon_game(tx, game, self.runner.now())
        return ["Its match is cancelled: its game in play ends without a result, and "
                "/verify in its channel checks the dice."]

    async def _decided(self, tx: Transaction, loaded: Loaded, data: TournamentData,
                       before: TournamentState, after: TournamentState,
                       head: list[str], close: Decided | None = None) -> Reply:
        """Save ``after``; the reply announcing what changed.  ``close``: the pairing the
        organiser decided, whose open match ends with its winner (:meth:`_close_match`,
        after the save: the match's end finds the pairing decided and leaves it)."""
        changes: dict[str, Any] = {}
        if after.finished:
            changes.update(status=TournamentStatus.FINISHED, deadline=None, remind_at=None)
        elif after.round != before.round and loaded.row.status is TournamentStatus.RUNNING:
            changes.update(deadlines(self.runner.clock(), loaded.settings.round_hours * 3600,
                                     self.config.tournament.reminder_hours))
        new = replace(data, engine=after)
        saved = await save(tx, loaded, new, **changes)
        lines, notes = round_lines(loaded, new, before)
        if close is not None:
            closed = await self._close_match(tx, loaded, close.pairing, close,
                                             after.pairing(close.pairing).winner)
            head = head + (closed or [])
        if after.new_pairings(before):
            tx.on_commit(self.tournaments.play.wake)
        return Reply(ok=True, text="\n".join(head + lines), notify=tuple(notes),
                     version=saved.version, tournament_id=saved.id)

    def _pairing(self, state: TournamentState, pairing: str) -> Pairing:
        try:
            return state.pairing(clean_text(pairing).strip().upper())
        except BackgammonError as error:
            raise Refusal(sentence(str(error))) from None

    # ------------------------------------------------------------------ results

    async def result(self, place: Place, actor: Actor, *, is_organiser: bool, pairing: str,
                     winner: int, reason: str, score: tuple[int, int] | None = None,
                     tournament: int | None = None) -> Reply:
        """The organiser decides ``pairing`` for ``winner`` (an organiser's result, its
        ``reason`` stored and shown); an open match of the pairing is cancelled."""
        reason = " ".join(clean_text(reason).split())
        if not 1 <= len(reason) <= REASON_LIMIT:
            return Reply.refuse(f"Give the reason for the result (1 to {REASON_LIMIT} "
                                "characters): it is stored and shown with it.")
        try:
            check_id(winner, "winner's user")
        except Refusal as refusal:
            return Reply.refuse(str(refusal))

        async def body(tx: Transaction) -> Reply:
            loaded = await find_with_matches(tx, place, tournament, statuses=[
                *(s.value for s in STARTED), TournamentStatus.FINISHED.value])
            check_organiser(loaded, actor, is_organiser, "enter a result")
            data = loaded.data
            state = data.started
            p = self._pairing(state, pairing)
            if str(winner) not in p.players:  # named, never by a raw id (issue 42 item 9)
                who = await named(tx, data, winner)
                raise Refusal(f"{who} does not play in {p.id}; the winner is "
                              f"{state.name(p.a)} or {state.name(p.b)}.")
            try:
                after = state.record_result(p.id, str(winner), score, Reason.ORGANISER)
            except BackgammonError as error:
                raise Refusal(sentence(str(error))) from None
            data = replace(data, notes=(*data.notes, (p.id, reason)),
                           claims=tuple(c for c in data.claims if c.pairing != p.id))
            head = [f"{loaded.title}: the organiser decides "
                    f"{pairing_line(replace(data, engine=after), after.pairing(p.id))}."]
            return await self._decided(tx, loaded, data, state, after, head,
                                       Decided(p.id, actor, "the organiser's decision"))

        return await self.runner.transact(place, actor, body)

    async def claim(self, place: Place, actor: Actor, tournament: int | None = None) -> Reply:
        """After the round's deadline, a player whose opponent never played claims the
        match; the organiser confirms it (:meth:`confirm`)."""
        async def body(tx: Transaction) -> Reply:
            loaded = await find(tx, place, tournament, statuses=[s.value for s in STARTED])
            data, row = loaded.data, loaded.row
            p = data.started.pairing_of(str(actor.id))
            if p is None:
                raise Refusal(f"You have no match waiting in {loaded.title}.")
            if row.status is TournamentStatus.PAUSED:
                raise Refusal(f"{loaded.title} is paused: its deadlines are stopped.")
            if row.deadline is None or row.deadline > self.runner.now():
                when = "its deadline" if row.deadline else "a deadline (this round has none)"
                raise Refusal(f"A match can be claimed only after {when}. Until then, play "
                              "it; the organiser can decide it with /tournament-admin result.",
                              deadline_notices(row.deadline))
            if data.claim_of(p.id) is not None:
                raise Refusal(f"{p.id} is already claimed; the organiser will confirm it.")
            opponent = p.opponent(str(actor.id))
            assert opponent is not None
            match = (await tx.tournament_matches(row.id)).get(p.id)
            if match is not None:
                games = await tx.games_of_match(match.id)
                # A play its player may still take back is his too (it waits in the
                # match's state until the opponent acts: bot.service.core.takeback).
                unsettled = MatchState.from_dict(match.state).unsettled
                took_part = len(games) > 1 or (
                    unsettled is not None and unsettled.user == int(opponent))
                for g in games:
                    took_part = took_part or any(
                        e.actor_id == int(opponent) and e.kind in PLAYER_KINDS
                        for e in await tx.events(g.id))
                if took_part:
                    raise Refusal(f"{data.name(opponent)} has played in your match "
                                  f"{p.id}: only an unstarted match can be claimed. Play "
                                  "on, or ask the organiser for /tournament-admin result.")
            claim = Claim(p.id, actor.id, self.runner.now())
            saved = await save(tx, loaded, replace(data, claims=(*data.claims, claim)))
            return Reply(ok=True, text=f"{actor.name} claims {p.id} in {loaded.title}: "
                         f"{data.name(opponent)} did not play by the deadline. The organiser "
                         f"confirms with /tournament-admin confirm {p.id}.",
                         notify=(notice(Mention(row.organiser_id), f": {actor.name} claims "
                                        f"{p.id}."),),
                         version=saved.version, tournament_id=saved.id)

        return await self.runner.transact(place, actor, body)

    async def confirm(self, place: Place, actor: Actor, *, is_organiser: bool, pairing: str,
                      tournament: int | None = None) -> Reply:
        """The organiser confirms a claim: the claimant wins the pairing by forfeit."""
        async def body(tx: Transaction) -> Reply:
            loaded = await find_with_matches(tx, place, tournament,
                                             statuses=[s.value for s in STARTED])
            check_organiser(loaded, actor, is_organiser, "confirm a claim")
            data = loaded.data
            state = data.started
            p = self._pairing(state, pairing)
            claim = data.claim_of(p.id)
            if claim is None:
                raise Refusal(f"Nobody claimed {p.id}. Claims waiting: "
                              f"{', '.join(c.pairing for c in data.claims) or 'none'}; "
                              "/tournament-admin result decides a match yourself.")
            try:
                after = state.record_result(p.id, str(claim.claimant), None, Reason.FORFEIT)
            except BackgammonError as error:
                raise Refusal(sentence(str(error))) from None
            data = replace(data, notes=(*data.notes, (p.id, "claim at the deadline "
                                                     "confirmed by the organiser")),
                           claims=tuple(c for c in data.claims if c.pairing != p.id))
            head = [f"{loaded.title}: claim confirmed, {data.name(claim.claimant)} wins "
                    f"{p.id} by forfeit."]
            return await self._decided(tx, loaded, data, state, after, head, Decided(
                p.id, actor, "forfeit (a claim at the deadline, confirmed)"))

        return await self.runner.transact(place, actor, body)

    # ------------------------------------------------------------------ the field

    async def remove(self, place: Place, actor: Actor, *, is_organiser: bool, user: int,
                     tournament: int | None = None) -> Reply:
        """Remove ``user``: before the start from the list, after it from the tournament
        (a pending match forfeited, later rounds paired without them)."""
        async def body(tx: Transaction) -> Reply:
            loaded = await find_with_matches(tx, place, tournament)
            check_organiser(loaded, actor, is_organiser, "remove a player")
            data = loaded.data
            who = await named(tx, data, user)
            if data.entrant(user) is None:
                raise Refusal(f"{who} is not in {loaded.title}.")
            if loaded.row.status is TournamentStatus.SIGNUP:
                new = replace(data, entrants=tuple(e for e in data.entrants if e.user != user))
                saved = await save(tx, loaded, new)
                return Reply(ok=True, text=f"{who} is taken off {loaded.title} "
                             f"({len(new.entrants)} signed up).", version=saved.version,
                             tournament_id=saved.id)
            state = data.started
            pending = state.pairing_of(str(user))
            try:
                after = state.remove_player(str(user))
            except BackgammonError as error:
                raise Refusal(sentence(str(error))) from None
            head = [f"{loaded.title}: the organiser removes {who}."]
            data = replace(data, claims=tuple(c for c in data.claims
                                              if pending is None or c.pairing != pending.id))
            return await self._decided(
                tx, loaded, data, state, after, head,
                None if pending is None else Decided(pending.id, actor,
                                                     f"forfeit ({who} is removed)"))

        return await self.runner.transact(place, actor, body)

    async def cancel(self, place: Place, actor: Actor, *, is_organiser: bool,
                     tournament: int | None = None) -> Reply:
        async def body(tx: Transaction) -> Reply:
            loaded = await find_with_matches(tx, place, tournament)
            check_organiser(loaded, actor, is_organiser, "cancel it")
            closed = 0
            if loaded.data.engine is not None:
                for p in loaded.data.engine.pending:
                    closed += await self._close_match(tx, loaded, p.id) is not None
            saved = await save(tx, loaded, loaded.data, status=TournamentStatus.CANCELLED,
                               deadline=None, remind_at=None)
            engine = loaded.data.engine
            why = ("Sign-up closed: the tournament was cancelled before it started."
                   if engine is None else
                   "Sign-up closed: the tournament started with "
                   f"{counted(len(engine.seeds), 'player')} and was cancelled in round "
                   f"{engine.round}.")
            return Reply(ok=True, text=f"{loaded.title} is cancelled"
                         + (f"; {counted(closed, 'open match')} with it." if closed else "."),
                         version=saved.version, tournament_id=saved.id,
                         retire=self.tournaments.closed_signup(replace(loaded, row=saved),
                                                               why))

        return await self.runner.transact(place, actor, body)

    async def pause(self, place: Place, actor: Actor, *, is_organiser: bool,
                    tournament: int | None = None) -> Reply:
        """Stop the round's deadline (matches go on; nothing can be claimed)."""
        async def body(tx: Transaction) -> Reply:
            loaded = await find(tx, place, tournament)
            check_organiser(loaded, actor, is_organiser, "pause it")
            row = loaded.row
            if row.status is not TournamentStatus.RUNNING:
                raise Refusal(f"{loaded.title} is {row.status.value}: only a running "
                              "tournament can be paused.")
            left = None
            if row.deadline is not None:
                end = datetime.fromisoformat(row.deadline)
                left = max(0.0, (end - self.runner.clock()).total_seconds())
            saved = await save(tx, loaded, replace(loaded.data, paused_left=left),
                               status=TournamentStatus.PAUSED, deadline=None, remind_at=None)
            return Reply(ok=True, text=f"{loaded.title} is paused: its deadlines stop until "
                         "/tournament-admin resume (matches can still be played).",
                         version=saved.version, tournament_id=saved.id)

        return await self.runner.transact(place, actor, body)

    async def resume(self, place: Place, actor: Actor, *, is_organiser: bool,
                     tournament: int | None = None) -> Reply:
        async def body(tx: Transaction) -> Reply:
            loaded = await find(tx, place, tournament)
            check_organiser(loaded, actor, is_organiser, "resume it")
            if loaded.row.status is not TournamentStatus.PAUSED:
                raise Refusal(f"{loaded.title} is not paused.")
            data = loaded.data
            saved = await save(tx, loaded, replace(data, paused_left=None),
                               status=TournamentStatus.RUNNING,
                               **deadlines(self.runner.clock(), data.paused_left,
                                           self.config.tournament.reminder_hours))
            return Reply(ok=True, text=f"{loaded.title} resumes.",
                         notify=deadline_notices(saved.deadline, "The round's deadline is now "),
                         version=saved.version, tournament_id=saved.id)

        return await self.runner.transact(place, actor, body)


async def named(tx: Transaction, data: TournamentData, user: int) -> str:
    """How a refusal names ``user``: his name in the tournament, else the name he is known
    by here (cleaned), never his raw id."""
    if data.entrant(user) is not None:
        return data.name(user)
    known = await tx.get_user(user)
    return display_name(known.name, UNNAMED) if known is not None else UNNAMED


UNNAMED = "The user you named"

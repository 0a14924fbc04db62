"""Open challenges (issue 44 item 1): ``/challenge`` without an opponent.

* Posted in the channel with its terms and an **Accept** button anyone but the challenger
  may press (and a **Withdraw** button for the challenger, as ``/cancel``).
* Exactly one acceptance wins when several press at once: each press is one action on the
  channel's match (its lock, its version); the first sets the taker and starts the match,
  the others are told privately who took it.  The challenge's message then says who.
* It expires after the server's ``open_challenge_minutes`` (``/settings``): the timer's due
  work (:meth:`OpenChallenges.due`) withdraws it and says so; an Accept after the expiry
  and before the timer looks is refused as expired.
* A rated one may name a rating range (``low`` to ``high``): a player outside it is told
  his rating and the range.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from bot.service.core.observe import naming
from bot.service.core.replies import MessageRef, Refusal, Reply, RetireButtons
from bot.service.core.runner import ActionRunner
from bot.service.core.spans import span
from bot.service.core.state import MatchState, OpenTerms
from bot.service.core.values import Actor, Expect, Place, PlaceKind, without_server
from bot.service.core.work import Work
from bot.service.play.challenges import CHALLENGED, Challenges
from bot.service.settings.service import SettingsService
from bot.storage.interface import MatchRow, MatchStatus, StorageError, Transaction
from engine.player import Player
from engine.words import article

NEEDS_A_SERVER = ("an open challenge is for a server's channel, where anyone may take it; "
                  "here, challenge the other person by name (/challenge @user).")
MAX_RATING = 10_000


def expired(terms: OpenTerms, now: datetime) -> bool:
    return datetime.fromisoformat(terms.until) <= now


@dataclass(frozen=True, slots=True)
class Waiting:
    """An open challenge waiting in a channel, as a page lists it (issue 45): its match and
    state version (what an Accept is offered for), who posted it, its terms in words and
    when it expires (seconds since the epoch)."""

    match_id: int
    version: int
    challenger_id: int
    challenger: str
    terms: str
    expires: int


def terms_words(row: MatchRow) -> str:
    """"a 3-point match of backgammon, clock usbgf, rated"."""
    state = MatchState.from_dict(row.state)
    what = article(f"{row.length}-point match") if row.length else (
        "money play" + (f" at {row.stake} a point" if row.stake else ""))
    extra = [] if state.clock is None else [f"clock {state.clock}"]
    extra.append("rated" if row.rated else "unrated")
    return f"{what} of {row.variant}, {', '.join(extra)}"


class OpenChallenges:
    """Posting, taking, withdrawing and expiring open challenges."""

    def __init__(self, runner: ActionRunner, challenges: Challenges,
                 settings: SettingsService) -> None:
        self.runner = runner
        self.challenges = challenges
        self.settings = settings

    async def post(self, place: Place, actor: Actor, *, low: int | None = None,
                   high: int | None = None, **terms: Any) -> Reply:
        """Post an open challenge on ``terms`` (as :meth:`Challenges.challenge` takes them;
        ``low``/``high``: the rating range of a rated one)."""
        if not place.in_server:
            return Reply.refuse(without_server(place, "An open challenge", NEEDS_A_SERVER))
        if terms.get("level"):
            return Reply.refuse("The level option is for games against the bot: to play me, "
                                "challenge me by name.")
        rated = bool(terms.get("rated", True))
        if (low is not None or high is not None) and not rated:
            return Reply.refuse("A rating range is for a rated challenge (ratings are what it "
                                "compares): leave it out, or make the challenge rated.")
        for bound in (low, high):
            if bound is not None and not 0 <= bound <= MAX_RATING:
                return Reply.refuse(f"A rating bound is a whole number from 0 to {MAX_RATING}.")
        if low is not None and high is not None and low > high:
            return Reply.refuse(f"The rating range {low} to {high} is empty: give the lower "
                                "bound first.")
        try:
            server = await self.settings.of(place.guild_id)
        except StorageError as error:
            return Reply.refuse(str(error))
        until = self.runner.clock() + timedelta(minutes=server.open_challenge_minutes)
        open_terms = OpenTerms(until.isoformat(timespec="milliseconds"), low, high,
                               server.open_challenge_minutes)
        return await self.challenges.challenge(place, actor, None, open_terms=open_terms,
                                               **terms)

    async def accept(self, place: Place, actor: Actor, expect: Expect | None = None) -> Reply:
        """Accept the challenge here: an open one by anyone but its challenger, else as
        :meth:`Challenges.accept`."""
        async def op(work: Work) -> None:
            terms = work.state.open
            if terms is not None:
                await self.take(work, terms)
            await self.challenges.accepted(work)

        reply = await self.runner.run(place, actor, op, expect=expect, statuses=CHALLENGED)
        if reply.ok or expect is None or expect.match_id is None:
            return reply
        return await self.taken_first(expect.match_id, actor) or reply

    async def accept_listed(self, place: Place, actor: Actor, match_id: int,
                            version: int) -> Reply:
        """Accept the open challenge ``match_id`` listed by ``/lobby`` in ``place`` (its
        Accept button): :meth:`accept` where the challenge waits, at the version listed.
        The game is played there: a reply from elsewhere points to its channel."""
        try:
            async with self.runner.storage.snapshot() as tx:
                row = await tx.get_match(match_id)
        except StorageError as error:
            return Reply.refuse(str(error))
        if row is None or row.guild_id != place.guild_id:
            return Reply.refuse("That challenge is not on this server any more: /lobby "
                                "lists the open ones.")
        state = MatchState.from_dict(row.state)
        there = Place(row.guild_id, row.channel_id, kind=PlaceKind(row.place_kind),
                      answers_only=state.answers_only)
        reply = await self.accept(there, actor, Expect(version, match_id))
        if row.channel_id == place.channel_id:
            return reply
        return replace(reply, channel_ref=row.channel_id)

    async def take(self, work: Work, terms: OpenTerms) -> None:
        """``work.actor`` takes the open challenge: he becomes its black player."""
        row, taker = work.row, work.actor
        challenger = work.name(Player.WHITE)
        if taker.id == row.white_id:
            raise Refusal("You posted this open challenge: anyone else may accept it. "
                          "Withdraw it with /cancel (or its Withdraw button).")
        if expired(terms, work.at or self.runner.clock()):
            raise Refusal(f"{challenger}'s open challenge has expired: post your own with "
                          "/challenge (no opponent), or challenge someone by name.")
        if row.rated and (terms.low is not None or terms.high is not None):
            rating = (await work.tx.rating(row.guild_id, taker.id)).rating
            low = terms.low if terms.low is not None else 0
            high = terms.high if terms.high is not None else MAX_RATING
            if not low <= rating <= high:
                raise Refusal(f"{challenger}'s open challenge is for ratings from {low} to "
                              f"{high}, and yours here is {rating:.0f}: post your own with "
                              "/challenge, or look for another in /lobby.")
        if work.state.challenge_message is not None:  # the message says who took it
            work.retire.append(RetireButtons(
                MessageRef(row.channel_id, work.state.challenge_message),
                f"{challenger}'s open challenge was taken by {taker.name}: the game is "
                "played here."))
        work.state = work.state.with_(open=None, challenge_message=None)
        work.loaded = replace(work.loaded, row=replace(row, black_id=taker.id),
                              names=(work.loaded.names[0], taker.name))
        work.row_changes["black_id"] = taker.id

    async def taken_first(self, match_id: int, actor: Actor) -> Reply | None:
        """The refusal for a press that lost the race: who took the challenge."""
        try:
            async with self.runner.storage.snapshot() as tx:
                row = await tx.get_match(match_id)
                if row is None or row.white_id == row.black_id or actor.id in (
                        row.white_id, row.black_id):
                    return None
                if row.status not in (MatchStatus.ACTIVE, MatchStatus.FINISHED):
                    return None
                taker = await tx.get_user(row.black_id)
                challenger = await tx.get_user(row.white_id)
        except StorageError:
            return None
        who = taker.name if taker is not None else str(row.black_id)
        whose = challenger.name if challenger is not None else str(row.white_id)
        return Reply.refuse(f"{who} accepted {whose}'s challenge first: the game is on between "
                            "them. Post your own with /challenge (no opponent), or look for "
                            "another in /lobby.")

    async def waiting_in(self, place: Place) -> tuple[Waiting, ...]:
        """The open challenges waiting in ``place``'s channel (not expired), oldest first;
        nothing when the database is away."""
        if not place.in_server:
            return ()
        now = self.runner.clock()
        out: list[Waiting] = []
        try:
            async with self.runner.storage.snapshot() as tx:
                for row in await tx.open_challenges(place.guild_id):
                    terms = MatchState.from_dict(row.state).open
                    if (row.channel_id != place.channel_id or terms is None
                            or expired(terms, now)):
                        continue
                    user = await tx.get_user(row.white_id)
                    name = user.name if user is not None else str(row.white_id)
                    until = datetime.fromisoformat(terms.until)
                    out.append(Waiting(row.id, row.version, row.white_id, name,
                                       terms_words(row), int(until.timestamp())))
        except StorageError:
            return ()
        return tuple(out)

    # --------------------------------------------------------------- due work

    async def due(self) -> list[tuple[int, Reply]]:
        """Withdraw every open challenge past its time: (channel, the reply to post)."""
        now = self.runner.clock()
        async with self.runner.storage.snapshot() as tx:
            rows = await tx.open_challenges()
        out: list[tuple[int, Reply]] = []
        for row in rows:
            terms = MatchState.from_dict(row.state).open
            if terms is None or not expired(terms, now):
                continue
            reply = await self.expire(row)
            if reply.ok:
                out.append((row.channel_id, reply))
        return out

    async def expire(self, row: MatchRow) -> Reply:
        place = Place(row.guild_id, row.channel_id, kind=PlaceKind(row.place_kind))
        actor = Actor(row.white_id, "")

        async def body(tx: Transaction) -> Reply:
            loaded = await self.runner.load(tx, place, statuses=CHALLENGED)
            terms = loaded.state.open
            if loaded.row.id != row.id or terms is None:
                raise Refusal("taken or withdrawn meanwhile")
            work = self.runner.work(tx, loaded, actor)
            if not expired(terms, work.at or self.runner.clock()):
                raise Refusal("not expired")
            name = work.name(Player.WHITE)
            text = (f"{name}'s open challenge expired: nobody accepted it within "
                    f"{span(terms.minutes)}. /challenge (no opponent) posts another.")
            if work.state.challenge_message is not None:
                work.retire.append(RetireButtons(
                    MessageRef(row.channel_id, work.state.challenge_message), text))
            work.state = work.state.with_(open=None, challenge_message=None)
            work.match_status = MatchStatus.CANCELLED
            work.lines.append(text)
            return await self.runner.commit(work)

        with naming("open challenge expiry"):
            return await self.runner.transact(place, actor, body, note_user=False)

"""The service keeps the clocks (issue 44 items 5 and 6).

* Every action on a match with a clock runs through the action runner's two hooks, in
  the action's own transaction: :meth:`Clocks.guard` before the command (a flag that
  fell before the action arrived loses the match instead: a flag fall racing a move is
  decided once, by the service's time of the transaction), and :meth:`Clocks.committed`
  after it (the decision that ended is charged past its delay, the next one starts, the
  boards show both players' time left).  Automatic actions (the opening throw, a roll
  when doubling is not possible, a forced play) are done inside the action before it,
  so they take no time: the next decision starts when that action commits.
* :meth:`Clocks.due` is the one entry point of the timer both adapters run (at least
  every second): it beats (the proof that the clocks are kept; time while nobody beat --
  a restart, the database away -- is charged to nobody), then ends each match whose
  flag fell, once cluster-wide (the channel's lock and the match's state decide).  One
  look ends every fallen flag, each match in its own transaction; those commits do not
  each wait for the disk: one sync makes them durable before any is posted (a thousand
  falls at once: issue 44 item 6).
* Out of time: a match is lost (the winner wins it as by a forfeit); in money play the
  player loses the game at the cube's value (a single game) and the session ends.
"""

from __future__ import annotations

import logging
import time
from datetime import datetime

from bot.service.clock import ledger
from bot.service.core.observe import naming
from bot.service.core.replies import Countdown, Mention, Refusal, Reply, notice
from bot.service.core.runner import ActionRunner, Op
from bot.service.core.state import MatchState
from bot.service.core.timecontrol import left, words
from bot.service.core.values import Actor, Place, PlaceKind
from bot.service.core.views import with_clocks
from bot.service.core.work import Work
from bot.service.play.endings import Endings
from bot.storage.interface import ClockRow, MatchRow, MatchStatus, StorageError, Transaction
from engine.match import Match
from engine.player import Player
from engine.scoring import ResultKind

log = logging.getLogger(__name__)

BEAT_EVERY_MS = 1000
"""How often a process writes the beat (the timer looks for fallen flags more often)."""
PAGE = 200
"""Fallen flags read at once; each is still decided in its own transaction."""
MAX_PAGES = 50
"""Pages one look goes through (10,000 falls); the rest wait a quarter of a second."""


def ms(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)


def holder_of(work: Work) -> Player | None:
    """Whose decision the match waits for after this action (None: nobody's)."""
    status = work.match_status or work.row.status
    game = work.game
    if status is not MatchStatus.ACTIVE or game is None or game.is_finished:
        return None
    return game.awaiting


class Clocks:
    """The clocks of the matches of one storage."""

    def __init__(self, runner: ActionRunner, endings: Endings, *,
                 grace_ms: int = ledger.GRACE_MS) -> None:
        self.runner = runner
        self.endings = endings
        self.grace_ms = grace_ms
        self.last_beat = 0
        """When this process last wrote the beat (its own time)."""
        runner.guards.append(self.guard)
        runner.committing.append(self.committed)
        runner.looking.append(self.looked)

    def now_ms(self) -> int:
        return ms(self.runner.clock())

    def at_ms(self, work: Work) -> int:
        return ms(work.at) if work.at is not None else self.now_ms()

    # ----------------------------------------------------- inside every action

    async def guard(self, work: Work) -> Op | None:
        """A flag that fell before this action: the match is lost on time instead."""
        if work.state.clock is None or work.row.status is not MatchStatus.ACTIVE:
            return None
        row, beat = await self.read(work)
        if row is None or row.turn is None:
            return None
        who = ledger.fallen(row, self.at_ms(work), beat, self.grace_ms)
        if who is None:
            return None
        late = who

        async def flag(w: Work) -> None:
            if w.actor.id == w.user(late):
                w.lines.append("Your action came after your time ran out, so it was not "
                               "played.")
            await self.flag_fall(w, late)

        return flag

    async def read(self, work: Work) -> tuple[ClockRow | None, int]:
        """The match's clock and the beat, read once an action (the guard and the commit
        see the same)."""
        if work.clock_read is None:
            work.clock_read = await work.tx.clock_and_beat(work.row.id)
        return work.clock_read

    async def committed(self, work: Work) -> None:
        """Charge the decision that ended, start the next one, show both clocks."""
        if work.state.clock is None:
            return
        row, beat = await self.read(work)
        if row is None:
            return
        holder = holder_of(work)
        game = work.game
        decision = (f"{work.game_id}.{len(game.record)}.{int(holder)}"
                    if holder is not None and game is not None else "")
        now = self.at_ms(work)
        if decision != row.decision:
            row = await work.tx.update_clock(
                row, ledger.advance(row, holder, decision, now, beat, self.grace_ms))
            work.clock_read = (row, beat)
        self.show(work, row, holder, now, beat)

    async def looked(self, work: Work) -> None:
        """A look at the board (/board: nothing written): both clocks as they run now."""
        if work.state.clock is None:
            return
        row, beat = await work.tx.clock_and_beat(work.row.id)
        if row is not None:
            holder = Player(row.turn) if row.turn is not None else None
            self.show(work, row, holder, self.at_ms(work), beat)

    def show(self, work: Work, row: ClockRow, holder: Player | None, now: int,
             beat: int) -> None:
        """Both players' time left on the boards, the countdown of the player to act."""
        faces = (left(ledger.left(row, Player.WHITE, now, beat, self.grace_ms)),
                 left(ledger.left(row, Player.BLACK, now, beat, self.grace_ms)))
        work.clock_faces = faces
        work.boards = [with_clocks(b, faces) for b in work.boards]
        if holder is not None and row.deadline_ms is not None:
            rest = (row.delay_ms + ledger.reserve(row, holder)
                    - ledger.used(row, now, beat, self.grace_ms))
            unix = -(-(now + rest) // 1000)
            work.notify.append(notice(
                "Clock: ", work.name(Player.WHITE), f" {faces[0]}, ",
                work.name(Player.BLACK), f" {faces[1]}. ", Mention(work.user(holder),
                                                                  work.name(holder)),
                f": {words(row.delay_ms)} delay, then the reserve; the flag falls ",
                Countdown(unix, f"in {left(rest)}"), "."))
        elif (work.match_status or work.row.status) is MatchStatus.FINISHED:
            work.lines.append(f"Clock: {work.name(Player.WHITE)} {faces[0]}, "
                              f"{work.name(Player.BLACK)} {faces[1]}.")

    async def flag_fall(self, work: Work, player: Player) -> None:
        """``player``'s time ran out: he loses the match (money play: the game at the
        cube's value, and the session ends)."""
        game = work.current_game()
        other = player.other
        work.lines.append(f"{work.name(player)}'s time ran out.")
        work.game = game.forfeit(player, ResultKind.SINGLE)
        await self.endings.finish(work, next_game=False)
        ended = work.match_status is MatchStatus.FINISHED  # (that game was the last)
        session = work.session
        if isinstance(session, Match):
            if not ended:
                work.session = session.forfeit(player)
            work.lines.append(f"{work.name(other)} wins the match on time.")
        else:
            work.lines.append(f"{work.name(other)} wins the game on time at the cube's "
                              "value; the money session is over.")
        if not ended:
            await self.endings.end_match(work, other)

    # ------------------------------------------------------------- the timer

    async def due(self) -> list[tuple[int, Reply]]:
        """Beat, then end each match whose flag fell: (channel id, the reply to post
        there: the final board with both clocks)."""
        now = self.now_ms()
        async with self.runner.storage.snapshot() as tx:
            first = await tx.next_deadline()
        if first is None:
            return []  # no clock runs: nothing to keep (a clock that starts now is kept
            # from the next beat, a quarter of a second later)
        if now - self.last_beat >= BEAT_EVERY_MS or now < self.last_beat:
            await self.beat(now)
        elif first > now:
            return []
        out: list[tuple[int, Reply]] = []
        for _ in range(MAX_PAGES):
            async with self.runner.storage.snapshot() as tx:
                rows = await tx.due_clocks(now, PAGE)
            page: list[tuple[int, Reply]] = []
            for row in rows:
                try:
                    posted = await self.fall(row)
                except StorageError as error:  # the next round tries again
                    log.warning("the flag of match %s waits: %s", row.match_id, error)
                    continue
                if posted is not None:
                    page.append(posted)
            if page:
                await self.settle(len(page))
            out += page
            if len(rows) < PAGE or not page:
                break  # every fallen flag is posted (or those left wait for the next round)
        return out

    async def settle(self, falls: int) -> None:
        """The falls just committed reach the disk (one sync for them all) before they
        are posted."""
        try:
            await self.runner.storage.sync()
        except StorageError as error:  # committed all the same: the database holds them
            log.error("%d flag falls posted before the disk confirmed them: %s", falls, error)

    async def beat(self, now: int) -> None:
        """Say the clocks are kept at ``now``; after a silence longer than the grace, the
        time since the last beat is charged to nobody (once, whichever process sees it)."""
        async def body(tx: Transaction) -> None:
            beat = await tx.clock_beat()
            if now <= beat or not await tx.beat_clocks(beat, now):
                return  # another process beat later (or at the same moment)
            if now - beat > self.grace_ms:
                moved = await tx.pause_clocks(beat, now)
                if moved and beat:
                    log.info("clocks paused for %.1f s nobody kept them: %d", (now - beat) / 1000,
                             moved)

        await self.runner.storage.run(body)
        self.last_beat = now

    async def fall(self, clock: ClockRow) -> tuple[int, Reply] | None:
        """End the match of ``clock`` if its flag has fallen (None: it has not, or another
        process or an action got there first)."""
        known = self.runner.cached(clock.match_id)  # (its channel and players are fixed)
        if known is not None:
            match: MatchRow | None = known.row
        else:
            async with self.runner.storage.snapshot() as tx:
                match = await tx.get_match(clock.match_id)
        if match is None or match.status is not MatchStatus.ACTIVE or clock.turn is None:
            return None
        state = MatchState.from_dict(match.state)
        place = Place(match.guild_id, match.channel_id, kind=PlaceKind(match.place_kind),
                      answers_only=state.answers_only)
        loser = Player(clock.turn)
        actor = Actor(match.white_id if loser is Player.WHITE else match.black_id, "")

        async def body(tx: Transaction) -> Reply:
            loaded = await self.runner.load(tx, place)
            if loaded.row.id != clock.match_id:
                raise Refusal("another match is played here now")
            work = self.runner.work(tx, loaded, actor)
            row, beat = await self.read(work)
            who = None if row is None else ledger.fallen(
                row, self.at_ms(work), beat, self.grace_ms)
            if who is None:
                raise Refusal("the flag has not fallen (the player acted in time)")
            await self.flag_fall(work, who)
            return await self.runner.commit(work)

        started = time.perf_counter()
        with naming("flag"):
            reply = await self.runner.transact(place, actor, body, note_user=False,
                                               durable=False)  # synced by :meth:`due`
        if not reply.ok:
            return None
        log.info("match %s lost on time (posted %.1f ms after the check)", clock.match_id,
                 (time.perf_counter() - started) * 1000)
        return match.channel_id, reply

"""Every match graded, in the background (issue 33, item 3).

When a standard match or money session ends (:meth:`Grading.match_ended`, called by the
action runner inside the action's own transaction), the match is queued in the database:
the queue survives restarts.  A :class:`Grader` per bot process takes one match at a
time, analyses its games in a worker process of its own at a lower CPU priority
(:class:`bot.ai.background.BackgroundAnalyser`), bounded per game and per match, keeps
each game's analysis (and its puzzles) as soon as it is done, and finally hands the
grades -- each player's PR, grade and luck, the match summary and the graphs -- to the
adapter, which posts them in the match's channel as an ordinary message.

**Exactly once.**  A grader claims a match with a conditional UPDATE (it must be waiting,
or held on a lease that lapsed) and holds it on a lease it renews while it works; every
write of its results checks it still holds the claim.  So two processes (PostgreSQL)
never grade one match both, and the match of a process killed mid-analysis is taken
again once its lease lapses; what that process had kept already is not redone.  The
grades are handed to be posted after a claim of their own (``posted`` 0 -> 1): at most
once, never twice -- a process killed between that claim and the post loses the post
(the grades stay in the store: ``/analyze match:true`` shows them).

**Stopping.**  :meth:`Grader.stop` abandons the analysis under way (its process is
killed) and gives the match back to the queue, where this or another process takes it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import time
import uuid
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Protocol

from bot.ai.background import AnalyserFailed
from bot.ai.context import MatchContext
from bot.service.analysis.settings import AnalysisSettings, ServerAnalysisSettings
from bot.service.analysis.store import (
    DEFAULT_DEPTH,
    analysable,
    keep_analysis,
    kept_analyses,
    match_context,
    variant_refusal,
)
from bot.service.core.replies import Picture, Reply
from bot.service.core.work import Work
from bot.service.pictures.service import chart_picture, session_before, summary_picture
from bot.storage.interface import (
    GameRow,
    GradingJob,
    MatchRow,
    MatchStatus,
    Storage,
    StorageError,
    Transaction,
)
from bot.storage.replay import player_names, replay_game
from engine.match import Match
from engine.player import Player
from engine.record import GameRecord

if TYPE_CHECKING:
    from bot.ai.analysed import GameAnalysis
    from bot.ai.levels import Level

log = logging.getLogger(__name__)

GAME_SECONDS = 120.0
"""The most one game's analysis may take (as ``/analyze``'s)."""
MAX_ATTEMPTS = 3
"""A match whose grading failed this many times is given up (its error kept)."""
CHARTS = 3
"""At most this many games' graphs are posted with the grades (those that lost most)."""


class Analyser(Protocol):
    """What grades a game: :class:`bot.ai.background.BackgroundAnalyser` (or a stand-in)."""

    async def analyze(self, record: GameRecord, context: MatchContext | None = None,
                      level: Level = ..., *, timeout: float = ...) -> GameAnalysis: ...

    def close(self) -> None: ...


Post = Callable[[int, Reply], Awaitable[None]]
"""Posts a reply in a channel as an ordinary message (raises when it cannot)."""


class LostClaim(Exception):
    """Another worker holds the match now (this one's lease lapsed): stop, keep nothing."""


class Grading:
    """Queues the matches that end (the runner's hook) and builds the grades' message."""

    def __init__(self, storage: Storage, settings: AnalysisSettings) -> None:
        self.storage = storage
        self.settings = settings
        self.listeners: list[Callable[[], None]] = []
        """Told once a match has been queued (and committed): the graders of this
        process look at the queue at once instead of at their next poll."""

    async def match_ended(self, work: Work) -> None:
        """A match or money session is ending in this action: queue it for grading (in
        the same transaction), or say why it is not analysed."""
        row = work.row
        if row.chouette_id is not None or not self.settings.ai:
            return
        if row.place_kind != "server" or work.state.answers_only:
            return  # grades are posted in a channel: there, the players ask /analyze
        if not analysable(row):
            work.lines.append(variant_refusal(row))
            return
        settings = await self.settings.for_guild(row.guild_id, work.tx)
        if not settings.grade_matches:
            return
        games = await work.tx.games_of_match(row.id)
        if not any(g.played for g in games):
            return  # (a money session stopped before any game was played)
        if await work.tx.enqueue_grading(row.id, row.guild_id, row.channel_id,
                                         datetime.now(UTC).isoformat(timespec="milliseconds")):
            for listener in self.listeners:
                work.tx.on_commit(listener)
            what = "match" if row.length else "money session"
            work.lines.append(f"This {what} is being graded in the background: each player's "
                              "PR and luck will be posted here.")

    async def grades_reply(self, match_id: int) -> tuple[int, Reply] | None:
        """(channel, the grades' message) of a graded match (None: nothing to post)."""
        async with self.storage.snapshot() as tx:
            row = await tx.get_match(match_id)
            if row is None:
                return None
            games = [g for g in await tx.games_of_match(match_id) if g.played]
            records = {g.id: replay_game(row, g, await tx.events(g.id)).to_record()
                       for g in games}
            kept = await kept_analyses(tx, records, DEFAULT_DEPTH)
            names = await player_names(tx, row)
        if not kept:
            return None
        where = (await self.settings.for_guild(row.guild_id)).announcements or row.channel_id
        return where, graded_reply(row, games, records, kept, names)


def graded_reply(row: MatchRow, games: Sequence[GameRow], records: dict[int, GameRecord],
                 kept: dict[int, GameAnalysis], names: tuple[str, str]) -> Reply:
    """The grades of a match: text, the summary picture and the worst games' graphs."""
    from bot.ai.grades import grade_match

    ordered = [kept.get(g.id) for g in games]
    grades = grade_match(ordered)
    what = f"{row.length}-point match" if row.length else "money session"
    lines = [f"Grades of the {what} {names[0]} - {names[1]} ({len(kept)} of {len(games)} "
             f"game{'' if len(games) == 1 else 's'} analysed):"]
    if grades is not None:
        lines.extend(grades.lines(names))
    source = next((a.source for a in kept.values() if a.source), "")
    engine = next((a.engine for a in kept.values() if a.engine), "")
    if source:
        lines.append(f"Depth: {source}{f', {engine}' if engine else ''}. PR is 500 x the "
                     "equity lost per decision; /analyze shows the largest mistakes.")
    winner = (None if row.winner_id is None
              else Player.WHITE if row.winner_id == row.white_id else Player.BLACK)
    pictures: list[Picture] = [summary_picture(row, names, [records[g.id] for g in games],
                                               ordered, winner=winner)]
    worst = sorted((g for g in games if g.id in kept),
                   key=lambda g: -sum(p.total_lost for p in kept[g.id].players))[:CHARTS]
    for g in sorted(worst, key=lambda g: g.number):
        pictures.append(chart_picture(kept[g.id], records[g.id], Player.WHITE, names,
                                      f"match-{row.id}-game-{g.number}"))
    return Reply(ok=True, text="\n".join(lines), match_id=row.id, pictures=tuple(pictures))


def worker_name() -> str:
    """A name no other process has: host, process id and a random part."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


@dataclass
class GraderStats:
    graded: int = 0
    failed: int = 0
    posted: int = 0
    lost_claims: int = 0


class Grader:
    """The background task of one process: claim a match, grade it, post the grades.

    ``post`` posts a reply in a channel; ``lease`` is how long a claim holds without
    renewal (renewed every third of it); ``poll`` how often the queue is looked at when
    it was empty."""

    def __init__(self, storage: Storage, grading: Grading, analyser: Analyser, post: Post, *,
                 level: Level | None = None, lease: float = 60.0, poll: float = 5.0,
                 match_seconds: float = 900.0, game_seconds: float = GAME_SECONDS,
                 max_attempts: int = MAX_ATTEMPTS,
                 clock: Callable[[], datetime] = lambda: datetime.now(UTC),
                 worker: str | None = None) -> None:
        from bot.ai.levels import analysis_level

        self.storage = storage
        self.grading = grading
        self.analyser = analyser
        self.post = post
        self.level = level or analysis_level(DEFAULT_DEPTH)
        self.lease = lease
        self.poll = poll
        self.match_seconds = match_seconds
        self.game_seconds = game_seconds
        self.max_attempts = max_attempts
        self.clock = clock
        self.worker = worker or worker_name()
        self.stats = GraderStats()
        self.graded: list[int] = []
        """The matches this grader graded, in order (for tests and logs)."""
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        self._current: int | None = None

    # ------------------------------------------------------------------ life

    def start(self) -> None:
        """Run in the background until :meth:`stop`."""
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._loop(),
                                                                name="bgbot-grader")

    def wake(self) -> None:
        """Look at the queue now (a match just ended)."""
        self._wake.set()

    async def stop(self) -> None:
        """Stop now: the analysis under way is abandoned (its process killed) and its
        match given back to the queue; what was kept stays kept."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self.analyser.close()

    async def _loop(self) -> None:
        while True:
            try:
                graded = await self.run_once()
                await self.post_pending()
            except asyncio.CancelledError:
                raise
            except StorageError as error:
                log.warning("grading paused: %s", error)
                graded = None
            except Exception:  # never let the loop die; say why in the log
                log.exception("grading failed")
                graded = None
            if graded is None:
                self._wake.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), self.poll)

    # ------------------------------------------------------------------ work

    def _stamp(self, ahead: float = 0.0) -> str:
        return (self.clock() + timedelta(seconds=ahead)).isoformat(timespec="milliseconds")

    async def claim(self) -> GradingJob | None:
        """Take the oldest waiting match (or one whose grader's lease lapsed)."""
        async def work(tx: Transaction) -> GradingJob | None:
            now = self._stamp()
            job = await tx.claimable_grading(now)
            if job is None:
                return None
            if not await tx.claim_grading(job.match_id, self.worker, now,
                                          self._stamp(self.lease)):
                return None  # another process took it first: look again next time
            return job

        return await self.storage.run(work)

    async def run_once(self) -> int | None:
        """Claim and grade one match; its id (None: the queue was empty)."""
        job = await self.claim()
        if job is None:
            return None
        self._current = job.match_id
        heartbeat = asyncio.get_running_loop().create_task(self._heartbeat(job.match_id))
        try:
            await self._grade(job)
            self.stats.graded += 1
            self.graded.append(job.match_id)
        except LostClaim:
            self.stats.lost_claims += 1
            log.warning("match %s: another grader holds it now; this one stops", job.match_id)
        except asyncio.CancelledError:
            await self._give_back(job, "stopped", give_up=False)
            raise
        except (TimeoutError, GradingFailed, AnalyserFailed) as error:
            self.stats.failed += 1
            give_up = (isinstance(error, GradingFailed) and error.final) or (
                job.attempts + 1 >= self.max_attempts)
            await self._give_back(job, str(error) or type(error).__name__, give_up=give_up)
            log.warning("match %s not graded (%s)%s", job.match_id, error,
                        "; given up" if give_up else "; it will be tried again")
        finally:
            heartbeat.cancel()
            self._current = None
        return job.match_id

    async def _give_back(self, job: GradingJob, error: str, *, give_up: bool) -> None:
        async def work(tx: Transaction) -> None:
            await tx.fail_grading(job.match_id, self.worker, error, self._stamp(), give_up)

        with contextlib.suppress(StorageError):
            await asyncio.shield(self.storage.run(work))

    async def _heartbeat(self, match_id: int) -> None:
        """Renew the lease every third of it while the match is being graded."""
        while True:
            await asyncio.sleep(self.lease / 3)

            async def work(tx: Transaction) -> bool:
                return await tx.renew_grading(match_id, self.worker, self._stamp(self.lease))

            try:
                if not await self.storage.run(work):
                    return  # lost: the next write of results finds out and stops
            except StorageError as error:
                log.warning("match %s: lease not renewed: %s", match_id, error)

    async def _grade(self, job: GradingJob) -> None:
        started = time.monotonic()
        async with self.storage.snapshot() as tx:
            row = await tx.get_match(job.match_id)
            if row is None or row.status is not MatchStatus.FINISHED or not analysable(row):
                raise GradingFailed("not a finished standard match", final=True)
            games = list(await tx.games_of_match(row.id))
            finished = [g for g in games if g.played]
            records = {g.id: replay_game(row, g, await tx.events(g.id)).to_record()
                       for g in finished}
            kept = await kept_analyses(tx, records, DEFAULT_DEPTH)
            names = await player_names(tx, row)
        settings = await self.grading.settings.for_guild(row.guild_id)
        for g in finished:
            if g.id in kept:
                continue  # kept already (by /analyze, or before a restart)
            left = self.match_seconds - (time.monotonic() - started)
            if left <= 0:
                raise GradingFailed(f"the match took longer than {self.match_seconds:.0f} s "
                                    "to grade", final=True)
            session = session_before(row, games, g)
            analysis = await self.analyser.analyze(records[g.id],
                                                   match_context(row, games, g, session),
                                                   self.level,
                                                   timeout=min(self.game_seconds, left))
            score = session.score if isinstance(session, Match) else (0, 0)
            await self._keep(row, g, analysis, settings, score, names)
        await self._finish(job)

    async def _keep(self, row: MatchRow, game: GameRow, analysis: GameAnalysis,
                    settings: ServerAnalysisSettings, score: tuple[int, int],
                    names: tuple[str, str]) -> None:
        async def work(tx: Transaction) -> None:
            if not await tx.renew_grading(row.id, self.worker, self._stamp(self.lease)):
                raise LostClaim
            await keep_analysis(tx, row, game, analysis, DEFAULT_DEPTH, settings, score=score,
                                names=names, played_at=game.finished_at or self._stamp())

        await self.storage.run(work)

    async def _finish(self, job: GradingJob) -> None:
        async def work(tx: Transaction) -> None:
            if not await tx.finish_grading(job.match_id, self.worker, self._stamp()):
                raise LostClaim

        await self.storage.run(work)

    async def post_pending(self) -> int:
        """Post the grades of the matches graded and not yet posted (by any process);
        how many were posted."""
        async with self.storage.snapshot() as tx:
            jobs = await tx.unposted_gradings()
        posted = 0
        for job in jobs:
            async def claim(tx: Transaction, match_id: int = job.match_id) -> bool:
                return await tx.claim_grading_post(match_id)

            if not await self.storage.run(claim):
                continue
            built = await self.grading.grades_reply(job.match_id)
            if built is None:
                continue
            channel, reply = built
            try:
                await self.post(channel, reply)
                posted += 1
                self.stats.posted += 1
            except Exception as error:  # the adapter could not post: said in the log
                log.warning("the grades of match %s could not be posted in %s: %s",
                            job.match_id, channel, error)
        return posted


class GradingFailed(Exception):
    """The grading of a match cannot go on (``final``: it never will: give it up)."""

    def __init__(self, reason: str, *, final: bool = False) -> None:
        super().__init__(reason)
        self.final = final

"""The game service: every operation of the host, composed from its feature packages.

:class:`GameService` is what adapters hold, and this module is the one place that builds
the features on one storage:

* :mod:`bot.service.core` -- the action runner (lock, load, version check, work,
  commit, reply) and what every action answers with (the board, the turn line);
* :mod:`bot.service.play` -- two players at a table: challenges, the turn's commands,
  resignations, automatic play, game endings, money sessions, reminders;
* :mod:`bot.service.chouette` -- the box against a team;
* :mod:`bot.service.tournaments` -- sign-up to champion;
* :mod:`bot.service.records`, :mod:`bot.service.standings`,
  :mod:`bot.service.pictures`, :mod:`bot.service.analysis`, :mod:`bot.service.rules`,
  :mod:`bot.service.posted` -- the game numbers, /verify, /export and /history; the
  leaderboard and player cards; replays and graphs; hints and analysis; the rules in
  force; the messages whose buttons a later action retires;
* :mod:`bot.service.settings` -- each server's own defaults (``/settings``) over the
  operator's config, read by the features above;
* the action table (:mod:`bot.service.actions`) through which buttons, the AI and the
  console act, and the AI's turns (:mod:`bot.service.ai_turns`).

Each part gets what it uses in its constructor; none reaches into another's private
members.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable, Iterable, Mapping
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec

from bot.config import Config
from bot.service.actions import ActionTable
from bot.service.ai_turns import AITurns
from bot.service.analysis.service import Analysis
from bot.service.analysis.settings import AnalysisSettings
from bot.service.builder.service import Builder
from bot.service.chouette.seating import ChouetteSeating
from bot.service.chouette.service import ChouetteService
from bot.service.clock.service import Clocks
from bot.service.core import fairdice
from bot.service.core.lifecycle import Lifecycle
from bot.service.core.observe import Observer, naming
from bot.service.core.replies import Action, MessageRef, Notice, Reply
from bot.service.core.runner import ActionRunner
from bot.service.core.values import MAX_ID, Actor, Expect, Place, without_server
from bot.service.core.work import Seating
from bot.service.grading.service import Analyser, Grader, Grading, Post
from bot.service.lobby.open import OpenChallenges
from bot.service.lobby.queue import Queue
from bot.service.pictures.service import Pictures
from bot.service.play.autoplay import AutoPlay
from bot.service.play.challenges import Challenges
from bot.service.play.closing import Closing
from bot.service.play.commands import Commands
from bot.service.play.concede import Concessions
from bot.service.play.endings import Endings
from bot.service.play.reminders import Reminders
from bot.service.play.seating import PAIR
from bot.service.play.session import Sessions
from bot.service.play.watch import Watch
from bot.service.posted.service import PostedMessages
from bot.service.puzzles.service import DailyPost, Puzzles
from bot.service.records.service import Records
from bot.service.rules.service import RuleBook
from bot.service.settings.kinds import Names
from bot.service.settings.service import SettingsService
from bot.service.settings.table import ServerSettings
from bot.service.standings.service import Standings
from bot.service.tournaments.admin import TournamentAdmin
from bot.service.tournaments.info import BracketPicture, TournamentInfo
from bot.service.tournaments.play import Opening, TournamentPlay
from bot.service.tournaments.signup import Tournaments
from bot.storage.interface import MatchRow, Storage, StorageError

if TYPE_CHECKING:
    from bot.ai.runner import AIRunner


log = logging.getLogger(__name__)


async def guarded(call: Awaitable[Reply]) -> Reply:
    """A look-only call whose database is away or busy answers "try again", privately."""
    try:
        return await call
    except StorageError as error:
        return Reply.refuse(str(error))


_P = ParamSpec("_P")
TOURNAMENT_WHY = ("its sign-ups, rounds, pairings, deadlines and reminders are run in a "
                  "server's channels, where I post them.")


def tournaments_need_a_server(
        method: Callable[Concatenate[GameService, Place, _P], Awaitable[Reply]]
        ) -> Callable[Concatenate[GameService, Place, _P], Awaitable[Reply]]:
    """A tournament command: refused with the reason in a place without a server."""
    @functools.wraps(method)
    async def checked(self: GameService, place: Place, /, *args: _P.args,
                      **kwargs: _P.kwargs) -> Reply:
        if not place.in_server:
            return Reply.refuse(without_server(place, "A tournament", TOURNAMENT_WHY))
        return await method(self, place, *args, **kwargs)
    return checked


class GameService:
    """Every operation of the host, on one storage backend."""

    def __init__(self, storage: Storage, config: Config | None = None, *,
                 dice_seed: Callable[[], str] = fairdice.new_seed,
                 dice: Callable[[str, int], fairdice.DiceStream] = fairdice.SeededDice,
                 clock: Callable[[], datetime] | None = None,
                 ai: AIRunner | None = None, observer: Observer | None = None) -> None:
        """``dice_seed`` makes each game's secret seed; ``dice(seed, start)`` the stream
        of dice of a game (tests inject fixed dice here); ``clock`` gives the time;
        ``ai`` runs the AI's decisions off the event loop (None: no games against the bot);
        ``observer`` is told of every action (metrics and logs, :mod:`bot.ops`)."""
        self.storage = storage
        self.config = config or Config()
        self.ai = ai
        self.lifecycle = Lifecycle()
        """What stops with the service: new actions refused, those in flight finished, then
        what was registered with ``lifecycle.on_stop`` closed (see :mod:`bot.runtime`)."""
        self.runner = ActionRunner(storage, new_seed=dice_seed, dice=dice,
                                   clock=clock or (lambda: datetime.now(UTC)),
                                   seating=self._seating, analysis=ai is not None,
                                   lifecycle=self.lifecycle, observer=observer)
        self.settings = SettingsService(storage, self.config, ai_available=ai is not None)
        self.endings = Endings(self.runner)
        self.autoplay = AutoPlay(self.endings)
        self.challenges = Challenges(self.runner, self.autoplay, self.endings, self.config, ai,
                                     settings=self.settings)
        self.commands = Commands(self.runner, self.autoplay, self.endings, self.config)
        self.concessions = Concessions(self.runner, self.autoplay, self.endings, self.config,
                                       settings=self.settings)
        self.watch = Watch(self.runner)
        self.closing = Closing(self.runner, self.settings)
        self.sessions = Sessions(self.runner, self.challenges)
        self.analysis_settings = AnalysisSettings(self.config, self.settings,
                                                  ai=ai is not None)
        """The server's grading and puzzle options: the one accessor (issue 33)."""
        self.analysis = Analysis(self.runner, self.config, ai, self.analysis_settings)
        self.grading = Grading(storage, self.analysis_settings)
        self.runner.finished.append(self.grading.match_ended)
        self.puzzles = Puzzles(self.runner, self.analysis_settings)
        self.standings = Standings(storage)
        self.builder = Builder(self.runner, self.commands)
        self.open_challenges = OpenChallenges(self.runner, self.challenges, self.settings)
        self.table = ActionTable(self.challenges, self.commands, self.concessions, self.watch,
                                 self.sessions, self.analysis, self.builder,
                                 self.open_challenges)
        self.ai_turns = AITurns(self.runner, self.table, ai)
        self.queue = Queue(self.runner, self.challenges, self.settings, self.ai_turns.after)
        self.reminders = Reminders(self.runner, self.config, settings=self.settings)
        self.chouette_seating = ChouetteSeating(self.runner, self.autoplay, self.endings)
        self.chouette = ChouetteService(self.runner, self.autoplay, self.endings,
                                        self.chouette_seating, self.config,
                                        settings=self.settings)
        self.tournament_play = TournamentPlay(self.runner, self.challenges, self.config)
        self.tournaments = Tournaments(self.runner, self.challenges, self.config,
                                       self.tournament_play, settings=self.settings)
        self.tournament_admin = TournamentAdmin(self.runner, self.tournaments, self.config,
                                               self.endings)
        self.tournament_info = TournamentInfo(self.runner, self.config,
                                              settings=self.settings)
        self.endings.match_ended.append(self.tournament_play.match_ended)
        self.clocks = Clocks(self.runner, self.endings)  # matches on a clock (issue 44)

    def _seating(self, row: MatchRow) -> Seating:
        """Who sits at ``row``: a chouette game, or two players."""
        return self.chouette_seating if row.chouette_id is not None else PAIR

    # ----------------------------------------------------------------- the AI

    @property
    def ai_actor(self) -> Actor | None:
        """The AI's user (the bot's own account in Discord)."""
        return self.ai_turns.actor

    def set_ai_user(self, user_id: int, name: str) -> None:
        """Make ``user_id`` the AI's account: challenging it starts a game against the AI."""
        actor = Actor(user_id, name, is_bot=True)
        self.ai_turns.actor = actor
        self.challenges.ai_actor = actor

    def grader(self, analyser: Analyser, post: Post, **options: Any) -> Grader:
        """The background grader of this process (issue 33): ``analyser`` grades a game
        (:class:`bot.ai.background.BackgroundAnalyser`), ``post`` posts the grades in a
        channel; ``options`` as :class:`~bot.service.grading.service.Grader` takes them
        (the match's time bound defaults to ``analysis.grade_seconds``).  The adapter
        starts it and stops it with the bot."""
        options.setdefault("match_seconds", self.config.analysis.grade_seconds)
        grader = Grader(self.storage, self.grading, analyser, post, **options)
        self.grading.listeners.append(grader.wake)  # a match queued here: look at once
        return grader

    # ------------------------------------------------------------ the actions

    async def act(self, action: Action, place: Place, actor: Actor, *,
                  option: str | None = None, expect: Expect | None = None) -> Reply:
        """Perform ``action`` (see :class:`~bot.service.actions.ActionTable`), then let the
        AI answer if the game now waits for it."""
        reply = await guarded(self.table.act(action, place, actor, option=option,
                                             expect=expect))
        if action in (Action.BOARD, Action.STEPS):  # they only look
            return reply
        return await guarded(self.ai_turns.after(place, reply))

    async def challenge(self, place: Place, actor: Actor, opponent: Actor | None, *,
                        variant: str | None = None, rules: dict[str, Any] | None = None,
                        length: int = 0, stake: int = 0, rated: bool = True,
                        level: str | None = None, hints: bool = False,
                        clock: str | None = None, dry_run: bool = False,
                        low: int | None = None, high: int | None = None) -> Reply:
        """See :meth:`~bot.service.play.challenges.Challenges.challenge` (``dry_run``: only
        check it); no ``opponent``: an open challenge (:mod:`bot.service.lobby.open`;
        ``low``/``high``: the rating range of a rated one)."""
        terms: dict[str, Any] = dict(variant=variant, rules=rules, length=length, stake=stake,
                                     rated=rated, level=level, hints=hints, clock=clock)
        with naming("challenge"):
            if opponent is None:
                return await self.open_challenges.post(place, actor, low=low, high=high, **terms)
            reply = await self.challenges.challenge(place, actor, opponent, dry_run=dry_run,
                                                    **terms)
        if dry_run:
            return reply
        return await guarded(self.ai_turns.after(place, reply))

    # Named shortcuts of :meth:`act` (tests and scripts read better with them).
    async def accept(self, place: Place, actor: Actor, expect: Expect | None = None) -> Reply:
        return await self.act(Action.ACCEPT, place, actor, expect=expect)

    async def decline(self, place: Place, actor: Actor, expect: Expect | None = None) -> Reply:
        return await self.act(Action.DECLINE, place, actor, expect=expect)

    async def cancel(self, place: Place, actor: Actor, expect: Expect | None = None) -> Reply:
        return await self.act(Action.CANCEL, place, actor, expect=expect)

    async def roll(self, place: Place, actor: Actor, expect: Expect | None = None) -> Reply:
        return await self.act(Action.ROLL, place, actor, expect=expect)

    async def double(self, place: Place, actor: Actor, expect: Expect | None = None) -> Reply:
        return await self.act(Action.DOUBLE, place, actor, expect=expect)

    async def take(self, place: Place, actor: Actor, expect: Expect | None = None) -> Reply:
        return await self.act(Action.TAKE, place, actor, expect=expect)

    async def drop(self, place: Place, actor: Actor, expect: Expect | None = None) -> Reply:
        return await self.act(Action.DROP, place, actor, expect=expect)

    async def beaver(self, place: Place, actor: Actor, expect: Expect | None = None) -> Reply:
        return await self.act(Action.BEAVER, place, actor, expect=expect)

    async def move(self, place: Place, actor: Actor, text: str,
                   expect: Expect | None = None) -> Reply:
        return await self.act(Action.MOVE, place, actor, option=text, expect=expect)

    async def undo(self, place: Place, actor: Actor, expect: Expect | None = None) -> Reply:
        return await self.act(Action.UNDO, place, actor, expect=expect)

    async def confirm(self, place: Place, actor: Actor, expect: Expect | None = None) -> Reply:
        return await self.act(Action.CONFIRM, place, actor, expect=expect)

    async def choose(self, place: Place, actor: Actor, option: str,
                     expect: Expect | None = None) -> Reply:
        return await self.act(Action.CHOOSE, place, actor, option=option, expect=expect)

    async def resign(self, place: Place, actor: Actor, kind: str = "single",
                     expect: Expect | None = None) -> Reply:
        return await self.act(Action.RESIGN, place, actor, option=kind, expect=expect)

    async def answer_resignation(self, place: Place, actor: Actor, accept: bool,
                                 expect: Expect | None = None) -> Reply:
        action = Action.ACCEPT_RESIGNATION if accept else Action.REJECT_RESIGNATION
        return await self.act(action, place, actor, expect=expect)

    async def forfeit(self, place: Place, actor: Actor, expect: Expect | None = None,
                      confirm: bool = True) -> Reply:
        """Confirmed unless ``confirm`` is False (players type /forfeit confirm)."""
        return await self.act(Action.FORFEIT, place, actor,
                              option="confirm" if confirm else None, expect=expect)

    async def claim(self, place: Place, actor: Actor, expect: Expect | None = None) -> Reply:
        return await self.act(Action.CLAIM, place, actor, expect=expect)

    async def board(self, place: Place, actor: Actor) -> Reply:
        return await self.act(Action.BOARD, place, actor)

    # ------------------------------------------------------------- look only

    async def suggestions(self, place: Place, actor: Actor, text: str,
                          limit: int = 25) -> list[str]:
        try:
            return await self.watch.suggestions(place, actor, text, limit)
        except StorageError:
            return []  # autocomplete offers nothing while the database is away

    async def hint(self, place: Place, actor: Actor) -> Reply:
        return await guarded(self.analysis.hint(place, actor))

    async def analyze(self, place: Place, actor: Actor, game: int | None = None,
                      depth: str | None = None, whole_match: bool = False) -> Reply:
        return await guarded(self.analysis.analyze(place, actor, game, depth, whole_match))

    async def puzzle(self, place: Place, actor: Actor, number: int | None = None) -> Reply:
        """A puzzle made from the server's blunders (issue 33): ``number``, else the next
        one for ``actor``."""
        return await guarded(self.puzzles.show(place, actor, number))

    async def puzzle_answer(self, place: Place, actor: Actor, text: str,
                            number: int | None = None) -> Reply:
        """Judge and score ``actor``'s answer (the typed one, a menu's, a button's)."""
        return await guarded(self.puzzles.answer(place, actor, text, number))

    async def daily_puzzles(self) -> list[DailyPost]:
        """The daily puzzles due now, each claimed once cluster-wide: post each, then
        :meth:`daily_puzzle_sent`."""
        try:
            return await self.puzzles.due_daily()
        except StorageError as error:  # the adapter's next round tries again
            log.warning("daily puzzles skipped this round: %s", error)
            return []

    async def daily_puzzle_sent(self, post: DailyPost) -> None:
        try:
            await self.puzzles.daily_sent(post)
        except StorageError as error:
            log.warning("the daily puzzle of server %s was posted but not marked: %s",
                        post.guild_id, error)

    async def leaderboard(self, place: Place, actor: Actor, order: str = "rating",
                          page: int = 1, per_page: int = 10) -> Reply:
        return await guarded(self.standings.leaderboard(place, actor, order, page, per_page))

    async def finished_threads(self, channels: Mapping[int, int]) -> list[int]:
        """See :meth:`~bot.service.play.closing.Closing.finished` (the threads to archive:
        each thread's id with its server's)."""
        return await self.closing.finished(channels)

    async def in_progress(self, guild_id: int) -> list[tuple[int, str]]:
        """(channel, what waits there) of the server's challenges and games in progress."""
        return await self.standings.in_progress(guild_id)

    async def stats(self, place: Place, actor: Actor, user: Actor | None = None) -> Reply:
        return await guarded(self.standings.stats(place, actor, user))

    async def export(self, place: Place, actor: Actor, fmt: str = "mat",
                     game: int | None = None) -> Reply:
        return await guarded(self.records.export(place, actor, fmt, game))

    async def rules(self, variant: str | None = None, place: Place | None = None) -> Reply:
        return await guarded(self.rulebook.rules(variant, place))

    async def verify(self, place: Place, actor: Actor, game_id: int | None = None) -> Reply:
        """``game_id``: the game's number as the channel shows it
        (see :mod:`bot.service.records`)."""
        return await guarded(self.records.verify(place, actor, game_id))

    async def due_work(self) -> list[tuple[int, Reply]]:
        """Both adapters' timer, every 1/4 s (issue 44): (channel, reply) of each due thing."""
        out: list[tuple[int, Reply]] = []
        for due in (self.clocks.due, self.open_challenges.due, self.queue.due):
            try:
                out += await due()
            except StorageError as error:  # the database is away: (its time is nobody's)
                log.warning("due work skipped this round: %s", error)
        return out

    async def due_reminders(self) -> list[tuple[int, Notice]]:
        """(channel id, notice) for each game idle longer than the reminder time."""
        try:
            return await self.reminders.due()
        except StorageError as error:  # the next round of the reminder loop tries again
            log.warning("reminders skipped this round: %s", error)
            return []

    # -------------------- the records and rules players see (issues 19, 22, 15: info)

    @functools.cached_property
    def records(self) -> Records:
        """/verify, /export and /history by the channel's game numbers."""
        return Records(self.storage)

    @functools.cached_property
    def rulebook(self) -> RuleBook:
        """/rules: the options in force here."""
        return RuleBook(self.storage, self.config, ai=self.ai is not None,
                        settings=self.settings)

    async def history(self, place: Place, actor: Actor, game: int | None = None) -> Reply:
        """The moves, dice and cube actions of game ``game`` here (None: the whole match)."""
        return await guarded(self.records.history(place, actor, game))

    # ---------------------------------------------- pictures: /replay (issue 18)

    async def replay(self, place: Place, actor: Actor, game: int | None = None) -> Reply:
        """Game ``game`` of the channel's match as an animated GIF (see
        :class:`~bot.service.pictures.service.Pictures`)."""
        return await guarded(Pictures(self.runner).replay(place, actor, game))

    # ------------------------------------------------------------ tournaments (issue 17)
    # ``is_organiser``: the adapter found the organiser role or Manage Server on the actor
    # (the tournament's own organiser is always one for it).

    @tournaments_need_a_server
    async def tournament_create(self, place: Place, actor: Actor, *, is_organiser: bool,
                                name: str, format: str, length: str = "5",
                                variant: str | None = None, rules: dict[str, Any] | None = None,
                                max_players: int | None = None, rounds: int | None = None,
                                signup_hours: float | None = None, round_hours: float | None = None,
                                clock: str | None = None) -> Reply:
        return await guarded(self.tournaments.create(
            place, actor, is_organiser=is_organiser, name=name, format=format, length=length,
            variant=variant, rules=rules, max_players=max_players, rounds=rounds,
            signup_hours=signup_hours, round_hours=round_hours, clock=clock))

    @tournaments_need_a_server
    async def tournament_join(self, place: Place, actor: Actor,
                              tournament: int | None = None) -> Reply:
        return await guarded(self.tournaments.join(place, actor, tournament))

    @tournaments_need_a_server
    async def tournament_leave(self, place: Place, actor: Actor,
                               tournament: int | None = None) -> Reply:
        return await guarded(self.tournaments.leave(place, actor, tournament))

    @tournaments_need_a_server
    async def tournament_start(self, place: Place, actor: Actor, *, is_organiser: bool,
                               tournament: int | None = None) -> Reply:
        return await guarded(self.tournaments.start(place, actor, is_organiser=is_organiser,
                                                    tournament=tournament))

    async def tournament_openings(self) -> list[Opening]:
        """Pairings waiting for their place (a thread), each handed out once cluster-wide;
        give each one and call :meth:`tournament_open`."""
        try:
            return await self.tournament_play.openings()
        except StorageError as error:  # the adapter's next round tries again
            log.warning("tournament openings skipped this round: %s", error)
            return []

    async def tournament_open(self, opening: Opening, place: Place) -> Reply:
        reply = await guarded(self.tournament_play.open_pairing(opening, place))
        return await guarded(self.ai_turns.after(place, reply))

    async def tournament_signup_text(self, place: Place, tournament: int
                                     ) -> tuple[Notice, ...] | None:
        """The sign-up message's lines now (None: no such tournament here)."""
        return await self.tournaments.signup_message(place, tournament)

    @tournaments_need_a_server
    async def tournament_result(self, place: Place, actor: Actor, *, is_organiser: bool,
                                pairing: str, winner: int, reason: str,
                                score: tuple[int, int] | None = None,
                                tournament: int | None = None) -> Reply:
        return await guarded(self.tournament_admin.result(
            place, actor, is_organiser=is_organiser, pairing=pairing, winner=winner,
            reason=reason, score=score, tournament=tournament))

    @tournaments_need_a_server
    async def tournament_claim(self, place: Place, actor: Actor,
                               tournament: int | None = None) -> Reply:
        return await guarded(self.tournament_admin.claim(place, actor, tournament))

    @tournaments_need_a_server
    async def tournament_confirm(self, place: Place, actor: Actor, *, is_organiser: bool,
                                 pairing: str, tournament: int | None = None) -> Reply:
        return await guarded(self.tournament_admin.confirm(
            place, actor, is_organiser=is_organiser, pairing=pairing, tournament=tournament))

    @tournaments_need_a_server
    async def tournament_remove(self, place: Place, actor: Actor, *, is_organiser: bool,
                                user: int, tournament: int | None = None) -> Reply:
        return await guarded(self.tournament_admin.remove(
            place, actor, is_organiser=is_organiser, user=user, tournament=tournament))

    @tournaments_need_a_server
    async def tournament_cancel(self, place: Place, actor: Actor, *, is_organiser: bool,
                                tournament: int | None = None) -> Reply:
        return await guarded(self.tournament_admin.cancel(
            place, actor, is_organiser=is_organiser, tournament=tournament))

    @tournaments_need_a_server
    async def tournament_pause(self, place: Place, actor: Actor, *, is_organiser: bool,
                               tournament: int | None = None) -> Reply:
        return await guarded(self.tournament_admin.pause(
            place, actor, is_organiser=is_organiser, tournament=tournament))

    @tournaments_need_a_server
    async def tournament_resume(self, place: Place, actor: Actor, *, is_organiser: bool,
                                tournament: int | None = None) -> Reply:
        return await guarded(self.tournament_admin.resume(
            place, actor, is_organiser=is_organiser, tournament=tournament))

    @tournaments_need_a_server
    async def tournament_status(self, place: Place, tournament: int | None = None) -> Reply:
        return await guarded(self.tournament_info.status(place, tournament))

    @tournaments_need_a_server
    async def tournament_list(self, place: Place) -> Reply:
        return await guarded(self.tournament_info.listing(place))

    async def tournament_bracket(self, place: Place, tournament: int | None = None
                                 ) -> tuple[Reply, BracketPicture | None]:
        if not place.in_server:
            return Reply.refuse(without_server(place, "A tournament", TOURNAMENT_WHY)), None
        try:
            return await self.tournament_info.bracket(place, tournament)
        except StorageError as error:
            return Reply.refuse(str(error)), None

    async def tournament_due(self) -> list[tuple[int, Notice]]:
        """(channel id, notice) for each round reminder and passed deadline, once."""
        try:
            return await self.tournament_info.due()
        except StorageError as error:
            log.warning("tournament reminders skipped this round: %s", error)
            return []

    async def activity(self) -> dict[str, int]:
        """Counts for the operator (metrics, health): games, challenges, chouette tables and
        tournaments going on.  Raises :class:`StorageError` when the database is away."""
        async with self.storage.snapshot() as tx:
            return await tx.activity()

    # --------------------------------------- issue 19: the habits of a real table

    async def user_names(self, user_ids: Iterable[int]) -> dict[int, str]:
        """The stored names of ``user_ids`` (those known; for adapters that show names)."""
        out: dict[int, str] = {}
        wanted = sorted(u for u in set(user_ids) if 0 <= u <= MAX_ID)  # (others: unknown)
        if not wanted:
            return out
        try:
            async with self.storage.snapshot() as tx:
                for user_id in wanted:
                    user = await tx.get_user(user_id)
                    if user is not None:
                        out[user_id] = user.name
        except StorageError:
            return out  # (what was read; the other ids are shown as they are)
        return out

    async def stop(self, place: Place, actor: Actor, expect: Expect | None = None) -> Reply:
        """End the money session between games (:mod:`bot.service.play.session`)."""
        return await self.act(Action.STOP, place, actor, expect=expect)

    async def rematch(self, place: Place, actor: Actor, expect: Expect | None = None) -> Reply:
        """Play the last match here again, same players and terms."""
        return await self.act(Action.REMATCH, place, actor, expect=expect)

    # ------------------ stale buttons: messages whose buttons a later action retires

    @functools.cached_property
    def posted(self) -> PostedMessages:
        """The ids of the sign-up and challenge messages the adapter posted."""
        return PostedMessages(self.runner, self.tournaments)

    @tournaments_need_a_server
    async def tournament_signup_posted(self, place: Place, actor: Actor, tournament: int,
                                       message: MessageRef) -> Reply:
        """The adapter posted ``tournament``'s sign-up message as ``message``: the start
        (or the cancellation) retires its Join/Leave buttons."""
        return await guarded(self.posted.signup_posted(place, actor, tournament, message))

    async def challenge_posted(self, place: Place, actor: Actor, expect: Expect,
                               message_id: int) -> Reply:
        """The adapter posted the challenge of ``expect`` as ``message_id`` in ``place``,
        without buttons: the reply's buttons (for the version after this note) go on it, and
        the challenge's answer retires them however it comes."""
        return await guarded(self.posted.challenge_posted(place, actor, expect, message_id))

    # ------------------------------------ /settings: each server's own defaults (issue 29)

    async def server_settings(self, guild_id: int) -> ServerSettings:
        """The settings in force in ``guild_id`` (its own, else the operator's), from memory
        when read lately; the operator's defaults while the database is away.  Also the
        accessor of the settings other features read (``analysis_announcements`` ...)."""
        try:
            return await self.settings.of(guild_id)
        except StorageError as error:
            log.warning("the settings of server %s could not be read: %s", guild_id, error)
            return self.settings.defaults()

    async def settings_show(self, place: Place, actor: Actor, key: str | None = None) -> Reply:
        return await guarded(self.settings.show(place, actor, key))

    async def settings_set(self, place: Place, actor: Actor, key: str, value: str, *,
                           manage_server: bool, names: Names | None = None) -> Reply:
        """``manage_server``: the interaction itself says the actor has Manage Server;
        ``names``: how the adapter names channels and roles."""
        return await guarded(self.settings.set(place, actor, key, value,
                                               manage_server=manage_server, names=names))

    async def settings_reset(self, place: Place, actor: Actor, key: str, *,
                             manage_server: bool) -> Reply:
        return await guarded(self.settings.reset(place, actor, key, manage_server=manage_server))

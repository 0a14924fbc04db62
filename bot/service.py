"""The game service: who plays where, whose turn it is, who may do what, and storage.

Platform-neutral and async: the Discord cogs and the console mode call the
same methods with the acting user and the place (guild and channel), and get
a :class:`~bot.replies.Reply` back.  Nothing here knows about discord.py.

Every state-changing call is **one transaction**:

1. take the channel's in-process lock (two clicks in one process queue up);
2. ``BEGIN IMMEDIATE``; load the channel's match, its current game and the
   game's events; rebuild the engine state (cached per match version);
3. check who is acting (participants only; the right player for the phase),
   and the state version a button was made for;
4. apply the engine transitions, drawing dice from the game's seed;
5. append the new events, update the game row and the match row with an
   optimistic version check (``UPDATE ... WHERE version = ?``), commit.

Any refusal (service rule or engine error) rolls the transaction back and
returns an ephemeral reply with the reason, so bad input never changes state.

The commands that only look (hints, analysis, leaderboard, stats, export,
rules, dice verification) are in :mod:`bot.service_info`, mixed in.
"""

from __future__ import annotations

import asyncio
import contextvars
import copy
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from bot import fairdice, ratings
from bot.ai.levels import get_level
from bot.ai.player import Decision
from bot.ai.runner import AIRunner
from bot.config import Config
from bot.replay import replay_game
from bot.replies import Act, Board, Button, Refusal, Reply
from bot.repository import (
    GameRow,
    LedgerEntry,
    MatchRow,
    RatingRow,
    StaleVersionError,
    Storage,
    StorageError,
    Transaction,
)
from bot.service_info import InfoCommands, match_context
from bot.table import PAIR, Table
from bot.views import Session, board
from engine.dice import Dice
from engine.errors import (
    AmbiguousPlayError,
    BackgammonError,
    IncompletePlayError,
    NotationError,
)
from engine.game import Action, Game, Phase
from engine.match import Match, MoneySession
from engine.move import Play
from engine.player import Player
from engine.rules import RuleOptions
from engine.scoring import EndReason, Result, ResultKind
from engine.variant import Stage, get_variant

log = logging.getLogger(__name__)

_DRIVING_AI: contextvars.ContextVar[bool] = contextvars.ContextVar("driving_ai", default=False)
"""True while the service itself acts for the AI (so that action does not drive it again)."""

MAX_TEXT = 200
"""Longest text accepted from a user for a move or option (longer is refused)."""
MAX_MATCH_LENGTH = 25
CACHE_LIMIT = 2000
"""Matches (and channel locks) kept in memory; older ones are reloaded from storage."""
MAX_OPTIONS = 20
MAX_OPTION_TEXT = 40
MAX_STAKE = 1_000_000


@dataclass(frozen=True, slots=True)
class Actor:
    """Who is acting: a platform user id and display name."""

    id: int
    name: str
    is_bot: bool = False


@dataclass(frozen=True, slots=True)
class Place:
    """Where: the guild (server) and channel (a thread is a channel)."""

    guild_id: int
    channel_id: int


@dataclass(frozen=True, slots=True)
class Loaded:
    """The state of one channel's match, rebuilt from storage."""

    row: MatchRow
    session: Session
    game_row: GameRow | None
    game: Game | None
    names: tuple[str, str]


def _result_from_dict(data: dict[str, Any]) -> Result:
    return Result(
        winner=Player[str(data["winner"]).upper()],
        kind=ResultKind[str(data["kind"]).upper()],
        reason=EndReason(data["reason"]),
        cube=int(data["cube"]),
        points=int(data["points"]),
        counted=ResultKind[str(data["counted"]).upper()],
    )


def _dice_text(dice: Dice) -> str:
    return f"{dice.first}-{dice.second}"


def _clean(text: str, what: str) -> str:
    text = text.strip()
    if len(text) > MAX_TEXT:
        raise Refusal(f"That {what} is too long ({len(text)} characters; at most {MAX_TEXT}).")
    return text


@dataclass
class Work:
    """A state change being prepared inside one transaction.

    Game rows are written as soon as a game ends or starts (we are inside the
    action's transaction, so a later refusal still rolls everything back);
    the events of the game in progress are appended at commit.
    """

    tx: Transaction
    loaded: Loaded
    actor: Actor
    game: Game | None
    session: Session
    game_row: GameRow | None
    stored: int
    """How many events of ``game_row`` are already stored."""
    dice: fairdice.DiceStream | None
    lines: list[str] = field(default_factory=list)
    boards: list[Board] = field(default_factory=list)
    notify: list[str] = field(default_factory=list)
    state: dict[str, Any] = field(default_factory=dict)
    match_status: str | None = None
    match_winner: int | None = None
    attachment: tuple[str, bytes] | None = None
    table: Table = PAIR
    """Who sits at this match: two players, or a chouette (see :mod:`bot.table`)."""
    row_changes: dict[str, Any] = field(default_factory=dict)
    """More match columns to write at commit (a chouette's new captain: black_id)."""

    @property
    def row(self) -> MatchRow:
        return self.loaded.row

    def name(self, player: Player) -> str:
        return self.loaded.names[player]

    def user(self, player: Player) -> int:
        return self.row.white_id if player is Player.WHITE else self.row.black_id

    def player_of(self, actor: Actor) -> Player:
        if actor.id == self.row.white_id:
            return Player.WHITE
        if actor.id == self.row.black_id:
            return Player.BLACK
        self.table.refuse_outsider(self, actor)
        raise Refusal(
            f"You are not playing in this game ({self.name(Player.WHITE)} vs "
            f"{self.name(Player.BLACK)}). You can watch with /board, or start your own game "
            "in another channel or thread.")

    def switch_to(self, loaded: Loaded) -> None:
        """Go on with another match in the same transaction (a chouette's next game).
        The current match must already be written; lines and boards are kept."""
        self.loaded = loaded
        self.game = loaded.game
        self.session = loaded.session
        self.game_row = loaded.game_row
        self.stored = len(loaded.game.record) if loaded.game is not None else 0
        self.dice = None
        self.state = dict(loaded.row.state)
        self.match_status = None
        self.match_winner = None
        self.row_changes = {}

    def draw(self) -> int:
        if self.dice is None:
            raise Refusal("There is no game in progress in this channel.")
        return self.dice.die()

    async def flush(self) -> None:
        """Append the current game's new events and its dice counter."""
        if self.game_row is None or self.game is None:
            return
        events = self.game.record[self.stored:]
        if events:
            await self.tx.append_events(self.game_row.id, [
                (self.stored + i, ev.type, ev.to_dict(), self.actor.id)
                for i, ev in enumerate(events)])
            self.stored += len(events)
        if self.dice is not None and self.dice.drawn != self.game_row.dice_drawn:
            self.game_row = await self.tx.update_game(self.game_row, dice_drawn=self.dice.drawn)


class GameService(InfoCommands):
    """Every operation of the host, on one storage backend."""

    def __init__(self, storage: Storage, config: Config | None = None, *,
                 dice_seed: Callable[[], str] = fairdice.new_seed,
                 dice: Callable[[str, int], fairdice.DiceStream] = fairdice.SeededDice,
                 clock: Callable[[], datetime] | None = None,
                 ai: AIRunner | None = None) -> None:
        """``dice_seed`` makes each game's secret seed; ``dice(seed, start)`` the stream
        of dice of a game (tests inject fixed dice here); ``clock`` gives the time."""
        self.storage = storage
        self.config = config or Config()
        self._new_seed = dice_seed
        self._dice = dice
        self._clock = clock or (lambda: datetime.now(UTC))
        self.ai = ai
        """Runs the AI's decisions off the event loop; None: no games against the bot."""
        self.ai_actor: Actor | None = None
        """The AI's user (the bot's own account in Discord)."""
        self._locks: dict[int, asyncio.Lock] = {}
        self._cache: dict[int, tuple[int, Loaded]] = {}
        self._names: dict[int, str] = {}
        """User names this process has stored (no need to write them again)."""

    # ------------------------------------------------------------------ plumbing

    def _lock(self, channel_id: int) -> asyncio.Lock:
        lock = self._locks.get(channel_id)
        if lock is None:
            if len(self._locks) >= CACHE_LIMIT:  # forget idle channels' locks
                for key in [k for k, v in self._locks.items() if not v.locked()]:
                    del self._locks[key]
            lock = self._locks[channel_id] = asyncio.Lock()
        return lock

    async def _note_user(self, tx: Transaction, actor: Actor) -> None:
        """Store the user's current name (skipped when this process stored it already)."""
        if self._names.get(actor.id) == actor.name:
            return
        await tx.upsert_user(actor.id, actor.name, actor.is_bot)
        if len(self._names) >= CACHE_LIMIT:
            self._names.clear()
        tx.on_commit(lambda: self._names.__setitem__(actor.id, actor.name))

    def _remember(self, loaded: Loaded) -> None:
        """Cache the state of a match at its version (the oldest entries are dropped)."""
        self._cache.pop(loaded.row.id, None)
        while len(self._cache) >= CACHE_LIMIT:
            del self._cache[next(iter(self._cache))]
        self._cache[loaded.row.id] = (loaded.row.version, loaded)

    async def _load(self, tx: Transaction, place: Place, *,
                    statuses: tuple[str, ...] = ("active",)) -> Loaded:
        row = await tx.open_match_in_channel(place.channel_id)
        if row is None or row.guild_id != place.guild_id:
            raise Refusal("There is no game in this channel. Start one with /challenge @user.")
        if row.status not in statuses:
            if row.status == "challenged":
                raise Refusal("The challenge here has not been accepted yet: "
                              "the challenged player can /accept or /decline it.")
            raise Refusal("The game here is already under way: there is no challenge waiting "
                          "to answer or cancel.")
        return await self._load_row(tx, row)

    async def _load_row(self, tx: Transaction, row: MatchRow) -> Loaded:
        cached = self._cache.get(row.id)
        if cached is not None and cached[0] == row.version:
            return cached[1]
        rules = RuleOptions.from_dict(row.rules)
        variant = get_variant(row.variant)()
        session: Session
        if row.length > 0:
            session = Match.new(row.length, rules, variant)
        else:
            session = MoneySession.new(rules, variant, row.stake)
        game_row: GameRow | None = None
        game: Game | None = None
        for g in await tx.games_of_match(row.id):
            if g.status == "finished" and g.result is not None:
                session = session.add_game(_result_from_dict(g.result))
            game_row = g
        if game_row is not None:
            game = replay_game(row, game_row, await tx.events(game_row.id))
        white = await tx.get_user(row.white_id)
        black = await tx.get_user(row.black_id)
        names = (white.name if white else str(row.white_id),
                 black.name if black else str(row.black_id))
        loaded = Loaded(row, session, game_row, game, names)
        # Cached once the transaction commits: a row this transaction wrote (a
        # chouette's next match) is not there for anyone if it rolls back.
        tx.on_commit(lambda: self._remember(loaded))
        return loaded

    async def _act(self, place: Place, actor: Actor,
                   op: Callable[[Work], Awaitable[None]], *,
                   expected_version: int | None = None,
                   match_id: int | None = None,
                   statuses: tuple[str, ...] = ("active",)) -> Reply:
        """Run ``op`` on the channel's match as one transaction.

        ``expected_version`` and ``match_id`` (from a button) refuse the action
        when the channel's match has moved on or is another match.
        """
        reply = await self._act_once(place, actor, op, expected_version=expected_version,
                                     match_id=match_id, statuses=statuses)
        if reply.ok and self.ai is not None and not _DRIVING_AI.get() and (
                self._may_involve_ai(reply.match_id)):
            reply = await self._drive_ai(place, reply)
        return reply

    def _may_involve_ai(self, match_id: int | None) -> bool:
        """False when the cached state shows the match has no AI player (saves a read)."""
        cached = self._cache.get(match_id) if match_id is not None else None
        return cached is None or "ai" in cached[1].row.state

    async def _act_once(self, place: Place, actor: Actor,
                        op: Callable[[Work], Awaitable[None]], *,
                        expected_version: int | None, match_id: int | None,
                        statuses: tuple[str, ...]) -> Reply:
        async with self._lock(place.channel_id):
            try:
                async with self.storage.transaction() as tx:
                    await self._note_user(tx, actor)
                    loaded = await self._load(tx, place, statuses=statuses)
                    if match_id is not None and loaded.row.id != match_id:
                        raise Refusal("That button belongs to an earlier game in this channel: "
                                      "use the latest board's buttons.")
                    if expected_version is not None and loaded.row.version != expected_version:
                        raise Refusal("This game has moved on since that button was shown: "
                                      "use the latest board's buttons.")
                    work = self._work(tx, loaded, actor)
                    await op(work)
                    return await self._commit(work)
            except Refusal as refusal:
                return Reply.refuse(str(refusal))
            except BackgammonError as error:
                return Reply.refuse(str(error))
            except StaleVersionError:
                return Reply.refuse("The game moved on before your action arrived "
                                    "(someone acted at the same moment): look at the new board.")
            except StorageError as error:  # busy / unavailable: not applied (issue 21)
                return Reply.refuse(str(error))

    def _work(self, tx: Transaction, loaded: Loaded, actor: Actor) -> Work:
        dice = None
        stored = 0
        if loaded.game_row is not None:
            dice = self._dice(loaded.game_row.seed, loaded.game_row.dice_drawn)
            stored = len(loaded.game.record) if loaded.game is not None else 0
        return Work(tx=tx, loaded=loaded, actor=actor, game=loaded.game,
                    session=loaded.session, game_row=loaded.game_row, stored=stored,
                    dice=dice, state=copy.deepcopy(loaded.row.state), table=self._table(loaded.row))

    def _table(self, row: MatchRow) -> Table:
        """The table strategy of a match: a chouette game, or two players."""
        if row.chouette_id is None:
            return PAIR
        from bot.chouette_service import ChouetteTable

        return ChouetteTable(self)

    async def _commit(self, work: Work) -> Reply:
        """Write what ``work`` did, with the version check; build the reply."""
        await work.flush()
        match_changes: dict[str, Any] = {"state": work.state}
        if work.match_status is not None:
            match_changes["status"] = work.match_status
        if work.match_winner is not None:
            match_changes["winner_id"] = work.match_winner
        match_changes.update(work.row_changes)
        row = await work.tx.update_match(work.row, **match_changes)
        # ``work.game_row`` follows every write to the game's row (flush, _finish).
        state = Loaded(row, work.session, work.game_row, work.game, work.loaded.names)
        # Only a committed state may be served from the cache.
        work.tx.on_commit(lambda: self._remember(state))
        return self._reply(work, row)

    def _reply(self, work: Work, row: MatchRow) -> Reply:
        boards = list(work.boards)
        game = work.game
        buttons: tuple[Button, ...] = ()
        if game is not None and row.status == "active":
            boards.append(self._board(work, game))
            buttons = self._buttons(work, game, row)
            waiting = game.awaiting
            if waiting is not None:
                work.notify.append(self._turn_line(work, game, waiting))
            buttons = work.table.decorate(work, game, buttons)
        return Reply(ok=True, text="\n".join(work.lines), boards=tuple(boards),
                     buttons=buttons, notify=tuple(work.notify), match_id=row.id,
                     version=row.version, attachment=work.attachment)

    def _board(self, work: Work, game: Game) -> Board:
        return board(game, work.session, work.loaded.names,
                     chouette=work.table.panel(work, game))

    def _turn_line(self, work: Work, game: Game, waiting: Player) -> str:
        who = f"<@{work.user(waiting)}>"
        if game.phase is Phase.DOUBLED:
            return f"{who}: take, drop" + (" or beaver" if (waiting, Action.BEAVER) in
                                           game.available_actions() else "") + "?"
        if game.phase is Phase.RESIGNATION:
            return f"{who}: accept or reject the resignation?"
        if game.phase is Phase.PLAY and game.dice is not None:
            return f"{who} to play {_dice_text(game.dice)}."
        if game.phase is Phase.CHOICE and game.pending_choice is not None:
            return f"{who}: {game.pending_choice.prompt}"
        return f"It's {who}'s turn: roll or double."

    def _buttons(self, work: Work, game: Game, row: MatchRow) -> tuple[Button, ...]:
        acts = game.available_actions()
        out: list[Button] = []
        labels = {Action.ROLL: (Act.ROLL, "Roll"), Action.DOUBLE: (Act.DOUBLE, "Double"),
                  Action.TAKE: (Act.TAKE, "Take"), Action.DROP: (Act.DROP, "Drop"),
                  Action.BEAVER: (Act.BEAVER, "Beaver"),
                  Action.ACCEPT_RESIGNATION: (Act.ACCEPT_RESIGNATION, "Accept resignation"),
                  Action.REJECT_RESIGNATION: (Act.REJECT_RESIGNATION, "Reject resignation")}
        for action, (act, label) in labels.items():
            users = tuple(sorted(work.user(p) for p, a in acts if a is action))
            if users:
                out.append(Button(act, label, users))
        if game.phase is Phase.CHOICE and game.pending_choice is not None and (
                game.turn is not None):
            for option in game.pending_choice.options:
                out.append(Button(Act.CHOOSE, option, (work.user(game.turn),), option))
        draft = self._draft(work, game)
        if draft and game.turn is not None:
            out.append(Button(Act.UNDO, "Undo", (work.user(game.turn),)))
        if work.state.get("pending") and game.turn is not None:
            out.append(Button(Act.CONFIRM, "Confirm", (work.user(game.turn),)))
        return tuple(out)

    def _now(self) -> str:
        return self._clock().isoformat(timespec="milliseconds")

    # --------------------------------------------------------- automatic actions

    async def _auto(self, work: Work) -> None:
        """Do what needs no decision: opening throws, rolls when doubling is not
        possible, forced plays.  Stops when a player must decide."""
        for _ in range(200):
            game = work.game
            if game is None or game.is_finished:
                return
            if game.phase is Phase.OPENING:
                self._opening(work)
                continue
            if game.phase is Phase.ROLL and game.turn is not None and (
                    game.extra_throw or not game.may_double(game.turn)):
                dice = Dice(work.draw(), work.draw())
                work.game = game.roll(dice, game.turn)
                work.lines.append(f"{work.name(game.turn)} rolled {_dice_text(dice)}.")
                self._note_empty(work, game)
                continue
            if game.phase is Phase.PLAY and game.turn is not None:
                plays = game.legal_plays()
                if len(plays) == 1:
                    play = plays[0]
                    work.game = game.play(play, game.turn)
                    work.lines.append(
                        f"{work.name(game.turn)} plays {self._format(game, play)} (forced).")
                    await self._after_play(work)
                    continue
            return

    def _note_empty(self, work: Work, before: Game) -> None:
        """Say so when a throw could not be played at all."""
        game = work.game
        assert game is not None
        if before.turn is not None and game.turn is not before.turn and game.phase is Phase.ROLL:
            work.lines.append(f"{work.name(before.turn)} can't move.")

    def _opening(self, work: Work) -> None:
        game = work.game
        assert game is not None
        each = game.variant.opening_method(game.rules).dice_each
        white = tuple(work.draw() for _ in range(each))
        black = tuple(work.draw() for _ in range(each))
        work.game = game.opening_roll(white, black)
        w = "-".join(map(str, white))
        b = "-".join(map(str, black))
        text = f"Opening throw: {work.name(Player.WHITE)} {w}, {work.name(Player.BLACK)} {b}."
        after = work.game
        if after.phase is Phase.OPENING:
            text += " A tie: both throw again."
            if after.automatic_doubles > game.automatic_doubles:
                text += f" Automatic double: the cube is now {after.cube.value}."
        elif after.turn is not None:
            text += f" {work.name(after.turn)} goes first."
        work.lines.append(text)

    def _format(self, game: Game, play: Play) -> str:
        return game.variant.format_play(play) or "no move"

    async def _after_play(self, work: Work) -> None:
        work.state.pop("draft", None)
        work.state.pop("pending", None)
        if work.game is not None and work.game.is_finished:
            await self._finish(work)

    # ------------------------------------------------------------ game endings

    async def _finish(self, work: Work, *, next_game: bool = True) -> None:
        """Record a finished game: its row, the ledger, the score, ratings, the next game.

        ``next_game`` False: the match or session ends here (a forfeit), so no new
        game is started.
        """
        game = work.game
        assert game is not None and game.result is not None and work.game_row is not None
        result = game.result
        tx = work.tx
        await work.flush()
        game_row = work.game_row
        assert game_row is not None
        work.game_row = await tx.update_game(
            game_row, status="finished", winner_id=work.user(result.winner),
            result=result.to_dict(), finished_at=self._now())
        work.lines.append(self._describe_result(work, result))
        work.lines.append(
            f"Dice seed of game {game_row.number}: {game_row.seed} (its SHA-256 "
            f"{game_row.seed_hash} was published at the start): /verify {game_row.id} "
            "checks every roll.")
        work.session = work.session.add_game(result)
        work.boards.append(self._board(work, game))
        if await work.table.finish(work, result):
            return
        winner_id = work.user(result.winner)
        loser_id = work.user(result.loser)
        guild = work.row.guild_id
        if isinstance(work.session, MoneySession):
            amount = result.points * work.session.stake
            await tx.add_ledger([
                LedgerEntry(guild, winner_id, result.points, amount, work.row.id, game_row.id),
                LedgerEntry(guild, loser_id, -result.points, -amount, work.row.id, game_row.id),
            ])
            if work.row.rated:
                await self._rate(work, winner_id, loser_id, 1)
            work.lines.append(self._session_line(work))
            if next_game:
                await self._next_game(work)
            return
        match = work.session
        assert isinstance(match, Match)
        if match.is_over:
            assert match.winner is not None
            await self._end_match(work, match.winner)
            w, b = match.score
            work.lines.append(
                f"{work.name(match.winner)} wins the {match.length}-point match "
                f"{max(w, b)}-{min(w, b)}.")
            return
        w, b = match.score
        names = work.loaded.names
        work.lines.append(f"Score: {names[0]} {w}, {names[1]} {b} (match to {match.length})."
                          + (" Next is the Crawford game." if match.crawford_game and next_game
                             else ""))
        if next_game:
            await self._next_game(work)

    async def _end_match(self, work: Work, winner: Player) -> None:
        work.match_status = "finished"
        work.match_winner = work.user(winner)
        session = work.session
        if work.row.rated and isinstance(session, Match):
            await self._rate(work, work.user(winner), work.user(winner.other), session.length)
        work.game = None
        work.game_row = None
        work.dice = None

    async def _rate(self, work: Work, winner_id: int, loser_id: int, length: int) -> None:
        tx = work.tx
        guild = work.row.guild_id
        await tx.lock_players(guild, (winner_id, loser_id))  # before the reads (issue 21)
        w_row = await tx.rating(guild, winner_id)
        l_row = await tx.rating(guild, loser_id)
        new_w, new_l = ratings.update(ratings.Rating(w_row.rating, w_row.experience),
                                      ratings.Rating(l_row.rating, l_row.experience), length)
        await tx.set_rating(RatingRow(guild, winner_id, new_w.rating, new_w.experience),
                            match_id=work.row.id, before=w_row.rating)
        await tx.set_rating(RatingRow(guild, loser_id, new_l.rating, new_l.experience),
                            match_id=work.row.id, before=l_row.rating)

    async def _next_game(self, work: Work) -> None:
        """Start the next game of the match or session: new seed, opening throw."""
        game = work.session.new_game()
        number = work.game_row.number + 1 if work.game_row is not None else 1
        seed = self._new_seed()
        setup = {"money": game.money, "crawford": game.crawford,
                 "first_player": (game.first_player.label if game.first_player is not None
                                  else None)}
        row = await work.tx.insert_game(match_id=work.row.id, number=number,
                                        seed_hash=fairdice.seed_hash(seed), seed=seed,
                                        setup=setup)
        work.game = game
        work.game_row = row
        work.stored = 0
        work.dice = self._dice(seed, 0)
        work.lines.append(f"Game {number} begins. Dice commitment (SHA-256 of the secret seed): "
                          f"{row.seed_hash}.")
        await self._auto(work)

    def _session_line(self, work: Work) -> str:
        session = work.session
        assert isinstance(session, MoneySession)
        names = work.loaded.names
        w = session.net(Player.WHITE)
        return (f"Session after {session.games_played} game(s): {names[0]} {w:+d}, "
                f"{names[1]} {-w:+d} points"
                + (f" ({w * session.stake:+d} / {-w * session.stake:+d} at "
                   f"{session.stake} a point)." if session.stake else "."))

    def _describe_result(self, work: Work, result: Result) -> str:
        what = {ResultKind.SINGLE: "a single game", ResultKind.GAMMON: "a gammon",
                ResultKind.BACKGAMMON: "a backgammon"}[result.kind]
        how = {EndReason.BORNE_OFF: "", EndReason.DROP: " (double dropped)",
               EndReason.RESIGNATION: " (resignation)", EndReason.FORFEIT: " (forfeit)"}
        counted = "" if result.counted is result.kind else f", counted as {result.counted.label}"
        point = "point" if result.points == 1 else "points"
        return (f"{work.name(result.winner)} wins {what}{how[result.reason]}{counted}: "
                f"{result.points} {point}.")

    # ------------------------------------------------------------------ the AI

    def set_ai_user(self, user_id: int, name: str) -> None:
        """Make ``user_id`` the AI's account: challenging it starts a game against the AI."""
        self.ai_actor = Actor(user_id, name, is_bot=True)

    async def _drive_ai(self, place: Place, first: Reply) -> Reply:
        """Let the AI act (off the event loop) for as long as the game waits for it.

        Each AI action is an ordinary action: its own transaction, checked
        against the version the AI looked at, so a racing command wins cleanly.
        """
        ai, me = self.ai, self.ai_actor
        if ai is None or me is None:
            return first
        replies = [first]
        token = _DRIVING_AI.set(True)
        try:
            for _ in range(1000):
                async with self.storage.snapshot() as tx:
                    row = await tx.open_match_in_channel(place.channel_id)
                    if row is None or row.status != "active" or "ai" not in row.state:
                        break
                    loaded = await self._load_row(tx, row)
                game = loaded.game
                ai_player = (Player.WHITE if row.white_id == me.id else
                             Player.BLACK if row.black_id == me.id else None)
                if game is None or ai_player is None or game.awaiting is not ai_player:
                    break
                level = get_level(str(row.state["ai"].get("level")))
                decision = await ai.decide(game, match_context(loaded.session), level)
                reply = await self._apply_decision(place, me, game, decision, row)
                if not reply.ok:
                    log.error("the AI's decision %s was refused: %s", decision, reply.text)
                    break
                replies.append(reply)
        finally:
            _DRIVING_AI.reset(token)
        return self._merge(replies)

    async def _apply_decision(self, place: Place, me: Actor, game: Game, decision: Decision,
                              row: MatchRow) -> Reply:
        """Carry out the AI's decision through the same operations a player uses."""
        v, m = row.version, row.id
        action = decision.action
        if action is Action.ROLL:
            return await self.roll(place, me, expected_version=v, match_id=m)
        if action is Action.DOUBLE:
            return await self.double(place, me, expected_version=v, match_id=m)
        if action is Action.TAKE:
            return await self.take(place, me, expected_version=v, match_id=m)
        if action is Action.DROP:
            return await self.drop(place, me, expected_version=v, match_id=m)
        if action is Action.BEAVER:
            return await self.beaver(place, me, expected_version=v, match_id=m)
        if action is Action.CHOOSE and decision.option is not None:
            return await self.choose(place, me, decision.option, expected_version=v,
                                     match_id=m)
        if action in (Action.ACCEPT_RESIGNATION, Action.REJECT_RESIGNATION):
            return await self.answer_resignation(
                place, me, action is Action.ACCEPT_RESIGNATION, expected_version=v, match_id=m)
        if action is Action.PLAY and decision.play is not None:
            text = game.variant.format_play(decision.play)
            return await self.move(place, me, text, expected_version=v, match_id=m)
        return Reply.refuse(f"The AI has no way to {action.value} now.")

    @staticmethod
    def _merge(replies: list[Reply]) -> Reply:
        """One reply for a player's action and the AI's answers to it."""
        if len(replies) == 1:
            return replies[0]
        last = replies[-1]
        finished = tuple(b for r in replies[:-1] for b in r.boards
                         if b.view.game_over is not None)
        text = "\n".join(r.text for r in replies if r.text)
        return replace(last, text=text, boards=finished + last.boards)

    # ------------------------------------------------------------ the challenge

    async def challenge(self, place: Place, actor: Actor, opponent: Actor, *,
                        variant: str | None = None, rules: dict[str, Any] | None = None,
                        length: int = 0, stake: int = 0, rated: bool = True,
                        level: str | None = None, hints: bool = False) -> Reply:
        """``actor`` challenges ``opponent`` to a match (``length`` points) or money play.

        Challenging the AI (:attr:`ai_actor`) starts at once, unrated, at ``level``.
        ``hints``: the challenger allows /hint in this rated match (the opponent agrees
        by accepting); unrated games always allow hints.
        """
        if opponent.id == actor.id:
            return Reply.refuse("You can't challenge yourself: name another player.")
        against_ai = self.ai_actor is not None and opponent.id == self.ai_actor.id
        if opponent.is_bot and not against_ai:
            return Reply.refuse(f"{opponent.name} is a bot and can't play. To play the AI, "
                                "challenge me (the backgammon bot) instead.")
        if against_ai and (self.ai is None or not self.config.ai.enabled):
            return Reply.refuse("Games against the bot are switched off on this server.")
        ai_level = None
        if against_ai:
            try:
                ai_level = get_level(level or self.config.ai.default_level)
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
            variant_cls = get_variant(variant or self.config.game.variant)
            options = dict(self.config.game.rules)
            options.update(rules or {})
            rule_options = RuleOptions.from_dict(options)
            if length:
                Match.new(length, rule_options, variant_cls)
        except (BackgammonError, ValueError) as error:
            return Reply.refuse(str(error)[:300])
        async with self._lock(place.channel_id):
            try:
                async with self.storage.transaction() as tx:
                    existing = await tx.open_match_in_channel(place.channel_id)
                    if await tx.open_chouette_in_channel(place.channel_id) is not None:
                        raise Refusal("This channel has a chouette table: join it with "
                                      "/chouette join, or challenge in another channel.")
                    if existing is not None:
                        raise Refusal(
                            "This channel already has a game or a challenge. Finish it first, "
                            "or start yours in another channel or thread.")
                    for user in sorted((actor, opponent), key=lambda a: a.id):  # id order
                        await tx.upsert_user(user.id, user.name, user.is_bot)
                    state: dict[str, Any] = {"hints": bool(hints or not rated)}
                    if ai_level is not None:
                        state["ai"] = {"user": opponent.id, "level": ai_level.name}
                    row = await tx.insert_match(
                        guild_id=place.guild_id, channel_id=place.channel_id,
                        white_id=actor.id, black_id=opponent.id, variant=variant_cls.name,
                        rules=rule_options.to_dict(), length=length, stake=stake,
                        rated=rated, status="challenged", state=state)
            except Refusal as refusal:
                return Reply.refuse(str(refusal))
            except StaleVersionError:  # a deadlock PostgreSQL broke (issue 21)
                return Reply.refuse("Another command changed this channel at the same moment: "
                                    "try again.")
            except StorageError as error:  # busy / unavailable: not applied (issue 21)
                return Reply.refuse(str(error))
        terms = (f"a {length}-point match" if length else
                 ("money play" + (f" at {stake} a point" if stake else "")))
        game_name = variant_cls.title
        text = (f"{actor.name} challenges {opponent.name} to {terms} of {game_name}.\n"
                f"Rules: {'; '.join(rule_options.describe())}.")
        if ai_level is not None:
            assert self.ai_actor is not None
            started = await self.accept(place, self.ai_actor)
            note = (f"{text}\nYou play the AI at level {ai_level.title} (unrated; /hint is "
                    "allowed).")
            if not variant_cls.name == "standard":
                note += (" In this variant the AI is a simple heuristic player, weaker than "
                         "its backgammon network.")
            return replace(started, text=note + "\n" + started.text) if started.ok else started
        return Reply(ok=True, text=text, match_id=row.id, version=row.version,
                     notify=(f"<@{opponent.id}>: /accept or /decline.",),
                     buttons=(Button(Act.ACCEPT, "Accept", (opponent.id,)),
                              Button(Act.DECLINE, "Decline", (opponent.id,)),))

    async def accept(self, place: Place, actor: Actor,
                     expected_version: int | None = None,
                   match_id: int | None = None) -> Reply:
        async def op(work: Work) -> None:
            row = work.row
            if row.status != "challenged":
                raise Refusal("There is no challenge waiting here: the game is already on.")
            if work.actor.id != row.black_id:
                if work.actor.id == row.white_id:
                    raise Refusal(f"You made this challenge: {work.name(Player.BLACK)} must "
                                  "accept it. You can /cancel it.")
                raise Refusal(f"This challenge is for {work.name(Player.BLACK)}, not you.")
            work.match_status = "active"
            work.lines.append(f"{work.name(Player.BLACK)} accepts.")
            await self._next_game(work)

        return await self._act(place, actor, op, expected_version=expected_version,
                               match_id=match_id, statuses=("challenged",))

    async def decline(self, place: Place, actor: Actor,
                      expected_version: int | None = None,
                   match_id: int | None = None) -> Reply:
        async def op(work: Work) -> None:
            if work.actor.id != work.row.black_id:
                raise Refusal(f"Only {work.name(Player.BLACK)} can decline this challenge"
                              + ("; you can /cancel it." if work.actor.id == work.row.white_id
                                 else "."))
            work.match_status = "declined"
            work.lines.append(f"{work.name(Player.BLACK)} declines the challenge.")

        return await self._act(place, actor, op, expected_version=expected_version,
                               match_id=match_id, statuses=("challenged",))

    async def cancel(self, place: Place, actor: Actor) -> Reply:
        async def op(work: Work) -> None:
            if work.actor.id != work.row.white_id:
                raise Refusal("Only the challenger can cancel a challenge"
                              + ("; you can /decline it." if work.actor.id == work.row.black_id
                                 else "."))
            work.match_status = "cancelled"
            work.lines.append(f"{work.name(Player.WHITE)} withdraws the challenge.")

        return await self._act(place, actor, op, statuses=("challenged",))

    # -------------------------------------------------------------- the game

    def _game(self, work: Work) -> Game:
        if work.game is None:
            raise Refusal("There is no game in progress in this channel.")
        return work.game

    def _expect(self, work: Work, player: Player, *phases: Phase) -> Game:
        """Refuse unless ``player`` is the one who must act now."""
        game = self._game(work)
        waiting = game.awaiting
        if waiting is not None and waiting is not player:
            doing = {Phase.DOUBLED: "answer the double", Phase.RESIGNATION:
                     "answer the resignation", Phase.PLAY: "play", Phase.CHOICE: "choose",
                     Phase.ROLL: "roll or double"}.get(game.phase, "act")
            raise Refusal(f"It's not your turn: {work.name(waiting)} must {doing}.")
        return game

    async def roll(self, place: Place, actor: Actor,
                   expected_version: int | None = None,
                   match_id: int | None = None) -> Reply:
        async def op(work: Work) -> None:
            player = work.player_of(work.actor)
            game = self._expect(work, player)
            if game.phase is not Phase.ROLL:
                raise Refusal(self._why_not_roll(work, game))
            dice = Dice(work.draw(), work.draw())
            work.game = game.roll(dice, player)
            work.lines.append(f"{work.name(player)} rolled {_dice_text(dice)}.")
            self._note_empty(work, game)
            await self._auto(work)

        return await self._act(place, actor, op, expected_version=expected_version,
                               match_id=match_id)

    def _why_not_roll(self, work: Work, game: Game) -> str:
        if game.phase is Phase.PLAY and game.dice is not None:
            return (f"You have already rolled {_dice_text(game.dice)}: play it with /move "
                    "(for example /move " + self._example(game) + ").")
        try:
            game.roll(Dice(1, 2), game.turn)
        except BackgammonError as error:
            return str(error)
        return "You can't roll now."

    def _example(self, game: Game) -> str:
        plays = game.legal_plays()
        return self._format(game, plays[0]) if plays else "13/7"

    async def double(self, place: Place, actor: Actor,
                     expected_version: int | None = None,
                   match_id: int | None = None) -> Reply:
        async def op(work: Work) -> None:
            player = work.player_of(work.actor)
            game = self._game(work)
            work.game = game.double(player)
            work.lines.append(f"{work.name(player)} doubles to {game.cube.value * 2}.")

        return await self._act(place, actor, op, expected_version=expected_version,
                               match_id=match_id)

    async def take(self, place: Place, actor: Actor,
                   expected_version: int | None = None,
                   match_id: int | None = None) -> Reply:
        async def op(work: Work) -> None:
            if await work.table.answer_double(work, take=True):
                return
            player = work.player_of(work.actor)
            game = self._expect(work, player)
            work.game = game.take(player)
            work.lines.append(f"{work.name(player)} takes: the cube is at "
                              f"{work.game.cube.value}.")
            await self._auto(work)

        return await self._act(place, actor, op, expected_version=expected_version,
                               match_id=match_id)

    async def drop(self, place: Place, actor: Actor,
                   expected_version: int | None = None,
                   match_id: int | None = None) -> Reply:
        async def op(work: Work) -> None:
            if await work.table.answer_double(work, take=False):
                return
            player = work.player_of(work.actor)
            game = self._expect(work, player)
            work.game = game.drop(player)
            work.lines.append(f"{work.name(player)} drops.")
            await self._finish(work)
            await self._auto(work)

        return await self._act(place, actor, op, expected_version=expected_version,
                               match_id=match_id)

    async def beaver(self, place: Place, actor: Actor,
                     expected_version: int | None = None,
                   match_id: int | None = None) -> Reply:
        async def op(work: Work) -> None:
            player = work.player_of(work.actor)
            game = self._expect(work, player)
            work.game = game.beaver(player)
            assert work.game.cube.offer is not None
            work.lines.append(f"{work.name(player)} beavers: the cube goes to "
                              f"{work.game.cube.offer.value}, and "
                              f"{work.name(player.other)} must take or drop.")

        return await self._act(place, actor, op, expected_version=expected_version,
                               match_id=match_id)

    def _stage(self, game: Game) -> Stage:
        stage = game.stage
        if stage is None:
            raise Refusal("There is nothing to play now.")
        return stage

    def _draft(self, work: Work, game: Game) -> str:
        draft = work.state.get("draft")
        if not isinstance(draft, dict) or draft.get("seq") != len(game.record) or (
                draft.get("game") != self._game_id(work)):
            return ""
        return str(draft.get("text", ""))

    async def move(self, place: Place, actor: Actor, text: str,
                   expected_version: int | None = None,
                   match_id: int | None = None) -> Reply:
        """Enter moves for the current roll (all at once, or a few at a time)."""
        async def op(work: Work) -> None:
            player = work.player_of(work.actor)
            game = self._expect(work, player)
            typed = _clean(text, "move")
            if game.phase is not Phase.PLAY:
                if game.phase is Phase.ROLL and game.turn is player:
                    raise Refusal("You must roll before moving: use /roll"
                                  + (" (or /double first)." if game.may_double(player)
                                     else "."))
                raise Refusal(self._why_not_move(work, game))
            so_far = self._draft(work, game)
            combined = f"{so_far} {typed}".strip()
            stage = self._stage(game)
            try:
                play = game.variant.resolve_play(combined, game.position, player, stage,
                                                 game.legal_plays())
            except IncompletePlayError as error:
                if not typed:
                    raise
                work.state["draft"] = {"game": self._game_id(work), "seq": len(game.record),
                                       "text": combined}
                work.state.pop("pending", None)
                work.lines.append(f"{work.name(player)} entered {combined}. {error}")
                return
            except AmbiguousPlayError:
                raise
            except NotationError as error:
                raise Refusal(f"{error} Example: /move {self._example(game)}") from None
            await self._apply_play(work, game, player, play)

        return await self._act(place, actor, op, expected_version=expected_version,
                               match_id=match_id)

    def _game_id(self, work: Work) -> int:
        return work.game_row.id if work.game_row is not None else 0

    def _why_not_move(self, work: Work, game: Game) -> str:
        if game.phase is Phase.DOUBLED:
            return "A double is waiting for an answer: take or drop first."
        if game.phase is Phase.CHOICE and game.pending_choice is not None:
            return (f"Choose first: {game.pending_choice.prompt} (/choose "
                    f"{' | '.join(game.pending_choice.options)})")
        if game.phase is Phase.RESIGNATION:
            return "A resignation offer is waiting for an answer."
        return "There is nothing to move now."

    async def _apply_play(self, work: Work, game: Game, player: Player, play: Play) -> None:
        if not self.config.game.auto_confirm and not work.state.get("pending_ok"):
            work.state["pending"] = {"game": self._game_id(work), "seq": len(game.record),
                                     "text": self._format(game, play)}
            work.lines.append(f"{work.name(player)} will play {self._format(game, play)}: "
                              "Confirm, or Undo to change it.")
            return
        work.game = game.play(play, player)
        work.lines.append(f"{work.name(player)} plays {self._format(game, play)}.")
        await self._after_play(work)
        await self._auto(work)

    async def undo(self, place: Place, actor: Actor,
                   expected_version: int | None = None,
                   match_id: int | None = None) -> Reply:
        """Take back the moves entered so far this turn (before the play is final)."""
        async def op(work: Work) -> None:
            player = work.player_of(work.actor)
            game = self._expect(work, player)
            if work.state.get("pending"):
                work.state.pop("pending")
                work.lines.append("The play is taken back: enter it again with /move.")
                return
            draft = self._draft(work, game)
            if not draft:
                raise Refusal("Nothing to undo: a play is final once all its moves are made"
                              + (" (turn on Confirm in the config to review plays first)."
                                 if self.config.game.auto_confirm else "."))
            parts = draft.split()
            rest = " ".join(parts[:-1])
            if rest:
                work.state["draft"] = dict(work.state["draft"], text=rest)
                work.lines.append(f"Undone {parts[-1]}; entered so far: {rest}.")
            else:
                work.state.pop("draft")
                work.lines.append(f"Undone {parts[-1]}; nothing entered yet this turn.")

        return await self._act(place, actor, op, expected_version=expected_version,
                               match_id=match_id)

    async def confirm(self, place: Place, actor: Actor,
                      expected_version: int | None = None,
                   match_id: int | None = None) -> Reply:
        async def op(work: Work) -> None:
            player = work.player_of(work.actor)
            game = self._expect(work, player)
            pending = work.state.get("pending")
            if not isinstance(pending, dict) or pending.get("seq") != len(game.record):
                raise Refusal("There is no play waiting for confirmation: enter one with /move.")
            stage = self._stage(game)
            play = game.variant.resolve_play(str(pending["text"]), game.position, player,
                                             stage, game.legal_plays())
            work.state.pop("pending")
            work.state["pending_ok"] = True
            try:
                await self._apply_play(work, game, player, play)
            finally:
                work.state.pop("pending_ok", None)

        return await self._act(place, actor, op, expected_version=expected_version,
                               match_id=match_id)

    async def choose(self, place: Place, actor: Actor, option: str,
                     expected_version: int | None = None,
                   match_id: int | None = None) -> Reply:
        async def op(work: Work) -> None:
            player = work.player_of(work.actor)
            game = self._expect(work, player)
            if game.phase is not Phase.CHOICE:
                raise Refusal("There is no choice to make now.")
            picked = _clean(option, "choice")
            work.game = game.choose(picked, player)
            work.lines.append(f"{work.name(player)} chooses {picked}.")
            await self._auto(work)

        return await self._act(place, actor, op, expected_version=expected_version,
                               match_id=match_id)

    async def resign(self, place: Place, actor: Actor, kind: str = "single",
                     expected_version: int | None = None,
                     match_id: int | None = None) -> Reply:
        async def op(work: Work) -> None:
            player = work.player_of(work.actor)
            game = self._game(work)
            try:
                result_kind = ResultKind[kind.strip().upper()]
            except KeyError:
                raise Refusal("Resign a single, gammon or backgammon "
                              "(/resign single).") from None
            work.game = game.resign(player, result_kind)
            points = result_kind.value * game.cube.value
            work.lines.append(f"{work.name(player)} offers to resign a {result_kind.label} "
                              f"({points} point{'s' if points != 1 else ''} at the cube's "
                              "value).")

        return await self._act(place, actor, op, expected_version=expected_version,
                               match_id=match_id)

    async def answer_resignation(self, place: Place, actor: Actor, accept: bool,
                                 expected_version: int | None = None,
                   match_id: int | None = None) -> Reply:
        async def op(work: Work) -> None:
            player = work.player_of(work.actor)
            game = self._expect(work, player)
            work.game = game.answer_resignation(player, accept)
            if accept:
                work.lines.append(f"{work.name(player)} accepts the resignation.")
                await self._finish(work)
                await self._auto(work)
            else:
                work.lines.append(f"{work.name(player)} rejects the resignation: play on.")

        return await self._act(place, actor, op, expected_version=expected_version,
                               match_id=match_id)

    async def forfeit(self, place: Place, actor: Actor,
                      expected_version: int | None = None,
                      match_id: int | None = None) -> Reply:
        """Abandon: lose the current game at the cube's value and end the match/session."""
        async def op(work: Work) -> None:
            work.table.check_forfeit(work)
            player = work.player_of(work.actor)
            game = self._game(work)
            work.game = game.forfeit(player, ResultKind.SINGLE)
            work.lines.append(f"{work.name(player)} abandons.")
            await self._finish(work, next_game=False)
            if work.match_status == "finished":
                return
            session = work.session
            if isinstance(session, Match):
                work.session = session.forfeit(player)
                work.lines.append(f"{work.name(player.other)} wins the match by forfeit.")
            else:
                work.lines.append("The money session is over.")
            await self._end_match(work, player.other)

        return await self._act(place, actor, op, expected_version=expected_version,
                               match_id=match_id)

    async def claim(self, place: Place, actor: Actor,
                    expected_version: int | None = None,
                    match_id: int | None = None) -> Reply:
        """The waiting player claims a game whose opponent has been idle too long."""
        async def op(work: Work) -> None:
            player = work.player_of(work.actor)
            game = self._game(work)
            idle_player = game.awaiting
            if idle_player is None or idle_player is player:
                raise Refusal("You can only claim a game while your opponent has to act.")
            last = datetime.fromisoformat(work.row.updated_at)
            limit = timedelta(minutes=self.config.timeouts.claim_after_minutes)
            waited = self._clock() - last
            if waited < limit:
                left = int((limit - waited).total_seconds() // 60) + 1
                raise Refusal(f"{work.name(idle_player)} still has {left} minute(s) to act "
                              "before you can claim the game.")
            how = self.config.timeouts.claim_scores_as
            kind = ResultKind.SINGLE if how == "cube" else ResultKind[how.upper()]
            work.game = game.forfeit(idle_player, kind)
            work.lines.append(f"{work.name(player)} claims the game: {work.name(idle_player)} "
                              "did not act in time.")
            await self._finish(work)
            await self._auto(work)

        return await self._act(place, actor, op, expected_version=expected_version,
                               match_id=match_id)

    # -------------------------------------------------------------- read-only

    async def board(self, place: Place, actor: Actor) -> Reply:
        """The current board, for anyone (spectators included); changes nothing."""
        try:
            async with self.storage.snapshot() as tx:
                loaded = await self._load(tx, place, statuses=("active", "challenged"))
                if loaded.game is None:
                    return Reply(ok=True, text="The challenge is waiting for an answer.",
                                 match_id=loaded.row.id, version=loaded.row.version)
                work = self._work(tx, loaded, actor)
                reply = self._reply(work, loaded.row)
        except Refusal as refusal:
            return Reply.refuse(str(refusal))
        return Reply(ok=True, text="\n".join([self._status_text(work), *work.lines]),
                     boards=reply.boards,
                     buttons=reply.buttons, notify=reply.notify, match_id=loaded.row.id,
                     version=loaded.row.version)

    def _status_text(self, work: Work) -> str:
        session = work.session
        names = work.loaded.names
        if isinstance(session, Match):
            w, b = session.score
            return f"{names[0]} {w}, {names[1]} {b} in a match to {session.length}."
        return self._session_line(work)

    async def suggestions(self, place: Place, actor: Actor, text: str,
                          limit: int = 25) -> list[str]:
        """Legal plays matching partly typed ``text`` (for autocomplete)."""
        text = text[:MAX_TEXT]
        try:
            async with self.storage.snapshot() as tx:
                loaded = await self._load(tx, place)
        except Refusal:
            return []
        game = loaded.game
        if game is None or game.phase is not Phase.PLAY or game.turn is None:
            return []
        if actor.id != (loaded.row.white_id if game.turn is Player.WHITE
                        else loaded.row.black_id):
            return []
        stage = game.stage
        if stage is None:
            return []
        plays = game.variant.suggest_plays(text, game.position, game.turn, stage,
                                           game.legal_plays(), limit)
        return [self._format(game, p) for p in plays]

    # ------------------------------------------------------------- reminders

    async def due_reminders(self) -> list[tuple[int, str]]:
        """(channel id, text) for each game idle longer than the reminder time.

        Each version of a match is reminded once, cluster-wide (a conditional
        update decides which process sends it).
        """
        minutes = self.config.timeouts.reminder_minutes
        if minutes <= 0:
            return []
        cutoff = (self._clock() - timedelta(minutes=minutes)).isoformat(timespec="milliseconds")
        out: list[tuple[int, str]] = []
        async with self.storage.transaction() as tx:
            for row in await tx.idle_matches(cutoff):
                loaded = await self._load_row(tx, row)
                game = loaded.game
                if game is None or game.awaiting is None:
                    continue
                if not await tx.claim_reminder(row.id, row.version):
                    continue
                user = row.white_id if game.awaiting is Player.WHITE else row.black_id
                out.append((row.channel_id,
                            f"<@{user}>, it's your turn here (idle for {minutes:g} minutes). "
                            "After "
                            f"{self.config.timeouts.claim_after_minutes:g} minutes your opponent "
                            "may claim the game."))
        return out


def action_names() -> Sequence[str]:
    """Names of the operations adapters can bind to buttons."""
    return [a.value for a in Act]

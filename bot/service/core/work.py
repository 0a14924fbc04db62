"""One action in progress: the loaded state of a channel's match and what the action does
to it (:class:`Work`), and the seating strategy it consults (:class:`Seating`).

A :class:`Work` lives inside one transaction (see :mod:`bot.service.core.runner`): the
command changes ``game``, ``session``, ``state``, adds ``lines``, ``boards`` and
``notify`` lines, and the runner writes it all with one version check and commits.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from bot.service.core import fairdice
from bot.service.core.replies import Board, Button, Mention, Notice, Picture, Refusal, RetireButtons
from bot.service.core.state import MatchState
from bot.service.core.values import Actor
from bot.storage.interface import ClockRow, GameRow, MatchRow, MatchStatus, Transaction
from engine.game import Game
from engine.match import Session
from engine.player import Player
from engine.scoring import Result
from render.view import ChouetteView


@dataclass(frozen=True, slots=True)
class Loaded:
    """The state of one channel's match, rebuilt from storage (cached per version)."""

    row: MatchRow
    state: MatchState
    session: Session
    game_row: GameRow | None
    game: Game | None
    names: tuple[str, str]
    held: int = 0
    """How many of the last events of ``game`` are not stored yet (a play that may still
    be taken back, :mod:`bot.service.core.takeback`)."""
    base: Game | None = None
    """With ``held``: the game as its stored events give it (before that play)."""


class Seating(Protocol):
    """Who sits at a match: two players (:data:`bot.service.play.seating.PAIR`), or a chouette
    game (:class:`bot.service.chouette.seating.ChouetteSeating`), where white is the box,
    black the captain, and partners have a say in the cube.  The service asks the
    table at these points only:

    * :meth:`refuse_outsider` -- a user who is neither white nor black acts;
    * :meth:`answer_double` -- a take or drop arrives (a partner's own answer);
    * :meth:`finish` -- a game ended: the table may settle it itself;
    * :meth:`check_forfeit` -- abandoning is not how one leaves a chouette;
    * :meth:`panel`, :meth:`decorate` -- what the board and the reply show.
    """

    def refuse_outsider(self, work: Work, actor: Actor) -> None:
        """Raise a specific :class:`~bot.service.core.replies.Refusal` for ``actor``, or return."""
        ...

    async def answer_double(self, work: Work, take: bool) -> bool:
        """A take (or drop) by ``work.actor``; True if the table handled it fully."""
        ...

    async def finish(self, work: Work, result: Result) -> bool:
        """Settle the finished game; True if the table did (no two-player ledger)."""
        ...

    def check_forfeit(self, work: Work) -> None:
        """Raise a refusal if abandoning the match is not allowed here."""
        ...

    def panel(self, work: Work, game: Game) -> ChouetteView | None:
        """The chouette panel of the board, if any."""
        ...

    def decorate(self, work: Work, game: Game,
                 buttons: tuple[Button, ...]) -> tuple[Button, ...]:
        """Add lines and notices to the reply being built; return its buttons."""
        ...


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
    seating: Seating
    """Who sits at this match: two players, or a chouette game."""
    game: Game | None
    session: Session
    game_row: GameRow | None
    stored: int
    """How many events of ``game_row`` are already stored."""
    dice: fairdice.DiceStream | None
    state: MatchState
    lines: list[str] = field(default_factory=list)
    boards: list[Board] = field(default_factory=list)
    notify: list[Notice] = field(default_factory=list)
    match_status: MatchStatus | None = None
    match_winner: int | None = None
    attachment: tuple[str, bytes] | None = None
    pictures: list[Picture] = field(default_factory=list)
    """Pictures for the reply (the match summary at a match's end)."""
    retire: list[RetireButtons] = field(default_factory=list)
    """Messages whose buttons the reply retires (an answered challenge's)."""
    row_changes: dict[str, Any] = field(default_factory=dict)
    """More match columns to write at commit (a chouette's new captain: black_id)."""
    confirming: bool = False
    """A Confirm is applying the play that waited for it."""
    hold: int | None = None
    """Set by a play that may be taken back: how many last events not to store yet."""
    base: Game | None = None
    """With ``hold``: the game before that play."""
    rematch: bool = True
    """A finished match offers [Rematch] (not a tournament's: issue 30 item 14)."""
    at: datetime | None = None
    """The service's time of this action, read once (the clock charges by it)."""
    clock_faces: tuple[str, str] | None = None
    """The time left on each player's clock (white's, black's) for the boards, when the
    match is played on a clock (:mod:`bot.service.clock`)."""
    clock_read: tuple[ClockRow | None, int] | None = None
    """The match's clock and the beat as this action read them (one read an action: the
    clock changes only when the action commits)."""

    def keep(self) -> int:
        """How many of the last events of the game are not to be stored (yet)."""
        if self.game is None:
            return 0
        if self.hold is not None:
            return self.hold
        if self.loaded.held and self.game is self.loaded.game:
            return self.loaded.held  # nothing happened to the game: still unsettled
        return 0

    @property
    def row(self) -> MatchRow:
        return self.loaded.row

    @property
    def game_id(self) -> int:
        """The current game's row id (0 before the first game)."""
        return self.game_row.id if self.game_row is not None else 0

    def name(self, player: Player) -> str:
        return self.loaded.names[player]

    def user(self, player: Player) -> int:
        return self.row.white_id if player is Player.WHITE else self.row.black_id

    def mention(self, player: Player) -> Mention:
        return Mention(self.user(player), self.name(player))

    def player_of(self, actor: Actor) -> Player:
        if actor.id == self.row.white_id:
            return Player.WHITE
        if actor.id == self.row.black_id:
            return Player.BLACK
        self.seating.refuse_outsider(self, actor)
        raise Refusal(
            f"You are not playing in this game ({self.name(Player.WHITE)} vs "
            f"{self.name(Player.BLACK)}). You can watch with /board, or start your own game "
            "in another channel or thread.")

    def current_game(self) -> Game:
        if self.game is None:
            raise Refusal("There is no game in progress in this channel.")
        return self.game

    def switch_to(self, loaded: Loaded) -> None:
        """Go on with another match in the same transaction (a chouette's next game).
        The current match must already be written; lines and boards are kept."""
        self.loaded = loaded
        self.game = loaded.game
        self.session = loaded.session
        self.game_row = loaded.game_row
        self.stored = len(loaded.game.record) if loaded.game is not None else 0
        self.dice = None
        self.state = loaded.state
        self.match_status = None
        self.match_winner = None
        self.row_changes = {}
        self.hold = None
        self.base = None

    def draw(self) -> int:
        if self.dice is None:
            raise Refusal("There is no game in progress in this channel.")
        return self.dice.die()

    async def flush(self) -> None:
        """Append the current game's new events and its dice counter."""
        if self.game_row is None or self.game is None:
            return
        events = self.game.record[self.stored:len(self.game.record) - self.keep()]
        if events:
            await self.tx.append_events(self.game_row.id, [
                (self.stored + i, ev.type, ev.to_dict(), self.actor.id)
                for i, ev in enumerate(events)])
            self.stored += len(events)
        if self.dice is not None and self.dice.drawn != self.game_row.dice_drawn:
            self.game_row = await self.tx.update_game(self.game_row, dice_drawn=self.dice.drawn)

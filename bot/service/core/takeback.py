"""Taking back a finished play until the opponent acts (issue 19, item 8).

With ``auto_confirm`` on (the default) a play is made as soon as all its moves are
entered, so one typo would be final.  A table lets a player take his play back while
the opponent has not yet acted on it; so does this host:

* a play that leaves the opponent to decide (roll or double) is **unsettled**: the
  engine has made it (the board, the buttons, the opponent's options all follow it), but
  its events are kept in the match state (:class:`~bot.service.core.state.Unsettled`), not yet
  appended to the game's stored record;
* its player may ``/undo`` it (the "Take back" button): the game is again as its stored
  events give it, his throw to play again;
* the opponent's next action (a roll, a double, anything that changes the game) first
  appends the play's events to the record, where they are final.  An action that does
  not change the game (a look at the board, a chouette partner's suggestion) leaves the
  play unsettled.

So the stored record of a game only ever holds final plays, in order, and a database
written before this module replays unchanged (it has no unsettled play).  A play after
which the opponent's throw is automatic (he may not double), a play that ends the game,
and a stage of a turn that goes on (a variant's second stage, a throw again) are final
at once.
"""

from __future__ import annotations

from bot.service.core.replies import Refusal
from bot.service.core.state import MatchState, Unsettled
from bot.service.core.values import Actor
from bot.service.core.work import Work
from bot.storage.interface import EventRow, GameRow, MatchRow
from engine.errors import BackgammonError
from engine.game import Game, Phase
from engine.player import Player
from engine.record import ChoiceMade, PlayMade, events_from_list


def restore(state: MatchState, game_row: GameRow,
            game: Game) -> tuple[Game, int, Game | None]:
    """The game with its unsettled play re-applied: (game, events held, game without them).
    A stale or unreadable unsettled play is ignored (the stored record is the truth)."""
    unsettled = state.unsettled
    if unsettled is None or unsettled.game != game_row.id or unsettled.seq != len(
            game.record):
        return game, 0, None
    try:
        after = game
        for event in events_from_list(unsettled.events):
            after = after.apply(event)
    except (BackgammonError, ValueError):
        return game, 0, None
    return after, len(unsettled.events), game


def hold_play(work: Work, player: Player, before: Game, game_id: int) -> None:
    """After ``player``'s play (and what followed it automatically): keep it unsettled if
    it leaves the opponent to decide in the same game."""
    game = work.game
    if (game is None or game.is_finished or work.game_id != game_id
            or game.phase is not Phase.ROLL or game.turn is not player.other
            or game.extra_throw):
        return
    new = game.record[len(before.record):]
    if not new or any(not isinstance(e, PlayMade | ChoiceMade) or e.player is not player
                      for e in new):
        return
    work.hold = len(new)
    work.base = before
    work.state = work.state.with_(unsettled=Unsettled(
        game_id, len(before.record), tuple(e.to_dict() for e in new), work.user(player)))


def unsettled_user(work: Work) -> int | None:
    """The user who may take back the last play now (None: nothing to take back)."""
    unsettled = work.state.unsettled
    if unsettled is None or work.game is None or work.keep() == 0:
        return None
    return unsettled.user


def take_back(work: Work, actor: Actor) -> bool:
    """Take back ``actor``'s unsettled play, if he has one; False when there is none."""
    if unsettled_user(work) != actor.id:
        return False
    base = work.base if work.hold is not None else work.loaded.base
    if base is None:  # pragma: no cover - held events always come with their base
        raise Refusal("That play can no longer be taken back.")
    assert work.game is not None
    player = base.turn
    work.game = base
    work.hold = None
    work.base = None
    work.state = work.state.with_(unsettled=None, draft=None, pending=None)
    name = work.name(player) if player is not None else actor.name
    work.lines.append(f"{name} takes back the play: play the throw again with /move.")
    return True


def with_unsettled(match: MatchRow, game_row: GameRow,
                   events: list[EventRow]) -> list[EventRow]:
    """A game's stored events and, for the game in progress, the play that may still be
    taken back (what the board shows; for /history and /replay of the game in progress)."""
    unsettled = MatchState.from_dict(match.state).unsettled
    if unsettled is None or unsettled.game != game_row.id or unsettled.seq != len(events):
        return events
    return [*events, *(EventRow(game_row.id, len(events) + i, str(e.get("type", "")),
                                dict(e), unsettled.user, "")
                       for i, e in enumerate(unsettled.events))]

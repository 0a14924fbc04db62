"""Between two games of a money session: the next game has begun but nothing of it is
played yet (only its opening throw).  That is when a session may end (``/stop``) and the
"End session" button is offered (issue 19, item 9)."""

from __future__ import annotations

from engine.game import Game
from engine.match import Match, Session
from engine.record import OpeningRoll


def between_games(game: Game) -> bool:
    """Nothing of ``game`` has been played or decided yet (only its opening throw)."""
    return not game.is_finished and all(isinstance(e, OpeningRoll) for e in game.record)


def may_stop(session: Session, game: Game, chouette: bool) -> bool:
    """A two-player money session at the start of a game after at least one game."""
    return (not chouette and not isinstance(session, Match) and session.games_played > 0
            and between_games(game))

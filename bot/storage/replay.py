"""Rebuild a stored game: the one place that turns rows into an engine :class:`Game`."""

from __future__ import annotations

from collections.abc import Sequence

from bot.storage.interface import EventRow, GameRow, MatchRow, Transaction
from engine.game import Game
from engine.player import Player
from engine.record import events_from_list
from engine.rules import RuleOptions
from engine.variant import get_variant


def replay_game(row: MatchRow, game_row: GameRow, events: Sequence[EventRow]) -> Game:
    """The game rebuilt from its stored events, its set-up and the match's variant and rules."""
    setup = game_row.setup
    first = setup.get("first_player")
    return Game.replay(
        events_from_list([e.data for e in events]), get_variant(row.variant)(),
        RuleOptions.from_dict(row.rules), money=bool(setup.get("money", row.length == 0)),
        crawford=bool(setup.get("crawford", False)),
        first_player=Player[str(first).upper()] if first else None)


async def player_names(tx: Transaction, match: MatchRow) -> tuple[str, str]:
    """The stored names of a match's white and black players (the id for an unknown
    user)."""
    white = await tx.get_user(match.white_id)
    black = await tx.get_user(match.black_id)
    return (white.name if white else str(match.white_id),
            black.name if black else str(match.black_id))

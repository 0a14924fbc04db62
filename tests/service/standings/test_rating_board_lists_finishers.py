"""The rating leaderboard lists only players with a finished rated match (issue 42
item 17), on SQLite and PostgreSQL.

Sending a challenge, being challenged, or playing a rated match that has not ended gives a
player no rating yet: such a player was listed "rating 1500.0* exp 0 wins 0/0".
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from backends import Backend
from backends import backend as backend_named
from race_table import ScriptedDice

from bot.config import Config
from bot.service.core.values import Actor, Place
from bot.service.game import GameService

ALICE, BOB, CAROL, DAVE, ERIN, FRANK = (Actor(40 + i, n) for i, n in enumerate(
    ("alice", "bob", "carol", "dave", "erin", "frank")))
GUILD = 9


def place(channel: int) -> Place:
    return Place(GUILD, channel)


@pytest.fixture(params=["sqlite", "postgres"])
async def backend(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Backend]:
    async with backend_named(request.param, tmp_path) as b:
        yield b


async def test_only_players_with_a_finished_rated_match_are_ranked_by_rating(
        backend: Backend) -> None:
    service = GameService(await backend.open(), Config(), dice=ScriptedDice)
    # carol only challenged dave; erin and frank play a match that has not ended.
    assert (await service.challenge(place(91), CAROL, DAVE, length=3)).ok
    assert (await service.challenge(place(92), ERIN, FRANK, length=3)).ok
    assert (await service.accept(place(92), FRANK)).ok
    empty = await service.leaderboard(place(90), ERIN, "rating")
    assert empty.ok
    assert not any(n in empty.text for n in ("carol", "dave", "erin", "frank")), empty.text
    assert "No rated match has finished" in empty.text
    # alice and bob finish a rated match: they are ranked, and only they.
    assert (await service.challenge(place(90), ALICE, BOB, length=1)).ok
    assert (await service.accept(place(90), BOB)).ok
    assert (await service.resign(place(90), BOB, "single")).ok
    assert (await service.answer_resignation(place(90), ALICE, True)).ok
    board = await service.leaderboard(place(90), ERIN, "rating")
    assert board.ok, board.text
    ranked = [line.split()[1] for line in board.text.splitlines() if line[:4].strip(" .")
              .isdigit()]
    assert ranked == ["alice", "bob"], board.text
    assert "exp    0" not in board.text and "0/0" not in board.text
    # The money and wins lists are not changed by this.
    wins = await service.leaderboard(place(90), ERIN, "wins")
    assert "alice" in wins.text and "erin" in wins.text

"""Issue 42 item 6: a chouette game's settlement, read back per game
(``Transaction.chouette_game_points``) for /history, on SQLite and PostgreSQL alike
(a new database on the session's throwaway server; skipped with the reason without one)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from fractions import Fraction
from pathlib import Path

import pytest
from backends import Backend
from backends import backend as backend_named
from scripted import Script

from bot.config import Config
from bot.service.core.values import Actor, Place
from bot.service.game import GameService

ALICE, BOB, CAROL, DAVE = (Actor(1, "alice"), Actor(2, "bob"), Actor(3, "carol"),
                           Actor(4, "dave"))
HERE = Place(guild_id=7, channel_id=70)


@pytest.fixture(params=["sqlite", "postgres"])
async def backend(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Backend]:
    async with backend_named(request.param, tmp_path) as b:
        yield b


async def test_a_chouette_game_s_settlement_per_player(backend: Backend) -> None:
    storage = await backend.open()
    service = GameService(storage, Config(), dice=Script([6, 5, 4, 3, 1, 3, 5, 4, 6, 1]))  # type: ignore[arg-type]
    assert (await service.chouette.open(HERE, ALICE)).ok
    for player in (BOB, CAROL, DAVE):
        assert (await service.chouette.join(HERE, player)).ok
    assert (await service.chouette.start(HERE, ALICE)).ok
    assert (await service.move(HERE, BOB, "8/5 6/5")).ok
    assert (await service.double(HERE, ALICE)).ok
    assert (await service.drop(HERE, CAROL)).ok
    assert (await service.take(HERE, BOB)).ok
    assert (await service.resign(HERE, BOB, "single")).ok
    assert (await service.answer_resignation(HERE, ALICE, True)).ok
    async with storage.snapshot() as tx:
        rows = await tx.matches_in_channel(HERE.channel_id)
        first = min(rows, key=lambda r: r.id)
        (game,) = await tx.games_of_match(first.id)
        settled = await tx.chouette_game_points(game.id)
        later = max(rows, key=lambda r: r.id)
        (playing,) = await tx.games_of_match(later.id)
        unsettled = await tx.chouette_game_points(playing.id)
    assert settled == [(1, Fraction(6)), (2, Fraction(-3)), (3, Fraction(-1)),
                       (4, Fraction(-2))]
    assert unsettled == []

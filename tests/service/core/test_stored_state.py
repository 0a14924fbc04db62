"""A database written before the restructuring of the host (typed MatchState, MatchStatus,
the action table) loads unchanged and its games go on: the stored state JSON is the same.

``tests/support/data/before_restructure.sqlite3`` was written by the service of commit
d77e8c6 (``make_before_restructure.py`` beside it): channel 10 a money game where bob has
typed half a play (a draft), channel 20 a rated match with a play waiting for Confirm,
channel 30 a chouette game with a partner's suggestion for the captain.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from scripted import Script, opened

from bot.config import Config, GameConfig
from bot.service.core.state import MatchState
from bot.service.core.values import Actor, Place
from bot.service.game import GameService

DATA = Path(__file__).resolve().parents[2] / "support" / "data" / "before_restructure.sqlite3"
ALICE, BOB, CAROL = Actor(1, "alice"), Actor(2, "bob"), Actor(3, "carol")


async def service_on_copy(tmp_path: Path, config: Config | None = None) -> GameService:
    copy = tmp_path / "old.sqlite3"
    shutil.copyfile(DATA, copy)
    storage = await opened(copy)
    return GameService(storage, config or Config(), dice=Script([4, 2, 5, 3]))  # type: ignore[arg-type]


async def test_every_stored_state_reads_into_the_typed_state_and_back_unchanged(
        tmp_path: Path) -> None:
    service = await service_on_copy(tmp_path)
    async with service.storage.snapshot() as tx:
        rows = [await tx.open_match_in_channel(c) for c in (10, 20, 30)]
    for row in rows:
        assert row is not None and row.status == "active"
        state = MatchState.from_dict(row.state)
        written = state.to_dict()
        # Every stored key is written back as it was (a missing "hints" reads as off).
        assert {k: written[k] for k in row.state} == row.state
        assert set(written) - set(row.state) <= {"hints"}
        assert MatchState.from_dict(written) == state
    states = [MatchState.from_dict(r.state) for r in rows if r is not None]
    assert states[0].draft is not None and states[0].draft.text == "24/18" and states[0].hints
    assert states[1].pending is not None and states[1].pending.text == "13/11 13/8"
    chouette = states[2].chouette
    assert chouette is not None and chouette.name(3) == "carol"
    assert [s.text for s in chouette.suggestions] == ["double, then 8/5 6/5"]


async def test_the_typed_half_play_is_completed(tmp_path: Path) -> None:
    service = await service_on_copy(tmp_path)
    reply = await service.move(Place(7, 10), BOB, "13/8")
    assert reply.ok, reply.text
    assert "bob plays 24/18 13/8." in reply.text


async def test_the_play_waiting_for_confirm_is_confirmed(tmp_path: Path) -> None:
    service = await service_on_copy(tmp_path, Config(game=GameConfig(auto_confirm=False)))
    reply = await service.confirm(Place(7, 20), CAROL)
    assert reply.ok, reply.text
    assert "carol plays 13/11 13/8." in reply.text


async def test_the_chouette_game_and_its_suggestion_go_on(tmp_path: Path) -> None:
    service = await service_on_copy(tmp_path)
    board = await service.board(Place(7, 30), CAROL)
    assert board.ok, board.text
    status = await service.chouette.status(Place(7, 30), CAROL)
    assert "Game 1: box alice vs captain bob" in status.text
    reply = await service.roll(Place(7, 30), BOB)
    assert reply.ok, reply.text
    assert "Suggestions for the captain bob: carol: double, then 8/5 6/5" in reply.text

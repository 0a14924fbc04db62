"""Issue 42 item 5: ``/stats`` outside servers does not claim that matches are graded
there (a match outside servers is never graded)."""

from __future__ import annotations

from pathlib import Path

from scripted import opened

from bot.config import Config
from bot.service.core.values import Actor, Place
from bot.service.game import GameService

ALICE = Actor(1, "alice")


async def test_dm_stats_says_matches_there_are_not_graded(tmp_path: Path) -> None:
    storage = await opened(tmp_path / "bg.sqlite3")
    service = GameService(storage, Config())  # type: ignore[arg-type]
    reply = await service.stats(Place.direct(50), ALICE)
    assert reply.ok
    (line,) = [line for line in reply.text.splitlines() if line.startswith("PR")]
    assert "matches outside servers are not graded" in line
    assert not line.startswith("PR: no analysed standard match yet (every match is graded")


async def test_server_stats_still_says_where_matches_are_graded(tmp_path: Path) -> None:
    storage = await opened(tmp_path / "bg.sqlite3")
    service = GameService(storage, Config())  # type: ignore[arg-type]
    reply = await service.stats(Place(7, 70), ALICE)
    assert "every match is graded when it ends, where the AI is on" in reply.text

"""Issue 43 (hardening, fourth pass), through the game service on a real SQLite file:
tournament entrants' names bounded where they are stored (item 7), and ``/analyze`` making
puzzles only where they can be played (item 8; the real bgsage AI in this process)."""

from __future__ import annotations

from pathlib import Path

from grading import ALICE, BLUNDER, BOB, OPENING, ok
from scripted import Script, opened
from tournament_play import HALL, ORGANISER, player, row

from bot.ai.runner import AIRunner
from bot.config import Config
from bot.service.core.values import PERSONAL, Actor, Place
from bot.service.game import GameService
from bot.service.tournaments.data import TournamentData
from bot.storage.interface import NAME_LIMIT


async def test_a_tournament_entrants_name_is_bounded_where_it_is_stored(
        tmp_path: Path) -> None:
    storage = await opened(tmp_path / "bg.sqlite3")
    service = GameService(storage, Config(), dice=Script(then="3f1a9c52e7b4d0862b5e"))  # type: ignore[arg-type]
    made = await service.tournament_create(HALL, ORGANISER, is_organiser=True, name="Cup",
                                           format="single-elimination", length="1")
    assert made.ok and made.tournament_id is not None, made.text
    long = Actor(5, "Z" * 5000)
    joined = await service.tournament_join(HALL, long, made.tournament_id)
    assert joined.ok and len(joined.text) < 300, len(joined.text)
    for i in (1, 2, 3):
        assert (await service.tournament_join(HALL, player(i), made.tournament_id)).ok
    stored = TournamentData.from_dict((await row(service, made.tournament_id)).state)
    names = {s.user: s.name for s in stored.entrants}
    assert names[5] == "Z" * NAME_LIMIT and names[1] == "p1"
    started = await service.tournament_start(HALL, ORGANISER, is_organiser=True)
    assert started.ok, started.text
    assert len(started.text) < 2000, len(started.text)  # (was 15,787 characters)
    status = await service.tournament_status(HALL, made.tournament_id)
    assert status.ok and "Z" * NAME_LIMIT in status.text and "Z" * (NAME_LIMIT + 1) not in (
        status.text)


async def test_analyze_in_a_dm_makes_no_puzzle_nobody_could_play(tmp_path: Path) -> None:
    """A DM's match is in the personal scope, where /puzzle answers that puzzles are a
    server's: /analyze there keeps its analysis but makes no puzzle; the same blunder in a
    server's channel makes one."""
    storage = await opened(tmp_path / "bg.sqlite3")
    ai = AIRunner(processes=False, time_limit=20.0)
    try:
        service = GameService(storage, Config(), dice=Script(OPENING * 4), ai=ai)
        for place in (Place.direct(500), Place(7, 70)):
            ok(await service.challenge(place, ALICE, BOB, length=3))
            ok(await service.accept(place, BOB))
            ok(await service.move(place, BOB, BLUNDER))
            ok(await service.resign(place, ALICE, "single"))
            ok(await service.answer_resignation(place, BOB, True))
            analysed = ok(await service.analyze(place, ALICE, 1))
            assert "bob: 1 decision, error rate" in analysed.text
        refused = await service.puzzle(Place.direct(500), ALICE)
        assert not refused.ok and "server" in refused.text
        async with storage.snapshot() as tx:
            assert await tx.puzzle_count(PERSONAL) == 0
            assert await tx.puzzle_count(7) == 1
            assert await tx.next_puzzle(PERSONAL, 99) is None
    finally:
        ai.close()

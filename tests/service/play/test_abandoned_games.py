"""Games their match or session ends around (fuzz findings 6 and 7): ``/stop`` ends a money
session when its next game has only begun, and an organiser's ``/tournament result`` or
``cancel`` closes a pairing's match in play.  Before, that game stayed ``active`` for
ever: its seed never revealed, its record out of reach of ``/verify`` and ``/history``.
Now it is ended without a result: no score, ledger, rating or statistic counts it, its
seed is revealed and ``/verify`` checks the dice it used."""

from __future__ import annotations

import re
from pathlib import Path

from scripted import opened
from tournament_play import HALL, ORGANISER, create, matches, open_all, open_matches, player

from bot.config import Config
from bot.service.core.values import Actor, Place
from bot.service.game import GameService
from bot.storage.interface import GameStatus, MatchStatus

ALICE = Actor(1, "alice")
BOB = Actor(2, "bob")
HERE = Place(guild_id=7, channel_id=70)


async def service_with(tmp_path: Path) -> GameService:
    """Fair dice, from each game's seed as in production, so that /verify can check them."""
    return GameService(await opened(tmp_path / "bg.sqlite3"), Config())


async def test_stop_reveals_the_seed_of_the_game_just_begun(tmp_path: Path) -> None:
    service = await service_with(tmp_path)
    assert (await service.challenge(HERE, ALICE, BOB, stake=5)).ok
    assert (await service.accept(HERE, BOB)).ok
    # Game 1 ends at once: whoever is on roll resigns it and the other accepts.
    resigner, other = ALICE, BOB
    if not (await service.resign(HERE, ALICE, "single")).ok:
        resigner, other = BOB, ALICE
        assert (await service.resign(HERE, BOB, "single")).ok
    ended = await service.answer_resignation(HERE, other, True)
    assert ended.ok and "Game 2 begins" in ended.text, ended.text
    stats_before = await service.stats(HERE, ALICE, ALICE)

    stopped = await service.stop(HERE, BOB)
    assert stopped.ok, stopped.text
    async with service.runner.storage.snapshot() as tx:
        match = await tx.latest_match_in_channel(HERE.channel_id)
        assert match is not None and match.status is MatchStatus.FINISHED
        games = await tx.games_of_match(match.id)
    assert [g.status for g in games] == [GameStatus.FINISHED, GameStatus.FINISHED]
    second = games[1]
    assert second.result is None and second.winner_id is None
    assert second.finished_at is not None
    assert f"Game 2 is not played: its dice seed is {second.seed}" in stopped.text

    verified = await service.verify(HERE, ALICE, 2)
    assert verified.ok and "dice match the seed" in verified.text, verified.text
    history = await service.history(HERE, ALICE, 2)
    assert history.ok and "(not played out" in history.text, history.text
    # Nobody's record counts the game that was not played (the session itself now counts
    # as a match).
    games_line = re.compile(r"games \d+/\d+ won")
    after = (await service.stats(HERE, ALICE, ALICE)).text
    assert games_line.findall(after) == games_line.findall(stats_before.text) == [
        "games 1/1 won" if resigner is BOB else "games 0/1 won"]
    assert "Game 1" in (await service.history(HERE, ALICE, 1)).text


async def test_an_organisers_result_ends_the_game_in_play_and_verify_reaches_it(
        tmp_path: Path) -> None:
    service = await service_with(tmp_path)
    tid = await create(service, 4, "single-elimination", length="3")
    assert (await service.tournament_start(HALL, ORGANISER, is_organiser=True)).ok
    await open_all(service)
    pid, match = sorted((await open_matches(service, tid)).items())[0]
    where = Place(HALL.guild_id, match.channel_id)
    done = await service.tournament_result(HALL, ORGANISER, is_organiser=True, pairing=pid,
                                           winner=match.black_id, reason="no-show agreed")
    assert done.ok, done.text
    decided = (await matches(service, tid))[pid]  # won as by a forfeit (issue 47 item 7)
    assert decided.status is MatchStatus.FINISHED and decided.winner_id == match.black_id
    async with service.runner.storage.snapshot() as tx:
        games = await tx.games_of_match(match.id)
    assert games and all(g.status is GameStatus.FINISHED for g in games)
    assert games[-1].result is None
    verified = await service.verify(where, Actor(match.white_id, "white"))
    assert verified.ok and f"seed {games[-1].seed}" in verified.text, verified.text
    history = await service.history(where, Actor(match.white_id, "white"))
    assert history.ok and "(not played out" in history.text, history.text


async def test_cancelling_the_tournament_ends_every_game_in_play(tmp_path: Path) -> None:
    service = await service_with(tmp_path)
    tid = await create(service, 4, "round-robin", length="3")
    assert (await service.tournament_start(HALL, ORGANISER, is_organiser=True)).ok
    await open_all(service)
    opened_matches = await open_matches(service, tid)
    assert len(opened_matches) == 2
    assert (await service.tournament_cancel(HALL, ORGANISER, is_organiser=True)).ok
    async with service.runner.storage.snapshot() as tx:
        for match in opened_matches.values():
            games = await tx.games_of_match(match.id)
            assert games and all(g.status is GameStatus.FINISHED for g in games)
            assert games[-1].result is None
    assert player(1).id in {m.white_id for m in opened_matches.values()} | {
        m.black_id for m in opened_matches.values()}

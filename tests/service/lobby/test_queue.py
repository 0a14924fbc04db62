"""The matchmaking queue (issue 44 item 2): pairing by the closest rating, the accepted gap
widening with the wait, leaving, timing out, and a pair made once when two processes
sharing one database pair at the same moment (SQLite and PostgreSQL)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from backends import Backend
from backends import backend as backend_named
from clock_time import HERE, Time
from scripted import Script, opened

from bot.config import Config
from bot.service.core.replies import plain
from bot.service.core.values import Actor, Place
from bot.service.game import GameService
from bot.service.lobby.queue import Wanted
from bot.storage.interface import MatchStatus

PLAYERS = {name: Actor(i, name) for i, name in enumerate(
    ["ann", "ben", "cat", "dan", "eve"], start=11)}
OTHER = Place(7, 71)


def service_on(storage: Any, time: Time) -> GameService:
    return GameService(storage, Config(), dice=Script([3, 1], then="0123456789abcdef"),
                       clock=time)


async def rate(service: GameService, name: str, rating: float) -> None:
    """``name``'s rating in the server (as rated matches would have left it)."""
    actor = PLAYERS[name]
    async with service.storage.transaction() as tx:
        await tx.upsert_user(actor.id, actor.name, False)
    db = service.storage.db  # type: ignore[attr-defined]
    await db.execute("INSERT INTO ratings (guild_id, user_id, rating, experience) "
                     "VALUES (?, ?, ?, 10)", (HERE.guild_id, actor.id, rating))
    await db.commit()


async def players_of(service: GameService) -> list[tuple[int, int, MatchStatus]]:
    async with service.storage.snapshot() as tx:
        rows = await tx.matches_in_channel(HERE.channel_id)
        rows += await tx.matches_in_channel(OTHER.channel_id)
    return [(r.white_id, r.black_id, r.status) for r in rows]


async def test_closest_ratings_first_and_the_gap_widens(tmp_path: Path) -> None:
    time = Time()
    service = service_on(await opened(tmp_path / "q.sqlite3"), time)
    for name, rating in (("ann", 1500), ("ben", 1800), ("cat", 1560)):
        await rate(service, name, rating)
    joined = await service.queue.join(HERE, PLAYERS["ann"], Wanted(length=3))
    assert joined.ok and "You are in the queue for a 3-point match of standard" in joined.text
    assert "0 other players wait for the same" in joined.text
    assert (await service.queue.join(OTHER, PLAYERS["ben"], Wanted(length=3))).ok
    again = await service.queue.join(HERE, PLAYERS["ann"])
    assert not again.ok and "already in the queue" in again.text
    assert await service.due_work() == []  # 300 apart: more than 100 at once
    time.at(30)
    assert (await service.queue.join(OTHER, PLAYERS["cat"], Wanted(length=3))).ok
    posts = await service.due_work()  # ann and cat are 60 apart: paired first
    assert len(posts) == 1
    channel, reply = posts[0]
    assert channel == OTHER.channel_id  # where the later of the two joined
    head = "".join(p if isinstance(p, str) else f"@{p.user_id}" for p in reply.notify[0])
    assert head == (f"Paired from the queue: @{PLAYERS['ann'].id} (1500) and "
                    f"@{PLAYERS['cat'].id} (1560), a 3-point match of standard, rated.")
    assert "cat accepts." in reply.text and reply.boards
    assert await players_of(service) == [(PLAYERS["ann"].id, PLAYERS["cat"].id,
                                          MatchStatus.ACTIVE)]
    status = await service.queue.status(HERE, PLAYERS["ben"])
    assert "1 player waits in the queue:\n- 1 for a 3-point match of standard, rated" in (
        status.text)
    assert "you accept a rating gap of 125 now" in status.text  # 100 + 50 a minute


async def test_different_terms_are_not_paired_and_leaving(tmp_path: Path) -> None:
    time = Time()
    service = service_on(await opened(tmp_path / "q.sqlite3"), time)
    assert (await service.queue.join(HERE, PLAYERS["ann"], Wanted(length=3))).ok
    assert (await service.queue.join(OTHER, PLAYERS["ben"], Wanted(length=5))).ok
    assert (await service.queue.join(OTHER, PLAYERS["cat"],
                                     Wanted(length=3, rated=False))).ok
    assert await service.due_work() == []
    left = await service.queue.leave(HERE, PLAYERS["ann"])
    assert left.ok and "You left the queue" in left.text
    gone = await service.queue.leave(HERE, PLAYERS["ann"])
    assert not gone.ok and "You are not in the queue" in gone.text
    bad = await service.queue.join(HERE, PLAYERS["dan"], Wanted(length=0, clock="usbgf"))
    assert not bad.ok and "money play has no length" in bad.text
    dm = await service.queue.join(Place.direct(5), PLAYERS["dan"])
    assert not dm.ok and "challenge the other person by name" in dm.text


async def test_nobody_found_in_time_leaves_the_queue_once(tmp_path: Path) -> None:
    time = Time()
    service = service_on(await opened(tmp_path / "q.sqlite3"), time)
    assert (await service.queue.join(HERE, PLAYERS["ann"])).ok
    time.at(60 * 60)
    posts = await service.due_work()
    assert len(posts) == 1 and posts[0][0] == HERE.channel_id
    line = "".join(p if isinstance(p, str) else "@" for p in posts[0][1].notify[0])
    assert line.startswith("@, nobody was found for you in 1 hour")
    assert await service.due_work() == []
    assert not (await service.queue.leave(HERE, PLAYERS["ann"])).ok


@pytest.fixture(params=["sqlite", "postgres"])
async def backend(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Backend]:
    async with backend_named(request.param, tmp_path) as b:
        yield b


async def test_two_processes_pair_once(backend: Backend) -> None:
    time = Time()
    a = service_on(await backend.open(), time)
    b = service_on(await backend.open(), time)
    assert (await a.queue.join(HERE, PLAYERS["ann"])).ok
    assert (await b.queue.join(OTHER, PLAYERS["ben"])).ok
    found = await asyncio.gather(a.due_work(), b.due_work(), a.due_work())
    posts = [p for each in found for p in each]
    assert len(posts) == 1, posts
    assert await players_of(a) == [(PLAYERS["ann"].id, PLAYERS["ben"].id, MatchStatus.ACTIVE)]
    assert await a.due_work() == [] and await b.due_work() == []


async def test_the_lobby_lists_open_challenges_and_the_queue(tmp_path: Path) -> None:
    time = Time()
    service = service_on(await opened(tmp_path / "q.sqlite3"), time)
    empty = await service.queue.lobby(HERE, PLAYERS["eve"])
    assert empty.ok and empty.ephemeral
    text = "\n".join(plain(line) for line in empty.notify)
    assert "No open challenge: /challenge without an opponent posts one." in text
    assert "Nobody is waiting in the queue: /queue join starts it." in text
    assert (await service.challenge(HERE, PLAYERS["ann"], None, length=5, clock="usbgf",
                                    low=1400)).ok
    assert (await service.queue.join(OTHER, PLAYERS["ben"], Wanted(length=7))).ok
    shown = await service.queue.lobby(HERE, PLAYERS["eve"])
    text = "\n".join(plain(line) for line in shown.notify)
    assert ("- ann: a 5-point match of standard (clock usbgf, rated, ratings 1400 to any), "
            f"Accept in #{HERE.channel_id}, expires in 30 minutes") in text, text
    assert "1 player waits in the queue:\n- 1 for a 7-point match of standard, rated" in text
    dm = await service.queue.lobby(Place.direct(5), PLAYERS["eve"])
    assert not dm.ok and "The lobby" in dm.text


async def test_nobody_found_plays_the_bot_when_asked(tmp_path: Path) -> None:
    from bot.ai.runner import AIRunner

    time = Time()
    runner = AIRunner(processes=False, time_limit=20.0)
    await runner.start()
    try:
        service = GameService(await opened(tmp_path / "q.sqlite3"), Config(), ai=runner,
                              clock=time)
        service.set_ai_user(99, "gnubot")
        late = await service.queue.join(HERE, PLAYERS["ann"], Wanted(length=1, bot_after=60))
        assert not late.ok and "less than 60" in late.text
        assert (await service.queue.join(HERE, PLAYERS["ann"], Wanted(length=1,
                                                                      bot_after=2))).ok
        time.at(60)
        assert await service.due_work() == []
        time.at(120)
        posts = await service.due_work()
        assert len(posts) == 1 and posts[0][0] == HERE.channel_id
        line = "".join(p if isinstance(p, str) else "@" for p in posts[0][1].notify[0])
        assert line == ("@, nobody was found for you in 2 minutes: you play me (the bot), "
                        "unrated, as you asked.")
        async with service.storage.snapshot() as tx:
            row = await tx.open_match_in_channel(HERE.channel_id)
        assert row is not None and row.status is MatchStatus.ACTIVE and not row.rated
        assert {row.white_id, row.black_id} == {PLAYERS["ann"].id, 99}
        assert await service.due_work() == []
    finally:
        runner.close()


async def test_no_bot_no_fallback(tmp_path: Path) -> None:
    service = service_on(await opened(tmp_path / "q.sqlite3"), Time())
    reply = await service.queue.join(HERE, PLAYERS["ann"], Wanted(bot_after=5))
    assert not reply.ok and "The bot doesn't play on this server" in reply.text


async def test_the_servers_queue_channel_is_where_pairings_start(tmp_path: Path) -> None:
    """Issue 44 item 2: the match starts in the channel the server chose (/settings
    queue_channel), else where the later player joined; when a game is on there already,
    where the later player joined."""
    time = Time()
    service = service_on(await opened(tmp_path / "q.sqlite3"), time)
    arena = Place(7, 79)
    set_it = await service.settings_set(HERE, PLAYERS["eve"], "queue_channel", "79",
                                        manage_server=True)
    assert set_it.ok, set_it.text
    assert (await service.queue.join(HERE, PLAYERS["ann"], Wanted(length=3))).ok
    assert (await service.queue.join(OTHER, PLAYERS["ben"], Wanted(length=3))).ok
    ((channel, reply),) = await service.due_work()
    assert channel == arena.channel_id and "ben accepts." in reply.text
    async with service.storage.snapshot() as tx:
        row = await tx.latest_match_in_channel(arena.channel_id)
    assert row is not None and (row.white_id, row.black_id) == (PLAYERS["ann"].id,
                                                                PLAYERS["ben"].id)
    # The arena is busy: the next pair plays where the later of them joined.
    assert (await service.queue.join(HERE, PLAYERS["cat"], Wanted(length=3))).ok
    assert (await service.queue.join(OTHER, PLAYERS["dan"], Wanted(length=3))).ok
    ((channel, reply),) = await service.due_work()
    assert channel == OTHER.channel_id and "dan accepts." in reply.text

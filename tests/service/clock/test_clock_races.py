"""Clock races on SQLite and PostgreSQL, two processes sharing one database (issue 44 item
5): a flag fall is posted once, a flag fall racing a move is decided once by the time of
the transaction, and the time nobody kept is given back once."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from backends import Backend
from backends import backend as backend_named
from clock_time import ALICE, BOB, HERE, OPENING, Time, clock_of, status
from scripted import Script

from bot.config import Config
from bot.service.game import GameService
from bot.storage.interface import MatchStatus


@pytest.fixture(params=["sqlite", "postgres"])
async def backend(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Backend]:
    async with backend_named(request.param, tmp_path) as b:
        yield b


async def two(backend: Backend, time: Time) -> tuple[GameService, GameService]:
    """Two processes on one database (each its own storage, locks and caches)."""
    def one(storage: Any) -> GameService:
        return GameService(storage, Config(), dice=Script(OPENING, then="0123456789abcdef"),
                           clock=time)
    return one(await backend.open()), one(await backend.open())


async def beats(services: tuple[GameService, ...], time: Time, until: float) -> None:
    """Both timers beat every half second (looking at no flag) until ``until``."""
    while time.seconds < until:
        time.at(min(until, time.seconds + 0.5))
        for service in services:
            await service.clocks.beat(int(time.now.timestamp() * 1000))


async def begin(backend: Backend, time: Time) -> tuple[GameService, GameService]:
    a, b = await two(backend, time)
    await a.clocks.beat(int(time.now.timestamp() * 1000))
    assert (await a.challenge(HERE, ALICE, BOB, length=3, clock="1s+4s/pt")).ok
    assert (await b.accept(HERE, BOB)).ok
    return a, b


async def test_two_timers_post_a_fall_once(backend: Backend) -> None:
    time = Time()
    a, b = await begin(backend, time)
    await beats((a, b), time, 13.5)  # alice's flag fell at 13 s
    found = await asyncio.gather(a.due_work(), b.due_work(), a.due_work())
    posts = [p for each in found for p in each]
    assert len(posts) == 1 and "alice's time ran out" in posts[0][1].text
    assert await status(a) == (MatchStatus.FINISHED, BOB.id)


@pytest.mark.parametrize("seconds", [13.5, 12.5])
async def test_a_move_racing_the_timer_is_decided_once_by_the_time(
        backend: Backend, seconds: float) -> None:
    time = Time()
    a, b = await begin(backend, time)
    await beats((a, b), time, seconds)
    moved, posts = await asyncio.gather(a.move(HERE, ALICE, "8/5 6/5"), b.due_work())
    if seconds > 13:  # after the fall: the match is lost on time, once, the move not played
        texts = [r.text for _, r in posts] + ([moved.text] if moved.ok else [])
        assert sum("alice's time ran out" in t for t in texts) == 1
        assert not any("alice plays" in t for t in texts)
        assert await status(a) == (MatchStatus.FINISHED, BOB.id)
    else:  # before it: the move is played and nobody's flag falls
        assert moved.ok and "alice plays 8/5 6/5" in moved.text, moved.text
        assert posts == []
        assert (await clock_of(a)).white_ms == 500
        assert await status(a) == (MatchStatus.ACTIVE, None)


async def test_the_time_nobody_kept_is_given_back_once(backend: Backend) -> None:
    time = Time()
    a, b = await begin(backend, time)
    await beats((a,), time, 2)  # alice has used 2 s
    time.at(60)  # both processes were down
    await asyncio.gather(a.due_work(), b.due_work())  # both beat at once: one pause
    time.at(60.5)
    moved = await b.move(HERE, ALICE, "8/5 6/5")
    assert moved.ok, moved.text
    assert (await clock_of(b)).white_ms == 12_000 - 1_500  # 2.5 s used, less the delay

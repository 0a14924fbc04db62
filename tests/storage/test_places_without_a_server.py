"""Places without a server in both backends (issue 32 item 3, migration 0007).

A match in a DM or a group DM is stored with the personal scope (guild_id 0) and its
``place_kind``; the database refuses a row whose kind and scope disagree.  The same
guarantees as a server's channel, on SQLite (a file) and PostgreSQL (a new database on the
session's throwaway server; skipped with the reason without one): racing presses of one
button in a DM apply once, across two services on separate storages; a bot started again
on the same database plays on in the DM, and its reminders still leave the DM alone.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from backends import Backend
from backends import backend as backend_named
from race_table import DICE, ScriptedDice

from bot.config import Config
from bot.service.core.values import PERSONAL, Actor, Expect, Place
from bot.service.game import GameService
from bot.storage.core.sql import migrations

ALICE = Actor(21, "alice")
BOB = Actor(22, "bob")
DM = Place.direct(8101)
GROUP = Place.direct(8102, group=True)


@pytest.fixture(params=["sqlite", "postgres"])
async def backend(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Backend]:
    async with backend_named(request.param, tmp_path) as b:
        yield b


def service_on(storage: Any) -> GameService:
    return GameService(storage, Config(), dice=ScriptedDice)


async def test_a_dm_match_is_stored_with_its_kind_and_the_personal_scope(
        backend: Backend) -> None:
    storage = await backend.open()
    service = service_on(storage)
    for place in (DM, GROUP):
        assert (await service.challenge(place, ALICE, BOB, length=3)).ok
    async with storage.snapshot() as tx:
        dm = await tx.open_match_in_channel(DM.channel_id)
        group = await tx.open_match_in_channel(GROUP.channel_id)
    assert dm is not None and (dm.guild_id, dm.place_kind) == (PERSONAL, "dm")
    assert group is not None and (group.guild_id, group.place_kind) == (PERSONAL, "group_dm")


@pytest.mark.parametrize(("guild", "kind"), [(5, "dm"), (PERSONAL, "server"), (5, "nowhere")])
async def test_the_database_refuses_a_kind_that_disagrees_with_the_scope(
        backend: Backend, guild: int, kind: str) -> None:
    storage = await backend.open()
    async with storage.transaction() as tx:
        await tx.upsert_user(1, "a", False)
        await tx.upsert_user(2, "b", False)
    with pytest.raises(Exception) as caught:
        async with storage.transaction() as tx:
            await tx.insert_match(guild_id=guild, channel_id=1, white_id=1, black_id=2,
                                  variant="standard", rules={}, length=1, stake=0,
                                  rated=True, status="challenged", place_kind=kind)
    assert "check" in f"{type(caught.value).__name__} {caught.value}".lower()
    async with storage.snapshot() as tx:
        assert await tx.latest_match_in_channel(1) is None


@pytest.mark.parametrize("place", [DM, GROUP], ids=["dm", "group-dm"])
async def test_racing_presses_in_a_dm_apply_once(backend: Backend, place: Place) -> None:
    """Two bot processes (two storages, separate pools) get the same button pressed
    several times at once: one press applies, the others are refused (moved on)."""
    services = [service_on(await backend.open()) for _ in range(2)]
    assert (await services[0].challenge(place, ALICE, BOB, length=3)).ok
    accepted = await services[1].accept(place, BOB)
    assert accepted.ok and accepted.version is not None  # opening 3-1: alice to play
    expect = Expect(accepted.version)
    replies = await asyncio.gather(*(
        services[i % 2].move(place, ALICE, "8/5 6/5", expect=expect) for i in range(6)))
    ok = [r for r in replies if r.ok]
    assert len(ok) == 1, [r.text for r in replies]
    assert all("moved on" in r.text for r in replies if not r.ok)
    async with services[0].storage.snapshot() as tx:
        row = await tx.open_match_in_channel(place.channel_id)
    assert row is not None and row.version == accepted.version + 1
    # The next player's roll, pressed twice at once on both processes: once.
    rolls = await asyncio.gather(*(services[i % 2].roll(place, BOB, Expect(row.version))
                                   for i in range(4)))
    assert sum(r.ok for r in rolls) == 1, [r.text for r in rolls]


async def test_a_bot_started_again_plays_on_in_the_dm(backend: Backend) -> None:
    first = service_on(await backend.open())
    assert (await first.challenge(DM, ALICE, BOB, length=1)).ok
    assert (await first.accept(DM, BOB)).ok
    assert (await first.move(DM, ALICE, "8/5 6/5")).ok
    before = await first.board(DM, ALICE)
    await backend.close_all()  # the bot stops

    again = service_on(await backend.open())
    board = await again.board(DM, BOB)
    assert board.ok and board.version == before.version
    rolled = await again.roll(DM, BOB)
    assert rolled.ok, rolled.text
    assert f"{DICE[2]}-{DICE[3]}" in rolled.text, rolled.text
    # Two days later the restarted bot reminds nobody in a DM and no one claims there.
    later = again.runner.clock() + timedelta(days=2)
    again.runner.clock = lambda: later
    assert await again.due_reminders() == []
    assert not (await again.claim(DM, ALICE)).ok
    forfeit = await again.forfeit(DM, ALICE)
    assert forfeit.ok, forfeit.text
    async with again.storage.snapshot() as tx:
        row = await tx.latest_match_in_channel(DM.channel_id)
        assert row is not None and row.status == "finished" and row.winner_id == BOB.id
        assert (await tx.rating(PERSONAL, BOB.id)).experience > 0


async def test_migration_0007_keeps_the_matches_stored_before_as_servers(
        backend: Backend) -> None:
    """A database at 0006 with a server's match in it: 0007 adds ``place_kind``, the old
    match is a server's, and the constraint holds from then on."""
    storage = await backend.open()
    service = service_on(storage)
    server = Place(5, 8201)
    assert (await service.challenge(server, ALICE, BOB, length=1)).ok
    # Back to the 0006 schema, the row kept (the later migrations' tables dropped too).
    rollback = ("DROP TABLE match_queue; DROP TABLE match_clocks; DROP TABLE clock_beat; "
                "DROP INDEX matches_personal_user; "
                "ALTER TABLE matches DROP COLUMN place_kind; "
                "DELETE FROM schema_version WHERE version >= 7")
    if backend.name == "sqlite":
        await storage.db.executescript(rollback)
        await storage.db.commit()
    else:
        await storage.pool.execute(rollback)
    await backend.close_all()

    storage = await backend.open()
    assert await storage.schema_version() == len(migrations())
    async with storage.snapshot() as tx:
        row = await tx.open_match_in_channel(server.channel_id)
    assert row is not None and (row.guild_id, row.place_kind) == (5, "server")
    service = service_on(storage)
    assert (await service.accept(server, BOB)).ok  # and it plays on
    assert (await service.challenge(DM, ALICE, BOB, length=1)).ok

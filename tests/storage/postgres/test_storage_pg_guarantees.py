"""What the storage guarantees under concurrency and failures, on both backends (issue 21).

Each test runs on SQLite (a file, several connections) and on PostgreSQL (a new
database on the session's throwaway server, tests/pg.py) where it applies;
the PostgreSQL runs are skipped with the reason when no server can be started.

* rated games with a player in common ending at once in several channels, through
  two or three services on separate storages (separate pools): no lost rating
  update, the rating history chains, no deadlock or "moved on" refusal;
* two new users challenging each other in two channels at once: both challenges
  are stored (no deadlock escapes);
* a stake, points and amounts of 2**31 are stored; 2**63 is refused the same way on
  both backends; the PostgreSQL migration 0002 widens the columns keeping the rows;
* a NUL (and other characters text cannot hold) in a display name;
* ``run`` retries a deadlock; a lock held by another session ends in StorageBusy
  after ``lock_timeout``; a pool with no free connection in StorageBusy after
  ``acquire_timeout``; a connection limit of 2 on the server makes callers wait;
* a connection lost during COMMIT is never retried, and the player's retried
  button is refused by the version check (the action applied once).

The server restart and the cross-process tests are in
tests/storage/postgres/test_storage_pg_restart.py.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import uuid
from collections.abc import AsyncIterator, Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pg
import pytest
from backends import Backend
from backends import backend as backend_named

from bot.config import Config
from bot.service.core.values import Actor, Expect, Place
from bot.service.game import GameService
from bot.storage.interface import (
    INT64_MAX,
    AmountOutOfRange,
    LedgerEntry,
    RetryableConflict,
    StaleVersionError,
    StorageBusy,
    StorageCommitUnknown,
    Transaction,
)

GUILD = 3


@pytest.fixture(params=["sqlite", "postgres"])
async def backend(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Backend]:
    async with backend_named(request.param, tmp_path) as b:
        yield b


def _history_chains(history: list[tuple[float, float]], final: float) -> None:
    """Each rating change starts where the one before ended, and the last is the rating."""
    for (_, after), (before, _) in itertools.pairwise(history):
        assert before == after, history
    assert history and history[-1][1] == final, (history, final)


async def _rated_matches(service: GameService, pairs: list[tuple[int, Actor, Actor]]) -> None:
    """A rated 1-point match in each (channel, white, black), accepted."""
    for channel, white, black in pairs:
        reply = await service.challenge(Place(GUILD, channel), white, black, length=1)
        assert reply.ok, reply.text
        reply = await service.accept(Place(GUILD, channel), black)
        assert reply.ok, reply.text


# ------------------------------------------------------------ items 1 and 2: races


@pytest.mark.parametrize("services", [2, 3])
async def test_rated_games_ending_at_once_lose_no_rating_update(backend: Backend,
                                                                services: int) -> None:
    """Alice plays in every channel; the games end together through ``services`` services
    on separate storages.  Half of them alice loses, so two games between the same pair
    end with crossed winners (the opposite lock order without a global order)."""
    storages = [await backend.open() for _ in range(services)]
    games = [GameService(s, Config()) for s in storages]
    alice = Actor(1, "alice")
    rounds, per_round = 4, 2 * services
    bob = Actor(2, "bob")
    for r in range(rounds):
        channels = [1000 + r * 100 + i for i in range(per_round)]
        # every other channel against bob (the crossed pair), the rest against new players
        opponents = [bob if i % 2 else Actor(100 + r * 100 + i, f"p{r}-{i}")
                     for i in range(per_round)]
        await _rated_matches(games[0], [(c, alice, o) for c, o in zip(channels, opponents,
                                                                       strict=True)])
        losers = [o if i % 4 < 2 else alice for i, o in enumerate(opponents)]
        replies = await asyncio.gather(*(
            games[i % services].forfeit(Place(GUILD, c), loser)
            for i, (c, loser) in enumerate(zip(channels, losers, strict=True))),
            return_exceptions=True)
        assert all(getattr(r, "ok", False) for r in replies), replies
    async with storages[-1].transaction() as tx:
        for user in (alice, bob):
            history = await tx.rating_history(GUILD, user.id)
            row = await tx.rating(GUILD, user.id)
            _history_chains(history, row.rating)
            expected = rounds * per_round if user is alice else rounds * per_round // 2
            assert len(history) == expected and row.experience == expected


async def test_new_users_challenging_each_other_in_two_channels(backend: Backend) -> None:
    """Item 2: both challenges are stored; no deadlock escapes, nothing is refused."""
    storages = [await backend.open(), await backend.open()]
    games = [GameService(s, Config()) for s in storages]
    for r in range(15):
        a, b = Actor(5000 + 2 * r, f"a{r}"), Actor(5001 + 2 * r, f"b{r}")
        one, two = Place(GUILD, 7000 + 2 * r), Place(GUILD, 7001 + 2 * r)
        replies = await asyncio.gather(games[0].challenge(one, a, b, length=1),
                                       games[1].challenge(two, b, a, length=1),
                                       return_exceptions=True)
        assert all(getattr(r, "ok", False) for r in replies), replies


async def test_run_retries_a_deadlock(backend: Backend) -> None:
    """Two transactions locking two rows in opposite orders: PostgreSQL aborts one,
    ``run`` runs it again, both apply (SQLite serialises them: no deadlock at all)."""
    storage = await backend.open()
    other = await backend.open()
    await storage.run(_users(1, 2))
    both = asyncio.Barrier(2)
    attempts: list[int] = []

    def cross(first: int, second: int) -> Callable[[Transaction], Any]:
        async def work(tx: Transaction) -> int:
            attempts.append(first)
            await tx.upsert_user(first, f"renamed{first}-{len(attempts)}")
            if len(attempts) <= 2:
                try:
                    await asyncio.wait_for(both.wait(), 1.0)  # SQLite: the other waits
                except TimeoutError:
                    pass
            await tx.upsert_user(second, f"renamed{second}-{len(attempts)}")
            return first
        return work

    results = await asyncio.gather(storage.run(cross(1, 2)), other.run(cross(2, 1)))
    assert sorted(results) == [1, 2]
    if backend.name == "postgres":
        assert len(attempts) == 3  # one of them ran twice


def _users(*ids: int) -> Callable[[Transaction], Any]:
    async def work(tx: Transaction) -> None:
        for user in ids:
            await tx.upsert_user(user, f"user{user}")
    return work


async def test_a_rating_changed_under_a_reader_is_a_retryable_conflict(
        backend: Backend) -> None:
    """The safety net under lock_players: a write of a rating read before another
    transaction changed it is refused (RetryableConflict), not applied over it."""
    from bot.storage.interface import RatingRow

    storage = await backend.open()
    await storage.run(_users(1, 2))

    async def match(tx: Transaction) -> int:
        row = await tx.insert_match(guild_id=GUILD, channel_id=1, white_id=1, black_id=2,
                                    variant="standard", rules={}, length=1, stake=0,
                                    rated=True, status="finished")
        return row.id
    match_id = await storage.run(match)

    async def rate(tx: Transaction) -> None:
        await tx.set_rating(RatingRow(GUILD, 1, 1510.0, 1), match_id=match_id, before=1500.0)
    await storage.run(rate)
    with pytest.raises(RetryableConflict):
        async with storage.transaction() as tx:
            await rate(tx)  # read as 1500, but it is 1510 now
            await tx.get_user(1)  # SQLite: the deferred check goes out here

    async def read_then_rate(tx: Transaction) -> None:  # what run() re-runs on a conflict
        row = await tx.rating(GUILD, 1)
        await tx.set_rating(RatingRow(GUILD, 1, row.rating + 10, row.experience + 1),
                            match_id=match_id, before=row.rating)
    await storage.run(read_then_rate)
    async with storage.transaction() as tx:
        assert (await tx.rating(GUILD, 1)).rating == 1520.0
        assert await tx.rating_history(GUILD, 1) == [(1500.0, 1510.0), (1510.0, 1520.0)]


# ------------------------------------------------------------ item 3: 64-bit money


async def test_stake_points_and_amount_of_2_31_are_stored(backend: Backend) -> None:
    storage = await backend.open()
    await storage.run(_users(1, 2))
    big = 2**31

    async def write(tx: Transaction) -> int:
        row = await tx.insert_match(guild_id=GUILD, channel_id=1, white_id=1, black_id=2,
                                    variant="standard", rules={}, length=0, stake=big,
                                    rated=False, status="active")
        await tx.add_ledger([LedgerEntry(GUILD, 1, big, big * big, row.id),
                             LedgerEntry(GUILD, 2, -big, -big * big, row.id)])
        return row.id

    match_id = await storage.run(write)
    async with storage.transaction() as tx:
        row = await tx.get_match(match_id)
        assert row is not None and row.stake == big
        assert await tx.balance(GUILD, 1) == big * big
        board = await tx.leaderboard(GUILD, "money", 10, 0)
        assert [e["balance"] for e in board] == [big * big, -big * big]


async def test_a_ledger_row_keeps_a_fraction_of_a_point_exactly(backend: Backend) -> None:
    """Issue 30 item 1 (000 'CHOUETTE': a forfeited stake shared equally): points -5/2
    and -1/3 are stored and read back exactly (migration 0006), on both backends."""
    storage = await backend.open()
    await storage.run(_users(1, 2, 3))

    async def write(tx: Transaction) -> int:
        crow = await tx.insert_chouette(guild_id=GUILD, channel_id=9, rules={}, state={})
        await tx.add_ledger([LedgerEntry(GUILD, 1, Fraction(17, 6), 3, chouette_id=crow.id),
                             LedgerEntry(GUILD, 2, Fraction(-5, 2), -2, chouette_id=crow.id),
                             LedgerEntry(GUILD, 3, Fraction(-1, 3), -1, chouette_id=crow.id),
                             LedgerEntry(GUILD, 2, 1, 1, chouette_id=crow.id)])
        return crow.id

    chouette = await storage.run(write)
    async with storage.transaction() as tx:
        assert await tx.chouette_points(chouette) == {
            1: Fraction(17, 6), 2: Fraction(-3, 2), 3: Fraction(-1, 3)}
        assert await tx.chouette_totals(chouette) == {1: 3, 2: -1, 3: -1}


async def test_values_beyond_64_bits_are_refused_alike(backend: Backend) -> None:
    storage = await backend.open()
    await storage.run(_users(1, 2))

    async def too_big(tx: Transaction) -> None:
        await tx.add_ledger([LedgerEntry(GUILD, 1, 2, INT64_MAX + 1)])

    with pytest.raises(AmountOutOfRange, match="amount"):
        await storage.run(too_big)

    async def stake(tx: Transaction) -> None:
        await tx.insert_match(guild_id=GUILD, channel_id=1, white_id=1, black_id=2,
                              variant="standard", rules={}, length=0, stake=2**63,
                              rated=False, status="active")

    with pytest.raises(AmountOutOfRange, match="stake"):
        await storage.run(stake)
    async with storage.transaction() as tx:
        assert await tx.balance(GUILD, 1) == 0


async def test_postgres_migration_0002_widens_the_columns_and_keeps_the_rows(
        pg_url: str) -> None:
    import asyncpg

    from bot.storage.postgres import PostgresStorage, pg_migrations

    storage = PostgresStorage(pg_url, pool_size=2)
    await storage.open()
    await storage.run(_users(1, 2))
    await storage.close()
    conn = await asyncpg.connect(pg_url)
    try:  # back to the 0001 schema, with rows in it
        await conn.execute("ALTER TABLE matches ALTER COLUMN stake TYPE INTEGER; "
                           "ALTER TABLE ledger ALTER COLUMN points TYPE INTEGER; "
                           "DELETE FROM schema_version WHERE version = 2")
        await conn.execute(
            "INSERT INTO matches (guild_id, channel_id, white_id, black_id, variant, rules, "
            "stake, status, created_at, updated_at) VALUES (3, 1, 1, 2, 'standard', '{}', "
            "2147483647, 'active', 'x', 'x')")
        await conn.execute("INSERT INTO ledger (guild_id, user_id, points, amount, created_at) "
                           "VALUES (3, 1, -2147483648, 5, 'x')")
        with pytest.raises(asyncpg.NumericValueOutOfRangeError):  # today's failure
            await conn.execute("UPDATE matches SET stake = 2147483648")
    finally:
        await conn.close()
    storage = PostgresStorage(pg_url, pool_size=2)
    await storage.open()
    try:
        assert await storage.schema_version() == len(pg_migrations())
        types = {r["column_name"]: r["data_type"] for r in await storage.pool.fetch(
            "SELECT column_name, data_type FROM information_schema.columns "
            "WHERE (table_name, column_name) IN (('matches', 'stake'), ('ledger', 'points'), "
            "('ledger', 'amount'))")}
        assert types == {"stake": "bigint", "points": "bigint", "amount": "bigint"}
        assert await storage.pool.fetchval("SELECT stake FROM matches") == 2**31 - 1
        assert await storage.pool.fetchval("SELECT points FROM ledger") == -(2**31)
    finally:
        await storage.close()


# ------------------------------------------------------------ item 4: names


async def test_names_are_cleaned_alike_at_the_storage_boundary(backend: Backend) -> None:
    storage = await backend.open()

    async def write(tx: Transaction) -> None:
        await tx.upsert_user(1, "ev\x00e")
        await tx.upsert_user(2, "\x00")
        await tx.upsert_user(3, "bad\ud800half\nline")
        await tx.upsert_user(4, "x" * 150)

    await storage.run(write)
    async with storage.transaction() as tx:
        names = [(await tx.get_user(i)) for i in (1, 2, 3, 4)]
    assert [u.name if u else None for u in names] == [
        "eve", "2", "bad\ufffdhalf line", "x" * 100]


async def test_a_nul_in_a_display_name_does_not_block_play(backend: Backend) -> None:
    """Issue 21 item 4: every command by or naming the user worked on SQLite only."""
    storage = await backend.open()
    service = GameService(storage, Config())
    eve, bob = Actor(11, "ev\x00e"), Actor(12, "bob")
    place = Place(GUILD, 42)
    for reply in (await service.challenge(place, eve, bob, length=1),
                  await service.accept(place, bob),
                  await service.forfeit(place, eve)):
        assert reply.ok, reply.text
    board = await service.leaderboard(Place(GUILD, 43), bob)
    assert board.ok and "eve" in board.text


# ------------------------------------------------------------ items 6 and 7: bounds


async def test_a_lock_held_by_another_session_answers_busy(backend: Backend) -> None:
    """Item 7: the game's lock (PostgreSQL: the channel's advisory lock; SQLite: the
    file's write lock) held by a stuck session: StorageBusy after lock_timeout."""
    storage = await backend.open(lock_timeout=0.3)
    await storage.run(_users(1))
    await storage.run(lambda tx: tx.lock_players(GUILD, [1]))  # the rating row exists
    held = asyncio.Event()
    done = asyncio.Event()

    async def stuck() -> None:
        if backend.name == "postgres":
            import asyncpg

            conn = await asyncpg.connect(backend.url)
            try:
                async with conn.transaction():
                    await conn.execute("SELECT pg_advisory_xact_lock(77)")
                    await conn.execute("SELECT 1 FROM ratings WHERE user_id = 1 FOR UPDATE")
                    held.set()
                    await done.wait()
            finally:
                await conn.close()
        else:
            other = await backend.open()
            async with other.transaction() as tx:
                await tx.get_user(1)  # BEGIN IMMEDIATE has gone out: the write lock
                held.set()
                await done.wait()

    holder = asyncio.create_task(stuck())
    await held.wait()
    try:
        async def write(tx: Transaction) -> None:
            await tx.upsert_user(9, "late")
            await tx.get_user(9)  # SQLite: the deferred BEGIN goes out here

        async def rate(tx: Transaction) -> None:
            await tx.lock_players(GUILD, [1])  # the row lock (PostgreSQL)
            await tx.get_user(1)

        with pytest.raises(StorageBusy, match="busy"):
            await storage.run(write, lock_channel=77)
        with pytest.raises(StorageBusy, match="busy"):
            await storage.run(rate)
        if backend.name == "postgres":  # the existing service path waits the same bound
            with pytest.raises(StorageBusy):
                async with storage.transaction() as tx:
                    await tx.open_match_in_channel(77)
    finally:
        done.set()
        await holder
    await storage.run(write, lock_channel=77)  # free again


async def test_no_free_connection_within_acquire_timeout_answers_busy(
        backend: Backend) -> None:
    """Item 6: a caller waits for a connection, and is told to try again when none
    frees up within ``acquire_timeout``."""
    storage = await backend.open(pool_size=1, acquire_timeout=0.3) \
        if backend.name == "postgres" else await backend.open(acquire_timeout=0.3)
    inside = asyncio.Event()
    release = asyncio.Event()

    async def hold(tx: Transaction) -> str:
        await tx.get_user(1)
        inside.set()
        await release.wait()
        return "held"

    holder = asyncio.create_task(storage.run(hold))
    await inside.wait()
    with pytest.raises(StorageBusy, match="try again"):
        await storage.run(_users(2))
    waiting = asyncio.create_task(storage.run(_users(3)))  # waits, then gets it
    release.set()
    assert await holder == "held"
    await waiting
    async with storage.transaction() as tx:
        assert await tx.get_user(3) is not None and await tx.get_user(2) is None


async def test_a_server_connection_limit_of_two_makes_callers_wait(pg_url: str) -> None:
    """Item 6: the role may open 2 connections.  With the pool sized to the limit,
    20 concurrent actions all wait their turn; with a pool larger than the limit the
    refused connections are retried, and any call that cannot get one in time ends
    in a typed refusal, never TooManyConnectionsError."""
    import asyncpg

    from bot.storage.interface import StorageError
    from bot.storage.postgres import PostgresStorage

    if os.environ.get(pg.ENV_URL):
        pytest.skip("needs a new login role with trust authentication (the test server)")
    role = f"limited_{uuid.uuid4().hex[:8]}"
    name = pg_url.rsplit("/", 1)[1]
    admin = await asyncpg.connect(pg_url)
    try:
        await admin.execute(f'CREATE ROLE "{role}" LOGIN CONNECTION LIMIT 2')
        await admin.execute(f'ALTER DATABASE "{name}" OWNER TO "{role}"')
    finally:
        await admin.close()
    url = pg_url.replace("//postgres@", f"//{role}@")
    try:
        for pool_size in (2, 6):
            storage = PostgresStorage(url, pool_size=pool_size, retry_seconds=5.0)
            await storage.open()
            try:
                async def act(tx: Transaction, i: int = 0) -> int:
                    await tx.upsert_user(i, f"u{i}")
                    await tx.get_user(i)
                    await asyncio.sleep(0.02)
                    return i

                results = await asyncio.gather(
                    *(storage.run(lambda tx, i=i: act(tx, i)) for i in range(20)),
                    return_exceptions=True)
                raw = [r for r in results if isinstance(r, BaseException)
                       and not isinstance(r, StorageError)]
                assert not raw, raw
                done = [r for r in results if isinstance(r, int)]
                if pool_size == 2:
                    assert sorted(done) == list(range(20))
                else:
                    assert done  # the two allowed connections served calls
            finally:
                await storage.close()
    finally:
        admin = await asyncpg.connect(pg_url)
        try:
            await admin.execute(f'REASSIGN OWNED BY "{role}" TO postgres')
            await admin.execute(f'DROP OWNED BY "{role}"')
            await admin.execute(f'DROP ROLE "{role}"')
        finally:
            await admin.close()


# ------------------------------------------------------------ item 5: lost COMMIT


@pytest.fixture
def lose_next_commit(monkeypatch: pytest.MonkeyPatch) -> Callable[[], None]:
    """Make the next PostgreSQL COMMIT lose its connection after the server committed,
    before the client heard of it."""
    import asyncpg
    from asyncpg.transaction import Transaction as PgTransaction

    original = PgTransaction.commit

    def arm() -> None:
        async def commit(self: Any) -> None:
            monkeypatch.setattr(PgTransaction, "commit", original)
            await original(self)
            self._connection.terminate()
            raise asyncpg.ConnectionDoesNotExistError(
                "connection was closed in the middle of operation")

        monkeypatch.setattr(PgTransaction, "commit", commit)

    return arm


async def test_a_connection_lost_during_commit_applies_a_retried_button_once(
        pg_url: str, lose_next_commit: Callable[[], None]) -> None:
    """Item 5: the player sees "look at the board" (StorageCommitUnknown, not retried by
    the storage, answered as a refusal by the service); pressing the same button again
    (the version it was shown for) is refused, and the action was applied exactly once."""
    from bot.storage.postgres import PostgresStorage

    storage = PostgresStorage(pg_url, pool_size=2)
    await storage.open()
    try:
        service = GameService(storage, Config())
        white, black, place = Actor(1, "alice"), Actor(2, "bob"), Place(GUILD, 9)
        assert (await service.challenge(place, white, black, stake=1)).ok
        async with storage.transaction() as tx:
            row = await tx.open_match_in_channel(9)
        assert row is not None
        lose_next_commit()
        first = await service.accept(place, black, expect=Expect(row.version))
        assert not first.ok and "look at the board" in first.text
        again = await service.accept(place, black, expect=Expect(row.version))
        assert not again.ok and "already under way" in again.text
        async with storage.transaction() as tx:
            now = await tx.open_match_in_channel(9)
            assert now is not None and now.version == row.version + 1
            assert now.status == "active"
            assert len(await tx.games_of_match(now.id)) == 1
    finally:
        await storage.close()


async def test_run_never_reruns_a_commit_that_may_have_applied(
        pg_url: str, lose_next_commit: Callable[[], None]) -> None:
    """Lost during COMMIT: raised, not re-run (one row).  The session killed by the
    server in the middle of the work (pg_terminate_backend): nothing was applied,
    ``run`` re-runs it transparently (one row)."""
    import asyncpg

    from bot.storage.postgres import PostgresStorage

    storage = PostgresStorage(pg_url, pool_size=2)
    await storage.open()
    try:
        runs: list[int] = []

        async def add(tx: Any, user: int, kill: bool = False) -> None:
            runs.append(user)
            await tx.upsert_user(user, "x")
            await tx.add_ledger([LedgerEntry(GUILD, user, 1, 1)])
            if kill and len(runs) == 2:
                pid = await tx.pg.conn.fetchval("SELECT pg_backend_pid()")
                admin = await asyncpg.connect(pg_url)
                try:
                    await admin.execute("SELECT pg_terminate_backend($1)", pid)
                finally:
                    await admin.close()
                await tx.get_user(user)  # the session is gone

        lose_next_commit()
        with pytest.raises(StorageCommitUnknown):
            await storage.run(lambda tx: add(tx, 1))
        await storage.run(lambda tx: add(tx, 2, kill=True))
        assert runs == [1, 2, 2]
        async with storage.transaction() as tx:
            assert await tx.balance(GUILD, 1) == 1 and await tx.balance(GUILD, 2) == 1
    finally:
        await storage.close()


async def test_stale_version_is_not_retried(backend: Backend) -> None:
    """A version conflict is the game moving on: ``run`` hands it back at once (a typed
    command re-run on the new state could do something the player did not mean)."""
    storage = await backend.open()
    await storage.run(_users(1, 2))

    async def insert(tx: Transaction) -> Any:
        return await tx.insert_match(guild_id=GUILD, channel_id=5, white_id=1, black_id=2,
                                     variant="standard", rules={}, length=1, stake=0,
                                     rated=True, status="active")
    row = await storage.run(insert)
    await storage.run(lambda tx: tx.update_match(row, state={"a": 1}))
    calls: list[int] = []

    async def stale(tx: Transaction) -> None:
        calls.append(1)
        await tx.update_match(row, state={"a": 2})
        await tx.get_match(row.id)  # SQLite: the deferred check goes out here
    with pytest.raises(StaleVersionError) as caught:
        await storage.run(stale)
    assert not isinstance(caught.value, RetryableConflict) and calls == [1]


# --------------------------------------- item 3 through the service: 2**31 and beyond

async def test_a_cube_past_2_31_ends_and_a_2_31_chouette_stake_is_refused_alike(
        backend: Backend) -> None:
    """Issue 21 item 3, through the service on both backends: double and beaver at every
    chance at 1 a point until the cube passes 2**31 (the money bound of the hardening
    issue allows up to 2**38 there), then abandon: the ledger takes the points (bigint
    columns on PostgreSQL) and the leaderboard reads them; a chouette stake of 2**31 is
    refused with its reason on both, never a DataError."""
    from scripted import Script

    from engine.game import Phase
    from engine.player import Player

    storage = await backend.open()
    service = GameService(storage, Config(), dice=Script(then="3a14f59c62d8b07e"))
    alice, bob = Actor(21, "alice"), Actor(22, "bob")
    place = Place(GUILD, 60)
    assert (await service.challenge(place, alice, bob, stake=1,
                                    rules={"beavers": "on"})).ok
    assert (await service.accept(place, bob)).ok
    for _ in range(400):
        game = (await service.runner.look(place)).game
        assert game is not None and game.awaiting is not None
        if game.cube.value > 2**31:
            break
        who = alice if game.awaiting is Player.WHITE else bob
        if game.phase is Phase.ROLL:
            reply = await service.double(place, who)
            if not reply.ok:
                reply = await service.roll(place, who)
        elif game.phase is Phase.DOUBLED:
            reply = await service.beaver(place, who)
            if not reply.ok:
                reply = await service.take(place, who)
        else:
            plays = await service.suggestions(place, who, "")
            reply = await service.move(place, who, plays[0])
        assert reply.ok, reply.text
    cube = game.cube.value
    assert cube > 2**31
    ended = await service.forfeit(place, alice)
    assert ended.ok, ended.text
    async with storage.snapshot() as tx:
        assert await tx.balance(GUILD, bob.id) == cube
        assert await tx.balance(GUILD, alice.id) == -cube
    board = await service.leaderboard(place, bob, "money")
    assert board.ok and f"{cube:+d}" in board.text
    refused = await service.chouette.open(Place(GUILD, 61), alice, stake=2**31)
    assert not refused.ok and "stake" in refused.text.lower()

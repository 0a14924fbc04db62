"""Storage on both backends: migrations, transactions, optimistic versions.

Every test runs on SQLite (a real file in a temp dir) and on PostgreSQL (a new
database on a throwaway server, see tests/pg.py; skipped with the reason when
no server can be started).
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pg
import pytest

from bot.storage.core.sql import migrations
from bot.storage.interface import LedgerEntry, StaleVersionError, Storage
from bot.storage.sqlite import SqliteStorage
from bot.storage.sqlite import transaction as storage_module


class Backend:
    """Opens storages on one database of one backend; closes them all at the end."""

    def __init__(self, name: str, make: Callable[[], Any], integrity_error: type[BaseException]
                 ) -> None:
        self.name = name
        self._make = make
        self.integrity_error = integrity_error
        self.opened: list[Any] = []

    async def open(self) -> Any:
        storage = self._make()
        await storage.open()
        self.opened.append(storage)
        return storage

    async def close_all(self) -> None:
        for storage in self.opened:
            await storage.close()


@pytest.fixture(params=["sqlite", "sqlite-unbatched", "postgres"])
async def backend(request: pytest.FixtureRequest, tmp_path: Path,
                  monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Backend]:
    if request.param.startswith("sqlite"):
        # "unbatched": every statement its own trip through aiosqlite's public API
        # (the fallback should aiosqlite ever drop the call that batches them).
        monkeypatch.setattr(storage_module, "_BATCHING", request.param == "sqlite")
        b = Backend("sqlite", lambda: SqliteStorage(tmp_path / "db.sqlite3"),
                    sqlite3.IntegrityError)
        yield b
        await b.close_all()
        return
    reason = pg.unavailable()
    if reason is not None:
        pytest.skip(reason)
    import asyncpg

    from bot.storage.postgres import PostgresStorage

    url = await pg.create_database()
    b = Backend("postgres", lambda: PostgresStorage(url, pool_size=4),
                asyncpg.UniqueViolationError)
    try:
        yield b
    finally:
        await b.close_all()
        await pg.drop_database(url)


async def test_migrations_apply_once_and_record_version(backend: Backend) -> None:
    storage = await backend.open()
    assert await storage.schema_version() == len(migrations())
    await storage.close()
    backend.opened.remove(storage)
    again = await backend.open()  # re-opening applies nothing twice
    assert await again.schema_version() == len(migrations())
    if backend.name == "sqlite":
        async with again.db.execute("PRAGMA journal_mode") as cur:
            assert (await cur.fetchone())[0] == "wal"
        async with again.db.execute("PRAGMA foreign_keys") as cur:
            assert (await cur.fetchone())[0] == 1
    else:
        async with again.db.execute("SELECT COUNT(*) FROM schema_version") as cur:
            assert (await cur.fetchone())[0] == len(migrations())


async def _match(storage: Storage, channel: int = 10) -> int:
    async with storage.transaction() as tx:
        await tx.upsert_user(1, "alice")
        await tx.upsert_user(2, "bob")
        row = await tx.insert_match(guild_id=5, channel_id=channel, white_id=1, black_id=2,
                                    variant="standard", rules={}, length=3, stake=0, rated=True,
                                    status="challenged")
    return row.id


async def test_version_check_refuses_a_stale_update(backend: Backend) -> None:
    storage = await backend.open()
    match_id = await _match(storage)
    async with storage.transaction() as tx:
        read = await tx.get_match(match_id)
        assert read is not None and read.version == 0
        row = await tx.update_match(read, status="active")
        assert row.version == 1
    with pytest.raises(StaleVersionError):
        async with storage.transaction() as tx:
            await tx.update_match(read, status="finished")  # still version 0: stale
    async with storage.transaction() as tx:
        row2 = await tx.get_match(match_id)
    assert row2 is not None and row2.status == "active" and row2.version == 1


async def test_failed_transaction_rolls_back_everything(backend: Backend) -> None:
    storage = await backend.open()
    match_id = await _match(storage)
    with pytest.raises(RuntimeError):
        async with storage.transaction() as tx:
            game = await tx.insert_game(match_id=match_id, number=1, seed_hash="h", seed="s")
            await tx.append_events(game.id, [(0, "roll", {"dice": [3, 1]}, 1)])
            raise RuntimeError("crash in the middle of an action")
    async with storage.transaction() as tx:
        assert await tx.current_game(match_id) is None


async def test_a_deferred_write_that_fails_rolls_back_the_whole_transaction(
        backend: Backend) -> None:
    # SQLite sends writes whose result is not needed with the next trip (here the
    # COMMIT): the duplicate event number fails there, and nothing of the
    # transaction stays, the game inserted before included.
    storage = await backend.open()
    match_id = await _match(storage)
    expected: type[BaseException] = (
        StaleVersionError if backend.name == "postgres" else sqlite3.IntegrityError)
    with pytest.raises(expected):
        async with storage.transaction() as tx:
            game = await tx.insert_game(match_id=match_id, number=1, seed_hash="h", seed="s")
            await tx.append_events(game.id, [(0, "roll", {"dice": [3, 1]}, 1)])
            await tx.upsert_user(3, "carol")
            await tx.append_events(game.id, [(0, "roll", {"dice": [6, 5]}, 1)])
    async with storage.snapshot() as tx:
        assert await tx.current_game(match_id) is None
        assert await tx.get_user(3) is None


async def test_a_stale_version_found_at_commit_leaves_nothing_written(backend: Backend) -> None:
    storage = await backend.open()
    match_id = await _match(storage)
    async with storage.snapshot() as tx:
        read = await tx.get_match(match_id)
    assert read is not None
    async with storage.transaction() as tx:  # someone else acts first
        await tx.update_match(read, status="active")
    with pytest.raises(StaleVersionError):
        async with storage.transaction() as tx:
            await tx.upsert_user(4, "dave")
            await tx.update_match(read, state={"late": True})
            await tx.add_ledger([LedgerEntry(5, 4, 1, 1, match_id)])
    async with storage.snapshot() as tx:
        assert await tx.get_user(4) is None
        assert await tx.balance(5, 4) == 0
        now = await tx.get_match(match_id)
    assert now is not None and now.version == 1 and now.state == {}


async def test_rows_written_come_back_as_a_read_returns_them(backend: Backend) -> None:
    # update_match / update_game return the new row without reading it: it must
    # equal what a read gives (JSON-decoded state and result, version, flags).
    storage = await backend.open()
    match_id = await _match(storage)
    async with storage.transaction() as tx:
        read = await tx.get_match(match_id)
        assert read is not None
        game = await tx.insert_game(match_id=match_id, number=1, seed_hash="h", seed="s",
                                    setup={"money": False})
        updated = await tx.update_match(read, status="active", rated=False,
                                        state={"hints": True, "seats": {7: "x"}, "t": (1, 2)})
        finished = await tx.update_game(game, dice_drawn=4, status="finished", winner_id=1,
                                        result={"kind": "gammon", "points": (2,)},
                                        finished_at="2026-01-01T00:00:00")
    async with storage.snapshot() as tx:
        assert await tx.get_match(match_id) == updated
        assert await tx.get_game(game.id) == finished
    assert updated.state == {"hints": True, "seats": {"7": "x"}, "t": [1, 2]}
    assert finished.result == {"kind": "gammon", "points": [2]}


async def test_one_open_match_per_channel(backend: Backend) -> None:
    storage = await backend.open()
    await _match(storage, channel=10)
    with pytest.raises(backend.integrity_error):
        await _match(storage, channel=10)
    await _match(storage, channel=11)  # another channel is fine


async def test_events_ledger_and_ratings_round_trip(backend: Backend) -> None:
    storage = await backend.open()
    match_id = await _match(storage)
    async with storage.transaction() as tx:
        game = await tx.insert_game(match_id=match_id, number=1, seed_hash="h", seed="s")
        await tx.append_events(game.id, [(0, "opening", {"dice": [3, 1]}, None),
                                         (1, "play", {"moves": "8/5 6/5"}, 1)])
        await tx.add_ledger([LedgerEntry(5, 1, 2, 20, match_id, game.id),
                             LedgerEntry(5, 2, -2, -20, match_id, game.id)])
        rating = await tx.rating(5, 1)
        assert (rating.rating, rating.experience) == (1500.0, 0)
    async with storage.transaction() as tx:
        events = await tx.events(game.id)
        assert [(e.seq, e.kind, e.data) for e in events] == [
            (0, "opening", {"dice": [3, 1]}), (1, "play", {"moves": "8/5 6/5"})]
        assert await tx.balance(5, 1) == 20
        assert await tx.balance(5, 2) == -20
        board = await tx.leaderboard(5, "money", 10, 0)
        assert [(r["name"], r["balance"]) for r in board] == [("alice", 20), ("bob", -20)]


async def test_user_stats_give_the_player_cards_variants_and_last_results(
        backend: Backend) -> None:
    """Issue 18: the player card's favourite variant and last results, on both backends."""
    storage = await backend.open()
    first = await _match(storage, channel=11)
    second = await _match(storage, channel=12)
    results = {first: [(2, 2), (1, 1), (2, 1)],  # bob wins 3-1
               second: [(1, 2), (1, 1)]}  # alice wins 3-0
    async with storage.transaction() as tx:
        for match_id, games in results.items():
            for number, (winner, points) in enumerate(games, 1):
                game = await tx.insert_game(match_id=match_id, number=number,
                                            seed_hash="h", seed="s")
                await tx.update_game(game, status="finished", winner_id=winner, result={
                    "winner": "white" if winner == 1 else "black", "kind": "single",
                    "reason": "borne-off", "cube": points, "points": points,
                    "counted": "single"})
            row = await tx.get_match(match_id)
            assert row is not None
            won = 2 if match_id == first else 1
            await tx.update_match(row, status="finished", winner_id=won)
        await tx.insert_match(guild_id=5, channel_id=13, white_id=2, black_id=1,
                              variant="nackgammon", rules={}, length=0, stake=1, rated=False,
                              status="active")
    async with storage.snapshot() as tx:
        stats = await tx.user_stats(5, 1)
    assert stats["variants"] == ["standard", "standard", "nackgammon"]
    assert stats["experience"] == 0
    assert stats["recent"] == [
        {"won": True, "opponent": "bob", "length": 3, "points": (3, 0)},
        {"won": False, "opponent": "bob", "length": 3, "points": (1, 3)}]

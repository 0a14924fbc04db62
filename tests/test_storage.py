"""SQLite storage: migrations, transactions, optimistic versions (real files in temp dirs)."""

from pathlib import Path

import pytest

from bot.repository import LedgerEntry, StaleVersionError
from bot.storage import SqliteStorage, migrations


async def _open(tmp_path: Path) -> SqliteStorage:
    storage = SqliteStorage(tmp_path / "db.sqlite3")
    await storage.open()
    return storage


async def test_migrations_apply_once_and_record_version(tmp_path: Path) -> None:
    storage = await _open(tmp_path)
    assert await storage.schema_version() == len(migrations())
    await storage.close()
    again = await _open(tmp_path)  # re-opening applies nothing twice
    assert await again.schema_version() == len(migrations())
    async with again.db.execute("PRAGMA journal_mode") as cur:
        assert (await cur.fetchone())[0] == "wal"  # type: ignore[index]
    async with again.db.execute("PRAGMA foreign_keys") as cur:
        assert (await cur.fetchone())[0] == 1  # type: ignore[index]
    await again.close()


async def _match(storage: SqliteStorage, channel: int = 10) -> int:
    async with storage.transaction() as tx:
        await tx.upsert_user(1, "alice")
        await tx.upsert_user(2, "bob")
        row = await tx.insert_match(guild_id=5, channel_id=channel, white_id=1, black_id=2,
                                    variant="standard", rules={}, length=3, stake=0, rated=True,
                                    status="challenged")
    return row.id


async def test_version_check_refuses_a_stale_update(tmp_path: Path) -> None:
    storage = await _open(tmp_path)
    match_id = await _match(storage)
    async with storage.transaction() as tx:
        row = await tx.update_match(match_id, 0, status="active")
        assert row.version == 1
    with pytest.raises(StaleVersionError):
        async with storage.transaction() as tx:
            await tx.update_match(match_id, 0, status="finished")
    async with storage.transaction() as tx:
        row2 = await tx.get_match(match_id)
    assert row2 is not None and row2.status == "active" and row2.version == 1
    await storage.close()


async def test_failed_transaction_rolls_back_everything(tmp_path: Path) -> None:
    storage = await _open(tmp_path)
    match_id = await _match(storage)
    with pytest.raises(RuntimeError):
        async with storage.transaction() as tx:
            game = await tx.insert_game(match_id=match_id, number=1, seed_hash="h", seed="s")
            await tx.append_events(game.id, [(0, "roll", {"dice": [3, 1]}, 1)])
            raise RuntimeError("crash in the middle of an action")
    async with storage.transaction() as tx:
        assert await tx.current_game(match_id) is None
    await storage.close()


async def test_one_open_match_per_channel(tmp_path: Path) -> None:
    import sqlite3

    storage = await _open(tmp_path)
    await _match(storage, channel=10)
    with pytest.raises(sqlite3.IntegrityError):
        await _match(storage, channel=10)
    await _match(storage, channel=11)  # another channel is fine
    await storage.close()


async def test_events_ledger_and_ratings_round_trip(tmp_path: Path) -> None:
    storage = await _open(tmp_path)
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
    await storage.close()

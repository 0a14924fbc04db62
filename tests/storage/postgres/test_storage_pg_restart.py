"""Issue 21 across processes and across a server restart.

* Three bot processes end 30 rated games at once, all with one player in common
  (and half of them between the same pair, crossed winners): every game is rated,
  and the rating history of both players chains (each change starts where the one
  before ended).  On PostgreSQL and on one SQLite file.
* ``pg_ctl restart`` in the middle of play, on a server of the test's own: every
  call either succeeds or raises a typed :class:`bot.storage.interface.StorageError`, never
  a driver exception; play goes on after the restart; committed rows are exactly
  the calls reported committed (plus at most those whose COMMIT was cut off).
  With the server away for longer than ``retry_seconds``: StorageUnavailable.

Run as a script, this file is one bot process of the cross-process test::

    python tests/storage/postgres/test_storage_pg_restart.py DB GO_FILE CHANNEL...
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pg
import pytest

from bot.config import Config
from bot.service.core.values import Actor, Place
from bot.service.game import GameService
from bot.storage.interface import LedgerEntry, StorageCommitUnknown, StorageError, Transaction

ROOT = Path(__file__).resolve().parents[3]
GUILD = 4
ALICE, BOB = Actor(1, "alice"), Actor(2, "bob")


def _opponent(channel: int) -> Actor:
    return BOB if channel % 2 else Actor(1000 + channel, f"p{channel}")


def _loser(channel: int) -> Actor:
    """Alice loses every other game against bob: crossed winners for that pair."""
    return ALICE if channel % 4 == 1 else _opponent(channel)


def _storage(db: str, **options: Any) -> Any:
    if db.startswith("postgresql://"):
        from bot.storage.postgres import PostgresStorage

        return PostgresStorage(db, **options)
    from bot.storage.sqlite import SqliteStorage

    return SqliteStorage(db)


async def _child(db: str, go: str, channels: list[int]) -> None:
    storage = _storage(db, pool_size=4)
    await storage.open()
    try:
        service = GameService(storage, Config())
        print("ready", flush=True)
        while not os.path.exists(go):
            await asyncio.sleep(0.005)
        replies = await asyncio.gather(
            *(service.forfeit(Place(GUILD, c), _loser(c)) for c in channels),
            return_exceptions=True)
        print(json.dumps([(getattr(r, "ok", None) and r.text) or repr(r) for r in replies]),
              flush=True)
    finally:
        await storage.close()


@pytest.fixture(params=["sqlite", "postgres"])
async def database(request: pytest.FixtureRequest, tmp_path: Path) -> Any:
    if request.param == "sqlite":
        yield str(tmp_path / "cluster.sqlite3")
        return
    reason = pg.unavailable()
    if reason is not None:
        pytest.skip(reason)
    url = await pg.create_database()
    yield url
    await pg.drop_database(url)


async def test_three_processes_end_thirty_rated_games_at_once(database: str,
                                                             tmp_path: Path) -> None:
    channels = list(range(100, 130))
    storage = _storage(database, pool_size=2)
    await storage.open()
    try:
        service = GameService(storage, Config())
        for c in channels:
            assert (await service.challenge(Place(GUILD, c), ALICE, _opponent(c),
                                            length=1)).ok
            assert (await service.accept(Place(GUILD, c), _opponent(c))).ok
    finally:
        await storage.close()
    go = tmp_path / "go"
    env = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{ROOT / 'tests' / 'support'}"}
    children = [subprocess.Popen(
        [sys.executable, __file__, database, str(go), *map(str, channels[i::3])],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        for i in range(3)]
    try:
        for child in children:
            assert child.stdout is not None
            assert child.stdout.readline().strip() == "ready", child.stderr
        go.touch()
        outputs = [child.communicate(timeout=120) for child in children]
    finally:
        for child in children:
            if child.poll() is None:
                child.kill()
    for (out, err), child in zip(outputs, children, strict=True):
        assert child.returncode == 0, err
        texts = json.loads(out.strip().splitlines()[-1])
        assert all("wins the 1-point match" in t for t in texts), texts
    storage = _storage(database, pool_size=2)
    await storage.open()
    try:
        async with storage.transaction() as tx:
            for user, games in ((ALICE, 30), (BOB, 15)):
                history = await tx.rating_history(GUILD, user.id)
                row = await tx.rating(GUILD, user.id)
                assert len(history) == games and row.experience == games
                for (_, after), (before, _) in itertools.pairwise(history):
                    assert before == after, history
                assert history[-1][1] == row.rating
    finally:
        await storage.close()


# ------------------------------------------------------------------ restart


@pytest.fixture
async def own_server() -> Any:
    """A PostgreSQL server of this test alone (it is restarted), and a database on it."""
    reason = pg.unavailable()
    if reason is not None:
        pytest.skip(reason)
    if os.environ.get(pg.ENV_URL):
        pytest.skip(f"restarts a server of its own; {pg.ENV_URL} names a shared one")
    import asyncpg

    server = pg.Server().start()
    try:
        conn = await asyncpg.connect(server.admin_url)
        try:
            await conn.execute("CREATE DATABASE bgbot_restart")
        finally:
            await conn.close()
        yield server, server.admin_url.rsplit("/", 1)[0] + "/bgbot_restart"
    finally:
        server.stop()


def _pg_ctl(server: Any, *args: str) -> None:
    server._run(str(server.bindir / "pg_ctl"), "-D", str(server.data), "-l",
                str(server.root / "server.log"), "-w", "-t", "60", *args)


async def test_a_server_restart_in_the_middle_of_play(own_server: Any) -> None:
    from bot.storage.postgres import PostgresStorage

    server, url = own_server
    storage = PostgresStorage(url, pool_size=4, retry_seconds=2.0)
    await storage.open()
    service = GameService(storage, Config())
    ok: list[int] = []
    unknown: list[int] = []
    raw: list[BaseException] = []
    typed: list[str] = []
    stop = asyncio.Event()
    counter = iter(range(1, 10**9))

    async def add(tx: Transaction, n: int) -> None:
        await tx.upsert_user(n, f"u{n}")
        await tx.add_ledger([LedgerEntry(GUILD, n, 1, 1)])

    async def worker() -> None:
        while not stop.is_set():
            n = next(counter)
            try:
                await storage.run(lambda tx, n=n: add(tx, n))
                ok.append(n)
            except StorageCommitUnknown:
                unknown.append(n)
            except StorageError as error:
                typed.append(type(error).__name__)
            except BaseException as error:
                raw.append(error)
            await asyncio.sleep(0.002)

    async def player(channel: int) -> None:
        """The service as it is today (transaction(), no run()): typed errors only."""
        white, black = Actor(10 + channel, "w"), Actor(20 + channel, "b")
        place = Place(GUILD, channel)
        while not stop.is_set():
            try:
                await service.challenge(place, white, black, stake=1)
                await service.accept(place, black)
                await service.forfeit(place, white)
            except StorageError as error:
                typed.append(type(error).__name__)
            except BaseException as error:
                raw.append(error)
            await asyncio.sleep(0.002)

    tasks = [asyncio.create_task(worker()) for _ in range(4)]
    tasks += [asyncio.create_task(player(c)) for c in (1, 2)]
    try:
        await asyncio.sleep(0.5)
        before = len(ok)
        await asyncio.to_thread(_pg_ctl, server, "-m", "fast", "restart")
        restarted = len(ok)
        await asyncio.sleep(1.0)
    finally:
        stop.set()
        await asyncio.gather(*tasks)
    try:
        assert not raw, raw[:5]
        assert before > 0 and len(ok) > restarted  # play went on after the restart
        rows = {r[0] for r in await storage.pool.fetch("SELECT user_id FROM ledger")}
        assert set(ok) <= rows <= set(ok) | set(unknown)
    finally:
        await storage.close()


async def test_a_server_away_longer_than_the_retry_budget(own_server: Any) -> None:
    from bot.storage.interface import StorageUnavailable
    from bot.storage.postgres import PostgresStorage

    server, url = own_server
    storage = PostgresStorage(url, pool_size=2, retry_seconds=0.5)
    await storage.open()
    try:
        async def read(tx: Transaction) -> Any:
            return await tx.get_user(1)

        await asyncio.to_thread(_pg_ctl, server, "-m", "fast", "stop")
        with pytest.raises(StorageUnavailable, match="unavailable"):
            await storage.run(read)
        with pytest.raises(StorageUnavailable):
            async with storage.transaction() as tx:
                await tx.get_user(1)
        await asyncio.to_thread(_pg_ctl, server, "restart")
        assert await storage.run(read) is None  # back by itself
    finally:
        await storage.close()


if __name__ == "__main__":
    asyncio.run(_child(sys.argv[1], sys.argv[2], [int(c) for c in sys.argv[3:]]))

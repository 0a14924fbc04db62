"""Copy a SQLite database into PostgreSQL, then verify the copy.

``python -m bot migrate-sqlite SQLITE_PATH POSTGRES_URL``

1. Both databases are opened through their storage classes, so both are at
   the latest schema (the SQLite file is migrated first if it is behind).
2. The PostgreSQL database must hold no data yet.  Every table of the SQLite
   schema (``schema_version`` excepted) is copied in foreign-key order, in one
   PostgreSQL transaction, with its ids; the identity sequences then continue
   after the highest copied id.
3. Verification: every table has the same number of rows; every match, game
   and event reads back identically through the storage interface of both
   backends; and every game is replayed (:meth:`engine.game.Game.replay`
   with its set-up, rules and events) from each database and the two states
   are compared field by field.

Run it with the bot stopped (nothing may write to the SQLite file meanwhile).
"""

from __future__ import annotations

import asyncio
import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.storage.core.errors import storable
from bot.storage.postgres import PostgresStorage
from bot.storage.replay import replay_game as replay
from bot.storage.sqlite import SqliteStorage
from engine.game import Game

_SKIP = {"schema_version", "sqlite_sequence"}


class MigrationError(Exception):
    """The copy could not be made or does not match; the message says why."""


@dataclass
class Report:
    rows: dict[str, int] = field(default_factory=dict)
    games_replayed: int = 0
    problems: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        out = [f"{table}: {n} rows" for table, n in self.rows.items()]
        out.append(f"games replayed and compared: {self.games_replayed}")
        out += [f"PROBLEM: {p}" for p in self.problems]
        return out


async def _sqlite_tables(src: SqliteStorage) -> list[str]:
    """User tables in an order where every table comes after those it references."""
    async with src.db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") as cur:
        names = [r[0] for r in await cur.fetchall() if r[0] not in _SKIP]
    deps: dict[str, set[str]] = {}
    for name in names:
        async with src.db.execute(f"PRAGMA foreign_key_list({name})") as cur:
            deps[name] = {r[2] for r in await cur.fetchall() if r[2] != name}
    ordered: list[str] = []
    while len(ordered) < len(names):
        ready = [n for n in names if n not in ordered and deps[n] <= set(ordered)]
        if not ready:
            raise MigrationError(f"circular foreign keys among {sorted(set(names) - set(ordered))}")
        ordered += ready
    return ordered


async def _sqlite_columns(src: SqliteStorage, table: str) -> list[str]:
    async with src.db.execute(f"PRAGMA table_info({table})") as cur:
        return [r[1] for r in await cur.fetchall()]


def _coerce(value: Any, pg_type: str) -> Any:
    if value is None:
        return None
    if pg_type in ("bigint", "integer", "smallint"):
        return int(value)
    if pg_type in ("double precision", "real", "numeric"):
        return float(value)
    if pg_type == "text" and not isinstance(value, str):
        return str(value)
    # A NUL a database written before the cleaning at the boundary kept (SQLite stores one;
    # PostgreSQL text cannot): cleaned as every write is now.
    return storable(value)


async def copy(src: SqliteStorage, dst: PostgresStorage) -> dict[str, int]:
    """Copy every table; rows copied by table."""
    if await src.schema_version() != await dst.schema_version():
        raise MigrationError(f"schema versions differ: SQLite {await src.schema_version()}, "
                             f"PostgreSQL {await dst.schema_version()}")
    tables = await _sqlite_tables(src)
    copied: dict[str, int] = {}
    async with dst.pool.acquire() as conn, conn.transaction():
        for table in tables:
            if await conn.fetchval(f"SELECT EXISTS (SELECT 1 FROM {table})"):
                raise MigrationError(f"the PostgreSQL table {table} already has rows: "
                                     "migrate into an empty database")
        for table in tables:
            types = {r["column_name"]: r["data_type"] for r in await conn.fetch(
                "SELECT column_name, data_type FROM information_schema.columns "
                "WHERE table_schema = current_schema() AND table_name = $1", table)}
            if not types:
                raise MigrationError(f"PostgreSQL has no table {table}")
            columns = await _sqlite_columns(src, table)
            missing = [c for c in columns if c not in types]
            if missing:
                raise MigrationError(f"PostgreSQL table {table} lacks columns {missing}")
            async with src.db.execute(f"SELECT {', '.join(columns)} FROM {table}") as cur:
                rows = [tuple(_coerce(v, types[c]) for v, c in zip(r, columns, strict=True))
                        for r in await cur.fetchall()]
            if rows:
                await conn.copy_records_to_table(table, records=rows, columns=columns)
            if "id" in columns and await conn.fetchval(
                    "SELECT pg_get_serial_sequence($1, 'id')", table):
                await conn.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                    f"COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)")
            copied[table] = len(rows)
    return copied


def game_state(game: Game) -> dict[str, Any]:
    """Every field of a game's state (the variant by name)."""
    state = {f.name: getattr(game, f.name) for f in dataclasses.fields(game)
             if f.name not in ("variant", "_legal")}
    state["variant"] = type(game.variant).__name__
    return state


async def _match_ids(storage: SqliteStorage | PostgresStorage) -> list[int]:
    async with storage.db.execute("SELECT id FROM matches ORDER BY id") as cur:
        return [int(r[0]) for r in await cur.fetchall()]


async def verify(src: SqliteStorage, dst: PostgresStorage) -> Report:
    """Compare the two databases table by table and game by game."""
    report = Report()
    for table in await _sqlite_tables(src):
        async with src.db.execute(f"SELECT COUNT(*) FROM {table}") as cur:
            row = await cur.fetchone()
            n_src = int(row[0]) if row else 0
        n_dst = int(await dst.pool.fetchval(f"SELECT COUNT(*) FROM {table}"))
        report.rows[table] = n_dst
        if n_src != n_dst:
            report.problems.append(f"{table}: {n_src} rows in SQLite, {n_dst} in PostgreSQL")
    async with src.transaction() as stx, dst.transaction() as dtx:
        ids = await _match_ids(src)
        if ids != await _match_ids(dst):
            report.problems.append("the match ids differ")
        for match_id in ids:
            a, b = await stx.get_match(match_id), await dtx.get_match(match_id)
            if a != b or a is None:
                report.problems.append(f"match {match_id}: rows differ: {a} != {b}")
                continue
            games_a, games_b = await stx.games_of_match(match_id), await dtx.games_of_match(
                match_id)
            if games_a != games_b:
                report.problems.append(f"match {match_id}: game rows differ")
                continue
            for g in games_a:
                ev_a, ev_b = await stx.events(g.id), await dtx.events(g.id)
                if ev_a != ev_b:
                    report.problems.append(f"game {g.id}: events differ")
                    continue
                try:
                    state_a = game_state(replay(a, g, ev_a))
                except Exception as error:  # the record must replay in the source too
                    report.problems.append(f"game {g.id}: replay fails in SQLite: {error!r}")
                    continue
                assert b is not None
                state_b = game_state(replay(b, games_b[games_a.index(g)], ev_b))
                report.games_replayed += 1
                if state_a != state_b:
                    diff = sorted(k for k in state_a if state_a[k] != state_b.get(k))
                    report.problems.append(f"game {g.id}: replayed states differ in {diff}")
    return report


async def migrate(sqlite_path: str | Path, url: str) -> Report:
    """Copy ``sqlite_path`` into the empty PostgreSQL database ``url`` and verify it."""
    if not Path(sqlite_path).exists():
        raise MigrationError(f"{sqlite_path} does not exist")
    src = SqliteStorage(sqlite_path)
    dst = PostgresStorage(url, pool_size=2)
    await src.open()
    try:
        await dst.open()
        try:
            copied = await copy(src, dst)
            report = await verify(src, dst)
            for table, n in copied.items():
                if report.rows.get(table) != n:
                    report.problems.append(f"{table}: copied {n} rows")
            return report
        finally:
            await dst.close()
    finally:
        await src.close()


def run(sqlite_path: str, url: str) -> int:
    """The ``migrate-sqlite`` command: 0 when the copy verified, 1 otherwise."""
    try:
        report = asyncio.run(migrate(sqlite_path, url))
    except MigrationError as error:
        print(f"migrate-sqlite: {error}")
        return 1
    for line in report.lines():
        print(line)
    if report.problems:
        print("migrate-sqlite: the copy does NOT match (the PostgreSQL transaction was "
              "committed; drop and recreate the database before trying again)")
        return 1
    print("migrate-sqlite: copied and verified")
    return 0

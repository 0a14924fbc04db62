"""The SQL of matches, games and events, written once for both backends."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from typing import Any

from bot.storage.core.errors import check_int64
from bot.storage.core.sql import SqlPrimitives, decoded, dumps, now
from bot.storage.play.interface import EventRow, GameRow, GameStatus, MatchRow, MatchStatus

MATCH_COLUMNS = (
    "id, guild_id, channel_id, white_id, black_id, variant, rules, length, stake, rated, "
    "status, chouette_id, state, version, winner_id, created_at, updated_at, place_kind"
)
GAME_COLUMNS = (
    "id, match_id, number, seed_hash, seed, dice_drawn, status, winner_id, result, "
    "created_at, finished_at, setup"
)
_MATCH_UPDATABLE = {"status", "state", "winner_id", "rated", "white_id", "black_id"}
_GAME_UPDATABLE = {"dice_drawn", "status", "winner_id", "result", "finished_at"}


def match_row(row: Any) -> MatchRow:
    return MatchRow(
        id=row[0], guild_id=row[1], channel_id=row[2], white_id=row[3], black_id=row[4],
        variant=row[5], rules=json.loads(row[6]), length=row[7], stake=row[8],
        rated=bool(row[9]), status=MatchStatus(row[10]), chouette_id=row[11],
        state=json.loads(row[12]),
        version=row[13], winner_id=row[14], created_at=row[15], updated_at=row[16],
        place_kind=row[17],
    )


def game_row(row: Any) -> GameRow:
    return GameRow(
        id=row[0], match_id=row[1], number=row[2], seed_hash=row[3], seed=row[4],
        dice_drawn=row[5], status=GameStatus(row[6]), winner_id=row[7],
        result=json.loads(row[8]) if row[8] else None, created_at=row[9], finished_at=row[10],
        setup=json.loads(row[11]),
    )


class PlayQueries(SqlPrimitives):
    """Matches, games and events."""

    # matches ----------------------------------------------------------------
    async def open_match_in_channel(self, channel_id: int) -> MatchRow | None:
        row = await self._one(
            f"SELECT {MATCH_COLUMNS} FROM matches WHERE channel_id = ? "
            "AND status IN ('challenged', 'active')", (channel_id,))
        return match_row(row) if row else None

    async def latest_match_in_channel(self, channel_id: int) -> MatchRow | None:
        row = await self._one(
            f"SELECT {MATCH_COLUMNS} FROM matches WHERE channel_id = ? ORDER BY id DESC LIMIT 1",
            (channel_id,))
        return match_row(row) if row else None

    async def matches_in_channel(self, channel_id: int, *, chouette_id: int | None = None,
                                 limit: int = 1000) -> list[MatchRow]:
        if chouette_id is None:
            rows = await self._all(
                f"SELECT {MATCH_COLUMNS} FROM matches WHERE channel_id = ? "
                "ORDER BY id DESC LIMIT ?", (channel_id, limit))
        else:
            rows = await self._all(
                f"SELECT {MATCH_COLUMNS} FROM matches WHERE channel_id = ? "
                "AND chouette_id = ? ORDER BY id DESC LIMIT ?", (channel_id, chouette_id, limit))
        return [match_row(r) for r in reversed(rows)]

    async def get_match(self, match_id: int) -> MatchRow | None:
        row = await self._one(f"SELECT {MATCH_COLUMNS} FROM matches WHERE id = ?", (match_id,))
        return match_row(row) if row else None

    async def insert_match(self, *, guild_id: int, channel_id: int, white_id: int,
                           black_id: int, variant: str, rules: dict[str, Any], length: int,
                           stake: int, rated: bool, status: str,
                           chouette_id: int | None = None,
                           state: dict[str, Any] | None = None,
                           place_kind: str = "server") -> MatchRow:
        stamp = now()
        row = await self._one(
            "INSERT INTO matches (guild_id, channel_id, white_id, black_id, variant, rules, "
            "length, stake, rated, status, chouette_id, state, version, created_at, updated_at, "
            "place_kind) "
            f"VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?) RETURNING {MATCH_COLUMNS}",
            (guild_id, channel_id, white_id, black_id, variant, dumps(rules), length,
             check_int64("the stake", stake), int(rated), status, chouette_id,
             dumps(state or {}), stamp, stamp, place_kind),
        )
        assert row is not None
        return match_row(row)

    async def update_match(self, row: MatchRow, **changes: Any) -> MatchRow:
        return await self._update_versioned(
            "matches", "match", row, changes, _MATCH_UPDATABLE, json_columns={"state"},
            bool_columns={"rated"})

    async def claim_reminder(self, match_id: int, version: int) -> bool:
        """Mark the reminder for ``version`` as sent; True for exactly one caller."""
        changed, _ = await self._cursor(
            "UPDATE matches SET reminded_version = version WHERE id = ? AND version = ? "
            "AND reminded_version < version", (match_id, version))
        return changed == 1

    async def idle_matches(self, older_than: str) -> list[MatchRow]:
        """Active matches in servers whose last action is older than ``older_than`` (ISO
        time); a place without a server has no reminders (the bot can't post there)."""
        rows = await self._all(
            f"SELECT {MATCH_COLUMNS} FROM matches WHERE status = 'active' "
            "AND place_kind = 'server' AND updated_at < ? AND reminded_version < version "
            "ORDER BY updated_at",
            (older_than,))
        return [match_row(r) for r in rows]

    async def open_matches_in_guild(self, guild_id: int, limit: int = 100) -> list[MatchRow]:
        rows = await self._all(
            f"SELECT {MATCH_COLUMNS} FROM matches WHERE guild_id = ? "
            "AND status IN ('challenged', 'active') ORDER BY id LIMIT ?", (guild_id, limit))
        return [match_row(r) for r in rows]

    async def matches_for_user(self, guild_id: int, user_id: int,
                               statuses: Sequence[str]) -> list[MatchRow]:
        marks = ", ".join("?" for _ in statuses)
        rows = await self._all(
            f"SELECT {MATCH_COLUMNS} FROM matches WHERE guild_id = ? "
            f"AND (white_id = ? OR black_id = ?) AND status IN ({marks}) ORDER BY id",
            (guild_id, user_id, user_id, *statuses))
        return [match_row(r) for r in rows]

    # games ------------------------------------------------------------------
    async def insert_game(self, *, match_id: int, number: int, seed_hash: str,
                          seed: str, setup: dict[str, Any] | None = None) -> GameRow:
        row = await self._one(
            "INSERT INTO games (match_id, number, seed_hash, seed, status, setup, created_at) "
            f"VALUES (?, ?, ?, ?, 'active', ?, ?) RETURNING {GAME_COLUMNS}",
            (match_id, number, seed_hash, seed, dumps(setup or {}), now()))
        assert row is not None
        return game_row(row)

    async def get_game(self, game_id: int) -> GameRow | None:
        row = await self._one(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return game_row(row) if row else None

    async def current_game(self, match_id: int) -> GameRow | None:
        row = await self._one(
            f"SELECT {GAME_COLUMNS} FROM games WHERE match_id = ? ORDER BY number DESC LIMIT 1",
            (match_id,))
        return game_row(row) if row else None

    async def games_of_match(self, match_id: int) -> list[GameRow]:
        rows = await self._all(
            f"SELECT {GAME_COLUMNS} FROM games WHERE match_id = ? ORDER BY number", (match_id,))
        return [game_row(r) for r in rows]

    async def update_game(self, row: GameRow, **changes: Any) -> GameRow:
        """Write ``changes`` to the game ``row``; the row as a read would now return it."""
        unknown = set(changes) - _GAME_UPDATABLE
        if unknown:
            raise ValueError(f"cannot update game columns {sorted(unknown)}")
        if not changes:
            return row
        sets = [f"{key} = ?" for key in changes]
        params = [dumps(v) if k == "result" and v is not None else v for k, v in changes.items()]
        await self._write(f"UPDATE games SET {', '.join(sets)} WHERE id = ?", (*params, row.id))
        stored = {k: decoded(v) if k == "result" and v is not None else v
                  for k, v in changes.items()}
        return dataclasses.replace(row, **stored)

    # events -----------------------------------------------------------------
    async def append_events(self, game_id: int,
                            events: Sequence[tuple[int, str, dict[str, Any], int | None]]
                            ) -> None:
        stamp = now()
        await self._write_many(
            "INSERT INTO events (game_id, seq, kind, data, actor_id, created_at) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            [(game_id, seq, kind, dumps(data), actor, stamp) for seq, kind, data, actor in events],
        )

    async def events(self, game_id: int) -> list[EventRow]:
        rows = await self._all(
            "SELECT game_id, seq, kind, data, actor_id, created_at FROM events "
            "WHERE game_id = ? ORDER BY seq", (game_id,))
        return [EventRow(r[0], r[1], r[2], json.loads(r[3]), r[4], r[5]) for r in rows]

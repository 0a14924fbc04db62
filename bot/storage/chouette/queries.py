"""The SQL of chouette tables, written once for both backends."""

from __future__ import annotations

import json
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from bot.storage.chouette.interface import ChouetteMemberRow, ChouetteRow, ChouetteStatus
from bot.storage.core.errors import StaleVersionError
from bot.storage.core.sql import SqlPrimitives, dumps, now

CHOUETTE_COLUMNS = "id, guild_id, channel_id, status, rules, state, version, created_at"
_CHOUETTE_UPDATABLE = {"status", "state"}


def chouette_row(row: Any) -> ChouetteRow:
    return ChouetteRow(id=row[0], guild_id=row[1], channel_id=row[2],
                       status=ChouetteStatus(row[3]),
                       rules=json.loads(row[4]), state=json.loads(row[5]), version=row[6],
                       created_at=row[7])


class ChouetteQueries(SqlPrimitives):
    """Chouette tables and their members."""

    # chouettes --------------------------------------------------------------
    async def insert_chouette(self, *, guild_id: int, channel_id: int,
                              rules: dict[str, Any], state: dict[str, Any]) -> ChouetteRow:
        row = await self._one(
            "INSERT INTO chouettes (guild_id, channel_id, status, rules, state, version, "
            f"created_at) VALUES (?, ?, 'open', ?, ?, 0, ?) RETURNING {CHOUETTE_COLUMNS}",
            (guild_id, channel_id, dumps(rules), dumps(state), now()))
        assert row is not None
        return chouette_row(row)

    async def open_chouette_in_channel(self, channel_id: int) -> ChouetteRow | None:
        row = await self._one(
            f"SELECT {CHOUETTE_COLUMNS} FROM chouettes WHERE channel_id = ? "
            "AND status IN ('open', 'playing')", (channel_id,))
        return chouette_row(row) if row else None

    async def get_chouette(self, chouette_id: int) -> ChouetteRow | None:
        row = await self._one(f"SELECT {CHOUETTE_COLUMNS} FROM chouettes WHERE id = ?",
                              (chouette_id,))
        return chouette_row(row) if row else None

    async def update_chouette(self, chouette_id: int, expected_version: int,
                              **changes: Any) -> ChouetteRow:
        unknown = set(changes) - _CHOUETTE_UPDATABLE
        if unknown:
            raise ValueError(f"cannot update chouette columns {sorted(unknown)}")
        sets = ["version = version + 1"]
        params: list[Any] = []
        for key, value in changes.items():
            sets.append(f"{key} = ?")
            params.append(dumps(value) if key == "state" else value)
        row = await self._one(
            f"UPDATE chouettes SET {', '.join(sets)} WHERE id = ? AND version = ? "
            f"RETURNING {CHOUETTE_COLUMNS}", (*params, chouette_id, expected_version))
        if row is None:
            raise StaleVersionError(
                f"chouette {chouette_id} is no longer at version {expected_version}")
        return chouette_row(row)

    async def chouette_members(self, chouette_id: int) -> list[ChouetteMemberRow]:
        rows = await self._all(
            "SELECT user_id, position, throw FROM chouette_members WHERE chouette_id = ? "
            "AND active = 1 ORDER BY position", (chouette_id,))
        return [ChouetteMemberRow(r[0], r[1], r[2]) for r in rows]

    async def set_chouette_members(self, chouette_id: int,
                                   members: Sequence[tuple[int, int | None]]) -> None:
        await self._write(
            "UPDATE chouette_members SET active = 0 WHERE chouette_id = ?", (chouette_id,))
        stamp = now()
        await self._write_many(
            "INSERT INTO chouette_members (chouette_id, user_id, position, throw, active, "
            "joined_at) VALUES (?, ?, ?, ?, 1, ?) ON CONFLICT(chouette_id, user_id) DO UPDATE "
            "SET position = excluded.position, throw = excluded.throw, active = 1",
            [(chouette_id, user, i, throw, stamp) for i, (user, throw) in enumerate(members)])

    async def chouette_totals(self, chouette_id: int) -> dict[int, int]:
        rows = await self._all(
            "SELECT user_id, SUM(amount) FROM ledger WHERE chouette_id = ? GROUP BY user_id",
            (chouette_id,))
        return {int(r[0]): int(r[1]) for r in rows}

    async def chouette_game_points(self, game_id: int) -> list[tuple[int, Fraction]]:
        rows = await self._all(
            "SELECT user_id, points, points_den FROM ledger WHERE game_id = ? AND "
            "chouette_id IS NOT NULL ORDER BY id", (game_id,))
        return [(int(user), Fraction(int(points), int(den))) for user, points, den in rows]

    async def chouette_points(self, chouette_id: int) -> dict[int, Fraction]:
        rows = await self._all(
            "SELECT user_id, points, points_den FROM ledger WHERE chouette_id = ? ORDER BY id",
            (chouette_id,))
        out: dict[int, Fraction] = {}
        for user, points, den in rows:
            out[int(user)] = out.get(int(user), Fraction(0)) + Fraction(int(points), int(den))
        return out

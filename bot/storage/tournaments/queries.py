"""The SQL of tournaments, written once for both backends."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from bot.storage.core.errors import clean_text
from bot.storage.core.sql import SqlPrimitives, dumps, now
from bot.storage.play.interface import MatchRow
from bot.storage.play.queries import MATCH_COLUMNS, match_row
from bot.storage.tournaments.interface import TournamentRow, TournamentStatus

TOURNAMENT_COLUMNS = (
    "id, guild_id, channel_id, organiser_id, name, status, config, state, version, round, "
    "signup_until, deadline, remind_at, reminded_round, expired_round, message_id, "
    "created_at, updated_at"
)
_TOURNAMENT_UPDATABLE = {"status", "state", "config", "round", "deadline", "remind_at",
                         "signup_until", "message_id"}
_TOURNAMENT_JSON = {"state", "config"}
_NOTICE_COLUMNS = {"reminder": "reminded_round", "expired": "expired_round"}


def tournament_row(row: Any) -> TournamentRow:
    return TournamentRow(
        id=row[0], guild_id=row[1], channel_id=row[2], organiser_id=row[3], name=row[4],
        status=TournamentStatus(row[5]), config=json.loads(row[6]), state=json.loads(row[7]),
        version=row[8], round=row[9], signup_until=row[10], deadline=row[11],
        remind_at=row[12], reminded_round=row[13], expired_round=row[14],
        message_id=row[15], created_at=row[16], updated_at=row[17])


class TournamentQueries(SqlPrimitives):
    """Tournaments, their notices and openings, and the matches of their pairings."""

    # tournaments --------------------------------------------------------------
    async def insert_tournament(self, *, guild_id: int, channel_id: int, organiser_id: int,
                                name: str, config: dict[str, Any], state: dict[str, Any],
                                signup_until: str | None = None) -> TournamentRow:
        stamp = now()
        row = await self._one(
            "INSERT INTO tournaments (guild_id, channel_id, organiser_id, name, status, config, "
            "state, version, round, signup_until, created_at, updated_at) "
            "VALUES (?, ?, ?, ?, 'signup', ?, ?, 0, 0, ?, ?, ?) "
            f"RETURNING {TOURNAMENT_COLUMNS}",
            (guild_id, channel_id, organiser_id, clean_text(name), dumps(config), dumps(state),
             signup_until, stamp, stamp))
        assert row is not None
        return tournament_row(row)

    async def get_tournament(self, tournament_id: int) -> TournamentRow | None:
        row = await self._one(f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE id = ?",
                              (tournament_id,))
        return tournament_row(row) if row else None

    async def lock_tournament(self, tournament_id: int) -> TournamentRow | None:
        # A no-op update locks the row on PostgreSQL (SELECT ... FOR UPDATE is not SQLite).
        await self._write("UPDATE tournaments SET version = version WHERE id = ?",
                          (tournament_id,))
        return await self.get_tournament(tournament_id)

    async def tournaments_in_guild(self, guild_id: int,
                                   statuses: Sequence[str]) -> list[TournamentRow]:
        marks = ", ".join("?" for _ in statuses)
        rows = await self._all(
            f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE guild_id = ? "
            f"AND status IN ({marks}) ORDER BY id", (guild_id, *statuses))
        return [tournament_row(r) for r in rows]

    async def running_tournaments(self) -> list[TournamentRow]:
        rows = await self._all(
            f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments "
            "WHERE status IN ('running', 'paused') ORDER BY id")
        return [tournament_row(r) for r in rows]

    async def update_tournament(self, row: TournamentRow, **changes: Any) -> TournamentRow:
        return await self._update_versioned(
            "tournaments", "tournament", row, changes, _TOURNAMENT_UPDATABLE,
            json_columns=_TOURNAMENT_JSON, retry=True)

    async def claim_tournament_notice(self, tournament_id: int, kind: str, round: int) -> bool:
        column = _NOTICE_COLUMNS[kind]
        changed, _ = await self._cursor(
            f"UPDATE tournaments SET {column} = ? WHERE id = ? AND {column} < ?",
            (round, tournament_id, round))
        return changed == 1

    async def due_tournaments(self, now: str) -> list[TournamentRow]:
        rows = await self._all(
            f"SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE status = 'running' AND "
            "((remind_at IS NOT NULL AND remind_at <= ? AND reminded_round < round) OR "
            "(deadline IS NOT NULL AND deadline <= ? AND expired_round < round)) ORDER BY id",
            (now, now))
        return [tournament_row(r) for r in rows]

    async def link_match(self, match_id: int, tournament_id: int, pairing: str) -> None:
        await self._write(
            "UPDATE matches SET tournament_id = ?, tournament_pairing = ? WHERE id = ?",
            (tournament_id, clean_text(pairing), match_id))

    async def match_pairing(self, match_id: int) -> tuple[int, str] | None:
        row = await self._one(
            "SELECT tournament_id, tournament_pairing FROM matches WHERE id = ? "
            "AND tournament_id IS NOT NULL", (match_id,))
        return (int(row[0]), str(row[1])) if row else None

    async def tournament_matches(self, tournament_id: int) -> dict[str, MatchRow]:
        columns = ", ".join(f"m.{c.strip()}" for c in MATCH_COLUMNS.split(","))
        rows = await self._all(
            f"SELECT {columns}, m.tournament_pairing FROM matches m "
            "WHERE m.tournament_id = ? ORDER BY m.id", (tournament_id,))
        return {str(r[-1]): match_row(r) for r in rows}

    async def claim_opening(self, tournament_id: int, pairing: str, now: str,
                            stale_before: str) -> bool:
        changed, _ = await self._cursor(
            "INSERT INTO tournament_openings (tournament_id, pairing, claimed_at) "
            "VALUES (?, ?, ?) ON CONFLICT (tournament_id, pairing) DO UPDATE "
            "SET claimed_at = excluded.claimed_at WHERE tournament_openings.claimed_at < ? "
            "AND NOT EXISTS (SELECT 1 FROM matches WHERE tournament_id = ? "
            "AND tournament_pairing = ?)",
            (tournament_id, pairing, now, stale_before, tournament_id, pairing))
        return changed == 1

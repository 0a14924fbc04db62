"""The SQL of the leaderboard and player stats, written once for both backends."""

from __future__ import annotations

import json
from typing import Any, ClassVar

from bot.storage.players.queries import PlayersQueries


class StandingsQueries(PlayersQueries):
    """The leaderboard and player stats (a player's balance and rating come from
    :class:`~bot.storage.players.queries.PlayersQueries`)."""

    async def activity(self) -> dict[str, int]:
        row = await self._one(
            "SELECT (SELECT COUNT(*) FROM matches WHERE status = 'active'), "
            "(SELECT COUNT(*) FROM matches WHERE status = 'challenged'), "
            "(SELECT COUNT(*) FROM chouettes WHERE status IN ('open', 'playing')), "
            "(SELECT COUNT(*) FROM tournaments WHERE status IN ('signup', 'running', "
            "'paused'))")
        games, challenges, tables, tournaments = (int(v) for v in row)
        return {"games": games, "challenges": challenges, "tables": tables,
                "tournaments": tournaments}

    BOARD_SQL = """
        WITH members AS (
            SELECT white_id AS user_id FROM matches WHERE guild_id = :g
            UNION SELECT black_id FROM matches WHERE guild_id = :g
            UNION SELECT user_id FROM ledger WHERE guild_id = :g
        ),
        wins AS (
            SELECT winner_id AS user_id, COUNT(*) AS n FROM matches
            WHERE guild_id = :g AND status = 'finished' AND winner_id IS NOT NULL
            GROUP BY winner_id
        ),
        played AS (
            SELECT user_id, COUNT(*) AS n FROM (
                SELECT white_id AS user_id FROM matches WHERE guild_id = :g AND status = 'finished'
                UNION ALL
                SELECT black_id FROM matches WHERE guild_id = :g AND status = 'finished')
            GROUP BY user_id
        ),
        money AS (
            SELECT user_id, SUM(amount) AS n FROM ledger WHERE guild_id = :g GROUP BY user_id
        )
        SELECT m.user_id, COALESCE(u.name, CAST(m.user_id AS TEXT)),
               COALESCE(r.rating, 1500.0), COALESCE(r.experience, 0),
               COALESCE(w.n, 0), COALESCE(p.n, 0), COALESCE(mo.n, 0)
        FROM members m
        LEFT JOIN users u ON u.id = m.user_id
        LEFT JOIN ratings r ON r.guild_id = :g AND r.user_id = m.user_id
        LEFT JOIN wins w ON w.user_id = m.user_id
        LEFT JOIN played p ON p.user_id = m.user_id
        LEFT JOIN money mo ON mo.user_id = m.user_id
    """
    _FILTERS: ClassVar[dict[str, str]] = {
        # The AI's games are unrated: it has no place on the rating list; nor has a
        # player without a finished rated match (experience grows by each one's length;
        # a challenge or a match not ended gives none: issue 42 item 17).
        "rating": " WHERE COALESCE(u.is_bot, 0) = 0 AND COALESCE(r.experience, 0) > 0 ",
    }
    _ORDERS: ClassVar[dict[str, str]] = {
        "rating": "ORDER BY (COALESCE(r.experience, 0) >= :min_exp) DESC, "
                  "COALESCE(r.rating, 1500.0) DESC, m.user_id",
        "money": "ORDER BY COALESCE(mo.n, 0) DESC, m.user_id",
        "wins": "ORDER BY COALESCE(w.n, 0) DESC, COALESCE(p.n, 0) ASC, m.user_id",
    }

    async def leaderboard(self, guild_id: int, order: str, limit: int, offset: int,
                          min_experience: int = 0) -> list[dict[str, Any]]:
        if order not in self._ORDERS:
            raise ValueError(f"unknown leaderboard order {order!r}")
        rows = await self._all(
            self.BOARD_SQL + self._FILTERS.get(order, "") + self._ORDERS[order]
            + " LIMIT :limit OFFSET :offset",
            {"g": guild_id, "limit": limit, "offset": offset, "min_exp": min_experience})
        return [
            {"rank": offset + i + 1, "user_id": r[0], "name": r[1], "rating": float(r[2]),
             "experience": int(r[3]), "wins": int(r[4]), "played": int(r[5]),
             "balance": int(r[6])}
            for i, r in enumerate(rows)
        ]

    async def leaderboard_count(self, guild_id: int, order: str) -> int:
        row = await self._one(
            f"SELECT COUNT(*) FROM ({self.BOARD_SQL}{self._FILTERS.get(order, '')})",
                              {"g": guild_id})
        return int(row[0]) if row else 0

    async def user_stats(self, guild_id: int, user_id: int) -> dict[str, Any]:
        games = await self._all(
            "SELECT g.winner_id, g.result, m.white_id, m.black_id FROM games g "
            "JOIN matches m ON m.id = g.match_id WHERE m.guild_id = ? AND g.status = 'finished' "
            "AND g.result IS NOT NULL AND (m.white_id = ? OR m.black_id = ?)",
            (guild_id, user_id, user_id))
        stats: dict[str, Any] = {
            "games": 0, "games_won": 0, "gammons_won": 0, "backgammons_won": 0,
            "gammons_lost": 0, "backgammons_lost": 0, "doubles": 0, "takes": 0, "drops": 0,
        }
        for winner, result_json, _white, _black in games:
            stats["games"] += 1
            result = json.loads(result_json) if result_json else {}
            kind = result.get("kind", "single")
            won = winner == user_id
            stats["games_won"] += int(won)
            if kind in ("gammon", "backgammon"):
                key = f"{kind}s_{'won' if won else 'lost'}"
                stats[key] += 1
        matches = await self._all(
            "SELECT winner_id, white_id, black_id FROM matches WHERE guild_id = ? "
            "AND status = 'finished' AND (white_id = ? OR black_id = ?)",
            (guild_id, user_id, user_id))
        stats["matches"] = len(matches)
        stats["matches_won"] = sum(1 for m in matches if m[0] == user_id)
        cube = await self._all(
            "SELECT e.kind, COUNT(*) FROM events e JOIN games g ON g.id = e.game_id "
            "JOIN matches m ON m.id = g.match_id WHERE m.guild_id = ? AND e.actor_id = ? "
            "AND e.kind IN ('double', 'take', 'drop', 'beaver') GROUP BY e.kind",
            (guild_id, user_id))
        for kind, count in cube:
            key = {"double": "doubles", "take": "takes", "drop": "drops",
                   "beaver": "beavers"}[kind]
            stats[key] = int(count)
        opponents: dict[int, list[int]] = {}
        for winner, white, black in matches:
            opp = black if white == user_id else white
            rec = opponents.setdefault(opp, [0, 0])
            rec[0 if winner == user_id else 1] += 1
        stats["head_to_head"] = opponents
        stats["balance"] = await self.balance(guild_id, user_id)
        rating = await self.rating(guild_id, user_id)
        stats["rating"] = rating.rating
        stats["experience"] = rating.experience
        stats["rating_history"] = await self.rating_history(guild_id, user_id)
        stats["variants"] = [str(v) for (v,) in await self._all(
            "SELECT variant FROM matches WHERE guild_id = ? AND status IN ('active', "
            "'finished') AND (white_id = ? OR black_id = ?) ORDER BY id",
            (guild_id, user_id, user_id))]
        stats["recent"] = await self._recent_results(guild_id, user_id)
        return stats

    async def _recent_results(self, guild_id: int, user_id: int, limit: int = 10
                              ) -> list[dict[str, Any]]:
        """The player's last finished matches and money sessions, newest first: won,
        opponent's name, match length (0: money), points of each side."""
        rows = await self._all(
            "SELECT m.id, m.winner_id, m.white_id, m.length, u.name FROM matches m "
            "JOIN users u ON u.id = CASE WHEN m.white_id = ? THEN m.black_id "
            "ELSE m.white_id END WHERE m.guild_id = ? AND m.status = 'finished' "
            "AND (m.white_id = ? OR m.black_id = ?) ORDER BY m.id DESC LIMIT ?",
            (user_id, guild_id, user_id, user_id, limit))
        if not rows:
            return []
        points: dict[int, list[int]] = {int(r[0]): [0, 0] for r in rows}
        oldest = min(points)
        for match_id, winner, result_json in await self._all(
                "SELECT g.match_id, g.winner_id, g.result FROM games g "
                "JOIN matches m ON m.id = g.match_id WHERE m.guild_id = ? "
                "AND m.status = 'finished' AND (m.white_id = ? OR m.black_id = ?) "
                "AND m.id >= ? AND g.status = 'finished'",
                (guild_id, user_id, user_id, oldest)):
            side = points.get(int(match_id))
            if side is None or winner is None:
                continue
            result = json.loads(result_json) if result_json else {}
            side[0 if winner == user_id else 1] += int(result.get("points", 0))
        out = []
        for match_id, winner, _white, length, name in rows:
            mine, theirs = points[int(match_id)]
            won = winner == user_id if winner is not None else mine > theirs
            out.append({"won": won, "opponent": str(name), "length": int(length),
                        "points": (mine, theirs)})
        return out

"""Standings: the server's leaderboard and a player's stats and card.

These commands change nothing, so they read through ``storage.snapshot()``.
"""

from __future__ import annotations

from typing import Any

from bot.names import pad
from bot.service.core.replies import Picture, PictureKind, Reply
from bot.service.core.values import Actor, Place, bad_ids
from bot.service.records import ratings
from bot.storage.interface import MatchStatus, Storage

MAX_PAGE = 100_000
RECENT = 8
"""Results shown on a player card."""


class Standings:
    """The leaderboard and player stats."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    async def in_progress(self, guild_id: int) -> list[tuple[int, str]]:
        """(channel, what waits there) of the server's challenges and matches in progress
        (the console lists them when it starts again: issue 30 item 16)."""
        out: list[tuple[int, str]] = []
        async with self.storage.snapshot() as tx:
            for row in await tx.open_matches_in_guild(guild_id):
                names = []
                for user in (row.white_id, row.black_id):
                    found = await tx.get_user(user)
                    names.append(found.name if found else str(user))
                if row.chouette_id is not None:
                    what = f"chouette game, {names[0]} in the box against {names[1]}"
                elif row.status is MatchStatus.CHALLENGED:
                    what = f"{names[0]} challenges {names[1]} (waiting for an answer)"
                else:
                    terms = (f"{row.length}-point match" if row.length else "money play")
                    what = f"{names[0]} v {names[1]}, {terms}"
                out.append((row.channel_id, what))
        return out

    async def leaderboard(self, place: Place, actor: Actor, order: str = "rating",
                          page: int = 1, per_page: int = 10) -> Reply:
        if (bad := bad_ids(place, actor)) is not None:
            return Reply.refuse(bad)
        if order not in ("rating", "money", "wins"):
            return Reply.refuse("Rank by rating, money or wins.")
        if not 1 <= page <= MAX_PAGE:
            return Reply.refuse(f"Pages are numbered from 1 to at most {MAX_PAGE}.")
        if not 1 <= per_page <= 100:
            return Reply.refuse("A page shows 1 to 100 players.")
        async with self.storage.snapshot() as tx:
            total = await tx.leaderboard_count(place.guild_id, order)
            rows = await tx.leaderboard(place.guild_id, order, per_page,
                                        (page - 1) * per_page)
            everyone = await tx.leaderboard(place.guild_id, order, max(total, 1), 0)
        if not total:
            return Reply(ok=True, text="No games have been played in this server yet.")
        pages = (total + per_page - 1) // per_page
        if page > pages:
            return Reply.refuse(f"The {order} leaderboard has only {pages} "
                                f"page{'s' if pages != 1 else ''}: ask for page 1"
                                + (f" to {pages}." if pages > 1 else "."))
        lines = [f"Leaderboard by {order} (page {page}/{pages}):"]
        shown = {r["user_id"] for r in rows}
        established = ratings.ESTABLISHED_EXPERIENCE
        apart = False
        for r in rows:
            if order == "rating" and not apart and r["experience"] < established:
                # FIBS lists players with little experience apart, below the others.
                lines.append(f"-- provisional (less than {established} experience) --")
                apart = True
            lines.append(self._board_line(r, order, established))
        mine = [r for r in everyone if r["user_id"] == actor.id]
        if mine and actor.id not in shown:
            lines.append("…")
            lines.append(self._board_line(mine[0], order, established))
        if order == "rating":
            lines.append(f"(players with less than {established} experience are marked *)")
        return Reply(ok=True, text="\n".join(lines))

    @staticmethod
    def _board_line(r: dict[str, Any], order: str, established: int) -> str:
        mark = "*" if r["experience"] < established else " "
        # Padded by display width: a wide emoji takes two columns (issue 30 item 16).
        return (f"{r['rank']:>3}. {pad(r['name'], 20)} rating {r['rating']:7.1f}{mark} "
                f"exp {r['experience']:>4}  wins {r['wins']:>3}/{r['played']:<3} "
                f"balance {r['balance']:+d}")

    async def stats(self, place: Place, actor: Actor, user: Actor | None = None) -> Reply:
        target = user or actor
        if (bad := bad_ids(place, actor, user)) is not None:
            return Reply.refuse(bad)
        async with self.storage.snapshot() as tx:
            s = await tx.user_stats(place.guild_id, target.id)
            names = {}
            for opp in s["head_to_head"]:
                u = await tx.get_user(opp)
                names[opp] = u.name if u else str(opp)
        lines = [
            f"{target.name}: rating {s['rating']:.1f}, balance {s['balance']:+d}",
            f"matches {s['matches_won']}/{s['matches']} won, games {s['games_won']}/"
            f"{s['games']} won",
            f"gammons won {s['gammons_won']}, lost {s['gammons_lost']}; backgammons won "
            f"{s['backgammons_won']}, lost {s['backgammons_lost']}",
            f"cube: doubles {s['doubles']}, takes {s['takes']}, drops {s['drops']}, "
            f"beavers {s.get('beavers', 0)}",
        ]
        if s["rating_history"]:
            trail = " → ".join(f"{after:.0f}" for _, after in s["rating_history"][-8:])
            lines.append(f"rating history: {trail}")
        for opp, (won, lost) in sorted(s["head_to_head"].items()):
            lines.append(f"vs {names[opp]}: {won}-{lost}")
        return Reply(ok=True, text="\n".join(lines),
                     pictures=(self._card(target, s),))

    @staticmethod
    def _card(target: Actor, s: dict[str, Any]) -> Picture:
        """The player card of ``target`` (issue 18) from ``Transaction.user_stats``."""
        from bot.service.pictures.contents import player_card
        from render.card import RecentResult, card_alt_text

        recent = []
        for r in s.get("recent", [])[:RECENT]:
            mine, theirs = r["points"]
            detail = f"{mine}-{theirs} to {r['length']}" if r["length"] else \
                f"money {mine - theirs:+d}"
            recent.append(RecentResult(bool(r["won"]), r["opponent"], detail))
        card = player_card(target.name, s, experience=int(s.get("experience", 0)),
                           established=ratings.ESTABLISHED_EXPERIENCE,
                           variants=s.get("variants", []), recent=recent)
        return Picture(PictureKind.CARD, card, f"player-{target.id}-card.png",
                       card_alt_text(card))

"""Standings: the server's leaderboard and a player's stats and card.

These commands change nothing, so they read through ``storage.snapshot()``.
"""

from __future__ import annotations

from typing import Any

from bot.names import pad
from bot.service.core.replies import Picture, PictureKind, Reply
from bot.service.core.values import PERSONAL, Actor, Place, bad_ids, without_server
from bot.service.records import ratings
from bot.service.standings.form import (
    DEPTH,
    MIN_PR_DECISIONS,
    Form,
    form_lines,
    form_of,
    pr_board_line,
    puzzle_board_line,
)
from bot.storage.interface import MatchStatus, Storage, Transaction

MAX_PAGE = 100_000
RECENT = 8
"""Results shown on a player card."""
ORDERS = ("rating", "money", "wins", "pr", "puzzles")


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
        if not place.in_server:
            return Reply.refuse(without_server(
                place, "The leaderboard",
                "it ranks the players of one server. Your games outside servers count "
                "toward your personal rating, on your /stats card."))
        if order not in ORDERS:
            return Reply.refuse("Rank by rating, money or wins, or by pr (the performance "
                                "rating of analysed standard matches) or puzzles.")
        if not 1 <= page <= MAX_PAGE:
            return Reply.refuse(f"Pages are numbered from 1 to at most {MAX_PAGE}.")
        if not 1 <= per_page <= 100:
            return Reply.refuse("A page shows 1 to 100 players.")
        if order in ("pr", "puzzles"):
            return await self._analysis_board(place, actor, order, page, per_page)
        async with self.storage.snapshot() as tx:
            total = await tx.leaderboard_count(place.guild_id, order)
            rows = await tx.leaderboard(place.guild_id, order, per_page,
                                        (page - 1) * per_page)
            everyone = await tx.leaderboard(place.guild_id, order, max(total, 1), 0)
        if not total:
            return Reply(ok=True, text="No rated match has finished in this server yet: "
                         "a player is ranked by rating after his first one." if order == "rating"
                         else "No games have been played in this server yet.")
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

    async def _analysis_board(self, place: Place, actor: Actor, order: str, page: int,
                              per_page: int) -> Reply:
        """``/leaderboard pr`` (issue 33: players with at least :data:`MIN_PR_DECISIONS`
        analysed decisions, lowest PR first) or ``/leaderboard puzzles``."""
        offset = (page - 1) * per_page
        async with self.storage.snapshot() as tx:
            if order == "pr":
                total = await tx.pr_leaderboard_count(place.guild_id, DEPTH, MIN_PR_DECISIONS)
                rows = await tx.pr_leaderboard(place.guild_id, DEPTH, MIN_PR_DECISIONS,
                                               per_page, offset)
                everyone = await tx.pr_leaderboard(place.guild_id, DEPTH, 0, 100_000, 0)
            else:
                total = await tx.puzzle_leaderboard_count(place.guild_id)
                rows = await tx.puzzle_leaderboard(place.guild_id, per_page, offset)
                everyone = await tx.puzzle_leaderboard(place.guild_id, 100_000, 0)
        line = pr_board_line if order == "pr" else puzzle_board_line
        mine = next((r for r in everyone if r["user_id"] == actor.id), None)
        if order == "pr":
            head = (f"PR leaderboard: analysed standard matches at GNU 1-ply, players with "
                    f"at least {MIN_PR_DECISIONS} decisions; lower is better")
            yours = (f"(you: {mine['decisions']} analysed decisions, PR "
                     f"{500 * mine['lost'] / mine['decisions']:.2f}: the list needs "
                     f"{MIN_PR_DECISIONS})" if mine and mine["decisions"] < MIN_PR_DECISIONS
                     else "")
        else:
            head = "Puzzle leaderboard: right first answers (then less equity given up)"
            yours = ""
        if not total:
            empty = ("No player has enough analysed decisions yet." if order == "pr"
                     else "Nobody has answered a puzzle here yet (/puzzle).")
            return Reply(ok=True, text="\n".join(x for x in (head + ":", empty, yours) if x))
        pages = (total + per_page - 1) // per_page
        if page > pages:
            return Reply.refuse(f"The {order} leaderboard has only {pages} "
                                f"page{'s' if pages != 1 else ''}: ask for page 1"
                                + (f" to {pages}." if pages > 1 else "."))
        lines = [f"{head} (page {page}/{pages}):"]
        lines.extend(line(r) for r in rows)
        if mine and yours:
            lines.append(yours)
        elif mine and actor.id not in {r["user_id"] for r in rows}:
            ranked = next((r for r in await self._ranked(place, order, total)
                           if r["user_id"] == actor.id), None)
            if ranked is not None:
                lines.extend(["…", line(ranked)])
        return Reply(ok=True, text="\n".join(lines))

    async def _ranked(self, place: Place, order: str, total: int) -> list[dict[str, Any]]:
        async with self.storage.snapshot() as tx:
            if order == "pr":
                return await tx.pr_leaderboard(place.guild_id, DEPTH, MIN_PR_DECISIONS,
                                               total, 0)
            return await tx.puzzle_leaderboard(place.guild_id, total, 0)

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
            form = await self._form(tx, place.guild_id, target.id)
            # Games outside servers count toward a personal rating (issue 32): its own card
            # in a DM, a line on a server's card when the player has one.
            personal = None
            if place.in_server:
                mine = await tx.rating(PERSONAL, target.id)
                personal = mine.rating if mine.experience else None
        scope = "rating" if place.in_server else "personal rating (games outside servers)"
        lines = [
            f"{target.name}: {scope} {s['rating']:.1f}, balance {s['balance']:+d}",
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
        if personal is not None:
            lines.append(f"personal rating (games outside servers): {personal:.1f}")
        lines.extend(form_lines(form))
        return Reply(ok=True, text="\n".join(lines), pictures=(self._card(
            target, s, form, personal=not place.in_server, personal_rating=personal),))

    @staticmethod
    async def _form(tx: Transaction, guild_id: int, user_id: int) -> Form:
        """The player's PR over time and his puzzle record (issue 33, item 4)."""
        figures = await tx.match_figures(guild_id, user_id, DEPTH)
        return form_of(figures, await tx.puzzle_record(guild_id, user_id))

    @staticmethod
    def _card(target: Actor, s: dict[str, Any], form: Form | None = None, *,
              personal: bool = False, personal_rating: float | None = None) -> Picture:
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
                           variants=s.get("variants", []), recent=recent,
                           form=form.card() if form is not None else None,
                           personal=personal, personal_rating=personal_rating)
        return Picture(PictureKind.CARD, card, f"player-{target.id}-card.png",
                       card_alt_text(card))

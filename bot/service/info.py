"""The service's commands that only look: hints and analysis, the leaderboard and
player stats (the export, the dice check and the history are in :mod:`.records`,
the rules in force in :mod:`.rulebook`).

These commands change nothing, so they read through ``storage.snapshot()`` (no write
lock, no version to check); they use the action runner's match loader only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.config import Config
from bot.service import ratings
from bot.service.ai_turns import match_context
from bot.service.chances import chances_text
from bot.service.replies import Board, Refusal, Reply
from bot.service.runner import ActionRunner
from bot.service.values import Actor, Place
from bot.service.views import board
from bot.storage.interface import GameStatus
from bot.storage.replay import replay_game
from engine.player import Player

if TYPE_CHECKING:
    from bot.ai.runner import AIRunner

MAX_PAGE = 100_000


class InfoCommands:
    """Hints, analysis, leaderboard and stats."""

    def __init__(self, runner: ActionRunner, config: Config, ai: AIRunner | None) -> None:
        self.runner = runner
        self.storage = runner.storage
        self.config = config
        self.ai = ai

    # ----------------------------------------------------------- the AI's view

    async def hint(self, place: Place, actor: Actor) -> Reply:
        """The best plays for the current roll, or cube advice before rolling."""
        if self.ai is None:
            return Reply.refuse("Hints need the AI, which is switched off on this server.")
        try:
            async with self.storage.snapshot() as tx:
                loaded = await self.runner.load(tx, place)
        except Refusal as refusal:
            return Reply.refuse(str(refusal))
        row, game = loaded.row, loaded.game
        if actor.id not in (row.white_id, row.black_id):
            return Reply.refuse("Only the players of this game can ask for a hint.")
        if not loaded.state.hints:
            return Reply.refuse("Hints are off in this rated match: both players must enable "
                                "them when it starts (/challenge ... hints:on).")
        player = Player.WHITE if actor.id == row.white_id else Player.BLACK
        if game is None or game.awaiting is not player:
            return Reply.refuse("A hint is for your own decision: wait for your turn.")
        advice = await self.ai.hint(game, match_context(loaded.session), 5)
        lines = [f"Hint for {loaded.names[player]}"
                 + (f" ({advice.source})" if advice.source else "") + ":"]
        if advice.cube is not None:
            c = advice.cube
            lines.append(f"Cube: {c.action}. No double {c.no_double:+.3f}, double/take "
                         f"{c.double_take:+.3f}, double/pass {c.double_pass:+.3f}; "
                         + chances_text(c.chances))
        for i, p in enumerate(advice.plays, start=1):
            equity = "" if p.equity is None else f"  {p.equity:+.3f}"
            diff = "" if not p.equity_diff else f" ({p.equity_diff:+.3f})"
            chances = "" if p.chances is None else "  " + chances_text(p.chances)
            lines.append(f"{i}. {p.text or 'no move'}{equity}{diff}{chances}")
        if advice.note:
            lines.append(advice.note)
        return Reply(ok=True, text="\n".join(lines), ephemeral=True)

    async def analyze(self, place: Place, actor: Actor) -> Reply:
        """Error rates and the largest mistakes of the last finished game here."""
        if self.ai is None:
            return Reply.refuse("Analysis needs the AI, which is switched off on this server.")
        async with self.storage.snapshot() as tx:
            row = await tx.latest_match_in_channel(place.channel_id)
            if row is None or row.guild_id != place.guild_id:
                return Reply.refuse("There is no game in this channel to analyse.")
            loaded = await self.runner.load_row(tx, row)
            games = await tx.games_of_match(row.id)
            finished = [g for g in games if g.status is GameStatus.FINISHED]
            if not finished:
                return Reply.refuse("No game has finished here yet: /analyze looks at the last "
                                    "finished game.")
            target = finished[-1]
            events = await tx.events(target.id)
        game = replay_game(row, target, events)
        result = await self.ai.analyze(game.to_record(), match_context(loaded.session))
        lines = [f"Analysis of game {target.number} (id {target.id}):",
                 *result.summary(loaded.names)]
        boards: list[Board] = []
        if result.supported:
            worst = sorted((m for pa in result.players for m in pa.mistakes),
                           key=lambda m: -m.equity_lost)[:3]
            for m in worst:
                boards.append(board(m.before, loaded.session, loaded.names,
                                    f"{loaded.names[m.player]}: played {m.played}, better "
                                    f"{m.best} (-{m.equity_lost:.3f})", viewer=m.player))
        return Reply(ok=True, text="\n".join(lines), boards=tuple(boards), match_id=row.id)

    # ------------------------------------------------------- leaderboard, stats

    async def leaderboard(self, place: Place, actor: Actor, order: str = "rating",
                          page: int = 1, per_page: int = 10) -> Reply:
        if order not in ("rating", "money", "wins"):
            return Reply.refuse("Rank by rating, money or wins.")
        if not 1 <= page <= MAX_PAGE:
            return Reply.refuse(f"Pages are numbered from 1 to at most {MAX_PAGE}.")
        async with self.storage.snapshot() as tx:
            total = await tx.leaderboard_count(place.guild_id, order)
            rows = await tx.leaderboard(place.guild_id, order, per_page,
                                        (page - 1) * per_page)
            everyone = await tx.leaderboard(place.guild_id, order, max(total, 1), 0)
        if not total:
            return Reply(ok=True, text="No games have been played in this server yet.")
        pages = (total + per_page - 1) // per_page
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
        return (f"{r['rank']:>3}. {r['name']:<20} rating {r['rating']:7.1f}{mark} "
                f"exp {r['experience']:>4}  wins {r['wins']:>3}/{r['played']:<3} "
                f"balance {r['balance']:+d}")

    async def stats(self, place: Place, actor: Actor, user: Actor | None = None) -> Reply:
        target = user or actor
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
            f"cube: doubles {s['doubles']}, takes {s['takes']}, drops {s['drops']}",
        ]
        if s["rating_history"]:
            trail = " → ".join(f"{after:.0f}" for _, after in s["rating_history"][-8:])
            lines.append(f"rating history: {trail}")
        for opp, (won, lost) in sorted(s["head_to_head"].items()):
            lines.append(f"vs {names[opp]}: {won}-{lost}")
        return Reply(ok=True, text="\n".join(lines))

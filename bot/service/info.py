"""The service's commands that only look: hints and analysis, the leaderboard and
player stats, the ``.mat`` export, the rules in force and the dice check.

These commands change nothing, so they read through ``storage.snapshot()`` (no write
lock, no version to check); they use the action runner's match loader only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.config import Config
from bot.service import fairdice, ratings
from bot.service.ai_turns import match_context
from bot.service.export import export_channel_match
from bot.service.replies import Board, Refusal, Reply
from bot.service.runner import ActionRunner
from bot.service.values import Actor, Place
from bot.service.verify import dice_of_record
from bot.service.views import board
from bot.storage.interface import GameStatus, MatchStatus
from bot.storage.replay import replay_game
from engine.errors import BackgammonError
from engine.player import Player
from engine.rules import RuleOptions
from engine.variant import get_variant

if TYPE_CHECKING:
    from bot.ai.runner import AIRunner

MAX_ID = 2**62
"""Ids above this are not ours (SQLite integers are signed 64-bit)."""
MAX_PAGE = 100_000


class InfoCommands:
    """Hints, analysis, leaderboard, stats, export, rules and verify."""

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
                         f"{c.double_take:+.3f}, double/pass {c.double_pass:+.3f}; wins "
                         f"{c.chances.win * 100:.1f}% (gammons {c.chances.gammon_win * 100:.1f}%)")
        for i, p in enumerate(advice.plays, start=1):
            equity = "" if p.equity is None else f"  {p.equity:+.3f}"
            diff = "" if not p.equity_diff else f" ({p.equity_diff:+.3f})"
            chances = "" if p.chances is None else (
                f"  win {p.chances.win * 100:.1f}%, gammon {p.chances.gammon_win * 100:.1f}%")
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

    # ---------------------------------------------------------------- export

    async def export(self, place: Place, actor: Actor) -> Reply:
        """The channel's current (or latest) match as GNU Backgammon ``.mat`` text."""
        try:
            async with self.storage.snapshot() as tx:
                row = await tx.latest_match_in_channel(place.channel_id)
                if row is None or row.guild_id != place.guild_id or row.status in (
                        MatchStatus.CHALLENGED, MatchStatus.DECLINED, MatchStatus.CANCELLED):
                    return Reply.refuse("There is no game in this channel to export.")
                text = await export_channel_match(tx, row)
        except BackgammonError as error:
            return Reply.refuse(f"This game can't be exported as a .mat file: {error}")
        name = f"bgbot-match-{row.id}.mat"
        return Reply(ok=True, text=f"Match {row.id} as a GNU Backgammon match file "
                     "(File > Import > .mat in GNU Backgammon).",
                     attachment=(name, text.encode("utf-8")), match_id=row.id)

    # ----------------------------------------------------------------- rules

    async def rules(self, variant: str | None = None) -> Reply:
        """The rules a new game gets by default (or those of ``variant``)."""
        try:
            cls = get_variant(variant or self.config.game.variant)
            options = RuleOptions.from_dict(self.config.game.rules)
        except BackgammonError as error:
            return Reply.refuse(str(error))
        lines = [f"{cls.title}: " + "; ".join(cls().describe()[1:] or ["standard rules"])]
        if cls.sources:
            lines.append("Rule books: " + ", ".join(cls.sources))
        lines.append("Default options: " + "; ".join(options.describe()) + ".")
        if self.ai is not None:
            lines.append(
                "Against the bot: its backgammon network (bgsage) at the level you choose."
                if cls.name == "standard" else
                "Against the bot: the network does not know this variant, so the bot plays a "
                "simple heuristic (pip count, safety, blocking, entering) and is clearly "
                "weaker here than in standard backgammon.")
        lines.append("Change them per game with /challenge options.")
        return Reply(ok=True, text="\n".join(lines))

    # ---------------------------------------------------------------- verify

    async def verify(self, place: Place, actor: Actor, game_id: int | None = None) -> Reply:
        """Recompute every die of a finished game from its revealed seed."""
        async with self.storage.snapshot() as tx:
            if game_id is None:
                row = await tx.latest_match_in_channel(place.channel_id)
                candidates = await tx.games_of_match(row.id) if row else []
                finished = [g for g in candidates if g.status is GameStatus.FINISHED]
                if not finished:
                    return Reply.refuse("No finished game here to verify: the seed of a game "
                                        "is revealed when it ends. Give a game id.")
                game_row = finished[-1]
            else:
                found = await tx.get_game(game_id) if 0 < game_id < MAX_ID else None
                if found is None:
                    return Reply.refuse(f"There is no game {game_id}.")
                game_row = found
            if game_row.status is not GameStatus.FINISHED:
                return Reply(ok=True, text=(
                    f"Game {game_row.id} is still being played; its dice are committed to by "
                    f"SHA-256 {game_row.seed_hash}. The seed is revealed when it ends."))
            events = await tx.events(game_row.id)
        dice = dice_of_record([e.data for e in events])
        problems = fairdice.verify(game_row.seed, game_row.seed_hash, dice)
        if problems:
            return Reply(ok=True, text="Verification FAILED:\n" + "\n".join(problems))
        return Reply(ok=True, text=(
            f"Game {game_row.id}: all {len(dice)} dice match the seed {game_row.seed} "
            f"(SHA-256 {game_row.seed_hash}). Check it yourself: "
            f"python -m bot.service.fairdice {game_row.seed} {game_row.seed_hash} {len(dice)}"))

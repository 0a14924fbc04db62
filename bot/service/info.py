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
from bot.service.replies import Board, Picture, PictureKind, Refusal, Reply
from bot.service.runner import ActionRunner
from bot.service.showing import (
    channel_match,
    chart_picture,
    names_of,
    pick_game,
    seat_of,
    session_before,
    summary_picture,
)
from bot.service.values import Actor, Place
from bot.service.verify import dice_of_record
from bot.service.views import board
from bot.storage.interface import GameRow, GameStatus, MatchRow, MatchStatus
from bot.storage.replay import replay_game
from engine.errors import BackgammonError
from engine.match import Match, Session
from engine.player import Player
from engine.record import GameRecord
from engine.rules import RuleOptions
from engine.variant import get_variant

if TYPE_CHECKING:
    from bot.ai.analysis import GameAnalysis
    from bot.ai.runner import AIRunner

MAX_ID = 2**62
"""Ids above this are not ours (SQLite integers are signed 64-bit)."""
MAX_PAGE = 100_000
ANALYSIS_SECONDS = 120.0
"""How long the analysis of one game may take at the default depth (GNU 1-ply)."""
EXPERT_ANALYSIS_SECONDS = 600.0
"""At expert depth (GNU 2-ply), several times slower: within Discord's 15 minutes for a
deferred answer."""
RECENT = 8
"""Results shown on a player card."""


def _score_at(session: Session, names: tuple[str, str]) -> str:
    """" at alice 1, bob 0 in a match to 3" (nothing for money play)."""
    if not isinstance(session, Match):
        return ""
    w, b = session.score
    return f", played at {names[0]} {w}, {names[1]} {b} in a match to {session.length}"


def _match_rates(analyses: list[GameAnalysis], names: tuple[str, str]) -> list[str]:
    """Each player's error rate over the analysed games of a match."""
    ran = [a for a in analyses if a.supported]
    if not ran:
        return [analyses[0].note] if analyses else []
    out = []
    for p in (Player.WHITE, Player.BLACK):
        decisions = sum(a.of(p).decisions for a in ran)
        lost = sum(a.of(p).total_lost for a in ran)
        rate = lost / decisions if decisions else 0.0
        out.append(f"{names[p]} over the match: {decisions} decisions, error rate "
                   f"{rate * 1000:.1f} mEMG/decision, total {lost:.3f}")
    return out


def _winner_of(row: MatchRow) -> Player | None:
    if row.winner_id is None:
        return None
    return Player.WHITE if row.winner_id == row.white_id else Player.BLACK


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

    async def analyze(self, place: Place, actor: Actor, number: int | None = None,
                      depth: str | None = None, whole_match: bool = False) -> Reply:
        """Error rates and the largest mistakes of a finished game here (game ``number``
        of the channel's match, default the last finished one), or of every finished
        game of the match; each game at the score, cube and Crawford state it was
        played at.  With the analysis graph for the player who asks (a match: the
        match summary with each player's error rate)."""
        from bot.ai.levels import EXPERT, analysis_level

        if self.ai is None:
            return Reply.refuse("Analysis needs the AI, which is switched off on this server.")
        try:
            level = analysis_level(depth)
        except ValueError as error:
            return Reply.refuse(str(error))
        try:
            async with self.storage.snapshot() as tx:
                row, games = await channel_match(tx, place, "analyze")
                if whole_match:
                    targets = [g for g in games if g.status is GameStatus.FINISHED]
                    if not targets:
                        raise Refusal("No game has finished here yet: /analyze looks at "
                                      "finished games.")
                else:
                    targets = [pick_game(games, number, "analyze", finished_only=True)]
                events = [await tx.events(g.id) for g in targets]
                names = await names_of(tx, row)
        except Refusal as refusal:
            return Reply.refuse(str(refusal))
        timeout = EXPERT_ANALYSIS_SECONDS if level is EXPERT else ANALYSIS_SECONDS
        done: list[tuple[GameRow, Session, GameRecord, GameAnalysis]] = []
        for target, evs in zip(targets, events, strict=True):
            session = session_before(row, games, target)
            record = replay_game(row, target, evs).to_record()
            try:
                result = await self.ai.analyze(record, match_context(session), level,
                                               timeout=timeout)
            except TimeoutError:
                slower = " Try depth:strong, which is faster." if level is EXPERT else ""
                return Reply.refuse(f"The analysis of game {target.number} took longer than "
                                    f"{timeout:.0f} s and was stopped.{slower}")
            done.append((target, session, record, result))
        me = seat_of(row, actor)
        lines: list[str] = []
        if whole_match:
            lines.append(f"Analysis of the match ({len(done)} finished game"
                         f"{'' if len(done) == 1 else 's'}):")
            lines.extend(_match_rates([a for *_, a in done], names))
        for target, session, _, result in done:
            lines.append(f"Analysis of game {target.number} (id {target.id})"
                         + _score_at(session, names) + ":")
            lines.extend(result.summary(names))
        boards: list[Board] = []
        worst = sorted(((m, session) for _, session, _, result in done if result.supported
                        for pa in result.players for m in pa.mistakes),
                       key=lambda ms: -ms[0].equity_lost)[:3]
        for m, session in worst:
            boards.append(board(m.before, session, names,
                                f"{names[m.player]}: played {m.played}, better "
                                f"{m.best} (-{m.equity_lost:.3f})", viewer=m.player))
        pictures: list[Picture] = []
        if whole_match:
            if any(result.supported for *_, result in done):
                pictures.append(summary_picture(
                    row, names, [r for _, _, r, _ in done], [a for *_, a in done],
                    winner=_winner_of(row)))
        else:
            target, _, record, result = done[0]
            if result.supported:
                pictures.append(chart_picture(result, record, me, names,
                                              f"match-{row.id}-game-{target.number}"))
        return Reply(ok=True, text="\n".join(lines), boards=tuple(boards), match_id=row.id,
                     pictures=tuple(pictures))

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
        return Reply(ok=True, text="\n".join(lines),
                     pictures=(self._card(target, s),))

    @staticmethod
    def _card(target: Actor, s: dict[str, Any]) -> Picture:
        """The player card of ``target`` (issue 18) from ``Transaction.user_stats``."""
        from bot.service.pictures import player_card
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

"""Analyses kept in the database (issue 33, item 2), and the puzzles made from them.

An analysis is kept per game and depth (``strong``: GNU 1-ply, the default; ``expert``:
GNU 2-ply) with the engine that made it, and per game, depth and player as figures (PR,
luck) that a player's form and the PR leaderboard read.  Keeping an analysis also makes
its decisions that lost at least the server's minimum equity into puzzles (item 5), in
the same transaction, so a game's puzzles exist exactly when its analysis does.

Standard backgammon has analyses (bgsage), and so has a book variant where one of our
own networks knows it (issue 46, item 4: :mod:`bot.ai.variant_analysis`); a variant no
network knows has none: callers check :func:`analysable` first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from bot.ai.context import MatchContext
from bot.ai.stored import complete, from_stored, to_stored
from bot.service.analysis.settings import ServerAnalysisSettings
from bot.service.core.present import analysable_variant
from bot.service.core.values import PERSONAL
from bot.storage.interface import GameRow, MatchRow, MatchStatus, PlayerFigures, Transaction
from engine.match import Session
from engine.player import Player
from engine.record import GameRecord
from engine.words import article

if TYPE_CHECKING:
    from bot.ai.analysed import GameAnalysis, Mistake
    from bot.ai.levels import Level

DEFAULT_DEPTH = "strong"
"""The depth every match is graded at, and the one players' form and the PR leaderboard
read (GNU 1-ply); ``/analyze depth:expert`` keeps its own."""

STANDARD = "standard"

VARIANT_REFUSAL = ("Analysis, PR and puzzles are for standard backgammon only, and the "
                   "variants our own networks know: no network knows {name} yet, so "
                   "{variant} game is not analysed.")
"""``name``: the variant's; ``variant``: with its article (:func:`variant_refusal`)."""

PUZZLE_KINDS = {"play": "play", "double": "double", "no double": "double", "take": "take",
                "drop": "take"}
"""A mistake's kind -> its puzzle's kind: a play, double or not, take or pass (a
variant's choice, :mod:`bot.ai.variant_analysis`, makes no puzzle)."""


def analysable(row: MatchRow) -> bool:
    """Whether the games of ``row`` can be analysed: standard backgammon, or a variant
    one of our own networks knows."""
    return analysable_variant(row.variant)


def variant_refusal(row: MatchRow) -> str:
    return VARIANT_REFUSAL.format(name=row.variant, variant=article(row.variant))


def match_context(row: MatchRow, games: Sequence[GameRow], game: GameRow,
                  session: Session) -> MatchContext:
    """What the analysis of ``game`` needs of its match: the score it began at
    (``session``, the match as it stood then), and, for the last game of a match won
    otherwise than on the board -- a forfeit: the winner had not the points -- who won
    the match with it, so that the game is graded with the match's real result."""
    ctx = MatchContext.of(session)
    if (not row.length or row.status is not MatchStatus.FINISHED or row.winner_id is None
            or game.result is None or not game.played):
        return ctx
    if any(g.played and g.number > game.number for g in games):
        return ctx
    winner = Player.WHITE if row.winner_id == row.white_id else Player.BLACK
    won_game = Player[str(game.result["winner"]).upper()]
    score = ctx.score[winner] + (int(game.result["points"]) if won_game is winner else 0)
    if score >= row.length:
        return ctx  # won on the board
    return replace(ctx, decided=winner)


def depth_name(level: Level) -> str:
    """The stored name of an analysis depth: the level's name (strong, expert)."""
    return level.name


async def kept_analyses(tx: Transaction, records: Mapping[int, GameRecord], depth: str
                        ) -> dict[int, GameAnalysis]:
    """The analyses kept of the games of ``records`` (game id -> record) at ``depth``; one
    stored incomplete (:func:`bot.ai.stored.complete`) is left out, to be made again."""
    rows = await tx.analyses_of(list(records), depth)
    return {gid: from_stored(row.data, records[gid]) for gid, row in rows.items()
            if complete(row.data)}


def figures(row: MatchRow, analysis: GameAnalysis) -> list[PlayerFigures]:
    out = []
    for pa in analysis.players:
        user = row.white_id if pa.player is Player.WHITE else row.black_id
        out.append(PlayerFigures(int(pa.player), user, pa.decisions, pa.total_lost,
                                 pa.checker_decisions, pa.checker_lost, pa.cube_decisions,
                                 pa.cube_lost, pa.rolls, pa.luck, pa.luck_value,
                                 analysis.result[pa.player]))
    return out


async def keep_analysis(tx: Transaction, row: MatchRow, game: GameRow, analysis: GameAnalysis,
                        depth: str, settings: ServerAnalysisSettings, *,
                        score: tuple[int, int], names: tuple[str, str], played_at: str) -> int:
    """Keep ``analysis`` of ``game`` (of the match ``row``) and make its puzzles (only in a
    server: a DM's match is in the personal scope, where no /puzzle can show one); how many
    puzzles are new.  ``score``: the match score when the game began; ``names``: the
    players' names (kept with a puzzle for servers that name them)."""
    await tx.save_analysis(game_id=game.id, match_id=row.id, guild_id=row.guild_id,
                           depth=depth, engine=analysis.engine, data=to_stored(analysis),
                           played_at=played_at, players=figures(row, analysis))
    bots = set()
    for uid in (row.white_id, row.black_id):
        known = await tx.get_user(uid)
        if known is not None and known.is_bot:
            bots.add(uid)
    added = 0
    if row.guild_id == PERSONAL:  # (issue 43 item 8)
        return added
    for m in analysis.errors:
        user = row.white_id if m.player is Player.WHITE else row.black_id
        kind = PUZZLE_KINDS.get(m.kind)
        if (m.equity_lost < settings.puzzle_min_equity or user in bots or not m.candidates
                or kind is None):
            continue
        made = await tx.add_puzzle(
            guild_id=row.guild_id, match_id=row.id, game_id=game.id,
            event_index=m.event_index, user_id=user, kind=kind,
            equity_lost=m.equity_lost,
            data=puzzle_data(m, row, game, score, names, analysis.source))
        added += made is not None
    return added


def puzzle_data(m: Mistake, row: MatchRow, game: GameRow, score: tuple[int, int],
                names: tuple[str, str], judge: str = "") -> dict[str, Any]:
    """What a puzzle keeps besides its row: the decision, its answers, where it was
    (the position itself is the game's record up to the decision), and who judged it
    (the analysis' source: ``"GNU 1-ply (bgsage)"``, ``"our Russian backgammon network,
    self-trained, 0-ply"``)."""
    return {"judge": judge, "side": int(m.player), "kind": m.kind, "played": m.played,
            "best": m.best, "lost": m.equity_lost, "game_number": game.number,
            "dice": [m.dice.first, m.dice.second] if m.dice is not None else None,
            "candidates": [[c.text, c.equity] for c in m.candidates],
            "length": row.length, "score": list(score), "names": list(names)}

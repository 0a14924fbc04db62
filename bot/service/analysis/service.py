"""Hints and analysis: the AI's view of a game (the leaderboard and player cards are in
:mod:`bot.service.standings`, the export, the dice check and the history in
:mod:`bot.service.records`).

These commands change nothing, so they read through ``storage.snapshot()`` (no write
lock, no version to check); they use the action runner's match loader only.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from bot.ai.context import MatchContext
from bot.config import Config
from bot.service.analysis.chances import chances_text
from bot.service.analysis.settings import AnalysisSettings
from bot.service.analysis.store import (
    analysable,
    depth_name,
    keep_analysis,
    kept_analyses,
    match_context,
    variant_refusal,
)
from bot.service.core.replies import Board, Picture, Refusal, Reply
from bot.service.core.runner import ActionRunner
from bot.service.core.values import Actor, Expect, Place, bad_ids
from bot.service.core.views import board
from bot.service.pictures.service import (
    chart_picture,
    games_of,
    pick_game,
    seat_of,
    session_before,
    summary_picture,
)
from bot.service.records.service import NumberedGame, channel_games, check_number
from bot.storage.interface import MatchRow, StorageError, Transaction
from bot.storage.replay import player_names, replay_game
from engine.match import Match, Session
from engine.player import Player
from engine.record import GameRecord

if TYPE_CHECKING:
    from bot.ai.analysed import GameAnalysis
    from bot.ai.levels import Level
    from bot.ai.runner import AIRunner

log = logging.getLogger(__name__)

ANALYSIS_SECONDS = 120.0
"""How long the analysis of one game may take at the default depth (GNU 1-ply)."""
EXPERT_ANALYSIS_SECONDS = 600.0
"""At expert depth (GNU 2-ply), several times slower: within Discord's 15 minutes for a
deferred answer."""


def _score_at(session: Session, names: tuple[str, str]) -> str:
    """" at alice 1, bob 0 in a match to 3" (nothing for money play)."""
    if not isinstance(session, Match):
        return ""
    w, b = session.score
    return f", played at {names[0]} {w}, {names[1]} {b} in a match to {session.length}"


def _match_grades(analyses: list[GameAnalysis], names: tuple[str, str]) -> list[str]:
    """Each player's PR, grade and luck over the analysed games of a match."""
    from bot.ai.grades import grade_match

    grades = grade_match(analyses)
    if grades is None:
        return [analyses[0].note] if analyses else []
    return grades.lines(names)


def _winner_of(row: MatchRow) -> Player | None:
    if row.winner_id is None:
        return None
    return Player.WHITE if row.winner_id == row.white_id else Player.BLACK


class Analysis:
    """Hints and analysis."""

    def __init__(self, runner: ActionRunner, config: Config, ai: AIRunner | None,
                 settings: AnalysisSettings) -> None:
        self.runner = runner
        self.storage = runner.storage
        self.config = config
        self.ai = ai
        self.settings = settings
        """The server's grading and puzzle options (the one accessor)."""

    # ----------------------------------------------------------- the AI's view

    async def hint(self, place: Place, actor: Actor) -> Reply:
        """The best plays for the current roll, or cube advice before rolling."""
        if (bad := bad_ids(place, actor)) is not None:
            return Reply.refuse(bad)
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
            return Reply.refuse("Hints are off in this rated match: both players must agree "
                                "to them when it starts (the hints option of /challenge, "
                                "accepted by the opponent).")
        player = Player.WHITE if actor.id == row.white_id else Player.BLACK
        if game is None or game.awaiting is not player:
            return Reply.refuse("A hint is for your own decision: wait for your turn.")
        advice = await self.ai.hint(game, MatchContext.of(loaded.session), 5)
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

    async def analyze(self, place: Place, actor: Actor, number: int | None = None,
                      depth: str | None = None, whole_match: bool = False,
                      expect: Expect | None = None) -> Reply:
        """Error rates and the largest mistakes of a finished game here (game ``number``
        of the channel's match, default the last finished one), or of every finished
        game of the match; each game at the score, cube and Crawford state it was
        played at.  With the analysis graph for the player who asks (a match: the
        match summary with each player's error rate)."""
        from bot.ai.levels import EXPERT, analysis_level

        if (bad := bad_ids(place, actor)) is not None:
            return Reply.refuse(bad)
        if self.ai is None:
            return Reply.refuse("Analysis needs the AI, which is switched off on this server.")
        try:
            level = analysis_level(depth)
        except ValueError as error:
            return Reply.refuse(str(error))
        try:
            check_number(number)
            async with self.storage.snapshot() as tx:
                scope = await channel_games(tx, place)
                if expect is not None and scope.games[-1].match.id != expect.match_id:
                    raise Refusal("That button is for an earlier match in this channel: "
                                  "/analyze with its match option looks at this one's "
                                  "games.")
                if whole_match:
                    targets = [g for g in scope.games if g.row.played]
                    if not targets:
                        raise Refusal("No game has finished here yet: /analyze looks at "
                                      "finished games.")
                else:
                    targets = [pick_game(scope, number, "analyze", finished_only=True)]
                if not analysable(targets[-1].match):
                    raise Refusal(variant_refusal(targets[-1].match))
                events = [await tx.events(g.row.id) for g in targets]
                names = {g.match.id: await player_names(tx, g.match) for g in targets}
                records = {g.row.id: replay_game(g.match, g.row, evs).to_record()
                           for g, evs in zip(targets, events, strict=True)}
                kept = await kept_analyses(tx, records, depth_name(level))
        except Refusal as refusal:
            return Reply.refuse(str(refusal))
        timeout = EXPERT_ANALYSIS_SECONDS if level is EXPERT else ANALYSIS_SECONDS
        done: list[tuple[NumberedGame, Session, GameRecord, GameAnalysis]] = []
        fresh: list[tuple[NumberedGame, Session, GameAnalysis]] = []
        for target in targets:
            row = target.match
            rows = games_of(scope, target)
            session = session_before(row, rows, target.row)
            record = records[target.row.id]
            result = kept.get(target.row.id)
            if result is None:
                try:
                    result = await self.ai.analyze(record,
                                                   match_context(row, rows, target.row, session),
                                                   level,
                                                   timeout=timeout)
                except TimeoutError:
                    if fresh:  # (those done are kept all the same)
                        await self._keep(place.guild_id, fresh, level, names)
                    slower = " Try depth:strong, which is faster." if level is EXPERT else ""
                    return Reply.refuse(f"The analysis of game {target.number} took longer "
                                        f"than {timeout:.0f} s and was stopped.{slower}")
                fresh.append((target, session, result))
            done.append((target, session, record, result))
        if fresh:
            await self._keep(place.guild_id, fresh, level, names)
        latest = targets[-1].match
        lines: list[str] = []
        if whole_match:
            what = "the chouette table" if scope.chouette else "the match"
            lines.append(f"Analysis of {what} ({len(done)} finished game"
                         f"{'' if len(done) == 1 else 's'}):")
            if not scope.chouette:  # (at a table the players change sides between games)
                lines.extend(_match_grades([a for *_, a in done], names[latest.id]))
        for target, session, _, result in done:
            here = names[target.match.id]
            lines.append(f"Analysis of game {target.number}" + _score_at(session, here) + ":")
            lines.extend(result.summary(here))
        boards: list[Board] = []
        worst = sorted(((m, session, names[target.match.id])
                        for target, session, _, result in done if result.supported
                        for pa in result.players for m in pa.mistakes),
                       key=lambda found: -found[0].equity_lost)[:3]
        for m, session, here in worst:
            boards.append(board(m.before, session, here,
                                f"{here[m.player]}: played {m.played}, better "
                                f"{m.best} (-{m.equity_lost:.3f})", viewer=m.player))
        pictures: list[Picture] = []
        if whole_match:
            if not scope.chouette and any(result.supported for *_, result in done):
                pictures.append(summary_picture(
                    latest, names[latest.id], [r for _, _, r, _ in done],
                    [a for *_, a in done], winner=_winner_of(latest)))
        else:
            target, _, record, result = done[0]
            if result.supported:
                pictures.append(chart_picture(
                    result, record, seat_of(target.match, actor), names[target.match.id],
                    f"match-{target.match.id}-game-{target.number}"))
        return Reply(ok=True, text="\n".join(lines), boards=tuple(boards), match_id=latest.id,
                     pictures=tuple(pictures))

    async def _keep(self, guild_id: int, fresh: list[tuple[NumberedGame, Session, GameAnalysis]],
                    level: Level, names: dict[int, tuple[str, str]]) -> None:
        """Keep the analyses just made (and their puzzles), so the next /analyze answers
        from the store; a database that is away only costs running them again."""
        settings = await self.settings.for_guild(guild_id)

        async def work(tx: Transaction) -> None:
            for target, session, result in fresh:
                await keep_analysis(tx, target.match, target.row, result, depth_name(level),
                                    settings, score=_score(session), names=names[target.match.id],
                                    played_at=target.row.finished_at or self.runner.now())

        try:
            await self.storage.run(work)
        except StorageError as error:
            log.warning("an analysis was not kept: %s", error)


def _score(session: Session) -> tuple[int, int]:
    return session.score if isinstance(session, Match) else (0, 0)

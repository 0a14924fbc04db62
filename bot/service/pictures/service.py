"""The pictures of the host (issue 18): ``/replay``, and the pieces ``/analyze``,
``/stats`` and a match's end use to find a game and the session it was played in.

The pictures' values come from :mod:`bot.service.pictures.contents`, imported only when a
picture is made: it loads Pillow (through :mod:`render`), and importing the service
must not.  The adapters draw the values off the event loop
(:class:`~bot.service.core.replies.Picture`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from bot.service.core.replies import Picture, PictureKind, Refusal, Reply
from bot.service.core.runner import ActionRunner, new_session, result_from_dict
from bot.service.core.takeback import with_unsettled
from bot.service.core.values import Actor, Place, bad_ids
from bot.service.records.service import (
    ChannelGames,
    NumberedGame,
    channel_games,
    check_number,
)
from bot.storage.interface import GameRow, GameStatus, MatchRow, Transaction
from bot.storage.replay import player_names, replay_game
from engine.game import Game
from engine.match import Session
from engine.player import Player
from engine.record import GameRecord

if TYPE_CHECKING:
    from bot.ai.analysed import GameAnalysis
    from bot.service.core.work import Work

def pick_game(scope: ChannelGames, number: int | None, what: str, *,
              finished_only: bool = False) -> NumberedGame:
    """Game ``number`` as the channel shows it (:mod:`bot.service.records.service`), or by
    default the last one played out (else the game in progress, unless
    ``finished_only``).  A game its match or session ended around (no result:
    :attr:`GameRow.played`) is never the default, and ``finished_only`` refuses it."""
    finished = [g for g in scope.games if g.row.played]
    if number is None:
        if finished:
            return finished[-1]
        if finished_only:
            raise Refusal(f"No game has finished here yet: /{what} looks at finished games.")
        if scope.games[-1].row.status is GameStatus.FINISHED:
            raise Refusal(f"No game was played out here: the last one ended before it was "
                          f"played. /{what} with a game number looks at a game; /verify "
                          "checks its dice.")
        return scope.games[-1]
    found = scope.find(number)
    if finished_only and not found.row.played:
        done = ", ".join(str(g.number) for g in finished) or "none yet"
        if found.row.status is GameStatus.FINISHED:
            raise Refusal(f"Game {number} was not played: its match or session ended "
                          f"around it, so there is nothing to {what}. /verify {number} "
                          f"checks its dice (finished games here: {done}).")
        raise Refusal(f"Game {number} is still being played: /{what} looks at finished "
                      f"games (here: {done}).")
    return found


def games_of(scope: ChannelGames, game: NumberedGame) -> list[GameRow]:
    """The game rows of ``game``'s match (a chouette game is a match of its own)."""
    return [g.row for g in scope.games if g.match.id == game.match.id]


def session_before(row: MatchRow, games: Sequence[GameRow], target: GameRow) -> Session:
    """The match or money session as it stood when ``target`` began (its score and
    Crawford state come from the games finished before it)."""
    session = new_session(row)
    for g in games:
        if g.number < target.number and g.status is GameStatus.FINISHED and g.result:
            session = session.add_game(result_from_dict(g.result))
    return session


def seat_of(row: MatchRow, actor: Actor) -> Player:
    """The side ``actor`` plays (white for a spectator)."""
    return Player.BLACK if actor.id == row.black_id else Player.WHITE


async def match_records(tx: Transaction, row: MatchRow, games: Sequence[GameRow],
                        known: Mapping[int, Game] | None = None) -> list[GameRecord]:
    """The records of the played ``games`` of ``row`` (:attr:`GameRow.played`), in order;
    ``known``: games by id already in memory as stored (not read and replayed again)."""
    out = []
    for g in games:
        if g.played:
            game = (known or {}).get(g.id)
            if game is None:
                game = replay_game(row, g, await tx.events(g.id))
            out.append(game.to_record())
    return out


def summary_picture(row: MatchRow, names: tuple[str, str], records: Sequence[GameRecord],
                    analyses: Sequence[GameAnalysis | None] = (), *,
                    winner: Player | None = None) -> Picture:
    """The match summary of ``row`` as a picture value."""
    from bot.service.pictures.contents import match_summary
    from render.summary import summary_alt_text

    summary = match_summary(names, row.length, records, analyses, winner=winner)
    return Picture(PictureKind.SUMMARY, summary, f"match-{row.id}-summary.png",
                   summary_alt_text(summary))


async def add_match_summary(work: Work, winner: Player) -> None:
    """At a match's (or money session's) end: the summary picture in the reply, with each
    player's PR and luck where the games' analyses are kept already."""
    games = await work.tx.games_of_match(work.row.id)
    # The game this action ended is in memory, as written (a flag fall: no replay).
    known = ({work.game_row.id: work.game}
             if work.game_row is not None and work.game is not None else {})
    records = await match_records(work.tx, work.row, games, known)
    if records:
        analyses = await kept_for_summary(work.tx, work.row, games, records)
        work.pictures.append(summary_picture(work.row, work.loaded.names, records, analyses,
                                             winner=winner))


async def kept_for_summary(tx: Transaction, row: MatchRow, games: Sequence[GameRow],
                           records: Sequence[GameRecord]) -> list[GameAnalysis | None]:
    """The kept analyses (at the default depth) of the played ``games``, in order, None
    for those not analysed (no query for a variant: it has none)."""
    finished = [g for g in games if g.played]
    if row.variant != "standard" or not finished:
        return [None] * len(records)
    from bot.ai.levels import analysis_level
    from bot.ai.stored import complete, from_stored

    kept = await tx.analyses_of([g.id for g in finished], analysis_level(None).name)
    return [from_stored(kept[g.id].data, record)
            if g.id in kept and complete(kept[g.id].data) else None
            for g, record in zip(finished, records, strict=True)]


class Pictures:
    """``/replay``: a game of the channel's match as an animated GIF."""

    def __init__(self, runner: ActionRunner) -> None:
        self.runner = runner
        self.storage = runner.storage

    async def replay(self, place: Place, actor: Actor, number: int | None = None) -> Reply:
        """Game ``number`` here (default: the last finished one, else the one in
        progress), seen from the asking player's side."""
        if (bad := bad_ids(place, actor)) is not None:
            return Reply.refuse(bad)
        try:
            check_number(number)
            async with self.storage.snapshot() as tx:
                scope = await channel_games(tx, place)
                target = pick_game(scope, number, "replay")
                events = with_unsettled(target.match, target.row,
                                        await tx.events(target.row.id))
                names = await player_names(tx, target.match)
        except Refusal as refusal:
            return Reply.refuse(str(refusal))
        row = target.match
        record = replay_game(row, target.row, events).to_record()
        session = session_before(row, games_of(scope, target), target.row)
        picture = replay_picture(record, names, session, seat_of(row, actor),
                                 f"match-{row.id}-game-{target.number}")
        state = "" if target.row.status is GameStatus.FINISHED else " (still being played)"
        return Reply(ok=True, text=f"Replay of game {target.number}{state}: {names[0]} vs "
                     f"{names[1]}.", pictures=(picture,), match_id=row.id)


def replay_picture(record: GameRecord, names: tuple[str, str], session: Session,
                   viewer: Player, stem: str) -> Picture:
    from bot.service.pictures.contents import replay_frames
    from render.replay import replay_alt_text

    frames = tuple(replay_frames(record, names, session, viewer=viewer))
    return Picture(PictureKind.REPLAY, frames, f"{stem}-replay.gif", replay_alt_text(frames))


def chart_picture(analysis: GameAnalysis, record: GameRecord, player: Player,
                  names: tuple[str, str], stem: str) -> Picture:
    from bot.service.pictures.contents import analysis_chart
    from render.chart import chart_alt_text

    data = analysis_chart(analysis, record, player, names)
    return Picture(PictureKind.CHART, data, f"{stem}-analysis.png", chart_alt_text(data))

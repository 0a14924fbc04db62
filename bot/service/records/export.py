"""Export a channel's match or money session as .mat or .sgf text, read from storage.

Only the :class:`~bot.storage.interface.Transaction` protocol is used; the text itself
comes from :mod:`engine.formats.matfile` (``.mat``, for any backgammon program; see there
for what the format cannot hold: :class:`~engine.formats.matfile.MatExportError`) or
:mod:`engine.formats.sgf` (GNU Backgammon's own ``.sgf``, which carries the rules
-- Crawford, Jacoby, cube use -- into its analysis:
:class:`~engine.formats.sgf.SgfExportError`).
"""

from __future__ import annotations

from bot.storage.interface import GameStatus, MatchRow, Transaction
from bot.storage.replay import player_names
from engine.formats.matfile import MatGame, export_match
from engine.formats.sgf import export_sgf
from engine.player import Player

SITE = "Discord"

FORMATS = ("mat", "sgf")
"""The export formats, by file extension (``mat`` first: the default)."""


async def _stored_games(tx: Transaction,
                        match_row: MatchRow) -> tuple[tuple[str, str], list[MatGame]]:
    """The players' names and every game so far with the score before it: those played
    out and the one under way, not a game the match or session ended around (finished
    without a result: :attr:`GameRow.played`), which holds no more than its opening
    throw and would read as one more game (and decision) in another program."""
    names = await player_names(tx, match_row)
    score = [0, 0]
    games: list[MatGame] = []
    for row in await tx.games_of_match(match_row.id):
        if row.status is GameStatus.FINISHED and not row.played:
            continue
        events = await tx.events(row.id)
        setup = {"money": match_row.length == 0, **row.setup}
        games.append(MatGame.from_stored([e.data for e in events], setup,
                                         variant=match_row.variant, rules=match_row.rules,
                                         score=(score[0], score[1])))
        result = row.result
        if row.status is GameStatus.FINISHED and result is not None:
            winner = Player[str(result["winner"]).upper()]
            score[winner] += int(result["points"])
    return names, games


async def export_channel_match(tx: Transaction, match_row: MatchRow, *,
                               site: str = SITE) -> str:
    """The .mat text of ``match_row``: every game so far, finished or running.

    Player 1 is the challenger (``white_id``), player 2 ``black_id``; names are
    the stored user names (the id when a user is unknown).  The score before
    each game is the sum of the stored results of the games before it (points
    won so far in a money session, ``length`` 0).  The date is the match's
    creation date.  Raises :class:`~engine.formats.matfile.MatExportError` for a variant,
    scoring or set-up the format can't record.
    """
    names, games = await _stored_games(tx, match_row)
    return export_match(games, length=match_row.length, names=names, site=site,
                        date=match_row.created_at[:10])


async def export_channel_match_sgf(tx: Transaction, match_row: MatchRow, *,
                                   site: str = SITE) -> str:
    """The GNU Backgammon .sgf text of ``match_row`` (the same games as the .mat).

    Each game's root node carries its rules (``RU``: Crawford and the Crawford
    game, Jacoby, no cube), so gnubg analyses it under them whatever its own
    settings.  Raises :class:`~engine.formats.sgf.SgfExportError` for a variant,
    scoring or set-up the format can't record.
    """
    names, games = await _stored_games(tx, match_row)
    return export_sgf(games, length=match_row.length, names=names, site=site,
                      date=match_row.created_at[:10])

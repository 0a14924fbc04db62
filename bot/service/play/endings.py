"""Game endings: the finished game's row, the ledger, the score, ratings, the next game.

:class:`Endings` is called inside an action's :class:`~bot.service.core.work.Work` (a
bear-off, a drop, an accepted resignation, a claim or a forfeit), so everything it
writes commits or rolls back with that action.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace

from bot.service.core import fairdice, money, present
from bot.service.core.runner import ActionRunner
from bot.service.core.work import Work
from bot.service.pictures.service import add_match_summary
from bot.service.records import ratings
from bot.service.records.service import game_number
from bot.storage.interface import (
    GameRow,
    GameStatus,
    LedgerEntry,
    MatchStatus,
    RatingRow,
    Transaction,
)
from engine.match import Match, MoneySession
from engine.player import Player
from engine.scoring import EndReason, Result, ResultKind
from engine.words import article, counted

_KINDS = {ResultKind.SINGLE: "a single game", ResultKind.GAMMON: "a gammon",
          ResultKind.BACKGAMMON: "a backgammon"}
_HOW = {EndReason.BORNE_OFF: "", EndReason.DROP: " (double dropped)",
        EndReason.RESIGNATION: " (resignation)", EndReason.FORFEIT: " (forfeit)"}


def describe_result(work: Work, result: Result) -> str:
    counted_as = ("" if result.counted is result.kind
                  else f", counted as {article(result.counted.label)}")
    return (f"{work.name(result.winner)} wins {_KINDS[result.kind]}{_HOW[result.reason]}"
            f"{counted_as}: {counted(result.points, 'point')}.")


def session_line(work: Work) -> str:
    session = work.session
    assert isinstance(session, MoneySession)
    names = work.loaded.names
    w = session.net(Player.WHITE)
    return (f"Session after {counted(session.games_played, 'game')}: {names[0]} {w:+d}, "
            f"{names[1]} {-w:+d} {counted(abs(w), 'point', digits=False)}"
            + (f" ({w * session.stake:+d} / {-w * session.stake:+d} at "
               f"{session.stake} a point)." if session.stake else "."))


def status_text(work: Work) -> str:
    """The match score or the money session so far (at a chouette table: who plays this
    game; the table's own standings are in ``/chouette status``)."""
    session = work.session
    names = work.loaded.names
    if work.state.chouette is not None:
        return (f"Chouette game {work.state.chouette.game}: {names[0]} in the box against "
                f"captain {names[1]} and the team; /chouette status shows the seats and the "
                "table's standings.")
    if isinstance(session, Match):
        w, b = session.score
        return f"{names[0]} {w}, {names[1]} {b} in a match to {session.length}."
    return session_line(work)


async def abandon_game(tx: Transaction, row: GameRow, now: str) -> GameRow:
    """End the game ``row`` without a result, because its match or session ends around
    it: a money session stopped when its next game had only begun (``/stop``), or a
    tournament match an organiser cancelled or decided.  The row is finished with no
    winner and no result (so it counts for no score, ledger, rating or statistic), and
    its seed, now revealed, lets ``/verify`` check the dice it used."""
    if row.status is not GameStatus.ACTIVE:
        return row
    return await tx.update_game(row, status=GameStatus.FINISHED, finished_at=now)


def abandoned_line(number: int, row: GameRow) -> str:
    """What the players read of a game :func:`abandon_game` ended."""
    return (f"Game {number} is not played: its dice seed is {row.seed} (its SHA-256 "
            f"{row.seed_hash} was published when it began); /verify {number} checks its "
            "dice.")


class Endings:
    """Finishing games and matches, and starting the next game."""

    def __init__(self, runner: ActionRunner) -> None:
        self.runner = runner
        self.match_ended: list[Callable[[Work, Player], Awaitable[None]]] = []
        """Called at the end of :meth:`end_match`, in the same transaction (tournaments
        record the result there)."""

    async def finish(self, work: Work, *, next_game: bool = True) -> None:
        """Record a finished game: its row, the ledger, the score, ratings, the next game.

        ``next_game`` False: the match or session ends here (a forfeit), so no new
        game is started.  The caller plays on automatically (``AutoPlay.auto``).
        """
        game = work.game
        assert game is not None and game.result is not None and work.game_row is not None
        result = game.result
        tx = work.tx
        await work.flush()
        game_row = work.game_row
        assert game_row is not None
        work.game_row = await tx.update_game(
            game_row, status=GameStatus.FINISHED, winner_id=work.user(result.winner),
            result=result.to_dict(), finished_at=self.runner.now())
        work.lines.append(describe_result(work, result))
        number = game_number(game_row, work.state)  # the channel's numbering (records.py)
        work.lines.append(
            f"Dice seed of game {number}: {game_row.seed} (its SHA-256 "
            f"{game_row.seed_hash} was published at the start): /verify {number} "
            "checks every roll.")
        work.session = work.session.add_game(result)
        work.boards.append(present.board_of(work, game))
        if await work.seating.finish(work, result):
            return
        winner_id = work.user(result.winner)
        loser_id = work.user(result.loser)
        guild = work.row.guild_id
        if isinstance(work.session, MoneySession):
            points = money.clamp(result.points)
            amount = money.clamp(result.points * work.session.stake)
            if (points, amount) != (result.points, result.points * work.session.stake):
                # Only a game made before the money bound can get here: it still ends.
                work.lines.append(f"No game settles more than {money.MAX_GAME_AMOUNT:,} per "
                                  "player: this one is settled at that bound.")
            await tx.add_ledger([
                LedgerEntry(guild, winner_id, points, amount, work.row.id, game_row.id),
                LedgerEntry(guild, loser_id, -points, -amount, work.row.id, game_row.id),
            ])
            if work.row.rated:
                await self.rate(work, winner_id, loser_id, 1)
            work.lines.append(session_line(work))
            if next_game and await self.money_room(work):
                await self.next_game(work)
            return
        match = work.session
        assert isinstance(match, Match)
        if match.is_over:
            assert match.winner is not None
            await self.end_match(work, match.winner)
            w, b = match.score
            work.lines.append(
                f"{work.name(match.winner)} wins the {match.length}-point match "
                f"{max(w, b)}-{min(w, b)}.")
            return
        w, b = match.score
        names = work.loaded.names
        work.lines.append(f"Score: {names[0]} {w}, {names[1]} {b} (match to {match.length})."
                          + (" Next is the Crawford game." if match.crawford_game and next_game
                             else ""))
        if next_game:
            await self.next_game(work)

    async def end_match(self, work: Work, winner: Player) -> None:
        await add_match_summary(work, winner)  # the summary picture (issue 18)
        work.match_status = MatchStatus.FINISHED
        work.match_winner = work.user(winner)
        session = work.session
        if work.row.rated and isinstance(session, Match):
            await self.rate(work, work.user(winner), work.user(winner.other), session.length)
        for hook in self.match_ended:
            await hook(work, winner)
        work.game = None
        work.game_row = None
        work.dice = None

    async def decide(self, work: Work, winner: Player, why: str) -> None:
        """The match ends by a decision made outside its play (a tournament organiser's
        result, a confirmed claim, a removed player): ``winner`` wins it as by the other
        player's forfeit, through :meth:`end_match` as a forfeit does -- the match is
        finished with its winner (the match counts in /stats and on the leaderboard, the
        ratings of a rated match move, its played games are graded with that result).
        The game in play, if any, ends without a result (:func:`abandon_game`): nobody
        lost it on the board, so it is no played game.  ``why``: what decided it, for the
        players ("the organiser's decision")."""
        row = work.game_row
        if row is not None and row.status is GameStatus.ACTIVE:
            await work.flush()
            ended = await abandon_game(work.tx, row, self.runner.now())
            work.game_row = ended
            work.lines.append(abandoned_line(game_number(ended, work.state), ended))
        session = work.session
        if isinstance(session, Match):
            work.session = session.forfeit(winner.other)
        work.lines.append(f"{work.name(winner)} wins the match by {why}.")
        await self.end_match(work, winner)

    async def rate(self, work: Work, winner_id: int, loser_id: int, length: int) -> None:
        tx = work.tx
        guild = work.row.guild_id
        # Shared rows (not under the channel's lock): lock both rating rows, in user id
        # order, before reading them, so two games ending at once cannot lose an update.
        await tx.lock_players(guild, (winner_id, loser_id))
        w_row, l_row = await tx.ratings_of(guild, (winner_id, loser_id))
        new_w, new_l = ratings.update(ratings.Rating(w_row.rating, w_row.experience),
                                      ratings.Rating(l_row.rating, l_row.experience), length)
        await tx.set_rating(RatingRow(guild, winner_id, new_w.rating, new_w.experience),
                            match_id=work.row.id, before=w_row.rating)
        await tx.set_rating(RatingRow(guild, loser_id, new_l.rating, new_l.experience),
                            match_id=work.row.id, before=l_row.rating)

    async def money_room(self, work: Work) -> bool:
        """True if both players of a money session may start another game (the money
        bound, :mod:`bot.service.core.money`); else the session ends here, saying why."""
        if not isinstance(work.session, MoneySession) or work.row.chouette_id is not None:
            return True
        full = await money.turnover_reached(work.tx, work.row.guild_id,
                                            [work.row.white_id, work.row.black_id])
        if not full:
            return True
        names = [work.name(Player.WHITE if u == work.row.white_id else Player.BLACK)
                 for u in full]
        work.lines.append("The money session ends here: " + money.limit_text(names))
        work.match_status = MatchStatus.FINISHED
        work.game = None
        work.game_row = None
        work.dice = None
        return False

    async def next_game(self, work: Work) -> None:
        """Start the next game of the match or session: new seed and its commitment.
        The caller throws the opening (``AutoPlay.auto``)."""
        game = work.session.new_game()
        if work.boards and work.boards[-1].view.game_over is not None:
            # The ended game's final board before the next game's lines (issue 42 item 8).
            work.boards[-1] = replace(work.boards[-1], lines_before=len(work.lines))
        number = work.game_row.number + 1 if work.game_row is not None else 1
        seed = self.runner.new_seed()
        setup = {"money": game.money, "crawford": game.crawford,
                 "first_player": (game.first_player.label if game.first_player is not None
                                  else None)}
        row = await work.tx.insert_game(match_id=work.row.id, number=number,
                                        seed_hash=fairdice.seed_hash(seed), seed=seed,
                                        setup=setup)
        work.game = game
        work.game_row = row
        work.stored = 0
        work.dice = self.runner.dice(seed, 0)
        # The number players see, as /verify takes it: a chouette table's own game number
        # (issue 30 item 7), else the game's number in its match or session.
        shown = work.state.chouette.game if work.state.chouette is not None else number
        work.lines.append(f"Game {shown} begins. Dice commitment (SHA-256 of the secret seed): "
                          f"{row.seed_hash}.")

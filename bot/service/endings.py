"""Game endings: the finished game's row, the ledger, the score, ratings, the next game.

:class:`Endings` is called inside an action's :class:`~bot.service.work.Work` (a
bear-off, a drop, an accepted resignation, a claim or a forfeit), so everything it
writes commits or rolls back with that action.
"""

from __future__ import annotations

from bot.service import fairdice, present, ratings
from bot.service.records import game_number
from bot.service.runner import ActionRunner
from bot.service.showing import add_match_summary
from bot.service.work import Work
from bot.storage.interface import GameStatus, LedgerEntry, MatchStatus, RatingRow
from engine.match import Match, MoneySession
from engine.player import Player
from engine.scoring import EndReason, Result, ResultKind

_KINDS = {ResultKind.SINGLE: "a single game", ResultKind.GAMMON: "a gammon",
          ResultKind.BACKGAMMON: "a backgammon"}
_HOW = {EndReason.BORNE_OFF: "", EndReason.DROP: " (double dropped)",
        EndReason.RESIGNATION: " (resignation)", EndReason.FORFEIT: " (forfeit)"}


def describe_result(work: Work, result: Result) -> str:
    counted = "" if result.counted is result.kind else f", counted as {result.counted.label}"
    point = "point" if result.points == 1 else "points"
    return (f"{work.name(result.winner)} wins {_KINDS[result.kind]}{_HOW[result.reason]}"
            f"{counted}: {result.points} {point}.")


def session_line(work: Work) -> str:
    session = work.session
    assert isinstance(session, MoneySession)
    names = work.loaded.names
    w = session.net(Player.WHITE)
    return (f"Session after {session.games_played} game(s): {names[0]} {w:+d}, "
            f"{names[1]} {-w:+d} points"
            + (f" ({w * session.stake:+d} / {-w * session.stake:+d} at "
               f"{session.stake} a point)." if session.stake else "."))


def status_text(work: Work) -> str:
    """The match score or the money session so far."""
    session = work.session
    names = work.loaded.names
    if isinstance(session, Match):
        w, b = session.score
        return f"{names[0]} {w}, {names[1]} {b} in a match to {session.length}."
    return session_line(work)


class Endings:
    """Finishing games and matches, and starting the next game."""

    def __init__(self, runner: ActionRunner) -> None:
        self.runner = runner

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
            amount = result.points * work.session.stake
            await tx.add_ledger([
                LedgerEntry(guild, winner_id, result.points, amount, work.row.id, game_row.id),
                LedgerEntry(guild, loser_id, -result.points, -amount, work.row.id, game_row.id),
            ])
            if work.row.rated:
                await self.rate(work, winner_id, loser_id, 1)
            work.lines.append(session_line(work))
            if next_game:
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
        work.game = None
        work.game_row = None
        work.dice = None

    async def rate(self, work: Work, winner_id: int, loser_id: int, length: int) -> None:
        tx = work.tx
        guild = work.row.guild_id
        # Shared rows (not under the channel's lock): lock both rating rows, in user id
        # order, before reading them, so two games ending at once cannot lose an update.
        await tx.lock_players(guild, (winner_id, loser_id))
        w_row = await tx.rating(guild, winner_id)
        l_row = await tx.rating(guild, loser_id)
        new_w, new_l = ratings.update(ratings.Rating(w_row.rating, w_row.experience),
                                      ratings.Rating(l_row.rating, l_row.experience), length)
        await tx.set_rating(RatingRow(guild, winner_id, new_w.rating, new_w.experience),
                            match_id=work.row.id, before=w_row.rating)
        await tx.set_rating(RatingRow(guild, loser_id, new_l.rating, new_l.experience),
                            match_id=work.row.id, before=l_row.rating)

    async def next_game(self, work: Work) -> None:
        """Start the next game of the match or session: new seed and its commitment.
        The caller throws the opening (``AutoPlay.auto``)."""
        game = work.session.new_game()
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
        work.lines.append(f"Game {number} begins. Dice commitment (SHA-256 of the secret seed): "
                          f"{row.seed_hash}.")

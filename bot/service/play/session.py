"""Ending a money session between games (``/stop``) and playing again (``/rematch``),
issue 19, items 9 and 10.

``/stop``: a money session has no end of its own (003 ch.3 plays game after game); it
ends between games, when the next game has begun but nothing of it is played.  Every
game is settled in the ledger as it ends, so ending the session costs nobody anything:
**either player may end it**, and the reply shows the settlement.  During a game it is
refused (play the game out, resign it, or ``/forfeit``).  A match ends by its score, and
a chouette table by its players leaving (``/chouette leave``): both refuse ``/stop``.

``/rematch``: after a match or session in this channel has ended, either of its two
players challenges the other again with the same terms (length or stake, variant, rule
options, rating, hints, the AI's level); the opponent accepts as usual (the AI at once).
"""

from __future__ import annotations

from typing import Any

from bot.service.core.between import between_games
from bot.service.core.replies import Refusal, Reply
from bot.service.core.runner import ActionRunner
from bot.service.core.state import MatchState
from bot.service.core.values import Actor, Expect, Place, bad_ids
from bot.service.core.work import Work
from bot.service.play.challenges import Challenges
from bot.service.play.endings import abandon_game, abandoned_line, session_line
from bot.service.records.service import game_number
from bot.storage.interface import MatchStatus, Transaction
from engine.match import Match
from engine.player import Player
from engine.words import counted


class Sessions:
    """/stop and /rematch."""

    def __init__(self, runner: ActionRunner, challenges: Challenges) -> None:
        self.runner = runner
        self.challenges = challenges

    async def stop(self, place: Place, actor: Actor, expect: Expect | None = None) -> Reply:
        """End the money session between games; the settlement is shown."""
        async def op(work: Work) -> None:
            if work.row.chouette_id is not None:
                raise Refusal("A chouette table is not ended with /stop: each player leaves "
                              "it with /chouette leave (between games it costs nothing).")
            player = work.player_of(work.actor)
            session = work.session
            if isinstance(session, Match):
                raise Refusal("A match ends when a player reaches "
                              f"{counted(session.length, 'point')}: "
                              "/stop is for money sessions. To abandon the match, "
                              "/forfeit (you lose it).")
            game = work.current_game()
            if not between_games(game):
                raise Refusal("A game is under way: /stop ends the session between games. "
                              "Play this game out, /resign it, or /forfeit it (you lose it "
                              "at the cube's value).")
            work.lines.append(f"{work.name(player)} ends the money session.")
            if session.games_played:
                work.lines.append(session_line(work))
            else:
                work.lines.append("No game was played: nobody owes anything.")
            net = session.net(Player.WHITE) if session.games_played else 0
            work.match_status = MatchStatus.FINISHED
            if net:
                work.match_winner = work.user(Player.WHITE if net > 0 else Player.BLACK)
            work.lines.append("/rematch plays again with the same terms.")
            if work.game_row is not None:  # the game just begun is not played
                await work.flush()
                ended = await abandon_game(work.tx, work.game_row, self.runner.now())
                work.lines.append(abandoned_line(game_number(ended, work.state), ended))
            work.game = None
            work.game_row = None
            work.dice = None

        return await self.runner.run(place, actor, op, expect=expect)

    async def rematch(self, place: Place, actor: Actor, expect: Expect | None = None) -> Reply:
        """Challenge the other player of the last match here again, with the same terms."""
        if (bad := bad_ids(place, actor)) is not None:
            return Reply.refuse(bad)
        try:
            async with self.runner.storage.snapshot() as tx:
                opponent, terms = await self._terms(tx, place, actor, expect)
        except Refusal as refusal:
            return Reply.refuse(str(refusal))
        return await self.challenges.challenge(place, actor, opponent, **terms)

    @staticmethod
    async def _terms(tx: Transaction, place: Place, actor: Actor,
                     expect: Expect | None) -> tuple[Actor, dict[str, Any]]:
        """The opponent and the terms of the last match in this channel."""
        row = await tx.latest_match_in_channel(place.channel_id)
        if row is None or row.guild_id != place.guild_id:
            raise Refusal("No match has been played in this channel: start one with "
                          "/challenge @user.")
        if expect is not None and expect.match_id is not None and row.id != expect.match_id:
            raise Refusal("That button belongs to an earlier match in this channel: the "
                          "channel has moved on.")
        if row.status is MatchStatus.CHALLENGED:
            # A challenge (a rematch's, maybe) waits here: say so (issue 30 item 12).
            challenger = await tx.get_user(row.white_id)
            challenged = await tx.get_user(row.black_id)
            who = (challenger.name if challenger else str(row.white_id),
                   challenged.name if challenged else str(row.black_id))
            if actor.id == row.black_id:
                raise Refusal(f"{who[0]}'s challenge to you is waiting here: /accept or "
                              "/decline it.")
            if actor.id == row.white_id:
                raise Refusal(f"Your challenge to {who[1]} is waiting for an answer here "
                              "(/cancel withdraws it).")
            raise Refusal(f"{who[0]}'s challenge to {who[1]} is waiting for an answer here; "
                          "/rematch is for the players of a finished match: /challenge "
                          "someone yourself.")
        if row.status is MatchStatus.ACTIVE:
            if actor.id not in (row.white_id, row.black_id):
                raise Refusal("A match is being played here, and /rematch is for its "
                              "players once it ends: /challenge someone yourself.")
            raise Refusal("The match here is not over yet: /rematch is for after it ends.")
        if row.status is not MatchStatus.FINISHED:
            raise Refusal("The last challenge here was not played: /challenge again.")
        if row.chouette_id is not None:
            raise Refusal("A chouette table plays on game after game: open a new table "
                          "with /chouette open.")
        if actor.id not in (row.white_id, row.black_id):
            raise Refusal("Only the two players of the last match here can ask for a "
                          "rematch: /challenge someone yourself.")
        other_id = row.black_id if actor.id == row.white_id else row.white_id
        other = await tx.get_user(other_id)
        state = MatchState.from_dict(row.state)
        opponent = Actor(other_id, other.name if other is not None else str(other_id),
                         is_bot=bool(other.is_bot) if other is not None else False)
        return opponent, {
            "variant": row.variant, "rules": dict(row.rules), "length": row.length,
            "stake": row.stake, "rated": row.rated, "hints": state.hints and row.rated,
            "level": state.ai.level if state.ai is not None else None,
            "clock": state.clock or "none"}  # the same clock (issue 44)

"""Ending a game before its last checker: resignations, abandoning, claiming an idle game."""

from __future__ import annotations

from datetime import datetime, timedelta

from bot.config import Config
from bot.service.core.between import between_games
from bot.service.core.replies import Refusal, Reply
from bot.service.core.runner import ActionRunner
from bot.service.core.spans import span
from bot.service.core.values import Actor, Expect, Place, refuse_without_server
from bot.service.core.work import Work
from bot.service.play.autoplay import AutoPlay
from bot.service.play.commands import waiting_for
from bot.service.play.endings import Endings
from bot.service.settings.service import SettingsService
from bot.storage.interface import MatchStatus, StorageError
from engine.game import Game, Phase
from engine.match import Match
from engine.player import Player
from engine.scoring import ResultKind
from engine.words import article, counted


class Concessions:
    """/resign and its answer, /forfeit, /claim."""

    def __init__(self, runner: ActionRunner, autoplay: AutoPlay, endings: Endings,
                 config: Config, *, settings: SettingsService) -> None:
        self.runner = runner
        self.autoplay = autoplay
        self.endings = endings
        self.config = config
        self.settings = settings
        """Each server's claim time."""

    async def resign(self, place: Place, actor: Actor, kind: str = "single",
                     expect: Expect | None = None) -> Reply:
        async def op(work: Work) -> None:
            player = work.player_of(work.actor)
            game = work.current_game()
            try:
                result_kind = ResultKind[kind.strip().upper()]
            except KeyError:
                raise Refusal("Resign a single, gammon or backgammon "
                              "(/resign single).") from None
            work.game = game.resign(player, result_kind)
            # The points come from the engine's own settlement of an accepted offer.
            value = game.resignation_result(player, result_kind)
            counted_as = ("" if value.counted is value.kind
                          else f", counted as {article(value.counted.label)} here")
            work.lines.append(f"{work.name(player)} offers to resign "
                              f"{article(result_kind.label)} "
                              f"({counted(value.points, 'point')}{counted_as}).")

        return await self.runner.run(place, actor, op, expect=expect)

    async def answer_resignation(self, place: Place, actor: Actor, accept: bool,
                                 expect: Expect | None = None) -> Reply:
        async def op(work: Work) -> None:
            player = work.player_of(work.actor)
            game = work.current_game()
            if game.phase is not Phase.RESIGNATION:
                raise Refusal(f"There is no resignation to answer: {waiting_for(work, game)}.")
            if game.awaiting is not player:
                raise Refusal(f"It's not your turn: {waiting_for(work, game)}.")
            work.game = game.answer_resignation(player, accept)
            if accept:
                work.lines.append(f"{work.name(player)} accepts the resignation.")
                await self.endings.finish(work)
                await self.autoplay.auto(work)
            else:
                work.lines.append(f"{work.name(player)} rejects the resignation: play on.")

        return await self.runner.run(place, actor, op, expect=expect)

    async def forfeit(self, place: Place, actor: Actor, expect: Expect | None = None, *,
                      confirm: bool = False) -> Reply:
        """Abandon: lose the current game at the cube's value and end the match/session.
        Without ``confirm`` it only says what it would cost (as /chouette leave does)."""
        async def op(work: Work) -> None:
            work.seating.check_forfeit(work)
            player = work.player_of(work.actor)
            game = work.current_game()
            if not confirm:
                raise Refusal(forfeit_warning(work, game, player))
            work.game = game.forfeit(player, ResultKind.SINGLE)
            work.lines.append(f"{work.name(player)} abandons.")
            await self.endings.finish(work, next_game=False)
            if work.match_status is MatchStatus.FINISHED:
                return
            session = work.session
            if isinstance(session, Match):
                work.session = session.forfeit(player)
                work.lines.append(f"{work.name(player.other)} wins the match by forfeit.")
            else:
                work.lines.append("The money session is over.")
            await self.endings.end_match(work, player.other)

        return await self.runner.run(place, actor, op, expect=expect)

    async def claim(self, place: Place, actor: Actor, expect: Expect | None = None) -> Reply:
        """The waiting player claims a game whose opponent has been idle too long (the
        server's ``claim_after_minutes``).  Not in a place without a server: nobody is
        reminded there, so nobody may win by waiting."""
        try:
            refuse_without_server(place, "Claiming a game by time",
                                  "without a server I can't remind an idle player, so a "
                                  "game there is never won by waiting. Ask your opponent to "
                                  "play on, or end it with /resign.")
        except Refusal as refusal:
            return Reply.refuse(str(refusal))
        try:
            claim_after = (await self.settings.of(place.guild_id)).claim_after_minutes
        except StorageError as error:
            return Reply.refuse(str(error))

        async def op(work: Work) -> None:
            player = work.player_of(work.actor)
            if work.state.answers_only:  # (a server that did not install the bot)
                raise Refusal("Claiming a game by time needs me in this server: the app is "
                              "installed to your accounts only, so I can't remind an idle "
                              "player here, and a game here is never won by waiting. Ask "
                              "your opponent to play on, or end it with /resign; a server "
                              "admin can add me to the server.")
            game = work.current_game()
            idle_player = game.awaiting
            if idle_player is None or idle_player is player:
                raise Refusal("You can only claim a game while your opponent has to act.")
            offer = game.resignation
            if game.phase is Phase.RESIGNATION and offer is not None and offer.player is player:
                # README /claim: an offer to resign is not turned into a win by waiting.
                raise Refusal(f"Your offer to resign waits for {work.name(idle_player)}'s "
                              "answer, and whoever offered to resign can't claim the game while "
                              "the offer stands: wait for the answer, or /forfeit.")
            last = datetime.fromisoformat(work.row.updated_at)
            limit = timedelta(minutes=claim_after)
            waited = self.runner.clock() - last
            if waited < limit:
                left = (limit - waited).total_seconds() / 60
                raise Refusal(f"{work.name(idle_player)} still has {span(left)} to act "
                              "before you can claim the game.")
            how = self.config.timeouts.claim_scores_as
            kind = ResultKind.SINGLE if how == "cube" else ResultKind[how.upper()]
            work.game = game.forfeit(idle_player, kind)
            work.lines.append(f"{work.name(player)} claims the game: {work.name(idle_player)} "
                              "did not act in time.")
            await self.endings.finish(work)
            await self.autoplay.auto(work)

        return await self.runner.run(place, actor, op, expect=expect)


def forfeit_warning(work: Work, game: Game, player: Player) -> str:
    """What /forfeit would cost ``player``, and how to confirm it."""
    result = game.forfeit(player, ResultKind.SINGLE).result
    assert result is not None
    points = counted(result.points, "point")
    other = work.name(player.other)
    if isinstance(work.session, Match):
        cost = (f"you lose this game ({points}) and the match: {other} wins it")
        instead = " To give up only this game, /resign."
    else:
        cost = f"you lose this game ({points}) and the money session ends"
        instead = (" To end the session without losing a game, /stop between games."
                   if not between_games(game) else
                   " Nothing of this game is played yet: /stop ends the session and costs "
                   "nothing.")
    return f"Forfeiting is final: {cost}.{instead} To do it, /forfeit confirm."

"""Looking at the live game: /board for anyone, and the legal plays for autocomplete."""

from __future__ import annotations

from bot.service.core import present
from bot.service.core.limits import MAX_TEXT
from bot.service.core.replies import Refusal, Reply
from bot.service.core.runner import ActionRunner, NoGameHere
from bot.service.core.values import Actor, Place, bad_ids
from bot.service.play.endings import status_text
from bot.storage.interface import MatchStatus
from engine.game import Phase
from engine.player import Player

OPEN = (MatchStatus.ACTIVE, MatchStatus.CHALLENGED)


class Watch:
    """Read-only views of the channel's game (a snapshot: no lock, nothing written)."""

    def __init__(self, runner: ActionRunner) -> None:
        self.runner = runner

    async def board(self, place: Place, actor: Actor) -> Reply:
        """The current board, for anyone (spectators included); changes nothing."""
        if (bad := bad_ids(place, actor)) is not None:
            return Reply.refuse(bad)
        try:
            async with self.runner.storage.snapshot() as tx:
                loaded = await self.runner.load(tx, place, statuses=OPEN)
                if loaded.game is None:
                    return Reply(ok=True, text="The challenge is waiting for an answer.",
                                 match_id=loaded.row.id, version=loaded.row.version)
                work = self.runner.work(tx, loaded, actor)
                for hook in self.runner.looking:  # (the clocks as they run: issue 44)
                    await hook(work)
                shown = present.reply(work, loaded.row, analysis=self.runner.analysis)
        except NoGameHere as refusal:
            found = await self.runner.elsewhere(place, actor, OPEN, act=False)
            return found if isinstance(found, Reply) else Reply.refuse(str(refusal))
        except Refusal as refusal:
            return Reply.refuse(str(refusal))
        return Reply(ok=True, text="\n".join([status_text(work), *work.lines]),
                     boards=shown.boards, buttons=shown.buttons, notify=shown.notify,
                     match_id=loaded.row.id, version=loaded.row.version)

    async def suggestions(self, place: Place, actor: Actor, text: str,
                          limit: int = 25) -> list[str]:
        """Legal plays matching partly typed ``text`` (for autocomplete)."""
        text = text[:MAX_TEXT]
        if bad_ids(place, actor) is not None:
            return []
        try:
            loaded = await self.runner.look(place)
        except Refusal:
            return []
        game = loaded.game
        if game is None or game.phase is not Phase.PLAY or game.turn is None:
            return []
        if actor.id != (loaded.row.white_id if game.turn is Player.WHITE
                        else loaded.row.black_id):
            return []
        stage = game.stage
        if stage is None:
            return []
        plays = game.variant.suggest_plays(text, game.position, game.turn, stage,
                                           game.legal_plays(), limit)
        return [present.play_text(game, p) for p in plays]

"""Two players at a match: the ordinary :class:`~bot.service.core.work.Seating`, under which the
service's own rules apply unchanged (a chouette game uses
:class:`~bot.service.chouette.seating.ChouetteSeating` instead)."""

from __future__ import annotations

from bot.service.core.replies import Button
from bot.service.core.values import Actor
from bot.service.core.work import Seating, Work
from engine.game import Game
from engine.scoring import Result
from render.view import ChouetteView


class PairSeating:
    """Two players: nothing to add."""

    def refuse_outsider(self, work: Work, actor: Actor) -> None:
        return None

    async def answer_double(self, work: Work, take: bool) -> bool:
        return False

    async def finish(self, work: Work, result: Result) -> bool:
        return False

    def check_forfeit(self, work: Work) -> None:
        return None

    def panel(self, work: Work, game: Game) -> ChouetteView | None:
        return None

    def decorate(self, work: Work, game: Game,
                 buttons: tuple[Button, ...]) -> tuple[Button, ...]:
        return buttons


PAIR: Seating = PairSeating()

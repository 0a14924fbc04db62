"""Who sits at a match's table: the per-match strategy the game service consults.

A match is played by two players (:data:`PAIR`, the ordinary case), or it is
one game of a chouette (:class:`bot.service.chouette.ChouetteTable`), where
white is the box, black the captain, and partners have a say in the cube.
The game service asks its match's table at a few explicit points only:

* :meth:`Table.refuse_outsider` -- a user who is neither white nor black
  acts: a table may refuse with a more specific reason (a partner may not
  move);
* :meth:`Table.answer_double` -- a take or drop arrives: the table may handle
  it (a partner's own answer; a captain's answer retires the partners who
  dropped);
* :meth:`Table.finish` -- a game ended: the table may settle it itself (every
  member's ledger entry, rotation, next game);
* :meth:`Table.check_forfeit` -- abandoning is not how one leaves a chouette;
* :meth:`Table.panel`, :meth:`Table.decorate` -- what the board and the reply
  show (the chouette panel, partners' answers and suggestions, their buttons).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from render.view import ChouetteView

if TYPE_CHECKING:
    from bot.service.game import Actor, Work
    from bot.service.replies import Button
    from engine.game import Game
    from engine.scoring import Result


class Table(Protocol):
    def refuse_outsider(self, work: Work, actor: Actor) -> None:
        """Raise a specific :class:`~bot.service.replies.Refusal` for ``actor``, or return."""
        ...

    async def answer_double(self, work: Work, take: bool) -> bool:
        """A take (or drop) by ``work.actor``; True if the table handled it fully."""
        ...

    async def finish(self, work: Work, result: Result) -> bool:
        """Settle the finished game; True if the table did (no two-player ledger)."""
        ...

    def check_forfeit(self, work: Work) -> None:
        """Raise a refusal if abandoning the match is not allowed here."""
        ...

    def panel(self, work: Work, game: Game) -> ChouetteView | None:
        """The chouette panel of the board, if any."""
        ...

    def decorate(self, work: Work, game: Game,
                 buttons: tuple[Button, ...]) -> tuple[Button, ...]:
        """Add lines and notices to the reply being built; return its buttons."""
        ...


class PairTable:
    """Two players: the service's own rules apply unchanged."""

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


PAIR: Table = PairTable()

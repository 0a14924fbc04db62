"""The doubling cube: value, owner and a pending offer, with the rules of doubling.

Sources: 001 'THE DOUBLING TRACK'; 002 'DOUBLING' and 'OPTIONAL RULES'
(automatic doubles, beavers); 003 ch.4 (automatic and optional doubles);
004 'OPTIONAL DOUBLING'.

* A centred cube (``owner is None``) may be turned by either player; after a
  take only the player who accepted may redouble (001, 002; 003 ch.4 II "one
  player, after doubling, cannot double again until after his Opponent has in
  turn offered a double").
* A take gives the taker the cube at twice the value; a drop loses the value
  before the double (001, 002).
* A beaver (002): the doubled player immediately redoubles and keeps the
  cube; the original doubler then takes (the cube stays with the beaverer at
  four times the old value) or drops (losing twice the old value).
* Automatic doubles (002, 003 ch.4 I) double the value and leave the cube
  in the middle.

Whether a double is allowed *now* (start of one's own turn, before rolling;
not in the Crawford game; not at all without a cube) is checked by the game,
which knows the phase; :meth:`Cube.check_double` checks the rest.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.errors import CubeError
from engine.player import Player


@dataclass(frozen=True, slots=True)
class Offer:
    """A double waiting for an answer: ``doubler`` proposes ``value``."""

    doubler: Player
    value: int
    beaver: bool = False

    @property
    def answerer(self) -> Player:
        return self.doubler.other


@dataclass(frozen=True, slots=True)
class Cube:
    """The doubling cube of one game (immutable)."""

    value: int = 1
    owner: Player | None = None
    offer: Offer | None = None
    turned: bool = False
    """True once a double has been offered in this game (the Jacoby rule, 002)."""
    max_value: int | None = None

    @property
    def centred(self) -> bool:
        return self.owner is None

    def may_double(self, player: Player) -> bool:
        try:
            self.check_double(player)
        except CubeError:
            return False
        return True

    def check_double(self, player: Player) -> None:
        """Raise :class:`CubeError` unless ``player`` may turn the cube (ownership, cap)."""
        if self.offer is not None:
            raise CubeError("A double is already waiting for an answer.")
        if self.owner is not None and self.owner is not player:
            raise CubeError("Only the cube owner may redouble.")
        if self.max_value is not None and self.value * 2 > self.max_value:
            raise CubeError(f"The cube is already at its maximum of {self.max_value}.")

    def double(self, player: Player) -> Cube:
        """``player`` offers to double; the opponent must answer."""
        self.check_double(player)
        return replace(self, offer=Offer(player, self.value * 2), turned=True)

    def _pending(self, player: Player, what: str) -> Offer:
        offer = self.offer
        if offer is None:
            raise CubeError(f"There is no double to {what}.")
        if player is not offer.answerer:
            raise CubeError("You offered the double: your opponent must answer it.")
        return offer

    def take(self, player: Player) -> Cube:
        """Accept the pending double.  After a beaver the beaverer keeps the cube."""
        offer = self._pending(player, "take")
        owner = offer.doubler if offer.beaver else player
        return replace(self, value=offer.value, owner=owner, offer=None)

    def drop_value(self, player: Player) -> int:
        """The stake ``player`` loses by refusing the pending double (the value before it)."""
        self._pending(player, "drop")
        return self.value

    def check_beaver(self, player: Player) -> None:
        offer = self._pending(player, "beaver")
        if offer.beaver:
            raise CubeError("You can't beaver a beaver: take or drop.")
        if self.max_value is not None and offer.value * 2 > self.max_value:
            raise CubeError(
                f"You can't beaver: the cube would pass its maximum of {self.max_value}."
            )

    def beaver(self, player: Player) -> Cube:
        """Take the pending double and immediately redouble, keeping the cube (002)."""
        self.check_beaver(player)
        assert self.offer is not None
        taken = self.offer.value
        return replace(self, value=taken, owner=player,
                       offer=Offer(player, taken * 2, beaver=True))

    def automatic_double(self) -> Cube:
        """An automatic double: twice the value, the cube stays in the middle (002)."""
        return replace(self, value=self.value * 2)

    def automatic_double_allowed(self) -> bool:
        return self.max_value is None or self.value * 2 <= self.max_value

    def __str__(self) -> str:
        where = "centred" if self.owner is None else f"owned by {self.owner.label}"
        text = f"cube {self.value} {where}"
        if self.offer:
            text += f", {self.offer.doubler.label} offers {self.offer.value}"
        return text

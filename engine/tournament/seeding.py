"""Seeding: the order of the field before the first round, and where each seed sits
in an elimination bracket.

* Players are seeded by rating, highest first; unrated players come after every rated one.
* Players with equal ratings (and all the unrated players among themselves) are ordered
  **by lot**: each, in the order the entrants were given (sign-up order), draws one value from
  the caller's random source; the highest draw takes the better seed, and players whose draws
  are equal draw again among themselves, as players re-throw a tied opening die.  The source is
  a callable returning ints (the host's provably fair dice stream) or a finite sequence of
  draws, so anyone holding the draws can recompute the seeding; every player's draws are kept
  in :attr:`Seed.lots`.
* In a bracket of ``2^k`` places the seeds sit in the standard order (1 v 16, 8 v 9, 4 v 13,
  5 v 12, ...: the two best meet only in the final), and the places of the missing seeds
  above ``n`` are byes, which therefore fall to the top seeds.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from engine.tournament.errors import DrawExhaustedError, EntrantsError
from engine.words import counted

LotSource = Callable[[], int] | Sequence[int]
"""Where lots come from: a callable giving the next draw, or the draws themselves."""

MAX_REDRAWS = 64
"""Rounds of re-draws among still-tied players before the source is declared unusable."""


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player signed up: ``player`` is the host's stable id (e.g. a Discord user id),
    ``name`` is shown in pictures, ``rating`` is ``None`` for an unrated player."""

    player: str
    name: str = ""
    rating: float | None = None

    @property
    def display(self) -> str:
        return self.name or self.player


@dataclass(frozen=True, slots=True)
class Seed:
    """An entrant with its seed (1 = best) and the lots it drew (empty when it was not tied)."""

    entrant: Entrant
    seed: int
    lots: tuple[int, ...] = ()

    @property
    def player(self) -> str:
        return self.entrant.player

    def to_dict(self) -> dict[str, Any]:
        e = self.entrant
        return {"player": e.player, "name": e.name, "rating": e.rating, "seed": self.seed,
                "lots": list(self.lots)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Seed:
        rating = data["rating"]
        return cls(Entrant(str(data["player"]), str(data["name"]),
                           None if rating is None else float(rating)),
                   int(data["seed"]), tuple(int(x) for x in data["lots"]))


def _draws(source: LotSource) -> Iterator[int]:
    if callable(source):
        while True:
            yield int(source())
    else:
        yield from (int(x) for x in source)
        raise DrawExhaustedError(
            f"the {counted(len(source), 'draw')} given ran out before every tie was broken; "
            f"give more draws (or the random stream itself)")


def _order_by_lot(group: list[Entrant], draws: Iterator[int],
                          lots: dict[str, list[int]], budget: int) -> list[Entrant]:
    if len(group) < 2:
        return group
    if budget <= 0:
        raise DrawExhaustedError(
            f"{MAX_REDRAWS} rounds of draws did not break a tie between "
            f"{', '.join(e.display for e in group)}; the random source repeats itself")
    values: dict[str, int] = {}
    for e in group:
        value = next(draws)
        lots[e.player].append(value)
        values[e.player] = value
    out: list[Entrant] = []
    for value in sorted(set(values.values()), reverse=True):
        members = [e for e in group if values[e.player] == value]
        out.extend(_order_by_lot(members, draws, lots, budget - 1))
    return out


def seed_entrants(entrants: Sequence[Entrant], draws: LotSource) -> tuple[Seed, ...]:
    """The field in seed order (see the module docstring)."""
    seen: set[str] = set()
    for e in entrants:
        if e.player in seen:
            raise EntrantsError(
                f"{e.display} is entered twice; each player takes one place in the field")
        seen.add(e.player)
    source = _draws(draws)
    lots: dict[str, list[int]] = {e.player: [] for e in entrants}
    groups: dict[float | None, list[Entrant]] = {}
    for e in entrants:
        groups.setdefault(e.rating, []).append(e)
    rated = sorted((r for r in groups if r is not None), reverse=True)
    order: list[Entrant] = []
    for rating in [*rated, None]:
        if rating in groups:
            order.extend(_order_by_lot(groups[rating], source, lots, MAX_REDRAWS))
    return tuple(Seed(e, i + 1, tuple(lots[e.player])) for i, e in enumerate(order))


def bracket_size(players: int) -> int:
    """The smallest power of two holding ``players`` (at least 2)."""
    size = 2
    while size < players:
        size *= 2
    return size


def bracket_order(size: int) -> tuple[int, ...]:
    """Seeds (1-based) in bracket order for ``size`` places: for 8, ``1 8 4 5 2 7 3 6``
    (first-round matches 1 v 8, 4 v 5, 2 v 7, 3 v 6)."""
    if size < 1 or size & (size - 1):
        raise ValueError(f"a bracket has a power of two places, not {size}")
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [x for s in order for x in (s, total - s)]
    return tuple(order)

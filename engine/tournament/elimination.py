"""Elimination brackets: which places meet in each round, single and double elimination.

A bracket has ``P = 2^k`` places (the smallest power of two holding the field); the seeds
sit in the standard order (:func:`engine.tournament.seeding.bracket_order`) and the places
of the missing seeds are byes.

**Single elimination**: ``k`` rounds; in round ``r + 1``, match ``i`` is between the
winners of round ``r``'s matches ``2i`` and ``2i + 1``.

**Double elimination**, by the tournament's round ``t``:

* winners' bracket round ``r`` is played in round ``t = r`` (``r = 1..k``), as above;
* losers' bracket round ``m`` is played in round ``t = m + 1`` (``m = 1..2k - 2``):
  round 1 pairs the losers of winners' round 1, matches ``2i`` and ``2i + 1``; an even round
  ``2j`` pairs the winners of losers' round ``2j - 1`` with the losers of winners' round
  ``j + 1``, taken in reverse order (so that players who met before meet again as late as
  possible); an odd round ``2j + 1`` pairs the winners of losers' round ``2j`` among
  themselves;
* the grand final, round ``t = 2k``, is between the winners' bracket winner and the losers'
  bracket winner (with ``k = 1`` that is the loser of the only winners' match);
* if the losers' bracket winner takes the grand final and the winners' bracket winner is
  still in the tournament, the latter has lost only once: a second final (the **bracket
  reset**) is played in round ``2k + 1`` and decides.

A player takes part in at most one match per round: in round ``t`` the winners' bracket
holds the players without a loss and the losers' bracket those with one.  A place whose
player is missing (a bye, or a bye meeting a bye in the losers' bracket) is ``None``.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.tournament.pairing import Bracket, Pairing
from engine.tournament.seeding import bracket_order

Slot = tuple[str | None, str | None]
"""The two sides of a match to be made (either may be ``None``)."""


def first_round(players_in_seed_order: Sequence[str], size: int) -> tuple[Slot, ...]:
    order = bracket_order(size)
    n = len(players_in_seed_order)

    def at(seed: int) -> str | None:
        return players_in_seed_order[seed - 1] if seed <= n else None

    return tuple((at(order[2 * i]), at(order[2 * i + 1])) for i in range(size // 2))


def _stage(pairings: Sequence[Pairing], bracket: Bracket, stage: int) -> list[Pairing]:
    return sorted((p for p in pairings if p.bracket is bracket and p.stage == stage),
                  key=lambda p: p.slot)


def _halves(players: Sequence[str | None]) -> tuple[Slot, ...]:
    return tuple((players[2 * i], players[2 * i + 1]) for i in range(len(players) // 2))


def single_next(pairings: Sequence[Pairing], size: int,
                round: int) -> list[tuple[Bracket, int, Slot]]:
    """The matches of round ``round + 1`` after round ``round`` (empty: it was the final)."""
    levels = size.bit_length() - 1
    if round >= levels:
        return []
    winners = [p.winner for p in _stage(pairings, Bracket.MAIN, round)]
    return [(Bracket.MAIN, round + 1, s) for s in _halves(winners)]


def double_next(pairings: Sequence[Pairing], size: int, round: int,
                withdrawn: frozenset[str]) -> list[tuple[Bracket, int, Slot]]:
    """The matches of round ``round + 1`` of a double elimination (empty: it is over)."""
    k = size.bit_length() - 1
    t = round + 1
    out: list[tuple[Bracket, int, Slot]] = []
    if t <= k:
        winners = [p.winner for p in _stage(pairings, Bracket.WINNERS, t - 1)]
        out += [(Bracket.WINNERS, t, s) for s in _halves(winners)]
    m = t - 1
    if 1 <= m <= 2 * k - 2:
        if m == 1:
            losers = [p.loser for p in _stage(pairings, Bracket.WINNERS, 1)]
            out += [(Bracket.LOSERS, 1, s) for s in _halves(losers)]
        elif m % 2 == 0:
            survivors = [p.winner for p in _stage(pairings, Bracket.LOSERS, m - 1)]
            dropped = [p.loser for p in _stage(pairings, Bracket.WINNERS, m // 2 + 1)][::-1]
            out += [(Bracket.LOSERS, m, (a, b)) for a, b in zip(survivors, dropped, strict=True)]
        else:
            survivors = [p.winner for p in _stage(pairings, Bracket.LOSERS, m - 1)]
            out += [(Bracket.LOSERS, m, s) for s in _halves(survivors)]
    if t == 2 * k:
        champion = _stage(pairings, Bracket.WINNERS, k)[0].winner
        if k == 1:
            challenger = _stage(pairings, Bracket.WINNERS, 1)[0].loser
        else:
            challenger = _stage(pairings, Bracket.LOSERS, 2 * k - 2)[0].winner
        out.append((Bracket.FINAL, 1, (champion, challenger)))
    if t == 2 * k + 1:
        final = _stage(pairings, Bracket.FINAL, 1)[0]
        if final.winner is not None and final.winner == final.b and final.a is not None \
                and final.a not in withdrawn:
            out.append((Bracket.RESET, 1, (final.a, final.b)))
    return out


def planned_rounds(size: int, double: bool) -> int:
    """Rounds before any bracket reset: ``k`` for single, ``2k`` for double elimination."""
    k = size.bit_length() - 1
    return 2 * k if double else k

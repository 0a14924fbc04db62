"""Standings: the field ranked, with the figures behind each tie-break.

**Swiss** — by score (match wins; a bye and a win by an opponent's withdrawal count as wins),
then the tie-breaks in this order:

1. **Buchholz** — the sum of the current scores of the opponents met (a bye adds nothing);
2. **match-point difference** — match points won minus match points lost over all matches
   (byes and withdrawals score nothing either way; an organiser's result scores what the
   organiser entered);
3. **head-to-head** — among the players still level, matches won against each other;
4. then the seed (better seed first), so the order is total.

**Round robin** — by score (match wins; the round-robin bye is a rest, not a win), then
head-to-head, then match-point difference, then the seed.  (Buchholz says nothing in a full
round robin: everyone has met everyone.)

**Elimination** — players still in first (the champion when it is over), then by the round
in which they went out (later is better), then wins, then the seed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from engine.tournament.formats import Format
from engine.tournament.pairing import Pairing, Reason
from engine.tournament.seeding import Seed


@dataclass(frozen=True, slots=True)
class Standing:
    place: int
    player: str
    name: str
    seed: int
    score: int
    wins: int
    losses: int
    byes: int
    buchholz: int
    points_won: int
    points_lost: int
    head_to_head: int
    """Wins against the players level with this one after the earlier tie-breaks."""
    last_round: int
    """The last round the player had a decided pairing in (0: none yet)."""
    alive: bool
    """Still in the running: not withdrawn, and (elimination) not knocked out."""
    withdrawn: bool

    @property
    def point_difference(self) -> int:
        return self.points_won - self.points_lost

    @property
    def played(self) -> int:
        return self.wins + self.losses


@dataclass
class _Tally:
    seed: Seed
    wins: int = 0
    losses: int = 0
    byes: int = 0
    score: int = 0
    won: int = 0
    lost: int = 0
    last_round: int = 0
    buchholz: int = 0
    h2h: int = 0


def beaten(pairings: Iterable[Pairing]) -> dict[str, set[str]]:
    """For each player, the opponents they beat (in decided pairings with two players)."""
    out: dict[str, set[str]] = {}
    for p in pairings:
        if p.result is not None and p.loser is not None and p.result.winner is not None:
            out.setdefault(p.result.winner, set()).add(p.loser)
    return out


def lives(fmt: Format) -> int:
    """Losses that knock a player out (0: none do)."""
    return {Format.SINGLE_ELIMINATION: 1, Format.DOUBLE_ELIMINATION: 2}.get(fmt, 0)


def compute(fmt: Format, seeds: Sequence[Seed], pairings: Sequence[Pairing],
            withdrawn: Iterable[str] = ()) -> tuple[Standing, ...]:
    """The standings of ``fmt`` after ``pairings`` (see the module docstring)."""
    out_players = set(withdrawn)
    tally = {s.player: _Tally(s) for s in seeds}
    bye_scores = fmt is not Format.ROUND_ROBIN
    opponents: dict[str, list[str]] = {s.player: [] for s in seeds}
    for p in pairings:
        r = p.result
        if r is None or r.winner is None:
            continue
        for player in p.players:
            tally[player].last_round = max(tally[player].last_round, p.round)
        if p.is_bye:
            t = tally[r.winner]
            t.byes += 1
            if bye_scores:
                t.score += 1
            continue
        assert p.a is not None and p.b is not None
        opponents[p.a].append(p.b)
        opponents[p.b].append(p.a)
        loser = p.loser
        assert loser is not None
        tally[r.winner].wins += 1
        tally[r.winner].score += 1
        tally[loser].losses += 1
        for player in (p.a, p.b):
            won, lost = p.points_of(player)
            tally[player].won += won
            tally[player].lost += lost
    for player, t in tally.items():
        t.buchholz = sum(tally[o].score for o in opponents[player])
    knocked = lives(fmt)

    def alive(t: _Tally) -> bool:
        return t.seed.player not in out_players and (knocked == 0 or t.losses < knocked)

    if fmt.elimination:
        def key(t: _Tally) -> tuple[int, ...]:
            return (-int(alive(t)), -t.last_round, -t.wins, t.seed.seed)
        groups = [sorted(tally.values(), key=key)]
    elif fmt is Format.SWISS:
        groups = _level_groups(tally.values(), lambda t: (-t.score, -t.buchholz, -(t.won - t.lost)))
        groups = [_by_head_to_head(g, pairings) for g in groups]
    else:
        groups = _level_groups(tally.values(), lambda t: (-t.score,))
        groups = [g2 for g in groups for g2 in _level_groups(
            _by_head_to_head(g, pairings), lambda t: (-t.h2h, -(t.won - t.lost)))]
        groups = [sorted(g, key=lambda t: t.seed.seed) for g in groups]
    ordered = [t for g in groups for t in g]
    return tuple(
        Standing(place=i + 1, player=t.seed.player, name=t.seed.entrant.display,
                 seed=t.seed.seed, score=t.score, wins=t.wins, losses=t.losses, byes=t.byes,
                 buchholz=t.buchholz, points_won=t.won, points_lost=t.lost, head_to_head=t.h2h,
                 last_round=t.last_round, alive=alive(t), withdrawn=t.seed.player in out_players)
        for i, t in enumerate(ordered))


def _level_groups(items: Iterable[_Tally],
                  k: Callable[[_Tally], tuple[int, ...]]) -> list[list[_Tally]]:
    """``items`` sorted by ``k`` (then seed), cut into runs of equal key."""
    ordered = sorted(items, key=lambda t: (k(t), t.seed.seed))
    groups: list[list[_Tally]] = []
    for t in ordered:
        if groups and k(groups[-1][0]) == k(t):
            groups[-1].append(t)
        else:
            groups.append([t])
    return groups


def _by_head_to_head(group: list[_Tally], pairings: Sequence[Pairing]) -> list[_Tally]:
    """``group`` ordered by wins against each other (then seed); sets each ``h2h``."""
    if len(group) == 1:
        group[0].h2h = 0
        return group
    members = {t.seed.player for t in group}
    wins = {p: 0 for p in members}
    for p in pairings:
        r = p.result
        if (r is not None and r.winner is not None and r.winner in members
                and p.loser in members and r.reason is not Reason.BYE):
            wins[r.winner] += 1
    for t in group:
        t.h2h = wins[t.seed.player]
    return sorted(group, key=lambda t: (-t.h2h, t.seed.seed))

"""Swiss pairing: a maximum-weight matching (networkx) over the players still in.

Each round the active players are ranked by the standings (score, then the tie-breaks of
:mod:`engine.tournament.standings`, then seed).  With an odd number of them a *bye* node is
added.  Every possible pairing gets a cost, and the matching minimises, in strict order
(each criterion outweighs everything below it, by construction of the integer weights):

1. a second bye for a player (only when everyone left has had one);
2. rematches (only when no pairing of the whole field avoids them);
3. the bye going to anyone but the **lowest-ranked player who has not had one** (when
   everyone left has had one: the lowest-ranked player);
4. the sum of squared score differences of the pairs, so players on equal scores meet
   wherever possible and the unavoidable floats are as small as possible;
5. within a score group, pairs close to top-half-against-bottom-half (the first round is
   exactly 1 v n/2+1, 2 v n/2+2, ...).

Colours are irrelevant (the opening roll decides who starts).

Speed: the blossom algorithm costs about the number of candidate pairs.  Each player first
gets as candidates only its ``window`` nearest not-yet-met players by rank (and the bye
node its ``2 * window`` lowest-ranked candidates); if that graph has no pairing of everyone, the
window widens, up to every not-yet-met pair, and only then are rematches (and then second
byes) admitted.  So criteria 1 and 2 are always met exactly; 3 to 5 are optimal among the
candidate pairs (exactly optimal when the field is no larger than the window, and in
practice at any size: a player's best partner is next to him in the ranking).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set

import networkx as nx

BYE = "\x00bye"
"""The bye node (no player id starts with a NUL)."""

WINDOW = 4
"""Not-yet-met candidate partners per player, by rank, in the first attempt."""


def pair_round(ranking: Sequence[str], scores: Mapping[str, int],
               met: Mapping[str, Set[str]], had_bye: Set[str],
               window: int = WINDOW) -> tuple[tuple[str, str | None], ...]:
    """Pairs for the next round of the players in ``ranking`` (best first).

    ``met[p]`` holds the opponents ``p`` has already played, ``had_bye`` the players who
    had a bye.  Returns pairs ``(a, b)`` in rank order of ``a``; ``b`` is ``None`` for the bye.
    """
    players = list(ranking)
    if len(players) < 2:
        return tuple((p, None) for p in players)
    rank = {p: i for i, p in enumerate(players)}
    n = len(players)
    odd = n % 2 == 1
    eligible = [p for p in players if p not in had_bye]
    max_diff = max(scores[p] for p in players) - min(scores[p] for p in players)

    # Integer weights: each unit outweighs the sum of every lower criterion over a matching.
    pairs_n = n // 2 + 1
    unit_half = 1
    unit_score = unit_half * (pairs_n * n + 1)
    unit_bye_rank = unit_score * (pairs_n * (max_diff * max_diff) + 1)
    unit_rematch = unit_bye_rank * (n + 1)
    unit_second_bye = unit_rematch * (pairs_n + 1)
    base = unit_second_bye * (n + 1)

    groups: dict[int, list[str]] = {}
    for p in players:
        groups.setdefault(scores[p], []).append(p)
    pos = {p: (i, len(g)) for g in groups.values() for i, p in enumerate(g)}

    def pair_cost(p: str, q: str) -> int:
        d = scores[p] - scores[q]
        cost = unit_score * d * d
        if d == 0:
            (i, size), (j, _) = pos[p], pos[q]
            cost += unit_half * abs(abs(i - j) - size // 2)
        if q in met.get(p, ()):
            cost += unit_rematch
        return cost

    def bye_cost(p: str) -> int:
        if p in had_bye:
            return unit_second_bye + unit_bye_rank * (n - 1 - rank[p])
        return unit_bye_rank * (len(eligible) - 1 - eligible.index(p))

    def attempt(width: int | None, rematches: bool, second_byes: bool) -> \
            tuple[tuple[str, str | None], ...] | None:
        graph: nx.Graph[str] = nx.Graph()
        graph.add_nodes_from(players)
        for i, p in enumerate(players):
            taken = 0
            for q in players[i + 1:]:
                if width is not None and taken >= width:
                    break
                if q in met.get(p, ()) and not rematches:
                    continue
                taken += 1
                graph.add_edge(p, q, weight=base - pair_cost(p, q))
        if odd:
            candidates = [p for p in players if second_byes or p not in had_bye]
            if width is not None:
                candidates = candidates[-2 * width:]  # the lowest-ranked ones
            for p in candidates:
                graph.add_edge(p, BYE, weight=base - bye_cost(p))
        matching = nx.max_weight_matching(graph, maxcardinality=True)
        if 2 * len(matching) < n + int(odd):
            return None
        out: list[tuple[str, str | None]] = []
        for u, v in matching:
            if u == BYE or v == BYE:
                out.append((v if u == BYE else u, None))
            else:
                out.append((u, v) if rank[u] < rank[v] else (v, u))
        out.sort(key=lambda pair: (pair[1] is None, rank[pair[0]]))
        return tuple(out)

    for width in (window, 4 * window, None):
        if width is not None and width >= n:
            continue
        result = attempt(width, rematches=False, second_byes=not eligible)
        if result is not None:
            return result
    for second in (False, True):
        result = attempt(None, rematches=True, second_byes=second or not eligible)
        if result is not None:
            return result
    raise AssertionError("a complete graph always has a pairing of everyone")  # pragma: no cover


def first_round(ranking: Sequence[str]) -> tuple[tuple[str, str | None], ...]:
    """Round one: the bye to the lowest seed when the field is odd, then the top half
    against the bottom half (1 v n/2+1, 2 v n/2+2, ...)."""
    players = list(ranking)
    bye: list[tuple[str, str | None]] = []
    if len(players) % 2:
        bye = [(players.pop(), None)]
    half = len(players) // 2
    return tuple([(players[i], players[half + i]) for i in range(half)] + bye)

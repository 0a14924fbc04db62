"""Round robin (engine/tournament/roundrobin.py): the circle method."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st
from tournament_driver import play_out, start

from engine.tournament import Format
from engine.tournament.roundrobin import round_pairs, rounds_for


@given(st.integers(min_value=2, max_value=30))
def test_everyone_meets_everyone_exactly_once(n: int) -> None:
    players = [f"p{i}" for i in range(n)]
    meetings: Counter[frozenset[str]] = Counter()
    byes: Counter[str] = Counter()
    for rnd in range(1, rounds_for(n) + 1):
        pairs = round_pairs(players, rnd)
        seen = [p for pair in pairs for p in pair if p is not None]
        assert len(seen) == len(set(seen)) == n  # everyone once per round
        for a, b in pairs:
            assert a is not None
            if b is None:
                byes[a] += 1
            else:
                meetings[frozenset((a, b))] += 1
    assert set(meetings) == {frozenset(c) for c in combinations(players, 2)}
    assert set(meetings.values()) == {1}
    assert byes == (Counter(players) if n % 2 else Counter())


@settings(max_examples=25, deadline=None)
@given(st.integers(min_value=2, max_value=14), st.integers(min_value=0))
def test_a_whole_round_robin_ends_with_a_champion_on_the_best_score(n: int, seed: int) -> None:
    state = play_out(start(Format.ROUND_ROBIN, n, seed), random.Random(seed))
    assert state.round == rounds_for(n)
    played = Counter(frozenset(p.players) for p in state.pairings if not p.is_bye)
    assert len(played) == n * (n - 1) // 2 and set(played.values()) == {1}
    table = state.standings()
    assert state.champion == table[0].player
    assert table[0].score == max(s.score for s in table)
    # the round-robin bye is a rest: it scores nothing
    assert sum(s.score for s in table) == n * (n - 1) // 2

"""Seeding (engine/tournament/seeding.py): by rating, unrated last, ties by lot from the
caller's draws, byes to the top seeds, the standard bracket order."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.tournament import (
    DrawExhaustedError,
    Entrant,
    EntrantsError,
    Format,
    TournamentConfig,
    TournamentState,
    bracket_order,
    bracket_size,
    seed_entrants,
)
from engine.tournament.elimination import first_round


def test_bracket_order_is_the_standard_placement() -> None:
    order = bracket_order(16)
    pairs = [(order[i], order[i + 1]) for i in range(0, 16, 2)]
    assert pairs == [(1, 16), (8, 9), (4, 13), (5, 12), (2, 15), (7, 10), (3, 14), (6, 11)]
    # the two best seeds are in opposite halves, the four best in different quarters
    assert order.index(1) < 8 <= order.index(2)
    assert sorted(order.index(s) // 4 for s in (1, 2, 3, 4)) == [0, 1, 2, 3]


@given(st.integers(min_value=1, max_value=7))
def test_every_round_of_the_order_pairs_seeds_adding_to_size_plus_one(k: int) -> None:
    size = 2 ** k
    order = bracket_order(size)
    assert sorted(order) == list(range(1, size + 1))
    assert all(order[i] + order[i + 1] == size + 1 for i in range(0, size, 2))


def test_rating_order_and_unrated_last() -> None:
    entrants = [Entrant("a", rating=None), Entrant("b", rating=1500.0),
                Entrant("c", rating=1700.0), Entrant("d", rating=1600.0)]
    seeds = seed_entrants(entrants, [])  # no tie: no draw needed
    assert [s.player for s in seeds] == ["c", "d", "b", "a"]
    assert [s.seed for s in seeds] == [1, 2, 3, 4]
    assert all(s.lots == () for s in seeds)


def test_ties_are_broken_by_lot_highest_draw_first_and_redrawn_when_equal() -> None:
    entrants = [Entrant("a", rating=1500.0), Entrant("b", rating=1500.0),
                Entrant("c", rating=1500.0), Entrant("x")]
    # a draws 3, b 5, c 5 -> b and c tied: they draw again, b 2, c 6
    seeds = seed_entrants(entrants, [3, 5, 5, 2, 6])
    assert [s.player for s in seeds] == ["c", "b", "a", "x"]
    lots = {s.player: s.lots for s in seeds}
    assert lots == {"a": (3,), "b": (5, 2), "c": (5, 6), "x": ()}


def test_the_draw_is_reproducible_from_the_recorded_draws() -> None:
    rng = random.Random(7)
    entrants = [Entrant(f"p{i}") for i in range(20)]  # all unrated: one lot among all
    used: list[int] = []

    def die() -> int:
        used.append(rng.randint(1, 6))
        return used[-1]

    first = seed_entrants(entrants, die)
    again = seed_entrants(entrants, used)
    assert first == again


def test_running_out_of_draws_is_explained() -> None:
    with pytest.raises(DrawExhaustedError, match="ran out"):
        seed_entrants([Entrant("a"), Entrant("b")], [4, 4])


def test_a_source_that_never_breaks_the_tie_is_refused() -> None:
    with pytest.raises(DrawExhaustedError, match="repeats itself"):
        seed_entrants([Entrant("a"), Entrant("b")], lambda: 3)


def test_a_player_entered_twice_is_refused() -> None:
    with pytest.raises(EntrantsError, match="entered twice"):
        seed_entrants([Entrant("a"), Entrant("a")], [1, 2])


@given(st.integers(min_value=2, max_value=130))
def test_byes_go_to_the_top_seeds(n: int) -> None:
    size = bracket_size(n)
    players = [f"s{i + 1}" for i in range(n)]
    slots = first_round(players, size)
    with_bye = sorted(int((a or b or "s0")[1:]) for a, b in slots if a is None or b is None)
    assert with_bye == list(range(1, size - n + 1))
    assert all(a is not None or b is not None for a, b in slots)  # a bye never meets a bye


@settings(max_examples=30)
@given(st.integers(min_value=2, max_value=40), st.integers(min_value=0))
def test_started_bracket_gives_byes_to_top_seeds(n: int, seed: int) -> None:
    rng = random.Random(seed)
    entrants = [Entrant(f"p{i}", rating=rng.choice([None, 1500.0, 1600.0])) for i in range(n)]
    state = TournamentState.start(TournamentConfig(Format.SINGLE_ELIMINATION), entrants,
                                  lambda: rng.randint(1, 1000))
    seed_of = {s.player: s.seed for s in state.seeds}
    byes = sorted(seed_of[p.players[0]] for p in state.round_pairings(1) if p.is_bye)
    assert byes == list(range(1, state.bracket_size - n + 1))
    ratings = [s.entrant.rating for s in state.seeds]
    rated = [r for r in ratings if r is not None]
    assert rated == sorted(rated, reverse=True)
    assert ratings[len(rated):] == [None] * (n - len(rated))  # unrated last

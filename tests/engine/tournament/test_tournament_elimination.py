"""Single and double elimination (engine/tournament/elimination.py, state.py): whole
brackets driven with random results, one champion, the grand final and its bracket reset."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tournament_driver import play_out, start

from engine.tournament import Bracket, Format, Reason, TournamentState


def losses(state: TournamentState) -> Counter[str]:
    out: Counter[str] = Counter()
    for p in state.pairings:
        if p.loser is not None:
            out[p.loser] += 1
    return out


def check_once_per_round(state: TournamentState) -> None:
    for rnd in range(1, state.round + 1):
        seen = [x for p in state.round_pairings(rnd) for x in p.players]
        assert len(seen) == len(set(seen)), f"a player twice in round {rnd}"


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=2, max_value=40), st.integers(min_value=0),
       st.sampled_from([0.0, 0.08]))
def test_single_elimination_ends_with_exactly_one_champion(n: int, seed: int,
                                                            removals: float) -> None:
    state = play_out(start(Format.SINGLE_ELIMINATION, n, seed), random.Random(seed), removals)
    check_once_per_round(state)
    lost = losses(state)
    champion = state.champion
    assert champion is not None and lost[champion] == 0
    # everyone else still in went out with exactly one loss (a removed player may have
    # been removed before losing)
    assert champion not in state.withdrawn
    assert all(lost[p] == 1 for p in state.players
               if p != champion and p not in state.withdrawn)
    assert all(lost[p] <= 1 for p in state.withdrawn)
    assert state.round == state.rounds_planned
    assert state.standings()[0].player == champion


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=2, max_value=40), st.integers(min_value=0),
       st.sampled_from([0.0, 0.08]))
def test_double_elimination_ends_with_one_champion_and_two_losses_for_the_rest(
        n: int, seed: int, removals: float) -> None:
    state = play_out(start(Format.DOUBLE_ELIMINATION, n, seed), random.Random(seed), removals)
    check_once_per_round(state)
    lost = losses(state)
    champion = state.champion
    assert champion is not None and lost[champion] <= 1
    assert champion not in state.withdrawn
    assert all(lost[p] == 2 for p in state.players
               if p != champion and p not in state.withdrawn)
    assert all(lost[p] <= 2 for p in state.withdrawn)
    finals = [p for p in state.pairings if p.bracket is Bracket.FINAL]
    assert len(finals) == 1
    resets = [p for p in state.pairings if p.bracket is Bracket.RESET]
    final = finals[0]
    # the reset is made exactly when the losers' bracket winner takes the first final
    # while the winners' bracket winner is still in (he may withdraw from the reset itself)
    if resets:
        assert final.winner == final.b
        assert final.a not in state.withdrawn or (
            resets[0].result is not None and resets[0].result.reason is Reason.WITHDRAWAL)
    else:
        assert final.winner == final.a or final.a is None or final.a in state.withdrawn
    assert champion == (resets[0].winner if resets else final.winner)


def drive_to_final(n: int) -> TournamentState:
    """A double elimination of ``n`` where the better seed wins every match, up to the
    grand final."""
    state = start(Format.DOUBLE_ELIMINATION, n, seed=3)
    seed = {s.player: s.seed for s in state.seeds}
    while not any(p.bracket is Bracket.FINAL for p in state.pending):
        p = state.pending[0]
        best = min(p.players, key=seed.__getitem__)
        state = state.record_result(p.id, best, (p.length, 0))
    return state


@pytest.mark.parametrize("n", [2, 4, 6, 8, 13])
def test_grand_final_won_by_the_losers_bracket_winner_resets_the_bracket(n: int) -> None:
    state = drive_to_final(n)
    final = state.pending[0]
    assert final.bracket is Bracket.FINAL and final.length == 7  # final 7
    top = state.seeds[0].player
    assert final.a == top  # the winners' bracket winner: the top seed won every match
    assert final.b is not None and losses(state)[final.b] == 1
    state = state.record_result(final.id, final.b, (7, 5))
    assert not state.finished and state.champion is None
    (reset,) = state.pending
    assert reset.bracket is Bracket.RESET and (reset.a, reset.b) == (final.a, final.b)
    assert reset.round == final.round + 1 and reset.length == 7
    done = state.record_result(reset.id, top, (7, 2))
    assert done.finished and done.champion == top
    other = state.record_result(reset.id, final.b, (8, 6))
    assert other.champion == final.b


def test_grand_final_won_by_the_winners_bracket_winner_ends_it() -> None:
    state = drive_to_final(8)
    final = state.pending[0]
    assert final.a is not None
    state = state.record_result(final.id, final.a, (7, 0))
    assert state.finished and state.champion == final.a
    assert not any(p.bracket is Bracket.RESET for p in state.pairings)


def test_no_reset_when_the_winners_bracket_winner_withdraws_from_the_final() -> None:
    state = drive_to_final(8)
    final = state.pending[0]
    assert final.a is not None
    state = state.remove_player(final.a)
    assert state.finished and state.champion == final.b
    assert state.pairings[-1].result is not None
    assert state.pairings[-1].result.reason is Reason.WITHDRAWAL


def test_single_elimination_of_eight_pairs_1v8_4v5_2v7_3v6() -> None:
    state = start(Format.SINGLE_ELIMINATION, 8, seed=1)
    seed = {s.player: s.seed for s in state.seeds}
    pairs = [(seed[p.a], seed[p.b]) for p in state.round_pairings(1) if p.a and p.b]
    assert pairs == [(1, 8), (4, 5), (2, 7), (3, 6)]
    assert [p.id for p in state.round_pairings(1)] == ["R1-1", "R1-2", "R1-3", "R1-4"]

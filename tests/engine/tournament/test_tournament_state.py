"""The tournament state (engine/tournament/state.py): whole tournaments driven to a
champion, the stored form, per-round match lengths and every refusal."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tournament_driver import field, play_out, start, step

from engine.errors import BackgammonError
from engine.tournament import (
    EntrantsError,
    Format,
    LastPlayerError,
    MatchLengths,
    NotInPairingError,
    PairingDecidedError,
    PlayerWithdrawnError,
    Reason,
    ResultError,
    StateFormatError,
    TournamentConfig,
    TournamentConfigError,
    TournamentError,
    TournamentFinishedError,
    TournamentState,
    UnknownPairingError,
    UnknownPlayerError,
)


@pytest.mark.parametrize("fmt", list(Format))
@pytest.mark.parametrize("n", [2, 3, 5, 8, 13, 64])
def test_whole_tournament_to_a_champion_with_a_forfeit_and_a_removal(fmt: Format,
                                                                      n: int) -> None:
    rng = random.Random(n)
    state = start(fmt, n, seed=n)
    # a forfeit: the first match is claimed by its first player
    first = state.pending[0]
    assert first.a is not None
    state = state.record_result(first.id, first.a, reason="forfeit")
    assert state.pairing(first.id).result is not None
    if n > 2:  # a removal of someone still in (two players: nobody can be removed)
        table = state.standings()
        victim = next(s.player for s in reversed(table) if s.alive)
        state = state.remove_player(victim)
        assert victim in state.withdrawn
        assert state.pairing_of(victim) is None
    stored = [state]
    state = play_out(state, rng, snapshots=stored)
    assert state.finished and state.champion is not None
    assert state.champion not in state.withdrawn
    assert state.standings()[0].player == state.champion
    # every state along the way comes back from its stored (JSON) form unchanged
    for s in [*stored[:: max(1, len(stored) // 20)], state]:
        assert TournamentState.from_dict(json.loads(json.dumps(s.to_dict()))) == s


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(list(Format)), st.integers(min_value=2, max_value=20),
       st.integers(min_value=0), st.integers(min_value=0, max_value=60))
def test_to_dict_from_dict_round_trip(fmt: Format, n: int, seed: int, steps: int) -> None:
    rng = random.Random(seed)
    state = start(fmt, n, seed)
    for _ in range(steps):
        if state.finished:
            break
        state = step(state, rng, removals=0.1)
    data = json.loads(json.dumps(state.to_dict()))
    back = TournamentState.from_dict(data)
    assert back == state
    assert back.to_dict() == state.to_dict()


def test_pairings_have_stable_ids_and_results_advance_the_round() -> None:
    state = start(Format.SINGLE_ELIMINATION, 4, seed=5)
    assert [p.id for p in state.pending] == ["R1-1", "R1-2"]
    a, b = state.pending
    assert a.a is not None and b.b is not None
    state = state.record_result(a.id, a.a, (5, 3))
    assert state.round == 1 and [p.id for p in state.pending] == ["R1-2"]
    before = state
    state = state.record_result(b.id, b.b, (6, 4))
    assert state.round == 2
    (final,) = state.new_pairings(before)
    assert final.id == "R2-1" and final.players == (a.a, b.b) and final.length == 7
    assert state.pairing("R1-1").result is not None  # earlier ids keep their pairings


def test_length_for_each_round() -> None:
    lengths = MatchLengths(5, final=7, rounds=((2, 3),))
    assert [lengths.length_for(r) for r in (1, 2, 3)] == [5, 3, 5]
    assert lengths.length_for(4, final=True) == 7
    state = start(Format.SINGLE_ELIMINATION, 16, seed=1)  # 5, final 7
    assert [state.length_for(r) for r in (1, 2, 3, 4)] == [5, 5, 5, 7]
    double = start(Format.DOUBLE_ELIMINATION, 8, seed=1)
    assert double.rounds_planned == 6
    assert [double.length_for(r) for r in range(1, 8)] == [5, 5, 5, 5, 5, 7, 7]


def test_match_lengths_parse() -> None:
    assert MatchLengths.parse("5") == MatchLengths(5)
    assert MatchLengths.parse("5 final 7") == MatchLengths(5, 7)
    assert MatchLengths.parse("3, r2=5, final=9") == MatchLengths(3, 9, ((2, 5),))
    for bad in ("", "five", "5 7", "final", "0", "5 semi 7", "99"):
        with pytest.raises(TournamentConfigError):
            MatchLengths.parse(bad)


def test_match_lengths_are_read_in_ascii_digits_only() -> None:
    """'²' passes ``str.isdigit`` and made ``int`` raise (its message reached the user);
    other scripts' digits ('٣') were taken as numbers.  Both are refused with the help."""
    for bad in ("²", "5 final ²", "r²=5", "r٣=5", "٣", "5 final ٣", "5 r1=٣"):
        with pytest.raises(TournamentConfigError, match="write a number of points"):
            MatchLengths.parse(bad)


def test_format_parse_and_config_refusals() -> None:
    assert Format.parse("Double elimination") is Format.DOUBLE_ELIMINATION
    assert Format.parse("rr") is Format.ROUND_ROBIN
    with pytest.raises(TournamentConfigError, match="choose one of"):
        Format.parse("ladder")
    with pytest.raises(TournamentConfigError, match="only for a Swiss"):
        TournamentConfig(Format.ROUND_ROBIN, swiss_rounds=3)
    with pytest.raises(TournamentConfigError, match="at least 1 round"):
        TournamentConfig(Format.SWISS, swiss_rounds=0)
    with pytest.raises(TournamentConfigError, match="at least 2"):
        TournamentConfig(Format.SWISS, max_players=1)


def test_start_refusals() -> None:
    rng = random.Random(0)
    with pytest.raises(EntrantsError, match="at least 2 players"):
        TournamentState.start(TournamentConfig(Format.SWISS), field(1, rng), [])
    with pytest.raises(EntrantsError, match="at most 4"):
        TournamentState.start(TournamentConfig(Format.SWISS, max_players=4), field(5, rng),
                              lambda: rng.randint(1, 6))
    with pytest.raises(EntrantsError, match="at most 3 Swiss rounds"):
        TournamentState.start(TournamentConfig(Format.SWISS, swiss_rounds=4), field(4, rng),
                              lambda: rng.randint(1, 6))


def test_result_refusals_explain_themselves() -> None:
    state = start(Format.SWISS, 6, seed=4)
    p = state.pending[0]
    assert p.a is not None and p.b is not None
    with pytest.raises(UnknownPairingError, match="waiting for a result are: R1-1"):
        state.record_result("R9-9", p.a, (5, 0))
    with pytest.raises(NotInPairingError, match="does not play in"):
        outsider = next(x for x in state.players if x not in p.players)
        state.record_result(p.id, outsider, (5, 0))
    with pytest.raises(ResultError, match="needs its final score"):
        state.record_result(p.id, p.a)
    with pytest.raises(ResultError, match="cannot be its final score"):
        state.record_result(p.id, p.a, (4, 2))
    with pytest.raises(ResultError, match="cannot be negative"):
        state.record_result(p.id, p.a, (0, -1), reason="organiser")
    with pytest.raises(ResultError, match="made by the tournament itself"):
        state.record_result(p.id, p.a, reason=Reason.BYE)
    with pytest.raises(ResultError, match="unknown reason"):
        state.record_result(p.id, p.a, reason="coin toss")
    done = state.record_result(p.id, p.b, (5, 1))
    with pytest.raises(PairingDecidedError, match="already decided"):
        done.record_result(p.id, p.a, (5, 1))
    assert done.pairing(p.id).points_of(p.b) == (5, 1)


def test_removal_refusals() -> None:
    state = start(Format.SINGLE_ELIMINATION, 2, seed=1)
    with pytest.raises(UnknownPlayerError, match="not in this tournament"):
        state.remove_player("nobody")
    # in a final, removing one player makes the other champion: the tournament is over
    won = state.remove_player(state.players[0])
    assert won.finished and won.champion == state.players[1]
    robin = start(Format.ROUND_ROBIN, 3, seed=1)
    with pytest.raises(LastPlayerError, match="fewer than two players"):
        robin.remove_player(robin.players[0]).remove_player(robin.players[1])
    swiss = start(Format.SWISS, 5, seed=1)
    out = swiss.remove_player(swiss.players[0])
    with pytest.raises(PlayerWithdrawnError, match="already removed"):
        out.remove_player(swiss.players[0])
    finished = play_out(swiss, random.Random(1))
    with pytest.raises(TournamentFinishedError, match="over"):
        finished.remove_player(swiss.players[1])
    with pytest.raises(TournamentFinishedError, match="champion"):
        finished.record_result("R1-1", swiss.players[1], (5, 0))


def test_errors_are_backgammon_errors() -> None:
    for cls in (EntrantsError, UnknownPairingError, PairingDecidedError, NotInPairingError,
                ResultError, UnknownPlayerError, PlayerWithdrawnError, LastPlayerError,
                TournamentFinishedError, StateFormatError, TournamentConfigError):
        assert issubclass(cls, TournamentError) and issubclass(cls, BackgammonError)


def test_unreadable_stored_state() -> None:
    state = start(Format.ROUND_ROBIN, 4, seed=1)
    data = state.to_dict()
    with pytest.raises(StateFormatError, match="version"):
        TournamentState.from_dict({**data, "version": 99})
    with pytest.raises(StateFormatError, match="cannot be read"):
        TournamentState.from_dict({k: v for k, v in data.items() if k != "seeds"})

"""Differential verification of the legal-play generator against two independent engines.

For every (position, roll) the SET of positions our generator can reach must
equal the set GNU Backgammon's generator reaches (gnubg_nn.moves), and, on a
smaller subset, bgsage's (bgsage.possible_moves).  Positions come from random
games played from the start by both players (contact, bar and bear-off
positions; see tests/movegen_corpus.py); the seed is fixed.

Rules exercised: 002_de81a0fe2cc80ee1.txt 'MOVEMENT OF PIECES' 1-4,
'HITTING AND ENTERING', 'BEARING OFF'; 001_1fd58179962334fd.txt (use of both
dice / the higher die).

Also a property test: every generated play keeps 15 checkers a side, never
puts both colours on one point, and changes the pip counts by exactly the
dice used (less any bear-off overshoot) and the hits.
"""

from __future__ import annotations

import random
from functools import cache

import bgsage
import gnubg_nn
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from movegen_corpus import (
    POLICIES,
    case_corpus,
    from_bgsage,
    from_gnubg,
    game_positions,
    to_bgsage,
    to_gnubg,
)

from engine.movegen import legal_plays
from engine.player import Player
from engine.position import BAR, CHECKERS, OFF, Position

pytestmark = pytest.mark.slow

SEED = 20240501
GNUBG_POSITIONS, GNUBG_ROLLS = 1000, 21  # 21,000 (position, roll) pairs
BGSAGE_POSITIONS, BGSAGE_ROLLS = 300, 10  # 3,000 pairs



@cache
def _cases() -> list[tuple[Position, Player, int, int]]:
    return case_corpus(SEED, GNUBG_POSITIONS, GNUBG_ROLLS)


def _ours(position: Position, player: Player, d1: int, d2: int) -> set[Position]:
    return {p.position for p in legal_plays(position, player, d1, d2)}


def _gnubg(position: Position, player: Player, d1: int, d2: int) -> set[Position]:
    keys = gnubg_nn.moves(to_gnubg(position, player), d1, d2)
    # gnubg_nn returns no key at all when the roll cannot be played.
    return {from_gnubg(gnubg_nn.board_from_position_key(k), player) for k in keys} or {position}


def _bgsage(position: Position, player: Player, d1: int, d2: int) -> set[Position]:
    # bgsage returns the unchanged board (or nothing) when there is no legal play.
    boards = bgsage.possible_moves(to_bgsage(position, player), d1, d2)
    return {from_bgsage(b, player) for b in boards} or {position}


def test_corpus_is_varied() -> None:
    """The corpus reaches the situations the rules treat specially."""
    cases = _cases()
    bar = sum(1 for pos, pl, *_ in cases if pos.sides[pl][BAR])
    bear_off = sum(1 for pos, pl, *_ in cases if pos.all_home(pl) and pos.sides[pl][OFF] < 15)
    race_contact_free = sum(
        1 for pos, pl, *_ in cases
        if pos.highest_point(pl) + pos.highest_point(pl.other) <= 24
    )
    doubles = sum(1 for *_, d1, d2 in cases if d1 == d2)
    blocked = sum(1 for pos, pl, d1, d2 in cases
                  if not legal_plays(pos, pl, d1, d2)[0].moves)
    assert len(cases) >= 20_000
    assert bar >= 1000
    assert bear_off >= 1000
    assert race_contact_free >= 1000
    assert doubles >= 3000
    assert blocked >= 100


def test_same_resulting_positions_as_gnubg() -> None:
    differences = []
    for position, player, d1, d2 in _cases():
        ours, theirs = _ours(position, player, d1, d2), _gnubg(position, player, d1, d2)
        if ours != theirs:
            differences.append((position, player, d1, d2, ours - theirs, theirs - ours))
    assert not differences, (
        f"{len(differences)} differences with gnubg; first: {differences[0]!r}"
    )


def test_same_resulting_positions_as_bgsage() -> None:
    cases = case_corpus(SEED + 7, BGSAGE_POSITIONS, BGSAGE_ROLLS)
    assert len(cases) == 3000
    differences = []
    for position, player, d1, d2 in cases:
        ours, theirs = _ours(position, player, d1, d2), _bgsage(position, player, d1, d2)
        if ours != theirs:
            differences.append((position, player, d1, d2, ours - theirs, theirs - ours))
    assert not differences, (
        f"{len(differences)} differences with bgsage; first: {differences[0]!r}"
    )


def test_conversions_round_trip() -> None:
    """The reference-engine board conversions lose nothing (else the comparison is void)."""
    for position, player, *_ in _cases()[::50]:
        assert from_gnubg(to_gnubg(position, player), player) == position
        assert from_bgsage(to_bgsage(position, player), player) == position


@st.composite
def reachable(draw: st.DrawFn) -> tuple[Position, Player]:
    seed = draw(st.integers(0, 2**32 - 1))
    policy = draw(st.sampled_from(sorted(POLICIES)))
    turns = draw(st.integers(0, 300))
    states = game_positions(random.Random(seed), POLICIES[policy])
    state = next(states)
    for _ in range(turns):
        state = next(states, state)
    return state


@settings(max_examples=150, deadline=None)
@given(reachable(), st.integers(1, 6), st.integers(1, 6))
def test_generated_plays_are_sound(state: tuple[Position, Player], d1: int, d2: int) -> None:
    """002 'MOVEMENT OF PIECES', 'HITTING AND ENTERING', 'BEARING OFF'."""
    position, player = state
    opp = player.other
    before_mine, before_theirs = position.pip_count(player), position.pip_count(opp)
    allowed = [d1] * 4 if d1 == d2 else [d1, d2]
    for play in legal_plays(position, player, d1, d2):
        after = play.position
        for side in after.sides:
            assert sum(side) == CHECKERS and min(side) >= 0
        for point in range(1, 25):
            assert not (after.sides[player][point] and after.sides[opp][25 - point])
        remaining = list(allowed)
        for move, die in zip(play.moves, play.dice, strict=True):
            remaining.remove(die)
            assert move.distance == die or (move.dst == OFF and move.distance < die)
        moved = sum(m.distance for m in play.moves)
        assert before_mine - after.pip_count(player) == moved
        hit_pips = sum(m.dst for m in play.moves if m.hit)
        assert after.pip_count(opp) - before_theirs == hit_pips
        assert after.sides[opp][BAR] - position.sides[opp][BAR] == sum(
            m.hit for m in play.moves
        )

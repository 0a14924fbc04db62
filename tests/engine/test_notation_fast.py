"""format_play / format_plays (a cache by move identity and a direct path for short
plays) write exactly what the general :func:`engine.notation.format_moves` writes.

format_moves is gnubg's FormatMove step by step (see tests/engine/test_notation.py for the
canonical forms themselves); here it is the oracle for the fast path, on every
play of a corpus of reachable positions and on arbitrary move lists.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from movegen_corpus import position_corpus

from engine import notation
from engine.dice import ALL_ROLLS
from engine.move import Move, Play
from engine.movegen import legal_plays
from engine.notation import format_moves, format_play, format_plays
from engine.player import Player
from engine.position import BAR, OFF, WAITING, Position


def test_every_legal_play_of_a_corpus() -> None:
    for position, player in position_corpus(17, 60):
        for dice in ALL_ROLLS:
            plays = legal_plays(position, player, dice.first, dice.second)
            expected = [format_moves(p.moves) for p in plays]
            assert format_plays(plays) == expected
            assert [format_play(p) for p in plays] == expected


@st.composite
def moves(draw: st.DrawFn) -> tuple[Move, ...]:
    """Up to four single-die moves of one side, anything the type allows (hits flagged
    anywhere, repeated moves, chains), to reach every branch of the direct path."""
    count = draw(st.integers(1, 4))
    out = []
    for _ in range(count):
        src = draw(st.integers(1, WAITING))
        dst = draw(st.integers(OFF, min(src - 1, BAR - 1)))
        out.append(Move(src, dst, draw(st.booleans())))
    return tuple(out)


@settings(max_examples=600)
@given(moves())
def test_any_moves(played: tuple[Move, ...]) -> None:
    play = Play(played, (), Position.standard())
    assert format_play(play) == format_moves(played)
    # Equal moves that are other objects: the same text (a miss of the identity cache).
    again = tuple(Move(m.src, m.dst, m.hit) for m in played)
    assert format_plays([Play(again, (), Position.standard()), play]) == \
        [format_moves(played)] * 2


def test_the_cache_forgets_its_oldest_entries(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(notation, "_TEXT_BY_MOVES", {})
    monkeypatch.setattr(notation, "_TEXT_BY_MOVES_LIMIT", 8)
    plays = [p for dice in ALL_ROLLS
             for p in legal_plays(Position.standard(), Player.WHITE, dice.first, dice.second)]
    assert len(plays) > 8
    for _ in range(2):
        assert format_plays(plays) == [format_moves(p.moves) for p in plays]
        assert len(notation._TEXT_BY_MOVES) <= 8

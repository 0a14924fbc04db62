"""Smoke tests of the legal-play generator on the starting position.

Rule source: 002_de81a0fe2cc80ee1.txt 'MOVEMENT OF PIECES' (rules 1-4).
"""

from engine.movegen import legal_plays
from engine.player import Player
from engine.position import Position, make_side


def test_opening_31_has_16_distinct_plays() -> None:
    plays = legal_plays(Position.standard(), Player.WHITE, 3, 1)
    assert len(plays) == 16
    assert len({p.position for p in plays}) == 16


def test_opening_66_plays_four_sixes() -> None:
    plays = legal_plays(Position.standard(), Player.WHITE, 6, 6)
    assert all(len(p.moves) == 4 for p in plays)


def test_no_legal_play_gives_one_empty_play() -> None:
    # White on the bar, black holds every point of his home board (white's 19-24).
    black = make_side({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2}, off=3)
    white = make_side({6: 14}, bar=1)
    pos = Position.from_sides(white, black)
    plays = legal_plays(pos, Player.WHITE, 6, 5)
    assert len(plays) == 1 and plays[0].moves == () and plays[0].position == pos

"""bot.ai.convert: engine positions <-> bgsage boards, and legal plays against bgsage.

The layout (bgsage/data.py): [0] opponent's bar (count), [1..24] the mover's
points (+ mover, - opponent), [25] the mover's bar; borne-off implicit.
"""

from __future__ import annotations

import random

import bgsage
import pytest
from movegen_corpus import case_corpus

from bot.ai.convert import from_board, representable, to_board
from engine.movegen import legal_plays
from engine.player import Player
from engine.position import BAR, CHECKERS, OFF, SLOTS, WAITING, Position


def random_position(rng: random.Random) -> Position:
    """Any legal-looking position: checkers on points, bar and off, no shared points."""
    white = [0] * SLOTS
    black = [0] * SLOTS
    for side, other in ((white, black), (black, white)):
        for _ in range(CHECKERS):
            r = rng.random()
            if r < 0.08:
                side[BAR] += 1
            elif r < 0.2:
                side[OFF] += 1
            else:
                for _ in range(50):
                    p = rng.randint(1, 24)
                    if not other[25 - p]:
                        side[p] += 1
                        break
                else:
                    side[OFF] += 1
    return Position.from_sides(white, black)


def test_starting_board_both_sides() -> None:
    start = Position.standard()
    assert to_board(start, Player.WHITE) == bgsage.STARTING_BOARD
    assert to_board(start, Player.BLACK) == bgsage.STARTING_BOARD
    assert from_board(bgsage.STARTING_BOARD, Player.BLACK) == start


def test_bar_and_off_layout() -> None:
    # White: one on the bar, 4 off, 10 on his 6-point; black: 2 on the bar, 13 on his 1-point.
    white = [0] * SLOTS
    white[BAR], white[OFF], white[6] = 1, 4, 10
    black = [0] * SLOTS
    black[BAR], black[1] = 2, 13
    pos = Position.from_sides(white, black)
    board = to_board(pos, Player.WHITE)
    assert board[25] == 1 and board[0] == 2
    assert board[6] == 10 and board[24] == -13
    assert sum(v for v in board[1:25] if v > 0) + board[25] == CHECKERS - 4
    assert to_board(pos, Player.BLACK) == bgsage.flip_board(board)


def test_round_trip_random_positions() -> None:
    rng = random.Random(7)
    for _ in range(3000):
        pos = random_position(rng)
        for player in Player:
            board = to_board(pos, player)
            assert len(board) == 26
            assert from_board(board, player) == pos
            assert to_board(pos, player.other) == bgsage.flip_board(board)


def test_round_trip_random_boards() -> None:
    rng = random.Random(8)
    for _ in range(3000):
        pos = random_position(rng)
        board = bgsage.flip_board(to_board(pos, Player.WHITE))  # any valid board
        player = rng.choice(list(Player))
        assert to_board(from_board(board, player), player) == board


def test_waiting_checkers_are_not_representable() -> None:
    empty = Position.empty()
    assert not representable(empty)
    with pytest.raises(ValueError):
        to_board(empty, Player.WHITE)
    assert representable(Position.standard())


def test_from_board_rejects_malformed() -> None:
    with pytest.raises(ValueError):
        from_board([0] * 25, Player.WHITE)
    bad = list(bgsage.STARTING_BOARD)
    bad[6] = 20
    with pytest.raises(ValueError):
        from_board(bad, Player.WHITE)


def _same_plays(pos: Position, player: Player, d1: int, d2: int) -> None:
    ours = {tuple(to_board(p.position, player)) for p in legal_plays(pos, player, d1, d2)}
    theirs = {tuple(b) for b in bgsage.possible_moves(to_board(pos, player), d1, d2)}
    if not theirs:  # documented as possible; bgsage in fact returns the unchanged board
        theirs = {tuple(to_board(pos, player))}
    assert ours == theirs, (pos, player, d1, d2)


def test_legal_plays_equal_bgsage_on_random_game_positions() -> None:
    """Positions from random games (contact, bar, bear-off), several rolls each."""
    cases = case_corpus(seed=2026, positions=1500, rolls_per_position=2)
    assert len(cases) >= 3000
    for pos, player, d1, d2 in cases:
        _same_plays(pos, player, d1, d2)


def test_legal_plays_equal_bgsage_on_random_positions() -> None:
    """Arbitrary positions with many checkers on the bar and borne off."""
    rng = random.Random(11)
    for _ in range(1000):
        pos = random_position(rng)
        player = rng.choice(list(Player))
        if pos.sides[player][OFF] == CHECKERS or pos.sides[player.other][OFF] == CHECKERS:
            continue
        _same_plays(pos, player, rng.randint(1, 6), rng.randint(1, 6))


def test_no_legal_play_gives_the_unchanged_board() -> None:
    # White on the bar against a closed board: 6-6 cannot enter.
    white = [0] * SLOTS
    white[BAR], white[OFF] = 1, 14
    black = [0] * SLOTS
    for p in range(1, 7):
        black[p] = 2
    black[OFF] = 3
    pos = Position.from_sides(white, black)
    board = to_board(pos, Player.WHITE)
    assert [list(b) for b in bgsage.possible_moves(board, 6, 6)] in ([board], [])
    assert WAITING == 26

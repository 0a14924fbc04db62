"""Reproducible corpora of reachable positions for the move-generator checks.

Used by ``tests/engine/test_movegen_differential.py`` and ``bench/bench_movegen.py``.
Positions come from games played from the starting position by both players
with one of several random policies, so the corpus holds contact positions,
positions with checkers on the bar (the "hitter" policy hits whenever it
can) and races and bear-offs (the "runner" policy avoids contact and
hurries home).  Conversions to and from the two reference engines live here
too, written from their documented board layouts, not from our code.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence

from engine.dice import ALL_ROLLS
from engine.move import Play
from engine.movegen import legal_plays
from engine.player import Player
from engine.position import BAR, CHECKERS, OFF, SLOTS, Position

Case = tuple[Position, Player, int, int]
Policy = Callable[[random.Random, Player, list[Play]], Play]


def _uniform(rng: random.Random, player: Player, plays: list[Play]) -> Play:
    return rng.choice(plays)


def _hitter(rng: random.Random, player: Player, plays: list[Play]) -> Play:
    most = max(sum(m.hit for m in p.moves) for p in plays)
    return rng.choice([p for p in plays if sum(m.hit for m in p.moves) == most])


def _runner(rng: random.Random, player: Player, plays: list[Play]) -> Play:
    """Prefer bearing off, then not hitting, then the fewest pips left (random tie-break)."""

    def key(p: Play) -> tuple[int, int, int]:
        side = p.position.sides[player]
        return (-side[OFF], sum(m.hit for m in p.moves), p.position.pip_count(player))

    best = min(key(p) for p in plays)
    return rng.choice([p for p in plays if key(p) == best])


POLICIES: dict[str, Policy] = {"uniform": _uniform, "hitter": _hitter, "runner": _runner}


def game_positions(rng: random.Random, policy: Policy, max_turns: int = 400
                   ) -> Iterator[tuple[Position, Player]]:
    """Every (position, player to move) of one random game from the start."""
    position = Position.standard()
    player = Player(rng.randrange(2))
    for _ in range(max_turns):
        yield position, player
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        plays = legal_plays(position, player, d1, d2)
        position = policy(rng, player, plays).position
        if position.sides[player][OFF] == CHECKERS:
            return
        player = player.other


DEFAULT_POLICIES = ("uniform", "runner", "hitter", "runner")


def position_corpus(seed: int, count: int, policies: Sequence[str] = DEFAULT_POLICIES,
                    per_game: int = 12) -> list[tuple[Position, Player]]:
    """``count`` (position, player on roll) pairs sampled from random games."""
    rng = random.Random(seed)
    out: list[tuple[Position, Player]] = []
    game = 0
    while len(out) < count:
        policy = POLICIES[policies[game % len(policies)]]
        game += 1
        states = list(game_positions(rng, policy))
        picks = sorted(rng.sample(range(len(states)), min(per_game, len(states))))
        out.extend(states[i] for i in picks)
    return out[:count]


def case_corpus(seed: int, positions: int, rolls_per_position: int) -> list[Case]:
    """(position, player, die1, die2) cases; each position with distinct random rolls."""
    rng = random.Random(seed + 1)
    cases: list[Case] = []
    for position, player in position_corpus(seed, positions):
        for dice in rng.sample(ALL_ROLLS, rolls_per_position):
            d1, d2 = (dice.first, dice.second) if rng.random() < 0.5 else (dice.second,
                                                                            dice.first)
            cases.append((position, player, d1, d2))
    return cases


# -- GNU Backgammon (gnubg_nn) ---------------------------------------------------
# A board is [[25 ints], [25 ints]]: index 0..23 are points 1..24 in that
# side's own numbering, index 24 its bar; board[1] is the player on roll,
# whose checkers gnubg_nn.moves() moves.


def to_gnubg(position: Position, player: Player) -> list[list[int]]:
    return [list(position.sides[player.other][1 : BAR + 1]),
            list(position.sides[player][1 : BAR + 1])]


def from_gnubg(board: Sequence[Sequence[int]], player: Player) -> Position:
    def side(counts: Sequence[int]) -> tuple[int, ...]:
        full = [0] * SLOTS
        full[1 : BAR + 1] = counts
        full[OFF] = CHECKERS - sum(counts)
        return tuple(full)

    opponent, mover = side(board[0]), side(board[1])
    return Position.unchecked(mover, opponent) if player == Player.WHITE else \
        Position.unchecked(opponent, mover)


# -- bgsage ------------------------------------------------------------------------
# A board is 26 ints from the mover's side: index 1..24 the mover's points
# (his checkers positive, the opponent's negative), 25 the mover's bar,
# 0 the opponent's bar (a positive count).


def to_bgsage(position: Position, player: Player) -> list[int]:
    mine, theirs = position.sides[player], position.sides[player.other]
    board = [0] * 26
    for point in range(1, 25):
        board[point] = mine[point] - theirs[25 - point]
    board[25] = mine[BAR]
    board[0] = theirs[BAR]
    return board


def from_bgsage(board: Sequence[int], player: Player) -> Position:
    mine = [0] * SLOTS
    theirs = [0] * SLOTS
    for point in range(1, 25):
        if board[point] > 0:
            mine[point] = board[point]
        elif board[point] < 0:
            theirs[25 - point] = -board[point]
    mine[BAR] = board[25]
    theirs[BAR] = board[0]
    mine[OFF] = CHECKERS - sum(mine)
    theirs[OFF] = CHECKERS - sum(theirs)
    if player == Player.WHITE:
        return Position.unchecked(tuple(mine), tuple(theirs))
    return Position.unchecked(tuple(theirs), tuple(mine))

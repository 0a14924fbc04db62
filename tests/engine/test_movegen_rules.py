"""Hand-written movement-rule cases for the legal-play generator.

Every case is a small position (White to move, each side in its own
numbering: Black's point ``q`` is White's point ``25 - q``), a roll, and the
complete list of legal plays worked out by hand from the cited rule.  The test
replays those hand-written plays with a tiny independent "apply" below and
compares the resulting positions with the generator's.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from engine.movegen import legal_plays
from engine.player import Player
from engine.position import BAR, OFF, Position, make_side

Moves = tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Case:
    name: str
    source: str
    white: dict[int, int]
    black: dict[int, int]
    dice: tuple[int, int]
    plays: tuple[Moves, ...]
    """Every legal play as (from, to) moves in White's numbering; () = no play."""
    white_bar: int = 0
    black_bar: int = 0


def _apply(position: Position, moves: Moves) -> Position:
    """White's moves by hand: ``to`` 0 is off, 25 is the bar; a lone Black checker is hit."""
    white = list(position.sides[Player.WHITE])
    black = list(position.sides[Player.BLACK])
    for src, dst in moves:
        assert white[src] > 0, f"no White checker on {src}"
        white[src] -= 1
        white[dst] += 1
        if dst != OFF and black[25 - dst] == 1:
            black[25 - dst] = 0
            black[BAR] += 1
    return Position.from_sides(white, black)


CASES = [
    Case(
        "both intermediate points blocked: the total cannot be played",
        "000 'NOTE'; 004 'RULES GOVERNING PLAY'; 002 'MOVEMENT OF PIECES' 1-2",
        white={10: 1}, black={18: 2, 20: 2, 1: 11}, dice=(3, 5),
        plays=((),),
    ),
    Case(
        "one checker plays both dice through the open intermediate point only",
        "003 ch.3 V 'Blocked Points' Example 2 (Diagram 4); 004 'RULES GOVERNING PLAY'",
        white={24: 1}, black={5: 2, 6: 13}, dice=(6, 4),
        plays=(((24, 18), (18, 14)),),
    ),
    Case(
        "6-3, stone A / stone B: the six that lets the three be played is compulsory",
        "001 (6-3 stone A / stone B example); 003 ch.3 V; 002 'MOVEMENT OF PIECES' 4",
        white={20: 1, 15: 1}, black={8: 2, 13: 2, 14: 2, 6: 5, 1: 4}, dice=(6, 3),
        plays=(((15, 9), (9, 6)),),
    ),
    Case(
        "either die but not both: the larger must be played",
        "002 'MOVEMENT OF PIECES' 4; 001 ('the higher number must be played')",
        white={10: 1}, black={24: 2, 6: 13}, dice=(6, 3),
        plays=(((10, 4),),),
    ),
    Case(
        "only the smaller die can be played: it must be played",
        "002 'MOVEMENT OF PIECES' 4; 001 ('if it is possible to move the 3 but not the 6')",
        white={10: 1}, black={21: 2, 24: 2, 6: 11}, dice=(6, 3),
        plays=(((10, 7),),),
    ),
    Case(
        "doubles: as many of the four as possible",
        "002 'MOVEMENT OF PIECES' 3-4; 003 ch.3 V (doublets)",
        white={13: 1}, black={24: 2, 6: 13}, dice=(4, 4),
        plays=(((13, 9), (9, 5)),),
    ),
    Case(
        "bar: enter first, then the other die by any checker",
        "002 'HITTING AND ENTERING'; 003 ch.3 VI",
        white={6: 14}, white_bar=1, black={4: 2, 1: 13}, dice=(6, 4),
        plays=(((25, 19), (19, 15)), ((25, 19), (6, 2))),
    ),
    Case(
        "two on the bar, only one can enter: the rest of the roll is lost",
        "002 'HITTING AND ENTERING' ('enter as many as he can and then forfeit')",
        white={6: 13}, white_bar=2, black={4: 2, 1: 13}, dice=(6, 4),
        plays=(((25, 19),),),
    ),
    Case(
        "entering hits a blot in the opponent's home board",
        "003 ch.3 VI 'Blots' Example 2 (Diagram 5); 002 'HITTING AND ENTERING'",
        white={6: 14}, white_bar=1, black={2: 1, 6: 2, 5: 2, 4: 2, 3: 2, 1: 6}, dice=(2, 6),
        plays=(((25, 23), (23, 17)),),  # no bearing off: the entered checker is not home
    ),
    Case(
        "bearing off: exact points, or move inside with the smaller die",
        "003 ch.3 VII Example 1 (Diagram 6); 002 'BEARING OFF'",
        white={6: 1, 3: 1}, black={1: 15}, dice=(6, 3),
        plays=(((6, 0), (3, 0)), ((6, 3), (3, 0))),
    ),
    Case(
        "bearing off: the six from the highest point, the four must move 5 to 1",
        "003 ch.3 VII Example 2 (Diagram 6); 002 'BEARING OFF'; 000 'BEARING OFF'",
        white={5: 2, 3: 1}, black={1: 15}, dice=(6, 4),
        plays=(((5, 0), (5, 1)),),
    ),
    Case(
        "bearing off: with point 5 empty the four bears off from 3",
        "003 ch.3 VII Example 2 (last sentence); 002 'BEARING OFF'",
        white={5: 1, 3: 1}, black={1: 15}, dice=(6, 4),
        plays=(((5, 0), (3, 0)), ((5, 1), (3, 0))),
    ),
    Case(
        "6-1 with one checker on the 6-point: 6/5 then bear off from 5 is legal",
        "001 (the 6-1 bearing-off example); 002 'BEARING OFF'",
        white={6: 1, 2: 1}, black={1: 15}, dice=(6, 1),
        plays=(((6, 0), (2, 1)), ((6, 5), (5, 0))),
    ),
    Case(
        "bearing off is not compulsory: moving inside instead is legal",
        "002 'BEARING OFF' ('under no obligation to bear off'); 004 'BEARING'",
        white={2: 1, 1: 1}, black={1: 15}, dice=(2, 1),
        plays=(((2, 0), (1, 0)), ((2, 1), (1, 0))),
    ),
    Case(
        "a checker hit while bearing off must come round before more bear off",
        "002 'BEARING OFF'; 003 ch.3 VII; 000 'BEARING OFF'",
        white={6: 3, 5: 3}, white_bar=1, black={2: 2, 3: 2}, dice=(6, 5),
        plays=(((25, 19), (19, 14)), ((25, 19), (6, 1)), ((25, 20), (20, 14))),
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_rule_case(case: Case) -> None:
    position = Position.from_sides(
        make_side(case.white, bar=case.white_bar), make_side(case.black, bar=case.black_bar)
    )
    expected = {_apply(position, moves) for moves in case.plays}
    for first, second in (case.dice, case.dice[::-1]):
        plays = legal_plays(position, Player.WHITE, first, second)
        assert {p.position for p in plays} == expected, case.source
        assert len(plays) == len(expected)
        for play in plays:
            now = position
            for move in play.moves:  # each move, replayed by hand, flags its hit correctly
                black_there = 0 if move.dst == OFF else now.sides[Player.BLACK][25 - move.dst]
                assert move.hit == (black_there == 1)
                now = _apply(now, ((move.src, move.dst),))
            assert now == play.position


def test_black_moves_by_the_same_rules() -> None:
    """The rules are the same for both colours: the 6-3 stone A/B case with colours swapped.

    001 (6-3 stone A / stone B example).
    """
    case = CASES[2]
    white_first = Position.from_sides(make_side(case.white), make_side(case.black))
    swapped = white_first.swapped()
    expected = _apply(white_first, case.plays[0]).swapped()
    plays = legal_plays(swapped, Player.BLACK, 6, 3)
    assert [p.position for p in plays] == [expected]


def test_no_play_returns_the_unchanged_position() -> None:
    """002 'MOVEMENT OF PIECES' 4: 'When neither number can be used, the player loses his turn.'"""
    position = Position.from_sides(make_side({6: 14}, bar=1),
                                   make_side({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2}, off=3))
    for dice in ((6, 5), (1, 1), (4, 2)):
        (play,) = legal_plays(position, Player.WHITE, *dice)
        assert play.moves == () and play.position == position


# -- the generator's search shortcuts against a plain breadth-first search ----------
# engine/movegen.py does not play again, in the second order of two different
# dice, two moves by two checkers (neither entering nor bearing off): the first
# order met that position already.  For doubles it moves in non-increasing order
# of source point and does not compare the results.  The cases below are where
# the order of the dice matters (bear-offs after a checker comes home, the larger
# die from the highest point, hits on the way, entering), checked against a
# search that tries every move in every order, with the same rules.


def _bfs_moves(mine: list[int], theirs: list[int], die: int,
               opposite: tuple[int, ...]) -> list[tuple[list[int], list[int]]]:
    """Every position after one move of ``die`` (sides in their own numbering)."""
    out = []
    sources = [BAR] if mine[BAR] else [s for s in range(1, 25) if mine[s]]
    for src in sources:
        dst = src - die
        if dst > 0:
            blockers = theirs[opposite[dst]]
            if blockers >= 2:
                continue
        else:
            if any(mine[7:]):
                continue  # not all home
            if dst < 0 and any(mine[src + 1 : 7]):
                continue  # a larger die only from the highest point
            dst, blockers = OFF, 0
        m, t = list(mine), list(theirs)
        m[src] -= 1
        m[dst] += 1
        if blockers == 1:
            t[opposite[dst]] = 0
            t[BAR] += 1
        out.append((m, t))
    return out


def _bfs_plays(position: Position, player: Player, d1: int, d2: int,
               opposite: tuple[int, ...]) -> set[Position]:
    """The positions of the legal plays: most dice used; with one die only, the larger."""
    orders = [(d1,) * 4] if d1 == d2 else [(d1, d2), (d2, d1)]
    start = (tuple(position.sides[player]), tuple(position.sides[1 - player]))
    by_used: dict[int, dict[int, set[tuple[tuple[int, ...], tuple[int, ...]]]]] = {}
    for order in orders:
        frontier = {start}
        for used, die in enumerate(order, 1):
            frontier = {(tuple(m), tuple(t)) for mine, theirs in frontier
                        for m, t in _bfs_moves(list(mine), list(theirs), die, opposite)}
            if not frontier:
                break
            by_used.setdefault(used, {}).setdefault(order[0], set()).update(frontier)
    if not by_used:
        return {position}
    most = max(by_used)
    found = by_used[most]
    states = found.get(max(d1, d2)) if most == 1 and max(d1, d2) in found else None
    if states is None:
        states = set().union(*found.values())
    out = set()
    for mine, theirs in states:
        out.add(Position.unchecked(mine, theirs) if player == Player.WHITE
                else Position.unchecked(theirs, mine))
    return out


SHORTCUT_CASES = [
    # (white, white_bar, black, black_bar): white to move
    ({8: 1, 3: 1}, 0, {1: 15}, 0),  # a checker comes home, then a bear-off
    ({9: 1, 5: 2, 2: 1}, 0, {20: 2, 1: 13}, 0),
    ({7: 1, 6: 1, 1: 2}, 0, {1: 15}, 0),  # the larger die from the highest point
    ({10: 1, 4: 1}, 0, {1: 15}, 0),
    ({12: 1, 6: 3}, 0, {1: 15}, 0),
    ({13: 2, 6: 2, 2: 1}, 0, {1: 14}, 1),
    ({11: 1, 8: 1, 6: 2}, 0, {14: 1, 17: 1, 19: 1, 1: 12}, 0),  # blots on the way
    ({24: 1, 13: 1, 8: 1}, 0, {20: 1, 18: 1, 16: 1, 12: 2, 6: 10}, 0),
    ({6: 5, 8: 3, 13: 5}, 1, {4: 1, 5: 1, 6: 5, 8: 2, 13: 5}, 0),  # entering
    ({6: 5, 4: 3}, 2, {1: 1, 3: 1, 6: 2, 8: 11}, 0),
    ({6: 2, 5: 2, 4: 2, 3: 2, 2: 2, 1: 1}, 1, {1: 1, 2: 1, 6: 13}, 0),
    ({19: 1, 7: 2, 6: 3, 5: 2}, 0, {1: 15}, 0),  # doubles bearing off late
    ({16: 1, 10: 1, 5: 3}, 0, {3: 1, 24: 14}, 0),
    ({6: 1, 5: 1, 4: 1, 3: 1, 2: 1, 1: 1}, 0, {1: 15}, 0),
]


@pytest.mark.parametrize("case", SHORTCUT_CASES, ids=[str(i) for i in range(len(SHORTCUT_CASES))])
def test_search_shortcuts_lose_no_play(case: tuple[dict[int, int], int, dict[int, int], int]
                                       ) -> None:
    from engine.movegen import MIRROR

    white, white_bar, black, black_bar = case
    position = Position.from_sides(make_side(white, bar=white_bar),
                                   make_side(black, bar=black_bar))
    for player in Player:
        pos = position if player == Player.WHITE else position.swapped()
        for d1 in range(1, 7):
            for d2 in range(1, 7):
                plays = legal_plays(pos, player, d1, d2)
                got = [p.position for p in plays]
                assert len(got) == len(set(got)), (d1, d2)
                assert set(got) == _bfs_plays(pos, player, d1, d2, MIRROR), (player, d1, d2)


def test_search_shortcuts_on_random_positions() -> None:
    """Random positions, both geometries (opposite directions, and Russian's same direction)."""
    import random

    from engine.movegen import MIRROR

    rng = random.Random(20240611)
    same = tuple(range(25))
    for _ in range(150):
        opposite = rng.choice((MIRROR, same))
        sides = []
        for _side in range(2):
            counts = [0] * 27
            top = rng.choice((6, 6, 9, 12, 24))
            for _checker in range(rng.randint(1, 15)):
                if rng.random() < 0.05:
                    counts[BAR] += 1
                else:
                    counts[rng.randint(1, top)] += 1
            sides.append(counts)
        white, black = sides
        for point in range(1, 25):  # never both colours on one point
            if white[point] and black[opposite[point]]:
                black[opposite[point]] = 0
        for counts in sides:
            counts[OFF] = 15 - sum(counts)
        position = Position.from_sides(white, black)
        player = rng.choice(list(Player))
        d1, d2 = rng.randint(1, 6), rng.randint(1, 6)
        for first, second in ((d1, d2), (d1, d1)):
            plays = legal_plays(position, player, first, second, opposite)
            got = [p.position for p in plays]
            assert len(got) == len(set(got))
            assert set(got) == _bfs_plays(position, player, first, second, opposite), (
                position, player, first, second)

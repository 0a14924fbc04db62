"""Legal play generation for the standard movement rules.

The rules implemented here, with the books they come from:

* a checker lands on an empty point, its own point or a single opposing
  checker (hitting it); never on two or more (002 'MOVEMENT OF PIECES' 1);
* the two dice are separate moves, so a checker playing both dice must find
  the intermediate point open too (000 'NOTE', 004 'RULES GOVERNING PLAY');
* doubles are played four times (002 rule 3);
* both dice must be used when possible; when only one can be, the larger one
  if either could be; when one order makes both playable that order is
  compulsory (001, 002 rule 4, 003 ch.3 V) -- all of which is "use as many
  dice as possible, and with only one usable die prefer the larger";
* checkers on the bar enter before anything else moves (002 'HITTING AND
  ENTERING');
* bearing off only with every checker home; exact point, or a larger die from
  the highest occupied point; moving inside the board instead is allowed
  (002 'BEARING OFF', 003 ch.3 VII).

The search works in the mover's own numbering on plain lists with
backtracking, and identifies plays by the position they produce.

* A roll of two different dice tries both orders, the first die given first.
  In the second order a pair of moves by two different checkers (neither
  entering nor bearing off) is not looked at again: the same two moves in the
  first order reach the same position (the landing points, hence blocks and
  hits, do not depend on the order), so only a checker playing both dice, an
  entry or a bear-off can reach a new position there.
* For doubles it only generates moves in non-increasing order of source point,
  which reaches every distinct result exactly once (see :func:`_doubles`), so
  the results need no comparing; with nobody to enter and no bear-off possible
  the four moves are four nested loops.
* For two different dice a position reached is keyed by one integer, updated
  move by move: four bits per slot of the mover's side (the change of its
  count, offset by 8) and one bit per point hit.
* Plays are built through the slot descriptors of the frozen dataclasses
  (no ``__init__`` or ``__setattr__`` per object); dice are 1 to 6.
* Plays are listed in the order the search first reaches their position (for
  two different dice: the first die first), each with the moves of that first
  path.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import compress
from typing import Any

from engine.move import Move, Play
from engine.player import Player
from engine.position import BAR, OFF, Position, Side

MIRROR: tuple[int, ...] = tuple(25 - i if 1 <= i <= 24 else 0 for i in range(25))
"""Standard geometry: my point ``i`` is the opponent's point ``25 - i``."""

# -- precomputed tables ----------------------------------------------------------

_DESC = tuple(range(24, 0, -1))
"""The points 24..1: ``compress(_DESC, side[24:0:-1])`` lists the occupied ones."""

_BASE = sum(8 << (4 * i) for i in range(BAR + 1))
"""Key of the unchanged side: every 4-bit count change at its offset 8."""
_HIT_SHIFT = 4 * (BAR + 1)
_HIT = [1 << (_HIT_SHIFT + t) for t in range(BAR)]
"""Key bit of a hit on the mover's point ``t``."""


def _tables() -> tuple[list[list[int]], list[list[int]], list[list[tuple[Move, Move]]]]:
    """Per die ``d`` and source ``s`` (1..25): target, key change, ``(Move, hitting Move)``."""
    targets: list[list[int]] = [[]]
    keys: list[list[int]] = [[]]
    moves: list[list[tuple[Move, Move]]] = [[]]
    for d in range(1, 7):
        t_row, k_row = [0], [0]
        m_row = [(Move(1, 0), Move(1, 0, True))]  # index 0 is never a source
        for s in range(1, BAR + 1):
            t = max(s - d, OFF)
            t_row.append(t)
            k_row.append((1 << (4 * t)) - (1 << (4 * s)))
            m_row.append((Move(s, t, False), Move(s, t, True)))
        targets.append(t_row)
        keys.append(k_row)
        moves.append(m_row)
    return targets, keys, moves


_TARGET, _KEY, _MOVE = _tables()
_CAND: list[list[tuple[int, int, tuple[Move, Move]]]] = [
    [(s, _TARGET[d][s], _MOVE[d][s]) for s in range(BAR + 1)] if d else [] for d in range(7)]
"""``_CAND[d][s]``: (source, target, its moves) for the die ``d``."""
_Cand = tuple[int, int, tuple[Move, Move]]
_DICE: list[list[tuple[int, ...]]] = [[(d,) * n for n in range(5)] for d in range(7)]
"""``_DICE[d][n]``: ``n`` times the die ``d`` (shared tuples)."""
_PAIR: list[list[tuple[int, int]]] = [[(a, b) for b in range(7)] for a in range(7)]

# Fast construction of the frozen slotted dataclasses: the slot descriptors set
# a field without going through ``__init__`` and the frozen ``__setattr__``.
_new = object.__new__
_set_sides: Any = Position.__dict__["sides"].__set__
_set_moves: Any = Play.__dict__["moves"].__set__
_set_dice: Any = Play.__dict__["dice"].__set__
_set_position: Any = Play.__dict__["position"].__set__


_Sides = Callable[[int], Side]


def _hit_sides(theirs: Side, opposite: Sequence[int]) -> _Sides:
    """The opponent's side after the hits of a play (bit ``t`` of ``hits``: point ``t``)."""
    cache: dict[int, Side] = {}

    def after_hits(hits: int) -> Side:
        side = cache.get(hits)
        if side is None:
            changed = list(theirs)
            for t in range(1, BAR):
                if hits >> t & 1:
                    changed[opposite[t]] = 0
                    changed[BAR] += 1
            side = cache[hits] = tuple(changed)
        return side

    return after_hits


def _make_play(moves: tuple[Move, ...], dice: tuple[int, ...], white: Side, black: Side) -> Play:
    pos = _new(Position)
    _set_sides(pos, (white, black))
    play = _new(Play)
    _set_moves(play, moves)
    _set_dice(play, dice)
    _set_position(play, pos)
    return play


def _two_dice(mine: Side, o: list[int], first: int, second: int, theirs: Side,
              hit_side: _Sides, white: bool) -> tuple[int, list[Play]]:
    """Both orders of two different dice: (most dice used, the plays using that many)."""
    b = list(mine)
    outside = sum(mine[7:])
    occ = list(compress(_DESC, mine[24:0:-1]))
    found: dict[int, Play] = {}
    hit_key = _HIT
    new = _new
    set_sides, set_moves, set_dice, set_position = _set_sides, _set_moves, _set_dice, _set_position
    src1: Sequence[int] = (BAR,) if mine[BAR] else occ
    for second_pass in (False, True):
        d1, d2 = (second, first) if second_pass else (first, second)
        key1s, moves1 = _KEY[d1], _MOVE[d1]
        key2s, moves2 = _KEY[d2], _MOVE[d2]
        dice2 = _PAIR[d1][d2]
        # Sources for the second die whose target is not blocked (hits never
        # make blocks), when first needed; ``merged[t]``: with the newly
        # occupied point t too.
        open2: list[int] | None = None
        bar2: Sequence[int] = (BAR,) if o[BAR - d2] < 2 else ()
        merged: dict[int, list[int]] = {}
        for s1 in src1:
            t1 = s1 - d1
            h1 = 0
            if t1 > 0:
                h1 = o[t1]
                if h1 >= 2:
                    continue
                if second_pass and s1 != BAR and outside > (s1 > 6 >= t1):
                    # Moves of two checkers were all met in the first order, and
                    # no bear-off can follow: only this checker going on can
                    # reach a new position, through a point that was empty.
                    if mine[t1] or t1 <= d2:
                        continue
                    t2 = t1 - d2
                    h2 = o[t2]
                    if h2 >= 2:
                        continue
                    key = _BASE + key1s[s1] + key2s[t1]
                    if h1:
                        key += hit_key[t1]
                    if h2:
                        key += hit_key[t2]
                    if key in found:
                        continue
                    b[s1] -= 1
                    b[t2] += 1
                    after = tuple(b)
                    b[s1] += 1
                    b[t2] -= 1
                    other = hit_side(key >> _HIT_SHIFT) if h1 or h2 else theirs
                    pos = new(Position)
                    set_sides(pos, (after, other) if white else (other, after))
                    play = new(Play)
                    set_moves(play, (moves1[s1][h1], moves2[t1][h2]))
                    set_dice(play, dice2)
                    set_position(play, pos)
                    found[key] = play
                    continue
            else:
                if outside:
                    continue
                if t1 < 0 and s1 != occ[0]:  # a larger die: from the highest point only
                    continue
                t1 = OFF
            b[s1] -= 1
            b[t1] += 1
            crossed = s1 > 6 >= t1
            if crossed:
                outside -= 1
            k1 = _BASE + key1s[s1]
            other1 = theirs
            if h1:
                o[t1] = 0
                k1 += hit_key[t1]
                other1 = hit_side(1 << t1)
            m1 = moves1[s1][h1]
            if b[BAR]:
                src2: Sequence[int] = bar2
            elif second_pass and s1 != BAR and t1:
                # This move brought the last checker home: bear-offs may follow.
                src2 = sorted({*occ, t1}, reverse=True)
            else:
                if open2 is None:
                    open2 = [s for s in occ if s <= d2 or o[s - d2] < 2]
                if t1 and not mine[t1]:
                    got = merged.get(t1)
                    if got is None:
                        if t1 <= d2 or o[t1 - d2] < 2:
                            got = sorted([*open2, t1], reverse=True)
                        else:
                            got = open2
                        merged[t1] = got
                    src2 = got
                else:
                    src2 = open2
            for s2 in src2:
                n2 = b[s2]
                if not n2:
                    continue
                t2 = s2 - d2
                if t2 > 0:
                    h2 = o[t2]
                    if h2:
                        if h2 >= 2:
                            continue
                        key = k1 + key2s[s2] + hit_key[t2]
                        if key in found:
                            continue
                        other = hit_side(key >> _HIT_SHIFT)
                    else:
                        key = k1 + key2s[s2]
                        if key in found:
                            continue
                        other = other1
                else:
                    if outside:
                        continue
                    if t2 < 0 and any(b[s2 + 1 : 7]):  # a larger die: the highest point only
                        continue
                    t2 = OFF
                    h2 = 0
                    key = k1 + key2s[s2]
                    if key in found:
                        continue
                    other = other1
                b[s2] = n2 - 1
                b[t2] += 1
                after = tuple(b)
                b[s2] = n2
                b[t2] -= 1
                pos = new(Position)
                set_sides(pos, (after, other) if white else (other, after))
                play = new(Play)
                set_moves(play, (m1, moves2[s2][h2]))
                set_dice(play, dice2)
                set_position(play, pos)
                found[key] = play
            # undo
            if h1:
                o[t1] = 1
            if crossed:
                outside += 1
            b[t1] -= 1
            b[s1] += 1
    if found:
        return 2, list(found.values())
    # No order plays both dice: every first move found above is a play.
    for d1 in (first, second):
        key1s, moves1 = _KEY[d1], _MOVE[d1]
        for s1 in src1:
            t1 = s1 - d1
            h1 = 0
            if t1 > 0:
                h1 = o[t1]
                if h1 >= 2:
                    continue
            else:
                if outside:
                    continue
                if t1 < 0 and s1 != occ[0]:
                    continue
                t1 = OFF
            k1 = _BASE + key1s[s1]
            if h1:
                k1 += hit_key[t1]
            if k1 not in found:
                b[s1] -= 1
                b[t1] += 1
                other = hit_side(1 << t1) if h1 else theirs
                found[k1] = _make_play((moves1[s1][h1],), _DICE[d1][1],
                                       *_sides(white, tuple(b), other))
                b[t1] -= 1
                b[s1] += 1
    return (1, list(found.values())) if found else (0, [])


def _doubles(mine: Side, o: list[int], d: int, theirs: Side, hit_side: _Sides,
             white: bool) -> tuple[int, list[Play]]:
    """Four times the die ``d``: (most dice used, the plays using that many).

    Moves go in non-increasing order of source point, so each multiset of
    sources is met once; and different multisets give different positions
    (the count change on point ``i`` is ``m[i + d] - m[i]`` for ``m`` the
    sources, which determines ``m`` from the top down), so no two results
    need comparing.
    """
    b = list(mine)
    outside = sum(mine[7:])
    moves, cands = _MOVE[d], _CAND[d]
    k = 0  # checkers to enter first
    entering = b[BAR]
    if entering:
        if o[BAR - d] >= 2:
            return 0, []
        k = min(entering, 4)
    # Points a checker can move from: occupied (or entered on) now or reachable
    # by d, 2d, 3d, and whose target is not blocked (checked once: hits never
    # make blocks).
    reach = [False] * BAR
    starts = list(compress(_DESC, b[24:0:-1]))
    if k:
        starts.append(BAR - d)
    for p in starts:
        for _ in range(4 - k):
            reach[p] = True
            p -= d
            if p <= 0:
                break
    if outside >= 4 - k:
        # No bear-off can come (the checkers outside, on the bar included,
        # outnumber the moves after the entries).
        cand = [cands[p] for p in _DESC[: 24 - d] if reach[p] and o[p - d] < 2]
        bar = [cands[BAR]]
        c1, c2, c3, c4 = [bar] * k + [cand] * (4 - k)
        return _doubles_free(b, o, d, c1, c2, c3, c4, theirs, hit_side, white)
    done: tuple[Move, ...] = ()
    hits = 0
    if k:  # at most three here: four on the bar are four checkers outside
        t = BAR - d
        hit = o[t] == 1
        done = (moves[BAR][hit],) + (moves[BAR][False],) * (k - 1)
        b[BAR] -= k
        b[t] += k
        if hit:
            o[t] = 0
            hits = 1 << t
    # A bear-off may come: a recursive search that checks for it.
    cand = [cands[p] for p in _DESC if reach[p] and (p <= d or o[p - d] < 2)]
    plays: list[Play] = []  # the plays of all four dice
    new = _new
    set_sides, set_moves, set_dice, set_position = _set_sides, _set_moves, _set_dice, _set_position
    partial: list[tuple[int, tuple[Move, ...], Side, int]] = []  # (dice used, ...) otherwise
    dice = _DICE[d][4]
    ncand = len(cand)

    def search(k: int, start: int, done: tuple[Move, ...], hits: int, outside: int) -> None:
        if k == 3:
            other = hit_side(hits) if hits else theirs
            for s, t, mv in cand[start:]:
                n = b[s]
                if not n:
                    continue
                if s <= d:
                    if outside:
                        continue
                    if s < d and any(b[s + 1 : 7]):  # a larger die: from the highest point only
                        continue
                b[s] = n - 1
                b[t] += 1
                after = tuple(b)
                b[s] = n
                b[t] -= 1
                pos = new(Position)
                play = new(Play)
                if o[t] == 1:  # (o[OFF] is 0)
                    hit_other = hit_side(hits | 1 << t)
                    set_sides(pos, (after, hit_other) if white else (hit_other, after))
                    set_moves(play, (*done, mv[1]))
                else:
                    set_sides(pos, (after, other) if white else (other, after))
                    set_moves(play, (*done, mv[0]))
                set_dice(play, dice)
                set_position(play, pos)
                plays.append(play)
            if not plays:
                partial.append((3, done, tuple(b), hits))
            return
        moved = False
        for i in range(start, ncand):
            s, t, mv = cand[i]
            if not b[s]:
                continue
            hit = False
            if s > d:
                hit = o[t] == 1
            else:
                if outside:
                    continue
                if s < d and any(b[s + 1 : 7]):  # a larger die: from the highest point only
                    continue
            moved = True
            b[s] -= 1
            b[t] += 1
            if hit:
                o[t] = 0
                search(k + 1, i, (*done, mv[1]), hits | 1 << t,
                       outside - 1 if s > 6 >= t else outside)
                o[t] = 1
            else:
                search(k + 1, i, (*done, mv[0]), hits, outside - 1 if s > 6 >= t else outside)
            b[t] -= 1
            b[s] += 1
        if not moved and not plays:
            partial.append((k, done, tuple(b), hits))

    search(k, 0, done, hits, outside)
    if plays:
        return 4, plays
    return _partial(d, partial, theirs, hit_side, white)


def _sides(white: bool, mine: Side, theirs: Side) -> tuple[Side, Side]:
    return (mine, theirs) if white else (theirs, mine)


def _partial(d: int, partial: list[tuple[int, tuple[Move, ...], Side, int]], theirs: Side,
             hit_side: _Sides, white: bool) -> tuple[int, list[Play]]:
    """The plays of doubles that cannot all be played: the longest ones."""
    best = max((r[0] for r in partial), default=0)
    if best <= 0:
        return 0, []
    dice = _DICE[d][best]
    return best, [_make_play(done, dice, *_sides(white, after, hit_side(hits) if hits else theirs))
                  for used, done, after, hits in partial if used == best]


def _doubles_free(b: list[int], o: list[int], d: int, c1: list[_Cand], c2: list[_Cand],
                  c3: list[_Cand], c4: list[_Cand], theirs: Side, hit_side: _Sides,
                  white: bool) -> tuple[int, list[Play]]:
    """:func:`_doubles` when no bear-off can come: four nested loops.

    ``c1`` .. ``c4``: for each of the four moves, (source, target, its moves)
    of the points it may be made from (targets not blocked), highest first:
    the bar alone for a checker that must enter.  A move starts from the
    index of the previous one (non-increasing sources; the bar's index is 0).
    """
    n1, n2, n3 = len(c1), len(c2), len(c3)
    new = _new
    set_sides, set_moves, set_dice, set_position = _set_sides, _set_moves, _set_dice, _set_position
    dice = _DICE[d][4]
    plays: list[Play] = []
    append = plays.append
    partial: list[tuple[int, tuple[Move, ...], Side, int]] = []
    for i1 in range(n1):
        s1, t1, mv1 = c1[i1]
        if not b[s1]:
            continue
        h1 = o[t1]
        b[s1] -= 1
        b[t1] += 1
        hits1 = 0
        if h1:
            o[t1] = 0
            hits1 = 1 << t1
        m1 = mv1[h1]
        moved1 = False
        for i2 in range(i1, n2):
            s2, t2, mv2 = c2[i2]
            if not b[s2]:
                continue
            moved1 = True
            h2 = o[t2]
            b[s2] -= 1
            b[t2] += 1
            hits2 = hits1
            if h2:
                o[t2] = 0
                hits2 |= 1 << t2
            m2 = mv2[h2]
            moved2 = False
            for i3 in range(i2, n3):
                s3, t3, mv3 = c3[i3]
                if not b[s3]:
                    continue
                moved2 = True
                h3 = o[t3]
                b[s3] -= 1
                b[t3] += 1
                hits3 = hits2
                if h3:
                    o[t3] = 0
                    hits3 |= 1 << t3
                m3 = mv3[h3]
                other = hit_side(hits3) if hits3 else theirs
                for s4, t4, mv4 in c4[i3:]:
                    n4 = b[s4]
                    if not n4:
                        continue
                    b[s4] = n4 - 1
                    b[t4] += 1
                    after = tuple(b)
                    b[s4] = n4
                    b[t4] -= 1
                    pos = new(Position)
                    play = new(Play)
                    if o[t4]:
                        hit_other = hit_side(hits3 | 1 << t4)
                        set_sides(pos, (after, hit_other) if white else (hit_other, after))
                        set_moves(play, (m1, m2, m3, mv4[1]))
                    else:
                        set_sides(pos, (after, other) if white else (other, after))
                        set_moves(play, (m1, m2, m3, mv4[0]))
                    set_dice(play, dice)
                    set_position(play, pos)
                    append(play)
                if not plays:
                    partial.append((3, (m1, m2, m3), tuple(b), hits3))
                if h3:
                    o[t3] = 1
                b[t3] -= 1
                b[s3] += 1
            if not moved2 and not plays:
                partial.append((2, (m1, m2), tuple(b), hits2))
            if h2:
                o[t2] = 1
            b[t2] -= 1
            b[s2] += 1
        if not moved1 and not plays:
            partial.append((1, (m1,), tuple(b), hits1))
        if h1:
            o[t1] = 1
        b[t1] -= 1
        b[s1] += 1
    if plays:
        return 4, plays
    return _partial(d, partial, theirs, hit_side, white)


def legal_plays(position: Position, player: Player, first: int, second: int,
                opposite: Sequence[int] = MIRROR) -> list[Play]:
    """Every distinct legal play of ``first``-``second`` for ``player``.

    ``opposite[i]`` is the opponent's index of the mover's point ``i``.
    Returns one :class:`Play` per distinct resulting position; a roll that
    cannot be played at all yields a single empty play.
    """
    sides = position.sides
    mine = sides[player]
    theirs = sides[1 - player]
    if opposite is MIRROR:
        opp_at = [0, *theirs[24:0:-1]]
    else:
        opp_at = [0] * 25
        for i in range(1, 25):
            opp_at[i] = theirs[opposite[i]]
    hit_side = _hit_sides(theirs, opposite)
    white = player == Player.WHITE
    if first == second:
        best, plays = _doubles(mine, opp_at, first, theirs, hit_side, white)
    else:
        best, plays = _two_dice(mine, opp_at, first, second, theirs, hit_side, white)
    if best <= 0:
        return [Play((), (), position)]
    if best == 1:
        high = (max(first, second),)
        if any(play.dice == high for play in plays):
            plays = [play for play in plays if play.dice == high]
    return plays

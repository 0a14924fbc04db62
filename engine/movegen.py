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

* Two different dice when no bear-off can come (one checker to enter, or
  nobody to enter and two checkers outside the home board, or one that no
  single move brings home) take a path that compares no positions
  (:func:`_two_free`).  Two moves net the same change only when they cancel
  out -- a checker landing where the other left, or going on: the same two
  moves in either order land on the same points, so they block and hit the
  same (hits never make blocks).  So the first order (the first die first)
  meets each position once except a checker from s + second landing on s,
  which nets the same as that checker playing both dice through
  s + second - first (met before, from the higher point) when nothing stands
  there; and the second order only finds a new position with one checker
  playing both dice through a point that was empty, when the first order's
  way was blocked or either way hits.  A checker entering enters on a
  different point in each order, so the second order is new but for the
  entered checker going on.
* Otherwise a roll of two different dice tries both orders, the first die
  given first, and keys each position reached by one integer, updated move by
  move: four bits per slot of the mover's side (the change of its count,
  offset by 8) and one bit per point hit.  In the second order a pair of
  moves by two different checkers (neither entering nor bearing off) is not
  looked at again.
* For doubles it only generates moves in non-increasing order of source point,
  which reaches every distinct result exactly once (see :func:`_doubles`), so
  the results need no comparing; with no bear-off possible the four moves are
  four nested loops that look only for plays of all four dice (a recursive
  search, which checks for bear-offs, finds the longest plays otherwise).
  The points a checker may move from are a bit mask: occupied, or reachable
  by one to three steps of the die.
* The second move's candidates are precomputed rows per die and source (target,
  key change with and without a hit, both moves); the opponent's side after
  the hits of a play is looked up by its hit bits in a dictionary filled on
  demand.
* Plays are built through the slot descriptors of the frozen dataclasses
  (no ``__init__`` or ``__setattr__`` per object); dice are 1 to 6.
* Plays are listed in the order the search first reaches their position (for
  two different dice: the first die first), each with the moves of that first
  path.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from itertools import compress
from typing import Any

from engine.move import Move, Play
from engine.player import Player
from engine.position import BAR, OFF, Position, Side

MIRROR: tuple[int, ...] = tuple(25 - i if 1 <= i <= 24 else 0 for i in range(25))
"""Standard geometry: my point ``i`` is the opponent's point ``25 - i``."""

# -- precomputed tables ----------------------------------------------------------

_DESC = tuple(range(24, 0, -1))
"""The points 24..1: ``compress(_DESC, side[24:0:-1])`` lists the occupied ones;
``_DESC[24 - top : 24 - d]``: the points top..d+1."""

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
_Row = tuple[int, int, int, int, Move, Move]
_ROW: list[list[_Row]] = [
    [(s, _TARGET[d][s], _KEY[d][s], _KEY[d][s] + _HIT[_TARGET[d][s]], *_MOVE[d][s])
     for s in range(BAR + 1)] if d else [] for d in range(7)]
"""``_ROW[d][s]``: (source, target, key change, the same with a hit, its two moves) for the
die ``d`` (a hit is never looked up for a bear-off: nobody stands on ``OFF``)."""
_DICE: list[list[tuple[int, ...]]] = [[(d,) * n for n in range(5)] for d in range(7)]
"""``_DICE[d][n]``: ``n`` times the die ``d`` (shared tuples)."""
_BITS = [1 << p for p in range(BAR + 1)]
_PAIR: list[list[tuple[int, int]]] = [[(a, b) for b in range(7)] for a in range(7)]

# Fast construction of the frozen slotted dataclasses: the slot descriptors set
# a field without going through ``__init__`` and the frozen ``__setattr__``.
_new = object.__new__
_set_sides: Any = Position.__dict__["sides"].__set__
_set_moves: Any = Play.__dict__["moves"].__set__
_set_dice: Any = Play.__dict__["dice"].__set__
_set_position: Any = Play.__dict__["position"].__set__


class _AfterHits(dict[int, Side]):
    """The opponent's side after the hits of a play, by hit bits (bit ``t``: the
    mover's point ``t``): ``self[0]`` is the side as it is, the others are
    computed on first use (a subscript, not a call, on the hot path)."""

    __slots__ = ("opposite",)

    opposite: Sequence[int]

    def __missing__(self, hits: int) -> Side:
        changed = list(self[0])
        opposite = self.opposite
        for t in range(1, BAR):
            if hits >> t & 1:
                changed[opposite[t]] = 0
                changed[BAR] += 1
        side = self[hits] = tuple(changed)
        return side


def _make_play(moves: tuple[Move, ...], dice: tuple[int, ...], white: Side, black: Side) -> Play:
    pos = _new(Position)
    _set_sides(pos, (white, black))
    play = _new(Play)
    _set_moves(play, moves)
    _set_dice(play, dice)
    _set_position(play, pos)
    return play


def _open_rows(rows: list[_Row], occ: list[int], o: list[int], d: int) -> list[_Row]:
    """``rows[s]`` for the points ``s`` of ``occ`` above ``d`` whose target is not blocked."""
    return [rows[s] for s in occ if s > d and o[s - d] < 2]


def _home_rows(rows: list[_Row], occ: list[int], o: list[int], d: int) -> list[_Row]:
    """:func:`_open_rows` and ``rows[d]`` if ``d`` is occupied: with every checker home."""
    return [rows[s] for s in occ if (s > d and o[s - d] < 2) or s == d]


def _two_free(mine: Side, o: list[int], occ: list[int], first: int, second: int,
              after_hits: _AfterHits, white: bool) -> list[Play]:
    """:func:`_two_dice` when no bear-off can come -- one checker to enter, or
    nobody to enter and two checkers outside the home board, or one that no
    single move brings home: the plays of both dice, or none.

    No position needs comparing: two moves give the same position only when
    they cancel out (module docstring), and the duplicates that leaves are
    skipped by the rules commented below.
    """
    b = list(mine)
    theirs = after_hits[0]
    plays: list[Play] = []
    append = plays.append
    new = _new
    set_sides, set_moves, set_dice, set_position = _set_sides, _set_moves, _set_dice, _set_position
    entering = mine[BAR]
    src1: Sequence[int] = (BAR,) if entering else occ
    # The die d1 by the checker on s1, then d2 by any: the first order, and the
    # second one too for a checker entering (with no other on the bar, each
    # entry is a different play).
    for d1, d2 in ((first, second), (second, first)) if entering else ((first, second),):
        moves1, rows2 = _MOVE[d1], _ROW[d2]
        dice2 = _PAIR[d1][d2]
        # Second moves from the points above d2 whose target is not blocked
        # (hits never make blocks), highest first; ``below[j]``: minus the
        # source of ``open2[j]`` (ascending), where a newly occupied point goes.
        open2 = _open_rows(rows2, occ, o, d2)
        below = [-entry[0] for entry in open2]
        for s1 in src1:
            t1 = s1 - d1
            if t1 <= 0:  # no bear-off; the points below are lower still
                break
            h1 = o[t1]
            if h1 >= 2:
                continue
            n1 = b[s1]
            u1 = b[t1]
            b[s1] = n1 - 1
            b[t1] = u1 + 1
            hits1 = 0
            other1 = theirs
            if h1:
                o[t1] = 0
                hits1 = 1 << t1
                other1 = after_hits[hits1]
            m1 = moves1[s1][h1]
            row = open2
            if t1 > d2 and not mine[t1] and o[t1 - d2] < 2:
                row = open2.copy()
                row.insert(bisect_left(below, -t1), rows2[t1])
            if entering:
                # Second order: the entered checker going on (from t1) ends
                # where it did entering with ``first``, met in the first order
                # unless that entry point was blocked or either one hits; any
                # other second move leaves it on t1, a new position.
                again = t1 if d1 == second and not h1 and not o[BAR - first] else 0
            else:
                # A checker from s1 + d2 landing on s1 nets the same as that
                # checker playing both dice through s1 + d2 - d1, met already (a
                # higher first move) unless that point is blocked or hit (or s1
                # holds an opposing blot, in a position that lets it).
                again = s1 + d2
                if again >= BAR or o[again - d1] or o[s1]:
                    again = 0
            for s2, t2, _, _, m2, m2_hit in row:
                n2 = b[s2]
                if not n2 or s2 == again:
                    continue
                other = other1
                if o[t2]:
                    other = after_hits[hits1 | 1 << t2]
                    m2 = m2_hit
                u2 = b[t2]
                b[s2] = n2 - 1
                b[t2] = u2 + 1
                after = tuple(b)
                b[s2] = n2
                b[t2] = u2
                pos = new(Position)
                set_sides(pos, (after, other) if white else (other, after))
                play = new(Play)
                set_moves(play, (m1, m2))
                set_dice(play, dice2)
                set_position(play, pos)
                append(play)
            if h1:
                o[t1] = 1
            b[t1] = u1
            b[s1] = n1
    if entering or not plays:
        return plays
    # Second order: two checkers, or one going on to a point it could reach
    # the other way, net what the first order met; only a checker playing
    # ``second`` then ``first`` through a point x - second that was empty and
    # is not blocked, when x - first was blocked or either point hits, is new.
    moves1, moves2 = _MOVE[second], _MOVE[first]
    dice2 = _PAIR[second][first]
    for x in occ:
        y = x - second
        z = y - first
        if z <= 0:
            break
        hy = o[y]
        if mine[y] or hy >= 2:
            continue
        hz = o[z]
        if hz >= 2 or (not hy and not o[x - first]):
            continue
        b[x] -= 1
        b[z] += 1
        after = tuple(b)
        b[x] += 1
        b[z] -= 1
        other = after_hits[(hy and 1 << y) | (hz and 1 << z)]
        pos = new(Position)
        set_sides(pos, (after, other) if white else (other, after))
        play = new(Play)
        set_moves(play, (moves1[x][hy], moves2[y][hz]))
        set_dice(play, dice2)
        set_position(play, pos)
        append(play)
    return plays


def _two_dice(mine: Side, o: list[int], first: int, second: int,
              after_hits: _AfterHits, white: bool) -> tuple[int, list[Play]]:
    """Both orders of two different dice: (most dice used, the plays using that many)."""
    b = list(mine)
    theirs = after_hits[0]
    outside = sum(mine[7:])
    occ = list(compress(_DESC, mine[24:0:-1]))
    found: dict[int, Play] = {}
    new = _new
    set_sides, set_moves, set_dice, set_position = _set_sides, _set_moves, _set_dice, _set_position
    src1: Sequence[int] = (BAR,) if mine[BAR] else occ
    for second_pass in (False, True):
        d1, d2 = (second, first) if second_pass else (first, second)
        key1s, moves1 = _KEY[d1], _MOVE[d1]
        key2s, moves2, rows2 = _KEY[d2], _MOVE[d2], _ROW[d2]
        dice2 = _PAIR[d1][d2]
        # The second move with nobody to enter and no bear-off possible: from
        # the occupied points above ``d2`` whose target is not blocked (hits
        # never make blocks), when first needed; ``merged[t]``: with the newly
        # occupied point t too.
        open2: list[_Row] | None = None
        merged: dict[int, list[_Row]] = {}
        # The same once every checker is home: exact bear-offs too.
        home2: list[_Row] | None = None
        merged_home: dict[int, list[_Row]] = {}
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
                        key += _HIT[t1]
                    if h2:
                        key += _HIT[t2]
                    if key in found:
                        continue
                    b[s1] -= 1
                    b[t2] += 1
                    after = tuple(b)
                    b[s1] += 1
                    b[t2] -= 1
                    other = after_hits[key >> _HIT_SHIFT]
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
                k1 += _HIT[t1]
                other1 = after_hits[1 << t1]
            m1 = moves1[s1][h1]
            if b[BAR]:  # another checker to enter
                row = [rows2[BAR]] if o[BAR - d2] < 2 else []
            elif outside:
                if open2 is None:
                    open2 = _open_rows(rows2, occ, o, d2)
                row = open2
                if t1 > d2 and not mine[t1] and o[t1 - d2] < 2:
                    got = merged.get(t1)
                    if got is None:
                        got = merged[t1] = sorted([*open2, rows2[t1]], reverse=True)
                    row = got
            else:
                # Every checker home: bear-offs may follow, exact ones, or with
                # a larger die from the highest point only -- when every
                # checker is below the die, that one move is all there is.
                high = occ[0] if b[occ[0]] else max(t1, occ[1] if len(occ) > 1 else OFF)
                if high < d2:
                    row = [rows2[high]] if high else []
                else:
                    if home2 is None:
                        home2 = _home_rows(rows2, occ, o, d2)
                    row = home2
                    if t1 >= d2 and not mine[t1] and (t1 == d2 or o[t1 - d2] < 2):
                        got = merged_home.get(t1)
                        if got is None:
                            got = merged_home[t1] = sorted([*home2, rows2[t1]], reverse=True)
                        row = got
            for s2, t2, k2, k2_hit, m2, m2_hit in row:
                n2 = b[s2]
                if not n2:  # the first move took the last checker from s2
                    continue
                if o[t2]:
                    key = k1 + k2_hit
                    if key in found:
                        continue
                    other = after_hits[key >> _HIT_SHIFT]
                    m2 = m2_hit
                else:
                    key = k1 + k2
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
                set_moves(play, (m1, m2))
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
                k1 += _HIT[t1]
            if k1 not in found:
                b[s1] -= 1
                b[t1] += 1
                found[k1] = _make_play((moves1[s1][h1],), _DICE[d1][1],
                                       *_sides(white, tuple(b), after_hits[k1 >> _HIT_SHIFT]))
                b[t1] -= 1
                b[s1] += 1
    return (1, list(found.values())) if found else (0, [])


def _doubles(mine: Side, o: list[int], d: int, after_hits: _AfterHits,
             white: bool) -> tuple[int, list[Play]]:
    """Four times the die ``d``: (most dice used, the plays using that many).

    Moves go in non-increasing order of source point, so each multiset of
    sources is met once; and different multisets give different positions
    (the count change on point ``i`` is ``m[i + d] - m[i]`` for ``m`` the
    sources, which determines ``m`` from the top down), so no two results
    need comparing.
    """
    k = 0  # checkers to enter first
    entering = mine[BAR]
    if entering:
        if o[BAR - d] >= 2:
            return 0, []
        k = min(entering, 4)
    outside = sum(mine[7:])
    if outside >= 4 - k or (outside and _moves_home(mine, d) >= 4):
        # No bear-off can come: the checkers outside (on the bar included)
        # are at least as many as the moves after the entries, or need all
        # four moves to come home.
        plays = _doubles_free(mine, o, d, k, after_hits, white)
        if plays:
            return 4, plays
        # Fewer than four dice can be played: the search below finds how many.
    return _doubles_search(mine, o, d, k, after_hits, white)


def _moves_home(mine: Side, d: int) -> int:
    """The fewest moves of at most ``d`` pips that bring every checker home:
    ceil((p - 6) / d) for each on point ``p`` above 6 (the bar counts as 25)."""
    return sum(mine[p] * -((6 - p) // d) for p in range(7, BAR + 1) if mine[p])


def _reach(mine: Side, d: int, k: int) -> int:
    """Bit ``p`` set for the points a checker may move from with the die ``d``
    after ``k`` entries: occupied (or entered on) now, or reachable by d, 2d, 3d
    in the moves that remain before the last one."""
    reach = sum(map(_BITS.__getitem__, compress(_DESC, mine[24:0:-1])))
    if k:
        reach |= 1 << (BAR - d)
    for _ in range(3 - k):
        reach |= reach >> d
    return reach


def _free_cands(cands: list[_Cand], reach: int, o: list[int], d: int) -> list[_Cand]:
    """``cands[p]`` for the points of ``reach`` above ``d`` whose target is not blocked."""
    return [cands[p] for p in _DESC[24 - reach.bit_length() + 1 : 24 - d]
            if reach >> p & 1 and o[p - d] < 2]


def _tails(c: list[_Cand]) -> list[list[_Cand]]:
    """``c[i:]`` for every index ``i`` of ``c``, sliced once instead of once per use."""
    return [c[i:] for i in range(len(c))]


def _doubles_free(mine: Side, o: list[int], d: int, k: int, after_hits: _AfterHits,
                  white: bool) -> list[Play]:
    """:func:`_doubles` when no bear-off can come: the plays of all four dice
    (none if fewer can be played) by four nested loops.

    ``c1`` .. ``c4``: for each of the four moves, (source, target, its moves)
    of the points it may be made from (targets not blocked -- checked once:
    hits never make blocks), highest first: the bar alone for a checker that
    must enter.  A move starts from the index of the previous one
    (non-increasing sources; the bar's index is 0); ``tails[i]`` is the 4th
    move's list from index ``i`` on.  Each move saves the two counts it
    changes (``n``: its source, ``u``: its target) to restore them.
    """
    cands = _CAND[d]
    reach = _reach(mine, d, k)
    cand = _free_cands(cands, reach, o, d)
    if not cand and k < 4:
        return []
    c1, c2, c3, c4 = [[cands[BAR]]] * k + [cand] * (4 - k)
    tails = _tails(c4)
    len1, len2, len3 = len(c1), len(c2), len(c3)
    b = list(mine)
    theirs = after_hits[0]
    new = _new
    set_sides, set_moves, set_dice, set_position = _set_sides, _set_moves, _set_dice, _set_position
    dice = _DICE[d][4]
    plays: list[Play] = []
    append = plays.append
    for i1 in range(len1):
        s1, t1, mv1 = c1[i1]
        n1 = b[s1]
        if not n1:
            continue
        h1 = o[t1]
        u1 = b[t1]
        b[s1] = n1 - 1
        b[t1] = u1 + 1
        hits1 = 0
        if h1:
            o[t1] = 0
            hits1 = 1 << t1
        m1 = mv1[h1]
        for i2 in range(i1, len2):
            s2, t2, mv2 = c2[i2]
            n2 = b[s2]
            if not n2:
                continue
            h2 = o[t2]
            u2 = b[t2]
            b[s2] = n2 - 1
            b[t2] = u2 + 1
            hits2 = hits1
            if h2:
                o[t2] = 0
                hits2 |= 1 << t2
            m2 = mv2[h2]
            for i3 in range(i2, len3):
                s3, t3, mv3 = c3[i3]
                n3 = b[s3]
                if not n3:
                    continue
                h3 = o[t3]
                u3 = b[t3]
                b[s3] = n3 - 1
                b[t3] = u3 + 1
                hits3 = hits2
                if h3:
                    o[t3] = 0
                    hits3 |= 1 << t3
                m3 = mv3[h3]
                other = after_hits[hits3] if hits3 else theirs
                for s4, t4, mv4 in tails[i3]:
                    n4 = b[s4]
                    if not n4:
                        continue
                    u4 = b[t4]
                    b[s4] = n4 - 1
                    b[t4] = u4 + 1
                    after = tuple(b)
                    b[s4] = n4
                    b[t4] = u4
                    pos = new(Position)
                    play = new(Play)
                    if o[t4]:
                        hit_other = after_hits[hits3 | 1 << t4]
                        set_sides(pos, (after, hit_other) if white else (hit_other, after))
                        set_moves(play, (m1, m2, m3, mv4[1]))
                    else:
                        set_sides(pos, (after, other) if white else (other, after))
                        set_moves(play, (m1, m2, m3, mv4[0]))
                    set_dice(play, dice)
                    set_position(play, pos)
                    append(play)
                if h3:
                    o[t3] = 1
                b[t3] = u3
                b[s3] = n3
            if h2:
                o[t2] = 1
            b[t2] = u2
            b[s2] = n2
        if h1:
            o[t1] = 1
        b[t1] = u1
        b[s1] = n1
    return plays


def _doubles_search(mine: Side, o: list[int], d: int, k: int, after_hits: _AfterHits,
                    white: bool) -> tuple[int, list[Play]]:
    """:func:`_doubles` when a bear-off may come, or fewer than four dice can be
    played: a recursive search that checks for both."""
    b = list(mine)
    theirs = after_hits[0]
    outside = sum(mine[7:])
    moves, cands = _MOVE[d], _CAND[d]
    reach = _reach(mine, d, k)
    done: tuple[Move, ...] = ()
    hits = 0
    if k:  # the entries (four would be four checkers outside: not here with a play)
        t = BAR - d
        hit = o[t] == 1
        done = (moves[BAR][hit],) + (moves[BAR][False],) * (k - 1)
        b[BAR] -= k
        b[t] += k
        if hit:
            o[t] = 0
            hits = 1 << t
    cand = [cands[p] for p in _DESC[24 - reach.bit_length() + 1 :]
            if reach >> p & 1 and (p <= d or o[p - d] < 2)]
    plays: list[Play] = []  # the plays of all four dice
    new = _new
    set_sides, set_moves, set_dice, set_position = _set_sides, _set_moves, _set_dice, _set_position
    partial: list[tuple[int, tuple[Move, ...], Side, int]] = []  # (dice used, ...) otherwise
    dice = _DICE[d][4]
    ncand = len(cand)

    def search(k: int, start: int, done: tuple[Move, ...], hits: int, outside: int) -> None:
        if k == 3:
            other = after_hits[hits] if hits else theirs
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
                    hit_other = after_hits[hits | 1 << t]
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
    return _partial(d, partial, after_hits, white)


def _sides(white: bool, mine: Side, theirs: Side) -> tuple[Side, Side]:
    return (mine, theirs) if white else (theirs, mine)


def _partial(d: int, partial: list[tuple[int, tuple[Move, ...], Side, int]],
             after_hits: _AfterHits, white: bool) -> tuple[int, list[Play]]:
    """The plays of doubles that cannot all be played: the longest ones."""
    best = max((r[0] for r in partial), default=0)
    if best <= 0:
        return 0, []
    dice = _DICE[d][best]
    return best, [_make_play(done, dice, *_sides(white, after, after_hits[hits]))
                  for used, done, after, hits in partial if used == best]


def legal_plays(position: Position, player: Player, first: int, second: int,
                opposite: Sequence[int] = MIRROR, *, higher_die: bool = True) -> list[Play]:
    """Every distinct legal play of ``first``-``second`` for ``player``.

    ``opposite[i]`` is the opponent's index of the mover's point ``i``.
    ``higher_die`` (001, 002): when only one die can be used, it must be the
    higher if the higher can be used; ``False`` lets the player use either
    (003 ch.3 V, rule option ``higher_die = free``).
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
    after_hits = _AfterHits()
    after_hits[0] = theirs
    after_hits.opposite = opposite
    white = not player  # Player.WHITE is 0
    if first == second:
        best, plays = _doubles(mine, opp_at, first, after_hits, white)
    else:
        # Without a bear-off possible: one checker to enter, or two outside,
        # or one outside that no single move brings home.
        plays = []
        entering = mine[BAR]
        outside = sum(mine[7:])
        if entering == 1 or (not entering and (
                outside >= 2 or (outside and _moves_home(mine, max(first, second)) >= 2))):
            plays = _two_free(mine, opp_at, list(compress(_DESC, mine[24:0:-1])), first, second,
                              after_hits, white)
        if plays:
            return plays
        best, plays = _two_dice(mine, opp_at, first, second, after_hits, white)
    if best <= 0:
        return [Play((), (), position)]
    if best == 1 and higher_die:
        high = (max(first, second),)
        if any(play.dice == high for play in plays):
            plays = [play for play in plays if play.dice == high]
    return plays

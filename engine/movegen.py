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
backtracking, and identifies plays by the position they produce.  For
doubles it only generates moves in non-increasing order of source point,
which reaches every distinct result once and keeps the search small.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.move import Move, Play
from engine.player import Player
from engine.position import BAR, OFF, Position

MIRROR: tuple[int, ...] = tuple(25 - i if 1 <= i <= 24 else 0 for i in range(25))
"""Standard geometry: my point ``i`` is the opponent's point ``25 - i``."""


def _move_table() -> list[list[tuple[Move, Move]]]:
    """Every possible :class:`Move`, built once: ``_MOVES[src][dst][hit]``."""
    table: list[list[tuple[Move, Move]]] = []
    for src in range(BAR + 1):
        row = []
        for dst in range(BAR):
            if 1 <= src and dst < src:
                row.append((Move(src, dst, False), Move(src, dst, True)))
            else:
                row.append((_NO_MOVE, _NO_MOVE))
        table.append(row)
    return table


_NO_MOVE = Move(1, 0)
_MOVES = _move_table()


class _Search:
    """Backtracking search over the dice of one roll."""

    __slots__ = ("b", "best", "found", "moves", "o", "outside")

    def __init__(self, mine: Sequence[int], opp_at: list[int]) -> None:
        self.b = list(mine)
        self.o = opp_at
        self.outside = sum(self.b[7:])
        self.moves: list[Move] = []
        self.best = -1
        self.found: dict[bytes, tuple[tuple[Move, ...], tuple[int, ...]]] = {}

    def run(self, dice: Sequence[int], k: int, max_src: int, doubles: bool) -> None:
        b = self.b
        o = self.o
        moves = self.moves
        d = dice[k]
        nxt = k + 1
        last = nxt == len(dice)
        moved = False
        if b[BAR]:
            sources: Sequence[int] = (BAR,)
        else:
            sources = [s for s in range(max_src if max_src < 24 else 24, 0, -1) if b[s]]
        for s in sources:
            t = s - d
            hit = False
            if t > 0:
                if o[t] >= 2:
                    continue
                hit = o[t] == 1
            else:
                if self.outside:
                    continue
                if t < 0:
                    # A larger die bears off only from the highest occupied point.
                    if any(b[s + 1 : 7]):
                        continue
                t = OFF
            # apply
            b[s] -= 1
            b[t] += 1
            crossed = s >= 7 and t <= 6
            if crossed:
                self.outside -= 1
            if hit:
                o[t] = 0
            moves.append(_MOVES[s][t][hit])
            moved = True
            if last:
                if nxt >= self.best:
                    if nxt > self.best:
                        self.best = nxt
                        self.found = {}
                    key = bytes(b) + bytes(o)
                    if key not in self.found:
                        self.found[key] = (tuple(moves), tuple(dice[:nxt]))
            else:
                self.run(dice, nxt, s if doubles else BAR, doubles)
            # undo
            moves.pop()
            if hit:
                o[t] = 1
            if crossed:
                self.outside += 1
            b[t] -= 1
            b[s] += 1
        if not moved:
            self._record(k, dice)

    def _record(self, used: int, dice: Sequence[int]) -> None:
        if used < self.best:
            return
        if used > self.best:
            self.best = used
            self.found = {}
        key = bytes(self.b) + bytes(self.o)
        if key not in self.found:
            self.found[key] = (tuple(self.moves), tuple(dice[:used]))


def legal_plays(position: Position, player: Player, first: int, second: int,
                opposite: Sequence[int] = MIRROR) -> list[Play]:
    """Every distinct legal play of ``first``-``second`` for ``player``.

    ``opposite[i]`` is the opponent's index of the mover's point ``i``.
    Returns one :class:`Play` per distinct resulting position; a roll that
    cannot be played at all yields a single empty play.
    """
    mine = position.sides[player]
    theirs = position.sides[1 - player]
    opp_at = [0] * 25
    for i in range(1, 25):
        opp_at[i] = theirs[opposite[i]]
    search = _Search(mine, opp_at)
    if first == second:
        search.run((first,) * 4, 0, BAR, True)
    else:
        search.run((first, second), 0, BAR, False)
        search.run((second, first), 0, BAR, False)
        if search.best == 1:
            high = max(first, second)
            if any(dice == (high,) for _, dice in search.found.values()):
                search.found = {
                    key: val for key, val in search.found.items() if val[1] == (high,)
                }
    if search.best <= 0:
        return [Play((), (), position)]
    plays: list[Play] = []
    white = player == Player.WHITE
    unchecked = Position.unchecked
    for key, (moves, dice) in search.found.items():
        new_mine = tuple(key[:27])
        if any(m.hit for m in moves):
            changed = list(theirs)
            for m in moves:
                if m.hit:  # a point is hit at most once in a turn
                    changed[opposite[m.dst]] = 0
                    changed[BAR] += 1
            new_theirs = tuple(changed)
        else:
            new_theirs = theirs
        pos = unchecked(new_mine, new_theirs) if white else unchecked(new_theirs, new_mine)
        plays.append(Play(moves, dice, pos))
    return plays

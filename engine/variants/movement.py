"""Legal plays under the movement rules of the backgammon variants.

The variants of the rule books (Acey-Deucey, Russian and French backgammon)
all start with an empty board: every checker waits at index 26
(:data:`engine.position.WAITING`) and comes in with a die ``d`` on the mover's
point ``25 - d`` -- the far end of his route, exactly where a checker from the
bar enters in standard backgammon.  What differs between the variants is
captured by :class:`MovementRules`:

``opposite``
    the geometry: ``opposite[i]`` is the opponent's number of the mover's point
    ``i``.  :data:`MIRROR` (``25 - i``) when the players move in opposite
    directions (Acey-Deucey, French), :data:`SAME` (``i``) when both enter in
    the same table and move the same way (Russian, 003 ch.10).
``hit_to``
    where a hit checker goes: the bar (``BAR``; it must come in again before
    its owner moves anything else -- 003 ch.10 IV, ch.11, ch.12) or back among
    the checkers not yet entered (``WAITING``; "must be re-entered again same as
    in starting the game", 000 'KICKING-OFF', with no duty to bring it in first).
``enter_before_moving``
    no checker on the board moves while any of the player's checkers has still
    to enter (003 ch.10 IV, ch.11).  Checked move by move, so a player who
    brings in his last checker with one die may move with the other (the
    "only one man left to enter" clause of 003 ch.10 IV, "also for doublets").
``exact_bear_off``
    a checker is borne off only from the point equal to the die (003 ch.12);
    otherwise the regular rule (003 ch.3 VII, 000 'TAKING OFF'): the exact
    point, or a larger die from the highest occupied point.

Rules common to every variant, as in regular backgammon: a checker never lands
on two or more opposing checkers and hits a single one (000 'BLOCKADE' and
'KICKING-OFF', 003 ch.3 V-VI); the dice of one stage are separate moves; as
many of them as possible must be used, and when only one of two different dice
can be used, the larger (003 ch.3 V); checkers on the bar enter before anything
else is done; bearing off only with all fifteen in the home table (a checker
still to enter or on the bar is not home).

A *stage* is the dice played together under those compulsory rules: the two
dice of an ordinary throw, the four plays of one side of a doublet, the 1 and 2
of acey-deucy, the four plays of a named doublet.  How the stages of a throw
follow each other is the variant's business (:mod:`engine.variants`); this
module only answers "which plays does this stage allow".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.errors import IllegalPlayError
from engine.move import Move, Play
from engine.player import Player
from engine.position import BAR, CHECKERS, OFF, WAITING, Position

MIRROR: tuple[int, ...] = tuple(25 - i if 1 <= i <= 24 else 0 for i in range(25))
"""Opposite directions: my point ``i`` is the opponent's point ``25 - i``."""

SAME: tuple[int, ...] = tuple(i if 1 <= i <= 24 else 0 for i in range(25))
"""Same direction, same tables (Russian): my point ``i`` is the opponent's point ``i``."""


@dataclass(frozen=True, slots=True)
class MovementRules:
    """How checkers move in one variant (see the module docstring)."""

    name: str
    """The variant's name as used in messages ("Russian backgammon")."""
    opposite: tuple[int, ...] = MIRROR
    hit_to: int = BAR
    enter_before_moving: bool = False
    exact_bear_off: bool = False

    def __post_init__(self) -> None:
        if len(self.opposite) != 25 or sorted(self.opposite[1:]) != list(range(1, 25)):
            raise ValueError("opposite must map the points 1-24 one-to-one")
        if self.hit_to not in (BAR, WAITING):
            raise ValueError("a hit checker goes to the bar (25) or back to waiting (26)")


def entry_point(die: int) -> int:
    """The mover's point where a checker enters with ``die`` (every variant: ``25 - die``)."""
    return 25 - die


def die_of(move: Move) -> int | None:
    """The die a move uses, or ``None`` for a bear-off that may use a larger die."""
    if move.src >= BAR:
        return 25 - move.dst
    if move.dst == OFF:
        return None
    return move.src - move.dst


class _Search:
    """Backtracking search over the dice of one stage (cf. engine.movegen)."""

    __slots__ = ("b", "best", "enter_first", "exact", "found", "moves", "o", "outside", "used")

    def __init__(self, mine: Sequence[int], opp_at: list[int], rules: MovementRules) -> None:
        self.b = list(mine)
        self.o = opp_at
        self.outside = sum(self.b[7:])
        self.enter_first = rules.enter_before_moving
        self.exact = rules.exact_bear_off
        self.moves: list[Move] = []
        self.used: list[int] = []
        self.best = -1
        self.found: dict[tuple[int, ...], tuple[tuple[Move, ...], tuple[int, ...]]] = {}

    def run(self, dice: Sequence[int], k: int, max_src: int, doubles: bool) -> None:
        b = self.b
        o = self.o
        d = dice[k]
        last = k + 1 == len(dice)
        moved = False
        sources: Sequence[int]
        if b[BAR]:
            sources = (BAR,)
        elif b[WAITING] and self.enter_first:
            sources = (WAITING,)
        elif b[WAITING] and max_src >= WAITING:
            sources = (WAITING, *range(24, 0, -1))
        else:
            sources = range(min(max_src, 24), 0, -1)
        for s in sources:
            if not b[s]:
                continue
            t = 25 - d if s >= BAR else s - d
            hit = False
            if t > 0:
                if o[t] >= 2:
                    continue
                hit = o[t] == 1
            else:
                if self.outside:
                    continue
                if t < 0:
                    # A larger die bears off only from the highest occupied point,
                    # and never under the exact-number rule.
                    if self.exact or any(b[s + 1 : 7]):
                        continue
                t = OFF
            b[s] -= 1
            b[t] += 1
            crossed = s >= 7 and t <= 6
            if crossed:
                self.outside -= 1
            if hit:
                o[t] = 0
            self.moves.append(Move(s, t, hit))
            self.used.append(d)
            moved = True
            if last:
                self._record(k + 1)
            else:
                nxt = (WAITING if s >= BAR else s) if doubles else WAITING
                self.run(dice, k + 1, nxt, doubles)
            self.used.pop()
            self.moves.pop()
            if hit:
                o[t] = 1
            if crossed:
                self.outside += 1
            b[t] -= 1
            b[s] += 1
        if not moved:
            self._record(k)

    def _record(self, used: int) -> None:
        if used < self.best:
            return
        if used > self.best:
            self.best = used
            self.found = {}
        key = (*self.b, *self.o)
        if key not in self.found:
            self.found[key] = (tuple(self.moves), tuple(self.used))


def _opp_at(theirs: Sequence[int], opposite: Sequence[int]) -> list[int]:
    opp_at = [0] * 25
    for i in range(1, 25):
        opp_at[i] = theirs[opposite[i]]
    return opp_at


def _build(position: Position, player: Player, mine: Sequence[int], hits: Sequence[int],
           rules: MovementRules) -> Position:
    theirs = list(position.sides[1 - player])
    for point in hits:
        theirs[rules.opposite[point]] -= 1
        theirs[rules.hit_to] += 1
    if player == Player.WHITE:
        return Position.unchecked(tuple(mine), tuple(theirs))
    return Position.unchecked(tuple(theirs), tuple(mine))


def stage_plays(position: Position, player: Player, dice: Sequence[int],
                rules: MovementRules, *, higher_die: bool = True) -> list[Play]:
    """Every distinct legal play of one stage.

    ``dice`` is two different dice (played in either order) or any number of
    equal dice (the plays of one side of a doublet).  Returns one
    :class:`Play` per distinct resulting position, each using as many dice as
    possible (the same number for all); when nothing can be played, a single
    empty play.  ``higher_die``: with two different dice of which only one can
    be used, the higher must be (001, 002); ``False`` allows either (003 ch.3 V).
    """
    dice = tuple(dice)
    if not dice or any(not 1 <= d <= 6 for d in dice):
        raise ValueError(f"a stage is dice from 1 to 6, not {dice!r}")
    doubles = len(set(dice)) == 1
    if not doubles and len(dice) != 2:
        raise ValueError("a stage is two different dice or some equal dice")
    theirs = position.sides[1 - player]
    opp_at = _opp_at(theirs, rules.opposite)
    search = _Search(position.sides[player], opp_at, rules)
    if doubles:
        search.run(dice, 0, WAITING, True)
    else:
        first, second = dice
        search.run((first, second), 0, WAITING, False)
        search.run((second, first), 0, WAITING, False)
        if search.best == 1 and higher_die:
            high = max(first, second)
            if any(used == (high,) for _, used in search.found.values()):
                search.found = {k: v for k, v in search.found.items() if v[1] == (high,)}
    if search.best <= 0:
        return [Play((), (), position)]
    plays: list[Play] = []
    for key, (moves, used) in search.found.items():
        hits = [i for i in range(1, 25) if key[27 + i] != opp_at[i]]
        plays.append(Play(moves, used, _build(position, player, key[:27], hits, rules)))
    return plays


def max_dice(position: Position, player: Player, dice: Sequence[int],
             rules: MovementRules) -> int:
    """How many of the stage's dice can be used (the length of every legal play)."""
    return len(stage_plays(position, player, dice, rules)[0].dice)


# --- single moves: applying them and explaining refusals --------------------------


def refusal(position: Position, player: Player, move: Move, die: int,
            rules: MovementRules) -> str | None:
    """Why ``move`` may not be made with ``die`` right now, or ``None`` if it may.

    Checks one move on its own (the point it comes from, where it lands, the
    entering and bearing-off rules); whether the whole play uses the dice it
    must is checked against :func:`stage_plays`.
    """
    mine = position.sides[player]
    theirs = position.sides[1 - player]
    src, dst = move.src, move.dst
    if src == WAITING:
        if not mine[WAITING]:
            if mine[BAR]:
                return "Your man on the bar comes in from the bar, not as a new man."
            return "All your men have been entered already."
    elif not mine[src]:
        where = "on the bar" if src == BAR else f"on your {src}-point"
        return f"You have no man {where}."
    if mine[BAR] and src != BAR:
        return (f"In {rules.name} a man on the bar must re-enter before you move "
                "or enter any other man.")
    if src <= 24 and rules.enter_before_moving and mine[WAITING]:
        return (f"In {rules.name} no man may move until all {CHECKERS} are entered "
                f"({mine[WAITING]} still to enter).")
    target = 25 - die if src >= BAR else src - die
    if target > 0:
        if dst != target:
            return f"A {die} takes that man to your {target}-point, not to {_name(dst)}."
        blockers = theirs[rules.opposite[target]]
        if blockers >= 2:
            return (f"Your {target}-point is blocked: your opponent has {blockers} men there.")
        return None
    if dst != OFF:
        return f"A {die} takes that man off the board, not to {_name(dst)}."
    outside = sum(mine[7:])
    if outside:
        return (f"You can bear off only when all {CHECKERS} men are in your home table "
                f"({outside} not yet).")
    if target < 0:
        if rules.exact_bear_off:
            return (f"In {rules.name} a man is borne off only with the exact number: "
                    f"a {die} takes a man off your {die}-point only.")
        higher = [p for p in range(src + 1, 7) if mine[p]]
        if higher:
            return (f"A {die} bears off from a lower point only when no man is on a higher "
                    f"point; you have a man on your {higher[-1]}-point.")
    return None


def _name(index: int) -> str:
    return "off the board" if index == OFF else f"your {index}-point"


def apply_move(position: Position, player: Player, move: Move, die: int,
               rules: MovementRules) -> Position:
    """The position after one move, which :func:`refusal` must have accepted."""
    why = refusal(position, player, move, die, rules)
    if why is not None:
        raise IllegalPlayError(why)
    mine = list(position.sides[player])
    mine[move.src] -= 1
    mine[move.dst] += 1
    hits: list[int] = []
    if move.dst > 0 and position.sides[1 - player][rules.opposite[move.dst]] == 1:
        hits.append(move.dst)
    return _build(position, player, mine, hits, rules)


def hit_move(position: Position, player: Player, src: int, dst: int,
             rules: MovementRules) -> Move:
    """A :class:`Move` with ``hit`` filled in from the position."""
    hit = dst > 0 and position.sides[1 - player][rules.opposite[dst]] == 1
    return Move(src, dst, hit)


def entry_plays(position: Position, player: Player, dice: Sequence[int],
                rules: MovementRules, *, higher_die: bool = True) -> list[Play]:
    """The plays of a stage in which no man on the board may move: only entries.

    Each die enters a man -- from the bar first, then one not yet entered --
    on the point ``25 - die``; as many dice as possible are used and, when
    only one of two different dice can be, the higher (``higher_die``).  Used
    where a man may not move until all are entered and that clause has no
    exception in the stage (003 ch.11; 003 ch.10 IV with more than one man left).
    """
    dice = tuple(dice)
    orders = [dice] if len(set(dice)) == 1 else [dice, dice[::-1]]
    found: dict[Position, Play] = {}
    best = 0
    for order in orders:
        current = position
        moves: list[Move] = []
        used: list[int] = []
        for die in order:
            mine = current.sides[player]
            src = BAR if mine[BAR] else WAITING if mine[WAITING] else None
            if src is None or refusal(current, player, Move(src, 25 - die), die, rules):
                break
            move = hit_move(current, player, src, 25 - die, rules)
            current = apply_move(current, player, move, die, rules)
            moves.append(move)
            used.append(die)
            if len(used) > best:
                best, found = len(used), {}
            if len(used) == best and current not in found:
                found[current] = Play(tuple(moves), tuple(used), current)
    if best == 0:
        return [Play((), (), position)]
    plays = list(found.values())
    if best == 1 and higher_die and len(set(dice)) == 2:
        high = [p for p in plays if p.dice == (max(dice),)]
        plays = high or plays
    return plays

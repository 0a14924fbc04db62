"""Gammon and backgammon chances in races, the way GNU Backgammon computes them.

Once no contact remains, each side races alone, so the chances of a gammon and of a
backgammon follow from one-sided distributions (:mod:`bot.ai.bearoff`): the side on
roll, ``A``, bears off its last checker with its ``n``-th roll while the other, ``B``,
has had ``n - 1`` rolls, and ``B``'s ``n``-th roll comes after ``A``'s ``n``-th:

* ``A`` wins: ``sum_n P(A all off at n) * P(B all off after n - 1)``;
* ``A`` wins a gammon (``B`` has borne off none): ``... * P(B's first checker off after
  n - 1)``, and a backgammon (``B`` has a checker in ``A``'s home board): ``... *
  P(B's last checker out of A's home board after n - 1)``;
* the same for ``B`` with ``A``'s ``n`` rolls.

bgsage's network misjudges these chances in some positions (issue 47: a backgammon
chance of 0.054 where the exact one is 0.861), so every evaluation of a position
without contact (:mod:`bot.ai.sage`: checker play, position values, cube action; in
play, hints and analysis alike) takes its gammon and backgammon chances from here,
and its winning chance too when both sides' bear-offs are small enough to solve; the
cubeful equities are corrected by the difference the new chances make to the same
cube model bgsage uses (Janowski, :func:`bgbot_cpp.cl2cf`).  A chance too costly to
solve within the evaluation's :class:`~bot.ai.bearoff.Budget` keeps the network's
value; the network alone evaluates positions with contact.

Boards are bgsage's (26 entries, the mover's side, see :mod:`bot.ai.convert`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from bot.ai import bearoff
from bot.ai.bearoff import ALL, ESCAPE, FIRST, Budget, Dist, Side, TooLarge

CHECKERS = 15
BUDGET = 1000
"""New one-sided positions one evaluation (one checker play, one cube action) may
solve; past it the network's chances stand (the positions solved stay cached)."""


@dataclass(frozen=True, slots=True)
class RaceChances:
    """Chances of the side on roll as computed here; ``None``: not computed (the
    network's value stands)."""

    win: float | None
    gammon_win: float | None
    backgammon_win: float | None
    gammon_loss: float | None
    backgammon_loss: float | None

    def applied(self, probs: Sequence[float]) -> list[float]:
        """``probs`` (bgsage's five outputs, same side) with these chances in place and
        kept consistent (a backgammon is a gammon is a win)."""
        out = [float(p) for p in probs]
        for i, v in enumerate((self.win, self.gammon_win, self.backgammon_win,
                               self.gammon_loss, self.backgammon_loss)):
            if v is not None:
                out[i] = v
        w = min(1.0, max(0.0, out[0]))
        gw = min(w, max(0.0, out[1]))
        bw = min(gw, max(0.0, out[2]))
        gl = min(1.0 - w, max(0.0, out[3]))
        bl = min(gl, max(0.0, out[4]))
        return [w, gw, bw, gl, bl]

    def known(self) -> tuple[bool, ...]:
        """Which of the five chances were computed."""
        return tuple(v is not None for v in (self.win, self.gammon_win, self.backgammon_win,
                                             self.gammon_loss, self.backgammon_loss))

    def only(self, keep: Sequence[bool]) -> RaceChances:
        """These chances, those not in ``keep`` left to the network."""
        values = [v if k else None for v, k in zip(
            (self.win, self.gammon_win, self.backgammon_win, self.gammon_loss,
             self.backgammon_loss), keep, strict=True)]
        return RaceChances(*values)

    def inverted(self) -> RaceChances:
        """The same chances from the other side."""
        return RaceChances(None if self.win is None else 1.0 - self.win, self.gammon_loss,
                           self.backgammon_loss, self.gammon_win, self.backgammon_win)


def sides(board: Sequence[int]) -> tuple[Side, Side]:
    """(the mover's side, the opponent's side), each in its own numbering."""
    mine = [0] * 24
    theirs = [0] * 24
    for i in range(1, 25):
        v = int(board[i])
        if v > 0:
            mine[i - 1] = v
        elif v < 0:
            theirs[24 - i] = -v
    return tuple(mine), tuple(theirs)


def no_contact(board: Sequence[int]) -> bool:
    """True when the two sides have passed each other (nobody on the bar)."""
    if board[0] or board[25]:
        return False
    mine = [i for i in range(1, 25) if board[i] > 0]
    theirs = [i for i in range(1, 25) if board[i] < 0]
    return not mine or not theirs or max(mine) < min(theirs)


class _Side:
    """One side's distributions, solved on demand within the shared budget."""

    def __init__(self, side: Side, budget: Budget) -> None:
        self.side = side
        self.budget = budget
        self.none_off = sum(side) == CHECKERS
        self._dists: dict[str, Dist | None] = {}

    def dist(self, goal: str) -> Dist | None:
        if goal not in self._dists:
            try:
                self._dists[goal] = bearoff.distribution(goal, self.side, self.budget)
            except TooLarge:
                self._dists[goal] = None
        return self._dists[goal]

    def later_than(self, goal: str, rolls: Sequence[int]) -> dict[int, float] | None:
        """P(goal not reached within ``k`` rolls) for each ``k`` of ``rolls`` (None: too
        costly); no search when the goal cannot be reached that soon."""
        if not rolls or bearoff.lower_bound(goal, self.side) > max(rolls):
            return {k: 1.0 for k in rolls}
        d = self.dist(goal)
        if d is None:
            return None
        return {k: 1.0 - bearoff.within(d, k) for k in rolls}

    def in_zone(self) -> bool:
        """A checker in the opponent's home board (a backgammon is possible)."""
        return any(self.side[bearoff.ZONE:])


def _against(winner: Dist, loser: _Side, goal: str, shift: int) -> float | None:
    """``sum_n winner[n] * P(loser's goal not reached within n + shift rolls)``."""
    needed = [n + shift for n, p in enumerate(winner) if p > 0.0]
    later = loser.later_than(goal, needed)
    if later is None:
        return None
    return sum(p * later[n + shift] for n, p in enumerate(winner) if p > 0.0)


def chances(side_on_roll: Side, other: Side, *, budget: Budget | None = None,
            none_off: tuple[bool, bool] | None = None) -> RaceChances:
    """The chances of the side on roll in a race between these two sides (each 24
    counts in its own numbering): every chance solvable within ``budget``.

    ``none_off`` says which side has borne off no checker yet (may still lose a gammon);
    by default, a side with all 15 checkers on the board.  The side nearer the end of
    its bear-off, ``s``, is solved first; the other, ``t``, only as far as needed."""
    bud = budget or Budget(BUDGET)
    a, b = _Side(side_on_roll, bud), _Side(other, bud)
    if none_off is not None:
        a.none_off, b.none_off = none_off
    if not a.none_off and not b.none_off:
        return RaceChances(None, 0.0, 0.0, 0.0, 0.0)
    s, t = (a, b) if bearoff.lower_bound(ALL, a.side) <= bearoff.lower_bound(ALL, b.side) \
        else (b, a)
    s_all = s.dist(ALL)
    if s_all is None:
        return RaceChances(None, None, None, None, None)
    # s's n-th roll comes after t's (n - 1)-th when s is on roll, after t's n-th if not.
    shift_s, shift_t = (-1, 0) if s is a else (0, -1)
    g_s: float | None = 0.0
    bg_s: float | None = 0.0
    if t.none_off:
        bg_s = _against(s_all, t, ESCAPE, shift_s) if t.in_zone() else 0.0
        g_s = _against(s_all, t, FIRST, shift_s)
    longest = max(n for n, p in enumerate(s_all) if p > 0.0)
    g_t: float | None = 0.0
    bg_t: float | None = 0.0
    if bearoff.lower_bound(ALL, t.side) + shift_t >= longest:
        win_s: float | None = 1.0  # t cannot be off before s is
    else:
        win_s = _against(s_all, t, ALL, shift_s)
        t_all = t.dist(ALL) if s.none_off else None
        if s.none_off:
            g_t = bg_t = None
            if t_all is not None:
                bg_t = _against(t_all, s, ESCAPE, shift_t) if s.in_zone() else 0.0
                g_t = _against(t_all, s, FIRST, shift_t)
    if s is a:
        return RaceChances(win_s, g_s, bg_s, g_t, bg_t)
    return RaceChances(None if win_s is None else 1.0 - win_s, g_t, bg_t, g_s, bg_s)


def pre_roll(board: Sequence[int], budget: Budget | None = None) -> RaceChances | None:
    """The race chances of the side on roll of a pre-roll ``board`` (None: contact)."""
    if not no_contact(board):
        return None
    mine, theirs = sides(board)
    return chances(mine, theirs, budget=budget)


def for_plays(boards: Sequence[Sequence[int]], budget: Budget | None = None
              ) -> list[RaceChances]:
    """The race chances of every post-move board of one roll (no contact), each chance
    only where it was computed for every board: the plays are ranked on the same
    footing, never an exact chance against the network's."""
    bud = budget or Budget(BUDGET)
    found = [post_move(b, bud) or RaceChances(None, None, None, None, None) for b in boards]
    keep = [all(k) for k in zip(*(f.known() for f in found), strict=True)] if found else []
    return [f.only(keep) for f in found]


def post_move(board: Sequence[int], budget: Budget | None = None) -> RaceChances | None:
    """The race chances of the side that just moved, ``board`` seen by it (the opponent
    is on roll; None: contact)."""
    if not no_contact(board):
        return None
    mine, theirs = sides(board)
    return chances(theirs, mine, budget=budget).inverted()


# -- bgsage's figures corrected ---------------------------------------------------------


def _owner(name: str) -> Any:
    import bgbot_cpp  # type: ignore[import-not-found]

    return {"centered": bgbot_cpp.CubeOwner.CENTERED, "player": bgbot_cpp.CubeOwner.PLAYER,
            "opponent": bgbot_cpp.CubeOwner.OPPONENT}[name]


def cubeless(probs: Sequence[float]) -> float:
    """Cubeless equity of five chances (a gammon counts 2, a backgammon 3)."""
    w, gw, bw, gl, bl = probs
    return 2.0 * w - 1.0 + gw - gl + bw - bl


def post_move_equity(board: Sequence[int], probs: Sequence[float], cs: CubeLike) -> float:
    """The cubeful equity bgsage's cube model gives ``probs`` of a post-move ``board``
    (Janowski, as ``post_move_analytics``); cubeless without a cube."""
    if not cs.cubeful:
        return cubeless(probs)
    import bgbot_cpp

    x = bgbot_cpp.cube_efficiency(list(probs), True, *bgbot_cpp.pip_counts(list(board)))
    owner = _owner(cs.owner)
    if cs.away1 > 0 or cs.away2 > 0:
        return float(bgbot_cpp.cl2cf(list(probs), cs.cube_value, owner, x, cs.away1,
                                     cs.away2, cs.crawford, jacoby=False))
    return float(bgbot_cpp.cl2cf_money(list(probs), owner, x,
                                       jacoby_active=cs.jacoby and cs.owner == "centered"))


def pre_roll_cube(board: Sequence[int], probs: Sequence[float], cs: CubeLike
                  ) -> tuple[float, float, float]:
    """(no double, double/take, double/pass) of bgsage's cube model for ``probs`` of a
    pre-roll ``board`` (Janowski, the doubler's side)."""
    import bgbot_cpp

    x = bgbot_cpp.cube_efficiency(list(probs), True, *bgbot_cpp.pip_counts(list(board)))
    d = bgbot_cpp.cube_decision_1ply(list(probs), cs.cube_value, _owner(cs.owner), x,
                                     cs.away1, cs.away2, cs.crawford, cs.jacoby)
    return float(d.equity_nd), float(d.equity_dt), float(d.equity_dp)


class CubeLike(Protocol):
    """The cube state (:class:`bot.ai.sage.CubeState`)."""

    @property
    def cube_value(self) -> int: ...
    @property
    def owner(self) -> str: ...
    @property
    def away1(self) -> int: ...
    @property
    def away2(self) -> int: ...
    @property
    def crawford(self) -> bool: ...
    @property
    def jacoby(self) -> bool: ...
    @property
    def cubeful(self) -> bool: ...


def corrected_post_move(board: Sequence[int], probs: Sequence[float], equity: float,
                        cs: CubeLike, budget: Budget | None = None, *,
                        found: RaceChances | None = None
                        ) -> tuple[list[float], float, float] | None:
    """(chances, cubeful equity, cubeless equity) of a post-move ``board`` with the race
    chances (``found``, or computed now) in place of bgsage's ``probs``; the equity moves
    by what the new chances change in the cube model.  None: contact, or nothing to
    correct."""
    if found is None:
        found = post_move(board, budget)
    if found is None:
        return None
    new = found.applied(probs)
    old = [float(p) for p in probs]
    if max(abs(a - b) for a, b in zip(new, old, strict=True)) < 1e-9:
        return None
    shift = post_move_equity(board, new, cs) - post_move_equity(board, old, cs)
    return new, equity + shift, cubeless(new)

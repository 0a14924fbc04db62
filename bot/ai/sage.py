"""Typed access to bgsage: cached analyzers, cube state, checker play and cube action.

bgsage ships without type information; everything it returns is copied here
into small immutable values so the rest of :mod:`bot.ai` is strictly typed.

In a race (no contact) the gammon and backgammon chances are computed exactly from
one-sided bear-off distributions (:mod:`bot.ai.race`), not taken from the network: every
checker play, position value and cube action below corrects bgsage's figures the same
way, so the AI, hints and analysis all see them.

Analyzers are created lazily, once per (depth, cubeful) and per process,
behind a lock; bgsage documents them as safe to call from several threads.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import bgsage  # type: ignore[import-untyped]

from bot.ai import race
from bot.ai.bearoff import Budget
from bot.ai.context import MatchContext
from bot.ai.levels import EvalDepth
from engine.game import Game
from engine.player import Player
from engine.variant import StandardBackgammon

_lock = threading.Lock()
_analyzers: dict[tuple[EvalDepth, bool], Any] = {}


def analyzer(depth: EvalDepth, cubeful: bool = True) -> Any:
    """The shared bgsage analyzer for ``depth`` (created on first use)."""
    key = (depth, cubeful)
    found = _analyzers.get(key)
    if found is not None:
        return found
    with _lock:
        found = _analyzers.get(key)
        if found is None:
            found = bgsage.BgBotAnalyzer(eval_level=depth.value, cubeful=cubeful)
            _analyzers[key] = found
        return found


def warm_up(depths: Sequence[EvalDepth] = tuple(EvalDepth)) -> None:
    """Load the networks now (e.g. in a worker process initializer)."""
    for depth in depths:
        analyzer(depth, True)


def uses_network(game: Game) -> bool:
    """True when bgsage can play this game (standard backgammon, no waiting checkers)."""
    if type(game.variant) is not StandardBackgammon:
        return False
    sides = game.position.sides
    return not (sides[0][26] or sides[1][26])


@dataclass(frozen=True, slots=True)
class Chances:
    """Win and gammon chances from one player's side (bgsage's five outputs)."""

    win: float
    gammon_win: float
    backgammon_win: float
    gammon_loss: float
    backgammon_loss: float

    @classmethod
    def of(cls, probs: Any) -> Chances:
        return cls(float(probs.win), float(probs.gammon_win), float(probs.backgammon_win),
                   float(probs.gammon_loss), float(probs.backgammon_loss))

    def as_list(self) -> list[float]:
        """bgsage's order: win, gammon win, backgammon win, gammon loss, backgammon loss."""
        return [self.win, self.gammon_win, self.backgammon_win, self.gammon_loss,
                self.backgammon_loss]

    def inverted(self) -> Chances:
        """The same chances from the other player's side."""
        return Chances(1.0 - self.win, self.gammon_loss, self.backgammon_loss,
                       self.gammon_win, self.backgammon_win)


@dataclass(frozen=True, slots=True)
class CubeState:
    """The cube and match state as bgsage wants it, from one player's side."""

    cube_value: int
    owner: str
    """``"centered"``, ``"player"`` (the side evaluated) or ``"opponent"``."""
    away1: int
    away2: int
    crawford: bool
    jacoby: bool
    beaver: bool
    cubeful: bool
    """False for a money game without a cube (evaluate cubeless)."""

    def kwargs(self) -> dict[str, Any]:
        return {"away1": self.away1, "away2": self.away2, "is_crawford": self.crawford,
                "jacoby": self.jacoby, "beaver": self.beaver}


def cube_state(game: Game, ctx: MatchContext, side: Player, *,
               value: int | None = None, owner: Player | str | None = "game") -> CubeState:
    """The bgsage cube state of ``game`` from ``side``'s point of view.

    ``value``/``owner`` override the game's cube (e.g. the cube before a pending
    double).  A match game without a cube (rule ``cube`` off) is evaluated as a
    dead cube with the match score (bgsage's Crawford mode); a money game
    without a cube is evaluated cubeless.
    """
    cube = game.cube
    v = cube.value if value is None else value
    own = cube.owner if owner == "game" else owner
    who = "centered" if own is None else ("player" if own is side else "opponent")
    cube_live = game.rules.cube and game.variant.cube_allowed
    if game.money or ctx.is_money:
        cubeful = cube_live
        return CubeState(v, who, 0, 0, False,
                         jacoby=game.rules.jacoby and game.money and not cube.turned,
                         beaver=game.rules.beavers and game.money, cubeful=cubeful)
    a1, a2 = ctx.away(side), ctx.away(side.other)
    return CubeState(v, who, a1, a2, crawford=game.crawford or not cube_live,
                     jacoby=False, beaver=False, cubeful=True)


@dataclass(frozen=True, slots=True)
class PlayEval:
    """One candidate play: the post-move board (mover's side) and its value."""

    board: tuple[int, ...]
    equity: float
    """Cubeful equity (cubeless when the game has no cube), mover's side."""
    cubeless_equity: float
    chances: Chances
    """After the play, from the mover's side."""


@dataclass(frozen=True, slots=True)
class CubeEval:
    """bgsage's cube analysis of a pre-roll position (the doubler's side)."""

    chances: Chances
    cubeless_equity: float
    no_double: float
    double_take: float
    """Double/take equity, or double/beaver when ``beaver`` is true."""
    double_pass: float
    should_double: bool
    should_take: bool
    beaver: bool
    optimal_action: str
    rolls: tuple[tuple[int, int, float], ...] = ()
    """With ``rolls``: (die, die, cubeful equity after the best play of that roll, the
    roller's side), one ply shallower than the analysis, for each of the 21 rolls."""

    @property
    def double_equity(self) -> float:
        """What doubling is worth to the doubler (the taker picks the smaller)."""
        return min(self.double_take, self.double_pass)

    @property
    def best_equity(self) -> float:
        return max(self.no_double, self.double_equity) if self.should_double \
            else self.no_double


def checker_play(board: Sequence[int], dice: tuple[int, int], depth: EvalDepth,
                 cs: CubeState) -> list[PlayEval]:
    """Every legal play of ``dice`` from ``board``, best first."""
    an = analyzer(depth, cs.cubeful)
    res = an.checker_play(list(board), dice[0], dice[1], cs.cube_value, cs.owner, **cs.kwargs())
    plays = [PlayEval(tuple(int(x) for x in m.board), float(m.equity),
                      float(m.cubeless_equity), Chances.of(m.probs)) for m in res.moves]
    if race.no_contact(board):  # exact race chances (issue 47), then best first again
        found = race.for_plays([p.board for p in plays], Budget(race.BUDGET))
        plays = sorted((_in_race(p, cs, f) for p, f in zip(plays, found, strict=True)),
                       key=lambda p: -p.equity)
    return plays


def _in_race(p: PlayEval, cs: CubeState, chances: race.RaceChances) -> PlayEval:
    """``p`` with the race's exact gammon and backgammon chances (:mod:`bot.ai.race`)."""
    found = race.corrected_post_move(p.board, p.chances.as_list(), p.equity, cs,
                                     found=chances)
    if found is None:
        return p
    probs, equity, cubeless = found
    return PlayEval(p.board, equity, cubeless, Chances(*probs))


DEEP_KEEP = 5
"""At most this many plays, best by the shallow ranking, are evaluated deeper."""
DEEP_WITHIN = 0.08
"""... and only those within this much equity of the shallow best (bgsage's own filter)."""


@dataclass(frozen=True, slots=True)
class DeepRanking:
    """The plays ranked by a deeper search over the shallow ranking's best candidates."""

    plays: tuple[PlayEval, ...]
    """Best first: the deeply evaluated candidates, then the rest in shallow order."""
    deep: int
    """How many plays (the first ones) carry the deep equity; 0 when out of time."""
    complete: bool
    """False when the deadline passed: ``plays`` is then the shallow ranking as it was."""


DeepEvaluator = Callable[[Sequence[int]], tuple["Chances", float]]
"""Chances and equity of a post-move board (mover's side) at the deep depth."""


def deep_plays(board: Sequence[int], dice: tuple[int, int], cs: CubeState, *,
               shallow: EvalDepth, deep: EvalDepth, keep: int = DEEP_KEEP,
               within: float = DEEP_WITHIN, force: Sequence[Sequence[int]] = (),
               deadline: float | None = None,
               clock: Callable[[], float] = time.monotonic,
               evaluate: DeepEvaluator | None = None) -> DeepRanking:
    """Rank every play at ``shallow`` depth, then the best few again at ``deep``.

    The shallow ranking is in hand before the deep search starts: if ``clock()``
    reaches ``deadline`` before every candidate has its deep value, the shallow
    ranking is returned (``complete`` false), never a shallower one.  Candidates:
    the ``keep`` best within ``within`` of the best, plus the ``force`` boards
    (e.g. the play actually made, for analysis) -- GNU Backgammon's move filter.
    """
    ranked = checker_play(board, dice, shallow, cs)
    if not ranked:
        return DeepRanking((), 0, True)
    best = ranked[0].equity
    forced = {tuple(b) for b in force}
    chosen = [p for i, p in enumerate(ranked)
              if (i < keep and p.equity >= best - within) or p.board in forced]
    if evaluate is None:
        def evaluate(b: Sequence[int]) -> tuple[Chances, float]:
            return position_chances(b, deep, cs)
    deepened: list[PlayEval] = []
    for p in chosen:
        if deadline is not None and clock() >= deadline:
            return DeepRanking(tuple(ranked), 0, False)
        chances, equity = evaluate(p.board)
        deepened.append(PlayEval(p.board, equity, p.cubeless_equity, chances))
    if deadline is not None and clock() > deadline:
        return DeepRanking(tuple(ranked), 0, False)
    deepened.sort(key=lambda p: -p.equity)
    done = {p.board for p in deepened}
    rest = [p for p in ranked if p.board not in done]
    return DeepRanking((*deepened, *rest), len(deepened), True)


def cube_action(board: Sequence[int], depth: EvalDepth, cs: CubeState, *,
                rolls: bool = False) -> CubeEval:
    """The cube analysis of the pre-roll ``board`` (side on roll = would-be doubler);
    with ``rolls``, each roll's equity too (bgsage's per-roll details, from 2-ply up:
    they come with the analysis at almost no cost)."""
    an = analyzer(depth, True)
    if rolls:
        r = an.cube_action(list(board), cs.cube_value, cs.owner, incl_2ply_details=True,
                           **cs.kwargs())
    else:
        r = an.cube_action(list(board), cs.cube_value, cs.owner, **cs.kwargs())
    per_roll = tuple((int(e["die1"]), int(e["die2"]), float(e["cubeful_equity"]))
                     for e in ((r.details or {}).get("nd") or ())) if rolls else ()
    ev = CubeEval(Chances.of(r.probs), float(r.cubeless_equity), float(r.equity_nd),
                  float(r.equity_dt), float(r.equity_dp), bool(r.should_double),
                  bool(r.should_take), bool(r.is_beaver), str(r.optimal_action), per_roll)
    return _cube_in_race(board, ev, cs)


def _cube_in_race(board: Sequence[int], ev: CubeEval, cs: CubeState) -> CubeEval:
    """``ev`` with the race's exact gammon and backgammon chances (:mod:`bot.ai.race`):
    each equity moves by what they change in the cube model; the verdict follows."""
    if ev.beaver or not cs.cubeful:
        return ev
    found = race.pre_roll(board)
    if found is None:
        return ev
    old = ev.chances.as_list()
    new = found.applied(old)
    if max(abs(a - b) for a, b in zip(new, old, strict=True)) < 1e-9:
        return ev
    nd0, dt0, _ = race.pre_roll_cube(board, old, cs)
    nd1, dt1, _ = race.pre_roll_cube(board, new, cs)
    nd, dt = ev.no_double + nd1 - nd0, ev.double_take + dt1 - dt0
    double = min(dt, ev.double_pass) > nd
    take = dt <= ev.double_pass
    action = ("No Double" if not double else "Double/Take" if take else "Double/Pass")
    return CubeEval(Chances(*new), race.cubeless(new), nd, dt, ev.double_pass, double, take,
                    False, action, ev.rolls)


def position_chances(post_move_board: Sequence[int], depth: EvalDepth,
                     cs: CubeState) -> tuple[Chances, float]:
    """Chances and equity of a post-move board, from the side that just moved."""
    an = analyzer(depth, cs.cubeful)
    r = an.post_move_analytics(list(post_move_board), cs.owner, cs.cube_value,
                               away1=cs.away1, away2=cs.away2, is_crawford=cs.crawford,
                               jacoby=cs.jacoby)
    chances, equity = Chances.of(r.probs), float(r.cubeful_equity)
    found = race.corrected_post_move(post_move_board, chances.as_list(), equity, cs)
    if found is not None:
        return Chances(*found[0]), found[1]
    return chances, equity


def match_winning_chance(away_me: int, away_opp: int) -> float:
    """Match-winning chance from bgsage's match equity table (1.0 when already won)."""
    if away_me <= 0:
        return 1.0
    if away_opp <= 0:
        return 0.0
    import bgbot_cpp  # type: ignore[import-not-found]

    return float(bgbot_cpp.get_met(away_me, away_opp, False))


def roll_equities(board: Sequence[int], depth: EvalDepth, cs: CubeState
                  ) -> dict[tuple[int, int], float]:
    """The cubeful equity after the best play of each of the 21 rolls from the pre-roll
    ``board`` (the roller's side; a roll with no play: the position as it stands), one
    ply shallower than ``depth`` (bgsage's per-roll details of a cube analysis)."""
    return {(a, b): e for a, b, e in cube_action(board, depth, cs, rolls=True).rolls}


def match_equity(away_me: int, away_opp: int, *, post_crawford: bool = False) -> float:
    """Match-winning chance from bgsage's match equity table, both sides still needing
    points (``post_crawford``: the post-Crawford table)."""
    import bgbot_cpp

    return float(bgbot_cpp.get_met(away_me, away_opp, post_crawford))

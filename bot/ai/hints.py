"""Hints: the best plays for the current roll, or the cube advice (pure, synchronous).

* :func:`hint` -- the best plays for the current roll (top ``n`` with equities and
  win/gammon chances), or the cube advice before rolling (or for the player answering a
  double).

The same rankings serve the analysis (:mod:`bot.ai.decisions`): :func:`play_hints` and
:func:`cube_eval`.  Equities are bgsage's, normalised to a 1-point cube (EMG in a match),
from the deciding player's side.  For a variant :func:`hint` ranks plays by the heuristic
(no equities), or by our own network where one ships for it (:func:`variant_hint`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.ai import heuristic, sage
from bot.ai.context import MatchContext
from bot.ai.convert import from_board, to_board
from bot.ai.levels import DEFAULT_LEVEL, EvalDepth, Level
from bot.ai.sage import Chances, CubeEval
from engine.game import Game, Phase
from engine.move import Play
from engine.player import Player

if TYPE_CHECKING:
    from bot.ai.tdnet.net import Net


@dataclass(frozen=True, slots=True)
class PlayHint:
    play: Play
    text: str
    """The play in the variant's notation."""
    equity: float | None
    """Cubeful equity after the play, mover's side (None for the heuristic)."""
    equity_diff: float | None
    """Equity minus the best play's (0 for the best; None for the heuristic)."""
    chances: Chances | None


@dataclass(frozen=True, slots=True)
class CubeHint:
    """Cube advice, from the side of the player who may double (or was doubled)."""

    doubler: Player
    action: str
    """bgsage's verdict: "No Double", "Double/Take", "Double/Pass", "Double/Beaver"."""
    no_double: float
    double_take: float
    double_pass: float
    chances: Chances
    """Pre-roll chances of the doubler."""
    should_double: bool
    should_take: bool


@dataclass(frozen=True, slots=True)
class Hint:
    player: Player
    plays: tuple[PlayHint, ...] = ()
    cube: CubeHint | None = None
    source: str = ""
    note: str = ""


def hint(game: Game, context: MatchContext | None = None, n: int = 5,
         level: Level = DEFAULT_LEVEL) -> Hint:
    """Advice for ``game.awaiting``: plays (phase PLAY) or the cube (ROLL, DOUBLED).

    Who may ask (unrated games; rated ones only if both players enabled hints)
    is the caller's rule.  Raises :class:`ValueError` when nobody must act.
    """
    ctx = context or MatchContext.money()
    player = game.awaiting
    if player is None:
        raise ValueError("nobody has to act now")
    from bot.ai.tdnet import player as tdnet_player  # (numpy: after a worker's set-up)

    network = sage.uses_network(game)
    own = None if network else tdnet_player.network_for(game.variant)
    if own is not None:
        return variant_hint(game, ctx, player, n, own)
    if game.phase is Phase.PLAY:
        if not network:
            return _heuristic_hint(game, player, n)
        return Hint(player, plays=tuple(play_hints(game, ctx, level, keep=n)[:n]),
                    source=source_label(level))
    if game.phase is Phase.ROLL:
        if not game.may_double(player):
            return Hint(player, note="You cannot double now: roll.")
        if not network:
            advice = "double" if heuristic.should_double(game, player) else "no double"
            return Hint(player, note=f"Heuristic advice: {advice}.", source="heuristic")
        ev = cube_eval(game, ctx, level, player, game.cube.value, game.cube.owner)
        return Hint(player, cube=_cube_hint(player, ev), source=source_label(level))
    if game.phase is Phase.DOUBLED:
        offer = game.cube.offer
        assert offer is not None
        if not network or offer.beaver:
            take = heuristic.should_take(game, player) if not network else True
            return Hint(player, note=f"Advice: {'take' if take else 'pass'}.",
                        source="heuristic" if not network else "")
        ev = cube_eval(game, ctx, level, offer.doubler, game.cube.value, game.cube.owner)
        return Hint(player, cube=_cube_hint(offer.doubler, ev), source=source_label(level))
    return Hint(player, note="No hint for this decision.")


def variant_hint(game: Game, ctx: MatchContext, player: Player, n: int, net: Net) -> Hint:
    """Advice in a book variant from our own network (cubeless equities, 0-ply)."""
    from bot.ai.tdnet import player as tdnet_player
    from bot.ai.tdnet.turns import Evaluator

    ev = Evaluator.of(net, game.variant, game.rules)
    source = tdnet_player.judge(game)
    if game.phase is Phase.PLAY:
        plays = game.legal_plays()
        chances = ev.after_play([p.position for p in plays], player)
        equities = ev.equities(chances)
        order = sorted(range(len(plays)), key=lambda i: -equities[i])[:n]
        best = float(equities[order[0]])
        return Hint(player, plays=tuple(
            PlayHint(plays[i], game.variant.format_play(plays[i]), float(equities[i]),
                     float(equities[i]) - best, tdnet_player.chances_of(chances[i]))
            for i in order), source=source, note="Cubeless equities (0-ply).")
    if game.phase is Phase.ROLL:
        if not game.may_double(player):
            return Hint(player, note="You cannot double now: roll.")
        advice = "double" if tdnet_player.should_double(ev, game, player) else "no double"
        return Hint(player, note=f"Advice: {advice}.", source=source)
    if game.phase is Phase.DOUBLED:
        take = tdnet_player.should_take(ev, game, ctx, player)
        return Hint(player, note=f"Advice: {'take' if take else 'pass'}.", source=source)
    return Hint(player, note="No hint for this decision.")


def _heuristic_hint(game: Game, player: Player, n: int) -> Hint:
    ranked = sorted(game.legal_plays(),
                    key=lambda p: -heuristic.score(p.position, player, game.variant))
    plays = tuple(PlayHint(p, game.variant.format_play(p), None, None, None) for p in ranked[:n])
    return Hint(player, plays=plays, source="heuristic",
                note="The network does not know this variant: heuristic ranking (weaker).")


def source_label(level: Level) -> str:
    """The depth on GNU Backgammon's scale, with the engine: ``"GNU 1-ply (bgsage)"``."""
    return f"{level.depth.label} (bgsage)"


def play_hints(game: Game, ctx: MatchContext, level: Level, keep: int = sage.DEEP_KEEP,
               force: Sequence[Sequence[int]] = ()) -> list[PlayHint]:
    """The plays ranked at ``level``'s depth, best first.

    At GNU 2-ply (expert) every play is ranked at 1-ply and the ``keep`` best
    (within 0.08) plus the ``force`` boards (the play made, in an analysis) are
    ranked again at 2-ply, as GNU Backgammon's move filter does; only those are
    returned, so every equity listed is a 2-ply one.
    """
    me = game.turn
    dice = game.dice
    assert me is not None and dice is not None
    legal = {p.position: p for p in game.legal_plays()}
    cs = sage.cube_state(game, ctx, me)
    board = to_board(game.position, me)
    roll = (dice.first, dice.second)
    shallow = level.depth.shallower
    if level.depth is EvalDepth.PLY3 and shallow is not None:
        ranking = sage.deep_plays(board, roll, cs, shallow=shallow, deep=level.depth,
                                  keep=keep, force=force)
        cands = list(ranking.plays[:ranking.deep])
    else:
        cands = sage.checker_play(board, roll, level.depth, cs)
    out = []
    for c in cands:
        play = legal.get(from_board(c.board, me))
        if play is not None:
            out.append(PlayHint(play, game.variant.format_play(play), c.equity, 0.0, c.chances))
    if out:
        best = out[0].equity or 0.0
        out = [PlayHint(h.play, h.text, h.equity, (h.equity or 0.0) - best, h.chances)
               for h in out]
    return out


def cube_eval(game: Game, ctx: MatchContext, level: Level, doubler: Player, value: int,
              owner: Player | None, rolls: bool = False) -> CubeEval:
    """The cube analysis at ``level`` (``rolls``: with each roll's equity too)."""
    cs = sage.cube_state(game, ctx, doubler, value=value, owner=owner)
    board = to_board(game.position, doubler)
    return sage.cube_action(board, level.depth, cs, rolls=rolls)


def _cube_hint(doubler: Player, ev: CubeEval) -> CubeHint:
    return CubeHint(doubler, ev.optimal_action, ev.no_double, ev.double_take, ev.double_pass,
                    ev.chances, ev.should_double, ev.should_take)

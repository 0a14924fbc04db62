"""The AI player: one synchronous decision for the player who must act.

:func:`decide` looks at a :class:`~engine.game.Game` (plus the match score in
a :class:`~bot.ai.context.MatchContext`) and returns a :class:`Decision` for
``game.awaiting``: roll or double, take / drop / beaver, which legal play,
which option of a choice, accept or reject a resignation.  It is meant to run
in a worker (see :mod:`bot.ai.runner`); it never changes the game.

Standard backgammon is played by bgsage at the level's depth with the cube
state, the match away-scores, the Crawford flag and the Jacoby and beaver
options; every other variant by :mod:`bot.ai.heuristic`.

Noise (weaker levels): a Gaussian of the level's σ is added to each
candidate's equity (each play; no-double, double/take and double/pass; take
and pass) before choosing, drawn from the injected :class:`random.Random`.
Only live decisions: no level doubles when the double cannot change anything
(double match point, a cube that already wins the match, a capped cube; see
:mod:`bot.ai.deadcube`).

Expert (GNU 2-ply) ranks every play at GNU 1-ply first, then the best few at
2-ply within the level's ``budget`` seconds; out of time, it plays the 1-ply
(strong) answer it already has (:func:`bot.ai.sage.deep_plays`).

Resignations (bgsage): the AI accepts when what the resignation gives is at
least what it expects from playing on: in money play the points offered
against its cubeless expected points times the cube (gammons counted as the
rules count them); in a match the match-winning chance after accepting
against the expected match-winning chance over the game's outcomes (match
equity table, cube ownership ignored).
"""

from __future__ import annotations

import random
import time

from bot.ai import heuristic, sage
from bot.ai.context import MatchContext
from bot.ai.convert import from_board, to_board
from bot.ai.deadcube import dead_double_reason
from bot.ai.decision import Decision as Decision
from bot.ai.decision import NoDecision as NoDecision
from bot.ai.levels import DEFAULT_LEVEL, EvalDepth, Level
from bot.ai.resign import resignation_decision
from bot.ai.sage import Chances
from engine.dice import Dice
from engine.game import OPENING_CHOICE, Action, Game, Phase
from engine.move import Play
from engine.player import Player


def decide(game: Game, context: MatchContext | None = None, level: Level = DEFAULT_LEVEL,
           rng: random.Random | None = None) -> Decision:
    """The decision of ``game.awaiting`` at ``level``.

    Raises :class:`NoDecision` in the opening and when the game is over (the
    opening throw is the host's job, not a decision).
    """
    ctx = context or MatchContext.money()
    r = rng or random.Random(0)
    player = game.awaiting
    if player is None:
        raise NoDecision(f"nobody has to act in phase {game.phase.value}")
    if sage.uses_network(game):
        return _NetworkPlayer(game, ctx, level, r, player).decide()
    # (imported here: numpy starts threads, which a worker must not have before it has
    # set up its signals: bot.runtime.worker_setup)
    from bot.ai.tdnet import player as tdnet_player

    net = tdnet_player.network_for(game.variant)
    if net is not None:
        return tdnet_player.VariantPlayer(game, ctx, level, r, player, net).decide()
    return heuristic_decide(game, player, r, level, ctx)


def apply_decision(game: Game, decision: Decision, dice: Dice | None = None) -> Game:
    """``game`` after ``decision`` (``dice`` are needed for ``ROLL``)."""
    p, act = decision.player, decision.action
    if act is Action.ROLL:
        if dice is None:
            raise ValueError("a roll needs dice")
        return game.roll(dice, p)
    if act is Action.DOUBLE:
        return game.double(p)
    if act is Action.TAKE:
        return game.take(p)
    if act is Action.DROP:
        return game.drop(p)
    if act is Action.BEAVER:
        return game.beaver(p)
    if act is Action.PLAY:
        assert decision.play is not None
        return game.play(decision.play, p)
    if act is Action.CHOOSE:
        assert decision.option is not None
        return game.choose(decision.option, p)
    if act in (Action.ACCEPT_RESIGNATION, Action.REJECT_RESIGNATION):
        return game.answer_resignation(p, act is Action.ACCEPT_RESIGNATION)
    raise ValueError(f"not an AI action: {act}")


# -- heuristic (variants) ------------------------------------------------------


def heuristic_decide(game: Game, player: Player, rng: random.Random,
                        level: Level, context: MatchContext | None = None) -> Decision:
    """The heuristic player's decision (the variants, and the fallback).  Like the
    network, it never doubles a dead cube (at double match point, when the cube already
    decides the match, at the cube's cap): the match ``context`` says when."""
    src = "heuristic"
    ctx = context or MatchContext.money()
    phase = game.phase
    if phase is Phase.RESIGNATION:
        assert game.resignation is not None
        ok = heuristic.accept_resignation(game, player, game.resignation.kind)
        return Decision(player, Action.ACCEPT_RESIGNATION if ok
                        else Action.REJECT_RESIGNATION, source=src)
    if phase is Phase.DOUBLED:
        take = heuristic.should_take(game, player)
        return Decision(player, Action.TAKE if take else Action.DROP, source=src)
    if phase is Phase.ROLL:
        if game.may_double(player) and dead_double_reason(game, ctx, player) is None and (
                heuristic.should_double(game, player)):
            return Decision(player, Action.DOUBLE, source=src)
        return Decision(player, Action.ROLL, source=src)
    if phase is Phase.PLAY:
        # Noise in pips, scaled from the level's equity noise (weaker levels err more).
        noise = level.noise * 40.0
        i = heuristic.choose_play(game, rng, noise)
        return Decision(player, Action.PLAY, play=game.legal_plays()[i], source=src)
    if phase is Phase.CHOICE:
        return Decision(player, Action.CHOOSE, option=heuristic.choose_option(game), source=src)
    raise NoDecision(f"no decision in phase {phase.value}")


# -- bgsage (standard backgammon) ---------------------------------------------------


class _NetworkPlayer:
    def __init__(self, game: Game, ctx: MatchContext, level: Level, rng: random.Random,
                 player: Player) -> None:
        self.game = game
        self.ctx = ctx
        self.level = level
        self.rng = rng
        self.player = player
        self.depth = level.depth
        self.src = level.depth.label

    def noise(self) -> float:
        return self.rng.gauss(0.0, self.level.noise) if self.level.noise > 0 else 0.0

    def decide(self) -> Decision:
        phase = self.game.phase
        if phase is Phase.PLAY:
            return self.play()
        if phase is Phase.ROLL:
            return self.roll_or_double()
        if phase is Phase.DOUBLED:
            return self.answer_double()
        if phase is Phase.CHOICE:
            return self.choose()
        if phase is Phase.RESIGNATION:
            return self.answer_resignation()
        raise NoDecision(f"no decision in phase {phase.value}")

    # checker play ----------------------------------------------------------

    def play(self) -> Decision:
        game, me = self.game, self.player
        dice = game.dice
        assert dice is not None
        legal = {p.position: p for p in game.legal_plays()}
        board = to_board(game.position, me)
        cs = sage.cube_state(game, self.ctx, me)
        best: tuple[float, Play, float] | None = None
        src = self.src
        shallow = self.depth.shallower
        if self.depth is EvalDepth.PLY3 and shallow is not None:
            # The strong (GNU 1-ply) ranking first, then the best few at 2-ply, in budget.
            ranking = sage.deep_plays(board, (dice.first, dice.second), cs, shallow=shallow,
                                      deep=self.depth,
                                      deadline=time.monotonic() + self.level.budget)
            candidates = list(ranking.plays[:ranking.deep] if ranking.complete
                              else ranking.plays)
            if not ranking.complete:
                src = f"{shallow.label} ({self.depth.label} out of time)"
        else:
            candidates = sage.checker_play(board, (dice.first, dice.second), self.depth, cs)
        for cand in candidates:
            play = legal.get(from_board(cand.board, me))
            if play is None:
                continue
            noisy = cand.equity + self.noise()
            if best is None or noisy > best[0]:
                best = (noisy, play, cand.equity)
        if best is None:  # cannot happen when the conversion is right; stay legal anyway
            i = heuristic.choose_play(game)
            return Decision(me, Action.PLAY, play=game.legal_plays()[i], source="heuristic")
        return Decision(me, Action.PLAY, play=best[1], equity=best[2], source=src)

    # the cube ----------------------------------------------------------------

    def roll_or_double(self) -> Decision:
        game, me = self.game, self.player
        if not game.may_double(me) or dead_double_reason(game, self.ctx, me) is not None:
            return Decision(me, Action.ROLL, source=self.src)
        cube = sage.cube_action(to_board(game.position, me), self.depth,
                                sage.cube_state(game, self.ctx, me))
        if self.level.noise > 0:
            nd = cube.no_double + self.noise()
            dbl = min(cube.double_take + self.noise(), cube.double_pass + self.noise())
            double = dbl > nd
        else:
            double = cube.should_double
        if double:
            return Decision(me, Action.DOUBLE, equity=cube.double_equity, source=self.src)
        return Decision(me, Action.ROLL, equity=cube.no_double, source=self.src)

    def answer_double(self) -> Decision:
        game, me = self.game, self.player
        offer = game.cube.offer
        assert offer is not None
        if offer.beaver:
            return self.answer_beaver()
        doubler = offer.doubler
        cs = sage.cube_state(game, self.ctx, doubler, value=game.cube.value,
                             owner=game.cube.owner)
        cube = sage.cube_action(to_board(game.position, doubler), self.depth, cs)
        take_eq, pass_eq = -cube.double_take, -cube.double_pass
        if self.level.noise > 0:
            take = take_eq + self.noise() >= pass_eq + self.noise()
        else:
            take = cube.should_take or cube.beaver
        if take and cube.beaver and self.level.noise == 0 \
                and (me, Action.BEAVER) in game.available_actions():
            return Decision(me, Action.BEAVER, equity=take_eq, source=self.src)
        if take:
            return Decision(me, Action.TAKE, equity=take_eq, source=self.src)
        return Decision(me, Action.DROP, equity=pass_eq, source=self.src)

    def answer_beaver(self) -> Decision:
        """The original doubler answers a beaver: take at 4x (cube owned by the
        beaverer, doubler on roll) or drop and lose 2x."""
        game, me = self.game, self.player
        offer = game.cube.offer
        assert offer is not None
        cs = sage.cube_state(game, self.ctx, me, value=offer.value, owner=me.other)
        cube = sage.cube_action(to_board(game.position, me), self.depth, cs)
        # Money equities are per unit of the cube: compare in points.
        take_points = cube.no_double * offer.value
        drop_points = -float(game.cube.value)
        take = take_points + self.noise() * offer.value >= drop_points
        return Decision(me, Action.TAKE if take else Action.DROP,
                        equity=(take_points if take else drop_points) / offer.value,
                        source=self.src)

    # choices (the opening method "play your throw or throw again") --------------

    def choose(self) -> Decision:
        game, me = self.game, self.player
        choice = game.pending_choice
        assert choice is not None
        if choice != OPENING_CHOICE or game.dice is None:
            return Decision(me, Action.CHOOSE, option=heuristic.choose_option(game),
                            source="heuristic")
        board = to_board(game.position, me)
        cs = sage.cube_state(game, self.ctx, me)
        fast = EvalDepth.PLY1

        def best_after(d1: int, d2: int) -> float:
            moves = sage.checker_play(board, (d1, d2), fast, cs)
            return moves[0].equity

        now = best_after(game.dice.first, game.dice.second)
        total = 0.0
        for d1 in range(1, 7):
            for d2 in range(d1, 7):
                total += best_after(d1, d2) * (1 if d1 == d2 else 2)
        again = total / 36.0
        play = now + self.noise() >= again + self.noise()
        return Decision(me, Action.CHOOSE, option="play" if play else "throw again",
                        equity=now if play else again, source=fast.label)

    # resignations -------------------------------------------------------------

    def _chances(self) -> Chances:
        """Cubeless chances of ``self.player`` in the position as it stands."""
        game, me = self.game, self.player
        turn = game.turn
        suspended = game.suspended
        if turn is None:
            turn = me
        if suspended is Phase.PLAY and game.dice is not None:
            # The player on roll has dice: value the position after his best play.
            cs = sage.cube_state(game, self.ctx, turn)
            moves = sage.checker_play(to_board(game.position, turn),
                                      (game.dice.first, game.dice.second), self.depth, cs)
            if moves:
                ch = moves[0].chances
                return ch if turn is me else ch.inverted()
        # Otherwise ``turn`` is about to roll: that is a post-move position for the other.
        other = turn.other
        cs = sage.cube_state(game, self.ctx, other)
        ch, _ = sage.position_chances(to_board(game.position, other), self.depth, cs)
        return ch if other is me else ch.inverted()

    def answer_resignation(self) -> Decision:
        return resignation_decision(self.game, self.ctx, self.player, self._chances(), self.src)



"""The bot in the book variants: decisions from our self-trained networks.

Checker play and choices come from :mod:`bot.ai.tdnet.turns` (each stage's
play worth most to the mover, noise of the level's σ added to each candidate's
equity for the weaker levels).  The opening choice "play your throw or throw
again" compares the best play of the throw with the position's value on roll.

The cube, from the network's cubeless money equity ``E`` of the player on roll
(gammons counted where the variant counts them), with thresholds of the kind
books give for money play: double when ``E`` is at least 0.40 with the cube in
the middle (0.45 when the doubler owns it: he gives up his ownership), unless
the position is too good to double (``E`` of 1.0 or more, where gammons count:
playing on is worth more than the point the opponent would pass).  Take when
the taker's ``E`` is at least -0.55 (a little below the dead cube's -0.5: the
taker owns the cube after the take); in a match, take when the match-winning
chance after taking (cube ownership ignored) is at least that of passing.  A
dead cube is never turned (:mod:`bot.ai.deadcube`).  Resignations as every
network player answers them (:mod:`bot.ai.resign`).
"""

from __future__ import annotations

import random

import numpy as np

from bot.ai import sage
from bot.ai.context import MatchContext
from bot.ai.deadcube import dead_double_reason
from bot.ai.decision import Decision, NoDecision
from bot.ai.levels import Level
from bot.ai.resign import resignation_decision
from bot.ai.sage import Chances
from bot.ai.tdnet.family import TITLES, family_of, network_for
from bot.ai.tdnet.net import Net, mirror
from bot.ai.tdnet.turns import (
    Evaluator,
    best_option,
    finish_throw,
    pick,
    play_values,
    value_at_end,
)
from engine.game import OPENING_CHOICE, Action, Game, Phase
from engine.player import Player
from engine.variant import TurnContext, Variant
from engine.words import counted

DOUBLE_CENTRED = 0.40
DOUBLE_OWNED = 0.45
TOO_GOOD = 1.0
TAKE = -0.55

__all__ = ["VariantPlayer", "chances_of", "judge", "network_for", "opponent_text", "should_double",
           "should_take"]


def equity_on_roll(ev: Evaluator, game: Game, player: Player) -> float:
    """``player``'s cubeless equity with him on roll in ``game``'s position."""
    return float(ev.equities(ev.on_roll([game.position], player))[0])


def should_double(ev: Evaluator, game: Game, player: Player, noise: float = 0.0) -> bool:
    """The doubling rule of the module's doc (``noise`` added to the equity)."""
    e = equity_on_roll(ev, game, player) + noise
    need = DOUBLE_CENTRED if game.cube.owner is None else DOUBLE_OWNED
    return e >= need and not (ev.gammons and e >= TOO_GOOD)


def taker_chances(ev: Evaluator, game: Game, taker: Player) -> np.ndarray:
    """The taker's chances with the doubler on roll."""
    return np.asarray(mirror(ev.on_roll([game.position], taker.other))[0], dtype=np.float64)


def should_take(ev: Evaluator, game: Game, ctx: MatchContext, taker: Player,
                noise: float = 0.0) -> bool:
    """The taking rule of the module's doc (``noise`` added to what is compared)."""
    mine = taker_chances(ev, game, taker)
    if game.money or ctx.is_money:
        return float(ev.equities(mine[None, :])[0]) + noise >= TAKE
    offer = game.cube.offer
    value = offer.value if offer is not None else 2 * game.cube.value
    return match_take(ev, game, ctx, taker, chances_of(mine), value) + noise >= 0.0


def match_take(ev: Evaluator, game: Game, ctx: MatchContext, me: Player, ch: Chances,
               value: int) -> float:
    """Match-winning chance after taking at ``value`` minus that of passing."""
    a_me, a_opp = ctx.away(me), ctx.away(me.other)
    g = 2 if ev.gammons else 1

    def mwc(pts: int) -> float:
        if pts >= 0:
            return sage.match_winning_chance(a_me - pts, a_opp)
        return sage.match_winning_chance(a_me, a_opp + pts)

    single_win = ch.win - ch.gammon_win
    single_loss = 1.0 - ch.win - ch.gammon_loss
    take = (single_win * mwc(value) + ch.gammon_win * mwc(g * value)
            + single_loss * mwc(-value) + ch.gammon_loss * mwc(-g * value))
    return take - mwc(-game.cube.value)


def opponent_text(variant: Variant) -> str:
    """What the bot is in ``variant`` (a book variant), as /rules and a challenge say it:
    "Against the bot: ...", "In this variant the AI is ..."."""
    net = network_for(variant)
    if net is None:
        return ("a simple heuristic player (pip count, safety, blocking, entering), clearly "
                "weaker here than in standard backgammon: no network knows this variant yet")
    return (f"our own network for this variant, trained by self-play "
            f"({counted(net.games, 'game')}), at the level chosen; weaker here than in "
            "standard backgammon")


def judge(game: Game) -> str:
    """Who judges this variant's positions, as players are told."""
    return TITLES.get(family_of(game.variant), "our network, self-trained")


def chances_of(row: np.ndarray) -> Chances:
    return Chances(*(float(v) for v in row))


class VariantPlayer:
    """One decision of ``player`` in a book variant, by the network ``net``."""

    def __init__(self, game: Game, ctx: MatchContext, level: Level, rng: random.Random,
                 player: Player, net: Net) -> None:
        self.game = game
        self.ctx = ctx
        self.level = level
        self.rng = rng
        self.player = player
        self.ev = Evaluator.of(net, game.variant, game.rules)
        self.src = judge(game)

    @property
    def noise(self) -> float:
        return self.level.noise

    def decide(self) -> Decision:
        phase = self.game.phase
        if phase is Phase.PLAY:
            return self.play()
        if phase is Phase.CHOICE:
            return self.choose()
        if phase is Phase.ROLL:
            return self.roll_or_double()
        if phase is Phase.DOUBLED:
            return self.answer_double()
        if phase is Phase.RESIGNATION:
            return resignation_decision(self.game, self.ctx, self.player, self.chances(),
                                        self.src)
        raise NoDecision(f"no decision in phase {phase.value}")

    # checker play and choices -----------------------------------------------------

    def play(self) -> Decision:
        plays = self.game.legal_plays()
        values = play_values(self.ev, plays, self.player)
        i = 0 if len(plays) == 1 else pick(values, self.noise, self.rng)
        return Decision(self.player, Action.PLAY, play=plays[i], equity=float(values[i]),
                        source=self.src)

    def choose(self) -> Decision:
        game, me = self.game, self.player
        choice = game.pending_choice
        assert choice is not None
        if choice == OPENING_CHOICE and game.dice is not None:
            turn = TurnContext(me, (game.dice,), (), (), game.position, 0, True, game.rules)
            end, step = finish_throw(self.ev, turn)
            now = value_at_end(self.ev, end, step)
            again = equity_on_roll(self.ev, game, me)
            values = np.array([now, again])
            i = pick(values, self.noise, self.rng)
            return Decision(me, Action.CHOOSE, option=choice.options[i],
                            equity=float(values[i]), source=self.src)
        option = best_option(self.ev, game.turn_context(), choice, self.noise, self.rng)
        return Decision(me, Action.CHOOSE, option=option, source=self.src)

    # the cube ----------------------------------------------------------------------

    def roll_or_double(self) -> Decision:
        game, me = self.game, self.player
        if not game.may_double(me) or dead_double_reason(game, self.ctx, me) is not None:
            return Decision(me, Action.ROLL, source=self.src)
        e = equity_on_roll(self.ev, game, me)
        if should_double(self.ev, game, me, self.gauss()):
            return Decision(me, Action.DOUBLE, equity=e, source=self.src)
        return Decision(me, Action.ROLL, equity=e, source=self.src)

    def answer_double(self) -> Decision:
        game, me = self.game, self.player
        e = float(self.ev.equities(taker_chances(self.ev, game, me)[None, :])[0])
        if should_take(self.ev, game, self.ctx, me, self.gauss()):
            return Decision(me, Action.TAKE, equity=e, source=self.src)
        return Decision(me, Action.DROP, equity=-1.0, source=self.src)

    def gauss(self) -> float:
        return self.rng.gauss(0.0, self.noise) if self.noise else 0.0

    # resignations -----------------------------------------------------------------------

    def chances(self) -> Chances:
        """My cubeless chances in the position as it stands."""
        game, me = self.game, self.player
        turn = game.turn or me
        if game.suspended is Phase.PLAY and game.dice is not None:
            # The player on roll has his dice: the position after his best throw.
            end, _ = finish_throw(self.ev, game.turn_context())
            row = self.ev.after_play([end.position], turn)[0]
        else:
            row = self.ev.on_roll([game.position], turn)[0]
        ch = chances_of(row)
        return ch if turn is me else ch.inverted()

"""Strength measured in dice-mirrored game pairs (benchmarks, the training's curve).

A pair is two games with the same stream of dice, the players' colours
swapped: the luck of the dice cancels out to a large extent, so far fewer
games give a tight confidence interval.  Each game is a money game (cube on or
off) played through :class:`engine.game.Game`, so both players meet exactly the
rules the bot plays by.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass

from bot.ai.context import MatchContext
from bot.ai.decision import Decision
from bot.ai.levels import LEVELS, Level
from bot.ai.player import apply_decision, heuristic_decide
from bot.ai.tdnet.net import Net
from bot.ai.tdnet.player import VariantPlayer
from engine.dice import Dice
from engine.game import Game, Phase
from engine.player import Player
from engine.rules import RuleOptions
from engine.variant import Variant
from engine.words import counted

Decider = Callable[[Game, Player, random.Random], Decision]


def heuristic_decider(level: Level = LEVELS["strong"]) -> Decider:
    def decide(game: Game, player: Player, rng: random.Random) -> Decision:
        return heuristic_decide(game, player, rng, level, MatchContext.money())
    return decide


def net_decider(net: Net, level: Level = LEVELS["strong"]) -> Decider:
    def decide(game: Game, player: Player, rng: random.Random) -> Decision:
        return VariantPlayer(game, MatchContext.money(), level, rng, player, net).decide()
    return decide


def play_game(variant: Variant, white: Decider, black: Decider, seed: int,
              rules: RuleOptions) -> int:
    """One money game; white's points (negative when black won).  The dice come
    from ``seed`` alone, in the order they are thrown, whoever throws them."""
    dice = random.Random(seed)
    noise = random.Random(seed ^ 0x5EED)
    g = Game.new(variant, rules)
    deciders = {Player.WHITE: white, Player.BLACK: black}
    for _ in range(20_000):
        if g.is_finished:
            break
        if g.phase is Phase.OPENING:
            if g.variant.opening_method(g.rules).dice_each == 1:
                g = g.opening_roll(dice.randint(1, 6), dice.randint(1, 6))
            else:
                g = g.opening_roll((dice.randint(1, 6), dice.randint(1, 6)),
                                   (dice.randint(1, 6), dice.randint(1, 6)))
            continue
        p = g.awaiting
        assert p is not None
        d = deciders[p](g, p, noise)
        g = apply_decision(g, d, Dice(dice.randint(1, 6), dice.randint(1, 6)))
    assert g.result is not None, "a game of the duel did not end"
    return g.result.points if g.result.winner is Player.WHITE else -g.result.points


@dataclass(frozen=True, slots=True)
class Score:
    """Points a game for the first player, over ``pairs`` mirrored pairs."""

    pairs: int
    mean: float
    half_width: float
    """Half the 95 % confidence interval (normal approximation over the pairs)."""
    wins: float
    """Share of the games the first player won."""

    def __str__(self) -> str:
        return (f"{self.mean:+.3f} points a game ± {self.half_width:.3f} "
                f"({counted(self.pairs, 'pair')}, {100 * self.wins:.0f}% of the games won)")


def mirrored(variant: Variant, a: Decider, b: Decider, pairs: int, seed: int,
             rules: RuleOptions | None = None) -> Score:
    """``a`` against ``b`` in ``pairs`` dice-mirrored pairs of money games."""
    rules = rules or RuleOptions()
    per_pair: list[float] = []
    won = 0
    for k in range(pairs):
        s = seed * 100_003 + k
        first = play_game(variant, a, b, s, rules)
        second = -play_game(variant, b, a, s, rules)
        won += (first > 0) + (second > 0)
        per_pair.append((first + second) / 2.0)
    mean = sum(per_pair) / pairs
    var = sum((x - mean) ** 2 for x in per_pair) / max(pairs - 1, 1)
    return Score(pairs, mean, 1.96 * math.sqrt(var / pairs), won / (2 * pairs))

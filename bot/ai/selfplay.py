"""Complete games between AI players, without the bot (benchmarks, tests).

Module-level functions so a process pool can run them.
"""

from __future__ import annotations

import random

from bot.ai.context import MatchContext
from bot.ai.levels import LEVELS
from bot.ai.player import apply_decision, decide, heuristic_decide
from engine.dice import Dice
from engine.game import Game, Phase
from engine.player import Player
from engine.rules import RuleOptions


def opening(g: Game, rng: random.Random) -> Game:
    """Throw random opening dice until the game has started."""
    while g.phase is Phase.OPENING:
        if g.variant.opening_method(g.rules).dice_each == 1:
            g = g.opening_roll(rng.randint(1, 6), rng.randint(1, 6))
        else:
            g = g.opening_roll((rng.randint(1, 6), rng.randint(1, 6)),
                               (rng.randint(1, 6), rng.randint(1, 6)))
    return g


def play_vs_heuristic(seed: int, level_name: str, variant: str = "standard",
                      rules: RuleOptions | None = None) -> int:
    """One money game, the AI at ``level_name`` against the heuristic player.

    The AI is white on even seeds, black on odd ones.  Returns the AI's points
    (negative when it lost).
    """
    level = LEVELS[level_name]
    rng = random.Random(seed)
    ai = Player.WHITE if seed % 2 == 0 else Player.BLACK
    g = Game.new(variant, rules or RuleOptions())
    while not g.is_finished:
        g = opening(g, rng)
        p = g.awaiting
        assert p is not None
        if p is ai:
            d = decide(g, MatchContext(), level, rng)
        else:
            d = heuristic_decide(g, p, rng, LEVELS["strong"])
        g = apply_decision(g, d, Dice(rng.randint(1, 6), rng.randint(1, 6)))
    assert g.result is not None
    return g.result.points if g.result.winner is ai else -g.result.points


def play_vs_heuristic_job(args: tuple[int, str, bool]) -> int:
    """:func:`play_vs_heuristic` for ``Executor.map``: ``(seed, level name, cube on)``."""
    seed, level_name, cube = args
    return play_vs_heuristic(seed, level_name, rules=RuleOptions(cube=cube))

"""Complete games between AI players, without the bot (benchmarks, tests).

Module-level functions so a process pool can run them.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from bot.ai.context import MatchContext
from bot.ai.levels import LEVELS
from bot.ai.player import apply_decision, decide, heuristic_decide
from engine.dice import Dice
from engine.game import Game, Phase
from engine.player import Player
from engine.rules import RuleOptions

if TYPE_CHECKING:
    from engine.formats.matfile import MatGame


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


def play_match(length: int, seed: int, *, games: int = 2, level_name: str = "intermediate",
               levels: tuple[str, str] | None = None) -> list[MatGame]:
    """A ``length``-point match (0: a money session of ``games`` games) between two AI
    players at ``level_name`` (the noisy intermediate level makes real mistakes to grade),
    or white and black at ``levels``, from ``seed``: the games with the score before
    each."""
    from engine.formats.matfile import MatGame
    from engine.match import Match, MoneySession

    rng = random.Random(seed)
    white, black = (LEVELS[n] for n in (levels or (level_name, level_name)))
    out: list[MatGame] = []
    match = Match.new(length, RuleOptions()) if length else None
    session = MoneySession.new(RuleOptions())
    while (match is not None and not match.is_over) or (match is None and len(out) < games):
        if match is not None:
            g = match.new_game()
            ctx, score = MatchContext(length, match.score), match.score
        else:
            g = session.new_game()
            ctx, score = MatchContext.money(), session.points
        while not g.is_finished:
            g = opening(g, rng)
            if g.is_finished:
                break
            level = white if g.awaiting is Player.WHITE else black
            g = apply_decision(g, decide(g, ctx, level, rng),
                               Dice(rng.randint(1, 6), rng.randint(1, 6)))
        out.append(MatGame(g.to_record(), score))
        if match is not None:
            match = match.add_game(g)
        else:
            session = session.add_game(g)
    return out

"""Legal-play generation speed of the book variants against the standard generator.

Corpus: positions met in random games (random legal plays and choices, fixed
seeds) of each variant, each with a random throw's first stage; and, measured
in the same run as the reference, standard positions from random standard games
with :func:`engine.movegen.legal_plays`.  Reports microseconds per generation
and the ratio to the standard generator (ratio > 1: slower than standard).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from engine.dice import Dice
from engine.movegen import legal_plays
from engine.player import Player
from engine.position import Position
from engine.variant import Stage, TurnContext, Variant, get_variant
from engine.variants.driver import play_turn
from engine.variants.movement import MovementRules, stage_plays

NAMES = ("acey-deucey", "acey-deucey-1930", "russian", "french")


class _Dice:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def die(self) -> int:
        return self.rng.randint(1, 6)


def _variant_corpus(variant: Variant, games: int, seed: int) -> list[tuple[Position, Player,
                                                                          Stage, TurnContext]]:
    rng = random.Random(seed)
    cases = []
    for _ in range(games):
        pos, player = variant.initial_position(), Player.WHITE
        for _turn in range(2000):
            if variant.winner(pos) is not None:
                break
            dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
            turn = TurnContext(player, (dice,), (), (), pos)
            step = variant.next_step(turn)
            if isinstance(step, Stage):
                cases.append((pos, player, step, turn))
            rec = play_turn(variant, pos, player, _Dice(rng), lambda ps: rng.choice(list(ps)),
                            lambda c: rng.choice(c.options), first=dice)
            pos, player = rec.position, player.other
    return cases


def _standard_corpus(games: int, seed: int) -> list[tuple[Position, Player, int, int]]:
    rng = random.Random(seed)
    cases = []
    for _ in range(games):
        pos, player = Position.standard(), Player.WHITE
        for _turn in range(2000):
            if any(side[0] == 15 for side in pos.sides):
                break
            a, b = rng.randint(1, 6), rng.randint(1, 6)
            cases.append((pos, player, a, b))
            pos = rng.choice(legal_plays(pos, player, a, b)).position
            player = player.other
    return cases


def _time(fn: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def run(quick: bool) -> list[str]:
    games = 3 if quick else 20
    repeat = 1 if quick else 3
    standard = _standard_corpus(games, 1)

    def gen_standard() -> None:
        for pos, player, a, b in standard:
            legal_plays(pos, player, a, b)

    ref = _time(gen_standard, repeat) / len(standard) * 1e6
    lines = [f"standard movegen: {ref:8.1f} us/position over {len(standard)} positions "
             "(reference)"]
    rules = MovementRules("standard")

    def gen_same() -> None:
        for pos, player, a, b in standard:
            stage_plays(pos, player, (a, b) if a != b else (a,) * 4, rules)

    same = _time(gen_same, repeat) / len(standard) * 1e6
    lines.append(f"variant generator, standard rules, same positions: {same:8.1f} us/position, "
                 f"{same / ref:5.2f}x standard")
    for name in NAMES:
        variant = get_variant(name)()
        cases = _variant_corpus(variant, games, 2)

        def gen(variant: Variant = variant, cases: list[tuple[Position, Player, Stage,
                                                              TurnContext]] = cases) -> None:
            for pos, player, stage, turn in cases:
                variant.legal_plays(pos, player, stage, turn)

        per = _time(gen, repeat) / len(cases) * 1e6
        lines.append(f"{name:18s}: {per:8.1f} us/position over {len(cases)} positions, "
                     f"{per / ref:5.2f}x standard")
    return lines

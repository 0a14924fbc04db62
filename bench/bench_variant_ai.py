"""The bot's strength in the book variants: our self-trained networks (issue 46).

For each family (Acey-Deucey, Russian, French backgammon), in dice-mirrored
pairs of money games (:mod:`bot.ai.duel`, cube on), with the 95 %
confidence interval over the pairs:

* the default level against today's heuristic player (:mod:`bot.ai.heuristic`),
  the player the variants had before the networks (target: +0.5 points a game);
* the network against itself with the colours swapped (about 0: a check of the
  method, not of the network);
* decision times of the default level (p50, p95; target p95 <= 0.2 s).

Where no weights ship for a family, it says so.  The learning curve (strength
against the heuristic after N training games) is measured on the checkpoints a
training run left: ``python bench/bench_variant_ai.py --curve DIR`` reads every
``FAMILY-GAMES.npz`` in DIR (cube off, so the figure is the checker play's).
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import time
from pathlib import Path

from bot.ai.context import MatchContext
from bot.ai.duel import heuristic_decider, mirrored, net_decider
from bot.ai.levels import DEFAULT_LEVEL
from bot.ai.player import apply_decision, decide
from bot.ai.selfplay import opening
from bot.ai.tdnet.family import network_for
from bot.ai.tdnet.net import Net
from engine.dice import Dice
from engine.game import Game
from engine.rules import RuleOptions
from engine.variant import get_variant

FAMILIES = ("acey-deucey", "russian", "french")


def decision_times(name: str, games: int, seed: int) -> list[float]:
    rng = random.Random(seed)
    times: list[float] = []
    for _ in range(games):
        g = Game.new(name, RuleOptions())
        while not g.is_finished:
            g = opening(g, rng)
            if g.is_finished:
                break
            began = time.perf_counter()
            d = decide(g, MatchContext.money(), DEFAULT_LEVEL, rng)
            times.append(time.perf_counter() - began)
            g = apply_decision(g, d, Dice(rng.randint(1, 6), rng.randint(1, 6)))
    return times


def run(quick: bool) -> list[str]:
    pairs = 20 if quick else 200
    lines = []
    for name in FAMILIES:
        variant = get_variant(name)()
        net = network_for(variant)
        if net is None:
            lines.append(f"{name}: no network ships (the heuristic plays)")
            continue
        lines.append(f"{name}: network trained on {net.games:,} self-play games")
        me, heur = net_decider(net, DEFAULT_LEVEL), heuristic_decider()
        lines.append(f"  default level vs heuristic: {mirrored(variant, me, heur, pairs, 1)}")
        itself = mirrored(variant, me, me, pairs // 4, 2)
        lines.append(f"  against itself, colours swapped: {itself}")
        t = sorted(decision_times(name, 2 if quick else 10, 3))
        p95 = t[int(0.95 * (len(t) - 1))]
        lines.append(f"  decision time: p50 {1000 * statistics.median(t):.1f} ms, "
                     f"p95 {1000 * p95:.1f} ms ({len(t)} decisions)")
    return lines


def curve(folder: Path, pairs: int) -> list[str]:
    """Strength against the heuristic of each checkpoint in ``folder``, cube off."""
    found = []
    for path in folder.glob("*.npz"):
        m = re.fullmatch(r"(.+)-(\d+)\.npz", path.name)
        if m:
            found.append((m.group(1), int(m.group(2)), path))
    lines = []
    for family, games, path in sorted(found):
        variant = get_variant(family)()
        score = mirrored(variant, net_decider(Net.load(path)), heuristic_decider(), pairs, 5,
                         RuleOptions(cube=False))
        lines.append(f"{family} after {games:,} games: {score}")
    return lines


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--curve", type=Path, required=True)
    parser.add_argument("--pairs", type=int, default=50)
    args = parser.parse_args()
    for line in curve(args.curve, args.pairs):
        print(line, flush=True)

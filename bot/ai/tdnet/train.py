"""Training a variant's network from scratch by self-play: TD(λ), as TD-Gammon.

One command, a fixed seed, the same weights every time::

    python -m bot.ai.tdnet.train acey-deucey --games 30000 --seed 1

Each game is played by the network against itself (:mod:`bot.ai.tdnet.turns`,
greedy; the dice give all the exploration needed, as Tesauro found).  The
positions where a player is about to throw are the training states; after the
game each state's target is its λ-return, built backwards from the result::

    G_last = the result, from the last mover's side
    G_t    = (1 - λ) · mirror(V(s_t+1)) + λ · mirror(G_t+1)

(``mirror``: the next state belongs to the other player), and the network takes
one gradient step towards every target.  Game ``k`` draws its dice from its own
``random.Random`` seeded by ``(seed, k)``, so a run resumed from a checkpoint
plays the same games as one that was never stopped.
"""

from __future__ import annotations

import os

# One BLAS thread: the same sums in the same order on every run (reproducible weights), and
# faster for matrices this small.  Set before numpy loads (``python -m`` imports this first).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from bot.ai.tdnet.encode import INPUTS, Matrix, encode
from bot.ai.tdnet.family import family_of, weights_path
from bot.ai.tdnet.net import Net, mirror
from bot.ai.tdnet.turns import Evaluator, best_option, best_play, outcome
from engine.dice import Dice
from engine.player import Player
from engine.position import Position
from engine.rules import DEFAULT_RULES, RuleOptions
from engine.scoring import ResultKind
from engine.variant import Choice, Stage, ThrowAgain, TurnContext, Variant, get_variant
from engine.variants.driver import MAX_THROWS
from engine.words import counted

MAX_TURNS = 2_000
"""A game still going after this many turns is dropped (never seen in practice)."""


@dataclass(frozen=True)
class Settings:
    hidden: int = 64
    rate: float = 0.01
    lam: float = 0.7


def throw(rng: random.Random) -> Dice:
    return Dice(rng.randint(1, 6), rng.randint(1, 6))


def play_turn(ev: Evaluator, position: Position, player: Player, rng: random.Random,
              turn_number: int, opening: bool, rules: RuleOptions,
              random_player: random.Random | None = None) -> Position:
    """One whole turn of ``player`` played by the network (or, given ``random_player``,
    by uniformly random choices drawn from it); the position after it."""
    variant = ev.variant
    turn = TurnContext(player, (throw(rng),), (), (), position, turn_number, opening, rules)
    while True:
        step = variant.next_step(turn)
        if isinstance(step, Stage):
            plays = variant.legal_plays(turn.position, player, step, turn)
            if random_player is not None:
                play = random_player.choice(plays)
            else:
                play = plays[best_play(ev, plays, player)]
            turn = TurnContext(player, turn.throws, (*turn.plays, (step, play)), turn.choices,
                               play.position, turn_number, opening, rules)
            if variant.winner(play.position) is not None:
                return play.position
        elif isinstance(step, Choice):
            option = (random_player.choice(step.options) if random_player is not None
                      else best_option(ev, turn, step))
            turn = TurnContext(player, turn.throws, turn.plays, (*turn.choices, option),
                               turn.position, turn_number, opening, rules)
        elif isinstance(step, ThrowAgain):
            if len(turn.throws) >= MAX_THROWS:
                raise RuntimeError("too many throws in one turn")
            turn = TurnContext(player, (*turn.throws, throw(rng)), (), (), turn.position,
                               turn_number, opening, rules)
        else:
            return turn.position


def self_play(ev: Evaluator, rng: random.Random, rules: RuleOptions = DEFAULT_RULES
              ) -> tuple[list[Position], list[Player], Matrix] | None:
    """One game of the network against itself: the states (position, player on
    roll) and the result from the last state's player's side (``None`` if the
    game ran past :data:`MAX_TURNS`)."""
    variant = ev.variant
    position, player = variant.initial_position(), Player(rng.randint(0, 1))
    positions: list[Position] = []
    players: list[Player] = []
    turns = [0, 0]
    for n in range(MAX_TURNS):
        positions.append(position)
        players.append(player)
        position = play_turn(ev, position, player, rng, turns[player], n == 0, rules)
        turns[player] += 1
        winner = variant.winner(position)
        if winner is not None:
            kind = variant.result_kind(position, winner)
            if not ev.gammons:
                kind = ResultKind.SINGLE
            return positions, players, outcome(kind)[None, :]
        player = player.other
    return None


def contest(a: Evaluator, b: Evaluator | None, games: int, seed: int) -> float:
    """``a`` against ``b`` (``None``: a player choosing at random) in cubeless games played
    as in training (fast: no :class:`~engine.game.Game`), in dice-mirrored pairs; ``a``'s
    mean points a game."""
    variant = a.variant
    total = 0
    for k in range(games):
        for a_first in (True, False):
            rng = game_rng(seed, k)
            chooser = random.Random(k)
            position, player = variant.initial_position(), Player(rng.randint(0, 1))
            a_side = player if a_first else player.other
            turns = [0, 0]
            for n in range(MAX_TURNS):
                mine = player is a_side
                ev = a if mine or b is None else b
                position = play_turn(ev, position, player, rng, turns[player], n == 0,
                                     DEFAULT_RULES, None if mine or b is not None else chooser)
                turns[player] += 1
                winner = variant.winner(position)
                if winner is not None:
                    points = int(variant.result_kind(position, winner)) if a.gammons else 1
                    total += points if winner is a_side else -points
                    break
                player = player.other
    return total / (2 * games)


def lambda_targets(values: Matrix, result: Matrix, lam: float) -> Matrix:
    """λ-returns of states whose on-roll players alternate; ``values[t]`` is the
    network's estimate of state ``t``, ``result`` the last state's result."""
    n = values.shape[0]
    targets = np.empty_like(values)
    targets[n - 1] = result[0]
    for t in range(n - 2, -1, -1):
        nxt = mirror(values[t + 1: t + 2])[0]
        ret = mirror(targets[t + 1: t + 2])[0]
        targets[t] = (1.0 - lam) * nxt + lam * ret
    return targets


def train_game(net: Net, ev: Evaluator, rng: random.Random, settings: Settings) -> int:
    """Play one game and learn from it; the number of states (0 if dropped)."""
    game = self_play(ev, rng)
    if game is None:
        return 0
    positions, players, result = game
    x = np.empty((len(positions), INPUTS))
    opposite = ev.variant.opposite
    for i, (pos, p) in enumerate(zip(positions, players, strict=True)):
        x[i] = encode([pos], p, opposite)[0]
    values = net.chances(x)
    targets = lambda_targets(values, result, settings.lam)
    net.learn(x, targets, settings.rate)
    net.games += 1
    return len(positions)


def game_rng(seed: int, k: int) -> random.Random:
    return random.Random(seed * 1_000_003 + k)


def train(variant: Variant, games: int, seed: int, settings: Settings, *,
          start: Net | None = None, checkpoint: Path | None = None, every: int = 500,
          log: bool = False) -> Net:
    """Train from ``start`` (else fresh weights from ``seed``) until ``games`` games."""
    net = start or Net.fresh(settings.hidden, np.random.default_rng(seed))
    ev = Evaluator.of(net, variant, DEFAULT_RULES)
    began = time.monotonic()
    while net.games < games:
        k = net.games
        train_game(net, ev, game_rng(seed, k), settings)
        if net.games == k:  # a dropped game still counts, so the run moves on
            net.games += 1
        if checkpoint is not None and net.games % every == 0:
            save_checkpoint(net, checkpoint)
        if log and net.games % every == 0:
            rate = net.games / max(time.monotonic() - began, 1e-9)
            print(f"{variant.name}: {counted(net.games, 'game')} ({rate:.1f}/s)", flush=True)
    if checkpoint is not None:
        save_checkpoint(net, checkpoint)
    return net


def save_checkpoint(net: Net, path: Path) -> None:
    """Full-precision weights, written whole or not at all."""
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("wb") as f:
        np.savez(f, w1=net.w1, b1=net.b1, w2=net.w2, b2=net.b2, games=np.array(net.games))
    tmp.replace(path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.ai.tdnet.train",
                                     description="Train a variant's network by self-play.")
    parser.add_argument("variant", help="acey-deucey, acey-deucey-1930, russian or french")
    parser.add_argument("--games", type=int, default=30_000)
    parser.add_argument("--seed", type=int, default=1)
    defaults = Settings()
    parser.add_argument("--hidden", type=int, default=defaults.hidden)
    parser.add_argument("--rate", type=float, default=defaults.rate)
    parser.add_argument("--lam", type=float, default=defaults.lam)
    parser.add_argument("--checkpoint", type=Path, default=None,
                        help="resume from and save to this file (full precision)")
    parser.add_argument("--out", type=Path, default=None,
                        help="the shipped weights (default: the package's file for the variant)")
    args = parser.parse_args(argv)
    variant = get_variant(args.variant)()
    settings = Settings(args.hidden, args.rate, args.lam)
    start = None
    if args.checkpoint is not None and args.checkpoint.exists():
        start = Net.load(args.checkpoint)
    net = train(variant, args.games, args.seed, settings, start=start,
                checkpoint=args.checkpoint, log=True)
    out = args.out or weights_path(family_of(variant))
    net.save(out)
    print(f"wrote {out} ({counted(out.stat().st_size, 'byte')}, {counted(net.games, 'game')})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

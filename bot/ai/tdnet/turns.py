"""Playing a throw with a network: each stage's play, each choice, greedily.

A turn of a book variant is a sequence of steps (:mod:`engine.variant`):
stages to play, choices to make, sometimes another throw.  Each stage's play
is the one whose position is worth most to the mover; a position is valued as
if the opponent were on roll next (the network's after-state value), except
where the mover throws again (then as the mover on roll).  A choice's options
are each played out greedily to the end of the throw and compared the same way.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from bot.ai.tdnet.encode import Matrix, encode
from bot.ai.tdnet.net import BACKGAMMON_WIN, GAMMON_WIN, WIN, Net, consistent, equity, mirror
from engine.move import Play
from engine.player import Player
from engine.position import Position
from engine.rules import RuleOptions
from engine.scoring import ResultKind
from engine.variant import Choice, EndTurn, Stage, Step, ThrowAgain, TurnContext, Variant


@dataclass(frozen=True, slots=True)
class Evaluator:
    """A network, the variant it judges and whether gammons count there."""

    net: Net
    variant: Variant
    gammons: bool = True

    @classmethod
    def of(cls, net: Net, variant: Variant, rules: RuleOptions) -> Evaluator:
        return cls(net, variant, variant.gammons_counted(rules))

    def on_roll(self, positions: Sequence[Position], player: Player) -> Matrix:
        """``player``'s chances in each position with him on roll."""
        return self.net.chances(encode(positions, player, self.variant.opposite))

    def after_play(self, positions: Sequence[Position], mover: Player) -> Matrix:
        """The mover's chances in each position with the opponent on roll next
        (exact where the mover has just won)."""
        out = mirror(self.on_roll(positions, mover.other))
        for i, pos in enumerate(positions):
            if self.variant.winner(pos) is mover:
                out[i] = outcome(self.variant.result_kind(pos, mover))
        return out

    def equities(self, chances: Matrix) -> np.ndarray:
        return equity(chances, self.gammons)


def outcome(kind: ResultKind) -> Matrix:
    """The five chances of a game the player has won as ``kind``."""
    row = np.zeros(5)
    row[WIN] = 1.0
    if kind in (ResultKind.GAMMON, ResultKind.BACKGAMMON):
        row[GAMMON_WIN] = 1.0
    if kind is ResultKind.BACKGAMMON:
        row[BACKGAMMON_WIN] = 1.0
    return row


def pick(values: np.ndarray, noise: float, rng: random.Random | None) -> int:
    """Index of the best value, after Gaussian noise of σ ``noise`` (weaker levels)."""
    if noise > 0 and rng is not None:
        values = values + np.array([rng.gauss(0.0, noise) for _ in range(len(values))])
    return int(np.argmax(values))


def play_values(ev: Evaluator, plays: Sequence[Play], mover: Player) -> np.ndarray:
    return ev.equities(ev.after_play([p.position for p in plays], mover))


def best_play(ev: Evaluator, plays: Sequence[Play], mover: Player, noise: float = 0.0,
              rng: random.Random | None = None) -> int:
    """Index of the play worth most to ``mover``."""
    if len(plays) == 1:
        return 0
    return pick(play_values(ev, plays, mover), noise, rng)


def finish_throw(ev: Evaluator, turn: TurnContext) -> tuple[TurnContext, Step]:
    """Play the rest of the current throw greedily; the context then and the step
    that ends the throw (:class:`ThrowAgain` or :class:`EndTurn`)."""
    variant = ev.variant
    while True:
        step = variant.next_step(turn)
        if isinstance(step, Stage):
            plays = variant.legal_plays(turn.position, turn.player, step, turn)
            play = plays[best_play(ev, plays, turn.player)]
            turn = replace(turn, plays=(*turn.plays, (step, play)), position=play.position)
            if variant.winner(play.position) is not None:
                return turn, EndTurn("the game is over")
        elif isinstance(step, Choice):
            option = best_option(ev, turn, step)
            turn = replace(turn, choices=(*turn.choices, option))
        else:
            return turn, step


def value_at_end(ev: Evaluator, turn: TurnContext, step: Step) -> float:
    """What the throw's end is worth to the mover."""
    if isinstance(step, ThrowAgain) and ev.variant.winner(turn.position) is None:
        chances = ev.on_roll([turn.position], turn.player)
    else:
        chances = ev.after_play([turn.position], turn.player)
    return float(ev.equities(chances)[0])


def option_values(ev: Evaluator, turn: TurnContext, choice: Choice) -> np.ndarray:
    values = []
    for option in choice.options:
        end, step = finish_throw(ev, replace(turn, choices=(*turn.choices, option)))
        values.append(value_at_end(ev, end, step))
    return np.array(values)


def best_option(ev: Evaluator, turn: TurnContext, choice: Choice, noise: float = 0.0,
                rng: random.Random | None = None) -> str:
    """The option of ``choice`` worth most to the mover."""
    if len(choice.options) == 1:
        return choice.options[0]
    return choice.options[pick(option_values(ev, turn, choice), noise, rng)]


__all__ = ["Evaluator", "best_option", "best_play", "consistent", "finish_throw", "outcome",
           "play_values"]

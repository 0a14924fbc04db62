"""A minimal turn driver over the :class:`engine.variant.Variant` steps.

:mod:`engine.game` is the real state machine (cube, match, records); this
module only walks one turn's steps -- stages, choices, extra throws -- with the
decisions supplied by the caller, so that the variants can be exercised
(tests, property tests, benchmarks) without a game.  It never draws random
numbers itself: dice come from a :class:`engine.dice.DiceSource` and the
choices from the caller's functions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.dice import Dice, DiceSource
from engine.move import Play
from engine.player import Player
from engine.position import Position
from engine.variant import Choice, EndTurn, Stage, ThrowAgain, TurnContext, Variant

PickPlay = Callable[[Sequence[Play]], Play]
PickOption = Callable[[Choice], str]

MAX_THROWS = 10_000
"""Safety bound on the throws of one turn (acey-deucy may repeat without limit)."""


@dataclass(frozen=True, slots=True)
class TurnRecord:
    """What happened in one turn: every throw with its stages and choices."""

    player: Player
    throws: tuple[Dice, ...]
    stages: tuple[tuple[tuple[Stage, Play], ...], ...]
    choices: tuple[tuple[str, ...], ...]
    end: EndTurn
    position: Position


def throw(source: DiceSource) -> Dice:
    return Dice(source.die(), source.die())


def play_turn(variant: Variant, position: Position, player: Player, source: DiceSource,
              pick_play: PickPlay, pick_option: PickOption, *, first: Dice | None = None,
              turn_number: int = 0, opening: bool = False) -> TurnRecord:
    """Play one turn; ``first`` is the throw already made (else one is drawn)."""
    throws = [first if first is not None else throw(source)]
    all_stages: list[tuple[tuple[Stage, Play], ...]] = []
    all_choices: list[tuple[str, ...]] = []
    plays: list[tuple[Stage, Play]] = []
    choices: list[str] = []
    while True:
        turn = TurnContext(player, tuple(throws), tuple(plays), tuple(choices), position,
                           turn_number, opening)
        step = variant.next_step(turn)
        if isinstance(step, Stage):
            legal = variant.legal_plays(position, player, step, turn)
            play = legal[0] if len(legal) == 1 else pick_play(legal)
            plays.append((step, play))
            position = play.position
            if variant.winner(position) is not None:
                step = EndTurn("the game is over")
            else:
                continue
        elif isinstance(step, Choice):
            option = pick_option(step)
            if option not in step.options:
                raise ValueError(f"{option!r} is not one of {step.options}")
            choices.append(option)
            continue
        all_stages.append(tuple(plays))
        all_choices.append(tuple(choices))
        if isinstance(step, ThrowAgain):
            if len(throws) >= MAX_THROWS:
                raise RuntimeError("too many throws in one turn")
            throws.append(throw(source))
            plays, choices = [], []
            continue
        assert isinstance(step, EndTurn)
        return TurnRecord(player, tuple(throws), tuple(all_stages), tuple(all_choices),
                          step, position)

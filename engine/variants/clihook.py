"""What ``python -m engine plays --variant NAME`` needs from the variants.

:func:`play_generators` gives, for every registered book variant, a function
``(position, player, dice) -> plays`` listing the legal plays of the *first
stage* of the throw (the two dice; the thrown side of a doublet, four plays;
the 1 and the 2 of acey-deucy -- the later stages depend on the player's
choices and are not listed).  :data:`CODEC` reads and writes positions as
:mod:`engine.variants.postext` text, since a Position ID cannot hold checkers
that have not entered.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.dice import Dice
from engine.move import Play
from engine.player import Player
from engine.position import Position
from engine.variant import VARIANTS, Stage, TurnContext, Variant, get_variant
from engine.variants import notation, postext
from engine.variants.common import BookVariant

Generator = Callable[[Position, Player, Dice], list[Play]]
Codec = tuple[Callable[[str], tuple[Position, Player]], Callable[[Position, Player], str],
              Callable[[Play], str]]

CODEC: Codec = (postext.decode, postext.encode, notation.format_play)
"""Decode a position text, encode one, format a play."""


def first_stage_plays(variant: Variant) -> Generator:
    def generate(position: Position, player: Player, dice: Dice) -> list[Play]:
        turn = TurnContext(player, (dice,), (), (), position)
        step = variant.next_step(turn)
        if not isinstance(step, Stage):  # pragma: no cover - every throw starts with a stage
            return [Play((), (), position)]
        return variant.legal_plays(position, player, step, turn)

    return generate


def play_generators() -> dict[str, Generator]:
    """Name (and alias) -> first-stage generator, for every book variant."""
    get_variant("standard")  # loads engine.variants into the registry
    return {name: first_stage_plays(cls()) for name, cls in VARIANTS.items()
            if issubclass(cls, BookVariant)}


def plays_lines(text: str, dice_text: str, variant_name: str) -> list[str]:
    """The ``plays`` output for a variant: play TAB position text after it.

    ``text`` is a :mod:`engine.variants.postext` position (player on roll
    first); the position after each play keeps the same player on roll.  A
    throw that cannot be played gives no line.
    """
    variant = get_variant(variant_name)()
    position, player = postext.decode(text)
    dice = Dice.parse(dice_text)
    lines = []
    for play in first_stage_plays(variant)(position, player, dice):
        if play.moves:
            lines.append(f"{notation.format_play(play)}\t{postext.encode(play.position, player)}")
    return lines

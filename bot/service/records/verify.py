"""Which dice a game used, read back from its record, for the fairness check.

The service draws dice from the game's seed in this order: an opening throw
takes white's die (or dice) then black's; a roll takes its first then its
second die.  Reading the record in order gives the sequence to compare with
:func:`bot.service.core.fairdice.die`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any


def dice_of_record(events: Iterable[Mapping[str, Any]]) -> list[int]:
    """Every die the game used, in the order they were drawn."""
    dice: list[int] = []
    for event in events:
        kind = event.get("type")
        if kind == "opening":
            dice.extend(int(d) for d in event["white"])
            dice.extend(int(d) for d in event["black"])
        elif kind == "roll":
            dice.extend(int(d) for d in event["dice"])
    return dice

"""``/puzzle`` in the console (issue 33): the same calls as the Discord command, typed::

    /puzzle                 the next puzzle you have not answered (or /puzzle 12)
    /puzzle answer 13/7 8/7 your answer to it (or /puzzle answer 12 13/7 8/7; cube
                            puzzles: double, no double, take, pass)

The answers a puzzle offers (the Discord menu or buttons) are listed under its board.
"""

from __future__ import annotations

from bot.adapters.console.tournament import Console
from bot.service.core.values import Actor
from engine.rules import whole_number

USAGE = ("  (only you see this) /puzzle [number] shows a puzzle; /puzzle answer [number] "
         "ANSWER answers it, e.g. /puzzle answer 13/7 8/7 or /puzzle answer 3 take.")


async def puzzle(console: Console, actor: Actor, rest: str) -> None:
    words = rest.split()
    service = console.service
    if not words:
        await console.show(await service.puzzle(console.place, actor))
        return
    if words[0].lower() != "answer":
        number = whole_number(words[0].lstrip("#"))
        if number is None or len(words) > 1:
            console.say(USAGE)
            return
        await console.show(await service.puzzle(console.place, actor, number))
        return
    words = words[1:]
    number = whole_number(words[0].lstrip("#")) if len(words) > 1 else None
    if number is not None:
        words = words[1:]  # "/puzzle answer 3 take", "/puzzle answer #3 13/7 8/7"
    if not words:
        console.say(USAGE)
        return
    await console.show(await service.puzzle_answer(console.place, actor, " ".join(words),
                                                   number))

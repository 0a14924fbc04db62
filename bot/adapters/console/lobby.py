"""``/queue`` and ``/lobby`` in the console (issue 44): the same calls as the Discord
commands, typed::

    /queue join [length=N] [variant=NAME] [clock=CLOCK] [rated=on|off] [bot_after=MINUTES]
    /queue leave
    /queue status
    /lobby

A pairing is printed by the console's timer when it is made (the service's due work)."""

from __future__ import annotations

from bot.adapters.console.tournament import Console
from bot.service.core.values import Actor
from bot.service.lobby.queue import Wanted
from engine.rules import whole_number

USAGE = ("  (only you see this) /queue join [length=N] [variant=NAME] [clock=CLOCK] "
         "[rated=on|off] [bot_after=MINUTES], /queue leave, /queue status.")


async def queue(console: Console, actor: Actor, rest: str) -> None:
    words = rest.split()
    service = console.service.queue
    what = words[0].lower() if words else "status"
    if what == "leave" and len(words) == 1:
        await console.show(await service.leave(console.place, actor))
    elif what == "status" and len(words) <= 1:
        await console.show(await service.status(console.place, actor))
    elif what == "join":
        options: dict[str, str] = {}
        for word in words[1:]:
            key, eq, value = word.partition("=")
            if not eq or key.lower() not in ("length", "variant", "clock", "rated", "bot_after"):
                console.say(USAGE)
                return
            options[key.lower()] = value
        length = whole_number(options.get("length", "3"))
        if length is None:
            console.say("  (only you see this) length is a whole number, e.g. length=5 "
                        "(0: money play).")
            return
        rated = options.get("rated", "on").lower() not in ("off", "no", "false", "0")
        try:
            bot_after = float(options.get("bot_after", "0"))
        except ValueError:
            console.say("  (only you see this) bot_after is a number of minutes, e.g. "
                        "bot_after=5.")
            return
        await console.show(await service.join(console.place, actor, Wanted(
            length, options.get("variant"), options.get("clock"), rated, bot_after)))
    else:
        console.say(USAGE)


async def lobby(console: Console, actor: Actor, rest: str) -> None:
    if rest.strip():
        console.say("  (only you see this) /lobby takes nothing after it.")
        return
    await console.show(await console.service.queue.lobby(console.place, actor))

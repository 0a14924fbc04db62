"""``/demo``: play on with simple choices to the end of the match (or, in money play and
chouettes, of the current game), and say where and why it stopped if it stops sooner.

Rolls instead of doubling, takes every double, rejects every resignation, plays the first
legal play the service suggests, chooses the first option: every step goes through the
same service calls as a typed command.
"""

from __future__ import annotations

from bot.adapters.console.screen import Screen
from bot.service.core.replies import Action, Reply

DEMO_BOUND = 1_000_000
"""The most actions one ``/demo`` makes: far beyond the longest match (a 25-point match
of one-point games takes some 10,000), a bound against a game that would never end.  If it
is ever reached, /demo says so."""


async def play_demo(console: Screen, limit: int = DEMO_BOUND) -> None:
    """Play on until the match (or the money or chouette game) ends; say why when it stops
    before that (issue 42 item 18: it stopped silently after 2,000 actions, mid-game)."""
    service = console.service
    made = 0
    while True:
        if not service.lifecycle.accepting:
            console.say(stopping(made))
            return
        name = await console.who_must_act()
        if not name:
            if not made:
                console.say("  (only you see this) /demo plays the game of this channel, "
                            f"and no game in {console.where} waits for a player: start one "
                            "(/challenge @bob) or go to its channel (/channel NAME).")
            return
        if made >= limit:
            console.say(f"  /demo stopped after {made} actions, its bound, with {name} to "
                        "act: type /demo to go on.")
            return
        actor = console.actor(name)
        reply = await service.board(console.place, actor)
        acts = {b.action.value for b in reply.buttons if actor.id in b.users}
        if "take" in acts:
            result = await service.take(console.place, actor)
        elif "roll" in acts:
            result = await service.roll(console.place, actor)
        elif "reject-resignation" in acts:
            result = await service.answer_resignation(console.place, actor, True)
        elif "choose" in acts:
            option = next(b.option for b in reply.buttons if b.action is Action.CHOOSE)
            result = await service.choose(console.place, actor, option)
        else:
            plays = await service.suggestions(console.place, actor, "", limit=1)
            if not plays:
                console.say(f"  /demo stopped after {made} actions: {name} is to act, but "
                            "neither a roll, a take, an answer nor a play is offered to "
                            f"him (/board shows what the game waits for).")
                return
            result = await service.move(console.place, actor, plays[0])
        made += 1
        if not result.ok and not service.lifecycle.accepting:
            console.say(stopping(made - 1))  # refused because the console is stopping
            return
        await console.show(result)
        if not result.ok:
            console.say(f"  /demo stopped after {made - 1} actions: {name}'s move was "
                        "refused (above).")
            return
        if game_ended(result):
            console.say("  /demo stops at the end of the game (money play and chouettes go "
                        "on game after game): /demo again plays the next one.")
            return


def game_ended(result: Reply) -> bool:
    """A money or chouette game ended (a match goes on to its end)."""
    return any(b.view.game_over is not None and (
        b.view.money is not None or b.view.chouette is not None) for b in result.boards)


def stopping(made: int) -> str:
    return (f"  /demo stopped after {made} actions: the console is stopping (Ctrl-C or "
            "SIGTERM). Every move made is saved: start the console again and type /demo "
            "to go on.")

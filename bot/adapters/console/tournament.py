"""``/tournament`` in the console: the same sub-commands as the Discord cog.

The console has no roles: whoever types is an organiser.  Each pairing waiting to be
played is opened in its own console channel, ``t<tournament>-<pairing>`` (``/channel
t1-r1-1`` goes there); the console opens them after every tournament command and every
game action, as the Discord bot opens a thread per pairing.
"""

from __future__ import annotations

import asyncio
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from bot.service.core.replies import Reply
from bot.service.core.values import Actor, Place
from bot.service.game import GameService
from engine.rules import whole_number


class Console(Protocol):
    """What this module uses of :class:`bot.adapters.console.Console`."""

    service: GameService
    boards: Path
    names: dict[int, str]

    @property
    def place(self) -> Place: ...
    def actor(self, name: str) -> Actor: ...
    def say(self, text: str) -> None: ...
    def remember_channel(self, name: str) -> None: ...
    async def show(self, reply: Reply) -> None: ...

USAGE = """  /tournament join|leave|status|list|bracket|claim [#id]
  organisers (as on Discord; /tournament works too):
  /tournament-admin create NAME format=single-elimination|double-elimination|round-robin|swiss
              [length="5 final 7"] [rounds=N] [max_players=N] [signup_hours=H]
              [round_hours=H] [variant=NAME] [option=value ...]
  /tournament-admin start|pause|resume|cancel [#id]
  /tournament-admin result PAIRING @winner REASON...   /tournament-admin confirm PAIRING
  /tournament-admin remove @user"""

NUMBERS = ("rounds", "max_players")
HOURS = ("signup_hours", "round_hours")


def pairing_channel(tournament: int, pairing: str) -> str:
    return f"t{tournament}-{pairing.lower()}"


async def open_pairings(console: Console, channel_id: Callable[[str], int]) -> None:
    """Open every pairing waiting for its place, each in its own console channel
    (``channel_id``: the console's id of a channel name)."""
    for opening in await console.service.tournament_openings():
        name = pairing_channel(opening.tournament_id, opening.pairing)
        console.remember_channel(name)
        console.names[opening.a.id] = opening.a.name
        console.names[opening.b.id] = opening.b.name
        console.say(f"  {opening.title}: opened in #{name} (/channel {name})")
        await console.show(await console.service.tournament_open(
            opening, Place(console.place.guild_id, channel_id(name))))


def _tournament_number(words: list[str]) -> tuple[int | None, list[str]]:
    """The tournament number written last (``#3``), and the words before it.  Raises
    ValueError, with the reason, for a ``#`` word that is not one."""
    if words and words[-1].startswith("#"):
        number = whole_number(words[-1][1:])
        if number is None:
            raise ValueError(f"A tournament number looks like #3 (/tournament list shows "
                             f"them), not {words[-1][:20]!r}")
        return number, words[:-1]
    return None, words


def _hours(text: str) -> float | None:
    """A number of hours as typed (the service bounds it), or None if unreadable."""
    try:
        return float(text)
    except ValueError:
        return None


WORDLESS = frozenset({"join", "leave", "start", "status", "list", "claim", "pause", "resume",
                      "cancel", "bracket"})
"""The subcommands that take nothing but a tournament number."""


async def tournament(console: Console, actor: Actor, rest: str,
                     channel_id: Callable[[str], int]) -> None:
    s = console.service
    place = console.place
    try:
        words = shlex.split(rest)
    except ValueError as exc:
        console.say(f"  (only you see this) Can't read that: {exc}.")
        return
    if not words:
        console.say(USAGE)
        return
    sub, words = words[0].lower(), words[1:]
    try:
        number, words = _tournament_number(words)
    except ValueError as exc:
        console.say(f"  (only you see this) {exc}.")
        return
    if sub in WORDLESS and number is None and len(words) == 1:
        # "/tournament start 3" and "tournament=3" (Discord's option) as well as "#3"
        # (issue 30 item 12).
        bare = whole_number(words[0].lower().removeprefix("tournament=").lstrip("#"))
        if bare is not None:
            number, words = bare, []
    if sub in WORDLESS and words:
        console.say(f"  (only you see this) /tournament {sub} takes only a tournament "
                    f"number (3 or #3), not {words[0][:20]!r}.")
        return
    if sub == "create":
        names = [w for w in words if "=" not in w]
        options: dict[str, str] = {}
        for word in words:
            key, eq, value = word.partition("=")
            if eq:
                options[key.strip().lower()] = value.strip()
        if not names and options.get("name", "").strip():
            names = [options.pop("name")]  # name=Cup, as Discord's option is called
        options.pop("name", None)
        if not names:
            console.say("  (only you see this) Name the tournament: /tournament create "
                        "Friday format=swiss (or name=Friday)")
            return
        ints = {k: whole_number(options.pop(k)) for k in NUMBERS if k in options}
        hours = {k: _hours(options.pop(k)) for k in HOURS if k in options}
        if None in ints.values() or None in hours.values():
            console.say("  (only you see this) rounds and max_players are whole numbers, "
                        "signup_hours and round_hours numbers of hours.")
            return
        await console.show(await s.tournament_create(
            place, actor, is_organiser=True, name=" ".join(names),
            format=options.pop("format", "single-elimination"),
            length=options.pop("length", "5"), variant=options.pop("variant", None),
            rules=options, max_players=ints.get("max_players"), rounds=ints.get("rounds"),
            signup_hours=hours.get("signup_hours"), round_hours=hours.get("round_hours")))
    elif sub == "join":
        await console.show(await s.tournament_join(place, actor, number))
    elif sub == "leave":
        await console.show(await s.tournament_leave(place, actor, number))
    elif sub == "start":
        await console.show(await s.tournament_start(place, actor, is_organiser=True,
                                                    tournament=number))
    elif sub == "status":
        await console.show(await s.tournament_status(place, number))
    elif sub == "list":
        await console.show(await s.tournament_list(place))
    elif sub == "claim":
        await console.show(await s.tournament_claim(place, actor, number))
    elif sub in ("pause", "resume", "cancel"):
        call = {"pause": s.tournament_pause, "resume": s.tournament_resume,
                "cancel": s.tournament_cancel}[sub]
        await console.show(await call(place, actor, is_organiser=True, tournament=number))
    elif sub == "confirm" and words:
        await console.show(await s.tournament_confirm(place, actor, is_organiser=True,
                                                      pairing=words[0], tournament=number))
    elif sub == "remove" and words:
        await console.show(await s.tournament_remove(place, actor, is_organiser=True,
                                                     user=console.actor(words[0]).id,
                                                     tournament=number))
    elif sub == "result" and len(words) >= 3:
        await console.show(await s.tournament_result(
            place, actor, is_organiser=True, pairing=words[0],
            winner=console.actor(words[1]).id, reason=" ".join(words[2:]),
            tournament=number))
    elif sub == "bracket":
        reply, picture = await s.tournament_bracket(place, number)
        await console.show(reply)
        if picture is not None:
            from render.bracket import alt_text, render_tournament_png

            png = await asyncio.to_thread(render_tournament_png, picture.state,
                                          s.config.render.theme, picture.names)
            console.boards.mkdir(parents=True, exist_ok=True)
            path = console.boards / f"bracket-{reply.tournament_id}-r{picture.state.round}.png"
            path.write_bytes(png)
            console.say(alt_text(picture.state, picture.names))
            console.say(f"  bracket image: {path}")
    else:
        console.say(USAGE)
        return
    await open_pairings(console, channel_id)

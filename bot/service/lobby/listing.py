"""``/lobby`` (issue 44 item 3): the server's open challenges (who, for what, where to
accept them, until when) and the queue (how many wait, for what)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from bot.service.core.replies import (
    ChannelMention,
    Countdown,
    LobbyChoices,
    Notice,
    Reply,
    notice,
)
from bot.service.core.runner import ActionRunner
from bot.service.core.spans import span
from bot.service.core.state import MatchState
from bot.service.core.values import Actor, Place, without_server
from bot.storage.interface import MatchRow, QueueEntry, StorageError
from engine.words import article

SHOWN = 15
"""Open challenges listed (the oldest first); the others are counted."""
BUTTONS = 20
"""Accept buttons at most (Discord shows 25 buttons a message; the Join buttons follow)."""
JOINS = 4
"""Join buttons for the terms players wait for, at most (and one for the default terms)."""


def challenge_line(row: MatchRow, name: str, now: datetime) -> Notice:
    state = MatchState.from_dict(row.state)
    what = article(f"{row.length}-point match") if row.length else (
        "money play" + (f" at {row.stake} a point" if row.stake else ""))
    extra = [] if state.clock is None else [f"clock {state.clock}"]
    extra.append("rated" if row.rated else "unrated")
    terms = state.open
    if terms is not None and row.rated and (terms.low is not None or terms.high is not None):
        extra.append(f"ratings {terms.low if terms.low is not None else 0}"
                     f" to {terms.high if terms.high is not None else 'any'}")
    parts: list[str | ChannelMention | Countdown] = [
        f"- {name}: {what} of {row.variant} ({', '.join(extra)}), Accept in ",
        ChannelMention(row.channel_id)]
    if terms is not None:
        until = datetime.fromisoformat(terms.until)
        minutes = max(0.0, (until - now).total_seconds() / 60)
        parts += [", expires ", Countdown(int(until.timestamp()), f"in {span(minutes)}")]
    return notice(*parts)


async def lobby(runner: ActionRunner, place: Place, actor: Actor,
                describe_queue: Callable[[list[QueueEntry], int | None], str]) -> Reply:
    """The lobby of ``place``'s server, for ``actor`` (privately)."""
    if not place.in_server:
        return Reply.refuse(without_server(
            place, "The lobby", "it lists a server's open challenges and its queue: here, "
            "challenge the other person by name (/challenge @user)."))
    try:
        async with runner.storage.snapshot() as tx:
            rows = await tx.open_challenges(place.guild_id)
            entries = await tx.queue_entries(place.guild_id)
            names = {}
            for row in rows[:SHOWN]:
                user = await tx.get_user(row.white_id)
                names[row.white_id] = user.name if user is not None else str(row.white_id)
    except StorageError as error:
        return Reply.refuse(str(error))
    now = runner.clock()
    lines: list[Notice] = []
    if rows:
        lines.append(notice(f"Open challenges ({len(rows)}): anyone but the challenger may "
                            "accept one, with its Accept button or /accept where it waits."))
        lines += [challenge_line(r, names[r.white_id], now) for r in rows[:SHOWN]]
        if len(rows) > SHOWN:
            lines.append(notice(f"... and {len(rows) - SHOWN} more."))
    else:
        lines.append(notice("No open challenge: /challenge without an opponent posts one."))
    lines += [notice(line) for line in describe_queue(entries, actor.id).split("\n")]
    lines.append(notice("/queue join [length] [variant] [clock] [rated] waits for an "
                        "opponent of your rating; /queue leave takes you off."))
    return Reply(ok=True, text="The lobby of this server:", ephemeral=True,
                 notify=tuple(lines), lobby=choices(rows, names, entries, actor))


def choices(rows: list[MatchRow], names: dict[int, str], entries: list[QueueEntry],
            actor: Actor) -> LobbyChoices:
    """The lobby's buttons: Accept each listed challenge of someone else; Join the queue
    for the terms others wait for (the closest pairing), or on the server's defaults."""
    accept = tuple((r.id, r.version, f"Accept {names[r.white_id]}'s")
                   for r in rows[:SHOWN] if r.white_id != actor.id)[:BUTTONS]
    if any(e.user_id == actor.id for e in entries):
        return LobbyChoices(accept)  # already waiting: /queue leave first
    join: list[tuple[int, str, str, bool, str]] = []
    for entry in entries:
        terms = (entry.length, entry.variant, entry.clock, entry.rated)
        if len(join) < JOINS and all(j[:4] != terms for j in join):
            what = f"{entry.length} pt" if entry.length else "money"
            clock = "" if entry.clock == "none" else f", {entry.clock}"
            join.append((*terms, f"Join: {what} {entry.variant}{clock}"))
    join.append((3, "", "", True, "Join the queue"))
    return LobbyChoices(accept, tuple(join))

"""Watching a game outside Discord (issue 45 item 4): the read-only watch page's link names
a match; it is shown only while the match is open and only where its server's setting
``watch_page`` (``/settings``, off by default) lets anyone with the link watch."""

from __future__ import annotations

from bot.service.core.runner import ActionRunner
from bot.service.core.values import Place, PlaceKind
from bot.service.settings.service import SettingsService
from bot.storage.interface import MatchStatus, StorageError

WATCHED = (MatchStatus.ACTIVE, MatchStatus.CHALLENGED)
MAX_ID = 2**63 - 1
OFF = ("This server does not let its games be watched outside Discord (its setting "
       "watch_page is off): watch the game in its channel in Discord, or ask "
       "someone with Manage Server to turn it on with /settings.")


async def watched_place(runner: ActionRunner, settings: SettingsService,
                        match_id: int) -> Place | str:
    """Where match ``match_id`` is played, when it may be watched outside Discord; else
    why not (a sentence for the page)."""
    if not 0 < match_id <= MAX_ID:
        return "A watch link names a game by its number: this one names none."
    try:
        async with runner.storage.snapshot() as tx:
            row = await tx.get_match(match_id)
        if row is None or row.status not in WATCHED:
            return (f"Game {match_id} is not being played: a watch link shows a game in "
                    "progress (its result is in the channel where it was played).")
        if row.place_kind != PlaceKind.SERVER.value:
            return ("A game in direct messages is watched by its players only: it has no "
                    "watch page.")
        server = await settings.of(row.guild_id)
    except StorageError as error:
        return str(error)
    if not server.watch_page:
        return OFF
    return Place(row.guild_id, row.channel_id)

"""When a game's thread may close (issue 29 item 8): the match played there ended a grace
period ago and nothing is open there now (no game, challenge or chouette table).  The
grace period is each server's ``archive_after_minutes`` setting (0: never), the operator's
``discord.archive_after_minutes`` by default.  The adapter archives such threads; the
answer comes from what is stored, so it holds across restarts and with several
processes."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta

from bot.service.core.runner import ActionRunner
from bot.service.settings.service import SettingsService


class Closing:
    def __init__(self, runner: ActionRunner, settings: SettingsService) -> None:
        self.runner = runner
        self.settings = settings

    async def finished(self, channels: Mapping[int, int]) -> list[int]:
        """Those of ``channels`` (a thread's id: its server's id) whose last match ended at
        least their server's grace period ago and where nothing is open now (a channel
        that never had a match is not one of them; a server whose period is 0 keeps its
        threads open)."""
        default, chosen = (await self.settings.per_guild("archive_after_minutes"))[
            "archive_after_minutes"]
        now = self.runner.clock()
        out: list[int] = []
        async with self.runner.storage.snapshot() as tx:
            for channel_id, guild_id in channels.items():
                minutes = float(chosen.get(guild_id, default))
                if minutes <= 0:
                    continue
                cutoff = (now - timedelta(minutes=minutes)).isoformat(timespec="milliseconds")
                row = await tx.latest_match_in_channel(channel_id)
                if row is None or row.status.is_open or row.updated_at > cutoff:
                    continue
                if await tx.open_chouette_in_channel(channel_id) is not None:
                    continue
                out.append(channel_id)
        return out

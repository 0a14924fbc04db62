"""When a game's thread may close (issue 29 item 8): the match played there ended a grace
period ago and nothing is open there now (no game, challenge or chouette table).  The
adapter archives such threads; the answer comes from what is stored, so it holds across
restarts and with several processes."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta

from bot.service.core.runner import ActionRunner


class Closing:
    def __init__(self, runner: ActionRunner) -> None:
        self.runner = runner

    async def finished(self, channel_ids: Iterable[int], grace: timedelta) -> list[int]:
        """Those of ``channel_ids`` whose last match ended at least ``grace`` ago and where
        nothing is open now (a channel that never had a match is not one of them)."""
        cutoff = (self.runner.clock() - grace).isoformat(timespec="milliseconds")
        out: list[int] = []
        async with self.runner.storage.snapshot() as tx:
            for channel_id in channel_ids:
                row = await tx.latest_match_in_channel(channel_id)
                if row is None or row.status.is_open or row.updated_at > cutoff:
                    continue
                if await tx.open_chouette_in_channel(channel_id) is not None:
                    continue
                out.append(channel_id)
        return out

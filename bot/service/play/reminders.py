"""Reminders to players who have been idle: each state of a match is reminded once,
cluster-wide (a conditional update decides which process sends it)."""

from __future__ import annotations

from datetime import timedelta

from bot.config import Config
from bot.service.core.replies import Mention, Notice, notice
from bot.service.core.runner import ActionRunner
from bot.service.core.spans import span
from engine.player import Player


class Reminders:
    def __init__(self, runner: ActionRunner, config: Config) -> None:
        self.runner = runner
        self.config = config

    async def due(self) -> list[tuple[int, Notice]]:
        """(channel id, notice) for each game idle longer than the reminder time."""
        minutes = self.config.timeouts.reminder_minutes
        if minutes <= 0:
            return []
        cutoff = (self.runner.clock() - timedelta(minutes=minutes)).isoformat(
            timespec="milliseconds")
        out: list[tuple[int, Notice]] = []
        async with self.runner.storage.transaction() as tx:
            for row in await tx.idle_matches(cutoff):
                loaded = await self.runner.load_row(tx, row)
                game = loaded.game
                if game is None or game.awaiting is None:
                    continue
                if not await tx.claim_reminder(row.id, row.version):
                    continue
                waiting = game.awaiting
                user = row.white_id if waiting is Player.WHITE else row.black_id
                who = loaded.names[waiting]
                out.append((row.channel_id, notice(
                    Mention(user, who),
                    f", it's your turn here (idle for {span(minutes)}). After "
                    f"{span(self.config.timeouts.claim_after_minutes)} your opponent "
                    "may claim the game.")))
        return out

"""Reminders to players who have been idle: each state of a match is reminded once,
cluster-wide (a conditional update decides which process sends it).  Each server's own
reminder and claim times apply (``/settings``), else the operator's."""

from __future__ import annotations

from datetime import timedelta

from bot.config import Config
from bot.service.core.replies import Mention, Notice, notice
from bot.service.core.runner import ActionRunner
from bot.service.core.spans import span
from bot.service.core.state import MatchState
from bot.service.settings.service import SettingsService
from engine.player import Player


class Reminders:
    def __init__(self, runner: ActionRunner, config: Config, *,
                 settings: SettingsService) -> None:
        self.runner = runner
        self.config = config
        self.settings = settings

    async def due(self) -> list[tuple[int, Notice]]:
        """(channel id, notice) for each game idle longer than its server's reminder time."""
        found = await self.settings.per_guild("reminder_minutes", "claim_after_minutes")
        default, minutes_of = found["reminder_minutes"]
        claim_default, claim_of = found["claim_after_minutes"]
        shortest = [m for m in (default, *minutes_of.values()) if m > 0]
        if not shortest:
            return []
        now = self.runner.clock()

        def before(minutes: float) -> str:
            return (now - timedelta(minutes=minutes)).isoformat(timespec="milliseconds")

        out: list[tuple[int, Notice]] = []
        async with self.runner.storage.transaction() as tx:
            for row in await tx.idle_matches(before(min(shortest))):
                minutes = minutes_of.get(row.guild_id, default)
                if minutes <= 0 or row.updated_at >= before(minutes):
                    continue  # this server reminds later, or never
                if MatchState.from_dict(row.state).answers_only:
                    continue  # the bot may not post there (a server without the bot)
                loaded = await self.runner.load_row(tx, row)
                game = loaded.game
                if game is None or game.awaiting is None:
                    continue
                if not await tx.claim_reminder(row.id, row.version):
                    continue
                waiting = game.awaiting
                user = row.white_id if waiting is Player.WHITE else row.black_id
                who = loaded.names[waiting]
                claim = claim_of.get(row.guild_id, claim_default)
                out.append((row.channel_id, notice(
                    Mention(user, who),
                    f", it's your turn here (idle for {span(minutes)}). After "
                    f"{span(claim)} your opponent may claim the game.")))
        return out

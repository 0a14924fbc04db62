"""Which game threads may close (issue 29 item 8): the last match there ended the grace
period ago and nothing is open there now; read from what is stored."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from race_table import BLACK, WHITE, ScriptedDice

from bot.config import Config
from bot.service.core.values import Place
from bot.service.game import GameService
from bot.storage.sqlite import SqliteStorage


async def test_finished_threads(tmp_path: Path) -> None:
    storage = SqliteStorage(tmp_path / "closing.sqlite3")
    await storage.open()
    offset = [timedelta(0)]
    service = GameService(storage, Config(), dice=ScriptedDice,
                          clock=lambda: datetime.now(UTC) + offset[0])
    try:
        done, playing, declined, empty = Place(1, 601), Place(1, 602), Place(1, 603), 604
        assert (await service.challenge(done, WHITE, BLACK, length=1)).ok
        assert (await service.accept(done, BLACK)).ok
        assert (await service.forfeit(done, BLACK)).ok
        assert (await service.challenge(playing, WHITE, BLACK, length=1)).ok
        assert (await service.challenge(declined, WHITE, BLACK, length=1)).ok
        assert (await service.decline(declined, BLACK)).ok
        channels = [601, 602, 603, empty]
        hour = timedelta(hours=1)
        assert await service.finished_threads(channels, hour) == []  # not yet
        offset[0] = timedelta(minutes=61)
        assert await service.finished_threads(channels, hour) == [601, 603]
        assert (await service.rematch(done, WHITE)).ok  # a game goes on there again
        assert await service.finished_threads(channels, hour) == [603]
    finally:
        await storage.close()

"""Which game threads may close (issue 29 item 8): the last match there ended the grace
period ago and nothing is open there now; read from what is stored.  The grace period is
each server's ``archive_after_minutes`` setting, the operator's by default."""

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
        channels = {601: 1, 602: 1, 603: 1, empty: 1}
        assert await service.finished_threads(channels) == []  # not yet (the default hour)
        offset[0] = timedelta(minutes=61)
        assert await service.finished_threads(channels) == [601, 603]
        assert (await service.rematch(done, WHITE)).ok  # a game goes on there again
        assert await service.finished_threads(channels) == [603]
    finally:
        await storage.close()


async def test_each_server_its_own_grace_period(tmp_path: Path) -> None:
    """``/settings set archive_after_minutes``: a server that chose 0 keeps its threads, one
    that chose 10 minutes closes them after 10, the others after the operator's hour."""
    from bot.service.core.values import Actor

    storage = SqliteStorage(tmp_path / "grace.sqlite3")
    await storage.open()
    offset = [timedelta(0)]
    service = GameService(storage, Config(), dice=ScriptedDice,
                          clock=lambda: datetime.now(UTC) + offset[0])
    admin = Actor(900, "admin")
    try:
        never, soon, default = Place(7, 701), Place(8, 801), Place(9, 901)
        for place in (never, soon, default):
            assert (await service.challenge(place, WHITE, BLACK, length=1)).ok
            assert (await service.decline(place, BLACK)).ok
        said = await service.settings.set(never, admin, "archive_after_minutes", "0",
                                          manage_server=True)
        assert said.ok, said.text
        said = await service.settings.set(soon, admin, "archive_after_minutes", "10",
                                          manage_server=True)
        assert said.ok, said.text
        refused = await service.settings.set(soon, admin, "archive_after_minutes", "30d",
                                             manage_server=True)
        assert not refused.ok and "0 (never) or a time from 1 minute to 7 days" in refused.text
        channels = {701: 7, 801: 8, 901: 9}
        offset[0] = timedelta(minutes=11)
        assert await service.finished_threads(channels) == [801]
        offset[0] = timedelta(days=30)
        assert await service.finished_threads(channels) == [801, 901]
    finally:
        await storage.close()

"""A challenge checked without being made (issue 29 item 5): ``dry_run`` answers the
refusal the real challenge would give, or ``ok`` with nothing stored, so the Discord
adapter opens a thread only for a challenge that stands."""

from __future__ import annotations

from pathlib import Path

from race_table import BLACK, WHITE, make_service

from bot.service.core.values import Actor, Place
from bot.storage.sqlite import SqliteStorage

HERE = Place(1, 501)


async def test_dry_run_refuses_as_the_challenge_would_and_stores_nothing(
        tmp_path: Path) -> None:
    storage = SqliteStorage(tmp_path / "dry.sqlite3")
    await storage.open()
    try:
        service = make_service(storage)
        robot = Actor(9, "robot", is_bot=True)
        cases = [dict(opponent=BLACK, length=3, rules={"jacoby": True}),
                 dict(opponent=WHITE), dict(opponent=robot),
                 dict(opponent=BLACK, level="strong"), dict(opponent=BLACK, variant="chess"),
                 dict(opponent=BLACK, length=3, stake=1)]
        for case in cases:
            opponent = case.pop("opponent")
            checked = await service.challenge(HERE, WHITE, opponent, dry_run=True, **case)
            made = await service.challenge(HERE, WHITE, opponent, **case)
            assert not checked.ok and not made.ok
            assert checked.text == made.text
        checked = await service.challenge(HERE, WHITE, BLACK, length=3, dry_run=True)
        assert checked.ok and checked.match_id is None
        async with storage.db.execute("SELECT COUNT(*) FROM matches") as cur:
            assert (await cur.fetchone()) == (0,)
        assert (await service.challenge(HERE, WHITE, BLACK, length=3)).ok
    finally:
        await storage.close()

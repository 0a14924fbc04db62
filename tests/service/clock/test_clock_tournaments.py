"""Tournaments can be played on a clock; a chouette has none (issue 44 item 8)."""

from __future__ import annotations

from pathlib import Path

from clock_time import Time
from scripted import Script, opened
from tournament_play import HALL, ORGANISER, create, open_all, open_matches

from bot.config import Config
from bot.service.game import GameService
from bot.storage.interface import MatchStatus


async def test_a_tournament_on_a_clock(tmp_path: Path) -> None:
    time = Time()
    service = GameService(await opened(tmp_path / "t.sqlite3"), Config(),
                          dice=Script(then="0123456789abcdef"), clock=time)
    bad = await service.tournament_create(HALL, ORGANISER, is_organiser=True, name="Cup",
                                          format="single-elimination", clock="lightning")
    assert not bad.ok and "not a clock" in bad.text
    tid = await create(service, 2, "single-elimination", length="1", clock="1s+4s/pt")
    listing = await service.tournament_status(HALL, tid)
    assert listing.ok
    await service.clocks.beat(int(time.now.timestamp() * 1000))
    assert (await service.tournament_start(HALL, ORGANISER, is_organiser=True)).ok
    (opened_reply,) = await open_all(service)
    assert "0:04, p" in "".join(
        p if isinstance(p, str) else "" for line in opened_reply.notify for p in line)
    (match,) = (await open_matches(service, tid)).values()
    async with service.storage.snapshot() as tx:
        clock = await tx.match_clock(match.id)
    assert clock is not None and (clock.spec, clock.white_ms) == ("1s+4s/pt", 4_000)
    posts = []
    while time.seconds < 8:
        time.at(time.seconds + 0.25)
        posts += await service.due_work()
    assert len(posts) == 1 and "time ran out" in posts[0][1].text
    async with service.storage.snapshot() as tx:
        done = await tx.get_match(match.id)
    assert done is not None and done.status is MatchStatus.FINISHED


async def test_the_signup_says_the_clock(tmp_path: Path) -> None:
    service = GameService(await opened(tmp_path / "t.sqlite3"), Config())
    made = await service.tournament_create(HALL, ORGANISER, is_organiser=True, name="Cup",
                                           format="swiss", length="3", clock="usbgf")
    assert made.ok and "clock: usbgf (12 s a decision + 2 min a point)." in made.text


async def test_a_chouette_says_it_has_no_clock(tmp_path: Path) -> None:
    service = GameService(await opened(tmp_path / "t.sqlite3"), Config())
    assert (await service.settings_set(HALL, ORGANISER, "clock", "usbgf",
                                       manage_server=True)).ok
    opened_table = await service.chouette.open(HALL, ORGANISER)
    assert opened_table.ok, opened_table.text
    assert "A chouette is played without a clock" in opened_table.text

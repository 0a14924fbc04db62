"""Issue 42 item 10: a tournament's deadlines are a value (:class:`Moment`) the service
hands over, never a raw ISO timestamp; Discord writes its timestamp markup (each reader's
time zone, counting down), the console a readable local time."""

from __future__ import annotations

import io
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

from scripted import Script, opened
from tournament_play import HALL, ORGANISER, create, open_all, player

from bot.adapters.console import Console
from bot.adapters.discord.convert import notice_text
from bot.config import Config
from bot.service.core.replies import Mention, Moment, Notice, Reply, notice, plain
from bot.service.game import GameService

ISO = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d")
START = datetime(2030, 1, 1, tzinfo=UTC)


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        return self.now


def moments(reply: Reply) -> list[tuple[Notice, Moment]]:
    return [(line, part) for line in reply.notify for part in line
            if isinstance(part, Moment)]


def no_raw_time(reply: Reply) -> None:
    assert not ISO.search(reply.text) and "(UTC)" not in reply.text, reply.text
    for line in reply.notify:
        assert not any(isinstance(p, str) and ISO.search(p) for p in line), line


async def test_the_service_speaks_the_deadline_as_a_moment(tmp_path: Path) -> None:
    clock = Clock()
    storage = await opened(tmp_path / "bg.sqlite3")
    service = GameService(storage, Config(), dice=Script(then="3f1a9c52e7b4d0862b5e"),  # type: ignore[arg-type]
                          clock=clock)
    await create(service, 2, "single-elimination", round_hours=24)
    started = await service.tournament_start(HALL, ORGANISER, is_organiser=True)
    assert started.ok
    no_raw_time(started)
    ((line, moment),) = moments(started)
    assert moment.at == START + timedelta(hours=24)
    assert plain(line) == "The round's deadline: Wed 2 Jan 2030, 00:00 UTC."
    status = await service.tournament_status(HALL)
    no_raw_time(status)
    assert [m.at for _, m in moments(status)] == [START + timedelta(hours=24)]
    await open_all(service)
    early = await service.tournament_claim(HALL, player(1))
    assert not early.ok and "only after its deadline" in early.text
    no_raw_time(early)
    assert [m.at for _, m in moments(early)] == [START + timedelta(hours=24)]
    assert (await service.tournament_pause(HALL, ORGANISER, is_organiser=True)).ok
    clock.now += timedelta(hours=5)
    resumed = await service.tournament_resume(HALL, ORGANISER, is_organiser=True)
    no_raw_time(resumed)
    assert [m.at for _, m in moments(resumed)] == [START + timedelta(hours=29)]
    clock.now += timedelta(hours=20)  # the reminder, 12 hours before the deadline
    ((_, reminder),) = await service.tournament_due()
    assert Moment(START + timedelta(hours=29)) in reminder
    assert not any(isinstance(p, str) and ISO.search(p) for p in reminder)


def test_discord_writes_its_timestamp_markup() -> None:
    at = datetime(2026, 11, 28, 8, 38, 59, tzinfo=UTC)
    stamp = int(at.timestamp())
    line = notice(Mention(5, "bob"), ": your match must end by ", Moment(at), ".")
    assert notice_text(line) == (f"<@5>: your match must end by <t:{stamp}:f> "
                                 f"(<t:{stamp}:R>).")


async def test_the_console_writes_a_readable_local_time(tmp_path: Path) -> None:
    storage = await opened(tmp_path / "c.sqlite3")
    console = Console(GameService(storage, Config()), tmp_path / "boards",  # type: ignore[arg-type]
                      out=io.StringIO())
    at = datetime(2026, 11, 28, 8, 38, 59, tzinfo=UTC)
    text = console.text_of(notice("The round's deadline: ", Moment(at), "."))
    local = at.astimezone()
    assert text == (f"The round's deadline: {local:%a} {local.day} {local:%b %Y}, "
                    f"{local:%H:%M} {local.tzname()}.")
    assert not ISO.search(text)


async def test_the_moment_sign_up_closes_is_a_moment_too(tmp_path: Path) -> None:
    """The sign-up message said "Sign-up closes at 2030-01-01T06:00:00.000+00:00 (UTC)."
    (a raw timestamp in Discord too): now a Moment, in the reply that posts it and in the
    lines the Discord adapter edits it with as players join."""
    clock = Clock()
    storage = await opened(tmp_path / "bg.sqlite3")
    service = GameService(storage, Config(), dice=Script(then="3f1a9c52e7b4d0862b5e"),  # type: ignore[arg-type]
                          clock=clock)
    made = await service.tournament_create(HALL, ORGANISER, is_organiser=True, name="Cup",
                                           format="single-elimination", signup_hours=6)
    assert made.ok and made.tournament_id is not None
    no_raw_time(made)
    ((line, moment),) = moments(made)
    assert moment.at == START + timedelta(hours=6)
    assert plain(line) == "Sign-up closes Tue 1 Jan 2030, 06:00 UTC."
    assert notice_text(line) == f"Sign-up closes <t:{int(moment.at.timestamp())}:f> " \
        f"(<t:{int(moment.at.timestamp())}:R>)."
    assert (await service.tournament_join(HALL, player(1))).ok
    lines = await service.tournament_signup_text(HALL, made.tournament_id)
    assert lines is not None and lines[-1] == line
    assert "Signed up: 1" in "\n".join(plain(x) for x in lines)
    assert not any(isinstance(p, str) and ISO.search(p) for x in lines for p in x)

"""Open challenges (issue 44 item 1): /challenge without an opponent, an Accept anyone but
the challenger may press, exactly one acceptance when several press at once (SQLite and
PostgreSQL, two processes), expiry (``open_challenge_minutes``), withdrawal, rating range."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from backends import Backend
from backends import backend as backend_named
from clock_time import ALICE, BOB, HERE, Time
from scripted import Script, opened

from bot.config import Config
from bot.service.core.replies import Action, Countdown
from bot.service.core.values import Actor, Expect, Place
from bot.service.game import GameService
from bot.storage.interface import MatchStatus

CAROL = Actor(3, "carol")
DICE = [3, 1]


def service_on(storage: Any, time: Time) -> GameService:
    return GameService(storage, Config(), dice=Script(DICE, then="0123456789abcdef"),
                       clock=time)


async def make(tmp_path: Path, time: Time) -> GameService:
    return service_on(await opened(tmp_path / "bg.sqlite3"), time)


async def latest(service: GameService) -> Any:
    async with service.storage.snapshot() as tx:
        return await tx.latest_match_in_channel(HERE.channel_id)


async def test_an_open_challenge_is_taken_by_the_first_who_accepts(tmp_path: Path) -> None:
    time = Time()
    service = await make(tmp_path, time)
    posted = await service.challenge(HERE, ALICE, None, length=3)
    assert posted.ok, posted.text
    assert posted.text.startswith("alice posts an open challenge: a 3-point match")
    assert [(b.action, b.users) for b in posted.buttons] == [
        (Action.ACCEPT, ()), (Action.CANCEL, (ALICE.id,))]  # anyone; the challenger's own
    (line,) = posted.notify
    assert "Anyone but alice may press Accept; it expires " in "".join(
        p if isinstance(p, str) else "" for p in line)
    assert [p.text for p in line if isinstance(p, Countdown)] == ["in 30 minutes"]  # the default
    mine = await service.accept(HERE, ALICE)
    assert not mine.ok and "You posted this open challenge: anyone else may accept it" in (
        mine.text)
    declined = await service.decline(HERE, BOB)
    assert not declined.ok and "An open challenge is not declined" in declined.text
    taken = await service.accept(HERE, CAROL)
    assert taken.ok and "carol accepts." in taken.text, taken.text
    row = await latest(service)
    assert (row.status, row.white_id, row.black_id) == (MatchStatus.ACTIVE, ALICE.id, CAROL.id)
    assert taken.boards and "alice" in taken.text
    late = await service.accept(HERE, BOB, Expect(posted.version, posted.match_id))  # type: ignore[arg-type]
    assert not late.ok and "carol accepted alice's challenge first" in late.text
    moved = await service.move(HERE, ALICE, "8/5 6/5")  # and the game is played here
    assert moved.ok, moved.text


async def test_the_message_says_who_took_it(tmp_path: Path) -> None:
    service = await make(tmp_path, Time())
    posted = await service.challenge(HERE, ALICE, None, stake=1)
    assert posted.ok and posted.version is not None and posted.match_id is not None
    noted = await service.challenge_posted(HERE, ALICE, Expect(posted.version, posted.match_id),
                                           555)
    assert [(b.label, b.users) for b in noted.buttons] == [("Accept", ()),
                                                           ("Withdraw", (ALICE.id,))]
    taken = await service.accept(HERE, BOB, Expect(noted.version, posted.match_id))  # type: ignore[arg-type]
    assert taken.ok, taken.text
    (retired,) = taken.retire
    assert retired.message.message_id == 555
    assert retired.text == "alice's open challenge was taken by bob: the game is played here."


async def test_an_open_challenge_expires(tmp_path: Path) -> None:
    time = Time()
    service = await make(tmp_path, time)
    assert (await service.settings_set(HERE, ALICE, "open_challenge_minutes", "1",
                                       manage_server=True)).ok
    posted = await service.challenge(HERE, ALICE, None, length=1)
    assert posted.ok
    time.at(59)
    assert await service.due_work() == []
    time.at(61)
    late = await service.accept(HERE, BOB)  # after the expiry, before the timer looked
    assert not late.ok and "alice's open challenge has expired" in late.text
    posts = await service.due_work()
    assert [(c, r.text) for c, r in posts] == [(HERE.channel_id, (
        "alice's open challenge expired: nobody accepted it within 1 minute. /challenge "
        "(no opponent) posts another."))]
    assert (await latest(service)).status is MatchStatus.CANCELLED
    assert await service.due_work() == []  # once
    again = await service.accept(HERE, BOB)
    assert not again.ok and "no challenge waiting" in again.text


async def test_withdrawn_by_its_challenger(tmp_path: Path) -> None:
    service = await make(tmp_path, Time())
    assert (await service.challenge(HERE, ALICE, None, length=1)).ok
    assert not (await service.cancel(HERE, BOB)).ok
    withdrawn = await service.cancel(HERE, ALICE)
    assert withdrawn.ok and "alice withdraws the challenge." in withdrawn.text
    assert (await latest(service)).status is MatchStatus.CANCELLED


async def test_a_rated_one_may_name_a_rating_range(tmp_path: Path) -> None:
    service = await make(tmp_path, Time())
    assert (await service.challenge(HERE, ALICE, None, length=1, low=1600)).ok
    outside = await service.accept(HERE, BOB)
    assert not outside.ok and ("alice's open challenge is for ratings from 1600 to 10000, "
                               "and yours here is 1500") in outside.text
    assert (await service.cancel(HERE, ALICE)).ok
    assert (await service.challenge(HERE, ALICE, None, length=1, low=1400, high=1550)).ok
    assert (await service.accept(HERE, BOB)).ok
    unrated = await service.challenge(Place(7, 71), ALICE, None, length=1, rated=False,
                                      high=1600)
    assert not unrated.ok and "A rating range is for a rated challenge" in unrated.text
    empty = await service.challenge(Place(7, 72), ALICE, None, low=1600, high=1500)
    assert not empty.ok and "is empty" in empty.text


async def test_an_open_challenge_needs_a_server(tmp_path: Path) -> None:
    service = await make(tmp_path, Time())
    reply = await service.challenge(Place.direct(99), ALICE, None, length=1)
    assert not reply.ok and "challenge the other person by name" in reply.text


@pytest.fixture(params=["sqlite", "postgres"])
async def backend(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Backend]:
    async with backend_named(request.param, tmp_path) as b:
        yield b


async def test_several_press_accept_at_once_one_wins(backend: Backend) -> None:
    time = Time()
    a = service_on(await backend.open(), time)
    b = service_on(await backend.open(), time)  # a second process on the same database
    posted = await a.challenge(HERE, ALICE, None, length=3)
    assert posted.ok and posted.version is not None
    expect = Expect(posted.version, posted.match_id)
    dave, erin = Actor(4, "dave"), Actor(5, "erin")
    replies = await asyncio.gather(a.accept(HERE, BOB, expect), b.accept(HERE, CAROL, expect),
                                   a.accept(HERE, dave, expect), b.accept(HERE, erin, expect))
    won = [r for r in replies if r.ok]
    assert len(won) == 1, [r.text for r in replies]
    row = await latest(a)
    taker = {BOB.id: "bob", CAROL.id: "carol", 4: "dave", 5: "erin"}[row.black_id]
    assert f"{taker} accepts." in won[0].text
    for lost in (r for r in replies if not r.ok):  # told privately who took it
        assert lost.ephemeral and f"{taker} accepted alice's challenge first" in lost.text


async def test_in_progress_names_an_open_challenge_as_one(tmp_path: Path) -> None:
    service = await make(tmp_path, Time())
    assert (await service.challenge(HERE, ALICE, None, length=1)).ok
    assert await service.in_progress(HERE.guild_id) == [
        (HERE.channel_id, "alice's open challenge (anyone may accept it)")]


async def test_the_lobbys_buttons_accept_where_the_challenge_waits(tmp_path: Path) -> None:
    """Issue 44 item 3: /lobby offers an Accept per open challenge of someone else and a
    Join; an Accept pressed in another channel accepts where the challenge waits."""
    time = Time()
    service = await make(tmp_path, time)
    assert (await service.challenge(HERE, ALICE, None, length=3)).ok
    row = await latest(service)
    lobby_room = Place(HERE.guild_id, 71)
    listed = await service.queue.lobby(lobby_room, CAROL)
    assert listed.lobby is not None
    assert listed.lobby.accept == ((row.id, row.version, "Accept alice's"),)
    assert listed.lobby.join == ((3, "", "", True, "Join the queue"),)
    own = await service.queue.lobby(HERE, ALICE)
    assert own.lobby is not None and own.lobby.accept == ()  # not her own challenge
    elsewhere = await service.open_challenges.accept_listed(
        Place(HERE.guild_id + 1, 72), CAROL, row.id, row.version)
    assert not elsewhere.ok and "not on this server" in elsewhere.text
    taken = await service.open_challenges.accept_listed(lobby_room, CAROL, row.id, row.version)
    assert taken.ok and "carol accepts." in taken.text, taken.text
    assert taken.channel_ref == HERE.channel_id  # the game is played where it waited
    assert (await latest(service)).black_id == CAROL.id
    late = await service.open_challenges.accept_listed(lobby_room, BOB, row.id, row.version)
    assert not late.ok and "carol accepted alice's challenge first" in late.text

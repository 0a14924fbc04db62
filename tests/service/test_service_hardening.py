"""Issue 16 items 4-8: ids out of range, a chouette in a channel of another server,
unbounded echoes, the loser of a racing /take, and /claim over one's own resignation
offer.  Each test failed on the code before its fix."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from race_table import BLACK, DICE, PLACE, SPECTATOR, WHITE, ScriptedDice, make_service
from scripted import Script, opened

from bot.adapters.console import Console
from bot.config import Config
from bot.service.core.replies import Reply
from bot.service.core.values import Actor, Place
from bot.service.game import GameService

HUGE = 2**63  # one past the signed 64-bit range of every id column
HERE = Place(1, 40)
HUGE_PLACES = (Place(HUGE, 40), Place(1, HUGE), Place(-1, 40))
HUGE_USER = Actor(HUGE, "huge")
ECHO = 1000  # no reply quoting a user's value is longer than this


async def started(tmp_path: Path, name: str = "h.sqlite3") -> GameService:
    service = make_service(await opened(tmp_path / name))
    assert (await service.challenge(PLACE, WHITE, BLACK, stake=1)).ok
    assert (await service.accept(PLACE, BLACK)).ok  # white plays 3-1 (race_table.DICE)
    return service


# -- item 4: ids outside the 64-bit range ------------------------------------------------

LOOKS: dict[str, Callable[[GameService, Place, Actor], Awaitable[Reply]]] = {
    "board": lambda s, p, a: s.board(p, a),
    "hint": lambda s, p, a: s.hint(p, a),
    "analyze": lambda s, p, a: s.analyze(p, a),
    "leaderboard": lambda s, p, a: s.leaderboard(p, a, "money"),
    "stats": lambda s, p, a: s.stats(p, a),
    "stats of a user": lambda s, p, a: s.stats(PLACE, WHITE, a if a.id == HUGE else HUGE_USER),
    "export": lambda s, p, a: s.export(p, a),
    "verify": lambda s, p, a: s.verify(p, a),
    "roll": lambda s, p, a: s.roll(p, a),
    "challenge": lambda s, p, a: s.challenge(p, a, SPECTATOR),
    "challenge a huge id": lambda s, p, a: s.challenge(PLACE, WHITE, HUGE_USER),
    "chouette open": lambda s, p, a: s.chouette.open(p, a),
    "chouette join": lambda s, p, a: s.chouette.join(p, a),
    "chouette status": lambda s, p, a: s.chouette.status(p, a),
    "chouette suggest": lambda s, p, a: s.chouette.suggest(p, a, "13/7"),
    "chouette start": lambda s, p, a: s.chouette.start(p, a),
    "chouette leave": lambda s, p, a: s.chouette.leave(p, a),
}


@pytest.mark.parametrize("entry", sorted(LOOKS))
async def test_every_entry_refuses_ids_outside_the_range(tmp_path: Path, entry: str) -> None:
    service = await started(tmp_path)
    call = LOOKS[entry]
    for place, actor in [*((p, WHITE) for p in HUGE_PLACES), (PLACE, HUGE_USER)]:
        reply = await call(service, place, actor)
        assert not reply.ok and reply.ephemeral, (entry, place, actor, reply.text)
        assert "id is not valid: ids are whole numbers from 0 to" in reply.text, reply.text


async def test_suggestions_offer_nothing_for_ids_outside_the_range(tmp_path: Path) -> None:
    service = await started(tmp_path)
    assert await service.suggestions(PLACE, WHITE, "")  # the live game's plays
    for place in HUGE_PLACES:
        assert await service.suggestions(place, WHITE, "") == []
    assert await service.suggestions(PLACE, HUGE_USER, "") == []


# -- item 5: a chouette in a channel id another server uses ------------------------------

async def test_chouette_open_where_another_server_has_one_is_refused(tmp_path: Path) -> None:
    service = make_service(await opened(tmp_path / "c.sqlite3"))
    assert (await service.chouette.open(Place(1, 500), WHITE)).ok
    refused = await service.chouette.open(Place(2, 500), BLACK)
    assert not refused.ok and refused.ephemeral
    assert "This channel already has a chouette table" in refused.text
    # As /challenge does in the same place.
    assert "chouette table" in (await service.challenge(Place(2, 500), BLACK, WHITE)).text


# -- item 6: every quoted value is capped --------------------------------------------------

ECHOES: dict[str, Callable[[GameService], Awaitable[Reply]]] = {
    "chouette refusal": lambda s: s.chouette.open(HERE, WHITE, refusal="x" * 1_000_000),
    "chouette captain_refusal": lambda s: s.chouette.open(HERE, WHITE,
                                                          captain_refusal="x" * 100_000),
    "chouette variant": lambda s: s.chouette.open(HERE, WHITE, variant="v" * 100_000),
    "chouette option name": lambda s: s.chouette.open(HERE, WHITE, rules={"n" * 100_000: "1"}),
    "chouette option value": lambda s: s.chouette.open(HERE, WHITE,
                                                       rules={"max_cube": "9" * 100_000}),
    "chouette many options": lambda s: s.chouette.open(
        HERE, WHITE, rules={f"opt{i}": "on" for i in range(10_000)}),
    "rules variant": lambda s: s.rules("r" * 1_000_000),
    "verify game id": lambda s: s.verify(HERE, WHITE, 10**5000),
}


@pytest.mark.parametrize("entry", sorted(ECHOES))
async def test_quoted_values_are_capped(tmp_path: Path, entry: str) -> None:
    service = make_service(await opened(tmp_path / "e.sqlite3"))
    reply = await ECHOES[entry](service)
    assert not reply.ok and reply.ephemeral
    assert 0 < len(reply.text) <= ECHO, (entry, len(reply.text))


async def test_console_caps_the_chouette_and_rules_echoes(tmp_path: Path) -> None:
    out = io.StringIO()
    console = Console(make_service(await opened(tmp_path / "k.sqlite3")), tmp_path / "boards",
                      out=out)
    await console.handle("alice: /chouette open refusal=" + "x" * 200_000)
    await console.handle("alice: /chouette open " + "k" * 100_000 + "=on")
    await console.handle("alice: /chouette open stake=²")
    await console.handle("alice: /rules " + "r" * 200_000)
    text = out.getvalue()
    assert "too long" in text and "whole numbers" in text
    assert len(text) < 4 * ECHO and "Traceback" not in text


# -- item 7: the loser of a racing /take -------------------------------------------------

async def test_a_second_take_is_told_who_took_the_double(tmp_path: Path) -> None:
    path = tmp_path / "r.sqlite3"
    service = await started(tmp_path, "r.sqlite3")
    assert (await service.move(PLACE, WHITE, "8/5 6/5")).ok
    assert (await service.double(PLACE, BLACK)).ok  # 002 'DOUBLING': bob doubles, alice answers
    # Two processes on one database: the same /take arrives twice at once.
    other = GameService(await opened(path), Config(), dice=ScriptedDice)
    first, second = await asyncio.gather(service.take(PLACE, WHITE), other.take(PLACE, WHITE))
    assert sorted((first.ok, second.ok)) == [False, True]
    loser = second if first.ok else first
    assert loser.ephemeral
    assert loser.text == ("There is no double to answer: alice already took it, and the "
                          "cube is at 2.")
    late_drop = await service.drop(PLACE, WHITE)
    assert "alice already took it" in late_drop.text and not late_drop.ok
    assert DICE  # the scripted dice of race_table are the ones played


# -- item 8: /claim over one's own unanswered resignation offer ---------------------------

async def test_who_offered_to_resign_cannot_claim_the_unanswered_offer(tmp_path: Path) -> None:
    now = [datetime(2025, 1, 1, tzinfo=UTC)]
    storage = await opened(tmp_path / "claim.sqlite3")
    service = GameService(storage, Config(), dice=Script([3, 1], then="52a4"),
                          clock=lambda: now[0])
    assert (await service.challenge(HERE, WHITE, BLACK, length=3)).ok
    assert (await service.accept(HERE, BLACK)).ok
    assert (await service.move(HERE, WHITE, "8/5 6/5")).ok
    offer = await service.resign(HERE, BLACK, "single")  # bob offers; alice must answer
    assert offer.ok, offer.text
    now[0] += timedelta(hours=25)  # alice stays silent past the claim time
    claim = await service.claim(HERE, BLACK)
    assert not claim.ok and claim.ephemeral
    assert "whoever offered to resign can't claim the game while the offer stands" in claim.text
    assert "/forfeit" in claim.text
    board = await service.board(HERE, SPECTATOR)
    assert board.ok and "0" in board.text and "wins" not in board.text
    # The offer still waits; alice can still accept it.
    accepted = await service.answer_resignation(HERE, WHITE, True)
    assert accepted.ok and "alice accepts the resignation" in accepted.text


# -- item 9: commands typed in the channel whose thread holds the game -------------------

PARENT = Place(1, 600)
THREAD = Place(1, 601, parent_id=600)
THREAD_2 = Place(1, 602, parent_id=600)


async def test_accept_in_the_parent_channel_answers_the_challenge_in_its_thread(
        tmp_path: Path) -> None:
    service = make_service(await opened(tmp_path / "t.sqlite3"))
    assert (await service.challenge(THREAD, WHITE, BLACK, length=3)).ok
    board = await service.board(PARENT, BLACK)
    assert not board.ok and board.channel_ref == THREAD.channel_id
    assert board.text == "alice's challenge to you waits in its thread:"
    accepted = await service.accept(PARENT, BLACK)  # the only challenge waiting for bob
    assert accepted.ok, accepted.text
    assert "bob accepts" in accepted.text
    async with service.storage.snapshot() as tx:
        row = await tx.open_match_in_channel(THREAD.channel_id)
        assert row is not None and row.status == "active"
        assert await tx.open_match_in_channel(PARENT.channel_id) is None
    # Other commands in the parent point to the thread; a spectator hears the usual.
    for reply in (await service.move(PARENT, WHITE, "8/5 6/5"), await service.board(
            PARENT, WHITE)):
        assert not reply.ok and reply.ephemeral and reply.channel_ref == THREAD.channel_id
        assert reply.text == "Your game with bob is played in its thread:"
    assert (await service.board(PARENT, SPECTATOR)).text.startswith("There is no game")
    assert (await service.move(THREAD, WHITE, "8/5 6/5")).ok  # the game itself is there


async def test_decline_in_the_parent_and_two_challenges_point_to_the_latest(
        tmp_path: Path) -> None:
    service = make_service(await opened(tmp_path / "d.sqlite3"))
    assert (await service.challenge(THREAD, WHITE, BLACK, length=3)).ok
    assert (await service.challenge(THREAD_2, SPECTATOR, BLACK, length=1)).ok
    two = await service.accept(PARENT, BLACK)  # which one? neither: say where they are
    assert not two.ok and two.channel_ref == THREAD_2.channel_id
    assert two.text.startswith("You have 2 games or challenges in threads of this channel.")
    assert (await service.decline(THREAD_2, BLACK)).ok
    declined = await service.decline(PARENT, BLACK)  # now one waits: decline it
    assert declined.ok and "bob declines the challenge" in declined.text
    gone = await service.accept(PARENT, BLACK)
    # Issue 30 item 12: a challenge is what /accept looks for.
    assert not gone.ok and gone.text.startswith("There is no challenge waiting in this channel")


async def test_console_writes_the_thread_a_reply_points_to(tmp_path: Path) -> None:
    out = io.StringIO()
    service = make_service(await opened(tmp_path / "k.sqlite3"))
    console = Console(service, tmp_path / "boards", out=out)
    await console.handle("/channel alice-vs-bob")
    home = console.place
    assert (await service.challenge(Place(home.guild_id, home.channel_id,
                                          parent_id=PARENT.channel_id), WHITE, BLACK)).ok
    await console.show(await service.board(PARENT, BLACK))
    assert "alice's challenge to you waits in its thread: #alice-vs-bob" in out.getvalue()

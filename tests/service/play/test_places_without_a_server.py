"""Places without a server (issue 32 items 2 and 3): a DM or a group DM is a place of its
own, a channel with the personal scope.  Matches and money play go on there as anywhere
(rated games count toward the players' personal ratings, shown on /stats), and what needs
a server (chouette, tournaments, the leaderboard, claims by time and reminders, /settings,
puzzles) is refused there with the reason and what can be done instead."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import pytest

from bot.config import Config
from bot.service.core.replies import Reply
from bot.service.core.values import PERSONAL, Actor, Place, PlaceKind
from bot.service.game import GameService
from bot.storage.sqlite import SqliteStorage

ALICE = Actor(11, "alice")
BOB = Actor(12, "bob")
CAROL = Actor(13, "carol")
DM = Place.direct(9001)
GROUP = Place.direct(9002, group=True)
SERVER = Place(5, 77)


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[GameService]:
    storage = SqliteStorage(tmp_path / "places.sqlite3")
    await storage.open()
    yield GameService(storage, Config())
    await storage.close()


async def play_out(service: GameService, place: Place, players: tuple[Actor, Actor], *,
                   double_once: bool = False, limit: int = 2000) -> str:
    """Both players press what the board offers (a double once, taken, when asked) until
    the match is over; the text of every reply."""
    text, doubled = "", False
    for _ in range(limit):
        board = await service.board(place, players[0])
        if not board.ok:
            return text
        offered = {(b.action.value, u) for b in board.buttons for u in b.users}
        ids = {p.id: p for p in players}
        reply: Reply | None = None
        for action, user in sorted(offered, key=lambda o: o[0]):
            actor = ids.get(user)
            if actor is None:
                continue
            if action == "take":
                reply = await service.take(place, actor)
            elif action == "double" and double_once and not doubled:
                doubled = True
                reply = await service.double(place, actor)
            elif action == "roll":
                reply = await service.roll(place, actor)
            elif action == "accept-resignation":
                reply = await service.answer_resignation(place, actor, True)
            elif action == "confirm":
                reply = await service.confirm(place, actor)
            if reply is not None:
                break
        if reply is None:
            for player in players:
                plays = await service.suggestions(place, player, "")
                if plays:
                    reply = await service.move(place, player, plays[0])
                    break
            assert reply is not None, board.text
        assert reply.ok, reply.text
        text += reply.text + "\n"
    raise AssertionError("the match did not end")


def test_a_place_without_a_server_is_its_own_kind() -> None:
    assert DM.kind is PlaceKind.DM and GROUP.kind is PlaceKind.GROUP_DM
    assert DM.guild_id == GROUP.guild_id == PERSONAL and not DM.in_server
    assert SERVER.in_server and SERVER.kind is PlaceKind.SERVER
    with pytest.raises(ValueError):
        Place(5, 1, kind=PlaceKind.DM)  # a DM never belongs to a server


async def test_a_server_place_with_the_personal_scope_id_is_refused(
        service: GameService) -> None:
    reply = await service.challenge(Place(PERSONAL, 1), ALICE, BOB, length=1)
    assert not reply.ok and reply.ephemeral and "server id is not valid" in reply.text


@pytest.mark.parametrize("place", [DM, GROUP], ids=["dm", "group-dm"])
async def test_a_rated_match_counts_toward_the_personal_rating(
        service: GameService, place: Place) -> None:
    assert (await service.challenge(place, ALICE, BOB, length=3)).ok
    assert (await service.accept(place, BOB)).ok
    log = await play_out(service, place, (ALICE, BOB), double_once=True)
    assert "wins the 3-point match" in log
    assert "doubles" in log and "takes" in log, log
    async with service.storage.snapshot() as tx:
        row = await tx.latest_match_in_channel(place.channel_id)
        assert row is not None and row.status == "finished" and row.rated
        assert row.guild_id == PERSONAL and row.place_kind == place.kind.value
        personal = [await tx.rating(PERSONAL, p.id) for p in (ALICE, BOB)]
        assert all(r.experience > 0 for r in personal)
        assert {r.rating > 1500 for r in personal} == {True, False}
        # No server's rating moved.
        assert (await tx.rating(SERVER.guild_id, ALICE.id)).experience == 0
    here = await service.stats(place, ALICE)
    assert here.ok and "personal rating (games outside servers)" in here.text
    assert "personal rating" in here.pictures[0].alt_text
    # On a server's /stats card the personal rating is a line of its own.
    there = await service.stats(SERVER, ALICE)
    assert there.ok and "\npersonal rating (games outside servers): " in there.text
    assert "personal rating (games outside servers)" in there.pictures[0].alt_text


async def test_money_play_in_a_group_dm_keeps_a_personal_ledger(service: GameService) -> None:
    assert (await service.challenge(GROUP, ALICE, CAROL, stake=5)).ok
    assert (await service.accept(GROUP, CAROL)).ok
    resign = await service.forfeit(GROUP, CAROL)
    assert resign.ok, resign.text
    async with service.storage.snapshot() as tx:
        stats = await tx.user_stats(PERSONAL, ALICE.id)
        server = await tx.user_stats(SERVER.guild_id, ALICE.id)
    assert stats["balance"] > 0 and server["balance"] == 0


async def test_history_export_verify_replay_rules_and_hints_work_in_a_dm(
        service: GameService) -> None:
    assert (await service.challenge(DM, ALICE, BOB, length=1, rated=False)).ok
    assert (await service.accept(DM, BOB)).ok
    await play_out(service, DM, (ALICE, BOB))
    for reply in (await service.history(DM, ALICE), await service.export(DM, ALICE),
                  await service.verify(DM, ALICE, 1), await service.replay(DM, ALICE),
                  await service.rules(None, DM)):
        assert reply.ok, reply.text
    assert (await service.export(DM, ALICE, "sgf")).ok


async def test_what_needs_a_server_is_refused_with_the_reason(service: GameService) -> None:
    refusals = {
        "chouette": await service.chouette.open(DM, ALICE),
        "chouette join": await service.chouette.join(GROUP, BOB),
        "tournament": await service.tournament_create(
            DM, ALICE, is_organiser=True, name="cup", format="knockout"),
        "tournament list": await service.tournament_list(GROUP),
        "bracket": (await service.tournament_bracket(DM))[0],
        "leaderboard": await service.leaderboard(DM, ALICE),
        "settings": await service.settings_show(DM, ALICE),
        "settings set": await service.settings_set(GROUP, ALICE, "variant", "russian",
                                                   manage_server=True),
        "puzzle": await service.puzzle(DM, ALICE),
    }
    for what, reply in refusals.items():
        assert not reply.ok and reply.ephemeral, what
        assert re.search("needs? a server", reply.text), (what, reply.text)
        assert "/challenge" in reply.text, (what, reply.text)  # what works instead
    assert "this group DM" in refusals["chouette join"].text
    assert "personal rating" in refusals["leaderboard"].text
    async with service.storage.snapshot() as tx:
        assert await tx.open_chouette_in_channel(DM.channel_id) is None


async def test_no_reminder_and_no_claim_by_time_without_a_server(
        tmp_path: Path) -> None:
    storage = SqliteStorage(tmp_path / "idle.sqlite3")
    await storage.open()
    try:
        service = GameService(storage, Config())
        for place in (DM, SERVER):
            assert (await service.challenge(place, ALICE, BOB, length=1)).ok
            assert (await service.accept(place, BOB)).ok
        # Hours later (the service's clock moved on): the server's game is reminded once,
        # the DM's never (the bot can't post there), and nobody claims it by waiting.
        later = service.runner.clock() + timedelta(days=2)
        service.runner.clock = lambda: later
        due = await service.due_reminders()
        assert [channel for channel, _ in due] == [SERVER.channel_id]
        claim = await service.claim(DM, ALICE)
        assert not claim.ok and "needs a server" in claim.text and "/resign" in claim.text
        async with storage.snapshot() as tx:
            row = await tx.open_match_in_channel(DM.channel_id)
            assert row is not None and row.status == "active"
    finally:
        await storage.close()


async def test_a_dm_and_a_server_channel_with_other_ids_never_meet(
        service: GameService) -> None:
    """The service keys a match by its channel and checks the scope: a server place can't
    act on a DM's game even if a (forged) id were the same."""
    assert (await service.challenge(DM, ALICE, BOB, length=1)).ok
    forged = Place(5, DM.channel_id)
    reply = await service.accept(forged, BOB)
    assert not reply.ok
    assert (await service.accept(DM, BOB)).ok


async def test_a_server_where_the_bot_only_answers_reminds_and_claims_nothing(
        tmp_path: Path) -> None:
    """A server that did not install the app (only its players did): its games are the
    server's, but the bot may not post there, so no reminder and no claim by time."""
    storage = SqliteStorage(tmp_path / "answers.sqlite3")
    await storage.open()
    try:
        service = GameService(storage, Config())
        foreign = Place(6, 78, answers_only=True)
        for place in (foreign, SERVER):
            assert (await service.challenge(place, ALICE, BOB, length=1)).ok
            assert (await service.accept(place, BOB)).ok
        later = service.runner.clock() + timedelta(days=2)
        service.runner.clock = lambda: later
        assert [channel for channel, _ in await service.due_reminders()] == [
            SERVER.channel_id]
        claim = await service.claim(foreign, ALICE)
        assert not claim.ok and "needs me in this server" in claim.text
        assert (await service.forfeit(foreign, BOB)).ok  # the game itself goes on as ever
        async with storage.snapshot() as tx:
            row = await tx.latest_match_in_channel(foreign.channel_id)
            assert row is not None and row.guild_id == 6 and row.place_kind == "server"
            assert (await tx.rating(6, ALICE.id)).experience == 1
    finally:
        await storage.close()

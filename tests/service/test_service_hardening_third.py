"""Issue 36 (hardening, third pass), items 1 and 2, on SQLite and on PostgreSQL: every text a
user types that is stored is cleaned at the storage boundary (a NUL, a lone surrogate,
control characters), and every refusal that quotes a user's input cuts it.  Item 3
(start-up against a database that refuses connections) is in
tests/storage/postgres/test_storage_pg_startup.py.  Each test failed on the code before
its fix."""

from __future__ import annotations

import io
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pg
import pytest
from scripted import Script

from bot.adapters.console import Console
from bot.config import Config
from bot.service.core.values import Actor, Place
from bot.service.game import GameService
from bot.storage.interface import Storage, Transaction, clean_text, storable
from bot.storage.sqlite import SqliteStorage

HERE = Place(5, 500)
TABLE = Place(5, 501)
PLAYERS = [Actor(1, "alice"), Actor(2, "bob"), Actor(3, "carol"), Actor(4, "dave")]
LONG = "R" * 10_000
ECHO = 300
"""No refusal quoting a user's value is longer than this."""


@pytest.fixture(params=["sqlite", "postgres"])
async def storage(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Storage]:
    if request.param == "sqlite":
        opened: Storage = SqliteStorage(tmp_path / "db.sqlite3")
        await opened.open()
        try:
            yield opened
        finally:
            await opened.close()
        return
    reason = pg.unavailable()
    if reason is not None:
        pytest.skip(reason)
    from bot.storage.postgres import PostgresStorage

    url = await pg.create_database()
    opened = PostgresStorage(url, pool_size=2)
    await opened.open()
    try:
        yield opened
    finally:
        await opened.close()
        await pg.drop_database(url)


async def started_tournament(service: GameService, name: str = "Cup") -> int:
    made = await service.tournament_create(HERE, PLAYERS[0], is_organiser=True, name=name,
                                           format="single-elimination", length="1")
    assert made.ok, made.text
    tid = made.tournament_id
    assert tid is not None
    for player in PLAYERS:
        assert (await service.tournament_join(HERE, player, tid)).ok
    assert (await service.tournament_start(HERE, PLAYERS[0], is_organiser=True,
                                           tournament=tid)).ok
    return tid


async def stored_tournament(storage: Storage, tid: int) -> Any:
    async with storage.snapshot() as tx:
        return await tx.get_tournament(tid)


# -- item 1: a NUL (and what else text cannot hold) in every stored text -------------------

def test_clean_text_removes_nul_replaces_surrogates_and_controls() -> None:
    assert clean_text("cup\x00nul") == "cupnul"
    assert clean_text("a\ud800b\udfffc") == "a\ufffdb\ufffdc"
    assert clean_text("line\nbreak\ttab\x1b[31m\x7f") == "line break tab [31m "
    assert clean_text("x" * 50, 10) == "x" * 10
    assert clean_text("plain ünïcode 🎲") == "plain ünïcode 🎲"
    # the last line of defence under every parameter: only what no database can store
    assert storable("a\x00b\ud800\n") == "ab\ufffd\n"
    assert storable(5) == 5


async def test_a_nul_in_a_tournament_name_is_cleaned(storage: Storage) -> None:
    service = GameService(storage, Config())
    made = await service.tournament_create(HERE, PLAYERS[0], is_organiser=True,
                                           name="cup\x00nul \ud800\x1b", format="swiss")
    assert made.ok, made.text  # PostgreSQL raised CharacterNotInRepertoireError
    assert made.tournament_id is not None
    row = await stored_tournament(storage, made.tournament_id)
    assert row.name == "cupnul \ufffd"
    assert "cupnul" in (await service.tournament_list(HERE)).text


async def test_the_storage_cleans_text_it_is_given_directly(storage: Storage) -> None:
    """The cleaning is at the storage boundary: a caller that forgot it cannot store a NUL."""
    async def write(tx: Transaction) -> int:
        await tx.upsert_user(3, "organiser")
        row = await tx.insert_tournament(guild_id=1, channel_id=2, organiser_id=3,
                                         name="raw\x00name\ud83d", config={"k": "v\x00"},
                                         state={})
        return row.id

    tid = await storage.run(write)
    row = await stored_tournament(storage, tid)
    assert row.name == "rawname\ufffd"
    assert row.config == {"k": "v\x00"}  # JSON keeps it escaped: both databases hold that


async def test_reasons_and_pairing_labels_typed_with_a_nul_are_cleaned(
        storage: Storage) -> None:
    service = GameService(storage, Config())
    tid = await started_tournament(service)
    from bot.service.tournaments.data import read

    state = read(await stored_tournament(storage, tid)).data.engine
    assert state is not None
    winner = int(state.pairing("R1-1").players[0])
    reply = await service.tournament_result(
        HERE, PLAYERS[0], is_organiser=True, pairing="r1-1\x00", winner=winner,
        reason="no\x00 show\ud800")
    assert reply.ok, reply.text
    row = await stored_tournament(storage, tid)
    assert ["R1-1", "no show\ufffd"] in row.state["notes"]
    assert "\x00" not in json.dumps(row.state, ensure_ascii=False)


async def test_a_chouette_suggestion_with_a_nul_is_cleaned(storage: Storage) -> None:
    service = GameService(storage, Config(), dice=Script([6, 5, 4, 1, 3], then="1234"))
    alice, bob, carol = PLAYERS[:3]
    assert (await service.chouette.open(TABLE, alice)).ok
    for p in (bob, carol):
        assert (await service.chouette.join(TABLE, p)).ok
    assert (await service.chouette.start(TABLE, alice)).ok
    reply = await service.chouette.suggest(TABLE, carol, "8/5\x00 6/5\ud800")
    assert reply.ok, reply.text
    assert "8/5 6/5\ufffd" in reply.text
    async with storage.snapshot() as tx:
        row = await tx.open_match_in_channel(TABLE.channel_id)
    assert row is not None
    stored = json.dumps(row.state, ensure_ascii=False)
    assert "8/5 6/5\ufffd" in stored and "\x00" not in stored


# -- item 2: refusals that quote the user's input cut it ----------------------------------

async def test_a_long_pairing_label_is_cut_in_the_refusal(storage: Storage) -> None:
    service = GameService(storage, Config())
    await started_tournament(service)
    for reply in (
            await service.tournament_result(HERE, PLAYERS[0], is_organiser=True, pairing=LONG,
                                            winner=PLAYERS[0].id, reason="x"),
            await service.tournament_confirm(HERE, PLAYERS[0], is_organiser=True,
                                             pairing=LONG)):
        assert not reply.ok and reply.ephemeral
        assert "has no pairing 'RRRR" in reply.text and "..." in reply.text
        assert len(reply.text) <= ECHO, len(reply.text)


async def test_a_winner_id_out_of_range_is_refused_not_raised(storage: Storage) -> None:
    service = GameService(storage, Config())
    await started_tournament(service)
    reply = await service.tournament_result(HERE, PLAYERS[0], is_organiser=True,
                                            pairing="R1-1", winner=10**5000, reason="x")
    assert not reply.ok and "id is not valid" in reply.text


async def test_an_action_given_a_long_option_quotes_it_cut(storage: Storage) -> None:
    service = GameService(storage, Config())
    from bot.service.core.replies import Action

    reply = await service.act(Action.ROLL, HERE, PLAYERS[0], option=LONG)
    assert not reply.ok and len(reply.text) <= ECHO


async def test_the_console_cuts_what_it_quotes(tmp_path: Path) -> None:
    storage = SqliteStorage(tmp_path / "c.sqlite3")
    await storage.open()
    try:
        service = GameService(storage, Config())
        out = io.StringIO()
        console = Console(service, tmp_path / "boards", out=out)
        lines = ["alice: /tournament create Cup format=single-elimination length=1"]
        lines += [f"{p.name}: /tournament join" for p in PLAYERS]
        lines += ["alice: /tournament start"]
        for line in lines:
            await console.handle(line)
        for line in ("alice: /tournament result " + LONG + " alice x",
                     "alice: /tournament confirm " + LONG,
                     "alice: /" + LONG,
                     "alice: /challenge @" + LONG,
                     "alice: /stats " + LONG,
                     "alice: /channel " + LONG,
                     LONG + ": /board"):
            out.truncate(0)
            out.seek(0)
            await console.handle(line)
            text = out.getvalue()
            assert "Traceback" not in text
            assert LONG[:500] not in text, (line[:40], len(text))
    finally:
        await storage.close()

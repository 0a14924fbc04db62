"""The web board's adapter (issue 45) against the real service on a SQLite file: pages of
two players and a spectator over websockets, every action through the service's action
table, each update at every page, refusals said to the one who acted, a dropped socket and
a restart resumed where the game is; the headers and bounds of the server."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from aiohttp import WSMsgType
from scripted import Script
from web_board import (
    ALICE,
    TABLE,
    act,
    client_of,
    message,
    origin,
    page,
    service_on,
    start_game,
    state,
)

from bot.adapters.web.server import BURST, CSP, MAX_MESSAGE

OPENING = [6, 1]  # alice (white) plays 6-1 first


async def test_two_players_and_a_spectator_play_and_watch(tmp_path: Path) -> None:
    service = await service_on(tmp_path / "bg.sqlite3", Script([*OPENING, 3, 2]))
    await start_game(service)
    client = await client_of(service)
    try:
        alice, bob, carol = [await page(client, n) for n in ("alice", "bob", "carol")]
        first = [await state(ws) for ws in (alice, bob, carol)]
        # The builder's steps go to the player to play only, in the board's numbering.
        assert [(s["from"], s["to"]) for s in first[0]["steps"]] == [
            (24, 18), (13, 7), (8, 2), (24, 23), (8, 7), (6, 5)]
        assert first[1]["steps"] == [] and first[2]["steps"] == []
        assert first[0]["board"]["position_id"] == "4HPwATDgc/ABMA"
        assert first[0]["board"]["dice"] == [6, 1]
        assert first[2]["buttons"] == []  # a spectator has nothing to press
        await act(alice, "step", "13/7")
        after = [await state(ws) for ws in (alice, bob, carol)]
        for seen in after:  # the draft reaches everyone at once, as on the channel's board
            assert seen["board"]["points"][7] == {"player": 0, "count": 1}
        assert [(s["from"], s["to"]) for s in after[0]["steps"]] == [
            (24, 23), (8, 7), (7, 6), (6, 5)]
        await act(alice, "step", "8/7")
        made = [await state(ws) for ws in (alice, bob, carol)]
        for seen in made:
            board = seen["board"]
            assert board["points"][7] == {"player": 0, "count": 2}
            assert board["turn"] == 1 and board["dice"] == []
            assert board["position_id"] == made[0]["board"]["position_id"]
        assert [b["action"] for b in made[1]["buttons"]][:1] == ["roll"]
        assert made[0]["buttons"] == [] or all(
            b["action"] == "undo" for b in made[0]["buttons"])
        await act(bob, "roll")
        rolled = [await state(ws) for ws in (alice, bob, carol)]
        assert all(s["board"]["dice"] == [3, 2] for s in rolled)
        assert rolled[1]["steps"] and not rolled[0]["steps"] and not rolled[2]["steps"]
        # Bob is seen at the top: his steps come in the bottom player's numbering.
        assert {(s["from"], s["to"]) for s in rolled[1]["steps"]} >= {(1, 4), (12, 14)}
    finally:
        await client.close()


async def test_a_third_user_is_refused_with_the_services_reason(tmp_path: Path) -> None:
    service = await service_on(tmp_path / "bg.sqlite3", Script(OPENING))
    await start_game(service)
    client = await client_of(service)
    try:
        carol = await page(client, "carol")
        await state(carol)
        await act(carol, "step", "13/7")
        refused = await message(carol, "refused")
        assert "not playing in this game" in refused["text"]
        await act(carol, "roll")
        assert "not playing" in (await message(carol, "refused"))["text"]
        await act(carol, "teleport")
        assert "no action 'teleport'" in (await message(carol, "refused"))["text"]
        watched = await service.board(TABLE, ALICE)
        assert watched.boards[-1].position_id == "4HPwATDgc/ABMA"  # nothing moved
    finally:
        await client.close()


async def test_a_dropped_socket_resumes_where_the_game_is(tmp_path: Path) -> None:
    service = await service_on(tmp_path / "bg.sqlite3", Script(OPENING))
    await start_game(service)
    client = await client_of(service)
    try:
        alice, bob = await page(client, "alice"), await page(client, "bob")
        await state(alice), await state(bob)
        await bob.close()
        await act(alice, "move", "13/7 8/7")
        moved = await state(alice)
        again = await page(client, "bob")
        resumed = await state(again)
        assert resumed["board"] == moved["board"]
        assert [b["action"] for b in resumed["buttons"]][:1] == ["roll"]
    finally:
        await client.close()


async def test_a_restart_keeps_the_game(tmp_path: Path) -> None:
    path = tmp_path / "bg.sqlite3"
    service = await service_on(path, Script(OPENING))
    await start_game(service)
    client = await client_of(service)
    alice = await page(client, "alice")
    await state(alice)
    await act(alice, "move", "13/7 8/7")
    played = (await state(alice))["board"]
    await client.server.close()  # the bot stops: the page is told, its session is gone
    going = await asyncio.wait_for(alice.receive(), 5)
    assert going.type is WSMsgType.CLOSE and going.data == 1001
    await client.close()
    restarted = await client_of(await service_on(path, Script([4, 4])))
    try:
        old = await restarted.ws_connect("/ws", headers={"Origin": origin(restarted)})
        await old.send_str(json.dumps({"type": "hello", "session": "from-before"}))
        assert (await message(old, "signin"))["text"].startswith("Sign in again")
        bob = await page(restarted, "bob")
        assert (await state(bob))["board"] == played
        await act(bob, "roll")
        assert (await state(bob))["board"]["dice"] == [4, 4]
    finally:
        await restarted.close()


async def test_headers_origins_and_bounds(tmp_path: Path) -> None:
    service = await service_on(tmp_path / "bg.sqlite3", Script(OPENING))
    await start_game(service)
    client = await client_of(service, bundle=tmp_path / "no-bundle")
    try:
        home = await client.get("/")
        assert home.status == 503 and "npm ci && npm run build" in await home.text()
        assert home.headers["Content-Security-Policy"] == CSP
        assert "frame-ancestors" in CSP and "script-src 'self'" in CSP
        stranger = await client.post("/api/local/login", json={"name": "alice"},
                                     headers={"Origin": "https://evil.example"})
        assert stranger.status == 403
        refused = await client.get("/ws", headers={"Origin": "https://evil.example",
                                                   "Connection": "Upgrade",
                                                   "Upgrade": "websocket"})
        assert refused.status == 403
        discord = await client.post("/api/token", json={"code": "x"},
                                    headers={"Origin": origin(client)})
        assert discord.status == 403  # the local board has no Discord sign-in
        alice = await page(client, "alice")
        await state(alice)
        for _ in range(BURST + 3):
            await act(alice, "board-of-nothing")
        texts = [(await message(alice, "refused"))["text"] for _ in range(BURST + 3)]
        assert any(t.startswith("Too many messages") for t in texts)
        await alice.send_str("x" * (MAX_MESSAGE + 1))
        closing = await asyncio.wait_for(alice.receive(), 5)
        assert closing.type in (WSMsgType.CLOSE, WSMsgType.CLOSED, WSMsgType.CLOSING)
        assert alice.close_code == 1009  # message too big
    finally:
        await client.close()


async def test_a_discord_action_reaches_the_pages(tmp_path: Path) -> None:
    """An action from another path (here the service called as a Discord button is) is
    sent to the pages too: they follow the game, whoever moved."""
    service = await service_on(tmp_path / "bg.sqlite3", Script(OPENING))
    await start_game(service)
    client = await client_of(service)
    try:
        carol = await page(client, "carol")
        await state(carol)
        reply = await service.move(TABLE, ALICE, "13/7 8/7")
        assert reply.ok, reply.text
        seen = await state(carol)
        assert seen["board"]["points"][7] == {"player": 0, "count": 2}
    finally:
        await client.close()


async def test_the_local_board_challenges_and_accepts(tmp_path: Path) -> None:
    """``python -m bot web``: a page without a game challenges by name (as /challenge),
    the other page accepts (the action table's accept); both then see the first board."""
    service = await service_on(tmp_path / "bg.sqlite3", Script(OPENING))
    client = await client_of(service)
    try:
        alice, bob = await page(client, "alice"), await page(client, "bob")
        assert (await state(alice))["board"] is None and (await state(bob))["board"] is None
        await alice.send_str(json.dumps({"type": "challenge", "opponent": "bob",
                                         "length": 99}))
        assert "1 to 25 points" in (await message(alice, "refused"))["text"]
        await alice.send_str(json.dumps({"type": "challenge", "opponent": "bob",
                                         "length": 3}))
        waiting = await state(bob)
        assert waiting["board"] is None and "challenge" in waiting["text"]
        await act(alice, "accept")
        assert (await message(alice, "refused"))["text"]  # not hers to accept: why
        await act(bob, "accept")
        begun = await state(bob)
        assert begun["board"]["position_id"] == "4HPwATDgc/ABMA"
        assert (await state(alice))["steps"]  # alice won the opening 6-1: she plays
    finally:
        await client.close()


async def test_a_resignation_offered_and_accepted_through_the_pages(tmp_path: Path) -> None:
    service = await service_on(tmp_path / "bg.sqlite3", Script([*OPENING, 5, 3]))
    await start_game(service)
    client = await client_of(service)
    try:
        alice, bob = await page(client, "alice"), await page(client, "bob")
        await state(alice), await state(bob)
        await act(alice, "resign", "single")
        offered = await state(bob)
        assert offered["board"]["resignation"] == {"player": 0, "kind": "single"}
        assert {b["action"] for b in offered["buttons"]} >= {"accept-resignation",
                                                             "reject-resignation"}
        await act(bob, "accept-resignation")
        after = await state(bob)
        assert after["board"]["resignation"] is None
        assert after["board"]["players"][1]["score"] == 1  # bob won a single game
    finally:
        await client.close()


async def test_an_unexpected_error_is_an_apology_and_the_page_stays(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    service = await service_on(tmp_path / "bg.sqlite3", Script(OPENING))
    await start_game(service)
    client = await client_of(service)
    try:
        alice = await page(client, "alice")
        await state(alice)

        async def broken(*args: object, **kwargs: object) -> None:
            raise RuntimeError("a bug")

        real = service.act
        monkeypatch.setattr(service, "act", broken)
        await act(alice, "roll")
        said = (await message(alice, "refused"))["text"]
        assert "error " in said and "a bug" not in said and "Traceback" not in said
        monkeypatch.setattr(service, "act", real)
        await act(alice, "step", "13/7")
        assert (await state(alice))["board"]["points"][7] == {"player": 0, "count": 1}
    finally:
        await client.close()


async def test_the_pages_show_both_clocks_as_the_png_does(tmp_path: Path) -> None:
    """Issue 45 item 1 with issue 44's clocks: each player's time left is on the page, from
    the same board the PNG draws (``PlayerInfo.clock``); without a clock it is empty."""
    service = await service_on(tmp_path / "bg.sqlite3", Script(OPENING))
    await start_game(service, clock="1s+4s/pt")
    client = await client_of(service)
    try:
        alice, carol = await page(client, "alice"), await page(client, "carol")
        png = (await service.board(TABLE, ALICE)).boards[-1].view.players
        assert png[0].clock and png[1].clock  # the PNG's board has both clocks
        for seen in (await state(alice), await state(carol)):
            clocks = [p["clock"] for p in seen["board"]["players"]]
            assert clocks == ["0:12", "0:12"] == [png[0].clock, png[1].clock]
    finally:
        await client.close()
    plain = await service_on(tmp_path / "plain.sqlite3", Script(OPENING))
    await start_game(plain)
    client = await client_of(plain)
    try:
        seen = await state(await page(client, "carol"))
        assert [p["clock"] for p in seen["board"]["players"]] == ["", ""]
    finally:
        await client.close()


async def test_the_channels_open_challenge_is_listed_and_accepted_from_a_page(
        tmp_path: Path) -> None:
    """Issue 45 item 1 with issue 44's open challenges: the page lists the channel's open
    challenge (who, its terms, when it expires) with an Accept for anyone but its
    challenger; an Accept goes through the service's open-challenge accept (its checks, its
    race: the second taker is told who took it first) and every page then sees the game."""
    service = await service_on(tmp_path / "bg.sqlite3", Script(OPENING))
    posted = await service.challenge(TABLE, ALICE, None, length=3, clock="1s+4s/pt")
    assert posted.ok, posted.text
    client = await client_of(service)
    try:
        alice, bob, carol = [await page(client, n) for n in ("alice", "bob", "carol")]
        listed = [(await state(ws))["open"] for ws in (alice, bob, carol)]
        assert len(listed[1]) == 1
        entry = listed[1][0]
        assert entry["challenger"] == "alice" and entry["accept"] is True
        assert entry["terms"] == "a 3-point match of standard, clock 1s+4s/pt, rated"
        assert entry["expires"] > 0
        assert listed[0][0]["accept"] is False  # her own: she may withdraw it, not accept
        assert listed[2][0]["accept"] is True
        await act(alice, "accept", version=entry["version"], match=entry["match"])
        assert "You posted this open challenge" in (await message(alice, "refused"))["text"]
        await act(bob, "accept", version=entry["version"], match=entry["match"])
        begun = await state(carol)
        assert begun["open"] == [] and begun["board"]["position_id"] == "4HPwATDgc/ABMA"
        assert [p["name"] for p in begun["board"]["players"]] == ["alice", "bob"]
        assert [p["clock"] for p in begun["board"]["players"]] == ["0:12", "0:12"]
        await act(carol, "accept", version=entry["version"], match=entry["match"])
        late = (await message(carol, "refused"))["text"]
        assert "bob accepted alice's challenge first" in late
    finally:
        await client.close()

"""The read-only watch page of a game outside Discord (issue 45 item 4): refused, saying
why, while the server's setting ``watch_page`` is off (its default); with it on,
anyone with the link watches the game live and can do nothing; the page carries no secret
and its sockets are bounded."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from aiohttp import WSMsgType
from scripted import Script
from web_board import ALICE, TABLE, act, client_of, message, page, service_on, start_game

from bot.adapters.web.watch import MAX_REFUSED, READ_ONLY
from bot.config import Config
from bot.service.settings.table import BY_KEY

OPENING = [6, 1]


async def match_of(service: object) -> int:
    reply = await service.board(TABLE, ALICE)  # type: ignore[attr-defined]
    assert reply.match_id is not None
    return int(reply.match_id)


async def test_refused_while_the_setting_is_off(tmp_path: Path) -> None:
    service = await service_on(tmp_path / "bg.sqlite3", Script(OPENING))
    await start_game(service)
    assert (await service.server_settings(TABLE.guild_id)).watch_page is False
    match = await match_of(service)
    client = await client_of(service, bundle=tmp_path)
    (tmp_path / "index.html").write_text("<!doctype html><title>board</title>")
    try:
        home = await client.get(f"/watch/{match}")
        assert home.status == 403
        said = await home.text()
        assert "does not let its games be watched outside Discord" in said
        assert "/settings" in said  # what is allowed instead
        socket = await client.get(f"/ws/watch/{match}", headers={
            "Connection": "Upgrade", "Upgrade": "websocket"})
        assert socket.status == 403
        assert "watch_page is off" in (await socket.json())["error"]
    finally:
        await client.close()


async def test_with_the_setting_on_anyone_with_the_link_watches_read_only(
        tmp_path: Path) -> None:
    service = await service_on(tmp_path / "bg.sqlite3", Script(OPENING))
    await start_game(service)
    set_on = await service.settings_set(TABLE, ALICE, "watch_page", "on",
                                        manage_server=True)
    assert set_on.ok, set_on.text
    assert BY_KEY["watch_page"].default(Config()) is False  # off unless the server says
    match = await match_of(service)
    (tmp_path / "index.html").write_text("<!doctype html><title>board</title>")
    client = await client_of(service, bundle=tmp_path)
    try:
        home = await client.get(f"/watch/{match}")
        assert home.status == 200 and "board" in await home.text()
        assert (await client.get(f"/watch/{match + 99}")).status == 403
        assert (await client.get("/watch/nothing")).status == 403
        watcher = await client.ws_connect(f"/ws/watch/{match}")  # no sign-in, any origin
        first = await message(watcher, "state")
        assert first["board"]["position_id"] == "4HPwATDgc/ABMA"
        assert first["buttons"] == [] and first["steps"] == [] and first["open"] == []
        assert "session" not in json.dumps(first) and str(ALICE.id) not in json.dumps(first)
        # It follows the game live (here a player's page moves).
        alice = await page(client, "alice")
        await message(alice, "state")
        await act(alice, "move", "13/7 8/7")
        moved = await message(watcher, "state")
        assert moved["board"]["points"][7] == {"player": 0, "count": 2}
        # Nothing can be done from it: every message is refused and nothing moves.
        await watcher.send_str(json.dumps({"type": "act", "action": "roll"}))
        assert (await message(watcher, "refused"))["text"] == READ_ONLY
        await watcher.send_str(json.dumps({"type": "hello", "session": "x"}))
        assert (await message(watcher, "refused"))["text"] == READ_ONLY
        after = await service.board(TABLE, ALICE)
        assert not after.boards[-1].view.dice  # bob did not roll
        assert after.boards[-1].position_id == moved["board"]["position_id"]
        for _ in range(MAX_REFUSED):
            await watcher.send_str("{}")
        while True:  # a page that keeps trying is closed (bounded)
            msg = await asyncio.wait_for(watcher.receive(), 5)
            if msg.type is not WSMsgType.TEXT:
                break
        assert watcher.close_code == 1008
        # A big message closes it too.
        again = await client.ws_connect(f"/ws/watch/{match}")
        await message(again, "state")
        await again.send_str("x" * 1000)
        msg = await asyncio.wait_for(again.receive(), 5)
        assert msg.type in (WSMsgType.CLOSE, WSMsgType.CLOSED) and again.close_code == 1009
    finally:
        await client.close()


async def test_a_watcher_follows_a_game_played_in_a_thread(tmp_path: Path) -> None:
    """The link names the match, not how Discord names its place: an action that comes from
    the game's thread (its place carries the parent channel) reaches the watch page too."""
    from dataclasses import replace

    service = await service_on(tmp_path / "bg.sqlite3", Script(OPENING))
    await start_game(service)
    assert (await service.settings_set(TABLE, ALICE, "watch_page", "on",
                                       manage_server=True)).ok
    match = await match_of(service)
    client = await client_of(service)
    try:
        watcher = await client.ws_connect(f"/ws/watch/{match}")
        await message(watcher, "state")
        in_thread = replace(TABLE, parent_id=TABLE.channel_id + 1)
        moved = await service.move(in_thread, ALICE, "13/7 8/7")
        assert moved.ok, moved.text
        seen = await message(watcher, "state")
        assert seen["board"]["points"][7] == {"player": 0, "count": 2}
    finally:
        await client.close()

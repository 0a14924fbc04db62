"""The live board as Discord's activity, end to end (issue 45): the real discord.py client
against the fake Discord, which launches activities and plays Discord's OAuth2 and
activity-instance endpoints.  Every board has an Open board button, answered with
LAUNCH_ACTIVITY (type 12); the page's sign-in exchanges its code on the bot (with the
client secret, which reaches no page and no log), is checked against the instance, and the
page then shows the channel's game, live."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import aiohttp
import pytest
from discord_e2e import Capture, Host, start_game, users
from fake_discord import FakeDiscord

from bot.config import ActivityConfig

pytestmark = pytest.mark.e2e


async def open_activity(host: Host, fake: FakeDiscord) -> str:
    """Start the bot with the activity set up; the base URL of its board."""
    config = replace(host.config, activity=ActivityConfig(
        address="127.0.0.1:0", application_id=fake.app_id, client_secret=fake.client_secret,
        api=fake.api))
    bot = await host.start(config)
    assert bot.board_server is not None
    port = bot.board_server.addresses[0][1]
    return f"http://127.0.0.1:{port}"


async def post(http: aiohttp.ClientSession, url: str, origin: str,
               body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    async with http.post(url, json=body, headers={"Origin": origin}) as answer:
        return answer.status, await answer.json()


async def test_open_board_launches_the_activity_and_the_page_signs_in(
        host: Host, fake: FakeDiscord, logs: Capture) -> None:
    base = await open_activity(host, fake)
    alice, bob, carol = users(fake)
    board = await start_game(fake, alice, bob)
    assert "Open board" in board.labels()
    launched = await fake.click(carol, board, "Open board")  # a spectator may open it
    assert await launched.acknowledged() == 12
    (instance_id,) = fake.activity_instances
    instance = fake.activity_instances[instance_id]
    assert instance["users"] == [str(carol.id)]
    assert instance["location"]["channel_id"] == str(board.channel_id)
    proxy = f"https://{fake.app_id}.discordsays.com"  # the page's origin inside Discord
    async with aiohttp.ClientSession() as http:
        status, body = await post(http, f"{base}/api/token", proxy,
                                  {"code": fake.authorize(carol)})
        assert status == 200, body
        token = body["access_token"]
        assert fake.client_secret not in json.dumps(body)
        status, again = await post(http, f"{base}/api/token", proxy, {"code": "made-up"})
        assert status == 400 and "did not accept the authorization code" in again["error"]
        status, stranger = await post(http, f"{base}/api/token", "https://evil.example",
                                      {"code": fake.authorize(carol)})
        assert status == 403 and "origin may not use the board" in stranger["error"]
        status, session = await post(http, f"{base}/api/session", proxy,
                                     {"access_token": token, "instance_id": instance_id})
        assert status == 200, session
        assert session["user"] == {"id": str(carol.id), "name": "carol"}
        # Alice signed in but has not joined this activity: refused, saying why.
        status, body = await post(http, f"{base}/api/token", proxy,
                                  {"code": fake.authorize(alice)})
        status, refused = await post(http, f"{base}/api/session", proxy,
                                     {"access_token": body["access_token"],
                                      "instance_id": instance_id})
        assert status == 403 and "not a participant" in refused["error"]
        status, unknown = await post(http, f"{base}/api/session", proxy,
                                     {"access_token": token, "instance_id": "i-nothing"})
        assert status == 403 and "does not know this activity instance" in unknown["error"]
        async with http.ws_connect(f"{base}/ws", headers={"Origin": proxy}) as ws:
            await ws.send_str(json.dumps({"type": "hello", "session": session["session"]}))
            state = json.loads((await ws.receive()).data)
            assert state["type"] == "state"
            footer = board.embeds[0]["footer"]["text"]
            assert state["board"]["position_id"] in footer
            assert state["buttons"] == []  # carol watches
    assert fake.client_secret not in logs.text()


async def test_the_entry_point_command_is_synced_with_the_global_commands(
        host: Host, fake: FakeDiscord) -> None:
    """Issue 45 item 2: with the activity set up, the global sync carries the app's Entry
    Point command (type PRIMARY_ENTRY_POINT 4, handler DISCORD_LAUNCH_ACTIVITY 2: Discord
    launches the board from the App Launcher), which the fake checks as Discord documents
    it; Discord's default "Launch" command (Activities enabled) is replaced, not refused."""
    fake.enable_activities()
    await open_activity(host, fake)
    ((guild, payload),) = fake.syncs
    assert guild is None and not fake.refusals
    (entry,) = [c for c in payload if c.get("type") == 4]
    assert entry["name"] == "launch" and entry["handler"] == 2
    assert "options" not in entry and 1 <= len(entry["description"]) <= 100
    board = next(c for c in payload if c["name"] == "board")
    assert entry["contexts"] == board["contexts"]
    assert entry["integration_types"] == board["integration_types"]
    assert fake.commands["launch"]["type"] == 4 and fake.hygiene == []

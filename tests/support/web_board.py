"""Helpers of the web board's tests (issue 45): a service on a SQLite file with scripted
dice, a game between two of the console's users, the board's app on a test server, and
pages signed in by name."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from aiohttp import ClientWebSocketResponse, WSMsgType
from aiohttp.test_utils import TestClient, TestServer
from scripted import Script, opened

from bot.adapters.console.screen import GUILD, channel_id, user_id
from bot.adapters.web.server import make_app
from bot.config import Config
from bot.service.core.values import Actor, Place
from bot.service.game import GameService

ALICE = Actor(user_id("alice"), "alice")
BOB = Actor(user_id("bob"), "bob")
TABLE = Place(GUILD, channel_id("table"))


async def service_on(path: Path, dice: Script) -> GameService:
    storage = await opened(path)
    return GameService(storage, Config(), dice=dice)  # type: ignore[arg-type]


async def start_game(service: GameService, **terms: Any) -> None:
    reply = await service.challenge(TABLE, ALICE, BOB, length=3, **terms)
    assert reply.ok, reply.text
    reply = await service.accept(TABLE, BOB)
    assert reply.ok, reply.text


async def client_of(service: GameService, **options: Any) -> TestClient[Any, Any]:
    options.setdefault("local", True)
    client: TestClient[Any, Any] = TestClient(TestServer(make_app(service, **options)))
    await client.start_server()
    return client


def origin(client: TestClient[Any, Any]) -> str:
    return f"http://{client.host}:{client.port}"


async def page(client: TestClient[Any, Any], name: str) -> ClientWebSocketResponse:
    """A page of the console's user ``name`` in #table, signed in, with its first state
    read (:func:`state` reads the next ones)."""
    answer = await client.post("/api/local/login", json={"name": name},
                               headers={"Origin": origin(client)})
    assert answer.status == 200, await answer.text()
    session = (await answer.json())["session"]
    ws = await client.ws_connect("/ws", headers={"Origin": origin(client)})
    await ws.send_str(json.dumps({"type": "hello", "session": session}))
    return ws


async def message(ws: ClientWebSocketResponse, kind: str | None = None,
                  timeout: float = 5.0) -> dict[str, Any]:
    """The next message (of ``kind``, the others skipped)."""
    while True:
        msg = await asyncio.wait_for(ws.receive(), timeout)
        assert msg.type is WSMsgType.TEXT, msg
        data: dict[str, Any] = json.loads(msg.data)
        if kind is None or data["type"] == kind:
            return data


async def state(ws: ClientWebSocketResponse) -> dict[str, Any]:
    return await message(ws, "state")


async def act(ws: ClientWebSocketResponse, action: str, option: str | None = None,
              **extra: Any) -> None:
    await ws.send_str(json.dumps({"type": "act", "action": action, "option": option,
                                  **extra}))

"""The read-only watch page of a game (issue 45 item 4): ``/watch/{match}`` and its socket
``/ws/watch/{match}``, for anyone with the link where the game's server allows it
(``/settings watch_page``, off by default).

Nothing can be done from it: it signs no one in, every message it sends is answered with a
refusal and carried out never, and what it is sent is the spectator's state with no button,
no step and no Accept (a state names players and the board only: no session, no id of a
user, no secret).  At most :data:`MAX_WATCHERS` watch sockets are open at once; a watch
socket closes when its game is over (the channel's next game is not this link's)."""

from __future__ import annotations

import json
from typing import Any

from aiohttp import WSCloseCode, WSMsgType, web

from bot.adapters.web.hub import SPECTATOR, Client, Hub
from bot.adapters.web.state import Json
from bot.service.core.values import Place
from bot.service.play.outside import watched_place

MAX_WATCHERS = 500
MAX_REFUSED = 10
READ_ONLY = ("This is a watch page: nothing can be done from it. To play, open the board "
             "from Discord.")
BUSY = "Too many people are watching at the moment: try again in a minute."


def read_only(state: Json, match_id: int) -> Json:
    """A spectator's state with nothing to press."""
    out = dict(state)
    out["buttons"], out["steps"], out["open"] = [], [], []
    out.pop("builder", None)
    out["watch"] = match_id
    return out


async def place_of(request: web.Request, hub: Hub) -> tuple[int, Place | str]:
    text = request.match_info.get("match", "")
    match_id = int(text) if text.isdigit() and len(text) <= 19 else 0
    return match_id, await watched_place(hub.service.runner, hub.service.settings, match_id)


async def watch_page(request: web.Request, hub: Hub, index: Any) -> web.StreamResponse:
    _, place = await place_of(request, hub)
    if isinstance(place, str):
        return web.Response(status=403, text=place)
    if not index.is_file():
        return web.Response(status=503, text="The board's page is not built.")
    return web.FileResponse(index)


async def watch_socket(request: web.Request, hub: Hub,
                       sockets: set[web.WebSocketResponse]) -> web.StreamResponse:
    match_id, place = await place_of(request, hub)
    if isinstance(place, str):
        return web.json_response({"error": place}, status=403)
    if sum(1 for room in hub.rooms.values() for c in room.clients
           if c.actor is SPECTATOR) >= MAX_WATCHERS:
        return web.json_response({"error": BUSY}, status=503)
    ws = web.WebSocketResponse(max_msg_size=256, heartbeat=20)
    await ws.prepare(request)
    sockets.add(ws)

    async def send(message: Json | str) -> None:
        if ws.closed:
            return
        state = json.loads(message) if isinstance(message, str) else message
        if state.get("type") != "state":
            return
        if state.get("match") not in (None, match_id):
            await ws.send_str(json.dumps({"type": "ended", "text": (
                f"Game {match_id} is over: its result is in its channel.")}))
            await ws.close()
            return
        await ws.send_str(json.dumps(read_only(state, match_id)))

    client = Client(SPECTATOR, place, send)
    await hub.join(client)
    try:
        said = 0
        async for msg in ws:
            if msg.type is WSMsgType.TEXT:
                said += 1
                if said > MAX_REFUSED:  # a page that keeps trying is not a watcher's
                    await ws.close(code=WSCloseCode.POLICY_VIOLATION,
                                   message=b"a watch page is read-only")
                    break
                await ws.send_str(json.dumps({"type": "refused", "text": READ_ONLY}))
    finally:
        sockets.discard(ws)
        hub.leave(client)
    return ws

"""The web board's routes: the page, its sign-in, its websocket.

Every response carries a Content-Security-Policy (scripts, styles and connections of this
origin only; framed by Discord only).  A POST and a websocket are accepted only from this
server's own origin or Discord's activity proxy (``https://{application id}.discordsays.com``).
A websocket message is at most :data:`MAX_MESSAGE` bytes (a longer one closes the socket,
1009) and a page sends at most :data:`BURST` messages at once, :data:`RATE` a second after
that (the others are refused, saying so).
"""

from __future__ import annotations

import json
import logging
import time
from pathlib import Path
from typing import Any

from aiohttp import WSCloseCode, WSMsgType, web

from bot.adapters.web.auth import AuthError, DiscordAuth, Identity, Sessions, local_identity
from bot.adapters.web.hub import Client, Hub
from bot.adapters.web.state import Json
from bot.adapters.web.watch import watch_page, watch_socket
from bot.ops.logs import apology, error_reference
from bot.service.core.limits import shown
from bot.service.core.replies import Action
from bot.service.core.values import Expect
from bot.service.game import GameService

log = logging.getLogger(__name__)

BUNDLE = Path(__file__).resolve().parents[3] / "web" / "dist"
"""The built page (``cd web && npm ci && npm run build``)."""
MAX_MESSAGE = 2048
BURST = 10
RATE = 5.0
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self' https://discord.com; base-uri 'none'; form-action 'none'; "
       "frame-ancestors 'self' https://discord.com https://*.discord.com "
       "https://*.discordsays.com")
ACTIONS = {a.value: a for a in Action if a is not Action.BOARD}
FOREIGN = ("This page's origin may not use the board: open it from the bot's address or "
           "as Discord's activity.")
NO_BUNDLE = ("The board's page is not built: run `cd web && npm ci && npm run build`, then "
             "reload.")

HUB = web.AppKey("hub", Hub)
SESSIONS = web.AppKey("sessions", Sessions)
SETTINGS = web.AppKey("settings", dict)
SOCKETS = web.AppKey("sockets", set[web.WebSocketResponse])


@web.middleware
async def headers(request: web.Request, handler: Any) -> web.StreamResponse:
    response: web.StreamResponse = await handler(request)
    response.headers["Content-Security-Policy"] = CSP
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


def origin_allowed(request: web.Request) -> bool:
    origin = request.headers.get("Origin", "")
    own = f"{request.scheme}://{request.host}"
    return origin == own or origin in request.app[SETTINGS]["origins"]


def refuse(status: int, text: str) -> web.Response:
    return web.json_response({"error": text}, status=status)


async def read_json(request: web.Request) -> dict[str, Any]:
    if not origin_allowed(request):
        raise web.HTTPForbidden(text=json.dumps({"error": FOREIGN}),
                                content_type="application/json")
    if (request.content_length or 0) > MAX_MESSAGE:
        raise web.HTTPRequestEntityTooLarge(
            MAX_MESSAGE, request.content_length or 0, content_type="application/json",
            text=json.dumps({"error": f"At most {MAX_MESSAGE} bytes a request."}))
    try:
        body = await request.json()
    except ValueError:
        body = None
    return body if isinstance(body, dict) else {}


def signed_in(request: web.Request, identity: Identity) -> web.Response:
    token = request.app[SESSIONS].open(identity)
    return web.json_response({"session": token, "user": {
        "id": str(identity.actor.id), "name": identity.actor.name}})


async def page(request: web.Request) -> web.StreamResponse:
    index = request.app[SETTINGS]["bundle"] / "index.html"
    if not index.is_file():
        return web.Response(status=503, text=NO_BUNDLE)
    return web.FileResponse(index)


async def settings(request: web.Request) -> web.Response:
    s = request.app[SETTINGS]
    auth: DiscordAuth | None = s["auth"]
    return web.json_response({"mode": "local" if s["local"] else "discord",
                              "client_id": str(auth.application_id) if auth else ""})


async def local_login(request: web.Request) -> web.Response:
    body = await read_json(request)
    if not request.app[SETTINGS]["local"]:
        return refuse(403, "Sign in with Discord: this board is Discord's activity.")
    try:
        return signed_in(request, local_identity(body.get("name"), body.get("channel")))
    except AuthError as error:
        return refuse(400, str(error))


async def token(request: web.Request) -> web.Response:
    body = await read_json(request)
    auth: DiscordAuth | None = request.app[SETTINGS]["auth"]
    if auth is None:
        return refuse(403, "This board is not set up as Discord's activity.")
    try:
        return web.json_response({"access_token": await auth.exchange(body.get("code"))})
    except AuthError as error:
        return refuse(400, str(error))


async def discord_session(request: web.Request) -> web.Response:
    body = await read_json(request)
    auth: DiscordAuth | None = request.app[SETTINGS]["auth"]
    if auth is None:
        return refuse(403, "This board is not set up as Discord's activity.")
    try:
        identity = await auth.session(body.get("access_token"), body.get("instance_id"))
    except AuthError as error:
        return refuse(403, str(error))
    return signed_in(request, identity)


class Bucket:
    """At most ``BURST`` messages at once, ``RATE`` a second after that."""

    def __init__(self) -> None:
        self.left = float(BURST)
        self.at = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.left = min(float(BURST), self.left + (now - self.at) * RATE)
        self.at = now
        if self.left < 1:
            return False
        self.left -= 1
        return True


async def socket(request: web.Request) -> web.StreamResponse:
    if not origin_allowed(request):
        return refuse(403, FOREIGN)
    ws = web.WebSocketResponse(max_msg_size=MAX_MESSAGE, heartbeat=20)
    await ws.prepare(request)
    request.app[SOCKETS].add(ws)
    hub = request.app[HUB]
    client: Client | None = None
    bucket = Bucket()

    async def send(message: Json | str) -> None:
        if not ws.closed:
            await ws.send_str(message if isinstance(message, str) else json.dumps(message))

    try:
        async for msg in ws:
            if msg.type is not WSMsgType.TEXT:
                continue
            if not bucket.take():
                await send({"type": "refused", "text": f"Too many messages: at most {RATE:g} "
                            "a second. That one was not carried out: wait a moment."})
                continue
            try:
                data = json.loads(msg.data)
            except ValueError:
                data = None
            if not isinstance(data, dict):
                await send({"type": "refused", "text": "That message was not understood."})
                continue
            if client is None:
                identity = request.app[SESSIONS].get(data.get("session"))
                if data.get("type") != "hello" or identity is None:
                    await send({"type": "signin", "text": "Sign in again: this session is "
                                "not known (the bot may have restarted)."})
                    continue
                client = Client(identity.actor, identity.place, send)
                await hub.join(client)
                continue
            try:
                if data.get("type") == "act":
                    await act(hub, client, data)
                elif data.get("type") == "challenge" and request.app[SETTINGS]["local"]:
                    await challenge(hub, client, data)
            except Exception as error:  # a bug: the page gets a reference to quote
                ref = error_reference()
                log.error("unexpected error %s in a web action", ref, exc_info=error)
                await send({"type": "refused", "text": apology(ref)})
    finally:
        request.app[SOCKETS].discard(ws)
        if client is not None:
            hub.leave(client)
    return ws


async def act(hub: Hub, client: Client, data: dict[str, Any]) -> None:
    name = data.get("action")
    action = ACTIONS.get(name) if isinstance(name, str) else None
    if action is None:
        await client.send({"type": "refused", "text": (
            f"There is no action {shown(str(name), 20)}: use the board's buttons.")})
        return
    option = data.get("option")
    option = option[:200] if isinstance(option, str) and option else None
    version, match = data.get("version"), data.get("match")
    expect = (Expect(version, match if isinstance(match, int) else None)
              if isinstance(version, int) and not isinstance(version, bool) else None)
    reply = await hub.service.act(action, client.place, client.actor, option=option,
                                  expect=expect)
    if not reply.ok:
        await client.send({"type": "refused", "text": reply.text})
    elif reply.ephemeral and reply.text:
        await client.send({"type": "said", "text": reply.text})


async def challenge(hub: Hub, client: Client, data: dict[str, Any]) -> None:
    """A challenge of the local board (``python -m bot web``): the console's user named
    ``opponent``, a match of ``length`` points (0: a money game), as /challenge makes it."""
    try:
        opponent = local_identity(data.get("opponent"), None).actor
    except AuthError as error:
        await client.send({"type": "refused", "text": f"Name your opponent. {error}"})
        return
    length = data.get("length", 3)
    if not isinstance(length, int) or isinstance(length, bool) or not 0 <= length <= 25:
        await client.send({"type": "refused", "text": "A match is 1 to 25 points long (0: "
                           "a money game)."})
        return
    reply = await hub.service.challenge(client.place, client.actor, opponent, length=length)
    if not reply.ok:
        await client.send({"type": "refused", "text": reply.text})
    else:
        await client.send({"type": "said", "text": reply.text})


def make_app(service: GameService, *, local: bool = False, auth: DiscordAuth | None = None,
             bundle: Path = BUNDLE, origins: tuple[str, ...] = ()) -> web.Application:
    """The board's web application on ``service`` (``local``: the mock identity of
    ``python -m bot web``; ``auth``: Discord's sign-in; ``origins``: other origins that
    may connect, besides the server's own and Discord's proxy)."""
    app = web.Application(middlewares=[headers], client_max_size=MAX_MESSAGE * 4)
    hub = Hub(service)
    hub.attach()
    allowed = set(origins)
    if auth is not None:
        allowed.add(f"https://{auth.application_id}.discordsays.com")
    app[HUB] = hub
    app[SESSIONS] = Sessions()
    app[SOCKETS] = set()
    app[SETTINGS] = {"local": local, "auth": auth, "bundle": bundle, "origins": allowed}
    app.router.add_get("/", page)
    app.router.add_get("/api/settings", settings)
    app.router.add_post("/api/local/login", local_login)
    app.router.add_post("/api/token", token)
    app.router.add_post("/api/session", discord_session)
    app.router.add_get("/ws", socket)

    async def watching(request: web.Request) -> web.StreamResponse:
        return await watch_page(request, hub, bundle / "index.html")

    async def watch_ws(request: web.Request) -> web.StreamResponse:
        return await watch_socket(request, hub, request.app[SOCKETS])

    app.router.add_get("/watch/{match}", watching)
    app.router.add_get("/ws/watch/{match}", watch_ws)
    if bundle.is_dir():
        app.router.add_static("/assets", bundle, show_index=False)

    async def going_away(app: web.Application) -> None:
        """The bot stops: every page is told (1001), and reconnects when it is back."""
        sockets: set[web.WebSocketResponse] = app[SOCKETS]
        for ws in tuple(sockets):
            await ws.close(code=WSCloseCode.GOING_AWAY, message=b"the bot is restarting")

    async def close(app: web.Application) -> None:
        await app[HUB].close()

    app.on_shutdown.append(going_away)
    app.on_cleanup.append(close)
    return app

"""A small fake Discord for end-to-end tests: REST and the websocket gateway on 127.0.0.1.

The real discord.py client talks to it unmodified; the test fixture only
redirects ``discord.http.Route.BASE`` and
``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` here.

What it does, like Discord:

* ``GET /users/@me``, ``GET /oauth2/applications/@me`` (the application id),
  ``GET /gateway/bot``;
* command sync: ``PUT /applications/{id}/commands`` and the guild variant
  (the payloads are kept: :attr:`FakeDiscord.syncs`, :attr:`FakeDiscord.commands`);
* the gateway: HELLO, IDENTIFY -> READY + GUILD_CREATE, heartbeats and their
  ACKs, zlib-stream compression when asked;
* interactions: :meth:`FakeDiscord.slash`, :meth:`FakeDiscord.autocomplete`
  and :meth:`FakeDiscord.click` send ``INTERACTION_CREATE``; the callback
  ``POST /interactions/{id}/{token}/callback`` (JSON or multipart with
  ``payload_json`` and ``files[n]``) answers with the response message id;
  follow-ups ``/webhooks/{app_id}/{token}`` and ``.../messages/@original``;
* channel messages and threads (``POST /channels/{id}/threads``,
  ``POST /channels/{id}/messages``, ``DELETE /channels/{id}``);
* user installs (issue 32): :meth:`FakeDiscord.add_dm` makes a DM (type 1) or a group DM
  (type 3) between users who installed the app to their account (:meth:`FakeDiscord.
  install_to_user`); an interaction there carries no guild, its ``context`` (1 BOT_DM,
  2 PRIVATE_CHANNEL; 0 GUILD in the guild), ``authorizing_integration_owners`` (``"0"``: the
  guild that installed the app, ``"1"``: the user who did) and ``app_permissions``; a
  command is dispatched only where its ``contexts`` and ``integration_types`` allow it, as
  Discord's client offers it; every channel REST call is recorded (:attr:`FakeDiscord.
  channel_calls`) and refused 403 Missing Access (50001) on a channel the bot is not a
  member of; interaction webhooks (follow-ups, edits of its messages) answer 401 Invalid
  Webhook Token (50027) once the token's 15 minutes are over (:meth:`FakeDiscord.advance`
  moves the fake's clock on).

JSON answers have a ``Content-Type`` of exactly ``application/json`` (what
discord.py checks).  Requests the fake does not know are recorded in
:attr:`FakeDiscord.unknown` and answered 404.

As strict as Discord (issue 29; the section "Discord's strictness" below), each refusal
with Discord's status and error code, recorded in :attr:`FakeDiscord.refusals`:

* a first response more than 3 s after the interaction was sent: 404, 10062 "Unknown
  interaction" (the interaction stays unanswered); a second one: 400, 40060;
* a follow-up, an edit, a read or a delete through the interaction's webhook before its
  first response: 404, 10015 "Unknown Webhook"; 15 minutes after the interaction:
  401, 50027 "Invalid Webhook Token";
* a payload over Discord's limits (tests/support/discord_limits.py): 400, 50035
  "Invalid Form Body"; an empty new message: 400, 50006; a file over 10 MiB: 413, 40005
  "Request entity too large";
* a command sync whose schema Discord refuses: 400, 50035.

Beyond the docs, recorded in :attr:`FakeDiscord.hygiene` (the end-to-end fixture fails on
any; issue 43 items 1 and 5): a follow-up used as the first answer of a deferred
interaction (the documented way edits ``@original``), ``invitable`` on a public thread,
``dm_permission`` beside ``contexts``, ``contexts`` or ``integration_types`` in a server's
command sync.

Discord's rate limits (issue 43 item 2: per-route buckets and their headers, 429 with
``retry_after``, the global limit) once a test switches them on with
:meth:`FakeDiscord.rate_limit` (:mod:`fake_ratelimits`).

Time is the fake's :meth:`FakeDiscord.clock`, which a test moves on with
:meth:`FakeDiscord.advance`; :attr:`FakeDiscord.latency` seconds pass before every REST
request is handled (the network's delay, which the 3 s include).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import discord
import discord_limits as limits
from aiohttp import BodyPartReader, WSMsgType, web
from fake_channels import ADMINISTRATOR, Channels
from fake_channels import Refused as ChannelRefused
from fake_ratelimits import RateLimits

EPHEMERAL = 64
LOADING = 128
ALL_PERMISSIONS = discord.Permissions.all().value
TIMEOUT = 10.0
GUILD, BOT_DM, PRIVATE_CHANNEL = 0, 1, 2
"""An interaction's ``context`` (and a command's ``contexts``)."""
GUILD_INSTALL, USER_INSTALL = 0, 1
"""An ``integration_types`` value (and a key of ``authorizing_integration_owners``)."""
DM_APP_PERMISSIONS = discord.Permissions(
    embed_links=True, attach_files=True, mention_everyone=True, use_external_emojis=True,
    send_messages=True, read_message_history=True).value
"""What an app may do in its interaction responses where its bot is not a member."""
RESPONSE_DEADLINE = 3.0
"""Seconds Discord waits for an interaction's first response."""
TOKEN_LIFETIME = 15 * 60.0
"""Seconds an interaction token stays valid for follow-ups and edits."""


class Refused(Exception):
    """A request Discord would refuse: answered with ``status`` and error ``code``."""

    def __init__(self, status: int, code: int, message: str, detail: str = "") -> None:
        super().__init__(f"{status} {code} {message}: {detail}")
        self.status = status
        self.code = code
        self.message = message
        self.detail = detail


def now() -> str:
    return datetime.now(UTC).isoformat()


@dataclass
class User:
    id: int
    name: str
    bot: bool = False
    permissions: int = ALL_PERMISSIONS
    """The member's permissions as an interaction carries them (``member.permissions``)."""
    roles: list[int] = field(default_factory=list)
    """The member's roles (ids of :meth:`FakeDiscord.add_role`)."""

    def json(self) -> dict[str, Any]:
        return {"id": str(self.id), "username": self.name, "global_name": self.name,
                "discriminator": "0", "avatar": None, "bot": self.bot, "public_flags": 0}

    def member(self) -> dict[str, Any]:
        return {"user": self.json(), "roles": [str(r) for r in self.roles],
                "joined_at": now(), "deaf": False, "mute": False, "flags": 0, "nick": None,
                "avatar": None, "permissions": str(self.permissions)}

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


@dataclass
class Message:
    id: int
    channel_id: int
    guild_id: int | None
    author: User
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    files: dict[str, bytes] = field(default_factory=dict)
    descriptions: dict[str, str] = field(default_factory=dict)
    """File name -> the attachment's description (its alt text), where one was sent."""
    flags: int = 0
    interaction_id: int | None = None
    edits: int = 0
    """How many times the message was edited after it was posted."""

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & LOADING)

    @property
    def text(self) -> str:
        """Content and embed descriptions together (what a reader sees)."""
        parts = [self.content] + [str(e.get("description", "")) for e in self.embeds]
        return "\n".join(p for p in parts if p)

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for row in self.components for c in row.get("components", [])
                if "custom_id" in c]

    def button(self, label: str) -> dict[str, Any]:
        for row in self.components:
            for c in row.get("components", []):
                if c.get("label") == label:
                    return dict(c)
        raise KeyError(f"no button {label!r} on message {self.id}: "
                       f"{[c.get('label') for r in self.components for c in r['components']]}")

    def labels(self) -> list[str]:
        return [str(c.get("label")) for row in self.components
                for c in row.get("components", []) if c.get("type") == 2]

    def menus(self) -> list[dict[str, Any]]:
        """The select menus (type 3) of the message, in order."""
        return [dict(c) for row in self.components for c in row.get("components", [])
                if c.get("type") == 3]

    def menu(self, placeholder: str) -> dict[str, Any]:
        """The select menu whose placeholder starts with ``placeholder``."""
        for found in self.menus():
            if str(found.get("placeholder", "")).startswith(placeholder):
                return found
        raise KeyError(f"no menu {placeholder!r} on message {self.id}: "
                       f"{[m.get('placeholder') for m in self.menus()]}")

    def json(self, base: str) -> dict[str, Any]:
        return {
            "id": str(self.id), "channel_id": str(self.channel_id),
            **({"guild_id": str(self.guild_id)} if self.guild_id is not None else {}),
            "author": self.author.json(),
            "content": self.content, "timestamp": now(), "edited_timestamp": None,
            "tts": False, "mention_everyone": False, "mentions": [], "mention_roles": [],
            "attachments": [
                {"id": str(i), "filename": name, "size": len(data),
                 "url": f"{base}/attachments/{self.id}/{name}",
                 "proxy_url": f"{base}/attachments/{self.id}/{name}",
                 "content_type": "image/png" if name.endswith(".png") else None,
                 **({"description": self.descriptions[name]}
                    if name in self.descriptions else {})}
                for i, (name, data) in enumerate(self.files.items())],
            "embeds": self.embeds, "pinned": False, "type": 0, "flags": self.flags,
            "components": self.components,
        }


@dataclass
class Interaction:
    """One interaction sent to the bot and everything it answered."""

    id: int
    token: str
    type: int
    user: User
    channel_id: int
    callbacks: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    messages: list[Message] = field(default_factory=list)
    """Messages this interaction created or resolved (not the loading placeholder)."""
    edits: list[Message] = field(default_factory=list)
    choices: list[dict[str, Any]] | None = None
    original: Message | None = None
    source: Message | None = None
    fake: FakeDiscord | None = None
    sent_at: float = 0.0
    """When the interaction was sent (the fake's :meth:`FakeDiscord.clock`)."""
    answered_at: float | None = None
    refusals: list[str] = field(default_factory=list)
    """What Discord refused of this interaction's requests (10062, 10015, 50027...)."""
    context: int = GUILD
    owners: dict[str, str] = field(default_factory=dict)
    """``authorizing_integration_owners`` as sent."""
    unanswerable: bool = False
    """Sent from a thread a moderator locked and archived: Discord refuses every answer
    (:meth:`Channels.answer_in`), so no answer is expected."""

    @property
    def answer_time(self) -> float | None:
        """Seconds from dispatch to the callback (Discord allows 3)."""
        return None if self.answered_at is None else self.answered_at - self.sent_at

    @property
    def callback_type(self) -> int:
        return self.callbacks[0][0] if self.callbacks else 0

    def describe(self) -> str:
        return (f"interaction {self.id}: callbacks {[k for k, _ in self.callbacks]}, "
                f"messages {[(m.flags, m.text) for m in self.messages]}")

    async def _until(self, predicate: Callable[[], bool], what: str) -> None:
        assert self.fake is not None
        try:
            await self.fake.until(predicate)
        except TimeoutError:
            raise AssertionError(f"waited in vain for {what}; {self.describe()}") from None

    async def acknowledged(self) -> int:
        await self._until(lambda: bool(self.callbacks), "the callback")
        return self.callback_type

    async def message(self, index: int = 0) -> Message:
        """The ``index``-th message this interaction produced (waits for it)."""
        await self._until(lambda: len(self.messages) > index, f"message {index}")
        return self.messages[index]

    async def public(self) -> Message:
        """The first non-ephemeral message this interaction produced."""
        await self._until(lambda: any(not m.ephemeral for m in self.messages),
                          "a public message")
        return next(m for m in self.messages if not m.ephemeral)


class FakeDiscord:
    """The fake server: one application, one guild with one text channel."""

    def __init__(self) -> None:
        self._ids = itertools.count(1_100_000_000_000_000_000)
        self.app_id = self.snowflake()
        self.bot_user = User(self.app_id, "bgbot", bot=True)
        self.guild_id = self.snowflake()
        self.client_secret = "fake-client-secret"
        """The application's OAuth2 client secret (``POST /oauth2/token`` checks it)."""
        self.activity_instances: dict[str, dict[str, Any]] = {}
        """Activities launched by a LAUNCH_ACTIVITY answer (issue 45), by instance id."""
        self.oauth_codes: dict[str, int] = {}
        self.access_tokens: dict[str, int] = {}
        self.channel_id = self.snowflake()
        self.users: dict[int, User] = {}
        self.messages: dict[int, Message] = {}
        self.channels: dict[int, dict[str, Any]] = {
            self.channel_id: {"id": str(self.channel_id), "type": 0, "name": "general",
                              "guild_id": str(self.guild_id), "position": 0,
                              "permission_overwrites": [], "nsfw": False,
                              "rate_limit_per_user": 0, "topic": None, "parent_id": None}}
        self.roles: dict[int, dict[str, Any]] = {}
        """The guild's roles besides @everyone (:meth:`add_role`)."""
        self.everyone_permissions = ALL_PERMISSIONS & ~ADMINISTRATOR
        """The @everyone role's permissions (a member's guild permissions start there; not
        Administrator, so that channel overwrites count)."""
        self.interactions: dict[str, Interaction] = {}
        self.syncs: list[tuple[int | None, list[dict[str, Any]]]] = []
        self.commands: dict[str, dict[str, Any]] = {}
        self.tokens: list[str] = []
        self.heartbeats = 0
        self.unknown: list[str] = []
        self.deleted: list[int] = []
        """Ids of the channel messages the bot deleted."""
        self.app_permissions = ALL_PERMISSIONS
        """A cap on the ``app_permissions`` interactions carry (they carry the bot's
        permissions in their channel, :meth:`Channels.bot_permissions`, within it)."""
        self.guard = Channels(self)
        """The channels as Discord treats them: types, permissions, archived threads
        (:mod:`fake_channels`)."""
        self.guild_installed = True
        """Whether the guild installed the app (its bot is a member): False for a server
        where only users installed it."""
        self.user_installs: set[int] = set()
        """The users who installed the app to their account."""
        self.no_access: set[int] = set()
        """Channels the bot is not a member of (DMs between users, group DMs)."""
        self.channel_calls: list[tuple[str, int]] = []
        """Every REST call on a channel: (method and path, channel id)."""
        self.latency = 0.0
        """Seconds every REST request takes to reach the fake (the network's delay)."""
        self._skew = 0.0
        self.refusals: list[str] = []
        """Every request refused as Discord would refuse it: "METHOD path: status code ..."."""
        self.hygiene: list[str] = []
        """Requests Discord accepts but whose fields its docs define for other calls only
        (``invitable`` on a public thread, ``dm_permission`` beside ``contexts``, a
        server's command with ``contexts``): the end-to-end fixture fails on any."""
        self.identified: list[dict[str, Any]] = []
        """The IDENTIFY payloads received (their ``intents``: :attr:`intents`)."""
        self.limits: RateLimits | None = None
        """Discord's rate limits, once a test switched them on (:meth:`rate_limit`)."""
        self._sockets: list[Socket] = []
        self._changed = asyncio.Condition()
        self._runner: web.AppRunner | None = None
        self.port = 0

    # ------------------------------------------------------------ plumbing

    def enable_activities(self) -> None:
        """Activities switched on in the developer portal: Discord creates the app's
        default Entry Point command, "Launch" (handler DISCORD_LAUNCH_ACTIVITY), which a
        global bulk overwrite must then include (else 50240)."""
        self.commands["launch"] = {
            "id": str(self.snowflake()), "application_id": str(self.app_id),
            "version": str(self.snowflake()), "name": "launch", "description": "Launch",
            "type": limits.PRIMARY_ENTRY_POINT, "handler": 2}

    def snowflake(self) -> int:
        return next(self._ids)

    def user(self, name: str) -> User:
        user = User(self.snowflake(), name)
        self.users[user.id] = user
        return user

    def add_channel(self, name: str) -> int:
        """Another text channel of the guild (before the bot connects: GUILD_CREATE
        lists it); its id."""
        channel_id = self.snowflake()
        self.channels[channel_id] = {
            "id": str(channel_id), "type": 0, "name": name, "guild_id": str(self.guild_id),
            "position": len(self.channels), "permission_overwrites": [], "nsfw": False,
            "rate_limit_per_user": 0, "topic": None, "parent_id": None}
        return channel_id

    def install_to_user(self, *users: User) -> None:
        """``users`` install the app to their account (a user install)."""
        self.user_installs.update(u.id for u in users)

    def add_dm(self, *users: User, group: bool = False) -> int:
        """A DM (type 1) between two users, a user and the bot, or a group DM (type 3);
        its id.  The bot is a member only of its own DM with a user."""
        channel_id = self.snowflake()
        recipients = [u.json() for u in users]
        channel: dict[str, Any] = {"id": str(channel_id), "type": 3 if group else 1,
                                   "recipients": recipients, "last_message_id": None,
                                   "flags": 0}
        if group:
            channel.update(name="backgammon friends", icon=None, owner_id=str(users[0].id))
        self.channels[channel_id] = channel
        if not any(u.id == self.app_id for u in users):
            self.no_access.add(channel_id)
        return channel_id

    def add_foreign_guild(self) -> tuple[int, int]:
        """Another server, which did not install the app (its bot is not a member; only its
        users may have installed it to their accounts): (its id, its text channel's id)."""
        guild_id, channel_id = self.snowflake(), self.snowflake()
        self.channels[channel_id] = {
            "id": str(channel_id), "type": 0, "name": "lounge", "guild_id": str(guild_id),
            "position": 0, "permission_overwrites": [], "nsfw": False,
            "rate_limit_per_user": 0, "topic": None, "parent_id": None}
        self.no_access.add(channel_id)
        return guild_id, channel_id

    def guild_of(self, channel_id: int) -> int | None:
        """The server of a channel (None: a DM or group DM)."""
        if self.is_private(channel_id):
            return None
        return int(self.channels.get(channel_id, {}).get("guild_id", self.guild_id))

    def bot_member(self, channel_id: int) -> bool:
        """Whether the bot is a member where ``channel_id`` is."""
        if self.is_private(channel_id):
            return channel_id not in self.no_access
        return self.guild_installed and self.guild_of(channel_id) == self.guild_id

    def is_private(self, channel_id: int) -> bool:
        return self.channels.get(channel_id, {}).get("type") in (1, 3)

    def context_of(self, channel_id: int) -> int:
        """The interaction ``context`` of a channel."""
        if not self.is_private(channel_id):
            return GUILD
        return BOT_DM if channel_id not in self.no_access else PRIVATE_CHANNEL

    def add_role(self, name: str, permissions: int = 0) -> int:
        """A role of the guild (before the bot connects); its id."""
        role_id = self.snowflake()
        self.roles[role_id] = {
            "id": str(role_id), "name": name, "permissions": str(permissions),
            "position": len(self.roles) + 1, "color": 0, "hoist": False, "managed": False,
            "mentionable": True, "flags": 0}
        return role_id

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api(self) -> str:
        return f"{self.base}/api/v10"

    @property
    def gateway(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    async def start(self) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", "/api/v10/{path:.*}", self._rest)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert server is not None
        sockets = getattr(server, "sockets", None)
        assert sockets
        self.port = sockets[0].getsockname()[1]

    async def stop(self) -> None:
        for sock in list(self._sockets):
            await sock.ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    async def _notify(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    async def until(self, predicate: Callable[[], bool], timeout: float = TIMEOUT) -> None:
        async def wait() -> None:
            async with self._changed:
                await self._changed.wait_for(predicate)

        await asyncio.wait_for(wait(), timeout)

    @staticmethod
    def _json(data: Any, status: int = 200) -> web.Response:
        return web.Response(status=status, body=json.dumps(data).encode(),
                            headers={"Content-Type": "application/json"})

    # ------------------------------------------------------------- gateway

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(autoping=True)
        await ws.prepare(request)
        sock = Socket(ws, request.query.get("compress") == "zlib-stream")
        self._sockets.append(sock)
        try:
            await sock.send({"op": 10, "d": {"heartbeat_interval": 41250}})
            async for msg in ws:
                if msg.type is not WSMsgType.TEXT:
                    continue
                data = json.loads(msg.data)
                op = data.get("op")
                if op == 1:
                    self.heartbeats += 1
                    await sock.send({"op": 11})
                elif op == 2:
                    await self._identify(sock, data["d"])
        finally:
            self._sockets.remove(sock)
        return ws

    async def _identify(self, sock: Socket, data: dict[str, Any]) -> None:
        self.tokens.append(str(data.get("token")))
        self.identified.append({k: v for k, v in data.items() if k != "token"})
        shard = data.get("shard") or [0, 1]
        await sock.dispatch("READY", {
            "v": 10, "user": self.bot_user.json(), "guilds": [
                {"id": str(self.guild_id), "unavailable": True}],
            "session_id": f"session-{self.snowflake()}", "resume_gateway_url": self.gateway,
            "shard": shard, "application": {"id": str(self.app_id), "flags": 0},
        })
        await sock.dispatch("GUILD_CREATE", self._guild())
        sock.ready = True
        await self._notify()

    def _guild(self) -> dict[str, Any]:
        return {
            "id": str(self.guild_id), "name": "Backgammon club", "icon": None,
            "owner_id": str(next(iter(self.users), self.guild_id)), "unavailable": False,
            "roles": [{"id": str(self.guild_id), "name": "@everyone",
                       "permissions": str(self.everyone_permissions), "position": 0,
                       "color": 0, "hoist": False, "managed": False, "mentionable": False,
                       "flags": 0}, *self.roles.values()],
            "channels": [c for c in self.guard.guild_channels()  # (not DMs, other servers)
                         if c.get("guild_id") == str(self.guild_id)],
            "threads": self.guard.guild_threads(), "members": [self.bot_user.member()],
            "member_count": 3,
            "joined_at": now(), "large": False, "features": [], "emojis": [],
            "stickers": [], "voice_states": [], "presences": [], "stage_instances": [],
            "guild_scheduled_events": [], "premium_tier": 0, "preferred_locale": "en-US",
            "verification_level": 0, "default_message_notifications": 0,
            "explicit_content_filter": 0, "mfa_level": 0, "nsfw_level": 0,
            "system_channel_flags": 0, "afk_timeout": 300, "soundboard_sounds": [],
        }

    @property
    def is_connected(self) -> bool:
        """Whether a bot has identified and is connected now."""
        return any(s.ready for s in self._sockets)

    async def connected(self) -> None:
        """Wait until a bot has identified (READY and GUILD_CREATE were sent)."""
        await self.until(lambda: any(s.ready for s in self._sockets))

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        socks = [s for s in self._sockets if s.ready]
        assert socks, "no bot is connected to the fake gateway"
        await socks[-1].dispatch(event, data)

    # ---------------------------------------------------------- interactions

    def _channel(self, channel_id: int) -> dict[str, Any]:
        channel = dict(self.channels[channel_id])
        if not self.is_private(channel_id):
            channel.setdefault("permissions", str(ALL_PERMISSIONS))
        return channel

    def _owners(self, user: User, channel_id: int,
                message: Message | None) -> dict[str, str]:
        """``authorizing_integration_owners``: a component on a message carries its
        interaction's owners (whoever presses it); a command those of the installs that
        authorise it for ``user`` here."""
        if message is not None and message.interaction_id is not None:
            origin = next((r for r in self.interactions.values()
                           if r.id == message.interaction_id), None)
            if origin is not None:
                return dict(origin.owners)
        owners: dict[str, str] = {}
        if not self.is_private(channel_id):
            if self.bot_member(channel_id):
                owners[str(GUILD_INSTALL)] = str(self.guild_id)
        elif self.context_of(channel_id) == BOT_DM and self.guild_installed:
            owners[str(GUILD_INSTALL)] = "0"  # the bot's DM of a user of its servers
        if user.id in self.user_installs:
            owners[str(USER_INSTALL)] = str(user.id)
        return owners

    def _interaction(self, kind: int, user: User, channel_id: int,
                     data: dict[str, Any], *, message: Message | None = None,
                     app_permissions: int | None = None) -> tuple[Interaction, dict[str, Any]]:
        iid = self.snowflake()
        token = f"itoken-{iid}"
        context = self.context_of(channel_id)
        owners = self._owners(user, channel_id, message)
        assert owners, (f"{user.name} can't use the app here: neither the server nor the "
                        "user installed it")
        record = Interaction(iid, token, kind, user, channel_id, fake=self, source=message,
                             sent_at=self.clock(), context=context, owners=owners,
                             unanswerable=(self.guard.archived(channel_id)
                                           and self.guard.locked(channel_id)))
        self.interactions[token] = record
        if app_permissions is None:  # the bot's in its channel, else an app's in answers
            member = context == GUILD and self.bot_member(channel_id)
            app_permissions = (self.app_permissions & self.guard.bot_permissions(channel_id)
                               if member else DM_APP_PERMISSIONS)
        payload: dict[str, Any] = {
            "id": str(iid), "application_id": str(self.app_id), "type": kind,
            "token": token, "version": 1,
            "channel_id": str(channel_id), "channel": self._channel(channel_id),
            "locale": "en-US", "app_permissions": str(app_permissions),
            "attachment_size_limit": limits.MAX_FILE_SIZE, "entitlements": [],
            "authorizing_integration_owners": owners, "context": context,
            "data": data,
        }
        if context == GUILD:
            payload.update(guild_id=str(self.guild_of(channel_id)), member=user.member(),
                           guild_locale="en-US")
        else:
            payload["user"] = user.json()
        if message is not None:
            payload["message"] = message.json(self.base)
        return record, payload

    def _offered(self, name: str, user: User, channel_id: int) -> None:
        """Discord's client offers a command only where its ``contexts`` and
        ``integration_types`` allow it."""
        command = self.commands[name.split()[0]]
        context = self.context_of(channel_id)
        contexts = command.get("contexts")
        if "guild_id" in command:  # a server's command: offered there only, to its members
            contexts = [GUILD]
            assert self.guild_of(channel_id) == int(command["guild_id"]), (
                f"/{name} is a command of server {command['guild_id']} only")
        elif contexts is None:  # (no contexts: dm_permission decides, as before)
            contexts = [GUILD, BOT_DM, PRIVATE_CHANNEL] if command.get(
                "dm_permission", True) else [GUILD]
        assert context in contexts, f"/{name} is not offered in context {context}: {contexts}"
        types = ([GUILD_INSTALL] if "guild_id" in command
                 else command.get("integration_types") or [GUILD_INSTALL])
        owners = self._owners(user, channel_id, None)
        assert any(str(t) in owners for t in types), (
            f"/{name} is not offered to {user.name} here: it is for installs {types}, "
            f"the app is installed {sorted(owners)}")

    def _options(self, name: str, values: dict[str, Any], focused: str | None = None,
                 *, guild: bool = True) -> tuple[dict[str, Any], dict[str, Any]]:
        """The interaction data of ``/name``; a name with spaces is a subcommand
        (``"chouette open"``), nested in its group's options like Discord does."""
        top, *subs = name.split()
        command = self.commands.get(top)
        assert command is not None, f"/{top} was never synced to the fake"
        path: list[dict[str, Any]] = []
        holder = command
        for sub in subs:  # SUB_COMMAND (1) or SUB_COMMAND_GROUP (2)
            found = [o for o in holder.get("options", [])
                     if o["name"] == sub and o["type"] in (1, 2)]
            assert found, f"/{top} has no subcommand {sub!r}"
            holder = found[0]
            path.append(holder)
        spec = {o["name"]: o for o in holder.get("options", [])}
        options: list[dict[str, Any]] = []
        resolved: dict[str, Any] = {}
        for key, value in values.items():
            assert key in spec, f"/{name} has no option {key!r}: {sorted(spec)}"
            kind = spec[key]["type"]
            option: dict[str, Any] = {"name": key, "type": kind}
            if kind == 6:
                assert isinstance(value, User)
                option["value"] = str(value.id)
                resolved.setdefault("users", {})[str(value.id)] = value.json()
                if guild:
                    member = value.member()
                    member.pop("user")
                    resolved.setdefault("members", {})[str(value.id)] = member
            else:
                option["value"] = value
            if key == focused:
                option["focused"] = True
            options.append(option)
        for sub in reversed(path):
            options = [{"name": sub["name"], "type": sub["type"], "options": options}]
        data = {"id": command["id"], "name": top, "type": 1, "options": options}
        if "guild_id" in command:
            data["guild_id"] = command["guild_id"]
        return data, resolved

    async def slash(self, user: User, name: str, /, *, channel: int | None = None,
                    app_permissions: int | None = None, **options: Any) -> Interaction:
        """``user`` runs ``/name option:value...`` (``name`` may be ``"group sub"``)."""
        where = channel or self.channel_id
        self._offered(name, user, where)
        data, resolved = self._options(name, options, guild=not self.is_private(where))
        if resolved:
            data["resolved"] = resolved
        record, payload = self._interaction(2, user, where, data,
                                            app_permissions=app_permissions)
        await self.dispatch("INTERACTION_CREATE", payload)
        return record

    async def autocomplete(self, user: User, name: str, option: str, typed: str, *,
                           channel: int | None = None, **given: Any) -> list[str]:
        """The autocomplete choices the bot offers for ``option`` while typing ``typed``
        (``given``: the options already filled in)."""
        where = channel or self.channel_id
        data, _ = self._options(name, {**given, option: typed}, focused=option,
                                guild=not self.is_private(where))
        record, payload = self._interaction(4, user, where, data)
        await self.dispatch("INTERACTION_CREATE", payload)
        await self.until(lambda: record.choices is not None)
        assert record.choices is not None
        return [str(c["value"]) for c in record.choices]

    async def click(self, user: User, message: Message, label: str) -> Interaction:
        """``user`` presses the button labelled ``label`` on ``message``."""
        button = message.button(label)
        data = {"custom_id": button["custom_id"], "component_type": 2}
        record, payload = self._interaction(3, user, message.channel_id, data,
                                            message=message)
        await self.dispatch("INTERACTION_CREATE", payload)
        return record

    async def select(self, user: User, message: Message, placeholder: str,
                     label: str) -> Interaction:
        """``user`` picks the option labelled ``label`` in the menu of ``message`` whose
        placeholder starts with ``placeholder``."""
        menu = message.menu(placeholder)
        values = [o["value"] for o in menu.get("options", []) if o.get("label") == label]
        assert values, (f"no option {label!r} in menu {menu.get('placeholder')!r}: "
                        f"{[o.get('label') for o in menu.get('options', [])]}")
        data = {"custom_id": menu["custom_id"], "component_type": 3, "values": values[:1]}
        record, payload = self._interaction(3, user, message.channel_id, data,
                                            message=message)
        await self.dispatch("INTERACTION_CREATE", payload)
        return record

    async def select_value(self, user: User, message: Message, custom_id: str,
                           value: str) -> Interaction:
        """``user`` picks ``value`` in the select menu ``custom_id`` of ``message``."""
        menus = [c for row in message.components for c in row.get("components", [])
                 if c.get("custom_id") == custom_id and c.get("type") == 3]
        assert menus, f"no select menu {custom_id!r} on message {message.id}"
        offered = [o["value"] for o in menus[0].get("options", [])]
        assert value in offered, f"{value!r} is not offered: {offered}"
        data = {"custom_id": custom_id, "component_type": 3, "values": [value]}
        record, payload = self._interaction(3, user, message.channel_id, data,
                                            message=message)
        await self.dispatch("INTERACTION_CREATE", payload)
        return record

    # ----------------------------------------------------------------- REST

    def rate_limit(self, scale: float = 1.0, **limits: Any) -> RateLimits:
        """Switch Discord's rate limits on (:mod:`fake_ratelimits`), on a clock of
        ``scale`` real seconds per Discord second."""
        self.limits = RateLimits(scale=scale, **limits)
        return self.limits

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        if self.latency:
            await asyncio.sleep(self.latency)
        headers: dict[str, str] = {}
        if self.limits is not None:
            refused, headers = self.limits.check(request.method,
                                                 "/" + request.match_info["path"])
            if refused is not None:
                await request.read()
                return refused
        response = await self._limited(request)
        response.headers.update(headers)
        return response

    async def _limited(self, request: web.Request) -> web.StreamResponse:
        try:
            return await self._route(request)
        except Refused as refused:
            path = "/" + request.match_info["path"]
            self.refusals.append(f"{request.method} {path}: {refused}")
            await self._notify()
            errors = {"_errors": [{"code": "BASE_TYPE_INVALID", "message": refused.detail}]}
            return self._json({"message": refused.message, "code": refused.code,
                               **({"errors": errors} if refused.code == 50035 else {})},
                              refused.status)

    async def _route(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["path"]
        parts = path.strip("/").split("/")
        method = request.method
        response: web.StreamResponse | None = None
        if method == "GET" and path == "/users/@me":
            response = self._me(request)
        elif method == "POST" and path == "/oauth2/token":
            response = await self._oauth_token(request)
        elif (method == "GET" and parts[0] == "applications" and len(parts) == 4
              and parts[2] == "activity-instances"):
            response = self._activity_instance(request, parts[1], parts[3])
        elif method == "GET" and path == "/oauth2/applications/@me":
            response = self._json({
                "id": str(self.app_id), "name": "bgbot", "icon": None, "description": "",
                "bot_public": True, "bot_require_code_grant": False,
                "owner": self.bot_user.json(), "verify_key": "00", "flags": 0,
                "team": None, "summary": "", "rpc_origins": [],
                "interactions_endpoint_url": None})
        elif method == "GET" and path == "/gateway/bot":
            response = self._json({"url": self.gateway, "shards": 1, "session_start_limit": {
                "total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}})
        elif method == "PUT" and parts[0] == "applications" and parts[-1] == "commands":
            guild = int(parts[3]) if len(parts) == 5 else None
            response = await self._sync(request, guild)
        elif method == "POST" and parts[0] == "interactions" and parts[-1] == "callback":
            response = await self._callback(request, parts[2])
        elif parts[0] == "webhooks" and len(parts) >= 3:
            response = await self._webhook(request, method, parts[2], parts[3:])
        elif parts[0] == "channels":
            channel = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else 0
            self.channel_calls.append((f"{method} {path}", channel))
            if channel in self.no_access:
                raise Refused(403, 50001, "Missing Access", "the bot is not a member here")
            else:
                response = await self._channels(request, method, parts[1:])
        if response is None:
            self.unknown.append(f"{method} {path}")
            response = self._json({"message": "404: Not Found", "code": 0}, 404)
        await self._notify()
        return response

    async def _sync(self, request: web.Request, guild: int | None) -> web.Response:
        payload = await request.json()
        check_commands(payload, global_=guild is None)
        entry = [c for c in self.commands.values()
                 if c.get("type") == limits.PRIMARY_ENTRY_POINT and "guild_id" not in c]
        if guild is None and entry and not any(
                c.get("type") == limits.PRIMARY_ENTRY_POINT for c in payload):
            raise Refused(400, 50240, "You cannot remove this app's Entry Point command in a "
                          "bulk update operation. Please include the Entry Point command in "
                          "your update request or delete it separately.")
        if guild is None:  # a bulk overwrite: the global commands left out are deleted
            for name in [n for n, c in self.commands.items() if "guild_id" not in c]:
                del self.commands[name]
        out = []
        for command in payload:
            stored = dict(command, id=str(self.snowflake()), application_id=str(self.app_id),
                          version=str(self.snowflake()))
            if guild is not None:
                stored["guild_id"] = str(guild)
            self.commands[command["name"]] = stored
            out.append(stored)
        self.syncs.append((guild, payload))
        self.hygiene += limits.command_hygiene(payload, global_=guild is None)
        return self._json(out)

    async def _body(self, request: web.Request) -> tuple[dict[str, Any], dict[str, bytes]]:
        """JSON body, or multipart ``payload_json`` with its ``files[n]``."""
        if not request.content_type.startswith("multipart/"):
            if not request.can_read_body:
                return {}, {}
            return await request.json(), {}
        payload: dict[str, Any] = {}
        files: dict[str, bytes] = {}
        reader = await request.multipart()
        while True:
            part = await reader.next()
            if part is None:
                break
            assert isinstance(part, BodyPartReader)
            name = part.name
            data = await part.read()
            if name == "payload_json":
                payload = json.loads(data)
            elif name and name.startswith("files["):
                filename = part.filename or name
                files[filename] = bytes(data)
        return payload, files

    def _new_message(self, channel_id: int, payload: dict[str, Any], files: dict[str, bytes],
                     *, flags: int = 0, interaction: int | None = None) -> Message:
        if not flags & LOADING:  # ("thinking..." is the one empty message)
            check_new_message(payload, files)
        message = Message(self.snowflake(), channel_id, self.guild_of(channel_id), self.bot_user,
                          interaction_id=interaction)
        self._apply(message, payload, files)
        message.flags |= flags | int(payload.get("flags", 0))
        self.messages[message.id] = message
        return message

    @staticmethod
    def _apply(message: Message, payload: dict[str, Any], files: dict[str, bytes]) -> None:
        check_payload(payload, files)
        if "content" in payload:
            message.content = payload["content"] or ""
        if "embeds" in payload:
            message.embeds = payload["embeds"] or []
        if "components" in payload:
            message.components = payload["components"] or []
        if "attachments" in payload:
            keep = {a.get("filename") for a in payload["attachments"] if "filename" in a}
            message.files = {n: d for n, d in message.files.items() if n in keep}
            message.descriptions = {n: d for n, d in message.descriptions.items() if n in keep}
            for a in payload["attachments"]:
                if "filename" in a and a.get("description"):
                    message.descriptions[a["filename"]] = str(a["description"])
        message.files.update(files)

    async def _callback(self, request: web.Request, token: str) -> web.Response:
        record = self.interactions.get(token)
        if record is None:
            raise Refused(404, 10062, "Unknown interaction", "no such interaction")
        body, files = await self._body(request)
        kind = int(body["type"])
        data = body.get("data") or {}
        self._check_callback(record, kind, data, files)
        if kind in (4, 5):
            await self._answer_in(record, data)
        record.callbacks.append((kind, data))
        record.answered_at = self.clock()
        message: Message | None = None
        if kind == 4:
            message = self._new_message(record.channel_id, data, files, interaction=record.id)
            record.original = message
            record.messages.append(message)
        elif kind == 5:
            message = self._new_message(record.channel_id, {}, {},
                                        flags=LOADING | int(data.get("flags", 0)),
                                        interaction=record.id)
            record.original = message
        elif kind in (6, 7):
            message = record.source
            record.original = message
            if kind == 7 and message is not None:
                self._apply(message, data, files)
                message.edits += 1
                record.edits.append(message)
        elif kind == 8:
            record.choices = list(data.get("choices", []))
        answer: dict[str, Any] = {"interaction": {
            "id": str(record.id), "type": record.type,
            "response_message_id": str(message.id) if message else None,
            "response_message_loading": kind == 5,
            "response_message_ephemeral": bool(message and message.ephemeral)}}
        if message is not None:
            answer["resource"] = {"type": kind, "message": message.json(self.base)}
        if kind == 12:
            instance = self._launch(record)
            answer["interaction"]["activity_instance_id"] = instance
            answer["resource"] = {"type": 12, "activity_instance": {"id": instance}}
        return self._json(answer)

    # ------------------------------------------------- activities and OAuth2 (issue 45)

    def _launch(self, record: Interaction) -> str:
        """The activity instance a LAUNCH_ACTIVITY starts in the interaction's channel
        (one per channel: a second launch joins it), its presser a participant."""
        for iid, instance in self.activity_instances.items():
            if instance["location"]["channel_id"] == str(record.channel_id):
                if str(record.user.id) not in instance["users"]:
                    instance["users"].append(str(record.user.id))
                return iid
        iid = f"i-{self.snowflake()}-gc-{self.guild_id}-{record.channel_id}"
        private = self.is_private(record.channel_id)
        self.activity_instances[iid] = {
            "application_id": str(self.app_id), "instance_id": iid,
            "launch_id": str(self.snowflake()),
            "location": {"id": f"gc-{record.channel_id}", "kind": "pc" if private else "gc",
                         "channel_id": str(record.channel_id),
                         "guild_id": None if private else str(self.guild_id)},
            "users": [str(record.user.id)]}
        return iid

    def authorize(self, user: User) -> str:
        """What the Embedded App SDK's ``authorize`` gives the page of ``user``: a code."""
        code = f"code-{self.snowflake()}"
        self.oauth_codes[code] = user.id
        return code

    def _me(self, request: web.Request) -> web.Response:
        auth = request.headers.get("Authorization", "")
        if not auth.startswith("Bearer "):
            return self._json(self.bot_user.json())
        uid = self.access_tokens.get(auth.removeprefix("Bearer "))
        if uid is None:
            return self._json({"message": "401: Unauthorized", "code": 0}, 401)
        user = self.users.get(uid) or User(uid, f"user{uid}")
        return self._json(user.json())

    async def _oauth_token(self, request: web.Request) -> web.Response:
        form = await request.post()
        if (form.get("client_id") != str(self.app_id)
                or form.get("client_secret") != self.client_secret):
            return self._json({"error": "invalid_client"}, 401)
        code = str(form.get("code", ""))
        if form.get("grant_type") != "authorization_code" or code not in self.oauth_codes:
            return self._json({"error": "invalid_grant",
                               "error_description": 'Invalid "code" in request.'}, 400)
        token = f"token-{self.snowflake()}"
        self.access_tokens[token] = self.oauth_codes.pop(code)  # a code is used once
        return self._json({"access_token": token, "token_type": "Bearer",
                           "expires_in": 604800, "scope": "identify"})

    def _activity_instance(self, request: web.Request, app: str,
                           iid: str) -> web.Response:
        auth = request.headers.get("Authorization", "")
        if not auth.startswith("Bot ") or (self.tokens and auth[4:] not in self.tokens):
            return self._json({"message": "401: Unauthorized", "code": 0}, 401)
        instance = self.activity_instances.get(iid)
        if app != str(self.app_id) or instance is None:
            return self._json({"message": "Unknown Application", "code": 10002}
                              if app != str(self.app_id) else
                              {"message": "404: Not Found", "code": 0}, 404)
        return self._json(instance)

    async def _webhook(self, request: web.Request, method: str, token: str,
                       rest: list[str]) -> web.StreamResponse | None:
        record = self.interactions.get(token)
        if record is None:
            return self._json({"message": "Unknown Webhook", "code": 10015}, 404)
        self._check_token(record)
        body, files = await self._body(request)
        if method == "POST" and not rest:
            original = record.original
            await self._answer_in(record, body)
            if original is not None and original.loading:
                # The first follow-up of a deferred interaction replaces "thinking...", for
                # backwards compatibility only (Create Followup Message): the documented
                # answer edits the original response (issue 43 item 1).
                self.hygiene.append(f"POST /webhooks/{self.app_id}/{token}: a follow-up as "
                                    f"the first answer of deferred interaction {record.id}")
                original.flags &= ~LOADING
                self._apply(original, body, files)
                record.messages.append(original)
                message = original
            else:
                message = self._new_message(record.channel_id, body, files,
                                            interaction=record.id)
                record.messages.append(message)
            return self._json(message.json(self.base))
        if len(rest) == 2 and rest[0] == "messages":
            target = record.original if rest[1] == "@original" else self.messages.get(
                int(rest[1]))
            if target is None:
                return self._json({"message": "Unknown Message", "code": 10008}, 404)
            if method == "PATCH":
                was_loading = target.loading
                target.flags &= ~LOADING
                self._apply(target, body, files)
                target.edits += not was_loading
                (record.messages if was_loading else record.edits).append(target)
                return self._json(target.json(self.base))
            if method == "GET":
                return self._json(target.json(self.base))
            if method == "DELETE":
                self.messages.pop(target.id, None)
                self.deleted.append(target.id)
                if target is record.original:  # follow-ups are messages of their own now
                    record.original = None
                return web.Response(status=204)
        return None

    async def _channels(self, request: web.Request, method: str,
                        rest: list[str]) -> web.StreamResponse | None:
        """``/channels/...``: as Discord treats them (:class:`fake_channels.Channels`)."""
        body, files = await self._body(request)
        return await self.guard.handle(method, rest, body, files)

    def post_message(self, channel_id: int, payload: dict[str, Any],
                     files: dict[str, bytes]) -> Message:
        """A message the bot posted in ``channel_id`` (REST)."""
        return self._new_message(channel_id, payload, files)

    def edit_message(self, message: Message, payload: dict[str, Any],
                     files: dict[str, bytes]) -> None:
        """The bot edited ``message`` (REST)."""
        self._apply(message, payload, files)
        message.edits += 1

    # ------------------------------------------------ Discord's strictness (issue 29)

    def clock(self) -> float:
        """The fake's time in seconds: the event loop's, moved on by :meth:`advance`."""
        return asyncio.get_running_loop().time() + self._skew

    def advance(self, seconds: float) -> None:
        """Move the fake's clock on (the 15 minutes of a token pass at once)."""
        self._skew += seconds

    def pending(self, user: User, *, channel: int | None = None) -> Interaction:
        """An interaction Discord sent that the bot never received (a test answers it
        itself, to see what Discord accepts)."""
        record, _ = self._interaction(2, user, channel or self.channel_id, {})
        return record

    def forget(self, record: Interaction) -> None:
        """Drop ``record`` from the check of unanswered interactions (a test that made
        one late on purpose)."""
        self.interactions.pop(record.token, None)

    def _refuse(self, record: Interaction, refused: Refused) -> Refused:
        record.refusals.append(str(refused))
        return refused

    async def _answer_in(self, record: Interaction, data: dict[str, Any]) -> None:
        """An answer that is a new message, in the interaction's channel: refused in a
        locked archived thread, unarchiving an archived one (:meth:`Channels.answer_in`)."""
        try:
            await self.guard.answer_in(record.channel_id,
                                       bool(int(data.get("flags") or 0) & EPHEMERAL))
        except ChannelRefused as refused:
            raise self._refuse(record, Refused(refused.status, refused.code,
                                               refused.message)) from None

    def _check_callback(self, record: Interaction, kind: int, data: dict[str, Any],
                        files: dict[str, bytes]) -> None:
        """Refuse a first response Discord would: a second one, a late one, or one whose
        payload breaks Discord's limits."""
        if record.callbacks:
            raise self._refuse(record, Refused(
                400, 40060, "Interaction has already been acknowledged."))
        late = self.clock() - record.sent_at
        if late > RESPONSE_DEADLINE:
            raise self._refuse(record, Refused(
                404, 10062, "Unknown interaction", f"answered after {late:.2f} s"))
        if kind == 4:
            check_new_message(data, files)
        elif kind == 7:
            check_payload(data, files)
        elif kind == 8:
            problems = limits.choice_problems(list(data.get("choices") or []))
            if problems:
                raise Refused(400, 50035, "Invalid Form Body", "; ".join(problems))
        elif kind == 12:  # LAUNCH_ACTIVITY: a command's or a component's answer, no data
            if record.type not in (2, 3) or data:
                raise self._refuse(record, Refused(
                    400, 50035, "Invalid Form Body",
                    "LAUNCH_ACTIVITY answers a command or a component, without data"))
        elif kind == 9:
            problems = limits.modal_problems(data)
            if problems:
                raise Refused(400, 50035, "Invalid Form Body", "; ".join(problems))

    def _check_token(self, record: Interaction) -> None:
        """Refuse the interaction's webhook before its first response (10015) and after
        the token's 15 minutes (50027)."""
        if not record.callbacks:
            raise self._refuse(record, Refused(404, 10015, "Unknown Webhook",
                                               "the interaction was not answered yet"))
        age = self.clock() - record.sent_at
        if age > TOKEN_LIFETIME:
            raise self._refuse(record, Refused(401, 50027, "Invalid Webhook Token",
                                               f"the token is {age:.0f} s old"))

    def late_answers(self, limit: float = RESPONSE_DEADLINE) -> list[str]:
        """Interactions not answered within ``limit`` seconds (Discord's 3 s rule)."""
        return [f"{r.type}:{r.id} answered after {r.answer_time}" for r in
                self.interactions.values() if not r.unanswerable
                and (r.answer_time is None or r.answer_time > limit)]

    def channel_messages(self, channel_id: int) -> list[Message]:
        return [m for m in self.messages.values() if m.channel_id == channel_id]


def check_payload(payload: dict[str, Any], files: dict[str, bytes]) -> None:
    """Refuse a message payload over Discord's limits (50035) or files too big (40005)."""
    too_big = limits.file_problems(files)
    if too_big:
        raise Refused(413, 40005, "Request entity too large", "; ".join(too_big))
    problems = limits.problems(payload)
    if problems:
        raise Refused(400, 50035, "Invalid Form Body", "; ".join(problems))


def check_new_message(payload: dict[str, Any], files: dict[str, bytes]) -> None:
    """:func:`check_payload`, and a new message may not be empty (50006)."""
    check_payload(payload, files)
    if limits.empty(payload, files):
        raise Refused(400, 50006, "Cannot send an empty message")


def check_commands(commands: list[dict[str, Any]], *, global_: bool) -> None:
    """Refuse a command sync whose schema Discord refuses (50035)."""
    problems = limits.command_problems(commands, global_=global_)
    if problems:
        raise Refused(400, 50035, "Invalid Form Body", "; ".join(problems))


class Socket:
    """One gateway connection (zlib-stream compressed when the client asked)."""

    def __init__(self, ws: web.WebSocketResponse, compress: bool) -> None:
        self.ws = ws
        self.ready = False
        self.seq = 0
        self._zlib = zlib.compressobj() if compress else None
        self._lock = asyncio.Lock()

    async def send(self, payload: dict[str, Any]) -> None:
        text = json.dumps(payload)
        async with self._lock:
            if self._zlib is None:
                await self.ws.send_str(text)
            else:
                data = self._zlib.compress(text.encode()) + self._zlib.flush(zlib.Z_SYNC_FLUSH)
                await self.ws.send_bytes(data)

    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        self.seq += 1
        await self.send({"op": 0, "t": event, "s": self.seq, "d": data})

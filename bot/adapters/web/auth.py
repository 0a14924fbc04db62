"""Who a page is, and where it looks.

In Discord: the page's SDK asks the user to authorize the application and gets a code;
:meth:`DiscordAuth.exchange` trades it for an access token with Discord (the client
secret is sent to Discord only: never to a page, never to a log); :meth:`DiscordAuth.session`
reads the user of the token (``GET /users/@me``) and checks the activity's instance with
Discord (``GET /applications/{id}/activity-instances/{instance}``): the user must be one
of its participants, and the instance's channel is the place the page shows.

Outside Discord (``python -m bot web``): :func:`local_identity`, the console's users and
channels by name (two tabs, two players), served on 127.0.0.1 only.

A page then holds a session: a random token the server maps to its :class:`Identity`
(in memory: after a restart the page signs in again, the games are in the database).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

import aiohttp

from bot.adapters.console.screen import GUILD, channel_id, shown_name, user_id
from bot.service.core.values import Actor, Place

DISCORD_API = "https://discord.com/api/v10"
MAX_SESSIONS = 10_000
"""Sessions kept in memory (the oldest is forgotten first)."""


class AuthError(Exception):
    """Why a page is not let in (said to the page as is: no secret in it)."""


@dataclass(frozen=True, slots=True)
class Identity:
    actor: Actor
    place: Place


class Sessions:
    """Session tokens of the pages signed in (this process's memory)."""

    def __init__(self) -> None:
        self.known: dict[str, Identity] = {}

    def open(self, identity: Identity) -> str:
        if len(self.known) >= MAX_SESSIONS:
            self.known.pop(next(iter(self.known)))
        token = secrets.token_urlsafe(24)
        self.known[token] = identity
        return token

    def get(self, token: object) -> Identity | None:
        return self.known.get(token) if isinstance(token, str) else None


def local_identity(name: object, channel: object) -> Identity:
    """The console's user ``name`` in its channel ``channel`` (#table by default)."""
    shown = shown_name(name) if isinstance(name, str) else ""
    if not shown or len(shown) > 32:
        raise AuthError("Give a name of 1 to 32 visible characters, like alice.")
    where = (channel if isinstance(channel, str) else "") or "table"
    where = shown_name(where)[:32] or "table"
    return Identity(Actor(user_id(shown), shown), Place(GUILD, channel_id(where)))


class DiscordAuth:
    """Discord's side of signing in: the code exchange and the instance check."""

    def __init__(self, application_id: int, client_secret: str, bot_token: str,
                 api: str = DISCORD_API) -> None:
        self.application_id = application_id
        self._secret = client_secret
        self._bot_token = bot_token
        self.api = api.rstrip("/")

    def __repr__(self) -> str:  # the secret is never printed
        return f"DiscordAuth(application_id={self.application_id}, api={self.api!r})"

    async def exchange(self, code: object) -> str:
        """The access token of an authorization ``code`` (``/api/token``)."""
        if not isinstance(code, str) or not code or len(code) > 200:
            raise AuthError("No authorization code was given.")
        form = {"client_id": str(self.application_id), "client_secret": self._secret,
                "grant_type": "authorization_code", "code": code}
        async with aiohttp.ClientSession() as http, http.post(
                f"{self.api}/oauth2/token", data=form) as response:
            body = await json_of(response)
        token = body.get("access_token") if response.status == 200 else None
        if not isinstance(token, str):
            raise AuthError("Discord did not accept the authorization code "
                            f"(HTTP {response.status}): open the board again.")
        return token

    async def session(self, access_token: object, instance_id: object) -> Identity:
        """The user of ``access_token``, checked to be in the activity's instance, and
        the instance's place."""
        if not isinstance(access_token, str) or not access_token or len(access_token) > 200:
            raise AuthError("Sign in with Discord first (no access token was given).")
        if not isinstance(instance_id, str) or not instance_id or len(instance_id) > 100:
            raise AuthError("This page was not opened as Discord's activity (no instance).")
        async with aiohttp.ClientSession() as http:
            async with http.get(f"{self.api}/users/@me", headers={
                    "Authorization": f"Bearer {access_token}"}) as response:
                user = await json_of(response)
            if response.status != 200:
                raise AuthError("Discord did not recognise this sign-in: open the board "
                                "again.")
            async with http.get(
                    f"{self.api}/applications/{self.application_id}/activity-instances/"
                    f"{instance_id}",
                    headers={"Authorization": f"Bot {self._bot_token}"}) as response:
                instance = await json_of(response)
            if response.status != 200:
                raise AuthError("Discord does not know this activity instance (it may have "
                                "ended): open the board again.")
        uid = int(user.get("id", 0))
        if str(uid) not in {str(u) for u in instance.get("users", [])}:
            raise AuthError("You are not a participant of this activity: join it from the "
                            "channel first.")
        location = instance.get("location") or {}
        channel = int(location.get("channel_id") or 0)
        guild = location.get("guild_id")
        if not channel:
            raise AuthError("This activity has no channel to show a game of.")
        # A server's channel, else a DM or group DM ("pc": a private channel).
        place = Place(int(guild), channel) if guild else Place.direct(channel)
        name = str(user.get("global_name") or user.get("username") or uid)
        return Identity(Actor(uid, name), place)


async def json_of(response: aiohttp.ClientResponse) -> dict[str, Any]:
    try:
        body = await response.json(content_type=None)
    except (ValueError, aiohttp.ContentTypeError):
        return {}
    return body if isinstance(body, dict) else {}


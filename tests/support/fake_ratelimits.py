"""Discord's rate limits in the fake Discord (issue 43 item 2), as discord-api-docs
topics/rate-limits.md describes them:

* per-route buckets, each identified by the hash in ``X-RateLimit-Bucket`` and shared by
  every route that names it for the same top-level resource (its major parameter: a
  channel, a webhook and its token): a channel's messages share one bucket (posting,
  editing, deleting, reading them), starting threads in a channel another;
* every answer carries ``X-RateLimit-Limit``, ``-Remaining``, ``-Reset`` (epoch seconds),
  ``-Reset-After`` (seconds) and ``-Bucket``; over a bucket's limit Discord answers 429 with
  a JSON body ``{"message", "retry_after", "global": false}``, ``Retry-After`` and
  ``X-RateLimit-Scope: user``;
* the global limit: 50 requests per second for the bot, whatever the route; over it a 429
  with ``"global": true`` and ``X-RateLimit-Global: true`` (``X-RateLimit-Scope: global``);
* interaction endpoints are not bound to the global limit, and interaction callbacks
  (``POST /interactions/{id}/{token}/callback``) are not behind any bucket: the answer to
  a command is never held up by the bot's channel posts.  The interaction's webhook
  (follow-ups, its original response) has a bucket per token.

Discord answers through Google's proxy, so every answer carries ``Via`` (discord.py tells a
429 of Discord's from Cloudflare's by it).

Time: a test runs Discord's limits on a scaled clock, ``scale`` real seconds per Discord
second (0.02: a 5-per-5-seconds bucket refills every 0.1 s), which discord.py follows since
it sleeps what the headers say; :attr:`RateLimits.log` keeps every request with its time in
Discord's seconds, and a test reads what the bot's bursts cost in Discord's time from it.
The per-route numbers are those Discord answers bots today (they are not documented and
may change: the bot must follow the headers, never assume them).
"""

from __future__ import annotations

import hashlib
import json
import math
import time
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

GLOBAL_LIMIT = 50
"""Requests per second (Discord's) a bot may make, all routes together."""
VIA = "1.1 google"


@dataclass(frozen=True)
class Limit:
    """``count`` requests per ``per`` seconds (Discord's)."""

    count: int
    per: float


MESSAGES = Limit(5, 5.0)
"""A channel's messages: posting, editing, deleting, reading them (one bucket)."""
THREADS = Limit(5, 5.0)
"""Starting threads in a channel."""
CHANNEL = Limit(5, 5.0)
"""Reading, changing or deleting a channel (a thread: archiving it)."""
WEBHOOK = Limit(5, 2.0)
"""An interaction's webhook: its follow-ups and its original response, per token."""
OTHER = Limit(5, 1.0)
"""Any other route (users, the application's commands, the gateway's address)."""


@dataclass
class Window:
    """One bucket's (or the global limit's) current window."""

    limit: Limit
    used: int = 0
    resets: float = 0.0
    """When the window ends (the fake's real clock)."""


@dataclass
class Request:
    """One request the bot made, as the limits saw it."""

    at: float
    """Discord's seconds since the limits were switched on."""
    route: str
    bucket: str | None
    status: int = 0
    """429 when it was refused for a limit, else 0 (the route's own answer)."""


@dataclass
class RateLimits:
    """The limits of one fake Discord (:meth:`FakeDiscord.rate_limit` switches them on)."""

    scale: float = 1.0
    """Real seconds per Discord second."""
    global_limit: int = GLOBAL_LIMIT
    buckets: dict[str, Limit] = field(default_factory=lambda: {
        "messages": MESSAGES, "threads": THREADS, "channel": CHANNEL, "webhook": WEBHOOK})
    windows: dict[str, Window] = field(default_factory=dict)
    log: list[Request] = field(default_factory=list)
    started: float = field(default_factory=time.monotonic)

    # ------------------------------------------------------------------ reading

    def now(self) -> float:
        """Discord's seconds since the limits were switched on."""
        return (time.monotonic() - self.started) / self.scale

    def refused(self, *, global_: bool | None = None) -> list[Request]:
        """The requests answered 429 (``global_``: only the global limit's, or only the
        buckets')."""
        return [r for r in self.log if r.status == 429
                and (global_ is None or (r.bucket == "global") == global_)]

    def span(self, route_part: str) -> float:
        """Discord's seconds from the first to the last request whose route has
        ``route_part``."""
        times = [r.at for r in self.log if route_part in r.route]
        return max(times) - min(times) if times else 0.0

    # ------------------------------------------------------------------ checking

    @staticmethod
    def bucket_of(method: str, parts: list[str]) -> tuple[str, str] | None:
        """(bucket name, major parameter) of a request; None: behind no bucket (an
        interaction's callback)."""
        if parts[0] == "interactions":
            return None
        if parts[0] == "webhooks" and len(parts) >= 3:
            return "webhook", f"{parts[1]}/{parts[2]}"
        if parts[0] == "channels" and len(parts) >= 2:
            tail = parts[2:]
            if tail and tail[-1] == "threads":
                return "threads", parts[1]
            if tail and tail[0] == "messages":
                return "messages", parts[1]
            return "channel", parts[1]
        return f"{method} {parts[0]}", ""

    def _window(self, key: str, limit: Limit, now: float) -> Window:
        window = self.windows.get(key)
        if window is None or now >= window.resets:
            window = Window(limit, 0, now + limit.per * self.scale)
            self.windows[key] = window
        return window

    def check(self, method: str, path: str) -> tuple[web.Response | None, dict[str, str]]:
        """Count a request: a 429 answer when it is over a limit (else None), and the
        headers its answer carries."""
        parts = path.strip("/").split("/")
        found = self.bucket_of(method, parts)
        record = Request(self.now(), f"{method} {path}", None)
        self.log.append(record)
        if found is None:
            return None, {"Via": VIA}
        name, major = found
        now = time.monotonic()
        if name != "webhook":  # (interaction endpoints are not bound to the global limit)
            window = self._window("global", Limit(self.global_limit, 1.0), now)
            if window.used >= window.limit.count:
                record.status, record.bucket = 429, "global"
                return self._too_many(window.resets - now, global_=True), {}
            window.used += 1
        limit = self.buckets.get(name, OTHER)
        bucket_hash = hashlib.sha1(name.encode()).hexdigest()[:16]
        window = self._window(f"{bucket_hash}:{major}", limit, now)
        record.bucket = f"{name}:{major}"
        reset_after = math.ceil(max(window.resets - now, 0.0) * 1000) / 1000  # (in ms, up)
        headers = {"Via": VIA, "X-RateLimit-Limit": str(limit.count),
                   "X-RateLimit-Reset-After": f"{reset_after:.3f}",
                   "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
                   "X-RateLimit-Bucket": bucket_hash}
        if window.used >= limit.count:
            record.status = 429
            answer = self._too_many(reset_after, global_=False)
            answer.headers.update(headers, **{"X-RateLimit-Remaining": "0"})
            return answer, {}
        window.used += 1
        headers["X-RateLimit-Remaining"] = str(limit.count - window.used)
        return None, headers

    @staticmethod
    def _too_many(retry_after: float, *, global_: bool) -> web.Response:
        body: dict[str, Any] = {"message": "You are being rate limited.",
                                "retry_after": math.ceil(max(retry_after, 0.001) * 1000) / 1000,
                                "global": global_, "code": 0}
        headers = {"Content-Type": "application/json", "Via": VIA,
                   "Retry-After": str(max(1, round(retry_after))),
                   "X-RateLimit-Scope": "global" if global_ else "user"}
        if global_:
            headers["X-RateLimit-Global"] = "true"
        return web.Response(status=429, body=json.dumps(body).encode(), headers=headers)

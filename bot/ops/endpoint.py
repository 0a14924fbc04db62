"""The operator's HTTP endpoint: ``/healthz`` and ``/metrics``, off unless
``ops.metrics_address`` is set.

It runs on aiohttp's web server, in the bot's own event loop: discord.py already depends
on aiohttp, so no dependency and no thread is added, and both answers come from the loop
itself -- a health check that is answered proves the loop is alive (a server in a thread,
as ``prometheus_client.start_http_server`` starts, would answer while the loop is stuck),
and the database is read with the service's own storage.

``/healthz``: 200 with ``{"status": "ok", ...}`` when the event loop answers within its
bound, the database answers a read, and the Discord gateway is connected (every shard of
this process; the console has none); 503 with the failing part otherwise.
``/metrics``: Prometheus' text format (:mod:`bot.ops.metrics`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator, Callable
from typing import TYPE_CHECKING

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST

from bot.config import Config, split_address
from bot.ops.metrics import Metrics

if TYPE_CHECKING:
    from bot.service.game import GameService

log = logging.getLogger(__name__)

STORAGE_TIMEOUT = 2.0
"""Seconds the health check waits for the database."""
LOOP_LAG_LIMIT = 1.0
"""A loop that takes longer than this to run a callback is not healthy."""


class Endpoint:
    """The web application; :meth:`start` serves it, :meth:`stop` ends it."""

    def __init__(self, metrics: Metrics, service: GameService,
                 gateway: Callable[[], str | None]) -> None:
        """``gateway()``: None when connected (or the console), else what is wrong."""
        self.metrics = metrics
        self.service = service
        self.gateway = gateway
        self.app = web.Application()
        self.app.router.add_get("/healthz", self.healthz)
        self.app.router.add_get("/metrics", self.metrics_page)
        self._runner: web.AppRunner | None = None
        self.port = 0

    async def start(self, address: str) -> None:
        host, port = split_address(address)
        self._runner = web.AppRunner(self.app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        server = getattr(site, "_server", None)
        sockets = getattr(server, "sockets", None) or []
        self.port = sockets[0].getsockname()[1] if sockets else port
        log.info("health and metrics on http://%s:%d/healthz and /metrics", host, self.port)

    async def stop(self) -> None:
        if self._runner is not None:
            runner, self._runner = self._runner, None
            await runner.cleanup()

    async def healthz(self, request: web.Request) -> web.Response:
        del request
        checks: dict[str, str] = {}
        started = time.monotonic()
        await asyncio.sleep(0)  # one turn of the loop
        lag = time.monotonic() - started
        checks["loop"] = "ok" if lag < LOOP_LAG_LIMIT else f"slow ({lag:.2f} s)"
        try:
            await asyncio.wait_for(self.service.activity(), STORAGE_TIMEOUT)
            checks["storage"] = "ok"
        except TimeoutError:
            checks["storage"] = f"no answer within {STORAGE_TIMEOUT:g} s"
        except Exception as error:
            checks["storage"] = f"unavailable: {error}"
        problem = self.gateway()
        checks["gateway"] = problem or "ok"
        healthy = all(v == "ok" for v in checks.values())
        body = {"status": "ok" if healthy else "unhealthy", **checks}
        return web.Response(status=200 if healthy else 503, text=json.dumps(body),
                            content_type="application/json")

    async def metrics_page(self, request: web.Request) -> web.Response:
        del request
        await self.metrics.refresh()
        return web.Response(body=self.metrics.exposition(),
                            headers={"Content-Type": CONTENT_TYPE_LATEST})


async def start_endpoint(config: Config, service: GameService,
                         gateway: Callable[[], str | None] | None = None,
                         renderer: object | None = None) -> Endpoint | None:
    """Serve the endpoint (None when ``ops.metrics_address`` is empty), stopped with the
    service (``service.lifecycle``).  The service's observer is the :class:`Metrics` (see
    :func:`bot.ops.metrics.observer_for`); ``gateway`` says what is wrong with the Discord
    gateway (None: connected; not given: the console, which has none); ``renderer``: the
    render workers whose queue and times are measured."""
    metrics = service.runner.observer
    if not config.ops.metrics_address or not isinstance(metrics, Metrics):
        return None
    metrics.attach(service)
    if renderer is not None:
        metrics.watch_renderer(renderer)
    endpoint = Endpoint(metrics, service, gateway or (lambda: None))
    await endpoint.start(config.ops.metrics_address)
    service.lifecycle.on_stop("the health and metrics endpoint", endpoint.stop)
    return endpoint


@contextlib.asynccontextmanager
async def ops_endpoint(config: Config, service: GameService) -> AsyncIterator[Endpoint | None]:
    """The console's endpoint, served while inside."""
    endpoint = await start_endpoint(config, service)
    try:
        yield endpoint
    finally:
        if endpoint is not None:
            await endpoint.stop()

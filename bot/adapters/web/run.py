"""``python -m bot web [--port N] [--no-open]``: the board served on 127.0.0.1 with the
local mock identity (the console's users and channels by name: two tabs, two players),
on the same database and service as the console."""

from __future__ import annotations

import asyncio
import sys
import webbrowser

from aiohttp import web

from bot.adapters.web.server import make_app
from bot.config import Config
from bot.runtime import Stopper, stop_children
from bot.service.core.boot import StorageError, storage_for, where
from bot.service.game import GameService

HOST = "127.0.0.1"


async def serve(config: Config, port: int, open_browser: bool) -> int:
    stopper = Stopper().install()
    try:
        storage = storage_for(config)
        try:
            await storage.open()
        except StorageError as error:
            print(f"bgbot: cannot start: {error}", file=sys.stderr)
            return 1
        service = GameService(storage, config)
        service.lifecycle.on_stop("the storage", storage.close)
        stopper.on_stop = service.lifecycle.refuse_new
        runner = web.AppRunner(make_app(service, local=True), access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, HOST, port)
        try:
            await site.start()
            server = getattr(site, "_server", None)
            sockets = getattr(server, "sockets", None) or []
            bound = sockets[0].getsockname()[1] if sockets else port
            url = f"http://{HOST}:{bound}/"
            print(f"bgbot web board: {url} ({where(config)}). Open it in two tabs as two "
                  "players; Ctrl-C stops it.", file=sys.stderr, flush=True)
            if open_browser:
                webbrowser.open(url)
            await stopper.stopped.wait()
        finally:
            await runner.cleanup()
            await service.lifecycle.stop()
            await asyncio.to_thread(stop_children)
        return 0
    finally:
        stopper.remove()


def run_web(config: Config, *, port: int = 8765, open_browser: bool = True) -> int:
    try:
        return asyncio.run(serve(config, port, open_browser))
    except KeyboardInterrupt:
        return 0

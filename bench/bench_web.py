"""The live board (issue 45): an action sent by one page to the update at the other
player's page and at every spectator's, with many pages connected on loopback; and the
size of the page's bundle.

One money game between two pages on the real service (one SQLite file in a temporary
directory, real dice), ``SPECTATORS`` more pages watching, every page a websocket to the
board's aiohttp server on 127.0.0.1.  The player to act takes the first step the builder
lists (or rolls); each action is timed from its send to the state received by the other
player's page, and to the last of the spectators' pages.  Target: the other player's
update p99 well under 100 ms with 200 pages connected.
"""

from __future__ import annotations

import asyncio
import gzip
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web

from bot.adapters.console.screen import GUILD, channel_id, user_id
from bot.adapters.web.server import BUNDLE, RATE, make_app
from bot.config import Config
from bot.service.core.values import Actor, Place
from bot.service.game import GameService
from bot.storage.sqlite import SqliteStorage

SPECTATORS = 200


class Page:
    """A page: the states it receives, each with its time of arrival."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.states: asyncio.Queue[tuple[float, dict[str, Any]]] = asyncio.Queue()
        self.latest: dict[str, Any] = {}
        self.refused = 0
        self.refusal = ""
        self.task = asyncio.create_task(self.read())

    async def read(self) -> None:
        async for msg in self.ws:
            data = json.loads(msg.data)
            if data["type"] == "state":
                self.states.put_nowait((time.perf_counter(), data))
            elif data["type"] == "refused":
                self.refused += 1
                self.refusal = data["text"]

    async def after(self, version: int) -> float:
        """When the first state of a version above ``version`` arrived (the states that
        came in between are skipped: a page draws the latest)."""
        while True:
            at, state = await asyncio.wait_for(self.states.get(), 30)
            if (state["version"] or 0) > version:
                self.latest = state
                return at


async def page(http: aiohttp.ClientSession, base: str, name: str) -> Page:
    async with http.post(f"{base}/api/local/login", json={"name": name},
                         headers={"Origin": base}) as answer:
        session = (await answer.json())["session"]
    ws = await http.ws_connect(f"{base}/ws", headers={"Origin": base})
    await ws.send_str(json.dumps({"type": "hello", "session": session}))
    return Page(ws)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] * 1000


async def measure(actions: int, spectators: int) -> list[str]:
    with tempfile.TemporaryDirectory() as tmp:
        storage = SqliteStorage(Path(tmp) / "bg.sqlite3")
        await storage.open()
        service = GameService(storage, Config())
        table = Place(GUILD, channel_id("table"))
        alice, bob = Actor(user_id("alice"), "alice"), Actor(user_id("bob"), "bob")
        await service.challenge(table, alice, bob)
        await service.accept(table, bob)
        runner = web.AppRunner(make_app(service, local=True), access_log=None)
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", 0).start()
        base = f"http://127.0.0.1:{runner.addresses[0][1]}"
        other_ms: list[float] = []
        last_ms: list[float] = []
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as http:
            players = {"alice": await page(http, base, "alice"),
                       "bob": await page(http, base, "bob")}
            watchers = [await page(http, base, f"watcher{i}") for i in range(spectators)]
            everyone = [*players.values(), *watchers]
            await asyncio.gather(*(p.after(-1) for p in everyone))
            for _ in range(actions):
                mover = next((n for n, p in players.items() if p.latest["steps"] or any(
                    b["action"] == "roll" for b in p.latest["buttons"])), None)
                if mover is None:
                    break
                mine = players[mover].latest
                version = mine["version"] or 0
                message = ({"type": "act", "action": "step", "option": mine["steps"][0]["word"]}
                           if mine["steps"] else {"type": "act", "action": "roll"})
                sent = time.perf_counter()
                await players[mover].ws.send_str(json.dumps(message))
                other = players["bob" if mover == "alice" else "alice"]
                arrivals = await asyncio.gather(*(p.after(version) for p in everyone))
                at = dict(zip(map(id, everyone), arrivals, strict=True))
                other_ms.append(at[id(other)] - sent)
                last_ms.append(max(at.values()) - sent)
                await asyncio.sleep(1 / RATE)  # a page's pace (the server's bound: RATE a s)
            for p in everyone:
                await p.ws.close()
        await runner.cleanup()
        await storage.close()
    return [f"   {spectators} spectators + 2 players, {len(other_ms)} actions: other player's "
            f"update p50 {pct(other_ms, 0.5):.1f} ms, p99 {pct(other_ms, 0.99):.1f} ms; "
            f"last spectator's p50 {pct(last_ms, 0.5):.1f} ms, p99 {pct(last_ms, 0.99):.1f} ms "
            f"(mean other {statistics.mean(other_ms) * 1000:.1f} ms)"]


def bundle() -> list[str]:
    if not (BUNDLE / "index.html").exists():
        return ["   bundle: not built (cd web && npm ci && npm run build)"]
    lines = []
    for path in sorted(BUNDLE.iterdir()):
        data = path.read_bytes()
        lines.append(f"   {path.name}: {len(data):,} bytes ({len(gzip.compress(data)):,} gzipped)")
    return lines


async def first_paint(loads: int) -> list[str]:
    """The page's first contentful paint and the board drawn (the SVG in the page) in
    Debian's Chromium (Playwright), the bot on 127.0.0.1 with a game to show."""
    import shutil

    try:
        from playwright.async_api import async_playwright
    except ImportError:
        return ["   first paint: Playwright for Python is not installed"]
    chromium = shutil.which("chromium")
    if chromium is None or not (BUNDLE / "index.html").exists():
        return ["   first paint: no chromium, or the page is not built"]
    with tempfile.TemporaryDirectory() as tmp:
        storage = SqliteStorage(Path(tmp) / "bg.sqlite3")
        await storage.open()
        service = GameService(storage, Config())
        table = Place(GUILD, channel_id("table"))
        await service.challenge(table, Actor(user_id("alice"), "alice"),
                                Actor(user_id("bob"), "bob"))
        await service.accept(table, Actor(user_id("bob"), "bob"))
        runner = web.AppRunner(make_app(service, local=True), access_log=None)
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", 0).start()
        url = f"http://127.0.0.1:{runner.addresses[0][1]}/?name=carol"
        paints: list[float] = []
        boards: list[float] = []
        async with async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
            for _ in range(loads):
                context = await browser.new_context()
                page = await context.new_page()
                started = time.perf_counter()
                await page.goto(url)
                await page.wait_for_selector("#board-box svg")
                boards.append(time.perf_counter() - started)
                paints.append(await page.evaluate(
                    "() => performance.getEntriesByName('first-contentful-paint')[0]"
                    "?.startTime ?? -1") / 1000)
                await context.close()
            await browser.close()
        await runner.cleanup()
        await storage.close()
    return [f"   first contentful paint p50 {pct(paints, 0.5):.0f} ms (max "
            f"{max(paints) * 1000:.0f}); the board drawn (signed in, websocket, first state) "
            f"p50 {pct(boards, 0.5):.0f} ms (max {max(boards) * 1000:.0f}), {loads} loads"]


def run(quick: bool) -> list[str]:
    lines = asyncio.run(measure(40 if quick else 200, 20 if quick else SPECTATORS))
    if not quick:
        lines += asyncio.run(measure(200, 0))
    lines += asyncio.run(first_paint(3 if quick else 20))
    return lines + bundle()

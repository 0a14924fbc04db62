"""The operator's endpoint (issue 34, item 2): /metrics in Prometheus' format scraped after
a few actions, and /healthz, on a real SQLite file; the Discord bot's own endpoint is
scraped in tests/test_runtime.py."""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families
from race_table import BLACK, DICE, PLACE, WHITE, ScriptedDice

from bot.adapters.discord.renderer import Renderer
from bot.config import Config, OpsConfig
from bot.ops.endpoint import Endpoint, start_endpoint
from bot.ops.metrics import Metrics
from bot.service.game import GameService
from bot.storage.sqlite import SqliteStorage
from render.gallery import examples


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
async def served(tmp_path: Path) -> AsyncIterator[tuple[GameService, Endpoint, Renderer]]:
    storage = SqliteStorage(tmp_path / "m.sqlite3")
    await storage.open()
    config = replace(Config(), ops=OpsConfig(metrics_address=f"127.0.0.1:{free_port()}"))
    service = GameService(storage, config, dice=ScriptedDice, observer=Metrics())
    renderer = Renderer(workers=0)
    endpoint = await start_endpoint(config, service, renderer=renderer)
    assert endpoint is not None
    try:
        yield service, endpoint, renderer
    finally:
        await service.lifecycle.stop()
        await storage.close()


async def get(endpoint: Endpoint, path: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as http, http.get(
            f"http://127.0.0.1:{endpoint.port}{path}") as answer:
        return answer.status, await answer.text()


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    out = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


def value(found: dict[Any, float], name: str, **labels: str) -> float:
    return found[(name, tuple(sorted(labels.items())))]


async def test_metrics_after_a_few_actions(
        served: tuple[GameService, Endpoint, Renderer]) -> None:
    service, endpoint, renderer = served
    assert (await service.challenge(PLACE, WHITE, BLACK, stake=1)).ok
    assert not (await service.roll(PLACE, WHITE)).ok  # not accepted yet: a refusal
    assert (await service.accept(PLACE, BLACK)).ok  # white plays 3-1 (race_table.DICE)
    assert DICE[:2] == (3, 1)
    assert not (await service.move(PLACE, WHITE, "24/1")).ok  # the rules refuse it
    assert (await service.move(PLACE, WHITE, "8/5 6/5")).ok
    await renderer.png(next(iter(examples().values())))
    service.runner.observer.gateway = lambda: [(0, 0.042), (1, float("nan"))]  # type: ignore[attr-defined]

    status, text = await get(endpoint, "/metrics")
    assert status == 200
    found = samples(text)
    committed = {"outcome": "committed", "reason": "none"}
    assert value(found, "bgbot_actions_total", kind="challenge", **committed) == 1
    assert value(found, "bgbot_actions_total", kind="accept", **committed) == 1
    assert value(found, "bgbot_actions_total", kind="move", **committed) == 1
    assert value(found, "bgbot_actions_total", kind="roll", outcome="refused",
                 reason="refusal") == 1
    assert value(found, "bgbot_actions_total", kind="move", outcome="refused",
                 reason="rule") == 1
    assert value(found, "bgbot_action_seconds_count", kind="move") == 2
    assert value(found, "bgbot_active", what="games") == 1
    assert value(found, "bgbot_active", what="tables") == 0
    assert value(found, "bgbot_database_retries_total") == 0
    assert value(found, "bgbot_worker_queue_depth", worker="render") == 0
    assert value(found, "bgbot_render_seconds_count") == 1
    assert value(found, "bgbot_gateway_latency_seconds", shard="0") == 0.042
    assert ("bgbot_gateway_latency_seconds", (("shard", "1"),)) not in found  # not known yet
    assert value(found, "bgbot_storage_up") == 1
    assert value(found, "bgbot_actions_in_flight") == 0


async def test_storage_errors_and_the_stop_are_counted_by_reason(
        served: tuple[GameService, Endpoint, Renderer]) -> None:
    service, endpoint, _ = served
    service.lifecycle.refuse_new()
    refused = await service.challenge(PLACE, WHITE, BLACK)
    assert not refused.ok and "restarting" in refused.text
    found = samples((await get(endpoint, "/metrics"))[1])
    assert value(found, "bgbot_actions_total", kind="challenge", outcome="refused",
                 reason="stopping") == 1


async def test_healthz_answers_ok_then_names_the_failing_part(
        served: tuple[GameService, Endpoint, Renderer]) -> None:
    service, endpoint, _ = served
    status, text = await get(endpoint, "/healthz")
    assert status == 200, text
    assert '"status": "ok"' in text and '"storage": "ok"' in text and '"loop": "ok"' in text
    endpoint.gateway = lambda: "shard(s) 1 disconnected"
    status, text = await get(endpoint, "/healthz")
    assert status == 503 and "shard(s) 1 disconnected" in text
    endpoint.gateway = lambda: None
    await service.storage.close()
    status, text = await get(endpoint, "/healthz")
    assert status == 503 and '"storage": "unavailable' in text, text


def test_the_endpoint_is_off_unless_configured() -> None:
    from bot.ops.metrics import observer_for

    assert observer_for(Config()) is None
    assert isinstance(observer_for(replace(Config(), ops=OpsConfig("127.0.0.1:9108"))),
                      Metrics)

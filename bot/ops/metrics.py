"""Prometheus metrics of a running bot, through the standard client library
(``prometheus_client``), in a registry of the bot's own.

:class:`Metrics` is the service's :class:`~bot.service.core.observe.Observer`: every action
the action runner reports is counted by kind, outcome and refusal reason, and its latency
goes into a histogram.  What changes on its own (active games and tables, database
retries, the render and AI queues, the gateway's latency per shard) is read when the
endpoint is scraped (:meth:`Metrics.refresh`, :class:`_Sampled`), never polled.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from bot.config import Config
from bot.service.core.observe import ActionEvent

if TYPE_CHECKING:
    from bot.service.game import GameService

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0,
                   10.0, 30.0)
"""Seconds: an action takes about 1-5 ms, a board 6 ms, an AI decision 50 ms to 10 s."""


class _Sampled(Collector):
    """Values read from the running bot at each scrape."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics

    def collect(self) -> Iterator[Metric]:
        m = self.metrics
        retries = CounterMetricFamily(
            "bgbot_database_retries", "Transactions and connections the storage tried again "
            "(PostgreSQL: deadlocks, lost or refused connections)")
        retries.add_metric([], float(getattr(m.storage, "retries", 0)))
        yield retries
        depth = GaugeMetricFamily("bgbot_worker_queue_depth",
                                  "Jobs sent to the worker processes and not answered yet",
                                  labels=["worker"])
        for name, read in m.queues.items():
            depth.add_metric([name], float(read()))
        yield depth
        latency = GaugeMetricFamily("bgbot_gateway_latency_seconds",
                                    "Discord gateway heartbeat latency per shard",
                                    labels=["shard"])
        for shard, seconds in m.gateway():
            if seconds == seconds and seconds != float("inf"):  # discord.py: nan, inf at start
                latency.add_metric([str(shard)], seconds)
        yield latency


class Metrics:
    """The bot's metrics, in their own registry."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.actions = Counter("bgbot_actions", "Actions by kind and outcome (committed, or "
                               "refused with the reason's class)", ["kind", "outcome", "reason"],
                               registry=r)
        self.action_seconds = Histogram("bgbot_action_seconds", "Service time of an action, "
                                        "lock and transaction included", ["kind"],
                                        buckets=LATENCY_BUCKETS, registry=r)
        self.render_seconds = Histogram("bgbot_render_seconds", "Time to draw a picture (a "
                                        "board, a replay, a chart) in the render workers",
                                        buckets=LATENCY_BUCKETS, registry=r)
        self.ai_seconds = Histogram("bgbot_ai_decision_seconds", "Time of an AI decision",
                                    buckets=LATENCY_BUCKETS, registry=r)
        self.active = Gauge("bgbot_active", "Games, challenges, chouette tables and "
                            "tournaments going on (read at the scrape)", ["what"], registry=r)
        self.in_flight = Gauge("bgbot_actions_in_flight", "Actions being run", registry=r)
        self.up = Gauge("bgbot_storage_up", "1 when the last scrape could read the database",
                        registry=r)
        self.storage: Any = None
        self.queues: dict[str, Callable[[], int]] = {}
        self.gateway: Callable[[], Iterable[tuple[int, float]]] = lambda: ()
        self.service: GameService | None = None
        r.register(_Sampled(self))

    # -- the service's observer -------------------------------------------------------

    def action(self, event: ActionEvent) -> None:
        self.actions.labels(event.kind, event.outcome, event.reason or "none").inc()
        self.action_seconds.labels(event.kind).observe(event.seconds)

    # -- wiring ------------------------------------------------------------------------

    def attach(self, service: GameService) -> None:
        """Read the service's storage, AI queue and actions in flight at each scrape."""
        self.service = service
        self.storage = service.storage
        self.in_flight.set_function(lambda: service.lifecycle.in_flight)
        ai = service.ai
        if ai is not None:
            self.queues["ai"] = lambda: ai.pending
            ai.on_decision = self.ai_seconds.observe

    def watch_renderer(self, renderer: Any) -> None:
        """The render workers' queue and each picture's time."""
        self.queues["render"] = lambda: int(renderer.pending)
        renderer.on_drawn = self.render_seconds.observe

    async def refresh(self) -> bool:
        """Read what is going on from the database (before a scrape); False if it is away."""
        if self.service is None:
            return False
        try:
            counts = await self.service.activity()
        except Exception:
            self.up.set(0)
            return False
        for what, n in counts.items():
            self.active.labels(what).set(n)
        self.up.set(1)
        return True

    def exposition(self) -> bytes:
        """The metrics in Prometheus' text format."""
        return generate_latest(self.registry)


def observer_for(config: Config) -> Metrics | None:
    """The metrics when the endpoint is configured (``ops.metrics_address``), else None."""
    return Metrics() if config.ops.metrics_address else None


"""One bot process of a test cluster: service_driver's loops on either backend.

    python tests/support/cluster_driver.py play|race DB LOG CHANNELS [--seed S] [--actions N]
                                   [--seconds T] [--go FILE] [--first K]

DB is a PostgreSQL URL (``postgresql://...``) or a SQLite path.  The modes are
those of ``tests/support/service_driver.py`` (same log format; ``race`` entries carry
the version the action was chosen for and the process id).  ``--seconds``
stops the loops after T seconds (an action cut short is rolled back).  Prints
``ready`` when the storage is open, and the counters as JSON at the end.
``--first K`` plays channels ``CHANNEL_BASE + K ...`` (processes of a benchmark
each get their own channels, as shards get their own guilds); LOG ``-`` logs
nothing (benchmarks).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
from typing import Any

import service_driver as driver

from bot.config import Config
from bot.service.game import GameService


def open_storage(db: str, pool_size: int = 4) -> Any:
    if db.startswith(("postgresql://", "postgres://")):
        from bot.storage.postgres import PostgresStorage

        return PostgresStorage(db, pool_size=pool_size)
    from bot.storage.sqlite import SqliteStorage

    return SqliteStorage(db)


class NoLog:
    def write(self, entry: dict[str, Any]) -> None:
        pass

    def close(self) -> None:
        pass


async def _log_nothing(*args: Any, **kwargs: Any) -> None:
    return None


async def main_async(args: argparse.Namespace) -> int:
    storage = open_storage(args.db, pool_size=max(2, min(args.channels, 8)))
    await storage.open()
    service = GameService(storage, Config())
    log: Any = NoLog()
    if args.log == "-":  # benchmark: no log, and no extra read per action to write it
        driver.log_committed = _log_nothing  # type: ignore[assignment]
    else:
        log = driver.Log(args.log)
    print("ready", flush=True)
    while args.go and not os.path.exists(args.go):
        await asyncio.sleep(0.01)
    counters = driver.Counters(refusals={})
    budget = [args.actions if args.actions > 0 else 1 << 62]
    channels = [driver.CHANNEL_BASE + args.first + i for i in range(args.channels)]
    if args.mode == "play":
        rng = random.Random(args.seed)
        loops = [driver.play_channel(service, storage, log, c, random.Random(rng.random()),
                                     budget, counters) for c in channels]
    else:
        loops = [driver.race_channel(service, storage, log, c, args.seed, budget, counters)
                 for c in channels]
    try:
        if args.seconds > 0:
            try:
                await asyncio.wait_for(asyncio.gather(*loops), args.seconds)
            except TimeoutError:
                pass
        else:
            await asyncio.gather(*loops)
    finally:
        log.close()
        await storage.close()
    print(json.dumps({"ok": counters.ok, "refused": counters.refused,
                      "refusals": counters.refusals}), flush=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else "")
    parser.add_argument("mode", choices=("play", "race"))
    parser.add_argument("db")
    parser.add_argument("log")
    parser.add_argument("channels", type=int)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--actions", type=int, default=0)
    parser.add_argument("--seconds", type=float, default=0.0)
    parser.add_argument("--go", default="")
    parser.add_argument("--first", type=int, default=0)
    return asyncio.run(main_async(parser.parse_args(argv)))


if __name__ == "__main__":
    sys.exit(main())

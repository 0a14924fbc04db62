"""One bot process grading matches, for the kill -9 and two-process tests of issue 33.

    python tests/support/grading_driver.py DB LOG [--lease S] [--delay S] [--until-empty]

DB is a SQLite path or a PostgreSQL URL holding queued matches.  The process runs the
real grader (:class:`bot.service.grading.service.Grader`) with the real worker process
(:class:`bot.ai.background.BackgroundAnalyser`), and logs with fsync, as JSON lines:
``kept`` (a game's analysis was kept, under the claim), ``graded`` (a match finished),
``posted`` (its grades handed to be posted), each with this process's id.  ``--delay``
makes each game's analysis take that much longer (the worker's own analysis, then a
wait), so a test can kill the process in the middle of one.  Prints ``ready`` once the
storage is open; with ``--until-empty`` it exits once the queue is empty and everything
is posted.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from cluster_driver import open_storage
from service_driver import Log

from bot.ai.background import BackgroundAnalyser
from bot.ai.context import MatchContext
from bot.ai.levels import DEFAULT_LEVEL, Level
from bot.ai.runner import AIRunner
from bot.config import Config
from bot.service.analysis.settings import ServerAnalysisSettings
from bot.service.core.replies import Reply
from bot.service.game import GameService
from bot.service.grading.service import Grader
from bot.storage.interface import GameRow, MatchRow, StorageError
from engine.record import GameRecord


class Slowed(BackgroundAnalyser):
    def __init__(self, delay: float, nice: int = 10) -> None:
        super().__init__(nice=nice)
        self.delay = delay

    async def analyze(self, record: GameRecord, context: MatchContext | None = None,
                      level: Level = DEFAULT_LEVEL, *, timeout: float = 120.0) -> Any:
        result = await super().analyze(record, context, level, timeout=timeout)
        await asyncio.sleep(self.delay)
        return result


class Logged(Grader):
    log: Log

    async def _keep(self, row: MatchRow, game: GameRow, analysis: Any,
                    settings: ServerAnalysisSettings, score: tuple[int, int],
                    names: tuple[str, str]) -> None:
        await super()._keep(row, game, analysis, settings, score, names)
        self.log.write({"event": "kept", "match": row.id, "game": game.id,
                        "pid": os.getpid()})


async def main_async(args: argparse.Namespace) -> int:
    storage = open_storage(args.db)
    await storage.open()
    log = Log(args.log)
    ai = AIRunner(processes=False)  # (the live AI: unused; grading needs it switched on)
    service = GameService(storage, Config(), ai=ai)

    async def post(channel: int, reply: Reply) -> None:
        assert reply.match_id is not None
        log.write({"event": "posted", "match": reply.match_id, "channel": channel,
                   "pid": os.getpid()})

    grader = Logged(storage, service.grading, Slowed(args.delay), post, lease=args.lease,
                    poll=0.2)
    grader.log = log
    print("ready", flush=True)
    try:
        while True:
            try:
                match = await grader.run_once()
                if match is not None and match in grader.graded:
                    log.write({"event": "graded", "match": match, "pid": os.getpid()})
                posted = await grader.post_pending()
            except StorageError:
                await asyncio.sleep(0.2)
                continue
            if match is None and not posted:
                if args.until_empty and await _all_done(storage):
                    return 0
                await asyncio.sleep(0.2)
    finally:
        grader.analyser.close()
        ai.close()
        log.close()
        await storage.close()


async def _all_done(storage: Any) -> bool:
    async with storage.snapshot() as tx:
        rows = await tx._all("SELECT COUNT(*) FROM grading_jobs WHERE status <> 'done' "
                             "OR posted = 0")
    return int(rows[0][0]) == 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("db")
    parser.add_argument("log")
    parser.add_argument("--lease", type=float, default=3.0)
    parser.add_argument("--delay", type=float, default=0.0)
    parser.add_argument("--until-empty", action="store_true")
    return asyncio.run(main_async(parser.parse_args(argv)))


if __name__ == "__main__":
    raise SystemExit(main())

"""Actions per second sustained by 1, 2 and 4 bot processes on one PostgreSQL, vs SQLite.

Each bot process is ``tests/support/cluster_driver.py play``: the real game service
playing random games (every variant, rolls, plays, cube actions, resignations)
in its own channels, as the shards of a real deployment each serve their own
guilds; every action is one transaction with the version check.  The
PostgreSQL server is a throwaway one (tests/support/pg.py) with its durable defaults
(fsync on, synchronous_commit on), on the same machine; SQLite is one
process on one file (WAL, synchronous=FULL).  Figures: committed actions per
second over the run (and the plays among them), all processes together.

Skipped, with the reason, when no PostgreSQL server can be started.
"""

from __future__ import annotations

import json
import os
import resource
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent
TESTS = ROOT / "tests" / "support"
CHANNELS_PER_PROCESS = 8


def _busy() -> tuple[float, float]:
    """(busy, total) CPU jiffies of the whole machine so far."""
    fields = [float(x) for x in Path("/proc/stat").read_text().split("\n")[0].split()[1:]]
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0.0)
    return sum(fields) - idle, sum(fields)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


class Figures(NamedTuple):
    actions: int
    plays: int
    elapsed: float
    bot_cpu: float
    """CPU seconds used by the bot processes."""
    machine_busy: float
    """Share of all CPUs busy during the run (bots, database server, anything else)."""

    def line(self, label: str, base: float | None) -> str:
        rate, plays = self.actions / self.elapsed, self.plays / self.elapsed
        ratio = f"{rate / base:.2f}x" if base else "1.00x"
        return (f"{label}: {rate:6.1f} actions/s ({ratio}), {plays:6.1f} plays/s; "
                f"bot CPU {1000 * self.bot_cpu / max(self.actions, 1):5.1f} ms/action; "
                f"CPUs busy {100 * self.machine_busy:3.0f}%")


def _run_cluster(db: str, processes: int, seconds: float, go_dir: Path,
                 count_plays: Callable[[], int]) -> Figures:
    """What ``processes`` bot processes commit in ``seconds``."""
    go = go_dir / f"go-{processes}-{time.monotonic_ns()}"
    procs = []
    for p in range(processes):
        procs.append(subprocess.Popen(
            [sys.executable, str(TESTS / "cluster_driver.py"), "play", db, "-",
             str(CHANNELS_PER_PROCESS), "--first", str(p * CHANNELS_PER_PROCESS),
             "--seed", str(p + 1), "--seconds", str(seconds), "--go", str(go)],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE))
    for proc in procs:
        assert proc.stdout is not None
        if proc.stdout.readline() != b"ready\n":
            err = proc.stderr.read().decode() if proc.stderr else ""
            raise RuntimeError(f"a bot process did not start: {err[-1500:]}")
    plays_before = count_plays()
    cpu_before, busy_before = _children_cpu(), _busy()
    started = time.perf_counter()
    go.touch()
    ok = 0
    for proc in procs:
        out, err = proc.communicate(timeout=seconds + 120)
        if proc.returncode != 0:
            raise RuntimeError(err.decode()[-1500:])
        ok += int(json.loads(out.decode().splitlines()[-1])["ok"])
    elapsed = time.perf_counter() - started
    busy_after = _busy()
    machine = (busy_after[0] - busy_before[0]) / max(busy_after[1] - busy_before[1], 1.0)
    return Figures(ok, count_plays() - plays_before, elapsed, _children_cpu() - cpu_before,
                   machine)


PLAYS_SQL = "SELECT COUNT(*) FROM events WHERE kind = 'play'"


def _sqlite_plays(path: Path) -> Callable[[], int]:
    def count() -> int:
        if not path.exists():
            return 0
        with sqlite3.connect(path) as db:
            try:
                return int(db.execute(PLAYS_SQL).fetchone()[0])
            except sqlite3.OperationalError:
                return 0
    return count


def _pg_plays(url: str) -> Callable[[], int]:
    import asyncio

    async def fetch() -> int:
        import asyncpg

        conn = await asyncpg.connect(url)
        try:
            if not await conn.fetchval("SELECT to_regclass('events') IS NOT NULL"):
                return 0
            return int(await conn.fetchval(PLAYS_SQL))
        finally:
            await conn.close()

    return lambda: asyncio.run(fetch())


def run(quick: bool) -> list[str]:
    sys.path.insert(0, str(TESTS))
    import pg

    reason = pg.unavailable()
    if reason is not None:
        print(f"skipped: {reason}")
        return [f"skipped: {reason}"]
    seconds = 4.0 if quick else 12.0
    lines = [f"{os.cpu_count()} CPUs; each process plays {CHANNELS_PER_PROCESS} channels "
             f"of random games for {seconds:g} s; actions/s of all processes together"]
    with tempfile.TemporaryDirectory(prefix="bench-cluster-") as tmp:
        work = Path(tmp)
        path = work / "bench.sqlite3"
        figures = _run_cluster(str(path), 1, seconds, work, _sqlite_plays(path))
        base = figures.actions / figures.elapsed
        lines.append(figures.line("SQLite,     1 process ", None))
        server = pg.Server(fsync=True).start()
        try:
            import asyncio

            for n in (1, 2, 4):
                url = asyncio.run(_database(server.admin_url, f"bench{n}"))
                figures = _run_cluster(url, n, seconds, work, _pg_plays(url))
                lines.append(figures.line(f"PostgreSQL, {n} process{'es' if n > 1 else '  '}",
                                          base))
        finally:
            server.stop()
    return lines


async def _database(admin_url: str, name: str) -> str:
    import asyncpg

    conn = await asyncpg.connect(admin_url)
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    return admin_url.rsplit("/", 1)[0] + "/" + name


if __name__ == "__main__":
    for line in run("--quick" in sys.argv):
        print(line)

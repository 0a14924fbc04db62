"""``python -m bot backup FILE`` and ``python -m bot check FILE``.

**backup** copies the SQLite database with SQLite's online backup API
(:meth:`sqlite3.Connection.backup`) in one step, inside one read transaction: the copy is
the database as of one commit, every action before it and none after, even while the bot
runs and writes (WAL lets it go on writing meanwhile).  The copy is written next to FILE
under a temporary name, checked, then renamed, so FILE is never a half copy.  The
PostgreSQL deployment is backed up with ``pg_dump`` instead (README, "Backups").

**check** verifies a database file (a backup, or the live file): SQLite's
``integrity_check`` and foreign keys, the migrations applied (every one this version
ships, in order, and none it does not know), and every game replayed from its stored
events to its stored position: the events numbered without gaps, the record legal, the
dice drawn as counted and as the game's seed gives them, a finished game's result as
stored and an unfinished game not over; then the money and the ratings recomputed from
the games' records and compared with those stored (:mod:`bot.ops.recount`).  Both
commands remove the copies that a killed ``backup`` left behind
(``.NAME.partial-PID`` whose process is gone: :func:`remove_stale_partials`).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.ops.recount import Played, recount
from bot.service.core import fairdice
from bot.service.records.verify import dice_of_record
from bot.storage.core.sql import migrations
from bot.storage.interface import EventRow, GameRow, GameStatus, MatchRow
from bot.storage.play.queries import MATCH_COLUMNS, match_row
from bot.storage.replay import replay_game
from engine.words import counted

BUSY_MS = 10_000
"""How long backup and check wait for a writer's lock (milliseconds)."""


class BackupError(Exception):
    """The copy or the check could not be made; the message says why, in one line."""


def backup(source: str | Path, target: str | Path) -> dict[str, int]:
    """Copy the SQLite database ``source`` to the new file ``target``; what it holds."""
    source, target = Path(source), Path(target)
    if not source.is_file():
        raise BackupError(f"{source} does not exist (storage.database, or --db)")
    if target.exists():
        raise BackupError(f"{target} exists already: name a new file")
    if not target.parent.is_dir():
        raise BackupError(f"the folder {target.parent} does not exist")
    partial = target.with_name(f".{target.name}.partial-{os.getpid()}")
    try:
        src = sqlite3.connect(f"file:{source}?mode=ro", uri=True, timeout=BUSY_MS / 1000)
        try:
            dst = sqlite3.connect(partial)
            try:
                src.backup(dst)  # pages=-1: all in one step, one consistent snapshot
                dst.execute("PRAGMA journal_mode = DELETE")  # one self-contained file
                (ok,) = dst.execute("PRAGMA quick_check").fetchone()
                if ok != "ok":
                    raise BackupError(f"the copy fails SQLite's check: {ok}")
                counts = _counts(dst)
            finally:
                dst.close()
        finally:
            src.close()
        partial.replace(target)
    except sqlite3.Error as error:
        raise BackupError(f"cannot copy {source}: {error}") from error
    finally:
        with contextlib.suppress(OSError):
            partial.unlink()
    return counts


PARTIAL = re.compile(r"\..+\.partial-(\d+)(?:-journal|-wal|-shm)?")
"""A copy under way (:func:`backup`), with its SQLite journal: ``.NAME.partial-PID``."""


def remove_stale_partials(folder: Path) -> list[Path]:
    """Remove the copies that a backup killed or failed mid-copy left in ``folder``
    (``.NAME.partial-PID``, never a file under a target's own name): only those whose
    process is gone, so a backup running now keeps its copy.  The files removed."""
    removed: list[Path] = []
    try:
        entries = sorted(folder.iterdir())
    except OSError:
        return removed
    for path in entries:
        found = PARTIAL.fullmatch(path.name)
        if found is None or _alive(int(found[1])) or not path.is_file():
            continue
        with contextlib.suppress(OSError):
            path.unlink()
            removed.append(path)
    return removed


def _alive(pid: int) -> bool:
    """Whether process ``pid`` runs (one of another user's counts as running)."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, OverflowError):
        return False
    except PermissionError:
        return True
    return True


def _counts(db: sqlite3.Connection) -> dict[str, int]:
    out = {}
    for table in ("matches", "games", "events", "users", "tournaments"):
        try:
            out[table] = int(db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])
        except sqlite3.Error:
            out[table] = 0
    return out


@dataclass
class Report:
    problems: list[str] = field(default_factory=list)
    games: int = 0
    events: int = 0
    schema: int = 0
    removed: list[Path] = field(default_factory=list)
    """Copies left by killed backups, removed from the file's folder."""


def check(path: str | Path) -> Report:
    """Verify the SQLite database ``path`` (see the module's notes)."""
    path = Path(path)
    if not path.is_file():
        raise BackupError(f"{path} does not exist")
    removed = remove_stale_partials(path.parent)
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=BUSY_MS / 1000)
    except sqlite3.Error as error:
        raise BackupError(f"cannot open {path}: {error}") from error
    try:
        report = Report(removed=removed)
        try:
            rows = db.execute("PRAGMA integrity_check").fetchall()
        except sqlite3.DatabaseError as error:
            raise BackupError(f"{path} is not a SQLite database: {error}") from error
        if [r[0] for r in rows] != ["ok"]:
            report.problems += [f"integrity: {r[0]}" for r in rows[:20]]
            return report
        for r in db.execute("PRAGMA foreign_key_check").fetchall()[:20]:
            report.problems.append(f"foreign key: table {r[0]} row {r[1]} -> {r[2]}")
        report.problems += _check_migrations(db, report)
        if report.problems:
            return report
        db.execute("BEGIN")  # one snapshot for every game
        played: dict[int, Played] = {}
        for row in db.execute(f"SELECT {MATCH_COLUMNS} FROM matches ORDER BY id").fetchall():
            report.problems += _check_match(db, match_row(row), report, played)
        report.problems += recount(db, played)  # money and ratings, by the records
        db.execute("COMMIT")
        return report
    finally:
        db.close()


def _check_migrations(db: sqlite3.Connection, report: Report) -> list[str]:
    shipped = [(version, name) for version, name, _ in migrations()]
    try:
        applied = [(int(v), str(n)) for v, n in db.execute(
            "SELECT version, name FROM schema_version ORDER BY version").fetchall()]
    except sqlite3.Error:
        return ["migrations: no schema_version table (not a bgbot database)"]
    report.schema = applied[-1][0] if applied else 0
    if applied == shipped:
        return []
    known = dict(shipped)
    out = [f"migrations: {v} {n} is not one this version knows (a newer bgbot's?)"
           for v, n in applied if known.get(v) != n]
    missing = [f"{v} {n}" for v, n in shipped if (v, n) not in applied]
    if missing:
        out.append(f"migrations: not applied: {', '.join(missing)} (the bot applies them "
                   "at its next start)")
    return out or [f"migrations: applied {applied}, shipped {shipped}"]


def _json(text: Any) -> Any:
    return json.loads(text) if isinstance(text, str) else text


def _check_match(db: sqlite3.Connection, row: MatchRow, report: Report,
                 played: dict[int, Played]) -> list[str]:
    """The problems of ``row``'s games; each game that replays goes into ``played``."""
    out: list[str] = []
    games = [GameRow(id=g[0], match_id=g[1], number=g[2], seed_hash=g[3], seed=g[4],
                     dice_drawn=g[5], status=GameStatus(g[6]), winner_id=g[7],
                     result=_json(g[8]) if g[8] else None, created_at=g[9],
                     finished_at=g[10], setup=_json(g[11]))
             for g in db.execute(
                 "SELECT id, match_id, number, seed_hash, seed, dice_drawn, status, winner_id, "
                 "result, created_at, finished_at, setup FROM games WHERE match_id = ? "
                 "ORDER BY number", (row.id,)).fetchall()]
    for g in games:
        where = f"match {row.id} game {g.number} (id {g.id})"
        events = [EventRow(game_id=g.id, seq=e[0], kind=e[1], data=_json(e[2]),
                           actor_id=e[3], created_at=e[4])
                  for e in db.execute("SELECT seq, kind, data, actor_id, created_at FROM "
                                      "events WHERE game_id = ? ORDER BY seq", (g.id,))]
        report.games += 1
        report.events += len(events)
        if [e.seq for e in events] != list(range(len(events))):
            out.append(f"{where}: the events are not numbered 0..{len(events) - 1}")
            continue
        try:
            game = replay_game(row, g, events)
        except Exception as error:  # the stored record must replay: say why it does not
            out.append(f"{where}: does not replay: {error}")
            continue
        kept = g.status is GameStatus.FINISHED and g.result is not None
        played[g.id] = Played(row, g, game.result if kept and game.is_finished else None)
        dice = dice_of_record([e.data for e in events])
        if g.dice_drawn != len(dice):
            out.append(f"{where}: {g.dice_drawn} dice drawn, the record used {len(dice)}")
        bad = fairdice.verify(g.seed, g.seed_hash, dice)
        if bad:
            out.append(f"{where}: dice do not match the game's seed: {bad[0]}")
        if g.status is GameStatus.FINISHED and g.result is None:
            continue  # ended without a result (a session stopped, a match cancelled)
        if game.is_finished != (g.status is GameStatus.FINISHED):
            out.append(f"{where}: stored as {g.status.value}, the replay is "
                       f"{'over' if game.is_finished else 'not over'}")
        elif game.result is not None and g.result != game.result.to_dict():
            out.append(f"{where}: stored result {g.result}, the replay gives "
                       f"{game.result.to_dict()}")
    return out


def run_backup(source: str, target: str) -> int:
    """The ``backup`` command: 0 when the copy is made."""
    started = time.monotonic()
    say_removed("backup", remove_stale_partials(Path(target).parent))
    try:
        counts = backup(source, target)
    except BackupError as error:
        print(f"backup: {error}")
        return 1
    print(f"backup: {source} copied to {target} in {time.monotonic() - started:.1f} s "
          f"({counted(counts['matches'], 'match')}, {counted(counts['games'], 'game')}, "
          f"{counted(counts['events'], 'event')}, {counted(counts['users'], 'player')}); "
          "check it with: python -m bot check {target}")
    return 0


def run_check(path: str) -> int:
    """The ``check`` command: 0 when the database passes every check."""
    try:
        report = check(path)
    except BackupError as error:
        print(f"check: {error}")
        return 1
    say_removed("check", report.removed)
    if report.problems:
        print(f"check: {path} has {counted(len(report.problems), 'problem')}:")
        for problem in report.problems[:50]:
            print(f"  {problem}")
        return 1
    print(f"check: {path} is sound: integrity ok, migrations 1-{report.schema} applied, "
          f"{counted(report.games, 'game')} replayed from {counted(report.events, 'event')} "
          "to the stored "
          "positions")
    return 0


def say_removed(command: str, removed: list[Path]) -> None:
    for path in removed:
        print(f"{command}: removed {path}, left by a backup that did not finish")

"""Play random games through :class:`bot.service.game.GameService`, and audit a database.

Run as a subprocess by the durability and race tests::

    python tests/support/service_driver.py play DB LOG CHANNELS [--seed S] [--actions N]
    python tests/support/service_driver.py race DB LOG CHANNELS [--seed S] [--actions N]

``play`` runs one asyncio task per channel (guild :data:`GUILD`, channels
``CHANNEL_BASE + 0 ...``).  Each task reads its channel's state, picks a random
action the acting player may take (a challenge when the channel is free, accept,
roll, double, take, drop, beaver, a legal play formatted with
``variant.format_play``, choices, resignations, drafts and undo) and calls the
service.  After every call that returned ``ok`` it appends one JSON line to LOG
(channel, match id, version, current game id, its event count and a digest of
its events) and flushes and fsyncs it: the log is the record of what was
committed.  A torn last line (the process was killed while writing it) is cut
off when the driver starts again.  The driver prints ``ready`` once the
database is open and resumes every game where it stopped.

``race`` is for two processes hammering the same games (set up beforehand):
the action is chosen from a random generator seeded with the match id and
version (so both processes pick the same action for the same state), every
button-like call carries the version it was chosen for, and plays are entered
whole (no drafts).  Each ok call is logged with its process id and the version
it was chosen for.  ``--go FILE`` waits for FILE to exist after ``ready``.

:func:`audit` checks a database: replaying each game's stored events with
:meth:`engine.game.Game.replay` matches the game row, every die came from the
game's seed, game numbers and event sequence numbers have no gaps, finished
games add up to the match score or the money ledger, rated finished matches
were rated once.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import inspect
import json
import os
import random
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.config import Config
from bot.service.core import fairdice
from bot.service.core.replies import Reply
from bot.service.core.state import MatchState
from bot.service.core.takeback import restore
from bot.service.core.values import Actor, Expect, Place
from bot.service.game import GameService
from bot.service.records.verify import dice_of_record
from bot.storage.interface import EventRow, GameRow, MatchRow, Transaction
from bot.storage.replay import replay_game as replay
from bot.storage.sqlite import SqliteStorage
from engine.game import Action, Game, Phase
from engine.match import Match, MoneySession
from engine.player import Player
from engine.rules import RuleOptions
from engine.variant import get_variant

GUILD = 7
CHANNEL_BASE = 500
VARIANTS = ("standard",) * 6 + ("acey-deucey", "russian", "french")


def players(channel: int) -> tuple[Actor, Actor]:
    """The two players of ``channel``: the challenger (white) and the challenged."""
    return (Actor(10_000 + 2 * channel, f"white{channel}"),
            Actor(10_001 + 2 * channel, f"black{channel}"))


def place(channel: int) -> Place:
    return Place(GUILD, channel)


def digest(events: list[EventRow]) -> str:
    """A digest of a game's stored events (the prefix a logged line committed to)."""
    text = json.dumps([[e.seq, e.kind, e.data] for e in events], sort_keys=True,
                      separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@dataclass
class Snapshot:
    row: MatchRow
    game_row: GameRow | None
    events: list[EventRow]
    game: Game | None


async def snapshot(tx: Transaction, row: MatchRow) -> Snapshot:
    games = await tx.games_of_match(row.id)
    if not games:
        return Snapshot(row, None, [], None)
    game_row = games[-1]
    events = await tx.events(game_row.id)
    # The game as the service sees it: with a play that may still be taken back.
    game, _, _ = restore(MatchState.from_dict(row.state), game_row,
                         replay(row, game_row, events))
    return Snapshot(row, game_row, events, game)


async def channel_state(storage: SqliteStorage, channel: int) -> Snapshot | None:
    async with storage.transaction() as tx:
        row = await tx.open_match_in_channel(channel)
        return await snapshot(tx, row) if row is not None else None


# ------------------------------------------------------------------ choosing


@dataclass
class Choice:
    name: str
    actor: Actor
    args: tuple[Any, ...] = ()
    kwargs: dict[str, Any] | None = None
    button: bool = False
    """The call takes ``expect`` (a button)."""


def challenge_terms(rng: random.Random) -> dict[str, Any]:
    variant = rng.choice(VARIANTS)
    if rng.random() < 0.5:
        return {"variant": variant, "length": rng.choice((1, 1, 3, 5)),
                "rated": rng.random() < 0.7}
    rules: dict[str, Any] = {}
    if variant == "standard" and rng.random() < 0.5:
        rules = {"beavers": True, "jacoby": rng.random() < 0.5}
    return {"variant": variant, "stake": rng.choice((0, 1, 5)), "rules": rules,
            "rated": rng.random() < 0.5}


def choose(rng: random.Random, channel: int, snap: Snapshot | None, *,
           drafts: bool = True) -> Choice | None:
    """A random action that should be accepted in this state (None: nothing to do)."""
    white, black = players(channel)
    if snap is None:
        return Choice("challenge", white, (black,), challenge_terms(rng))
    row, game = snap.row, snap.game
    if row.status == "challenged":
        return Choice("accept", black, button=True)
    if game is None or game.is_finished:
        return None
    waiting = game.awaiting
    if waiting is None:
        return None
    actor = white if waiting is Player.WHITE else black
    acts = {a for p, a in game.available_actions() if p is waiting}
    draft = row.state.get("draft")
    if isinstance(draft, dict) and draft.get("seq") == len(game.record) and \
            snap.game_row is not None and draft.get("game") == snap.game_row.id:
        return Choice("undo", actor, button=True)
    if game.phase is Phase.RESIGNATION:
        return Choice("answer_resignation", actor, (rng.random() < 0.5,), button=True)
    if game.phase is not Phase.DOUBLED and Action.RESIGN in acts and rng.random() < 0.01:
        kind = rng.choice(("single", "gammon", "backgammon"))
        return Choice("resign", actor, (kind,))
    if game.phase is Phase.DOUBLED:
        r = rng.random()
        if Action.BEAVER in acts and r < 0.15:
            return Choice("beaver", actor, button=True)
        return Choice("take" if r < 0.7 else "drop", actor, button=True)
    if game.phase is Phase.ROLL:
        if Action.DOUBLE in acts and rng.random() < 0.15:
            return Choice("double", actor, button=True)
        return Choice("roll", actor, button=True)
    if game.phase is Phase.CHOICE and game.pending_choice is not None:
        return Choice("choose", actor, (rng.choice(game.pending_choice.options),), button=True)
    if game.phase is Phase.PLAY:
        plays = game.legal_plays()
        if not plays:
            return None
        text = game.variant.format_play(rng.choice(plays))
        parts = text.split()
        if drafts and len(parts) > 1 and snap.row.variant == "standard" and rng.random() < 0.15:
            # a draft: undone next time (partial entry is only tried in the standard game;
            # the Russian variant refuses a partial entry as not legal)
            text = parts[0]
        return Choice("move", actor, (text,))
    return None


async def call(service: GameService, channel: int, choice: Choice,
               expected_version: int | None = None) -> Reply:
    method = getattr(service, choice.name)
    kwargs = dict(choice.kwargs or {})
    # Buttons carry the state version; so does every other action that accepts one,
    # since this driver's processes submit the same action for the same version (a
    # typed command applied to a later state would be legitimate, but not a race).
    if expected_version is not None and (
            choice.button or "expect" in inspect.signature(method).parameters):
        kwargs["expect"] = Expect(expected_version)
    reply: Reply = await method(place(channel), choice.actor, *choice.args, **kwargs)
    return reply


# ------------------------------------------------------------------ the log


class Log:
    """Append-only JSON lines, each flushed and fsynced before going on."""

    def __init__(self, path: str) -> None:
        p = Path(path)
        if p.exists():
            data = p.read_bytes()
            if data and not data.endswith(b"\n"):
                with p.open("r+b") as f:  # cut off a line torn by a kill
                    f.truncate(data.rfind(b"\n") + 1)
                    f.flush()
                    os.fsync(f.fileno())
        self._file = p.open("a", encoding="utf-8")

    def write(self, entry: dict[str, Any]) -> None:
        self._file.write(json.dumps(entry, separators=(",", ":")) + "\n")
        self._file.flush()
        os.fsync(self._file.fileno())

    def close(self) -> None:
        self._file.close()


def read_log(path: str | Path) -> list[dict[str, Any]]:
    """The complete lines of a driver log."""
    p = Path(path)
    if not p.exists():
        return []
    lines = p.read_text(encoding="utf-8").split("\n")
    return [json.loads(line) for line in lines[:-1] if line]


async def log_committed(storage: SqliteStorage, log: Log, channel: int, reply: Reply,
                        action: str, **extra: Any) -> None:
    """Log an ok reply with the stored state it produced."""
    assert reply.match_id is not None and reply.version is not None
    async with storage.transaction() as tx:
        games = await tx.games_of_match(reply.match_id)
        game_id = games[-1].id if games else None
        events = await tx.events(game_id) if game_id is not None else []
    log.write({"ch": channel, "m": reply.match_id, "v": reply.version, "g": game_id,
               "n": len(events), "h": digest(events), "a": action, **extra})


# ------------------------------------------------------------------ play


@dataclass
class Counters:
    ok: int = 0
    refused: int = 0
    refusals: dict[str, int] | None = None


async def play_channel(service: GameService, storage: SqliteStorage, log: Log,
                       channel: int, rng: random.Random, budget: list[int],
                       counters: Counters) -> None:
    while budget[0] > 0:
        snap = await channel_state(storage, channel)
        choice = choose(rng, channel, snap)
        if choice is None:
            await asyncio.sleep(0)
            continue
        version = snap.row.version if snap is not None else None
        reply = await call(service, channel, choice, version)
        if reply.ok:
            counters.ok += 1
            budget[0] -= 1
            await log_committed(storage, log, channel, reply, choice.name)
        else:
            counters.refused += 1
            key = f"{choice.name}: {reply.text[:60]}"
            assert counters.refusals is not None
            counters.refusals[key] = counters.refusals.get(key, 0) + 1


async def race_channel(service: GameService, storage: SqliteStorage, log: Log,
                       channel: int, seed: int, budget: list[int],
                       counters: Counters) -> None:
    while budget[0] > 0:
        snap = await channel_state(storage, channel)
        if snap is None:
            return  # the match ended: nothing more to race on
        rng = random.Random(f"{seed}:{snap.row.id}:{snap.row.version}")
        choice = choose(rng, channel, snap, drafts=False)
        if choice is None or choice.name == "challenge":
            return
        reply = await call(service, channel, choice, snap.row.version)
        budget[0] -= 1
        if reply.ok:
            counters.ok += 1
            await log_committed(storage, log, channel, reply, choice.name,
                                before=snap.row.version, pid=os.getpid())
        else:
            counters.refused += 1


async def main_async(args: argparse.Namespace) -> int:
    storage = SqliteStorage(args.db)
    await storage.open()
    service = GameService(storage, Config())
    log = Log(args.log)
    print("ready", flush=True)
    while args.go and not os.path.exists(args.go):
        await asyncio.sleep(0.01)
    counters = Counters(refusals={})
    budget = [args.actions if args.actions > 0 else 1 << 62]
    channels = [CHANNEL_BASE + i for i in range(args.channels)]
    try:
        if args.mode == "play":
            rng = random.Random(args.seed)
            await asyncio.gather(*(
                play_channel(service, storage, log, c, random.Random(rng.random()), budget,
                             counters) for c in channels))
        else:
            await asyncio.gather(*(
                race_channel(service, storage, log, c, args.seed, budget, counters)
                for c in channels))
    finally:
        log.close()
        await storage.close()
    print(json.dumps({"ok": counters.ok, "refused": counters.refused,
                      "refusals": counters.refusals}), flush=True)
    return 0


# ------------------------------------------------------------------ setup and audit


async def start_matches(service: GameService, channels: list[int], *, length: int = 0,
                        stake: int = 1) -> None:
    """Challenge and accept a game in each channel (for the race tests)."""
    for c in channels:
        white, black = players(c)
        reply = await service.challenge(place(c), white, black, length=length,
                                        stake=0 if length else stake)
        assert reply.ok, reply.text
        reply = await service.accept(place(c), black)
        assert reply.ok, reply.text


async def audit(storage: SqliteStorage, *,
                seeded: bool = True) -> tuple[list[str], dict[str, int]]:
    """Problems found in the whole database, and what was looked at.

    ``seeded``: the dice came from the games' seeds (not injected by a test).
    """
    problems: list[str] = []
    seen = {"matches": 0, "games": 0, "finished_games": 0, "events": 0, "active": 0}
    async with storage.transaction() as tx:
        db = storage.db
        async with db.execute("SELECT id FROM matches ORDER BY id") as cur:
            match_ids = [r[0] for r in await cur.fetchall()]
        for match_id in match_ids:
            row = await tx.get_match(match_id)
            assert row is not None
            seen["matches"] += 1
            seen["active"] += row.status == "active"
            problems += await _audit_match(tx, storage, row, seen, seeded)
    return problems, seen


async def _audit_match(tx: Transaction, storage: SqliteStorage, row: MatchRow,
                       seen: dict[str, int], seeded: bool) -> list[str]:
    out: list[str] = []
    where = f"match {row.id} ({row.status}, v{row.version})"
    games = await tx.games_of_match(row.id)
    rules = RuleOptions.from_dict(row.rules)
    variant = get_variant(row.variant)()
    session: Match | MoneySession = (Match.new(row.length, rules, variant) if row.length
                                     else MoneySession.new(rules, variant, row.stake))
    if row.status in ("challenged", "declined") and games:
        out.append(f"{where}: has games but was never accepted")
    # (a cancelled match may have games: an organiser closed a tournament match in play)
    if row.status == "active" and (not games or games[-1].status != "active"):
        out.append(f"{where}: active without a game in progress")
    if row.status != "active" and any(g.status == "active" for g in games):
        out.append(f"{where}: a game in progress in a match that is over")
    if [g.number for g in games] != list(range(1, len(games) + 1)):
        out.append(f"{where}: game numbers {[g.number for g in games]}")
    async with storage.db.execute(
            "SELECT game_id, SUM(points), SUM(amount), COUNT(*) FROM ledger "
            "WHERE match_id = ? GROUP BY game_id", (row.id,)) as cur:
        ledger = {r[0]: (r[1], r[2], r[3]) for r in await cur.fetchall()}
    for i, g in enumerate(games):
        seen["games"] += 1
        gw = f"{where} game {g.number} (id {g.id}, {g.status})"
        if g.status == "active" and i != len(games) - 1:
            out.append(f"{gw}: an earlier game is still active")
        events = await tx.events(g.id)
        seen["events"] += len(events)
        if [e.seq for e in events] != list(range(len(events))):
            out.append(f"{gw}: event seq has gaps")
        try:
            game = replay(row, g, events)
        except Exception as error:  # the record itself must replay
            out.append(f"{gw}: replay fails: {error!r}")
            continue
        dice = dice_of_record([e.data for e in events])
        if g.dice_drawn != len(dice):
            out.append(f"{gw}: dice_drawn {g.dice_drawn} but the record used {len(dice)}")
        bad = fairdice.verify(g.seed, g.seed_hash, dice) if seeded else []
        if bad:
            out.append(f"{gw}: dice do not match the seed: {bad[:2]}")
        if g.status == "finished" and g.result is None:
            # Not played out: the session was stopped, or the match closed, around it.
            if game.is_finished or i != len(games) - 1 or row.status == "active":
                out.append(f"{gw}: ended without a result, but replay finished="
                           f"{game.is_finished}, game {i + 1} of {len(games)}, match "
                           f"{row.status}")
            if g.winner_id is not None or g.finished_at is None or ledger.get(g.id):
                out.append(f"{gw}: ended without a result but has a winner, no end time "
                           "or ledger entries")
            continue
        if game.is_finished != (g.status == "finished"):
            out.append(f"{gw}: replay finished={game.is_finished} but row says {g.status}")
            continue
        if g.status == "active":
            if ledger.get(g.id):
                out.append(f"{gw}: ledger entries for a game in progress")
            continue
        seen["finished_games"] += 1
        assert game.result is not None
        if g.result != game.result.to_dict():
            out.append(f"{gw}: stored result {g.result} != replayed {game.result.to_dict()}")
        winner_id = row.white_id if game.result.winner is Player.WHITE else row.black_id
        if g.winner_id != winner_id:
            out.append(f"{gw}: winner_id {g.winner_id} != {winner_id}")
        if isinstance(session, MoneySession):
            entry = ledger.get(g.id)
            if entry is None or entry[0] != 0 or entry[1] != 0 or entry[2] != 2:
                out.append(f"{gw}: ledger (points, amount, rows) = {entry}, want (0, 0, 2)")
            async with storage.db.execute(
                    "SELECT points, amount FROM ledger WHERE game_id = ? AND user_id = ?",
                    (g.id, winner_id)) as cur:
                won = await cur.fetchall()
            want = [(game.result.points, game.result.points * row.stake)]
            if [tuple(w) for w in won] != want:
                out.append(f"{gw}: winner's ledger {won} != {want}")
        elif g.id in ledger:
            out.append(f"{gw}: ledger entries in match play")
        session = session.add_game(game.result)
    if isinstance(session, Match):
        over = session.is_over
        if row.status == "finished" and not over:
            out.append(f"{where}: finished at {session.score} in a match to {session.length}")
        if row.status == "active" and over:
            out.append(f"{where}: still active at {session.score}, match to {session.length}")
        if over:
            assert session.winner is not None
            winner = row.white_id if session.winner is Player.WHITE else row.black_id
            if row.winner_id != winner:
                out.append(f"{where}: winner_id {row.winner_id} != {winner}")
    async with storage.db.execute(
            "SELECT COUNT(*) FROM rating_history WHERE match_id = ?", (row.id,)) as cur:
        fetched = await cur.fetchone()
    rated_rows = int(fetched[0]) if fetched else 0
    if row.rated and isinstance(session, Match):
        want_rows = 2 if row.status == "finished" else 0
    elif row.rated:
        want_rows = 2 * len(session.results)
    else:
        want_rows = 0
    if rated_rows != want_rows:
        out.append(f"{where}: {rated_rows} rating history rows, want {want_rows}")
    return out


async def continue_all(service: GameService, storage: SqliteStorage,
                       channels: list[int]) -> dict[int, Reply]:
    """One action in every channel with a match in progress; the replies by channel."""
    rng = random.Random(0)
    replies: dict[int, Reply] = {}
    for c in channels:
        snap = await channel_state(storage, c)
        if snap is None:
            continue
        choice = choose(rng, c, snap)
        if choice is None:
            continue
        replies[c] = await call(service, c, choice, snap.row.version)
    return replies


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else "")
    parser.add_argument("mode", choices=("play", "race"))
    parser.add_argument("db")
    parser.add_argument("log")
    parser.add_argument("channels", type=int)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--actions", type=int, default=0,
                        help="stop after this many ok calls (0: run until killed); "
                             "race: after this many calls")
    parser.add_argument("--go", default="", help="wait for this file to exist before playing")
    return asyncio.run(main_async(parser.parse_args(argv)))


if __name__ == "__main__":
    sys.exit(main())

"""Bad input of any kind is refused with a reason and changes nothing.

Unknown games, garbage and huge notation, unicode junk, the wrong user, actions
in the wrong phase, bad challenge terms: each call returns ``ok=False``,
``ephemeral=True`` and a reason naming the problem, and the whole database
(matches, versions, state, games, events, ledger, ratings) is unchanged.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import service_driver as driver
from race_table import BLACK, PLACE, SPECTATOR, WHITE, make_service

from bot.service.core.replies import Action, Reply
from bot.service.core.values import Actor, Expect, Place
from bot.service.game import GameService
from bot.storage.sqlite import SqliteStorage

CHALLENGED = Place(1, 78)  # a challenge waiting for bob
FREE = Place(1, 79)  # no match
OTHER_GUILD = Place(2, PLACE.channel_id)
ROBOT = Actor(9, "robot", is_bot=True)


@dataclass
class Host:
    storage: SqliteStorage
    service: GameService


@pytest.fixture
async def host(tmp_path: Path) -> AsyncIterator[Host]:
    storage = SqliteStorage(tmp_path / "refusals.sqlite3")
    await storage.open()
    service = make_service(storage)
    assert (await service.challenge(PLACE, WHITE, BLACK, stake=1)).ok
    assert (await service.accept(PLACE, BLACK)).ok  # white to play 3-1
    assert (await service.challenge(CHALLENGED, WHITE, BLACK, length=3)).ok
    yield Host(storage, service)
    await storage.close()


async def everything(storage: SqliteStorage) -> tuple[Any, ...]:
    """The whole game state of the database."""
    db = storage.db
    out = []
    for sql in ("SELECT id, status, version, state, winner_id, rules FROM matches ORDER BY id",
                "SELECT id, status, dice_drawn, result FROM games ORDER BY id",
                "SELECT game_id, seq, kind, data FROM events ORDER BY game_id, seq",
                "SELECT * FROM ledger ORDER BY id",
                "SELECT * FROM ratings ORDER BY guild_id, user_id",
                "SELECT * FROM rating_history ORDER BY id"):
        async with db.execute(sql) as cur:
            out.append(tuple(tuple(r) for r in await cur.fetchall()))
    return tuple(out)


Call = Callable[[GameService], Awaitable[Reply]]

CASES: list[tuple[str, Call, tuple[str, ...]]] = [
    # no such game
    ("unknown channel", lambda s: s.roll(Place(1, 999), WHITE), ("no game in this channel",)),
    ("same channel id, other guild", lambda s: s.move(OTHER_GUILD, WHITE, "8/5 6/5"),
     ("no game in this channel",)),
    ("board of an unknown channel", lambda s: s.board(Place(1, 999), SPECTATOR),
     ("no game in this channel",)),
    ("accept where nobody challenged", lambda s: s.accept(FREE, BLACK),
     ("no challenge waiting in this channel",)),  # issue 30 item 12
    ("verify an unknown game id", lambda s: s.verify(PLACE, WHITE, game_id=123_456),
     ("no game 123456",)),
    ("verify with no finished game", lambda s: s.verify(PLACE, WHITE),
     ("no finished game",)),
    # garbage notation
    ("words", lambda s: s.move(PLACE, WHITE, "hello world"), ("can't read 'hello'",)),
    ("huge repeat count", lambda s: s.move(PLACE, WHITE, "13/7(99999999999)"),
     ("can't read",)),
    ("10,000 characters", lambda s: s.move(PLACE, WHITE, "13/7 " * 2000),
     ("too long", "at most 200")),
    ("200 kB of digits", lambda s: s.move(PLACE, WHITE, "9" * 200_000), ("too long",)),
    ("NUL and a lone surrogate", lambda s: s.move(PLACE, WHITE, "\x00\ud800"),
     ("can't read",)),
    ("emoji", lambda s: s.move(PLACE, WHITE, "😀/💩"), ("can't read",)),
    ("right-to-left override", lambda s: s.move(PLACE, WHITE, "\u202e8/5 6/5"),
     ("can't read",)),
    ("full-width digits", lambda s: s.move(PLACE, WHITE, "１３/７ ６/５"),
     ("6 pips", "you rolled 3-1")),  # not "only the 3 left": nothing was played (issue 19, 7)
    ("empty move", lambda s: s.move(PLACE, WHITE, "   "), ("you must play your 3-1",)),
    ("three moves for 3-1", lambda s: s.move(PLACE, WHITE, "8/5 6/5 6/5"),
     ("3 moves", "at most two")),
    ("from the empty bar", lambda s: s.move(PLACE, WHITE, "bar/22"), ("no checker on the bar",)),
    ("wrong distance", lambda s: s.move(PLACE, WHITE, "8/2"), ("6 pips", "3-1")),
    ("hit nothing", lambda s: s.move(PLACE, WHITE, "8/5*"), ("no opposing checker",)),
    ("huge resign kind", lambda s: s.resign(PLACE, WHITE, "x" * 10_000),
     ("resign a single, gammon or backgammon",)),
    ("huge choice", lambda s: s.choose(PLACE, WHITE, "é" * 10_000), ("no choice to make",)),
    # words after an action that reads none: refused, not dropped ('/stop now' stopped)
    ("words after /stop", lambda s: s.act(Action.STOP, PLACE, WHITE, option="now please"),
     ("/stop takes nothing after it", "nothing was done", "'now please'")),
    ("words after /board", lambda s: s.act(Action.BOARD, PLACE, SPECTATOR, option="x"),
     ("/board takes nothing after it",)),
    ("words after /accept", lambda s: s.act(Action.ACCEPT, CHALLENGED, BLACK, option="ok"),
     ("/accept takes nothing after it",)),
    ("a long word after /claim", lambda s: s.act(Action.CLAIM, PLACE, BLACK, option="z" * 999),
     ("/claim takes nothing after it", "'" + "z" * 20 + "...'")),
    # the wrong user
    ("spectator moves", lambda s: s.move(PLACE, SPECTATOR, "8/5 6/5"),
     ("not playing in this game",)),
    ("spectator rolls", lambda s: s.roll(PLACE, SPECTATOR), ("not playing in this game",)),
    ("spectator forfeits", lambda s: s.forfeit(PLACE, SPECTATOR),
     ("not playing in this game",)),
    ("spectator resigns", lambda s: s.resign(PLACE, SPECTATOR), ("not playing in this game",)),
    ("opponent moves", lambda s: s.move(PLACE, BLACK, "8/5 6/5"),
     ("not your turn", "alice must play")),
    ("opponent rolls", lambda s: s.roll(PLACE, BLACK), ("not your turn",)),
    ("opponent answers a resignation that was not offered",
     lambda s: s.answer_resignation(PLACE, BLACK, True),
     ("no resignation to answer", "alice must play")),  # issue 42 item 2
    ("challenger accepts", lambda s: s.accept(CHALLENGED, WHITE), ("you made this challenge",)),
    ("stranger accepts", lambda s: s.accept(CHALLENGED, SPECTATOR), ("not you",)),
    ("challenger declines", lambda s: s.decline(CHALLENGED, WHITE), ("/cancel",)),
    ("challenged cancels", lambda s: s.cancel(CHALLENGED, BLACK),
     ("only the challenger can cancel",)),
    ("claim while it is the claimant's move", lambda s: s.claim(PLACE, WHITE),
     ("only claim a game while your opponent has to act",)),
    ("claim too early", lambda s: s.claim(PLACE, BLACK), ("1 day to act before you can claim",)),
    # the wrong phase
    ("roll while a roll is to be played", lambda s: s.roll(PLACE, WHITE),
     ("already rolled 3-1",)),
    ("double after rolling", lambda s: s.double(PLACE, WHITE), ("already rolled",)),
    ("take without a double", lambda s: s.take(PLACE, WHITE), ("no double to take",)),
    ("drop without a double", lambda s: s.drop(PLACE, WHITE), ("no double to drop",)),
    ("beaver without a double", lambda s: s.beaver(PLACE, WHITE), ("no double to beaver",)),
    ("choose with no choice", lambda s: s.choose(PLACE, WHITE, "play"), ("no choice",)),
    ("answer no resignation", lambda s: s.answer_resignation(PLACE, WHITE, False),
     ("no resignation to answer",)),
    ("undo with nothing entered", lambda s: s.undo(PLACE, WHITE), ("nothing to undo",)),
    ("confirm with nothing pending", lambda s: s.confirm(PLACE, WHITE),
     ("no play waiting for confirmation",)),
    ("accept a game under way", lambda s: s.accept(PLACE, BLACK), ("already under way",)),
    ("decline a game under way", lambda s: s.decline(PLACE, BLACK), ("already under way",)),
    ("roll before the challenge is accepted", lambda s: s.roll(CHALLENGED, BLACK),
     ("not been accepted yet",)),
    ("move before the challenge is accepted", lambda s: s.move(CHALLENGED, WHITE, "8/5 6/5"),
     ("not been accepted yet",)),
    ("a stale button", lambda s: s.roll(PLACE, WHITE, expect=Expect(0)), ("moved on",)),
    # bad challenges
    ("challenge oneself", lambda s: s.challenge(FREE, WHITE, WHITE), ("yourself",)),
    ("challenge a bot", lambda s: s.challenge(FREE, WHITE, ROBOT), ("is a bot",)),
    ("challenge in a busy channel", lambda s: s.challenge(PLACE, SPECTATOR, BLACK),
     ("already has a game",)),
    ("unknown rule option", lambda s: s.challenge(FREE, WHITE, BLACK, rules={"bogus": 1}),
     ("unknown rule option 'bogus'",)),
    ("bad cube limit", lambda s: s.challenge(FREE, WHITE, BLACK, rules={"max_cube": 3}),
     ("max_cube", "power of two")),
    ("garbage cube limit", lambda s: s.challenge(FREE, WHITE, BLACK, rules={"max_cube": "x"}),
     ("max_cube",)),
    ("Jacoby in a match", lambda s: s.challenge(FREE, WHITE, BLACK, length=3,
                                                rules={"jacoby": True}), ("jacoby",)),
    ("beavers in a match", lambda s: s.challenge(FREE, WHITE, BLACK, length=3,
                                                 rules={"beavers": True}), ("beavers",)),
    ("unknown variant", lambda s: s.challenge(FREE, WHITE, BLACK, variant="chess"),
     ("unknown variant 'chess'",)),
    ("negative stake", lambda s: s.challenge(FREE, WHITE, BLACK, stake=-5), ("stake",)),
    ("huge stake", lambda s: s.challenge(FREE, WHITE, BLACK, stake=10**30), ("stake",)),
    ("negative match length", lambda s: s.challenge(FREE, WHITE, BLACK, length=-1),
     ("1 to 25 points",)),
    ("match to 26", lambda s: s.challenge(FREE, WHITE, BLACK, length=26), ("1 to 25 points",)),
    ("match to 10**30", lambda s: s.challenge(FREE, WHITE, BLACK, length=10**30),
     ("1 to 25 points",)),
    ("length and stake", lambda s: s.challenge(FREE, WHITE, BLACK, length=3, stake=2),
     ("not both",)),
    ("leaderboard order", lambda s: s.leaderboard(PLACE, WHITE, order="'; DROP TABLE x"),
     ("rank by rating, money or wins",)),
]


@pytest.mark.parametrize(("call", "reason"), [(c, r) for _, c, r in CASES],
                         ids=[name for name, _, _ in CASES])
async def test_refused_with_a_reason_and_nothing_changes(host: Host, call: Call,
                                                         reason: tuple[str, ...]) -> None:
    before = await everything(host.storage)
    reply = await call(host.service)
    assert not reply.ok and reply.ephemeral
    text = reply.text.lower()
    assert all(word.lower() in text for word in reason), reply.text
    assert len(reply.text) < 600  # the reason never echoes a huge input whole
    assert await everything(host.storage) == before
    assert (await host.service.move(PLACE, WHITE, "8/5 6/5")).ok  # and the game goes on


def _junk(rng: random.Random) -> str:
    pieces = ["13/7", "8/5", "6/5", "24/21", "bar/22", "6/off", "*", "(2)", "(", ")", "/", " ",
              "-", "0", "25", "26", "99", "b", "o", "é", "\x00", "\u202e", "😀", "\n", "\t",
              "１", "٣", "½"]
    return "".join(rng.choice(pieces) for _ in range(rng.randint(0, 12)))


async def test_random_junk_from_anyone_never_raises_or_corrupts(host: Host) -> None:
    """Junk moves, choices and resignations from both players and a spectator."""
    rng = random.Random(1234)
    service = host.service
    refused = 0
    for _ in range(250):
        actor = rng.choice((WHITE, BLACK, SPECTATOR))
        text = _junk(rng)
        before = await everything(host.storage)
        what = rng.random()
        if what < 0.1:
            assert isinstance(await service.suggestions(PLACE, actor, text), list)
            assert await everything(host.storage) == before
            continue
        if what < 0.85:
            reply = await service.move(PLACE, actor, text)
        else:
            reply = await service.choose(PLACE, actor, text)
        if reply.ok:  # a junk string may still name a legal play or a draft of one
            assert actor is WHITE, (text, reply.text)
            await service.undo(PLACE, WHITE)
            continue
        refused += 1
        assert reply.ephemeral and reply.text.strip(), text
        assert await everything(host.storage) == before, text
    assert refused > 150
    problems, _ = await driver.audit(host.storage, seeded=False)
    assert problems == []


@pytest.mark.parametrize("call", [
    lambda s: s.verify(PLACE, WHITE, game_id=2**63),
    lambda s: s.leaderboard(PLACE, WHITE, page=2**63),
], ids=["verify game id 2**63", "leaderboard page 2**63"])
async def test_out_of_range_numbers_are_refused(host: Host, call: Call) -> None:
    reply = await call(host.service)
    assert not reply.ok and reply.ephemeral


@pytest.mark.parametrize("call", [
    lambda s: s.challenge(FREE, WHITE, BLACK, variant="v" * 10_000),
    lambda s: s.challenge(FREE, WHITE, BLACK, rules={"o" * 10_000: 1}),
    lambda s: s.challenge(FREE, WHITE, BLACK, rules={"max_cube": "9" * 10_000}),
], ids=["variant", "rule option name", "rule option value"])
async def test_refusals_of_huge_challenge_terms_are_short(host: Host, call: Call) -> None:
    before = await everything(host.storage)
    reply = await call(host.service)
    assert not reply.ok and reply.ephemeral
    assert await everything(host.storage) == before
    assert len(reply.text) <= 2000

"""Issue 16 item 1 (and 2): money can't overflow the ledger or its sums.

The bounds are README "Money and limits" (bot/service/core/money.py): a money game settles
at most ``MAX_GAME_AMOUNT`` per player, so money play has a highest cube; a player's
ledger turnover in a server stays within ``MAX_TURNOVER`` when a game starts.  The cube
rules are 002 'DOUBLING' and 002 'OPTIONAL RULES' (beavers).
"""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scripted import Script, opened

from bot.config import Config
from bot.service.core import money
from bot.service.core.limits import MAX_STAKE
from bot.service.core.replies import Reply
from bot.service.core.values import Actor, Place
from bot.service.game import GameService
from bot.storage.interface import LedgerEntry
from bot.storage.sqlite import SqliteStorage
from engine.game import Phase
from engine.player import Player
from engine.rules import RuleOptions

ALICE = Actor(1, "alice")
BOB = Actor(2, "bob")
CAROL = Actor(3, "carol")
HERE = Place(guild_id=7, channel_id=70)
ORDERS = ("rating", "money", "wins")


async def service_on(path: Path) -> GameService:
    storage = await opened(path)
    return GameService(storage, Config(), dice=Script(then="3a14f59c62d8b07e"))


def player_actor(player: Player) -> Actor:
    return ALICE if player is Player.WHITE else BOB


async def cube_war(service: GameService, turns: int, *, beaver: bool = True,
                   choices: list[bool] | None = None,
                   said: list[str] | None = None) -> list[str]:
    """Double (and beaver, and take) at every chance for ``turns`` decisions; play the
    first legal play otherwise.  ``choices`` (cycled) says whether to double.  Returns
    the refusals of doubles and beavers."""
    refused: list[str] = []
    for i in range(turns):
        loaded = await service.runner.look(HERE)
        game = loaded.game
        assert game is not None
        if game.awaiting is None:
            break
        who = player_actor(game.awaiting)
        want = True if not choices else choices[i % len(choices)]
        reply: Reply
        if game.phase is Phase.ROLL:
            reply = await service.double(HERE, who) if want else Reply(ok=False, text="")
            if not reply.ok:
                if reply.text:
                    refused.append(reply.text)
                reply = await service.roll(HERE, who)
        elif game.phase is Phase.DOUBLED:
            offer = game.cube.offer
            assert offer is not None
            reply = Reply(ok=False, text="")
            if beaver and want and not offer.beaver:
                reply = await service.beaver(HERE, who)
                if not reply.ok:
                    refused.append(reply.text)
            if not reply.ok:
                reply = await service.take(HERE, who)
        elif game.phase is Phase.PLAY:
            plays = await service.suggestions(HERE, who, "")
            reply = await service.move(HERE, who, plays[0])
        else:
            raise AssertionError(game.phase)
        assert reply.ok, reply.text
        if said is not None:
            said.append(reply.text)
    return refused


async def readable(service: GameService) -> None:
    for order in ORDERS:
        board = await service.leaderboard(HERE, ALICE, order)
        assert board.ok, board.text
    for who in (ALICE, BOB):
        stats = await service.stats(HERE, who)
        assert stats.ok, stats.text


async def ledger(service: GameService) -> list[tuple[int, int]]:
    storage = service.storage
    assert isinstance(storage, SqliteStorage)
    async with storage.db.execute("SELECT points, amount FROM ledger ORDER BY id") as cur:
        return [(int(p), int(a)) for p, a in await cur.fetchall()]


@pytest.mark.parametrize(("stake", "rules", "cap"), [
    (MAX_STAKE, {}, 2**18),  # the attack: 1,000,000 a point, by games
    (10_000, {"scoring": "checkers-2"}, 2**17),  # the last beaver would pass the cap
])
async def test_the_cube_stops_at_the_money_bound_and_the_game_ends(
        tmp_path: Path, stake: int, rules: dict[str, str], cap: int) -> None:
    # Beavers on, double-beaver-take at every chance (002 'OPTIONAL RULES').  Before
    # the bound the cube passed 2**63 / stake and no ending could be written.
    service = await service_on(tmp_path / "m.sqlite3")
    made = await service.challenge(HERE, ALICE, BOB, stake=stake,
                                   rules={"beavers": "on", **rules})
    assert made.ok, made.text
    assert money.cube_cap(stake, RuleOptions.from_dict({"beavers": "on", **rules})) == cap
    assert f"(up to {cap:,})" in made.text  # the challenge states the cap in its rules line
    assert (await service.accept(HERE, BOB)).ok
    war: list[str] = []
    refused = await cube_war(service, 120, said=war)
    bound = [r for r in refused if "The cube can't go to" in r]
    if cap == 2**17:  # an offer at the cap: its beaver is refused, saying why
        assert bound and all(f"stops at {cap}" in r for r in bound), refused
        assert "no game settles more than 1,099,511,627,776 per player" in bound[0]
    assert f"doubles to {cap}" in "".join(war) or f"the cube goes to {cap}" in "".join(war)
    loaded = await service.runner.look(HERE)
    assert loaded.game is not None
    cube = loaded.game.cube.value
    assert cube <= cap
    ended = await service.forfeit(HERE, ALICE)
    assert ended.ok, ended.text
    rows = await ledger(service)
    (won, amount), (lost, paid) = rows[-2:]  # the forfeit, at the cube (and checkers)
    assert won % cube == 0 and amount == won * stake and (lost, paid) == (-won, -amount)
    assert all(abs(a) <= money.MAX_GAME_AMOUNT for _, a in rows)
    await readable(service)


async def test_a_player_at_the_turnover_bound_starts_no_money_game(tmp_path: Path) -> None:
    service = await service_on(tmp_path / "t.sqlite3")
    near = money.MAX_TURNOVER - money.MAX_GAME_AMOUNT + 2  # just past the room for a game
    async with service.storage.transaction() as tx:
        for user in (ALICE, BOB, CAROL):
            await tx.upsert_user(user.id, user.name)
        # Three wins just under the old 2**63 overflow would have broken SUM; here
        # bob's rows pass the room for one more game, and the totals read.
        await tx.add_ledger([LedgerEntry(HERE.guild_id, BOB.id, 1, near // 2, None, None),
                             LedgerEntry(HERE.guild_id, CAROL.id, -1, -(near // 2), None, None),
                             LedgerEntry(HERE.guild_id, BOB.id, 1, near // 2, None, None),
                             LedgerEntry(HERE.guild_id, CAROL.id, -1, -(near // 2), None, None)])
    await readable(service)
    assert (await service.challenge(HERE, ALICE, BOB, stake=5)).ok
    refused = await service.accept(HERE, BOB)
    assert not refused.ok and refused.ephemeral
    assert "bob reached this server's money limit" in refused.text
    assert "a match (length) is still open" in refused.text
    # A match is still allowed.
    assert (await service.cancel(HERE, ALICE)).ok
    assert (await service.challenge(HERE, ALICE, BOB, length=1)).ok
    assert (await service.accept(HERE, BOB)).ok


async def test_a_session_ends_when_a_player_reaches_the_turnover_bound(tmp_path: Path) -> None:
    service = await service_on(tmp_path / "s.sqlite3")
    assert (await service.challenge(HERE, ALICE, BOB, stake=1)).ok
    assert (await service.accept(HERE, BOB)).ok
    near = money.MAX_TURNOVER - money.MAX_GAME_AMOUNT + 2  # just past the room for a game
    async with service.storage.transaction() as tx:  # another table's money, meanwhile
        await tx.upsert_user(CAROL.id, CAROL.name)
        await tx.add_ledger([LedgerEntry(HERE.guild_id, ALICE.id, 1, near, None, None),
                             LedgerEntry(HERE.guild_id, CAROL.id, -1, -near, None, None)])
    ended = await service.forfeit(HERE, BOB)  # the game ends whatever the bound
    assert ended.ok, ended.text
    await readable(service)
    assert (await service.challenge(HERE, ALICE, BOB, stake=1)).ok
    assert (await service.accept(HERE, BOB)).ok is False


async def test_chouette_stake_is_checked_in_the_service(tmp_path: Path) -> None:
    # Item 2: /chouette open took any stake >= 0 (10**30 broke /chouette start).
    service = await service_on(tmp_path / "c.sqlite3")
    for stake in (10**30, 2**62, MAX_STAKE + 1, -1):
        refused = await service.chouette.open(HERE, ALICE, stake=stake)
        assert not refused.ok and refused.ephemeral, stake
        assert f"The stake is a whole number from 0 to {MAX_STAKE}" in refused.text
    async with service.storage.snapshot() as tx:
        assert await tx.open_chouette_in_channel(HERE.channel_id) is None
    opened_ = await service.chouette.open(HERE, ALICE, stake=MAX_STAKE)
    assert opened_.ok, opened_.text
    cap = money.cube_cap(MAX_STAKE, RuleOptions(), 6)
    assert f"up to {cap:,}" in opened_.text
    for who in (BOB, CAROL):
        assert (await service.chouette.join(HERE, who)).ok
    started = await service.chouette.start(HERE, ALICE)
    assert started.ok, started.text


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(stake=st.one_of(st.just(MAX_STAKE), st.integers(0, MAX_STAKE)),
       beavers=st.booleans(),
       scoring=st.sampled_from(["games", "checkers-2", "combined-checkers-2"]),
       backgammon_value=st.sampled_from([3, 4]),
       choices=st.lists(st.booleans(), min_size=1, max_size=8),
       ending=st.sampled_from(["drop", "resign", "forfeit"]))
def test_random_cube_and_stake_sequences_always_end_and_read(
        stake: int, beavers: bool, scoring: str, backgammon_value: int, choices: list[bool],
        ending: str) -> None:
    """Property: whatever the stake (up to the limit) and the cube decisions, the game
    ends (drop, accepted resignation or forfeit) and /leaderboard and /stats answer."""
    async def run(path: Path) -> None:
        service = await service_on(path)
        made = await service.challenge(HERE, ALICE, BOB, stake=stake, rules={
            "beavers": "on" if beavers else "off", "scoring": scoring,
            "backgammon_value": str(backgammon_value)})
        assert made.ok, made.text
        assert (await service.accept(HERE, BOB)).ok
        for _ in range(3):
            await cube_war(service, 60, beaver=beavers, choices=[True, *choices])
            loaded = await service.runner.look(HERE)
            game = loaded.game
            assert game is not None
            who = player_actor(game.awaiting or Player.WHITE)
            if ending == "drop" and game.phase is Phase.DOUBLED:
                reply = await service.drop(HERE, who)
            elif ending == "resign" and game.phase in (Phase.ROLL, Phase.PLAY):
                reply = await service.resign(HERE, who, "backgammon")
                assert reply.ok, reply.text
                reply = await service.answer_resignation(
                    HERE, player_actor((game.awaiting or Player.WHITE).other), True)
            else:
                reply = await service.forfeit(HERE, who)
            assert reply.ok, reply.text
            await readable(service)
            if reply.text.count("The money session is over"):
                assert (await service.challenge(HERE, ALICE, BOB, stake=stake)).ok
                assert (await service.accept(HERE, BOB)).ok
        rows = await ledger(service)
        assert all(abs(a) <= money.MAX_GAME_AMOUNT and abs(p) <= money.MAX_GAME_AMOUNT
                   for p, a in rows)
        await service.storage.close()

    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(run(Path(tmp) / "p.sqlite3"))

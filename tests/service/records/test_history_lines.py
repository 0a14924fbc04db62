"""Issue 42 item 6: /history lines.  A beaver shows the cube after the beaver; a money
game's header counts the points so far net, as the session line does; a throw is
written higher die first (61, 64), as GNU Backgammon and the books write it."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from scripted import Script, opened

from bot.config import Config
from bot.service.core.replies import Reply
from bot.service.core.values import Actor, Place
from bot.service.game import GameService

ALICE = Actor(1, "alice")
BOB = Actor(2, "bob")
CAROL = Actor(3, "carol")
HERE = Place(guild_id=7, channel_id=70)


def ok(reply: Reply) -> Reply:
    assert reply.ok, reply.text
    return reply


async def scripted(tmp_path: Path, dice: Iterable[int]) -> GameService:
    storage = await opened(tmp_path / "bg.sqlite3")
    return GameService(storage, Config(), dice=Script(dice))  # type: ignore[arg-type]


async def test_dice_higher_first_and_the_cube_after_a_beaver(tmp_path: Path) -> None:
    # Opening 3-1 to alice; bob throws 1-6 (written 61); alice doubles, bob beavers:
    # the cube is 4.
    service = await scripted(tmp_path, [3, 1, 1, 6, 4, 6])
    ok(await service.challenge(HERE, ALICE, BOB, stake=1, rules={"beavers": True}))
    ok(await service.accept(HERE, BOB))
    ok(await service.move(HERE, ALICE, "8/5 6/5"))
    ok(await service.roll(HERE, BOB))
    ok(await service.move(HERE, BOB, "24/18 24/23"))
    ok(await service.double(HERE, ALICE))
    ok(await service.beaver(HERE, BOB))
    lines = ok(await service.history(HERE, CAROL)).text.splitlines()
    assert "  bob 61: 24/23 24/18" in lines, lines
    assert not any(line.startswith("  bob 16") for line in lines)
    assert "  bob beavers (cube 4)" in lines, lines


async def test_a_rolled_throw_waiting_for_its_play_is_written_higher_first(
        tmp_path: Path) -> None:
    service = await scripted(tmp_path, [3, 1, 4, 6])
    ok(await service.challenge(HERE, ALICE, BOB, length=3))
    ok(await service.accept(HERE, BOB))
    ok(await service.move(HERE, ALICE, "8/5 6/5"))
    ok(await service.roll(HERE, BOB))
    lines = ok(await service.history(HERE, CAROL)).text.splitlines()
    assert "  bob 64" in lines and "  bob 46" not in lines, lines


async def test_money_headers_count_net_points_as_the_session_line(tmp_path: Path) -> None:
    # Game 1: alice wins 1 point (bob resigns); game 2: bob wins 1; game 3 header: net 0.
    service = await scripted(tmp_path, [3, 1, 1, 3, 3, 1])
    ok(await service.challenge(HERE, ALICE, BOB, stake=1))
    ok(await service.accept(HERE, BOB))
    ok(await service.resign(HERE, BOB, "single"))
    ok(await service.answer_resignation(HERE, ALICE, True))  # alice +1
    ok(await service.move(HERE, BOB, "8/5 6/5"))  # game 2: bob opened 3-1
    ok(await service.resign(HERE, ALICE, "gammon"))
    ended = ok(await service.answer_resignation(HERE, BOB, True))  # bob +2
    assert "alice -1, bob +1 point (" in ended.text, ended.text
    text = ok(await service.history(HERE, CAROL)).text
    game3 = next(line for line in text.splitlines() if line.startswith("Game 3:"))
    assert game3.endswith("points so far alice -1, bob +1:"), game3


async def test_a_chouette_history_has_each_partner_s_own_drop_and_the_settlement(
        tmp_path: Path) -> None:
    dave = Actor(4, "dave")
    service = await scripted(tmp_path, [6, 5, 4, 3, 1, 3, 5, 4, 6, 1])
    table = service.chouette
    ok(await table.open(HERE, ALICE))
    for player in (BOB, CAROL, dave):
        ok(await table.join(HERE, player))
    ok(await table.start(HERE, ALICE))  # alice in the box, bob captain, carol and dave
    ok(await service.move(HERE, BOB, "8/5 6/5"))
    ok(await service.double(HERE, ALICE))
    ok(await service.drop(HERE, CAROL))  # carol's own answer: she retires at 1 point
    ok(await service.take(HERE, BOB))
    ok(await service.resign(HERE, BOB, "single"))
    ok(await service.answer_resignation(HERE, ALICE, True))
    lines = ok(await service.history(HERE, CAROL, 1)).text.splitlines()
    assert ("  carol dropped (a partner's own answer) and retired from the game at -1"
            in lines), lines
    assert lines[-1] == "  settlement: alice +6, bob -3, carol -1, dave -2", lines

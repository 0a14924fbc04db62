"""Issue 42 item 2: an answer at the wrong time says what is pending and who must answer
it (``/answer accept`` with no resignation offered, ``/steps`` while a double waits)."""

from __future__ import annotations

from pathlib import Path

from scripted import Script, opened

from bot.config import Config
from bot.service.core.replies import Action
from bot.service.core.values import Actor, Place
from bot.service.game import GameService

ALICE = Actor(1, "alice")
BOB = Actor(2, "bob")
HERE = Place(guild_id=7, channel_id=70)


async def money(tmp_path: Path, **terms: object) -> GameService:
    storage = await opened(tmp_path / "bg.sqlite3")
    service = GameService(storage, Config(), dice=Script([2, 1, 6, 4]))  # type: ignore[arg-type]
    assert (await service.challenge(HERE, ALICE, BOB, stake=1, rules=terms)).ok
    assert (await service.accept(HERE, BOB)).ok  # alice to play 2-1
    return service


async def test_answering_a_resignation_nobody_offered(tmp_path: Path) -> None:
    service = await money(tmp_path)
    refused = await service.answer_resignation(HERE, BOB, True)
    assert not refused.ok and refused.ephemeral
    assert refused.text == "There is no resignation to answer: alice must play.", refused.text
    assert (await service.move(HERE, ALICE, "13/11 6/5")).ok
    assert (await service.double(HERE, BOB)).ok
    refused = await service.act(Action.ACCEPT_RESIGNATION, HERE, ALICE)
    assert refused.text == ("There is no resignation to answer: bob doubled to 2, and alice "
                            "must take or drop it."), refused.text


async def test_answering_ones_own_resignation(tmp_path: Path) -> None:
    service = await money(tmp_path)
    assert (await service.move(HERE, ALICE, "13/11 6/5")).ok
    assert (await service.act(Action.RESIGN, HERE, BOB, option="gammon")).ok
    refused = await service.answer_resignation(HERE, BOB, True)
    assert not refused.ok
    assert refused.text.startswith("It's not your turn: bob offers to resign a gammon, and "
                                   "alice must accept or reject it"), refused.text


async def test_steps_while_a_double_waits(tmp_path: Path) -> None:
    service = await money(tmp_path, beavers=True)
    assert (await service.move(HERE, ALICE, "13/11 6/5")).ok
    assert (await service.double(HERE, BOB)).ok
    refused = await service.act(Action.STEPS, HERE, ALICE)
    assert not refused.ok
    assert refused.text == ("There is nothing to play now: bob doubled to 2, and alice must "
                            "take, drop or beaver it."), refused.text
    refused = await service.roll(HERE, BOB)
    assert refused.text == ("It's not your turn: bob doubled to 2, and alice must take, "
                            "drop or beaver it."), refused.text

"""Issue 42 item 1: ``/step`` takes a step as ``/steps`` prints it (``13 → 11``, ``13→11``,
and ASCII ``13->11``), and tells notation it cannot read ("not understood", with what it
accepts) from a readable step that is not one the player can take now."""

from __future__ import annotations

from pathlib import Path

import pytest
from scripted import Script, opened

from bot.config import Config
from bot.service.core.replies import Action, Reply
from bot.service.core.values import Actor, Place
from bot.service.game import GameService

ALICE = Actor(1, "alice")
BOB = Actor(2, "bob")
HERE = Place(guild_id=7, channel_id=70)


async def opened_at_2_1(tmp_path: Path) -> GameService:
    storage = await opened(tmp_path / "bg.sqlite3")
    service = GameService(storage, Config(), dice=Script([2, 1]))  # type: ignore[arg-type]
    assert (await service.challenge(HERE, ALICE, BOB, length=3)).ok
    assert (await service.accept(HERE, BOB)).ok  # alice to play 2-1
    return service


async def step(service: GameService, option: str) -> Reply:
    return await service.act(Action.STEP, HERE, ALICE, option=option)


@pytest.mark.parametrize("typed", ["13→11", "13 → 11", "13->11", "13 -> 11", " 13→11* "])
async def test_a_step_typed_as_steps_prints_it(tmp_path: Path, typed: str) -> None:
    service = await opened_at_2_1(tmp_path)
    listed = await service.act(Action.STEPS, HERE, ALICE)
    assert listed.builder is not None
    assert "13 → 11" in [o.label for m in listed.builder.menus for o in m.options]
    taken = await step(service, typed)
    assert taken.ok, taken.text
    assert "alice has played 13/11 so far." in taken.text


async def test_a_whole_play_typed_as_steps_prints_it(tmp_path: Path) -> None:
    service = await opened_at_2_1(tmp_path)
    made = await step(service, "13 → 11, 6 → 5")
    assert made.ok and "alice plays 13/11 6/5" in made.text, made.text


@pytest.mark.parametrize("typed", ["zz", "²", "13 → ", "hello world", "13=>>11"])
async def test_unreadable_notation_is_not_understood(tmp_path: Path, typed: str) -> None:
    service = await opened_at_2_1(tmp_path)
    refused = await step(service, typed)
    assert not refused.ok and refused.ephemeral
    assert "is not understood" in refused.text, refused.text
    assert "not a step you can take" not in refused.text
    assert "13 → 11" in refused.text and "13->11" in refused.text and "/step 2" in refused.text


@pytest.mark.parametrize("typed", ["13/8", "13 → 8", "13->8", "24/20 24/21"])
async def test_a_readable_step_that_cannot_be_taken_says_so(tmp_path: Path, typed: str) -> None:
    service = await opened_at_2_1(tmp_path)
    refused = await step(service, typed)
    assert not refused.ok
    assert "is not a step you can take now" in refused.text, refused.text
    assert "not understood" not in refused.text

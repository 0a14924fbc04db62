"""``/accept`` or ``/decline`` typed where a double or a resignation waits for its
answer: the refusal says what the game waits for and how to answer it (before, only
"there is no challenge waiting"; DEVELOPERS.md: every refusal says what is allowed
instead)."""

from __future__ import annotations

from pathlib import Path

from scripted import Script, opened

from bot.config import Config
from bot.service.core.values import Actor, Place
from bot.service.game import GameService

ALICE = Actor(1, "alice")
BOB = Actor(2, "bob")
HERE = Place(guild_id=7, channel_id=70)


async def started(tmp_path: Path, **terms: object) -> GameService:
    # alice wins the opening with 3-1 and plays it.
    service = GameService(await opened(tmp_path / "bg.sqlite3"), Config(),
                          dice=Script([3, 1], then="3f1a9c52e7b4d086"))
    assert (await service.challenge(HERE, ALICE, BOB, **terms)).ok  # type: ignore[arg-type]
    assert (await service.accept(HERE, BOB)).ok
    assert (await service.move(HERE, ALICE, "8/5 6/5")).ok
    return service


async def test_accept_typed_for_a_double_names_take_and_drop(tmp_path: Path) -> None:
    service = await started(tmp_path, stake=1, rules={"beavers": "on"})
    assert (await service.double(HERE, BOB)).ok
    for typed in (service.accept(HERE, ALICE), service.decline(HERE, ALICE)):
        reply = await typed
        assert not reply.ok and reply.ephemeral
        assert reply.text.endswith("bob doubled to 2: alice answers with /take or /drop "
                                   "(or /beaver)."), reply.text
    assert (await service.take(HERE, ALICE)).ok  # nothing changed: the answer still waits


async def test_accept_typed_for_a_resignation_points_to_its_buttons(tmp_path: Path) -> None:
    service = await started(tmp_path, length=3)
    assert (await service.resign(HERE, ALICE, "gammon")).ok
    reply = await service.accept(HERE, BOB)
    assert not reply.ok and reply.ephemeral
    assert ("alice offers to resign a gammon: bob answers with the Accept resignation or "
            "Reject resignation button") in reply.text
    board = await service.board(HERE, BOB)
    assert {b.label for b in board.buttons} >= {"Accept resignation", "Reject resignation"}


async def test_accept_typed_during_play_says_only_that_the_game_is_on(tmp_path: Path) -> None:
    service = await started(tmp_path, length=3)
    reply = await service.accept(HERE, BOB)
    assert not reply.ok and reply.text == ("The game here is already under way: there is no "
                                           "challenge waiting to answer or cancel.")

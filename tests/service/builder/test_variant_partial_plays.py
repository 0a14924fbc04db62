"""A play typed in parts with ``/move`` in every variant (issue 43 item 6), as in standard
backgammon: each part is read as the move builder's steps, so typing and tapping mix.

The README says a play may be entered in parts and finished later; the rules of each
variant's moves are the engine's (/work/shared/rules/000 'ACEY-DEUCY' and 'RUSSIAN
BACKGAMMON', 003 ch.10 (Russian) and ch.12 (acey-deucey), 004 (French)): only the reading
of what was typed is tested here.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from scripted import Script, opened

from bot.config import Config
from bot.service.core.replies import Action, Reply
from bot.service.core.values import Actor, Place
from bot.service.game import GameService

ALICE = Actor(1, "alice")
BOB = Actor(2, "bob")
CAROL = Actor(3, "carol")
HERE = Place(guild_id=7, channel_id=70)


def word(label: str) -> str:
    """A builder step's label ("in → 20", "8 → 5*") as typed move notation."""
    return label.replace(" → ", "/")


async def play_in_parts(service: GameService, rng: random.Random, turns: int) -> dict[str, int]:
    """Play ``turns`` turns of the match: every play entered one step at a time, each step
    typed with /move or (now and then) tapped with /step, every choice from its buttons."""
    seen = {"typed parts": 0, "plays": 0, "tapped": 0}
    for _ in range(turns * 8):
        if seen["plays"] >= turns:
            return seen
        look = await service.board(HERE, CAROL)
        if any(b.action is Action.REMATCH for b in look.buttons) or not look.boards:
            return seen
        acts = {b.action: b for b in look.buttons}
        choices = [b for b in look.buttons if b.action is Action.CHOOSE]
        if choices:
            pick = choices[0]
            actor = ALICE if pick.users == (ALICE.id,) else BOB
            assert (await service.choose(HERE, actor, pick.option)).ok
            continue
        if Action.STEPS not in acts:
            roll = acts[Action.ROLL]
            actor = ALICE if roll.users == (ALICE.id,) else BOB
            assert (await service.roll(HERE, actor)).ok
            continue
        actor = ALICE if acts[Action.STEPS].users == (ALICE.id,) else BOB
        while True:  # one step at a time until the play is made
            view = await service.act(Action.STEPS, HERE, actor)
            assert view.ok and view.builder is not None, view.text
            if view.builder.buttons and view.builder.buttons[0].action is Action.CHOOSE:
                break  # a choice inside the turn: the board's buttons answer it
            steps = [o for m in view.builder.menus if m.title.startswith("Play")
                     for o in m.options]
            assert steps, view.builder.text
            pick = rng.choice(steps)
            if rng.random() < 0.2:
                reply: Reply = await service.act(Action.STEP, HERE, actor, option=str(pick.number))
                seen["tapped"] += 1
            else:
                reply = await service.move(HERE, actor, word(pick.label))
            assert reply.ok, (word(pick.label), reply.text)
            if "so far" in reply.text:
                seen["typed parts"] += "/steps lists" in reply.text or not reply.ephemeral
                continue
            assert " plays " in reply.text, reply.text
            seen["plays"] += 1
            break
    return seen


@pytest.mark.parametrize("variant", ["acey-deucey", "acey-deucey-1930", "russian", "french"])
async def test_a_play_typed_in_parts_in_every_variant(tmp_path: Path, variant: str) -> None:
    storage = await opened(tmp_path / "bg.sqlite3")
    service = GameService(storage, Config(),
                          dice=Script(then="0123456789abcdef02468ace13579bdf"))  # type: ignore[arg-type]
    assert (await service.challenge(HERE, ALICE, BOB, variant=variant)).ok  # type: ignore[arg-type]
    assert (await service.accept(HERE, BOB)).ok
    seen = await play_in_parts(service, random.Random(43), turns=12)
    assert seen["plays"] >= 6 and seen["typed parts"] >= 3 and seen["tapped"], seen


async def test_a_variant_play_typed_in_parts_is_the_builders_draft(tmp_path: Path) -> None:
    # 000 'SETTING UP THE MEN': in acey-deucy men may move as soon as one is entered; alice's
    # 6-5 wins the opening throw and she plays it.
    storage = await opened(tmp_path / "bg.sqlite3")
    service = GameService(storage, Config(), dice=Script([6, 5, 5, 3, 6, 1]))  # type: ignore[arg-type]
    assert (await service.challenge(HERE, ALICE, BOB, variant="acey-deucey")).ok  # type: ignore[arg-type]
    assert (await service.accept(HERE, BOB)).ok
    assert (await service.choose(HERE, ALICE, "play")).ok
    part = await service.move(HERE, ALICE, "in/20")
    assert part.ok and "alice has played in/20 so far" in part.text, part.text
    view = await service.act(Action.STEPS, HERE, ALICE)
    assert view.builder is not None and "So far: in → 20." in view.builder.text
    done = await service.move(HERE, ALICE, "20/14")  # typed again: the 6 from the same man
    assert done.ok and "alice plays in/14." in done.text, done.text
    # an unreadable or impossible part is still refused, saying what is legal
    assert (await service.roll(HERE, BOB)).ok
    refused = await service.move(HERE, BOB, "in/2")
    assert not refused.ok and "Legal plays include" in refused.text, refused.text

"""What the board says while something waits (issue 30, items 2, 4 and 5): an offer to
resign, a doublet named after acey-deucy or the reverse side of a doublet, a beaver.
The text board and the PNG (read back as pixels) both come from the service's view.

Rules: 002 'OPTIONAL RULES' (Beavers); 000 'THE GAME OF ACEY-DEUCY' ('ACEY-DEUCY' 2:
the doublet named after the 1 and 2); 003 ch.12 (1930 rules: "the play for the double on
the reverse side of the dice").
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

from scripted import Script, opened

from bot.config import Config
from bot.service.core.replies import Reply
from bot.service.core.values import Actor, Place
from bot.service.game import GameService
from engine.player import Player
from render.ascii import text_board
from render.layout import build
from render.png import render_image
from render.view import BoardView, ResultKind

ALICE = Actor(1, "alice")
BOB = Actor(2, "bob")
HERE = Place(guild_id=7, channel_id=70)


async def make(tmp_path: Path, dice: Iterable[int]) -> GameService:
    storage = await opened(tmp_path / "bg.sqlite3")
    return GameService(storage, Config(), dice=Script(dice))  # type: ignore[arg-type]


def ok(reply: Reply) -> Reply:
    assert reply.ok, reply.text
    return reply


async def view_of(service: GameService) -> BoardView:
    return ok(await service.board(HERE, ALICE)).boards[-1].view


def differs(a: BoardView, b: BoardView, box: tuple[int, int, int, int]) -> bool:
    return render_image(a).crop(box).tobytes() != render_image(b).crop(box).tobytes()


async def test_a_pending_resignation_is_drawn_with_the_mover_s_dice(tmp_path: Path) -> None:
    """Item 2: bob rolls 6-5 and offers to resign: his dice stay on the board and the
    offer is drawn, as a pending double is."""
    service = await make(tmp_path, [3, 1, 6, 5])
    ok(await service.challenge(HERE, ALICE, BOB, length=3))
    ok(await service.accept(HERE, BOB))
    ok(await service.move(HERE, ALICE, "8/5 6/5"))
    ok(await service.roll(HERE, BOB))
    ok(await service.resign(HERE, BOB, "single"))
    view = await view_of(service)
    text = text_board(view)
    assert "Dice: bob rolled 6-5" in text
    assert "bob offers to resign a single game \u2014 alice to accept or reject" in text
    assert "on roll" not in text
    assert view.dice == (6, 5) and view.turn is Player.BLACK
    assert view.resignation is not None and view.resignation.kind is ResultKind.SINGLE
    assert view.status(Player.BLACK) == "offers to resign"
    assert view.status(Player.WHITE) == "to accept or reject"
    # The picture: bob's dice are drawn, and the offer in the other half of the board.
    lay = build(view)
    assert [d.value for d in lay.dice] == [6, 5]
    fr = lay.frame
    dice_right = lay.dice[0].rect[0] >= fr.field_right[0]
    other_half = fr.field_left if dice_right else fr.field_right
    band = (other_half[0], fr.mid_y - round(fr.unit * 0.5), other_half[2],
            fr.mid_y + round(fr.unit * 0.5))
    assert differs(view, replace(view, resignation=None), band)
    # Answered: the board is the game's again.
    ok(await service.answer_resignation(HERE, ALICE, False))
    after = await view_of(service)
    assert after.resignation is None and after.dice == (6, 5)


async def test_the_named_doublet_and_the_played_acey_deucy(tmp_path: Path) -> None:
    """Item 4 (000 'ACEY-DEUCY'): while bob names his doublet, the 1 and 2 he played are
    greyed; then the board says he named 6-6 (after 1-2), not that he rolled it."""
    service = await make(tmp_path, [3, 1, 1, 2, 1, 2])
    ok(await service.challenge(HERE, ALICE, BOB, length=3, variant="acey-deucey"))
    ok(await service.accept(HERE, BOB))
    ok(await service.choose(HERE, ALICE, "play"))
    ok(await service.move(HERE, ALICE, "in/22 in/24"))
    played = ok(await service.roll(HERE, BOB))
    assert "bob plays in/24 in/23 (forced)" in played.text
    choosing = await view_of(service)
    assert choosing.dice == (1, 2) and choosing.dice_used == (True, True)
    assert "(used: 1, 2)" in text_board(choosing)
    assert all(d.used for d in build(choosing).dice)
    ok(await service.choose(HERE, BOB, "6"))
    view = await view_of(service)
    assert "Dice: bob named 6-6 (after 1-2)" in text_board(view)
    assert "rolled 6-6" not in text_board(view)
    assert view.dice == (6, 6) and view.dice_stage == "named" and view.thrown == (1, 2)
    lay = build(view)
    below = (min(d.rect[0] for d in lay.dice), lay.dice[0].rect[3],
             max(d.rect[2] for d in lay.dice), lay.dice[0].rect[3] + round(lay.frame.unit / 2))
    assert differs(view, replace(view, dice_stage=""), below)  # "named" under the dice


async def test_the_reverse_side_is_said_as_such(tmp_path: Path) -> None:
    """Item 4 (003 ch.12, the 1930 rules: doublets play both sides): after her 5-5 alice
    plays the reverse side 2-2, and the board says so."""
    service = await make(tmp_path, [5, 5, 1, 2, 5, 5])
    ok(await service.challenge(HERE, ALICE, BOB, length=3, variant="acey-deucey-1930"))
    ok(await service.accept(HERE, BOB))
    ok(await service.move(HERE, ALICE, "in/20(4)"))
    view = await view_of(service)
    assert "Dice: alice plays the reverse side 2-2 (of 5-5)" in text_board(view)
    assert view.dice == (2, 2) and view.dice_stage == "reverse side" and view.thrown == (5, 5)


async def test_a_beaver_is_shown_as_a_beaver_and_counted_on_the_card(tmp_path: Path) -> None:
    """Item 5 (002 'OPTIONAL RULES', Beavers: "he may immediately redouble (beaver) while
    retaining possession of the cube"): the board says alice beavers to 4 and bob is to
    take or drop; the player card counts the beaver."""
    service = await make(tmp_path, [3, 1, 6, 6])
    ok(await service.challenge(HERE, ALICE, BOB, stake=1, rules={"beavers": "on"}))
    ok(await service.accept(HERE, BOB))
    ok(await service.move(HERE, ALICE, "8/5 6/5"))
    ok(await service.double(HERE, BOB))
    ok(await service.beaver(HERE, ALICE))
    view = await view_of(service)
    text = text_board(view)
    assert "alice beavers to 4; bob to take or drop" in text
    assert "doubles" not in text
    assert view.cube is not None and view.cube.beaver and view.cube.shown_value == 4
    assert view.status(Player.WHITE) == "beavers"
    lay = build(view)
    assert lay.cube is not None and lay.cube.place == "offered"
    fr = lay.frame
    band = (fr.field_left[0], fr.mid_y - round(fr.unit * 0.5), fr.field_right[2],
            fr.mid_y + round(fr.unit * 0.5))
    assert differs(view, replace(view, cube=replace(view.cube, beaver=False)), band)
    stats = ok(await service.stats(HERE, ALICE))
    assert "beavers 1" in stats.text

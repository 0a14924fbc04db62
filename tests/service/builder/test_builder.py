"""The move builder through the service's action table (issue 31): the Play button, the
numbered steps and whole plays, taking, undoing and restarting steps, Confirm, the
variants' stages, refusals; and whole games played by steps only.

Dice are scripted; the rules behind the steps are tested in tests/engine/test_steps.py.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from pathlib import Path

from scripted import Script, opened

from bot.config import Config, GameConfig
from bot.service.core.replies import Action, BuilderView, Reply
from bot.service.core.values import Actor, Expect, Place
from bot.service.game import GameService
from engine.player import Player

ALICE = Actor(1, "alice")
BOB = Actor(2, "bob")
CAROL = Actor(3, "carol")
HERE = Place(guild_id=7, channel_id=70)


async def make(tmp_path: Path, dice: Iterable[int] = (), config: Config | None = None,
               then: str = "") -> GameService:
    storage = await opened(tmp_path / "bg.sqlite3")
    return GameService(storage, config or Config(), dice=Script(dice, then=then))  # type: ignore[arg-type]


async def start(service: GameService, **terms: object) -> Reply:
    reply = await service.challenge(HERE, ALICE, BOB, **terms)  # type: ignore[arg-type]
    assert reply.ok, reply.text
    reply = await service.accept(HERE, BOB)
    assert reply.ok, reply.text
    return reply


async def builder(service: GameService, actor: Actor = ALICE) -> BuilderView:
    reply = await service.act(Action.STEPS, HERE, actor)
    assert reply.ok and reply.ephemeral, reply.text
    assert reply.builder is not None
    return reply.builder


def entries(view: BuilderView) -> dict[str, list[tuple[int, str]]]:
    return {m.title: [(o.number, o.label) for o in m.options] for m in view.menus}


def labels(view: BuilderView) -> list[str]:
    return [b.label for b in view.buttons]


async def step(service: GameService, option: str, actor: Actor = ALICE,
               expect: Expect | None = None) -> Reply:
    return await service.act(Action.STEP, HERE, actor, option=option, expect=expect)


# -- the Play button and the menus -----------------------------------------------------


async def test_the_board_offers_play_to_the_mover_only(tmp_path: Path) -> None:
    service = await make(tmp_path, [6, 1])
    reply = await start(service, length=3)
    (play,) = [b for b in reply.buttons if b.action is Action.STEPS]
    assert play.label == "Play" and play.users == (ALICE.id,)
    view = await builder(service)
    assert entries(view)["Play the 6"] == [(1, "24 → 18"), (2, "13 → 7"), (3, "8 → 2")]
    assert entries(view)["Play the 1"] == [(4, "24 → 23"), (5, "8 → 7"), (6, "6 → 5")]
    whole = entries(view)["Or the whole play"]
    assert len(whole) == 10 and whole[0] == (7, "24 → 23, 24 → 18")
    assert (12, "13 → 7, 8 → 7") in whole
    assert view.board is not None and labels(view) == []  # nothing to undo yet
    refused = await service.act(Action.STEPS, HERE, BOB)
    assert not refused.ok and "not your turn: alice must play" in refused.text
    refused = await service.act(Action.STEPS, HERE, CAROL)
    assert not refused.ok and "not playing in this game" in refused.text


async def test_steps_are_private_until_the_play_is_made(tmp_path: Path) -> None:
    service = await make(tmp_path, [6, 1])
    await start(service, length=3)
    first = await step(service, "2")  # 13 -> 7
    assert first.ok and first.ephemeral and "alice has played 13/7 so far" in first.text
    view = await builder(service)
    assert "So far: 13 → 7." in view.text
    assert entries(view)["Play the 1"] == [(1, "24 → 23"), (2, "8 → 7"), (3, "7 → 6"),
                                           (4, "6 → 5")]
    assert labels(view) == ["Undo step", "Start over"]
    assert view.board is not None
    assert view.board.view.position.sides[Player.WHITE][7] == 1  # the draft is drawn
    assert view.board.view.dice_used == (True, False)
    done = await step(service, "8/7")  # a step named as written
    assert done.ok and not done.ephemeral and "alice plays 13/7 8/7." in done.text
    assert any(b.action is Action.ROLL for b in done.buttons)
    again = await service.act(Action.STEPS, HERE, ALICE)
    assert not again.ok and "not your turn" in again.text


async def test_a_whole_play_in_one_pick(tmp_path: Path) -> None:
    service = await make(tmp_path, [6, 1])
    await start(service, length=3)
    view = await builder(service)
    number = next(n for n, label in entries(view)["Or the whole play"]
                  if label == "13 → 7, 8 → 7")
    done = await step(service, str(number))
    assert done.ok and "alice plays 13/7 8/7." in done.text


async def test_undo_step_and_start_over(tmp_path: Path) -> None:
    service = await make(tmp_path, [5, 2, 4, 2])  # alice opens 5-2
    await start(service, length=3)
    refused = await service.act(Action.UNDO_STEP, HERE, ALICE)
    assert not refused.ok and "no step to undo" in refused.text
    refused = await service.act(Action.START_OVER, HERE, ALICE)
    assert not refused.ok and "nothing to start over" in refused.text
    assert (await step(service, "13/8")).ok
    undone = await service.act(Action.UNDO_STEP, HERE, ALICE)
    assert undone.ok and undone.ephemeral
    assert undone.text == "Undone 13/8; nothing entered yet this turn."
    assert (await step(service, "13/11")).ok
    assert "So far: 13 → 11." in (await builder(service)).text
    over = await service.act(Action.START_OVER, HERE, ALICE)
    assert over.ok and over.ephemeral and "Started over" in over.text
    assert "So far" not in (await builder(service)).text


async def test_a_stale_builder_is_refused(tmp_path: Path) -> None:
    service = await make(tmp_path, [6, 1])
    await start(service, length=3)
    shown = await service.act(Action.STEPS, HERE, ALICE)
    assert shown.version is not None and shown.match_id is not None
    expect = Expect(shown.version, shown.match_id)
    assert (await step(service, "2", expect=expect)).ok
    stale = await step(service, "5", expect=expect)  # the menu before that step
    assert not stale.ok and "moved on" in stale.text
    assert "So far: 13 → 7." in (await builder(service)).text  # nothing changed


async def test_a_play_button_of_an_earlier_turn_is_refused(tmp_path: Path) -> None:
    service = await make(tmp_path, [6, 1, 3, 3])
    reply = await start(service, length=3)
    (old,) = [b for b in reply.buttons if b.action is Action.STEPS]
    assert reply.version is not None and reply.match_id is not None
    shown = await service.act(Action.STEPS, HERE, ALICE, option=old.option,
                              expect=Expect(reply.version, reply.match_id))
    assert shown.ok  # a private step does not age the Play button
    assert (await service.move(HERE, ALICE, "13/7 8/7")).ok
    assert (await service.roll(HERE, BOB)).ok
    stale = await service.act(Action.STEPS, HERE, ALICE, option=old.option,
                              expect=Expect(reply.version, reply.match_id))
    assert not stale.ok and "moved on" in stale.text


async def test_refusals_say_what_is_allowed(tmp_path: Path) -> None:
    service = await make(tmp_path, [6, 1])
    await start(service, length=3)
    for option, said in (("99", "There is no step 99: /steps lists 1 to 16."),
                         ("13/8", "13/8 is not a step you can take now"),
                         ("²", "² is not understood")):
        refused = await step(service, option)
        assert not refused.ok and said in refused.text, refused.text
    refused = await service.act(Action.STEP, HERE, ALICE)
    assert not refused.ok and "/step 2" in refused.text
    refused = await step(service, "1", actor=BOB)
    assert not refused.ok and "not your turn" in refused.text
    nowhere = await service.act(Action.STEPS, Place(7, 71), ALICE)
    assert not nowhere.ok and "no game in this channel" in nowhere.text.lower()


async def test_typed_moves_and_steps_mix(tmp_path: Path) -> None:
    # The draft is one: a play typed in parts goes on with steps, and the other way round.
    service = await make(tmp_path, [6, 1, 3, 1])
    await start(service, length=3)
    assert (await service.move(HERE, ALICE, "13/7")).ok
    view = await builder(service)
    assert "So far: 13 → 7." in view.text
    done = await step(service, "24/23")
    assert done.ok and "alice plays 24/23 13/7." in done.text
    # and a play begun with a step is finished by typing the rest
    assert (await service.roll(HERE, BOB)).ok
    assert (await step(service, "8/5", actor=BOB)).ok
    done = await service.move(HERE, BOB, "6/5")
    assert done.ok and "bob plays 8/5 6/5." in done.text


async def test_with_confirm_the_last_step_waits_for_it(tmp_path: Path) -> None:
    service = await make(tmp_path, [6, 1], Config(game=GameConfig(auto_confirm=False)))
    await start(service, length=3)
    assert (await step(service, "13/7")).ok
    held = await step(service, "8/7")
    assert held.ok and held.ephemeral and "will play 13/7 8/7" in held.text
    view = await builder(service)
    assert view.menus == () and labels(view) == ["Confirm", "Undo step", "Start over"]
    assert "Your play: 13 → 7, 8 → 7." in view.text
    refused = await step(service, "1")
    assert not refused.ok and "waits for Confirm" in refused.text
    undone = await service.act(Action.UNDO_STEP, HERE, ALICE)
    assert undone.ok and "entered so far: 13/7" in undone.text
    assert (await step(service, "6/5")).ok
    done = await service.act(Action.CONFIRM, HERE, ALICE)
    assert done.ok and "alice plays 13/7 6/5." in done.text


# -- the variants' stages ----------------------------------------------------------------


async def test_acey_deucey_1930_both_sides_of_a_doublet_by_steps(tmp_path: Path) -> None:
    # 003 ch.12: a doublet is played four times, then its reverse side four times.
    service = await make(tmp_path, [6, 5, 1, 2, 3, 3])  # alice wins the opening, throws 3-3
    await start(service, variant="acey-deucey-1930")
    view = await builder(service)
    assert entries(view)["Play a 3 (four left)"] == [(1, "in → 22")]
    assert (2, "in → 22 ×4") in entries(view)["Or the whole play"]
    for left in ("three", "two", "one"):
        assert (await step(service, "1")).ok
        view = await builder(service)
        if left != "one":
            assert f"Play a 3 ({left} left)" in entries(view), entries(view)
    done = await step(service, "1")
    assert done.ok and not done.ephemeral  # the first side is made: the table sees it
    view = await builder(service)
    assert "4-4 (the reverse side, four 4s" in view.text
    assert "in → 21" in [label for _, label in entries(view)["Play a 4 (four left)"]]
    assert view.board is not None and view.board.view.dice == (4, 4)


async def test_acey_deucy_names_its_doublet_with_buttons(tmp_path: Path) -> None:
    # 000 'THE GAME OF ACEY-DEUCY': the higher opening throw may be played or thrown again
    # ('RULES FOR PLAYING'); acey-deucy while setting up enters on the ace and deuce points
    # (forced here), then the player names a doublet, plays it four times and throws again
    # ('ACEY-DEUCY' 1-3).
    service = await make(tmp_path, [1, 2, 1, 1], then="0123456789abcdef")
    await start(service, variant="acey-deucey")
    view = await builder(service)
    assert "Play your opening throw, or throw again?" in view.text and view.menus == ()
    assert [b.option for b in view.buttons] == ["play", "throw again"]
    played = await service.choose(HERE, ALICE, "play")
    assert "alice plays in/24 in/23 (forced)" in played.text
    view = await builder(service)
    assert "choose: Acey-deucy: name any doublet" in view.text
    assert [(b.action, b.option) for b in view.buttons] == [
        (Action.CHOOSE, str(n)) for n in range(1, 7)]
    assert (await service.choose(HERE, ALICE, "6")).ok
    view = await builder(service)
    assert "the named doublet, four 6s" in view.text
    assert entries(view)["Play a 6 (four left)"][0][1] == "in → 19"
    for _ in range(4):
        assert (await step(service, "in/19")).ok
    again = await service.act(Action.STEPS, HERE, ALICE)  # played in full: throw again
    assert again.ok and again.builder is not None, again.text  # (another acey-deucy here)


async def test_a_variant_draft_is_drawn(tmp_path: Path) -> None:
    # 000 'SETTING UP THE MEN': men may move as soon as one is entered.
    service = await make(tmp_path, [6, 5, 5, 3])  # alice's 6-5 wins the opening throw
    await start(service, variant="acey-deucey")
    assert (await service.choose(HERE, ALICE, "play")).ok
    assert (await step(service, "in/20")).ok
    view = await builder(service)
    assert view.board is not None
    white = view.board.view.position.sides[Player.WHITE]
    assert white[20] == 1 and white[26] == 14
    assert view.board.view.dice_used == (False, True)  # the 5 is played, the 6 is left
    assert "20 → 14" in [label for _, label in entries(view)["Play the 6"]]


# -- whole games by steps only ------------------------------------------------------------


async def play_by_steps(service: GameService, rng: random.Random, *,
                        whole: bool = False, limit: int = 3000) -> dict[str, int]:
    """Play the match to its end with the builder only: every play is taken step by
    step (``whole``: sometimes as a whole play), every choice from its buttons."""
    seen = {"doublets": 0, "bear-offs": 0, "hits": 0, "plays": 0, "won": 0}
    for _ in range(limit):
        look = await service.board(HERE, CAROL)
        if any(b.action is Action.REMATCH for b in look.buttons) or not look.boards:
            return seen
        acts = {b.action: b for b in look.buttons}
        choices = [b for b in look.buttons if b.action is Action.CHOOSE]
        if choices:  # a variant's choice: the buttons of the board
            pick = rng.choice(choices)
            actor = ALICE if pick.users == (ALICE.id,) else BOB
            chosen = await service.choose(HERE, actor, pick.option)
            assert chosen.ok, chosen.text
            seen["won"] += "wins the 1-point match" in chosen.text
            continue
        if Action.STEPS in acts:
            actor = ALICE if acts[Action.STEPS].users == (ALICE.id,) else BOB
            view = await builder(service, actor)
            if view.buttons and view.buttons[0].action is Action.CHOOSE:
                pick = rng.choice(view.buttons)
                assert (await service.choose(HERE, actor, pick.option)).ok
                continue
            steps = [o for m in view.menus if m.title.startswith("Play")
                     for o in m.options]
            plays = [o for m in view.menus if m.title.startswith("Or") for o in m.options]
            assert steps or plays, view.text
            pick = rng.choice(plays if (whole and plays and rng.random() < 0.3) or not steps
                              else steps)
            if "(four left)" in view.text or any("left)" in m.title for m in view.menus):
                seen["doublets"] += 1
            seen["bear-offs"] += "off" in pick.label
            seen["hits"] += "*" in pick.label
            reply = await step(service, str(pick.number), actor)
            assert reply.ok, reply.text
            seen["plays"] += not reply.ephemeral
            seen["won"] += "wins the 1-point match" in reply.text
        else:
            roll = acts.get(Action.ROLL)
            assert roll is not None, (look.text, [b.label for b in look.buttons])
            actor = ALICE if roll.users == (ALICE.id,) else BOB
            rolled = await service.roll(HERE, actor)
            assert rolled.ok, rolled.text
            seen["won"] += "wins the 1-point match" in rolled.text  # a forced last play
    raise AssertionError("the match did not end")


async def test_a_whole_match_played_by_steps_only(tmp_path: Path) -> None:
    service = await make(tmp_path, then="9e3779b97f4a7c15f39cc0605cedc834")
    await start(service, length=1)
    seen = await play_by_steps(service, random.Random(31))
    assert seen["plays"] > 10 and seen["doublets"] and seen["bear-offs"] and seen["hits"]
    assert seen["won"] == 1  # the last step of the last play won the match


async def test_a_whole_variant_game_played_by_steps_only(tmp_path: Path) -> None:
    service = await make(tmp_path, then="0123456789abcdef02468ace13579bdf")
    await start(service, length=1, variant="acey-deucey")
    seen = await play_by_steps(service, random.Random(5), whole=True)
    assert seen["plays"] > 10 and seen["doublets"] and seen["bear-offs"]
    assert seen["won"] == 1


async def test_the_builder_lists_its_steps_as_values_too(tmp_path: Path) -> None:
    """A board played by moving checkers (the web Activity, issue 45) reads the same steps
    as the menus, as values: the word /step takes, where from and where to."""
    service = await make(tmp_path, [6, 1])
    await start(service, length=3)
    view = await builder(service)
    numbered = [o.label for m in view.menus for o in m.options][:len(view.steps)]
    assert [s.word.replace("/", " → ") for s in view.steps] == numbered
    assert [(s.src, s.dst, s.die) for s in view.steps] == [
        (24, 18, 6), (13, 7, 6), (8, 2, 6), (24, 23, 1), (8, 7, 1), (6, 5, 1)]
    assert (await step(service, view.steps[1].word)).ok  # 13/7, as /step 13/7
    after = await builder(service)
    assert [(s.src, s.dst) for s in after.steps] == [(24, 23), (8, 7), (7, 6), (6, 5)]

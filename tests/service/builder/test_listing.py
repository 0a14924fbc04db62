"""The move builder's numbered listing and its menus (bot/service/builder/listing.py):
numbers shared by ``/step N`` and the Discord menus, menus split by where the checkers start
when one would hold more than a menu may (Discord: 25 options), nothing dropped."""

from __future__ import annotations

import pytest

from bot.service.builder.listing import MAX_PLAYS, PER_MENU, Listing
from bot.service.core.replies import Refusal
from engine.game import Game
from engine.move import Play
from engine.player import Player
from engine.position import Position, make_side
from engine.steps import Step, Steps


def listing(white: dict[int, int], dice: tuple[int, int], black: dict[int, int],
            bar: int = 0) -> tuple[Game, Steps, Listing]:
    position = Position.from_sides(make_side(white, bar=bar), make_side(black))
    game = Game.new("standard", position=position, first_player=Player.WHITE).roll(list(dice))
    tree = Steps.of_game(game)
    assert tree is not None
    return game, tree, Listing.of(game, tree, tree.start())


# Fifteen checkers on fifteen points: fifteen steps for each die, 6-5.
SPREAD = {p: 1 for p in (24, 23, 22, 21, 20, 18, 17, 16, 15, 14, 12, 11, 10, 9, 8)}


def test_a_long_menu_is_split_by_where_the_checkers_start() -> None:
    _, _, found = listing(SPREAD, (6, 5), {1: 15})
    sixes = [s for s in found.steps if s.die == 6]
    assert len(sixes) == 15 and len(found.plays) == 0  # far more than 25 whole plays
    whole = found.menus((6, 5))
    assert [m.title for m in whole] == ["Play the 6", "Play the 5"]  # 15 fit in one menu
    split = found.menus((6, 5), per_menu=4)
    assert all(len(m.options) <= 4 for m in split)
    titles = [m.title for m in split if m.title.startswith("Play the 6")]
    assert titles == ["Play the 6, from your points 19 to 24",
                      "Play the 6, from your points 19 to 24",
                      "Play the 6, from your points 13 to 18",
                      "Play the 6, from your points 13 to 18",
                      "Play the 6, from your points 7 to 12",
                      "Play the 6, from your points 7 to 12"]
    numbers = [o.number for m in split for o in m.options]
    assert numbers == list(range(1, len(found.steps) + 1))  # none dropped, same numbers
    assert [o.label for m in split for o in m.options] == [s.label for s in found.steps]


def test_whole_plays_are_listed_when_few_and_numbered_after_the_steps() -> None:
    game, _, found = listing({8: 2, 6: 13}, (3, 1), {1: 15})
    assert 0 < len(found.plays) <= MAX_PLAYS
    menus = found.menus((3, 1))
    assert menus[-1].title == "Or the whole play"
    assert menus[-1].options[0].number == len(found.steps) + 1
    assert found.pick(game, str(len(found.steps) + 1)) == found.plays[0]
    assert all(len(m.options) <= PER_MENU for m in menus)


def test_pick_by_number_word_or_play() -> None:
    game, _, found = listing({8: 2, 6: 13}, (3, 1), {1: 15})
    first = found.pick(game, "1")
    assert isinstance(first, Step) and first is found.steps[0]
    assert found.pick(game, "8/5") == next(s for s in found.steps if s.word == "8/5")
    play = found.pick(game, "8/5 6/5")
    assert isinstance(play, Play) and game.variant.format_play(play) == "8/5 6/5"
    for bad in ("0", "99", "8/3", "", "13/7 13/7 13/7"):
        with pytest.raises(Refusal):
            found.pick(game, bad)


def test_descriptions_say_what_a_step_does() -> None:
    _, _, found = listing({13: 5, 6: 9}, (4, 2), {20: 1, 24: 2, 1: 12}, bar=1)
    described = {o.label: o.description for m in found.menus((4, 2)) for o in m.options}
    assert described["bar → 21"] == "enters from the bar"
    assert described["bar → 23"] == "enters from the bar"

"""The move builder's steps (engine/steps.py, issue 31): one checker moved by one die at a
time, offered only when a legal play can still be completed.

Rules cited from the rule books in /work/shared/rules: 002 'MOVEMENT OF PIECES' (rules 2
to 4), 'HITTING AND ENTERING', 'BEARING OFF'; 000 'THE GAME OF ACEY-DEUCY' ('SETTING UP
THE MEN'); 003 ch.10 (Russian, IV), ch.11 (French), ch.12 (Acey-Deucey 1930: bearing off
with the exact number only).

The property tests walk every menu from the start of a stage (each partial play is one
state: the position and the dice left) and compare the plays reached with the engine's
legal plays, in random positions of every variant and in every stage of random turns.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.dice import Dice
from engine.game import Game, Phase
from engine.move import Move
from engine.player import Player
from engine.position import BAR, OFF, WAITING, Position, make_side
from engine.rules import DEFAULT_RULES, RuleOptions
from engine.steps import Partial, Step, Steps, notation_order, play_label
from engine.variant import get_variant
from engine.variants.movement import refusal

VARIANTS = ("standard", "acey-deucey", "acey-deucey-1930", "russian",
            "russian-restriction-1", "russian-restriction-2", "french")


def stage(white: Position | dict[int, int], dice: tuple[int, int], *,
          black: dict[int, int] | None = None, variant: str = "standard",
          white_bar: int = 0, waiting: int = 0) -> tuple[Game, Steps]:
    """White to play ``dice`` (white's points; black's in black's own numbering)."""
    if isinstance(white, Position):
        position = white
    else:
        position = Position.from_sides(make_side(white, bar=white_bar, waiting=waiting),
                                       make_side(black or {}))
    game = Game.new(variant, position=position, first_player=Player.WHITE).roll(list(dice))
    assert game.phase is Phase.PLAY, game.phase
    tree = Steps.of_game(game)
    assert tree is not None
    return game, tree


def words(steps: list[Step]) -> list[str]:
    return [s.word for s in steps]


def reached(tree: Steps) -> set[Position]:
    """The plays finished by walking every menu (each partial play visited once)."""
    seen: set[tuple[Position, tuple[int, ...]]] = set()
    found: set[Position] = set()
    stack = [tree.start()]
    while stack:
        partial = stack.pop()
        if (partial.position, partial.dice) in seen:
            continue
        seen.add((partial.position, partial.dice))
        play = tree.finished(partial)
        options = tree.options(partial)
        if play is not None:
            found.add(play.position)
        else:
            assert options, "a partial play with no way on was offered"
        for step in options:
            # every step offered obeys the movement rules on its own
            assert refusal(partial.position, tree.player, step.move, step.die,
                           tree.rules) is None, step
            stack.append(tree.take(partial, step))
    return found


# -- standard backgammon ---------------------------------------------------------------


def test_the_opening_6_1_offers_each_die_s_steps() -> None:
    # 002 'MOVEMENT OF PIECES' 2: the numbers on the two dice are separate moves.
    _, tree = stage(Position.standard(), (6, 1))
    start = tree.start()
    sixes = [s for s in tree.options(start) if s.die == 6]
    ones = [s for s in tree.options(start) if s.die == 1]
    assert words(sixes) == ["24/18", "13/7", "8/2"]
    assert words(ones) == ["24/23", "8/7", "6/5"]
    assert [s.label for s in sixes] == ["24 → 18", "13 → 7", "8 → 2"]
    after = tree.take(start, sixes[1])
    assert after.dice == (1,) and tree.finished(after) is None
    done = tree.take(after, next(s for s in tree.options(after) if s.word == "8/7"))
    play = tree.finished(done)
    assert play is not None and play.position == done.position
    assert tree.options(done) == []


def test_a_doublet_is_four_steps() -> None:
    # 002 rule 3: a double is played four times.
    _, tree = stage(Position.standard(), (3, 3))
    partial = tree.start()
    for count in range(4):
        assert tree.finished(partial) is None
        assert {s.die for s in tree.options(partial)} == {3}
        partial = tree.take(partial, tree.options(partial)[0])
        assert len(partial.dice) == 3 - count
    assert tree.finished(partial) is not None


def test_a_hit_is_marked() -> None:
    # 002 'HITTING AND ENTERING': a checker landing on a blot hits it.
    _, tree = stage({8: 2, 6: 13}, (3, 1), black={20: 1, 1: 14})  # black's 20: white's 5
    step = next(s for s in tree.options(tree.start()) if s.word.startswith("8/5"))
    assert step.move.hit and step.word == "8/5*" and step.label == "8 → 5*"
    after = tree.take(tree.start(), step)
    assert after.position.sides[Player.BLACK][BAR] == 1


def test_a_checker_on_the_bar_enters_first() -> None:
    # 002 'HITTING AND ENTERING': "his first obligation is to enter those checker(s)".
    _, tree = stage({13: 5, 6: 9}, (4, 2), white_bar=1, black={24: 2, 1: 13})
    assert words(tree.options(tree.start())) == ["bar/21", "bar/23"]
    after = tree.replay(["bar/21"])
    assert after is not None and "13/11" in words(tree.options(after))


def test_both_dice_must_be_used_when_possible() -> None:
    # 002 rule 4: 6/3 with the 3 leaves the 4 unplayable (16/12 is blocked, no bearing off
    # with a checker on 16), so it is never offered although it is a move on its own.
    game, tree = stage({16: 1, 6: 1}, (4, 3), black={1: 2, 13: 2})
    assert words(tree.options(tree.start())) == ["6/2", "16/13"]
    assert refusal(game.position, Player.WHITE, Move(6, 3), 3, tree.rules) is None
    assert {game.variant.format_play(p) for p in tree.completions(tree.start())} == {
        "16/13 6/2", "16/9"}


def test_the_larger_die_when_only_one_can_be_played() -> None:
    # 002 rule 4: "if either number can be played but not both, the player must play the
    # larger one": 12/9 with the 3 is a move, but the 5 must be played.
    _, tree = stage({12: 1}, (5, 3), black={21: 2, 15: 2, 10: 2, 19: 2})
    assert words(tree.options(tree.start())) == ["12/7"]


def test_bearing_off_with_a_larger_die_is_offered_once() -> None:
    # 002 'BEARING OFF': with no checker on the point of the roll and none higher, the
    # checker on the highest point is borne off.  With 6-4 and checkers on 3 and 2 either
    # die takes the 3 off and the die left plays alike: the step is offered once, with 6.
    _, tree = stage({3: 1, 2: 1}, (6, 4), black={24: 2, 1: 13})
    assert [(s.word, s.die) for s in tree.options(tree.start())] == [("3/off", 6)]
    partial = tree.replay(["3/off", "2/off"])
    assert partial is not None and tree.finished(partial) is not None


def test_the_exact_die_comes_first_when_it_bears_off() -> None:
    _, tree = stage({3: 2}, (6, 3), black={24: 2, 1: 13})
    assert [(s.word, s.die) for s in tree.options(tree.start())] == [("3/off", 3)]


def test_a_play_finished_before_its_last_die_is_finished() -> None:
    # The last checker borne off with the 6 wins at once: the 1 is not played.
    _, tree = stage({3: 1}, (6, 1), black={24: 2, 1: 13})
    after = tree.replay(["3/off"])
    assert after is not None and after.dice == (1,)
    assert tree.finished(after) is not None


def test_replay_refuses_what_is_not_a_step_now() -> None:
    _, tree = stage(Position.standard(), (6, 1))
    assert tree.replay(["13/7", "8/7"]) is not None
    assert tree.replay(["13/7", "8/7", "6/5"]) is None  # no die left
    assert tree.replay(["24/13"]) is None  # two dice in one word: not a step
    assert tree.replay(["13/8"]) is None
    assert tree.replay(["nonsense"]) is None


def test_labels_and_notation_order() -> None:
    assert play_label("24/18*/13 8/5(2)") == "24 → 18* → 13, 8 → 5 ×2"
    assert play_label("in/22 bar/20 6/off") == "in → 22, bar → 20, 6 → off"
    game, _ = stage(Position.standard(), (6, 1))
    texts = [game.variant.format_play(p)
             for p in notation_order(game.legal_plays(), game.variant.format_play)]
    assert texts == ["24/23 24/18", "24/23 13/7", "24/23 8/2", "24/18 8/7", "24/18 6/5",
                     "13/7 8/7", "13/7 6/5", "13/6", "8/7 8/2", "8/2 6/5"]


# -- the variants -------------------------------------------------------------------------


def test_acey_deucey_setting_up_enters_on_the_ace_and_deuce_points() -> None:
    # 000 'SETTING UP THE MEN': acey-deucy while men remain to enter places one man on the
    # ace point and one on the deuce point first.
    _, tree = stage(Position.empty(), (1, 2), variant="acey-deucey")
    start = tree.start()
    assert words(tree.options(start)) == ["in/23", "in/24"]
    assert [s.label for s in tree.options(start)] == ["in → 23", "in → 24"]
    after = tree.replay(["in/24"])
    assert after is not None and words(tree.options(after)) == ["in/23"]  # not 24/22


def test_russian_enters_before_anything_moves() -> None:
    # 003 ch.10 IV: "All of a player's men must be entered before any may be moved."
    _, tree = stage({20: 3}, (5, 3), variant="russian", waiting=12)
    assert words(tree.options(tree.start())) == ["in/20", "in/22"]


def test_acey_deucey_1930_bears_off_with_the_exact_number_only() -> None:
    # 003 ch.12: "bearing off only from the point that exactly matches the number thrown".
    _, tree = stage({5: 1, 3: 1}, (6, 3), variant="acey-deucey-1930",
                    black={24: 2, 1: 13})
    assert ("5/off", 6) not in [(s.word, s.die) for s in tree.options(tree.start())]
    assert "3/off" in words(tree.options(tree.start()))


# -- the property: the menus reach exactly the legal plays -------------------------------


def random_side_counts(rng: random.Random, variant: str, bear_off: bool) -> list[int]:
    side = [0] * 27
    waiting = [WAITING] * 6 if variant != "standard" else []
    slots = [*range(1, 7), 0, 0] if bear_off else [0, BAR, *range(1, 25), *range(1, 25),
                                                    *range(1, 25), *waiting]
    for _ in range(15):
        side[rng.choice(slots)] += 1
    return side


def random_position(rng: random.Random, variant: str) -> Position:
    """Checkers of both sides anywhere (bar, off, not yet entered in the variants), never
    two colours on one point."""
    opposite = get_variant(variant).opposite
    white = random_side_counts(rng, variant, rng.random() < 0.3)
    black = random_side_counts(rng, variant, rng.random() < 0.3)
    for point in range(1, 25):
        if black[point] and white[opposite[point]]:
            black[OFF] += black[point]
            black[point] = 0
    return Position.from_sides(white, black)


def stages(game: Game, rng: random.Random) -> Iterator[Game]:
    """Every stage white plays in this turn (the reverse side, the doublet named after
    acey-deucy, ...), playing random legal plays and choices."""
    while game.turn is Player.WHITE and game.phase in (Phase.PLAY, Phase.CHOICE):
        if game.phase is Phase.CHOICE:
            choice = game.pending_choice
            assert choice is not None
            game = game.choose(rng.choice(choice.options))
            continue
        yield game
        game = game.play(rng.choice(game.legal_plays()))


def check_stage(game: Game) -> None:
    tree = Steps.of_game(game)
    assert tree is not None
    assert reached(tree) == {p.position for p in game.legal_plays()}


@pytest.mark.parametrize("variant", VARIANTS)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32 - 1), dice=st.tuples(
    st.integers(1, 6), st.integers(1, 6)))
def test_in_random_positions_the_menus_reach_exactly_the_legal_plays(
        variant: str, seed: int, dice: tuple[int, int]) -> None:
    rng = random.Random(seed)
    position = random_position(rng, variant)
    if any(side[OFF] == 15 for side in position.sides):
        return
    game = Game.new(variant, position=position, first_player=Player.WHITE).roll(list(dice))
    for played in stages(game, rng):
        check_stage(played)


@pytest.mark.parametrize(("variant", "rules"), [
    *((v, DEFAULT_RULES) for v in VARIANTS),
    ("acey-deucey", RuleOptions.from_dict({"kicked_off": "reserve"})),
    ("standard", RuleOptions.from_dict({"higher_die": "free"}))])
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_in_random_games_every_stage_s_menus_reach_exactly_the_legal_plays(
        variant: str, rules: RuleOptions, seed: int) -> None:
    rng = random.Random(seed)
    game = Game.new(variant, rules)
    for _ in range(2000):
        if game.is_finished:
            break
        if game.phase is Phase.OPENING:
            each = game.variant.opening_method(game.rules).dice_each
            game = game.opening_roll([rng.randint(1, 6) for _ in range(each)],
                                     [rng.randint(1, 6) for _ in range(each)])
        elif game.phase is Phase.ROLL:
            game = game.roll(Dice(rng.randint(1, 6), rng.randint(1, 6)))
        elif game.phase is Phase.CHOICE:
            choice = game.pending_choice
            assert choice is not None
            game = game.choose(rng.choice(choice.options))
        else:
            check_stage(game)
            game = game.play(rng.choice(game.legal_plays()))
    assert game.is_finished


def test_a_partial_play_keeps_its_moves() -> None:
    _, tree = stage(Position.standard(), (6, 1))
    partial = tree.replay(["13/7", "8/7"])
    assert partial is not None
    assert partial.moves == (Move(13, 7), Move(8, 7)) and partial.dice == ()
    assert tree.resume(partial.position, ()) == Partial(partial.position, ())

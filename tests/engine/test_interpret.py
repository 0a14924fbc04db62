"""Resolving typed moves to legal plays, and the explanations when they are not one.

Rule sources (cited per test): 002_de81a0fe2cc80ee1.txt 'MOVEMENT OF PIECES',
'HITTING AND ENTERING', 'BEARING OFF'; 001_1fd58179962334fd.txt (compulsory
use of both dice and of the higher die).
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.dice import Dice
from engine.errors import (
    AmbiguousPlayError,
    IllegalPlayError,
    IncompletePlayError,
    NotationError,
)
from engine.interpret import plays_matching_prefix, resolve_play
from engine.movegen import legal_plays
from engine.notation import format_play
from engine.player import Player
from engine.position import Position, make_side

W, B = Player.WHITE, Player.BLACK
START = Position.standard()
STANDARD_SIDE = {24: 2, 13: 5, 8: 3, 6: 5}


def board(white: dict[int, int], black: dict[int, int], *, white_bar: int = 0) -> Position:
    """Each side in its own numbering; checkers not listed are borne off."""
    return Position.from_sides(make_side(white, bar=white_bar), make_side(black))


def play_text(position: Position, roll: str, text: str, player: Player = W) -> str:
    return format_play(resolve_play(position, player, Dice.parse(roll), text))


def error_of(position: Position, roll: str, text: str, player: Player = W) -> IllegalPlayError:
    with pytest.raises(IllegalPlayError) as info:
        resolve_play(position, player, Dice.parse(roll), text)
    return info.value


# ---------------------------------------------------------------- matching


@pytest.mark.parametrize(
    ("roll", "text", "expected"),
    [
        ("31", "8/5 6/5", "8/5 6/5"),
        ("31", "6/5 8/5", "8/5 6/5"),
        ("31", "6-5, 8-5", "8/5 6/5"),
        ("13", "8/5 6/5", "8/5 6/5"),
        ("61", "13/7 8/7", "13/7 8/7"),
        ("61", "8/7 13/7", "13/7 8/7"),
        ("65", "24/13", "24/13"),
        ("65", "24/18 18/13", "24/13"),
        ("65", "18/13 24/18", "24/13"),
        ("65", "24/18/13", "24/13"),
        ("65", "13/8 13/7", "13/8 13/7"),
        ("65", "13/7 7/2", "13/2"),
        ("65", "13/8 8/2", "13/2"),
        ("33", "8/5(2) 6/3(2)", "8/5(2) 6/3(2)"),
        ("33", "6/3 8/5 6/3 8/5", "8/5(2) 6/3(2)"),
        ("33", "6/3(2) 8/5 8/5", "8/5(2) 6/3(2)"),
        ("33", "13/7(2)", "13/7(2)"),
        ("33", "13/10 10/7 13/10 10/7", "13/7(2)"),
        ("66", "24/18(2) 13/7(2)", "24/18(2) 13/7(2)"),
        ("44", "24/20(2) 13/9(2)", "24/20(2) 13/9(2)"),
        ("44", "13/5 13/9 24/20", "24/20 13/5 13/9"),
        ("44", "13/9 9/5 24/20 13/9", "24/20 13/5 13/9"),
    ],
)
def test_typed_moves_resolve_in_any_order_and_grouping(roll: str, text: str,
                                                       expected: str) -> None:
    """002 'MOVEMENT OF PIECES' rules 2-3: the two dice (four for doubles) are separate moves,
    one checker may take both; the order typed does not matter."""
    assert play_text(START, roll, text) == expected


def test_black_uses_its_own_point_numbers() -> None:
    play = resolve_play(START, B, Dice(3, 1), "8/5 6/5")
    side = play.position.side(B)
    assert (side[8], side[6], side[5]) == (2, 4, 2)
    assert play.position.side(W) == START.side(W)


def test_resolve_returns_the_listed_play_object() -> None:
    plays = legal_plays(START, W, 6, 1)
    play = resolve_play(START, W, Dice(6, 1), "13/7 8/7", plays)
    assert any(play is p for p in plays)


def test_hit_marks_are_optional() -> None:
    """002 'HITTING AND ENTERING': landing on a blot hits it, whether or not * is written."""
    pos = board(STANDARD_SIDE, {6: 5, 8: 3, 13: 5, 7: 1, 1: 1})  # black blot on white's 18
    assert play_text(pos, "65", "24/18 18/13") == "24/18*/13"
    assert play_text(pos, "65", "24/18*/13") == "24/18*/13"
    assert play_text(pos, "65", "24/18* 18/13") == "24/18*/13"


def test_unwritten_intermediate_point_means_the_way_that_does_not_hit() -> None:
    # Blot on white's 18 only, 19 open: gnubg writes the hitting play 24/18*/13, so 24/13
    # is the other one.
    pos = board(STANDARD_SIDE, {5: 5, 8: 3, 13: 5, 7: 1, 1: 1})
    assert play_text(pos, "65", "24/13") == "24/13"
    assert play_text(pos, "65", "24/18/13") == "24/18*/13"
    hit_18 = resolve_play(pos, W, Dice(6, 5), "24/18*/13")
    no_hit = resolve_play(pos, W, Dice(6, 5), "24/19/13")
    assert hit_18 != no_hit and no_hit.position.bar(B) == 0 and hit_18.position.bar(B) == 1


def test_ambiguous_when_every_way_hits_a_different_blot() -> None:
    # Black blots on white's 18 (black 7) and 19 (black 6).
    pos = board(STANDARD_SIDE, {7: 1, 6: 1, 3: 4, 2: 4, 1: 5})
    with pytest.raises(AmbiguousPlayError) as info:
        resolve_play(pos, W, Dice(6, 5), "24/13")
    assert set(info.value.candidates) == {"24/18*/13", "24/19*/13"}
    assert "24/18*/13" in str(info.value) and "24/19*/13" in str(info.value)
    assert play_text(pos, "65", "24/19*/13") == "24/19*/13"


# ---------------------------------------------------------------- incomplete


def test_incomplete_lists_the_completions() -> None:
    """001: if a player can move both dice, he is compelled to do so."""
    with pytest.raises(IncompletePlayError) as info:
        resolve_play(START, W, Dice(6, 5), "24/18")
    assert set(info.value.candidates) == {"24/13", "24/18 13/8", "24/18 8/3"}
    assert str(info.value).startswith("You must use both dice:")
    assert "24/13" in str(info.value)


def test_incomplete_doubles_name_the_number_of_moves() -> None:
    """002 'MOVEMENT OF PIECES' rule 3: doubles are played four times."""
    with pytest.raises(IncompletePlayError) as info:
        resolve_play(START, W, Dice(5, 5), "13/3 13/8")
    assert "You must play all four 5s" in str(info.value)
    assert set(info.value.candidates) == {"13/3(2)", "13/3 13/8(2)"}


def test_an_incomplete_doublet_is_refused_in_one_sentence() -> None:
    """Issue 30 item 12: the refusal read "You must play all four 5s: 13/3(2) or 13/3
    13/8(2) do." (002 'MOVEMENT OF PIECES' rule 3: doubles are played four times)."""
    with pytest.raises(IncompletePlayError) as info:
        resolve_play(START, W, Dice(5, 5), "13/3 13/8")
    text = str(info.value)
    assert text.startswith("You must play all four 5s: play ") and text.endswith(".")
    assert not text.endswith(" do.") and not text.endswith(" does.")
    with pytest.raises(IncompletePlayError) as info:
        resolve_play(START, W, Dice(6, 5), "24/18")
    assert str(info.value).startswith("You must use both dice: play ")
    assert not str(info.value).endswith("play both.")


def test_incomplete_message_names_at_most_five_plays() -> None:
    with pytest.raises(IncompletePlayError) as info:
        resolve_play(START, W, Dice(3, 3), "8/5(2)")
    assert len(info.value.candidates) > 5
    assert f"and {len(info.value.candidates) - 5} more" in str(info.value)


def test_empty_text_when_a_move_exists_is_incomplete() -> None:
    with pytest.raises(IncompletePlayError) as info:
        resolve_play(START, W, Dice(6, 5), "")
    assert len(info.value.candidates) == 7
    assert "6-5" in str(info.value)


def test_incomplete_without_entering_points_to_the_bar() -> None:
    """002 'HITTING AND ENTERING': a checker on the bar enters before any other moves."""
    pos = board({24: 1, 13: 5, 8: 3, 6: 5}, {6: 5, 8: 3, 13: 5, 1: 2}, white_bar=1)
    with pytest.raises(IncompletePlayError) as info:
        resolve_play(pos, W, Dice(6, 5), "13/7")
    assert info.value.candidates == ("bar/20 13/7",)
    assert "enter it first" in str(info.value)


# ---------------------------------------------------------------- explanations


def test_bar_first() -> None:
    """002 'HITTING AND ENTERING': no other move until the checker on the bar has entered."""
    pos = board({24: 1, 13: 5, 8: 3, 6: 5}, STANDARD_SIDE, white_bar=1)
    message = str(error_of(pos, "43", "13/9 13/10"))
    assert message == "You have a checker on the bar: enter it first (bar/22 or bar/21 are open)."
    assert play_text(pos, "43", "13/9 bar/22") == "bar/22 13/9"


def test_bar_first_with_one_open_point() -> None:
    pos = board({24: 1, 13: 5, 8: 3, 6: 5}, {6: 5, 8: 3, 13: 5, 1: 2}, white_bar=1)
    message = str(error_of(pos, "65", "13/7 13/8"))
    assert message == "You have a checker on the bar: enter it first (bar/20 is open)."


def test_blocked_point() -> None:
    """002 'MOVEMENT OF PIECES' rule 1: never onto a point held by two or more opposing checkers."""
    message = str(error_of(START, "55", "13/8(2) 6/1(2)"))
    assert message == "Point 1 is blocked (2 opposing checkers)."
    assert str(error_of(START, "66", "24/12(2)")) == "Point 12 is blocked (5 opposing checkers)."


def test_blocked_both_ways() -> None:
    """000 'NOTE' / 002 rule 2: a checker moving both dice must find the point between open."""
    pos = board(STANDARD_SIDE, {7: 2, 6: 5, 8: 3, 13: 3, 24: 2})
    message = str(error_of(pos, "65", "24/13"))
    assert "You can't play 24/13" in message
    assert "point 19 (5 opposing checkers)" in message
    assert "point 18 (2 opposing checkers)" in message
    assert "both blocked" in message


def test_higher_die_when_only_one_can_be_played() -> None:
    """002 'MOVEMENT OF PIECES' rule 4 / 001: if either number but not both, play the larger."""
    pos = board({24: 1}, {12: 2, 2: 13})
    assert play_text(pos, "65", "24/18") == "24/18"
    message = str(error_of(pos, "65", "24/19"))
    assert message.startswith("When only one die can be played you must play the 6.")
    assert "24/18" in message


def test_must_use_both_dice_when_another_order_allows_it() -> None:
    """001: if one die can't be moved but moving the other first makes it possible, that
    order is compulsory (the 6-3 stone A / stone B example)."""
    pos = board({13: 1, 8: 1}, {20: 2, 23: 2, 1: 11})
    assert play_text(pos, "62", "8/6 13/7") == "13/7 8/6"
    message = str(error_of(pos, "62", "13/11"))
    assert "After 13/11 you can't play the 6" in message
    assert "must use both dice" in message
    assert "13/7 8/6" in message


def test_cannot_bear_off_with_checkers_outside() -> None:
    """002 'BEARING OFF': all active checkers must be in the home board to bear off."""
    pos = board({6: 2, 5: 3, 4: 3, 13: 1, 9: 1}, STANDARD_SIDE)
    message = str(error_of(pos, "65", "6/off 5/off"))
    assert message == (
        "You can't bear off yet: checkers on 13 and 9 are outside your home board."
    )


def test_cannot_bear_off_from_lower_point_with_larger_die() -> None:
    """002 'BEARING OFF': a larger number bears off only from the highest occupied point."""
    pos = board({4: 2, 3: 3}, STANDARD_SIDE)
    message = str(error_of(pos, "51", "3/off 4/3"))
    assert message == (
        "You can't bear off from the 3 point with a 5 while you have a checker on the 4 point."
    )
    assert play_text(pos, "51", "4/off 4/3") == "4/3 4/off"


def test_bear_off_with_larger_die_from_highest_point() -> None:
    """001 bearing off: no stones on 6, so the 6 and the 5 bear off two stones from the 5."""
    pos = board({5: 2, 2: 1}, STANDARD_SIDE)
    assert play_text(pos, "65", "5/off(2)") == "5/off(2)"


def test_no_checker_on_the_point() -> None:
    assert str(error_of(START, "65", "7/1 13/8")) == "You have no checker on the 7 point."
    assert str(error_of(START, "65", "bar/20 13/8")) == "You have no checker on the bar."


def test_not_enough_checkers_on_the_point() -> None:
    assert str(error_of(START, "66", "24/18(4)")) == "You have only 2 checkers on the 24 point."


def test_distance_does_not_fit_the_dice() -> None:
    assert str(error_of(START, "62", "13/9")) == "13/9 is 4 pips but you rolled 6-2."
    assert str(error_of(START, "62", "13/7 13/12")) == (
        "13/12 is 1 pip but you have only the 2 left to play."
    )


def test_too_many_moves() -> None:
    message = str(error_of(START, "65", "13/7 8/3 6/1"))
    assert "3 moves" in message and "at most two" in message


def test_wrong_direction() -> None:
    message = str(error_of(START, "65", "13/18 8/3"))
    assert message.startswith("13/18 goes the wrong way")


def test_hit_mark_where_there_is_no_blot() -> None:
    message = str(error_of(START, "61", "13/7* 8/7"))
    assert "no opposing checker on your 7 point" in message


def test_no_legal_move() -> None:
    """002 'MOVEMENT OF PIECES' rule 4: when neither number can be used, the turn is lost."""
    black = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2}
    pos = board({6: 14}, black, white_bar=1)
    assert str(error_of(pos, "66", "bar/19")) == "No legal move with 6-6: you can't move this turn."
    empty = resolve_play(pos, W, Dice(6, 5), "")
    assert empty.moves == () and empty.position == pos
    assert resolve_play(pos, W, Dice(6, 5), "no move").position == pos


def test_notation_errors_pass_through() -> None:
    with pytest.raises(NotationError):
        resolve_play(START, W, Dice(6, 5), "24/1x")


# ---------------------------------------------------------------- autocomplete


def test_prefix_matches_partial_last_move() -> None:
    found = plays_matching_prefix(START, W, Dice(6, 5), "24/1")
    assert [format_play(p) for p in found] == ["24/13", "24/18 13/8", "24/18 8/3"]


def test_prefix_after_complete_moves_includes_continuations() -> None:
    found = {format_play(p) for p in plays_matching_prefix(START, W, Dice(3, 1), "8/5 ")}
    assert found == {"8/5 6/5", "8/7 8/5", "8/4", "24/23 8/5"}


def test_prefix_of_nothing_is_every_play_up_to_the_limit() -> None:
    assert len(plays_matching_prefix(START, W, Dice(3, 1), "")) == 16
    assert len(plays_matching_prefix(START, W, Dice(3, 3), "", limit=25)) == 25


def test_prefix_with_unreadable_moves_is_empty() -> None:
    assert plays_matching_prefix(START, W, Dice(3, 1), "zz 8/5") == []
    assert plays_matching_prefix(START, W, Dice(3, 1), "13/18 ") == []


# ---------------------------------------------------------------- round trip

dice_values = st.integers(1, 6)


@st.composite
def game_states(draw: st.DrawFn) -> tuple[Position, Player, Dice]:
    """A position reached by random legal plays from the start, the player to move, a roll."""
    position, player = START, W
    for _ in range(draw(st.integers(0, 60))):
        d1, d2 = draw(dice_values), draw(dice_values)
        plays = legal_plays(position, player, d1, d2)
        position = plays[draw(st.integers(0, len(plays) - 1))].position
        if position.is_finished(player):
            break
        player = player.other
    if position.is_finished(player.other):
        player = player.other
    return position, player, Dice(draw(dice_values), draw(dice_values))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game_states())
def test_canonical_text_resolves_back_to_the_same_play(
    state: tuple[Position, Player, Dice],
) -> None:
    position, player, dice = state
    plays = legal_plays(position, player, dice.first, dice.second)
    for play in plays:
        text = format_play(play)
        resolved = resolve_play(position, player, dice, text, plays)
        assert resolved == play, (text, resolved)
        assert resolved.position == play.position


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game_states())
def test_single_moves_in_reverse_order_resolve_to_the_same_play(
    state: tuple[Position, Player, Dice],
) -> None:
    position, player, dice = state
    plays = legal_plays(position, player, dice.first, dice.second)
    for play in plays:
        text = " ".join(str(m) for m in reversed(play.moves))
        assert resolve_play(position, player, dice, text, plays) == play, text


@st.composite
def scattered_positions(draw: st.DrawFn) -> tuple[Position, Player, Dice]:
    """Any legal placement (bar, blots, bear-offs), many checkers near home."""
    slot = st.one_of(st.integers(0, 25), st.integers(0, 6), st.integers(0, 6))
    white = [0] * 27
    for i in draw(st.lists(slot, min_size=15, max_size=15)):
        white[i] += 1
    free = [i for i in range(26) if not (1 <= i <= 24 and white[25 - i])]
    black = [0] * 27
    for i in draw(st.lists(st.one_of(st.sampled_from(free), st.sampled_from(free)),
                           min_size=15, max_size=15)):
        black[i] += 1
    player = draw(st.sampled_from([W, B]))
    return Position.from_sides(white, black), player, Dice(draw(dice_values), draw(dice_values))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scattered_positions())
def test_canonical_text_round_trip_on_scattered_positions(
    state: tuple[Position, Player, Dice],
) -> None:
    position, player, dice = state
    plays = legal_plays(position, player, dice.first, dice.second)
    for play in plays:
        text = format_play(play)
        assert resolve_play(position, player, dice, text, plays) == play, text


point_names = st.sampled_from(["bar", *(str(i) for i in range(24, 0, -1)), "off"])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scattered_positions(), st.lists(st.tuples(point_names, point_names), max_size=4))
def test_any_typed_moves_give_a_legal_play_or_an_explanation(
    state: tuple[Position, Player, Dice], pairs: list[tuple[str, str]],
) -> None:
    position, player, dice = state
    plays = legal_plays(position, player, dice.first, dice.second)
    text = " ".join(f"{a}/{b}" for a, b in pairs)
    canonical = {format_play(p) for p in plays}
    try:
        play = resolve_play(position, player, dice, text, plays)
    except (AmbiguousPlayError, IncompletePlayError) as error:
        assert error.candidates and set(error.candidates) <= canonical
    except (IllegalPlayError, NotationError) as error:
        assert str(error)
    else:
        assert play in plays

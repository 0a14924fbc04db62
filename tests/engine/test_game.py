"""The game state machine: scripted games with fixed dice.

Sources are cited per test: 001_1fd58179962334fd.txt, 002_de81a0fe2cc80ee1.txt,
000_54e59ca1d76a5da3.txt, 003_0f278e3a5d776312.txt, 004_8ad0f3fa7d887f72.txt.
"""

from __future__ import annotations

import pytest

from engine.dice import Dice
from engine.errors import CubeError, IllegalPlayError, RuleOptionError, WrongPhaseError
from engine.game import Action, Game, Phase
from engine.move import Move, Play
from engine.player import Player
from engine.position import Position, make_side
from engine.record import GameRecord
from engine.rules import OpeningMethod, RuleOptions
from engine.scoring import EndReason, ResultKind
from engine.variant import Choice, EndTurn, Stage, ThrowAgain, TurnContext, Variant
from engine.variant import Step as VariantStep

W, B = Player.WHITE, Player.BLACK


def play_by_moves(game: Game, *moves: tuple[int, int]) -> Game:
    """Play these (src, dst) moves (hits are marked by the engine's generic apply)."""
    assert game.turn is not None
    opp = game.position.sides[game.turn.other]
    return game.play_moves([Move(s, d, 1 <= d <= 24 and opp[25 - d] == 1) for s, d in moves])


def actions(game: Game) -> set[tuple[Player, Action]]:
    """Available actions other than resigning (always open to both players)."""
    return {a for a in game.available_actions() if a[1] is not Action.RESIGN}


def started(white: int = 3, black: int = 1, rules: RuleOptions | None = None) -> Game:
    return Game.new("standard", rules or RuleOptions()).opening_roll(white, black)


def white_to_roll() -> Game:
    """White won the opening with 3-1 and made his 8/5 6/5 point; black played 2-1."""
    g = started(3, 1)
    g = play_by_moves(g, (8, 5), (6, 5))
    g = g.roll((2, 1))
    g = play_by_moves(g, (13, 11), (24, 23))
    assert g.phase is Phase.ROLL and g.turn is W
    return g


# -- the opening ----------------------------------------------------------------

def test_opening_one_die_higher_plays_both() -> None:
    """001_1fd58179962334fd.txt 'RULES': "each player rolls one die, and the player with
    the higher number moves first using both the numbers shown" (002 likewise)."""
    g = Game.new().opening_roll(2, 6)
    assert (g.phase, g.turn, g.dice) == (Phase.PLAY, B, Dice(6, 2))
    assert g.stage_dice == (6, 2)
    assert g.opening_turn


def test_opening_tie_throws_again_without_automatic_doubles() -> None:
    """003_0f278e3a5d776312.txt ch.3 III 1: "In case both players throw the same number,
    they throw again"."""
    g = Game.new().opening_roll(4, 4)
    assert (g.phase, g.cube.value, g.automatic_doubles) == (Phase.OPENING, 1, 0)
    assert g.available_actions() >= {(W, Action.OPENING_ROLL), (B, Action.OPENING_ROLL)}


@pytest.mark.parametrize(
    ("cap", "ties", "cube"),
    [(1, 1, 2), (1, 3, 2), (2, 3, 4), (None, 3, 8), (None, 1, 2)],
)
def test_automatic_doubles_with_cap(cap: int | None, ties: int, cube: int) -> None:
    """002_de81a0fe2cc80ee1.txt 'OPTIONAL RULES' Automatic Doubles ("Players usually
    agree to limit the number of automatic doubles to one per game"); 003 ch.4 I 1
    ("This may happen again on the next throw, in which case the score again
    automatically doubles"); 000 'ADDITIONAL RULES' 5."""
    g = Game.new("standard", RuleOptions(automatic_doubles=True, automatic_doubles_cap=cap))
    for _ in range(ties):
        g = g.opening_roll(5, 5)
    g = g.opening_roll(5, 3)
    assert g.cube.value == cube and g.cube.owner is None
    assert g.automatic_doubles == {2: 1, 4: 2, 8: 3}[cube]


def test_automatic_double_does_not_count_as_an_offered_double_for_jacoby() -> None:
    """002 'OPTIONAL RULES': automatic doubles leave the cube in the middle; the Jacoby
    rule looks at whether "neither player has offered a double"."""
    g = Game.new("standard", RuleOptions(automatic_doubles=True, jacoby=True))
    g = g.opening_roll(2, 2)
    assert g.cube.value == 2 and not g.cube.turned


def test_no_automatic_doubles_in_crawford_game() -> None:
    g = Game.new("standard", RuleOptions(automatic_doubles=True), money=False, crawford=True)
    g = g.opening_roll(3, 3).opening_roll(3, 1)
    assert g.cube.value == 1


def test_opening_one_die_rethrow() -> None:
    """003_0f278e3a5d776312.txt ch.3 III 1, Exception: "Some permit the winner to throw a
    second time, allowing the throw of his own pair of dice to govern the opening move"."""
    g = Game.new("standard", RuleOptions(opening=OpeningMethod.ONE_DIE_RETHROW))
    g = g.opening_roll(2, 6)
    assert (g.phase, g.turn) == (Phase.ROLL, B)
    assert g.available_actions() >= {(B, Action.ROLL)}
    assert (B, Action.DOUBLE) not in g.available_actions()
    g = g.roll((4, 1))
    assert (g.phase, g.dice, g.stage_dice) == (Phase.PLAY, Dice(4, 1), (4, 1))


@pytest.mark.parametrize("answer", ["play", "throw again"])
def test_opening_two_dice_play_or_throw_again(answer: str) -> None:
    """000_54e59ca1d76a5da3.txt 'ADDITIONAL RULES' 4(b): "Each player throws two dice.
    The highest number wins, and for his first move may either play the throw he has
    already made, or throw again"; 003 ch.3 III 2."""
    g = Game.new("standard", RuleOptions(opening=OpeningMethod.TWO_DICE_CHOICE))
    g = g.opening_roll((3, 1), (6, 5))
    assert (g.phase, g.turn) == (Phase.CHOICE, B)
    assert g.pending_choice is not None and g.pending_choice.options == ("play", "throw again")
    g = g.choose(answer, B)
    if answer == "play":
        assert (g.phase, g.stage_dice) == (Phase.PLAY, (6, 5))
    else:
        assert g.phase is Phase.ROLL and not g.may_double(B)
        g = g.roll((2, 1))
        assert g.stage_dice == (2, 1)


def test_opening_two_dice_equal_totals_is_a_tie() -> None:
    """000 'ADDITIONAL RULES' 4(b) and 5: the highest number wins; each tie doubles."""
    g = Game.new("standard", RuleOptions(opening=OpeningMethod.TWO_DICE_RETHROW,
                                         automatic_doubles=True))
    g = g.opening_roll((4, 2), (3, 3))
    assert (g.phase, g.cube.value) == (Phase.OPENING, 2)


def test_opening_two_dice_rethrow() -> None:
    """004_8ad0f3fa7d887f72.txt 'HOW TO PLAY': "each player throws BOTH DICE once in turn
    and the one having the HIGHEST count ... starts the play. The player who is to start
    now throws Both Dice again"."""
    g = Game.new("standard", RuleOptions(opening=OpeningMethod.TWO_DICE_RETHROW))
    g = g.opening_roll((6, 6), (1, 2))
    assert (g.phase, g.turn) == (Phase.ROLL, W)
    assert g.roll((5, 2)).stage_dice == (5, 2)


def test_opening_wrong_number_of_dice() -> None:
    with pytest.raises(ValueError, match="one die each"):
        Game.new().opening_roll((3, 1), (6, 5))


def test_opening_only_once() -> None:
    with pytest.raises(WrongPhaseError, match="already been made"):
        started().opening_roll(3, 1)


# -- rolling and playing ---------------------------------------------------------

def test_must_roll_before_moving() -> None:
    g = white_to_roll()
    with pytest.raises(WrongPhaseError, match="You must roll before moving"):
        g.play(Play((), (), g.position))


def test_cannot_roll_twice() -> None:
    g = white_to_roll().roll((6, 4))
    with pytest.raises(WrongPhaseError, match="already rolled"):
        g.roll((6, 4))


def test_not_your_turn() -> None:
    g = white_to_roll()
    with pytest.raises(WrongPhaseError, match="not your turn"):
        g.roll((6, 4), B)


def test_illegal_play_refused() -> None:
    """002 'MOVEMENT OF PIECES' 1: never onto a point held by two or more opponents."""
    g = started(6, 5)
    blocked = Play((Move(24, 18),), (6,), Position.standard())
    with pytest.raises(IllegalPlayError, match="not legal with 6-5"):
        g.play(blocked)


def test_play_is_looked_up_by_resulting_position() -> None:
    """A play is identified by the position it produces (engine.move)."""
    g = started(3, 1)
    target = next(p for p in g.legal_plays()
                  if sorted((m.src, m.dst) for m in p.moves) == [(6, 5), (8, 5)])
    other_order = Play((Move(6, 5), Move(8, 5)), (1, 3), target.position)
    g2 = g.play(other_order)
    assert g2.position == target.position and g2.turn is B


def test_no_legal_move_passes_the_turn() -> None:
    """001_1fd58179962334fd.txt 'RULES': "If players cannot move either die in a roll ...
    then that turn is over and the turn passes to the opponent"."""
    black = make_side({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2}, off=3)
    white = make_side({6: 14}, bar=1)
    g = Game.new(position=Position.from_sides(white, black), first_player=W)
    g = g.roll((6, 5))
    assert (g.phase, g.turn) == (Phase.ROLL, B)
    assert g.position == Position.from_sides(white, black)


# -- the cube ----------------------------------------------------------------------

def test_double_take_and_the_doubler_rolls() -> None:
    """002_de81a0fe2cc80ee1.txt 'DOUBLING': double at the start of one's turn before
    rolling; "A player who accepts a double becomes the owner of the cube"."""
    g = white_to_roll().double(W)
    assert g.phase is Phase.DOUBLED and g.awaiting is B
    assert actions(g) == {(B, Action.TAKE), (B, Action.DROP)}
    g = g.take(B)
    assert (g.phase, g.turn, g.cube.value, g.cube.owner) == (Phase.ROLL, W, 2, B)
    assert not g.may_double(W)  # the cube is black's now
    g = play_by_moves(g.roll((6, 4)), (24, 18), (13, 9))
    assert g.turn is B and g.may_double(B)
    g = play_by_moves(g.roll((2, 1)), (13, 11), (11, 10))
    assert g.turn is W and (W, Action.DOUBLE) not in actions(g)
    with pytest.raises(CubeError, match="Only the cube owner may redouble"):
        g.double(W)


def test_double_after_rolling_refused() -> None:
    """002 'DOUBLING': "He may do this only at the start of his own turn and before he
    has rolled the dice"."""
    g = white_to_roll().roll((6, 4))
    with pytest.raises(CubeError, match="You can only double before rolling"):
        g.double(W)


def test_double_on_opponents_turn_refused() -> None:
    with pytest.raises(WrongPhaseError, match="start of your own turn"):
        white_to_roll().double(B)


def test_double_before_the_game_started_refused() -> None:
    with pytest.raises(WrongPhaseError):
        Game.new().double(W)


def test_redouble_and_drop_loses_the_previous_value() -> None:
    """001_1fd58179962334fd.txt 'THE DOUBLING TRACK': "if the counter was on '8', and a
    player wanted to redouble the stakes to put it at '16', the opponent choosing to drop
    the redouble would lose a '8' points game"."""
    g = white_to_roll().double(W).take(B)                     # 2, black owns
    g = play_by_moves(g.roll((6, 4)), (24, 18), (13, 9))
    g = g.double(B).take(W)                                   # 4, white owns
    g = play_by_moves(g.roll((2, 1)), (13, 11), (11, 10))
    g = g.double(W).take(B)                                   # 8, black owns
    g = play_by_moves(g.roll((3, 1)), (8, 5), (6, 5))
    g = g.double(B)                                           # offers 16
    g = g.drop(W)
    assert g.result is not None
    assert (g.result.winner, g.result.points, g.result.reason) == (B, 8, EndReason.DROP)
    assert g.phase is Phase.FINISHED and g.available_actions() == frozenset()


def test_first_double_dropped_pays_one_point() -> None:
    """002 'DOUBLING': "A player who is offered a double may refuse, in which case he
    concedes the game and pays one point"."""
    g = white_to_roll().double(W).drop(B)
    assert g.result is not None and (g.result.winner, g.result.points) == (W, 1)


def test_beaver_then_take() -> None:
    """002_de81a0fe2cc80ee1.txt 'OPTIONAL RULES' Beavers."""
    g = white_to_roll()
    g = Game.replay(g.record, "standard", RuleOptions(beavers=True))
    g = g.double(W)
    assert (B, Action.BEAVER) in g.available_actions()
    g = g.beaver(B)
    assert g.phase is Phase.DOUBLED and g.awaiting is W
    assert actions(g) == {(W, Action.TAKE), (W, Action.DROP)}
    g = g.take(W)
    assert (g.cube.value, g.cube.owner, g.turn, g.phase) == (4, B, W, Phase.ROLL)


def test_beaver_then_drop() -> None:
    """002 'OPTIONAL RULES' Beavers: "The original doubler has the option of accepting or
    refusing as with a normal double" -- refusing pays the stake before the redouble."""
    g = Game.replay(white_to_roll().record, "standard", RuleOptions(beavers=True))
    g = g.double(W).beaver(B).drop(W)
    assert g.result is not None and (g.result.winner, g.result.points) == (B, 2)


def test_beaver_not_allowed_by_default() -> None:
    g = white_to_roll().double(W)
    with pytest.raises(CubeError, match="Beavers are not allowed"):
        g.beaver(B)


@pytest.mark.parametrize("option", ["jacoby", "beavers"])
def test_money_only_options_refused_in_a_match(option: str) -> None:
    """002 'OPTIONAL RULES': beavers and the Jacoby rule belong to play for a stake."""
    with pytest.raises(RuleOptionError, match="money"):
        Game.new("standard", RuleOptions.from_dict({option: "on"}), money=False)


def test_max_cube() -> None:
    g = Game.replay(white_to_roll().record, "standard", RuleOptions(max_cube=2))
    g = g.double(W).take(B)
    g = play_by_moves(g.roll((6, 4)), (24, 18), (13, 9))
    assert not g.may_double(B)
    with pytest.raises(CubeError, match="maximum of 2"):
        g.double(B)


def test_cube_dead_in_crawford_game() -> None:
    """The Crawford rule (rule option 'crawford'): no doubling in the Crawford game."""
    g = Game.new("standard", money=False, crawford=True).opening_roll(3, 1)
    g = play_by_moves(g, (8, 5), (6, 5))
    with pytest.raises(CubeError, match="The cube is dead in the Crawford game"):
        g.double(B)
    assert (B, Action.DOUBLE) not in g.available_actions()


def test_no_cube() -> None:
    g = Game.replay(white_to_roll().record, "standard", RuleOptions(cube=False))
    with pytest.raises(CubeError, match="without the doubling cube"):
        g.double(W)


def test_no_double_to_take() -> None:
    with pytest.raises(WrongPhaseError, match="There is no double to take"):
        white_to_roll().take(B)


# -- resignation and forfeit -------------------------------------------------------

@pytest.mark.parametrize(("kind", "points"), [(ResultKind.SINGLE, 2),
                                             (ResultKind.GAMMON, 4),
                                             (ResultKind.BACKGAMMON, 6)])
def test_resignation_accepted(kind: ResultKind, points: int) -> None:
    """002 'GAMMONS AND BACKGAMMONS': a gammon loses twice and a backgammon three times
    the value of the doubling cube."""
    g = white_to_roll().double(W).take(B).resign(B, kind)
    assert g.phase is Phase.RESIGNATION
    assert g.available_actions() == {(W, Action.ACCEPT_RESIGNATION),
                                     (W, Action.REJECT_RESIGNATION)}
    with pytest.raises(WrongPhaseError, match="your opponent must answer"):
        g.answer_resignation(B, True)
    g = g.answer_resignation(W, True)
    assert g.result is not None
    assert (g.result.winner, g.result.kind, g.result.points, g.result.reason) == (
        W, kind, points, EndReason.RESIGNATION)


def test_resignation_refused_resumes_play() -> None:
    g = white_to_roll().roll((6, 4))
    g2 = g.resign(B, ResultKind.SINGLE)
    with pytest.raises(WrongPhaseError, match="resignation"):
        g2.play(g.legal_plays()[0])
    g3 = g2.answer_resignation(W, False)
    assert g3.phase is Phase.PLAY and g3.legal_plays() == g.legal_plays()


def test_forfeit() -> None:
    g = white_to_roll().forfeit(B)
    assert g.result is not None
    assert (g.result.winner, g.result.reason, g.result.points) == (W, EndReason.FORFEIT, 1)
    with pytest.raises(WrongPhaseError, match="The game is over"):
        g.roll((1, 2))


# -- the end of the game: gammons, backgammons, Jacoby --------------------------------

def end_position(black: tuple[int, ...], jacoby: bool = False, money: bool = True,
                 backgammon_value: int = 3) -> Game:
    """White has one man left on his 1-point and is on roll."""
    rules = RuleOptions(jacoby=jacoby, backgammon_value=backgammon_value)
    return Game.new("standard", rules, money=money, first_player=W,
                    position=Position.from_sides(make_side({1: 1}), black))


def bear_off(g: Game) -> Game:
    g = g.roll((2, 1))
    return g.play(g.legal_plays()[0])


@pytest.mark.parametrize(
    ("black", "kind", "points"),
    [
        (make_side({5: 14}, off=1), ResultKind.SINGLE, 1),
        (make_side({5: 15}), ResultKind.GAMMON, 2),
        (make_side({5: 14, 20: 1}), ResultKind.BACKGAMMON, 3),
        (make_side({5: 14}, bar=1), ResultKind.BACKGAMMON, 3),
        (make_side({5: 13}, bar=1, off=1), ResultKind.SINGLE, 1),
    ],
)
def test_game_end_kinds(black: tuple[int, ...], kind: ResultKind, points: int) -> None:
    """002_de81a0fe2cc80ee1.txt 'GAMMONS AND BACKGAMMONS'; 000 'SCORING' ("Should a
    player, having borne a man, be taken up, he can only lose a single")."""
    g = bear_off(end_position(black))
    assert g.result is not None
    assert (g.result.winner, g.result.kind, g.result.points) == (W, kind, points)
    assert g.result.reason is EndReason.BORNE_OFF


def test_backgammon_quadruple_by_agreement() -> None:
    """000_54e59ca1d76a5da3.txt 'SCORING': "a triple or quadruple game (according to
    agreement)"."""
    g = bear_off(end_position(make_side({5: 14, 20: 1}), backgammon_value=4))
    assert g.result is not None and g.result.points == 4


def test_jacoby_gammon_counts_single_without_a_double() -> None:
    """002_de81a0fe2cc80ee1.txt 'OPTIONAL RULES' The Jacoby Rule: "Gammons and
    backgammons count only as a single game if neither player has offered a double"."""
    g = bear_off(end_position(make_side({5: 15}), jacoby=True))
    assert g.result is not None
    assert (g.result.kind, g.result.counted, g.result.points) == (
        ResultKind.GAMMON, ResultKind.SINGLE, 1)


def test_jacoby_gammon_counts_after_a_double() -> None:
    """002 'OPTIONAL RULES' The Jacoby Rule (a double was offered and taken)."""
    g = end_position(make_side({5: 15}), jacoby=True).double(W).take(B)
    g = bear_off(g)
    assert g.result is not None and (g.result.counted, g.result.points) == (
        ResultKind.GAMMON, 4)


# -- the Variant interface: steps, choices, extra throws ---------------------------------

class DoubletsAgain(Variant):
    """A test variant on the standard board: after 1-2 the player plays the 1 and the
    2, names a doublet and plays it, then throws again (like acey-deucy); after any
    other doublet he throws again once."""

    name = "test-doublets-again"
    title = "Test"

    def initial_position(self) -> Position:
        return Position.standard()

    def next_step(self, turn: TurnContext) -> VariantStep:
        dice = turn.dice
        if not turn.plays:
            if {dice.first, dice.second} == {1, 2}:
                return Stage((1, 2), "the 1 and the 2",
                             "After acey-deucy you must first play the 1 and the 2.")
            return Stage(dice.moves())
        if {dice.first, dice.second} == {1, 2}:
            if not turn.choices:
                return Choice("doublet", "Name a doublet.", tuple("123456"))
            if len(turn.plays) == 1:
                n = int(turn.choices[0])
                return Stage((n,) * 4, f"double {n}s")
            return ThrowAgain("acey-deucy")
        if dice.is_double and len(turn.throws) == 1:
            return ThrowAgain("doublet")
        return EndTurn()


def test_variant_choice_and_extra_throw() -> None:
    """The Variant interface expresses acey-deucy's 1-2 (000 'ACEY-DEUCY' 1-3): play the
    1 and the 2, choose a doublet, play it, throw again -- with no cube action between."""
    g = Game.new(DoubletsAgain()).opening_roll(3, 1)
    g = play_by_moves(g, (8, 5), (6, 5))
    g = g.roll((1, 2))
    assert g.stage is not None and g.stage.label == "the 1 and the 2"
    with pytest.raises(IllegalPlayError, match="After acey-deucy you must first play"):
        g.play(Play((), (), g.position))
    g = play_by_moves(g, (6, 5), (8, 6))
    assert g.phase is Phase.CHOICE and g.available_actions() >= {(B, Action.CHOOSE)}
    with pytest.raises(IllegalPlayError, match="Choose one of: 1, 2, 3, 4, 5, 6"):
        g.choose("7")
    with pytest.raises(WrongPhaseError, match="Choose first"):
        g.roll((3, 3))
    g = g.choose("4")
    assert g.stage_dice == (4, 4, 4, 4)
    g = play_by_moves(g, (13, 9), (13, 9), (9, 5), (9, 5))
    assert (g.phase, g.turn, g.extra_throw) == (Phase.ROLL, B, True)
    assert not g.may_double(B)
    with pytest.raises(CubeError, match="middle of a turn"):
        g.double(B)
    g = g.roll((6, 5))
    assert g.throws == (Dice(1, 2), Dice(6, 5))
    g = play_by_moves(g, (13, 7), (13, 8))
    assert g.turn is W and g.phase is Phase.ROLL
    replayed = Game.replay(g.record, DoubletsAgain())
    assert replayed == g


# -- the record ------------------------------------------------------------------------

def scripted_game() -> Game:
    g = Game.new("standard", RuleOptions(beavers=True, automatic_doubles=True))
    g = g.opening_roll(4, 4).opening_roll(3, 1)
    g = play_by_moves(g, (8, 5), (6, 5))
    g = g.double(B).beaver(W).take(B)
    g = g.roll((6, 6))
    g = play_by_moves(g, (24, 18), (24, 18), (13, 7), (13, 7))
    g = g.resign(B, ResultKind.SINGLE).answer_resignation(W, False)
    g = g.roll((5, 2))
    g = g.resign(W, ResultKind.GAMMON).answer_resignation(B, True)
    return g


def test_scripted_record_replays_exactly() -> None:
    g = scripted_game()
    assert g.result is not None
    # opening tie doubled to 2 (automatic), black doubled to 4, white beavered to 8:
    assert (g.cube.value, g.cube.owner) == (8, W)
    assert (g.result.winner, g.result.points) == (B, 16)
    assert [e.type for e in g.record] == [
        "opening", "opening", "play", "double", "beaver", "take", "roll", "play",
        "resign", "resign-answer", "roll", "resign", "resign-answer", "end"]
    assert Game.replay(g.record, "standard", g.rules) == g


def test_record_to_dict_round_trip() -> None:
    g = scripted_game()
    data = g.to_dict()
    assert data["format"] == 1 and data["variant"] == "standard"
    assert data["events"][0] == {"type": "opening", "white": [4], "black": [4]}
    assert data["events"][2] == {"type": "play", "player": "white",
                                 "moves": [[8, 5, False], [6, 5, False]]}
    record = GameRecord.from_dict(data)
    assert record.to_dict() == data
    assert Game.from_record(record) == g


def test_set_up_position_is_recorded() -> None:
    g = bear_off(end_position(make_side({5: 15})))
    again = Game.from_record(GameRecord.from_dict(g.to_dict()))
    assert again == g and again.result == g.result


def test_variant_registry() -> None:
    from engine.variant import StandardBackgammon, get_variant

    assert get_variant("Standard") is StandardBackgammon
    assert get_variant("backgammon") is StandardBackgammon
    with pytest.raises(RuleOptionError, match="Unknown variant 'tric-trac'"):
        get_variant("tric-trac")

"""Rules fidelity, second pass (issue 15): each clause read as the books word it.

Every test cites its book (file name and section) and fails on the engine before
this pass.  Rule options are given by name, as a user types them, through
:meth:`RuleOptions.from_dict`.

Books: 000_54e59ca1d76a5da3.txt (1973, Acey-Deucy), 001_1fd58179962334fd.txt,
002_de81a0fe2cc80ee1.txt, 003_0f278e3a5d776312.txt (Boyden 1930),
004_8ad0f3fa7d887f72.txt (Parker Brothers).
"""

from __future__ import annotations

import pytest

from engine.dice import Dice
from engine.errors import CubeError, IllegalPlayError, RuleOptionError
from engine.game import Game, Phase
from engine.move import Move, Play
from engine.player import Player
from engine.position import BAR, OFF, WAITING, Position, make_side
from engine.rules import DEFAULT_RULES, RuleOptions, ScoringMethod
from engine.scoring import EndReason, ResultKind, Zone, base_points
from engine.variant import Stage, TurnContext, get_variant

W, B = Player.WHITE, Player.BLACK


def rules(**options: str) -> RuleOptions:
    return RuleOptions.from_dict(options)


def pos(white: dict[int, int], black: dict[int, int], *, waiting: int = 0, bar: int = 0,
        black_waiting: int = 0, black_bar: int = 0) -> Position:
    return Position.from_sides(make_side(white, waiting=waiting, bar=bar),
                               make_side(black, waiting=black_waiting, bar=black_bar))


def game_at(variant: str, position: Position, options: RuleOptions = DEFAULT_RULES,
            player: Player = W) -> Game:
    return Game.new(variant, options, first_player=player, position=position)


def white_points(play: Play) -> dict[int, int]:
    side = play.position.sides[W]
    return {i: side[i] for i in range(1, 25) if side[i]}


def stage_plays(variant: str, position: Position, dice: tuple[int, ...],
                options: RuleOptions = DEFAULT_RULES, player: Player = W) -> list[Play]:
    v = get_variant(variant)()
    turn = TurnContext(player, (Dice(dice[0], dice[-1]),), (), (), position, rules=options)
    return v.legal_plays(position, player, Stage(dice), turn)


# -- 1. Acey-Deucy while setting up (000 'SETTING UP THE MEN') -----------------------


def test_acey_deucy_from_the_start_places_a_man_on_the_ace_and_deuce_points() -> None:
    # 000 'SETTING UP THE MEN': "If you throw Acey-Deucy ... while setting up your men,
    # you MUST first place one man on your Ace point and one on your Deuce point."
    g = game_at("acey-deucey", Position.empty()).roll(Dice(1, 2))
    assert g.phase is Phase.PLAY
    assert [white_points(p) for p in g.legal_plays()] == [{24: 1, 23: 1}]
    assert all(m.src == WAITING for p in g.legal_plays() for m in p.moves)
    g = g.play(g.legal_plays()[0])
    assert g.phase is Phase.CHOICE  # then the doublet, as the book goes on


def test_acey_deucy_while_setting_up_refuses_moves_of_men_on_the_board() -> None:
    # 000 'SETTING UP THE MEN': two moves of men already on the board do not place
    # the men; the refusal names the clause.
    start = pos({13: 5}, {6: 15}, waiting=10)
    g = game_at("acey-deucey", start).roll(Dice(2, 1))
    assert all(white_points(p)[13] == 5 for p in g.legal_plays())
    with pytest.raises(IllegalPlayError, match="SETTING UP THE MEN"):
        g.play_moves((Move(13, 11), Move(13, 12)))


def test_acey_deucy_with_the_ace_point_blocked_loses_the_throw() -> None:
    # 000 'SETTING UP THE MEN': "(If you cannot take Acey-Deucy you lose the throw.)"
    # Black holds white's ace point (black's 1-point = white's 24): no doublet, no
    # extra throw, the turn passes.
    start = pos({}, {1: 2}, waiting=15, black_waiting=13)
    g = game_at("acey-deucey", start).roll(Dice(1, 2))
    assert g.phase is Phase.ROLL and g.turn is B
    assert g.position == start


def test_acey_deucy_with_one_man_left_to_enter_brings_him_in() -> None:
    # 000 'SETTING UP THE MEN', with one man left (the book is silent; documented in
    # engine/variants/acey_deucey.py): he enters with the 1 or the 2 and the other
    # number moves any man; both numbers are compulsory (000 'ACEY-DEUCY' 4).
    start = pos({13: 14}, {6: 15}, waiting=1)
    g = game_at("acey-deucey", start).roll(Dice(1, 2))
    plays = g.legal_plays()
    assert plays and all(len(p.moves) == 2 for p in plays)
    assert all(any(m.src == WAITING for m in p.moves) for p in plays)
    assert {13: 13, 11: 1, 24: 1} in [white_points(p) for p in plays]


# -- 2. The last man on the ace point (000 'WINNING THE GAME') ---------------------


def test_acey_deucy_bearing_off_the_last_man_wins() -> None:
    # 000 'THE GAME OF ACEY-DEUCY', 'WINNING THE GAME': "The player who has 'Taken
    # Off' all his men first is the winner" -- rule 4 ("loses the whole throw") does
    # not keep him on the board.
    start = pos({1: 1}, {6: 15})
    g = game_at("acey-deucey", start).roll(Dice(1, 2))
    if g.phase is Phase.PLAY:
        g = g.play(g.legal_plays()[0])
    assert g.is_finished and g.result is not None
    assert g.result.winner is W and g.result.reason is EndReason.BORNE_OFF
    assert g.position.sides[W][OFF] == 15


# -- 3. A kicked-off man (000 'KICKING-OFF', 'MOVES: Same as Backgammon') -----------


def test_kicked_off_man_reenters_before_any_other_move_by_default() -> None:
    # 000 'KICKING-OFF': "must be re-entered again same as in starting the game";
    # 'MOVES: Same as Backgammon' brings in 000 'HITTING "BLOTS"': "A player cannot
    # move any other man while he has a blotted man off the board."
    start = pos({}, {13: 14, 4: 1}, waiting=15, black_waiting=0)  # black's 4 = white's 21
    g = game_at("acey-deucey", start).roll(Dice(4, 3))
    kick = next(p for p in g.legal_plays() if white_points(p).get(21))
    g = g.play(kick)
    assert g.position.sides[B][BAR] == 1 and g.turn is B
    g = g.roll(Dice(5, 6))
    assert g.legal_plays() and all(p.moves[0].src == BAR for p in g.legal_plays())


def test_kicked_off_man_may_rejoin_the_reserve_by_option() -> None:
    # Rule option kicked_off = reserve: he rejoins the men not yet entered (000
    # 'KICKING-OFF' read alone) and other men may move first.
    reserve = rules(kicked_off="reserve")
    start = pos({}, {13: 14, 4: 1}, waiting=15)
    g = game_at("acey-deucey", start, reserve).roll(Dice(4, 3))
    g = g.play(next(p for p in g.legal_plays() if white_points(p).get(21)))
    assert g.position.sides[B][BAR] == 0 and g.position.sides[B][WAITING] == 1
    g = g.roll(Dice(5, 6))
    assert any(all(m.src != WAITING for m in p.moves) for p in g.legal_plays())


# -- 4. Gammons in Acey-Deucey (the section is silent) ------------------------------


def _acey_finish(options: RuleOptions) -> Game:
    # White bears off his last man while black still keeps a man in reserve.
    start = pos({2: 1}, {13: 14}, black_waiting=1)
    g = game_at("acey-deucey", start, options).roll(Dice(3, 5))
    return g.play(g.legal_plays()[0])


def test_acey_deucey_scoring_is_explicit_and_an_option() -> None:
    # 000 'THE GAME OF ACEY-DEUCY' says nothing of gammons; by default they count as
    # in backgammon (000 'SCORING'), a man kept in reserve ('RULES FOR PLAYING' Note)
    # counting like one on the bar; acey_deucey_gammons = off scores single games.
    g = _acey_finish(DEFAULT_RULES)
    assert g.result is not None and g.result.counted is ResultKind.BACKGAMMON
    g = _acey_finish(rules(acey_deucey_gammons="off"))
    assert g.result is not None and g.result.counted is ResultKind.SINGLE
    assert g.result.points == 1
    described = " ".join(rules(acey_deucey_gammons="off").describe("acey-deucey"))
    assert "single game" in described
    assert any("gammon" in line for line in get_variant("acey-deucey")().describe())


# -- 5. Acey-Deucey 1930: the 1-2 is not all-or-nothing (003 ch.12) ------------------


def test_1930_acey_deucy_plays_what_it_can_then_names_the_doublet() -> None:
    # 003 ch.12: "the player advances men for the Ace and Deuce. He then selects any
    # doublet ... He is then permitted another throw."  No "loses the whole throw"
    # here (that is 000 'ACEY-DEUCY' 4).  Black holds white's 12 and 10 points
    # (black's 13 and 15): from 13 only the 2 can be played.
    start = pos({13: 1}, {13: 2, 15: 2, 6: 11}, waiting=0)
    g = game_at("acey-deucey-1930", start).roll(Dice(1, 2))
    assert [white_points(p) for p in g.legal_plays()] == [{11: 1}]
    g = g.play(g.legal_plays()[0])
    choice = g.pending_choice
    assert g.phase is Phase.CHOICE and choice is not None and choice.kind == "doublet"
    # The extra throw follows only when both sides of the doublet are played in
    # full: four 1s cannot be played from 11 (black holds 10), so the turn ends.
    g = g.choose("1")
    assert g.phase is Phase.ROLL and g.turn is B


def test_1930_acey_deucy_extra_throw_after_the_doublet_in_full() -> None:
    # 003 ch.12: "He is then permitted another throw" -- after both sides of the
    # named doublet (as for every doublet, "as in Russian Backgammon").
    start = pos({13: 1, 20: 10}, {13: 2, 15: 2, 6: 11}, waiting=4)
    g = game_at("acey-deucey-1930", start).roll(Dice(2, 1))
    g = g.play(g.legal_plays()[0]).choose("3")
    while g.phase is Phase.PLAY:
        g = g.play(g.legal_plays()[0])
    assert g.phase is Phase.ROLL and g.turn is W and g.extra_throw


# -- 6. Russian: men left to enter with a doublet (003 ch.10 IV and III 2) -----------


def test_russian_two_men_left_with_a_doublet_enter_and_nothing_moves() -> None:
    # 003 ch.10 IV: "All of a player's men must be entered before any may be moved.
    # If only one man is left to enter, that man may be entered and any man moved ...
    # This also applies to doublets."  Two left with 3-3: both enter, the other two
    # 3s are lost, so (II) no reverse side and no second throw.
    start = pos({13: 13}, {}, waiting=2, black_waiting=15)
    g = game_at("russian", start).roll(Dice(3, 3))
    assert [white_points(p) for p in g.legal_plays()] == [{13: 13, 22: 2}]
    with pytest.raises(IllegalPlayError, match=r"003 ch\.10 IV"):
        g.play_moves((Move(WAITING, 22), Move(WAITING, 22), Move(13, 10), Move(13, 10)))
    g = g.play(g.legal_plays()[0])
    assert g.turn is B and g.phase is Phase.ROLL


def test_russian_enter_then_move_is_the_section_iii_2_reading() -> None:
    # 003 ch.10 III 2: "if a doublet is thrown and the player has four or less men
    # still to enter, he enters these men and then is allowed to start moving his
    # men and to finish the throw" -- rule option russian_entering = enter-then-move.
    start = pos({13: 13}, {}, waiting=2, black_waiting=15)
    options = rules(russian_entering="enter-then-move")
    g = game_at("russian", start, options).roll(Dice(3, 3))
    assert all(len(p.moves) == 4 for p in g.legal_plays())
    assert {13: 11, 10: 2, 22: 2} in [white_points(p) for p in g.legal_plays()]
    # russian-restriction-2 is that very restriction: it always reads III 2 so.
    g = game_at("russian-restriction-2", start).roll(Dice(3, 3))
    assert all(len(p.moves) == 4 for p in g.legal_plays())


# -- 7. French: no last-man exception (003 ch.11) ------------------------------------


def test_french_last_man_enters_and_nothing_else_moves() -> None:
    # 003 ch.11: "None of a player's men may be moved until all of his men are
    # entered." -- no exception: with one man left and 4-2 he enters with the 4
    # (the higher die, 001/002) and the 2 is lost; in/21 20/18 is refused.
    start = pos({20: 14}, {}, waiting=1, black_waiting=15)
    g = game_at("french", start).roll(Dice(4, 2))
    assert [white_points(p) for p in g.legal_plays()] == [{20: 14, 21: 1}]
    with pytest.raises(IllegalPlayError, match=r"003 ch\.11"):
        g.play_moves((Move(WAITING, 21), Move(20, 18)))


# -- 8. Russian opening with one die (003 ch.10 I) ------------------------------------


def test_russian_opening_with_one_die_each() -> None:
    # 003 ch.10 I: "Either one or two dice may be used. High wins, and the winner
    # either may throw again with his own dice or use the initial throw."
    options = rules(opening="one-die-choice")
    g = Game.new("russian", options)
    g = g.opening_roll(3, 3)  # a tie: throw again
    assert g.phase is Phase.OPENING
    g = g.opening_roll(2, 5)
    assert g.phase is Phase.CHOICE and g.turn is B
    played = g.choose("play")
    assert played.dice == Dice(5, 2) and played.phase is Phase.PLAY
    again = g.choose("throw again")
    assert again.phase is Phase.ROLL and again.turn is B


# -- 9. Only one die playable (003 ch.3 V against 001/002) ---------------------------

# White's last man on his 13-point, black holding white's 2-point: a 6 (13/7) or a
# 5 (13/8) can be played, not both.
ONE_DIE = pos({13: 1}, {23: 2, 6: 13})


def test_only_one_die_playable_the_higher_by_default() -> None:
    # 001, 002 movement rule 4: "if either number can be played but not both, the
    # player must play the larger one."
    g = game_at("standard", ONE_DIE).roll(Dice(6, 5))
    assert [white_points(p) for p in g.legal_plays()] == [{7: 1}]


def test_only_one_die_playable_either_with_higher_die_free() -> None:
    # 003 ch.3 V: "If he can play either number, he must do so ... Some players
    # maintain that if a player can play only one number he must play the higher."
    free = rules(higher_die="free")
    g = game_at("standard", ONE_DIE, free).roll(Dice(6, 5))
    assert len(g.legal_plays()) == 2
    assert {7: 1} in [white_points(p) for p in g.legal_plays()]
    assert {8: 1} in [white_points(p) for p in g.legal_plays()]
    # The variants follow the same option (here French, all men entered).
    assert {8: 1} in [white_points(p) for p in stage_plays("french", ONE_DIE, (6, 5), free)]
    assert [white_points(p) for p in stage_plays("french", ONE_DIE, (6, 5))] == [{7: 1}]


# -- 10. Doubling before an extra throw / the opening re-throw (003 ch.4 II, 004) ----


def _rethrow_game(options: RuleOptions) -> Game:
    g = Game.new("standard", options)
    g = g.opening_roll(5, 2)
    assert g.phase is Phase.ROLL and g.extra_throw and g.turn is W
    return g


def test_no_double_before_the_opening_rethrow_by_default() -> None:
    # 002 'DOUBLING': "He may do this only at the start of his own turn and before
    # he has rolled the dice."
    g = _rethrow_game(rules(opening="one-die-rethrow"))
    with pytest.raises(CubeError, match="double_before_any_throw"):
        g.double(W)


def test_double_before_any_throw_by_option() -> None:
    # 003 ch.4 II: "At any time during the game a player may ... say 'I double,'
    # provided he does so immediately before throwing his dice"; 004 'OPTIONAL
    # DOUBLING': "at any time, a player may say before he throws the dice".
    options = rules(opening="one-die-rethrow", double_before_any_throw="on")
    g = _rethrow_game(options).double(W).take(B)
    assert g.cube.value == 2 and g.phase is Phase.ROLL and g.extra_throw
    g = g.roll(Dice(6, 1))
    assert g.phase is Phase.PLAY and g.turn is W
    # ... and before the extra throw of a doublet (French: both sides, throw again).
    f = game_at("french", Position.empty(), rules(double_before_any_throw="on"))
    f = f.roll(Dice(6, 6))
    while f.phase is Phase.PLAY:
        f = f.play(f.legal_plays()[0])
    assert f.extra_throw and f.turn is W and f.may_double(W)


# -- 11. A dropped double "scored as it stands" (003 ch.4 II, 004) -------------------


def test_drop_scores_a_single_by_default() -> None:
    # 002 'DOUBLING': "he concedes the game and pays one point".
    g = game_at("standard", Position.standard()).double(W).drop(B)
    assert g.result is not None and g.result.counted is ResultKind.SINGLE
    assert g.result.points == 1


def test_drop_scored_as_it_stands_by_option() -> None:
    # 003 ch.4 II: "If he declines the double, the game stops; it is scored as it
    # stands at the moment the double was offered"; 004 'OPTIONAL DOUBLING': "the
    # game is scored as it stands".  At the start black has borne off nothing and
    # has two men in white's home table: a backgammon.
    options = rules(drop_scoring="as-it-stands")
    g = game_at("standard", Position.standard(), options).double(W).drop(B)
    assert g.result is not None and g.result.counted is ResultKind.BACKGAMMON
    assert g.result.points == 3
    combined = rules(drop_scoring="as-it-stands", scoring="combined-2")
    g = game_at("standard", Position.standard(), combined).double(W).drop(B)
    assert g.result is not None and g.result.points == 15 * 3


# -- 12. backgammon_value with combined System 2 (003 ch.6 III, 004) ------------------


def test_backgammon_value_4_does_not_change_the_triple_of_system_2() -> None:
    # 003 ch.6 III System 2: "In the case of a gammon, double; in the case of a
    # backgammon, triple the final score"; 004 'SCORING BY STRANDED MEN AND GAMES
    # COMBINED': "tripled if it is a Backgammon".  backgammon_value (000 'SCORING')
    # is the multiplier of scoring by games (and System 1, made up by games).
    loser = make_side({24: 1, 10: 4})

    def zone(index: int) -> Zone:
        return get_variant("standard")().zone(index)

    for method in (ScoringMethod.COMBINED_2, ScoringMethod.COMBINED_CHECKERS_1,
                   ScoringMethod.COMBINED_CHECKERS_2):
        assert base_points(method, ResultKind.BACKGAMMON, loser, zone, 4) \
            == base_points(method, ResultKind.BACKGAMMON, loser, zone, 3)
    assert base_points(ScoringMethod.COMBINED_2, ResultKind.BACKGAMMON, loser, zone, 4) == 15
    assert base_points(ScoringMethod.GAMES, ResultKind.BACKGAMMON, loser, zone, 4) == 4
    assert base_points(ScoringMethod.COMBINED_1, ResultKind.BACKGAMMON, loser, zone, 4) == 16


# -- 13. Automatic doubles on two-dice opening ties (000 rule 5, 003 ch.4 I) --------


def test_two_dice_opening_ties_double_by_default() -> None:
    # 000 'ADDITIONAL RULES' 5: "Each tie, when throwing for first move,
    # automatically doubles the stake" (4 (b) is the two-dice opening).
    options = rules(automatic_doubles="on", opening="two-dice-choice")
    g = Game.new("standard", options).opening_roll((3, 4), (5, 2))
    assert g.cube.value == 2


def test_two_dice_opening_ties_do_not_double_by_option() -> None:
    # 003 ch.4 I: "When two people are throwing for the first move and each player is
    # using a single die ... This constitutes an Automatic Double."
    options = rules(automatic_doubles="on", opening="two-dice-choice",
                    automatic_doubles_two_dice="off")
    g = Game.new("standard", options).opening_roll((3, 4), (5, 2))
    assert g.cube.value == 1 and g.phase is Phase.OPENING
    one_die = rules(automatic_doubles="on", automatic_doubles_two_dice="off")
    assert Game.new("standard", one_die).opening_roll(4, 4).cube.value == 2


# -- issue 16 item 3: Unicode digits in rule values --------------------------------


@pytest.mark.parametrize("option", ["max_cube", "automatic_doubles_cap", "backgammon_value"])
@pytest.mark.parametrize("value", ["²", "٣", "1" * 5000])
def test_unicode_or_huge_digits_are_refused_naming_the_option(option: str, value: str) -> None:
    with pytest.raises(RuleOptionError, match=option) as caught:
        RuleOptions.from_dict({option: value})
    assert len(str(caught.value)) < 300  # the value is quoted, cut short

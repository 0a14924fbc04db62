"""Scoring: result kinds and every scoring method.

Sources: 000_54e59ca1d76a5da3.txt 'SCORING', 'SCORING BY COUNTERS OR MEN';
002_de81a0fe2cc80ee1.txt 'GAMMONS AND BACKGAMMONS';
003_0f278e3a5d776312.txt ch.3 VII, ch.6 I-III (Diagram 7);
004_8ad0f3fa7d887f72.txt 'SCORING BY GAMES', 'SCORING BY LOSER'S STRANDED MEN',
'SCORING BY STRANDED MEN AND GAMES COMBINED'.
"""

from __future__ import annotations

import pytest

from engine.game import Game
from engine.player import Player
from engine.position import Position, make_side
from engine.rules import RuleOptions, ScoringMethod
from engine.scoring import EndReason, ResultKind, base_points, game_points
from engine.variant import StandardBackgammon

STD = StandardBackgammon()

# 003 ch.6 Diagram 7 as described in Examples 1-4: Black (the loser) has two men
# in his inner table, one in his outer table, one in White's outer table, one in
# White's inner table, and has borne off the other ten.  In Black's own
# numbering: inner table 1-6, outer 7-12, White's outer 13-18, White's inner 19-24.
DIAGRAM_7_BLACK = make_side({2: 2, 9: 1, 15: 1, 22: 1})
TWO_MATCHES = 4  # "There are two matches on the bar": doubled twice.


@pytest.mark.parametrize(
    ("method", "expected", "source"),
    [
        (ScoringMethod.CHECKERS_1, 44, "003 ch.6 II Method 1, Example 1: Diagram 7"),
        (ScoringMethod.CHECKERS_2, 64, "003 ch.6 II Method 2, Example 2: Diagram 7"),
        (ScoringMethod.COMBINED_1, 16, "003 ch.6 III System 1, Example 3: Diagram 7"),
        (ScoringMethod.COMBINED_2, 20, "003 ch.6 III System 2, Example 4: Diagram 7"),
    ],
)
def test_diagram_7_examples(method: ScoringMethod, expected: int, source: str) -> None:
    """003_0f278e3a5d776312.txt ch.6 Diagram 7, Examples 1-4: 44, 64, 16 and 20 points."""
    kind = STD.result_kind(Position.from_sides(make_side(), DIAGRAM_7_BLACK), Player.WHITE)
    assert kind is ResultKind.SINGLE  # Example 3: "Black has borne a man from the table"
    assert game_points(method, kind, TWO_MATCHES, DIAGRAM_7_BLACK, STD.zone) == expected, source


def _play_to(game: Game, black: tuple[int, ...]) -> Game:
    """Make the legal play that leaves Black's checkers as ``black``."""
    target = Position.from_sides(game.position.sides[Player.WHITE], black)
    return game.play(next(p for p in game.legal_plays() if p.position == target))


def _diagram_7_game(method: ScoringMethod) -> Game:
    """Diagram 7 reached in play with two matches on the bar (two doubles taken).

    White has one man left on his 1-point.  Black doubles, White takes; Black
    throws 1-1 and plays 2/1 2/1 9/8 15/14 (every man stays in its table); White
    redoubles, Black takes.
    """
    start = Position.from_sides(make_side({1: 1}), DIAGRAM_7_BLACK)
    g = Game.new("standard", RuleOptions(scoring=method), first_player=Player.BLACK,
                 position=start)
    g = g.double(Player.BLACK).take(Player.WHITE)
    g = g.roll((1, 1))
    g = _play_to(g, make_side({1: 2, 8: 1, 14: 1, 22: 1}))
    return g.double(Player.WHITE)


@pytest.mark.parametrize(
    ("method", "expected"),
    [
        (ScoringMethod.CHECKERS_1, 44),
        (ScoringMethod.CHECKERS_2, 64),
        (ScoringMethod.COMBINED_1, 16),
        (ScoringMethod.COMBINED_2, 20),
        (ScoringMethod.GAMES, 4),
        (ScoringMethod.STRANDED, 20),
    ],
)
def test_diagram_7_played_to_the_end(method: ScoringMethod, expected: int) -> None:
    """003_0f278e3a5d776312.txt ch.6 II-III, Examples 1-4: Diagram 7 (44, 64, 16, 20)
    reached in a game, White bearing off his last man with two matches on the bar."""
    g = _diagram_7_game(method).take(Player.BLACK)
    g = g.roll((6, 5))
    g = g.play(g.legal_plays()[0])
    assert g.result is not None
    assert (g.result.winner, g.result.kind, g.result.cube) == (Player.WHITE,
                                                               ResultKind.SINGLE, 4)
    assert g.result.points == expected


def test_drop_under_checker_scoring_scores_the_position() -> None:
    """003_0f278e3a5d776312.txt ch.6 II Method 1: "If a double is declined during play,
    the game stops and the score is made up at so much a checker ... based on the number
    of men in each table at the time the double is refused. Any previous Doubles ...
    apply": Diagram 7's 11 checker points times the one double before = 22."""
    g = _diagram_7_game(ScoringMethod.CHECKERS_1).drop(Player.BLACK)
    assert g.result is not None
    assert (g.result.winner, g.result.reason, g.result.cube, g.result.points) == (
        Player.WHITE, EndReason.DROP, 2, 22)


def test_drop_under_games_scoring_loses_value_before_double() -> None:
    """001_1fd58179962334fd.txt 'THE DOUBLING TRACK': dropping loses the value before
    the redouble (002 'DOUBLING' likewise)."""
    g = _diagram_7_game(ScoringMethod.GAMES).drop(Player.BLACK)
    assert g.result is not None
    assert (g.result.kind, g.result.points) == (ResultKind.SINGLE, 2)


# A second position for 004's options: the loser has borne off nothing and has
# men in every zone and one on the bar (loser's numbering):
LOSER = make_side({3: 7, 5: 1, 8: 3, 14: 2, 20: 1}, bar=1, off=0)
# inner 8, outer 3, winner's outer 2, winner's inner 1, bar 1 -> 15 men.


@pytest.mark.parametrize(
    ("method", "kind", "expected", "source"),
    [
        # 004 Option 1: a point for each man, irrespective of location.
        (ScoringMethod.STRANDED, ResultKind.BACKGAMMON, 15, "004 Option 1"),
        # 004 Option 2 / 000 counters / 003 Method 1: 8*1 + 3*2 + 2*3 + (1+1)*4 = 28.
        (ScoringMethod.CHECKERS_1, ResultKind.BACKGAMMON, 28, "004 Option 2"),
        # 004 Option 3 / 003 Method 2: 8*1 + 3*2 + 2*4 + 1*8 (+ bar 8) = 38.
        (ScoringMethod.CHECKERS_2, ResultKind.BACKGAMMON, 38, "004 Option 3"),
        # 004 combined: Option 1 tripled for a backgammon.
        (ScoringMethod.COMBINED_2, ResultKind.BACKGAMMON, 45,
         "004 'SCORING BY STRANDED MEN AND GAMES COMBINED'"),
        (ScoringMethod.COMBINED_2, ResultKind.GAMMON, 30,
         "004 'SCORING BY STRANDED MEN AND GAMES COMBINED'"),
        # 004 'Other combinations': Options 2 and 3 with the gammon/backgammon multiplier.
        (ScoringMethod.COMBINED_CHECKERS_1, ResultKind.BACKGAMMON, 84, "004 combined + Option 2"),
        (ScoringMethod.COMBINED_CHECKERS_2, ResultKind.GAMMON, 76, "004 combined + Option 3"),
        # 003 System 1: backgammon 3, times 4 for a man in the winner's inner table.
        (ScoringMethod.COMBINED_1, ResultKind.BACKGAMMON, 12, "003 ch.6 III System 1"),
        # 004 'SCORING BY GAMES': single, double, triple.
        (ScoringMethod.GAMES, ResultKind.SINGLE, 1, "004 'SCORING BY GAMES'"),
        (ScoringMethod.GAMES, ResultKind.GAMMON, 2, "004 'SCORING BY GAMES'"),
        (ScoringMethod.GAMES, ResultKind.BACKGAMMON, 3, "004 'SCORING BY GAMES'"),
    ],
)
def test_004_options(method: ScoringMethod, kind: ResultKind, expected: int,
                     source: str) -> None:
    """004_8ad0f3fa7d887f72.txt 'SCORING BY LOSER'S STRANDED MEN' Options 1-3 and combined."""
    assert sum(LOSER) == 15
    assert base_points(method, kind, LOSER, STD.zone) == expected, source


def test_bar_counts_four_by_counters() -> None:
    """000_54e59ca1d76a5da3.txt 'SCORING BY COUNTERS OR MEN': four points ... on the bar."""
    side = make_side({1: 1}, bar=1)
    assert base_points(ScoringMethod.CHECKERS_1, ResultKind.SINGLE, side, STD.zone) == 5


def test_games_scoring_is_multiplied_by_cube() -> None:
    """003_0f278e3a5d776312.txt ch.6 I: gammon with two matches on the bar = 8 points;
    a backgammon "three times four or twelve"."""
    side = make_side({20: 1})
    assert game_points(ScoringMethod.GAMES, ResultKind.GAMMON, 4, side, STD.zone) == 8
    assert game_points(ScoringMethod.GAMES, ResultKind.BACKGAMMON, 4, side, STD.zone) == 12


def test_backgammon_quadruple_by_agreement() -> None:
    """000_54e59ca1d76a5da3.txt 'SCORING': "a triple or quadruple game (according to
    agreement) or backgammon"."""
    side = make_side({20: 1})
    assert game_points(ScoringMethod.GAMES, ResultKind.BACKGAMMON, 1, side, STD.zone, 4) == 4


@pytest.mark.parametrize(
    ("loser", "kind", "source"),
    [
        (make_side({3: 14}, off=1), ResultKind.SINGLE, "002 'GAMMONS AND BACKGAMMONS'"),
        (make_side({3: 15}), ResultKind.GAMMON, "002 'GAMMONS AND BACKGAMMONS'"),
        (make_side({3: 14, 19: 1}), ResultKind.BACKGAMMON, "002: in the winner's home board"),
        (make_side({3: 14}, bar=1), ResultKind.BACKGAMMON, "002: a checker on the bar"),
        (make_side({3: 14, 18: 1}), ResultKind.GAMMON, "002: winner's outer table is not home"),
        # 000 'SCORING' / 003 ch.3 VII note: having borne a man, a player hit later
        # can only lose a single.
        (make_side({3: 13}, bar=1, off=1), ResultKind.SINGLE, "000 'SCORING'"),
    ],
)
def test_result_kind(loser: tuple[int, ...], kind: ResultKind, source: str) -> None:
    """002_de81a0fe2cc80ee1.txt 'GAMMONS AND BACKGAMMONS'; 000 'SCORING'; 003 ch.3 VII."""
    position = Position.from_sides(make_side(), loser)
    assert STD.result_kind(position, Player.WHITE) is kind, source

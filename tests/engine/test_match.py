"""Match play and money sessions.

Sources: 001_1fd58179962334fd.txt 'RULES' ("often played in matches, where victory is
awarded to the first player to reach a certain number of points"); the Crawford rule
(rule option 'crawford'); 002_de81a0fe2cc80ee1.txt 'DOUBLING' ("played for an agreed
stake per point") and 'OPTIONAL RULES'; 003_0f278e3a5d776312.txt ch.3 VII (end).
"""

from __future__ import annotations

import pytest

from engine.errors import CubeError, RuleOptionError, WrongPhaseError
from engine.game import Phase
from engine.match import Match, MoneySession
from engine.player import Player
from engine.rules import RuleOptions
from engine.scoring import EndReason, Result, ResultKind

W, B = Player.WHITE, Player.BLACK


def won(winner: Player, points: int, kind: ResultKind = ResultKind.SINGLE) -> Result:
    return Result(winner, kind, EndReason.BORNE_OFF, 1, points, kind)


def test_crawford_game_once_then_post_crawford() -> None:
    """The Crawford rule: the game after a player first reaches match length minus one
    is played without the cube; afterwards the cube is live again."""
    m = Match.new(5)
    m = m.add_game(won(W, 2))
    assert not m.crawford_game
    m = m.add_game(won(W, 2))                  # white 4 of 5: 1-away
    assert m.crawford_game and m.score == (4, 0)
    game = m.new_game()
    assert game.crawford
    g = game.opening_roll(3, 1)
    g = g.play(g.legal_plays()[0])
    with pytest.raises(CubeError, match="dead in the Crawford game"):
        g.double(B)
    m = m.add_game(won(B, 1))                  # the Crawford game
    assert not m.crawford_game and m.post_crawford and m.crawford_done
    assert not m.new_game().crawford
    m = m.add_game(won(B, 2))                  # black 3, still not Crawford again
    m = m.add_game(won(B, 1))                  # black reaches 4 = 1-away: no second Crawford
    assert not m.crawford_game and m.score == (4, 4)
    m = m.add_game(won(W, 1))
    assert m.is_over and m.winner is W
    with pytest.raises(WrongPhaseError, match="The match is over"):
        m.new_game()


def test_no_crawford_when_option_off() -> None:
    m = Match.new(3, RuleOptions(crawford=False)).add_game(won(W, 2))
    assert not m.crawford_game and not m.new_game().crawford


def test_jump_past_match_point_ends_match() -> None:
    m = Match.new(3).add_game(won(B, 6, ResultKind.GAMMON))
    assert m.is_over and m.winner is B and m.score == (0, 6)


def test_no_crawford_game_when_reaching_match_point_from_behind_directly() -> None:
    """A player going straight to the match length never triggers a Crawford game."""
    m = Match.new(5).add_game(won(W, 3)).add_game(won(B, 2))
    assert not m.crawford_game
    m = m.add_game(won(W, 1))  # white 4: 1-away first time
    assert m.crawford_game


def test_match_games_are_not_money_play() -> None:
    """002 'OPTIONAL RULES': the Jacoby rule and beavers are money-play rules."""
    for option in ("jacoby", "beavers"):
        with pytest.raises(RuleOptionError, match="money"):
            Match.new(5, RuleOptions.from_dict({option: "on"}))
    assert not Match.new(5).new_game().money


def test_match_forfeit() -> None:
    m = Match.new(7).forfeit(W)
    assert m.is_over and m.winner is B


def test_match_length_must_be_positive() -> None:
    with pytest.raises(RuleOptionError):
        Match.new(0)


def test_match_from_played_games() -> None:
    m = Match.new(3)
    g = m.new_game().opening_roll(3, 1)
    g = g.play(g.legal_plays()[0])
    g = g.double(B).drop(W)
    m = m.add_game(g)
    assert m.score == (0, 1)
    with pytest.raises(WrongPhaseError, match="not finished"):
        m.add_game(m.new_game())


@pytest.mark.parametrize(
    ("kind", "next_first"),
    [(ResultKind.SINGLE, W), (ResultKind.GAMMON, None), (ResultKind.BACKGAMMON, None)],
)
def test_winner_throws_first_next_game(kind: ResultKind, next_first: Player | None) -> None:
    """003_0f278e3a5d776312.txt ch.3 VII (end): "it is customary for the winner of the
    first game to take the first throw for the next game. If, however, a gammon or
    backgammon is won, the players throw again for the first move"."""
    s = MoneySession.new(RuleOptions(winner_throws_first=True)).add_game(won(W, int(kind), kind))
    assert s.next_first is next_first
    game = s.new_game()
    if next_first is None:
        assert game.phase is Phase.OPENING
    else:
        assert (game.phase, game.turn) == (Phase.ROLL, W)


def test_by_default_every_game_starts_with_opening_throw() -> None:
    s = MoneySession.new().add_game(won(W, 1))
    assert s.new_game().phase is Phase.OPENING


def test_money_session_totals() -> None:
    """002 'DOUBLING': "Backgammon is played for an agreed stake per point"."""
    s = MoneySession.new(stake=5)
    s = s.add_game(won(W, 2)).add_game(won(B, 8)).add_game(won(W, 1))
    assert s.points == (3, 8) and s.games_played == 3
    assert (s.net(W), s.net(B)) == (-5, 5)
    assert (s.balance(W), s.balance(B)) == (-25, 25)
    assert s.new_game().money


def test_describe_match() -> None:
    m = Match.new(5).add_game(won(W, 4))
    assert m.describe() == "5-point match: white 4, black 0 (Crawford game)"
    m = m.add_game(won(B, 1))
    assert m.describe() == "5-point match: white 4, black 1 (post-Crawford)"

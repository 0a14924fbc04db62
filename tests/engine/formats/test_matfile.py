"""Export of games and matches as .mat text (GNU Backgammon / Jellyfish) and reading it back.

The layout snippets below are written by hand from the format as GNU Backgammon's
exporter writes it (export.c ExportGameJF: ``"%3d) %-27s "`` for player 1, then
player 2; a space after each of the first three moves; ``Wins`` indented 6 or 34
columns).  GNUBG_FILE is a file GNU Backgammon 1.07 wrote itself (self-play).
"""

from __future__ import annotations

import os
import random
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from gnubg_tool import GNUBG, needs_gnubg
from mat_games import play_randomly, random_match, random_session, store_match

from bot.service.records.export import export_channel_match
from bot.storage.sqlite import SqliteStorage
from engine.dice import Dice
from engine.formats.matfile import (
    MatDouble,
    MatDrop,
    MatExportError,
    MatGame,
    MatParseError,
    MatRoll,
    MatTake,
    MatWin,
    clean_name,
    export_match,
    parse_mat,
)
from engine.game import Game, Phase
from engine.match import Match, MoneySession
from engine.move import Move
from engine.player import Player
from engine.position import Position
from engine.record import (
    Beaver,
    DoubleOffered,
    Drop,
    GameRecord,
    OpeningRoll,
    PlayMade,
    Roll,
    Take,
)
from engine.rules import DEFAULT_RULES, RuleOptions, ScoringMethod
from engine.scoring import EndReason, ResultKind

W, B = Player.WHITE, Player.BLACK


# -- helpers (independent of engine.formats.matfile) ---------------------------------------------


def timeline(record: GameRecord) -> list[tuple[Any, ...]]:
    """What a .mat file should keep of a game: every throw (player, dice), every
    play (player, resulting position), cube actions, the end (winner, points, kind
    counted, borne off / dropped / resigned) and the final state of a running game."""
    game = Game.new(record.variant, RuleOptions.from_dict(record.rules), money=record.money,
                    crawford=record.crawford, first_player=record.first_player)
    out: list[tuple[Any, ...]] = []
    for event in record.events:
        game = game.apply(event)
        if isinstance(event, OpeningRoll) and game.turn is not None:
            out.append(("roll", game.turn, game.dice))
        elif isinstance(event, Roll):
            out.append(("roll", event.player, event.dice))
        elif isinstance(event, PlayMade):
            out.append(("play", event.player, game.position))
        elif isinstance(event, DoubleOffered):
            assert game.cube.offer is not None
            out.append(("double", event.player, game.cube.offer.value))
        elif isinstance(event, Take | Drop | Beaver):
            out.append((event.type, event.player))
    if game.result is not None:
        r = game.result
        how = {EndReason.BORNE_OFF: "borne off", EndReason.DROP: "drop"}.get(r.reason, "resigned")
        out.append(("end", r.winner, r.points, r.counted, how))
    else:
        out.append(("running", game.phase if game.phase is not Phase.RESIGNATION
                    else game.suspended, game.turn, game.position, game.cube.value))
    return out


def assert_round_trip(games: list[MatGame], text: str, length: int) -> None:
    parsed = parse_mat(text)
    assert parsed.length == length
    assert len(parsed.games) == len(games)
    for number, (original, back) in enumerate(zip(games, parsed.games, strict=True), 1):
        assert back.number == number
        assert back.score == original.score
        assert back.crawford == original.record.crawford
        assert timeline(back.record) == timeline(original.record), f"game {number}"


# -- layout, written by hand -----------------------------------------------------------


def short_match_game() -> Game:
    """Game 1 of a 5-point match: a hit, a dance, a take, a redouble dropped."""
    g = Match.new(5).new_game()
    g = g.opening_roll(3, 1)
    g = g.play_moves([Move(8, 5), Move(6, 5)])
    g = g.roll((6, 4)).play_moves([Move(24, 18), Move(13, 9)])
    g = g.roll((6, 2)).play_moves([Move(13, 7, True), Move(13, 11)])
    g = g.roll((6, 6))                       # black can't enter against white's 6-point
    g = g.double(W).take(B)
    g = g.roll((5, 2)).play_moves([Move(13, 8), Move(13, 11)])
    g = g.roll((2, 1)).play_moves([Move(25, 23), Move(24, 23)])
    g = g.roll((4, 1)).play_moves([Move(11, 7), Move(11, 10)])
    return g.double(B).drop(W)


SHORT_MATCH_TEXT = (
    '; [Site "Test Site"]\n'
    '; [Player 1 "Alice"]\n'
    '; [Player 2 "Bob"]\n'
    '; [EventDate "2024.05.01"]\n'
    '; [Variation "Backgammon"]\n'
    '; [Crawford "On"]\n'
    "\n"
    " 5 point match\n"
    "\n"
    " Game 1\n"
    " Alice : 0                      Bob : 0\n"
    "  1) 31: 8/5 6/5                 64: 24/18 13/9 \n"
    "  2) 62: 13/11 13/7*             66: \n"
    "  3)  Doubles => 2                Takes\n"
    "  4) 52: 13/11 13/8              21: 25/23 24/23 \n"
    "  5) 41: 11/10 11/7               Doubles => 4\n"
    "  6)  Drops                       Wins 2 points\n"
    "\n"
)


def test_layout_of_a_short_match_game() -> None:
    game = short_match_game()
    assert game.result is not None and game.result.points == 2
    text = export_match([MatGame(game.to_record(), (0, 0))], length=5,
                        names=("Alice", "Bob"), site="Test Site", date="2024-05-01")
    assert text == SHORT_MATCH_TEXT


def test_layout_player_2_starts_and_wins_the_match_line() -> None:
    g = Match.new(1).new_game()
    g = g.opening_roll(1, 2)                 # black's 2 beats white's 1: black plays 2-1
    g = g.play_moves([Move(13, 11), Move(6, 5)])
    g = g.roll((4, 4)).play_moves([Move(24, 20, True), Move(24, 20), Move(13, 9), Move(13, 9)])
    g = g.resign(B).answer_resignation(W, True)
    text = export_match([MatGame(g.to_record())], length=1, names=("Alice", "Bob"))
    assert text == (
        '; [Player 1 "Alice"]\n'
        '; [Player 2 "Bob"]\n'
        '; [Variation "Backgammon"]\n'
        '; [Crawford "On"]\n'
        "\n"
        " 1 point match\n"
        "\n"
        " Game 1\n"
        " Alice : 0                      Bob : 0\n"
        "  1)                             21: 13/11 6/5 \n"
        "  2) 44: 24/20* 24/20 13/9 13/9  \n"
        "      Wins 1 point and the match\n"
        "\n"
    )


def test_layout_money_session_with_a_beaver() -> None:
    rules = RuleOptions(beavers=True, jacoby=True)
    g = MoneySession.new(rules).new_game()
    g = g.opening_roll(3, 1).play_moves([Move(8, 5), Move(6, 5)])
    g = g.double(B).beaver(W).drop(B)       # the beaver doubles the stake: 2 points
    text = export_match([MatGame(g.to_record(), (3, 1))], length=0, names=("Alice", "Bob"))
    assert text == (
        '; [Player 1 "Alice"]\n'
        '; [Player 2 "Bob"]\n'
        '; [Variation "Backgammon"]\n'
        '; [Jacoby "On"]\n'
        '; [Beaver "On"]\n'
        "\n"
        " 0 point match\n"
        "\n"
        " Game 1\n"
        " Alice : 3                      Bob : 1\n"
        "  1) 31: 8/5 6/5                  Doubles => 2\n"
        "  2)  Beavers => 4                Drops\n"
        "      Wins 2 points\n"
        "\n"
    )
    parsed = parse_mat(text)
    assert parsed.rules.beavers and parsed.rules.jacoby
    assert timeline(parsed.games[0].record) == timeline(g.to_record())


def test_parse_gives_the_hand_written_actions_back() -> None:
    parsed = parse_mat(SHORT_MATCH_TEXT)
    assert parsed.names == ("Alice", "Bob")
    assert parsed.tag("site") == "Test Site" and parsed.tag("EventDate") == "2024.05.01"
    (game,) = parsed.games
    assert game.score == (0, 0) and not game.crawford
    assert unordered(game.actions) == unordered((
        MatRoll(W, Dice(3, 1), (Move(8, 5), Move(6, 5))),
        MatRoll(B, Dice(6, 4), (Move(24, 18), Move(13, 9))),
        MatRoll(W, Dice(6, 2), (Move(13, 11), Move(13, 7, True))),
        MatRoll(B, Dice(6, 6)),
        MatDouble(W, 2),
        MatTake(B),
        MatRoll(W, Dice(5, 2), (Move(13, 11), Move(13, 8))),
        MatRoll(B, Dice(2, 1), (Move(25, 23), Move(24, 23))),
        MatRoll(W, Dice(4, 1), (Move(11, 10), Move(11, 7))),
        MatDouble(B, 4),
        MatDrop(W),
        MatWin(B, 2),
    ))
    assert game.result is not None
    assert (game.result.winner, game.result.points, game.result.reason) == (B, 2, EndReason.DROP)
    assert timeline(game.record) == timeline(short_match_game().to_record())


def unordered(actions: Any) -> list[Any]:
    """Actions with each roll's moves as a sorted list (a play's moves in any order)."""
    return [(a.player, a.dice, sorted(a.moves, key=lambda m: (m.src, m.dst, m.hit)))
            if isinstance(a, MatRoll) else a for a in actions]


# -- round trips -------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(6))
def test_random_matches_round_trip(seed: int) -> None:
    rng = random.Random(seed)
    length = rng.choice([1, 3, 5, 7])
    games, match = random_match(rng, length)
    text = export_match(games, length=length, names=("Alice", "Bob"), date="2024-05-01")
    assert_round_trip(games, text, length)
    wins = re.findall(r"Wins \d+ points?( and the match)?", text)
    assert len(wins) == len(games) and [w for w in wins if w] == [" and the match"]
    assert match.is_over


@pytest.mark.parametrize("seed", range(4))
def test_random_money_sessions_round_trip(seed: int) -> None:
    rng = random.Random(100 + seed)
    rules = RuleOptions(jacoby=seed % 2 == 0, beavers=seed < 2)
    games, _ = random_session(rng, 4, rules)
    text = export_match(games, length=0, names=("Alice", "Bob"))
    assert " 0 point match\n" in text
    assert_round_trip(games, text, 0)


def test_crawford_game_is_derived_from_the_scores() -> None:
    rng = random.Random(7)
    for _ in range(40):
        games, _ = random_match(rng, 3)
        if any(g.record.crawford for g in games):
            break
    else:
        pytest.fail("no Crawford game in 40 random matches")
    text = export_match(games, length=3, names=("A", "B"))
    parsed = parse_mat(text)
    assert [g.crawford for g in parsed.games] == [g.record.crawford for g in games]
    assert_round_trip(games, text, 3)


@pytest.mark.parametrize("stop", [1, 2, 5, 9, 14, 23])
def test_running_games_round_trip(stop: int) -> None:
    """A game still being played: the throw not yet played, a pending double."""
    rng = random.Random(stop)
    match = Match.new(5).add_game(play_randomly(Match.new(5).new_game(), rng))
    done = MatGame(play_randomly(Match.new(5).new_game(), random.Random(1)).to_record())
    running = play_randomly(match.new_game(), rng, cube=0.3, max_actions=stop)
    games = [done, MatGame(running.to_record(), match.score)]
    text = export_match(games, length=5, names=("Alice", "Bob"))
    assert_round_trip(games, text, 5)


def test_rolled_then_resigned_and_forfeit() -> None:
    g = Match.new(3).new_game().opening_roll(5, 2).play_moves([Move(13, 8), Move(13, 11)])
    rolled = g.roll((3, 3))
    resigned = rolled.resign(B, ResultKind.GAMMON).answer_resignation(W, True)
    forfeited = rolled.forfeit(B, ResultKind.SINGLE)
    for game, points in ((resigned, 2), (forfeited, 1)):
        text = export_match([MatGame(game.to_record())], length=3, names=("A", "B"))
        assert f"33: \n      Wins {points} point" in text
        assert_round_trip([MatGame(game.to_record())], text, 3)


def test_refused_resignation_is_left_out() -> None:
    g = Match.new(3).new_game().opening_roll(5, 2).play_moves([Move(13, 8), Move(13, 11)])
    g = g.resign(B, ResultKind.SINGLE).answer_resignation(W, False)
    g = g.roll((3, 1)).play_moves([Move(8, 5), Move(6, 5)])
    text = export_match([MatGame(g.to_record())], length=3, names=("A", "B"))
    assert "Wins" not in text
    assert_round_trip([MatGame(g.to_record())], text, 3)


def test_names_are_cleaned_for_the_score_line() -> None:
    assert clean_name('Al: "the" 1st,\n', "x") == "Al the 1st"
    assert clean_name("  ", "Player 2") == "Player 2"
    rng = random.Random(3)
    games, _ = random_match(rng, 1)
    text = export_match(games, length=1, names=("Al: x", "Bo,1600"))
    assert parse_mat(text).names == ("Al x", "Bo 1600")


# -- what the format can't hold -------------------------------------------------------------


def test_refuses_other_variants_set_up_positions_and_checker_scoring() -> None:
    russian = Game.new("russian").to_record()
    with pytest.raises(MatExportError, match="standard backgammon only"):
        export_match([MatGame(russian)], length=0, names=("A", "B"))
    setup = Game.new(position=Position.standard().swapped()).to_record()
    with pytest.raises(MatExportError, match="set-up position"):
        export_match([MatGame(setup)], length=0, names=("A", "B"))
    checkers = Game.new(rules=RuleOptions(scoring=ScoringMethod.CHECKERS_1)).to_record()
    with pytest.raises(MatExportError, match="scored by games"):
        export_match([MatGame(checkers)], length=0, names=("A", "B"))


# -- reading files written by others ------------------------------------------------------------


def _bars(text: str) -> str:
    """A fixture whose lines end in significant spaces, each such line marked by '|'."""
    return "\n".join(line.removesuffix("|") for line in text.split("\n"))


GNUBG_FILE = _bars("""\
; [EventDate "2026.11.22"]

 3 point match

 Game 1
 gnubg : 0                      root : 0
  1)                             21: 13/11 24/23 |
  2) 52: 13/8 24/22              63: 8/5 11/5 |
  3) 53: 8/3 6/3                 62: 13/7 7/5 |
  4) 42: 8/4 6/4                 41: 13/9 9/8 |
  5) 31: 22/21 24/21             21: 5/3 6/5 |
  6) 43: 13/10 10/6              65: 23/18 24/18 |
  7) 52: 6/1 3/1                 33: 18/15 18/15 13/10 13/10
  8) 51: 6/5 8/3                 52: 3/1 6/1 |
  9) 65: 13/7 7/2                32: 5/3 6/3 |
 10) 63: 5/2 8/2                 62: 8/2 3/1 |
 11) 51: 2/1 21/16               42: 8/4* 4/2 |
 12) 66:                         22: 15/13 13/11 11/9* 3/1
 13) 54: 25/21                   66: 15/9 10/4* 10/4 8/2
 14) 31: 25/22                   43: 9/5 9/6 |
 15) 53: 25/22 13/8              52: 5/0 2/0 |
 16) 31: 8/5 13/12               32: 6/4 4/1 |
 17) 43: 12/9 9/5                63: 5/2 6/0 |
 18) 33: 22/19* 19/16 16/13 13/10 32: |
 19)  Doubles => 2                Drops
      Wins 1 point

 Game 2
 gnubg : 1                      root : 0
  1) 63: 24/18 18/15             65: 24/18 18/13 |
  2) 22: 13/11 13/11 6/4 6/4     41: 13/9 9/8 |
  3) 21: 15/13 11/10             43: 13/10 13/9 |
  4) 32: 13/10 13/11             42: 8/4 6/4 |
  5) 63: 24/18 18/15*            33: 25/22 13/10* 8/5 8/5
  6) 53: 25/22 22/17*            63: 25/22 22/16 |
  7)  Doubles => 2                Takes
  8) 65: 17/11 11/6               Doubles => 4
  9)  Takes                      32: 9/7 10/7 |
 10) 52: 13/8 13/11              43: 6/3 13/9 |
 11) 43: 11/8 8/4                44: 16/12 9/5 7/3 6/2
 12) 42: 6/2 4/2                 33: 12/9 9/6 7/4 5/2
 13) 51: 8/3* 3/2                31: 25/22 6/5 |
 14) 55: 10/5 10/5 8/3* 8/3      54: |
 15) 55: 11/6 8/3 6/1* 6/1       63: |
 16) 65: 11/6 6/0                11: |
 17) 42: 6/4 6/2                 44: |
 18) 62: 5/3 5/0                 61: 25/19 |
 19) 63: 4/0 3/0                 64: 25/19 19/15 |
 20) 43: 3/0 4/0                 66: 19/13 15/9 13/7 13/7
 21) 41: 1/0 4/0                 21: 7/5 7/6 |
 22) 31: 3/0 1/0                 55: 9/4 5/0 5/0 5/0
 23) 33: 3/0 2/0 2/0 2/0         |
      Wins 4 points

""")


def test_parse_a_file_gnubg_wrote() -> None:
    parsed = parse_mat(GNUBG_FILE)
    assert parsed.length == 3 and parsed.names == ("gnubg", "root")
    first, second = parsed.games
    assert unordered(first.actions[:1]) == unordered(
        [MatRoll(B, Dice(2, 1), (Move(13, 11), Move(24, 23)))])
    assert first.actions[-3:] == (MatDouble(W, 2), MatDrop(B), MatWin(W, 1))
    assert first.result is not None and first.result.reason is EndReason.DROP
    # 12) 66: the player on the bar can't enter; 13) 54: enters with the 4 only.
    assert MatRoll(W, Dice(6, 6)) in first.actions
    assert MatRoll(W, Dice(5, 4), (Move(25, 21),)) in first.actions
    assert second.score == (1, 0)
    # Doubled to 2 (line 7), redoubled to 4 (line 8); after 23) 33 player 1 still has
    # checkers on the board, so "Wins 4 points" is player 2 resigning a single game.
    assert second.result is not None
    assert not second.game.position.is_finished(W)
    r = second.result
    assert (r.winner, r.points, r.cube, r.kind, r.reason) == (
        W, 4, 4, ResultKind.SINGLE, EndReason.RESIGNATION)


XG_STYLE_FILE = _bars("""\
; [Site "XG Mobile"]
; [Player 1 "Ken"]
; [Player 2 "XG"]
; [Jacoby "On"]
; [Beaver "Off"]

0 point match

Game 1 |
Ken : 0                              XG : 0 |
 1)                                  31: 8/5 6/5
 2) 64: 24/18 13/9                    Doubles => 2
 3)  Takes                           52: 13/8 13/11
 4)  Wins 2 points
""")


def test_parse_an_xg_style_money_file_with_a_resignation() -> None:
    parsed = parse_mat(XG_STYLE_FILE)
    assert parsed.length == 0 and parsed.names == ("Ken", "XG")
    assert parsed.rules.jacoby and not parsed.rules.beavers
    (game,) = parsed.games
    assert unordered(game.actions[:3]) == unordered(
        (MatRoll(B, Dice(3, 1), (Move(8, 5), Move(6, 5))),
         MatRoll(W, Dice(6, 4), (Move(24, 18), Move(13, 9))),
         MatDouble(B, 2)))
    assert game.result is not None
    assert (game.result.winner, game.result.points, game.result.reason) == (
        W, 2, EndReason.RESIGNATION)


def test_parse_errors_say_where() -> None:
    with pytest.raises(MatParseError, match="point match"):
        parse_mat("hello\n")
    bad = SHORT_MATCH_TEXT.replace("64: 24/18 13/9", "64: 24/18 13/10")
    with pytest.raises(MatParseError, match=r"Game 1, line 12"):
        parse_mat(bad)
    no_double = SHORT_MATCH_TEXT.replace("  3)  Doubles => 2 ", "  3)                ")
    with pytest.raises(MatParseError, match=r"Game 1, line 14 \('Takes'\): There is no double"):
        parse_mat(no_double)


# -- storage --------------------------------------------------------------------------------


async def test_export_channel_match_reads_storage(tmp_path: Path) -> None:
    rng = random.Random(11)
    games, match = random_match(rng, 3)
    storage = SqliteStorage(tmp_path / "db.sqlite3")
    await storage.open()
    try:
        async with storage.transaction() as tx:
            row = await store_match(tx, games, length=3)
            text = await export_channel_match(tx, row)
    finally:
        await storage.close()
    assert '; [Site "Discord"]' in text and '; [EventDate "' in text
    parsed = parse_mat(text)
    assert parsed.names == ("Alice", "Bob")
    assert_round_trip(games, text, 3)
    last = parsed.games[-1]
    assert last.result is not None
    final = list(last.score)
    final[last.result.winner] += last.result.points
    assert tuple(final) == match.score


# -- GNU Backgammon itself ---------------------------------------------------------------------


def _games_part(text: str) -> list[str]:
    """The lines from 'N point match' on, compared with gnubg's re-export: trailing
    spaces and empty lines dropped, no 'and the match' (gnubg does not write it),
    and 'Wins' lines without their indentation (after a throw a player did not
    play, gnubg writes 'Wins' on the throw's line)."""
    start = re.search(r"^ *\d+ point match", text, re.M)
    assert start is not None
    out: list[str] = []
    for line in text[start.start():].splitlines():
        line = line.rstrip().replace(" and the match", "")
        head, wins, tail = line.partition("Wins ")
        if wins:
            out.extend(part for part in (head.rstrip(), wins + tail) if part.strip())
        elif line.strip():
            out.append(line)
    return out


def _gnubg_round_trip(tmp_path: Path, text: str, setup: str = "") -> tuple[str, str]:
    assert GNUBG is not None
    src, out = tmp_path / "in.mat", tmp_path / "out.mat"
    src.write_text(text, encoding="utf-8")
    commands = f"{setup}import mat {src}\nshow score\nexport match mat {out}\n"
    env = {**os.environ, "HOME": str(tmp_path)}
    done = subprocess.run([GNUBG, "-t", "-q"], input=commands, capture_output=True,
                          text=True, timeout=300, cwd=tmp_path, env=env, check=False)
    assert out.exists(), done.stdout + done.stderr
    return out.read_text(encoding="utf-8"), done.stdout


@needs_gnubg
@pytest.mark.parametrize("seed", [1, 2])
def test_gnubg_imports_an_exported_match(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    games, match = random_match(rng, 5)
    text = export_match(games, length=5, names=("Alice Smith", "Bob"), site="Discord")
    again, output = _gnubg_round_trip(tmp_path, text)
    assert "Unrecognised" not in output and "WARNING" not in output, output
    assert _games_part(again) == _games_part(text)
    w, b = match.score
    assert f"is: Alice Smith {w}, Bob {b} (match to 5 points" in output, output


@needs_gnubg
def test_gnubg_imports_the_hand_written_game_and_a_money_session(tmp_path: Path) -> None:
    again, output = _gnubg_round_trip(tmp_path, SHORT_MATCH_TEXT)
    assert _games_part(again) == _games_part(SHORT_MATCH_TEXT)
    assert "is: Alice 0, Bob 2 (match to 5 points)" in output, output

    games, session = random_session(random.Random(5), 5, RuleOptions())
    text = export_match(games, length=0, names=("Alice", "Bob"))
    again, output = _gnubg_round_trip(tmp_path, text, setup="set jacoby off\n")
    assert _games_part(again) == _games_part(text)
    w, b = session.points
    assert f"is: Alice {w}, Bob {b} (money session" in output, output


def test_a_cube_limit_in_other_digits_is_ignored_not_a_crash() -> None:
    """'²' passes ``str.isdigit`` but not ``int``: a tag the parser can't read is left out
    (the rules stay the default), as any other unreadable tag."""
    header = '; [CubeLimit "{}"]\n\n 3 point match\n\n Game 1\n Alice : 0   Bob : 0\n'
    for odd in ("²", "٣", "1e3", "-4"):
        assert parse_mat(header.format(odd)).rules.max_cube == DEFAULT_RULES.max_cube, odd
    assert parse_mat(header.format("8")).rules.max_cube == 8

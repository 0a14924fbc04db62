"""Export of games and matches as GNU Backgammon's native .sgf, with the rules in force.

The expected move texts are from files GNU Backgammon 1.07 wrote itself (``save
match`` after importing a .mat): WHITE's 62 played 24/18 13/11 is ``62xrmk``,
BLACK's 52 played 24/22 13/8 is ``52aclq``, BLACK entering from the bar is
``y...``, bearing off ``...z``; a beaver is the doubled player's ``double``.
The gnubg tests load the files into Debian's gnubg and read back the score,
the rules it applies (``show jacoby``) and its own re-export.
"""

from __future__ import annotations

import os
import random
import re
import subprocess
from pathlib import Path

import pytest
from gnubg_tool import GNUBG, needs_gnubg
from mat_games import random_match, random_session, store_match

from bot.service.records.export import export_channel_match_sgf
from bot.storage.sqlite import SqliteStorage
from engine.dice import Dice
from engine.formats.matfile import MatGame, export_match
from engine.formats.sgf import (
    SgfExportError,
    export_sgf,
    format_play,
    game_nodes,
    rules_property,
)
from engine.game import Game
from engine.move import Move
from engine.player import Player
from engine.rules import RuleOptions, ScoringMethod
from engine.scoring import ResultKind

W, B = Player.WHITE, Player.BLACK


def test_moves_in_gnubg_coordinates() -> None:
    assert format_play(W, Dice(6, 2), (Move(24, 18), Move(13, 11))) == "62xrmk"
    assert format_play(B, Dice(5, 2), (Move(24, 22), Move(13, 8))) == "52aclq"
    assert format_play(B, Dice(4, 3), (Move(25, 21), Move(8, 5))) == "43ydqt"
    assert format_play(W, Dice(2, 2), (Move(3, 1), Move(2, 0), Move(2, 0), Move(2, 0))) \
        == "22cabzbzbz"
    # A checker moving twice is written twice, highest starting point first.
    assert format_play(W, Dice(5, 5), (Move(13, 8), Move(18, 13), Move(18, 13), Move(11, 6))) \
        == "55rmrmmhkf"


def test_rules_property() -> None:
    plain = RuleOptions()
    assert rules_property(plain, match=True, crawford_game=False) == "Crawford"
    assert rules_property(plain, match=True, crawford_game=True) == "Crawford:CrawfordGame"
    assert rules_property(RuleOptions(crawford=False), match=True, crawford_game=False) == ""
    assert rules_property(RuleOptions(jacoby=True), match=False, crawford_game=False) \
        == "Jacoby"
    assert rules_property(plain, match=False, crawford_game=False) == ""
    assert rules_property(RuleOptions(cube=False), match=False, crawford_game=False) \
        == "NoCube"
    assert rules_property(RuleOptions(cube=False), match=True, crawford_game=False) \
        == "NoCube:Crawford"


def beaver_game() -> Game:
    # 002 'OPTIONAL RULES' (Beavers): the doubled player beavers, the doubler takes.
    g = Game.new("standard", RuleOptions(beavers=True), first_player=W)
    g = g.double(W).beaver(B).take(W).roll(Dice(3, 1))
    g = g.play_moves((Move(8, 5), Move(6, 5)), W)
    return g.resign(B, ResultKind.SINGLE).answer_resignation(W, True)


def test_beaver_resignation_and_result() -> None:
    nodes, result = game_nodes(beaver_game().to_record())
    assert nodes == ["W[double]", "B[double]", "W[take]", "W[31hefe]"]  # 8/5 6/5
    assert result is not None and result.points == 4
    text = export_sgf([MatGame(beaver_game().to_record())], length=0, names=("A]l\\", "Bob"))
    assert "RE[W+4R]" in text and r"PW[A\]l\\]" in text
    assert text.startswith("(;FF[4]GM[6]CA[UTF-8]") and text.rstrip().endswith(")")


def test_refuses_what_gnubg_cannot_hold() -> None:
    variant = Game.new("russian").to_record()
    with pytest.raises(SgfExportError, match="standard backgammon"):
        export_sgf([MatGame(variant)], length=0, names=("a", "b"))
    checkers = Game.new("standard", RuleOptions(scoring=ScoringMethod.CHECKERS_1)).to_record()
    with pytest.raises(SgfExportError, match="scored"):
        export_sgf([MatGame(checkers)], length=0, names=("a", "b"))


async def test_export_channel_match_sgf_reads_storage(tmp_path: Path) -> None:
    games, match = random_match(random.Random(11), 3)
    storage = SqliteStorage(tmp_path / "db.sqlite3")
    await storage.open()
    try:
        async with storage.transaction() as tx:
            row = await store_match(tx, games, length=3)
            text = await export_channel_match_sgf(tx, row)
    finally:
        await storage.close()
    # The same text as exporting the games directly (names and score from storage).
    direct = export_sgf(games, length=3, names=("Alice", "Bob"), site="Discord",
                        date=row.created_at[:10])
    assert text == direct
    assert text.count("(;FF[4]GM[6]") == len(games) and "PC[Discord]" in text
    wins = re.findall(r"RE\[([WB])\+(\d+)R?\]", text)
    totals = {"W": 0, "B": 0}
    for colour, points in wins:
        totals[colour] += int(points)
    assert (totals["W"], totals["B"]) == match.score


# -- GNU Backgammon itself -------------------------------------------------------------------


def _gnubg_load(tmp_path: Path, text: str, setup: str = "") -> tuple[str, str, str]:
    """Load ``text`` as .sgf; gnubg's output, its .mat re-export and its own .sgf."""
    assert GNUBG is not None
    src, mat, sgf = tmp_path / "in.sgf", tmp_path / "out.mat", tmp_path / "out.sgf"
    src.write_text(text, encoding="utf-8")
    commands = (f"{setup}load match {src}\nshow score\nshow jacoby\n"
                f"export match mat {mat}\nsave match {sgf}\n")
    env = {**os.environ, "HOME": str(tmp_path)}
    done = subprocess.run([GNUBG, "-t", "-q"], input=commands, capture_output=True,
                          text=True, timeout=300, cwd=tmp_path, env=env, check=False)
    assert mat.exists() and sgf.exists(), done.stdout + done.stderr
    return (done.stdout, mat.read_text(encoding="utf-8"),
            sgf.read_text(encoding="utf-8"))


def _plays(mat_text: str) -> list[str]:
    """Every play (dice and moves) and cube entry of a .mat text, in order.  Throws
    without a move are left out: a throw made just before a resignation is not a
    play, and the .sgf (as gnubg's own) does not keep it."""
    return re.findall(r"\d\d:(?: \d+/\d+\*?)+|Doubles => \d+|Beavers => \d+|Takes|Drops",
                      mat_text)


@needs_gnubg
def test_gnubg_loads_a_match_with_crawford(tmp_path: Path) -> None:
    games, match = random_match(random.Random(1), 5)
    text = export_sgf(games, length=5, names=("Alice Smith", "Bob"), date="2024-05-01")
    out, mat, again = _gnubg_load(tmp_path, text)
    w, b = match.score
    assert f"is: Alice Smith {w}, Bob {b} (match to 5 points" in out, out
    # Every play and cube action arrived as the bot's own .mat export has it.
    assert _plays(mat) == _plays(export_match(games, length=5, names=("Alice Smith", "Bob")))
    # gnubg keeps the Crawford rule, and marks the Crawford game, in its own file.
    assert "RU[Crawford" in again
    crawford = [g for g in games if g.record.crawford]
    assert again.count("RU[Crawford:CrawfordGame]") == len(crawford)


@needs_gnubg
@pytest.mark.parametrize("jacoby", [False, True])
def test_gnubg_applies_the_jacoby_rule_of_the_file(tmp_path: Path, jacoby: bool) -> None:
    # The opposite of the file's rule is gnubg's default here: the file must win.
    games, session = random_session(random.Random(5), 5,
                                    RuleOptions(jacoby=jacoby, beavers=True))
    text = export_sgf(games, length=0, names=("Alice", "Bob"))
    setup = f"set jacoby {'off' if jacoby else 'on'}\nset beavers 3\n"
    out, mat, _ = _gnubg_load(tmp_path, text, setup)
    w, b = session.points
    rule = "with Jacoby rule" if jacoby else "without Jacoby rule"
    assert f"is: Alice {w}, Bob {b} (money session, {rule})" in out, out
    played = "with" if jacoby else "without"
    assert f"This money session is played {played} the Jacoby rule." in out, out
    assert _plays(mat) == _plays(export_match(games, length=0, names=("Alice", "Bob")))


@needs_gnubg
def test_gnubg_loads_a_session_without_the_cube(tmp_path: Path) -> None:
    games, session = random_session(random.Random(7), 3, RuleOptions(cube=False))
    text = export_sgf(games, length=0, names=("Alice", "Bob"))
    out, _, again = _gnubg_load(tmp_path, text)
    w, b = session.points
    assert f"is: Alice {w}, Bob {b} (money session" in out, out
    assert again.count("RU[NoCube") == len(games)

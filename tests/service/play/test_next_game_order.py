"""Issue 42 item 8: in money play (and between a match's games) the ended game's final
board comes before "Game 2 begins... Opening throw...": the reply says where its boards go
in its text, and the console, Discord and the AI's merged reply keep that order."""

from __future__ import annotations

import io
from pathlib import Path

from scripted import Script, opened

from bot.adapters.console import Console
from bot.config import Config
from bot.service.ai_turns import merge
from bot.service.core.replies import Board, Reply, text_parts
from bot.service.core.values import Actor, Place
from bot.service.game import GameService
from engine.player import Player
from engine.position import Position
from engine.scoring import ResultKind
from render.view import BoardView, GameOverView

ALICE = Actor(1, "alice")
BOB = Actor(2, "bob")
HERE = Place(guild_id=7, channel_id=70)


async def test_the_next_game_s_lines_come_after_the_final_board(tmp_path: Path) -> None:
    storage = await opened(tmp_path / "bg.sqlite3")
    service = GameService(storage, Config(), dice=Script([2, 1, 3, 1]))  # type: ignore[arg-type]
    assert (await service.challenge(HERE, ALICE, BOB, stake=1)).ok
    assert (await service.accept(HERE, BOB)).ok
    assert (await service.resign(HERE, BOB, "single")).ok
    ended = await service.answer_resignation(HERE, ALICE, True)
    assert ended.ok and "Game 2 begins" in ended.text  # the whole text, as before
    final, current = ended.boards
    assert final.view.game_over is not None and current.view.game_over is None
    before, after = text_parts(ended)
    assert "alice wins a single game" in before and "Session after" in before
    assert "Game 2 begins" not in before and "Opening throw" not in before
    assert after.startswith("Game 2 begins.") and "Opening throw: alice 3, bob 1." in after


async def test_the_console_prints_the_final_board_before_the_next_game(tmp_path: Path) -> None:
    storage = await opened(tmp_path / "c.sqlite3")
    out = io.StringIO()
    console = Console(GameService(storage, Config(), dice=Script([2, 1, 3, 1])),  # type: ignore[arg-type]
                      tmp_path / "boards", out=out)
    for line in ("alice: /challenge @bob stake=1", "bob: /accept", "bob: /resign single"):
        assert await console.handle(line)
    start = len(out.getvalue())
    assert await console.handle("alice: /answer accept")
    text = out.getvalue()[start:]
    assert (text.index("alice wins a single game") < text.index("Game over: alice wins")
            < text.index("Game 2 begins") < text.index("Opening throw")
            < text.index("alice rolled 3-1"))


def board(over: bool = False, lines_before: int | None = None) -> Board:
    over_view = GameOverView(Player.WHITE, ResultKind.SINGLE, 1) if over else None
    return Board(BoardView(Position.standard(), game_over=over_view),
                 lines_before=lines_before)


def test_text_parts_cut_the_text_where_the_boards_go() -> None:
    reply = Reply(ok=True, text="a\nb\nc", boards=(board(True, 2), board()))
    assert text_parts(reply) == ["a\nb", "c"]
    assert text_parts(Reply(ok=True, text="a\nb", boards=(board(), board()))) == ["a\nb", ""]
    assert text_parts(Reply(ok=True, text="a")) == ["a"]


def test_the_ai_s_merged_reply_keeps_the_order() -> None:
    # The player's action ends game 1 and game 2 begins; then the AI plays.
    mine = Reply(ok=True, text="x\nalice wins.\nGame 2 begins.",
                 boards=(board(True, 2), board()))
    ai = Reply(ok=True, text="gnubot plays 8/5 6/5.", boards=(board(),))
    merged = merge([mine, ai])
    assert text_parts(merged) == ["x\nalice wins.", "Game 2 begins.\ngnubot plays 8/5 6/5."]
    # An earlier reply's final board without a cut goes after that reply's own lines.
    ended = Reply(ok=True, text="gnubot wins.", boards=(board(True),))
    assert text_parts(merge([ended, ai])) == ["gnubot wins.", "gnubot plays 8/5 6/5."]

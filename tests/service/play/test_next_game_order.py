"""Issue 42 item 8: in money play (and between a match's games) the ended game's final
board comes before "Game 2 begins... Opening throw...": the next game's lines go with
its own board, in the console and in Discord alike, and through the AI's merged reply."""

from __future__ import annotations

import io
from pathlib import Path

from scripted import Script, opened

from bot.adapters.console import Console
from bot.config import Config
from bot.service.ai_turns import merge
from bot.service.core.replies import Board, Reply
from bot.service.core.values import Actor, Place
from bot.service.game import GameService
from engine.player import Player
from engine.position import Position
from engine.scoring import ResultKind
from render.view import BoardView, GameOverView

ALICE = Actor(1, "alice")
BOB = Actor(2, "bob")
HERE = Place(guild_id=7, channel_id=70)


async def test_the_next_game_s_lines_go_with_its_board(tmp_path: Path) -> None:
    storage = await opened(tmp_path / "bg.sqlite3")
    service = GameService(storage, Config(), dice=Script([2, 1, 3, 1]))  # type: ignore[arg-type]
    assert (await service.challenge(HERE, ALICE, BOB, stake=1)).ok
    assert (await service.accept(HERE, BOB)).ok
    assert (await service.resign(HERE, BOB, "single")).ok
    ended = await service.answer_resignation(HERE, ALICE, True)
    assert ended.ok
    assert "alice wins a single game" in ended.text and "Session after" in ended.text
    assert "Game 2 begins" not in ended.text and "Opening throw" not in ended.text
    final, current = ended.boards
    assert final.view.game_over is not None and not final.text
    assert current.view.game_over is None
    assert current.text.startswith("Game 2 begins.")
    assert "Opening throw: alice 3, bob 1." in current.text


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


def board(text: str = "", over: bool = False) -> Board:
    over_view = GameOverView(Player.WHITE, ResultKind.SINGLE, 1) if over else None
    view = BoardView(Position.standard(), game_over=over_view)
    return Board(view, text=text)


def test_the_ai_s_merged_reply_keeps_the_order() -> None:
    # The player's action ends game 1 and game 2 begins (its board left out: the AI's
    # answer shows the board now); then the AI plays.
    mine = Reply(ok=True, text="alice wins.", boards=(board(over=True),
                                                      board("Game 2 begins.")))
    ai = Reply(ok=True, text="gnubot plays 8/5 6/5.", boards=(board(),))
    merged = merge([mine, ai])
    assert merged.text == "alice wins."
    assert [b.view.game_over is not None for b in merged.boards] == [True, False]
    assert merged.boards[1].text == "Game 2 begins.\ngnubot plays 8/5 6/5."
    # Without a game ending, all is said before the board, as before.
    merged = merge([Reply(ok=True, text="alice plays.", boards=(board(),)), ai])
    assert merged.text == "alice plays.\ngnubot plays 8/5 6/5." and not merged.boards[0].text

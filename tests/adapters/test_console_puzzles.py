"""``/puzzle`` in the console (issue 33): shown with its board and the answers it offers
listed, answered by typing, judged and scored; /leaderboard pr and puzzles."""

from __future__ import annotations

import io
from pathlib import Path

from grading import OPENING, InProcess
from scripted import Script, opened

from bot.adapters.console import Console
from bot.ai.runner import AIRunner
from bot.config import Config
from bot.service.core.replies import Reply
from bot.service.game import GameService


async def test_a_puzzle_in_the_console(tmp_path: Path) -> None:
    storage = await opened(tmp_path / "c.sqlite3")
    ai = AIRunner(processes=False)
    try:
        out = io.StringIO()
        service = GameService(storage, Config(), dice=Script(OPENING * 4), ai=ai)
        console = Console(service, tmp_path / "boards", out=out)
        for line in ("alice: /challenge @bob length=1", "bob: /accept", "bob: /move 8/4",
                     "alice: /resign", "bob: /answer accept"):
            assert await console.handle(line)
        assert "being graded in the background" in out.getvalue()

        async def post(channel: int, reply: Reply) -> None:
            await console.show(reply)

        grader = service.grader(InProcess(), post)
        assert await grader.run_once() is not None and await grader.post_pending() == 1
        assert "Grades of the 1-point match alice - bob" in out.getvalue()
        assert await console.handle("carol: /puzzle")
        text = out.getvalue()
        assert "Puzzle #1: 3-1 to play: find the best play." in text
        assert "  answers: " in text and "8/5 6/5" in text and "(/puzzle answer 1 ...)" in text
        assert "board image:" in text
        assert await console.handle("carol: /puzzle answer 1 8/5 6/5")
        assert "Right: 8/5 6/5 is the best answer to puzzle #1." in out.getvalue()
        assert await console.handle("dave: /puzzle answer 8/4")
        assert "Not the best: 8/4 gives up" in out.getvalue()
        assert await console.handle("dave: /puzzle answer")
        assert "(only you see this) /puzzle [number] shows a puzzle" in out.getvalue()
        assert await console.handle("carol: /leaderboard puzzles")
        assert "  1. carol" in out.getvalue()
        assert await console.handle("carol: /leaderboard pr")
        assert "PR leaderboard" in out.getvalue() and "Traceback" not in out.getvalue()
    finally:
        ai.close()

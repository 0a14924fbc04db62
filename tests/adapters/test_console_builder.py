"""The move builder in the console (issue 31, item 5): ``/steps`` lists the numbered steps
for each die (and the whole plays when they are few), ``/step N`` takes one, and the list
comes again until the play is made."""

from __future__ import annotations

import io
from pathlib import Path

from scripted import Script, opened

from bot.adapters.console import Console
from bot.config import Config
from bot.service.game import GameService


async def console(tmp_path: Path, dice: list[int]) -> tuple[Console, io.StringIO]:
    storage = await opened(tmp_path / "c.sqlite3")
    out = io.StringIO()
    made = Console(GameService(storage, Config(), dice=Script(dice)),  # type: ignore[arg-type]
                   tmp_path / "boards", out=out)
    assert await made.handle("alice: /challenge @bob length=3")
    assert await made.handle("bob: /accept")
    return made, out


def since(out: io.StringIO, mark: int) -> str:
    return out.getvalue()[mark:]


async def test_steps_lists_numbered_steps_and_step_takes_one(tmp_path: Path) -> None:
    con, out = await console(tmp_path, [6, 1, 3, 1])
    mark = len(out.getvalue())
    assert await con.handle("/steps")  # no name: the player to play
    text = since(out, mark)
    assert "alice, you play 6-1." in text
    assert "  Play the 6:   1) 24 → 18   2) 13 → 7   3) 8 → 2" in text
    assert "  Play the 1:   4) 24 → 23   5) 8 → 7   6) 6 → 5" in text
    assert "12) 13 → 7, 8 → 7" in text and "16) 8 → 2, 6 → 5" in text
    assert "/step N takes one" in text

    mark = len(out.getvalue())
    assert await con.handle("/step 2")
    text = since(out, mark)
    assert "alice has played 13/7 so far." in text
    assert "board image:" in text  # the draft drawn
    assert "So far: 13 → 7." in text and "Play the 1:   1) 24 → 23   2) 8 → 7" in text
    assert "or: /undo-step   /start-over" in text

    mark = len(out.getvalue())
    assert await con.handle("/step 99")
    assert "(only you see this) There is no step 99: /steps lists 1 to 8." in since(out, mark)
    assert await con.handle("/undo-step")
    assert "Undone 13/7; nothing entered yet this turn." in out.getvalue()
    assert await con.handle("/step 13/7")
    assert await con.handle("/start-over")
    assert "Started over: nothing entered yet this turn." in out.getvalue()

    mark = len(out.getvalue())
    assert await con.handle("/step 13/7")
    assert await con.handle("/step 8/7")
    text = since(out, mark)
    assert "alice plays 13/7 8/7." in text
    assert text.count("you play 6-1") == 1  # after the play no list: it is bob's turn

    mark = len(out.getvalue())
    assert await con.handle("bob: /steps")
    assert "You have no dice to play yet: roll first" in since(out, mark)


async def test_a_step_for_someone_else_is_refused(tmp_path: Path) -> None:
    con, out = await console(tmp_path, [6, 1])
    mark = len(out.getvalue())
    assert await con.handle("bob: /step 1")
    assert "It's not your turn: alice must play." in since(out, mark)
    assert await con.handle("bob: /step")
    assert "Say which step to take, e.g. /step 2" in out.getvalue()

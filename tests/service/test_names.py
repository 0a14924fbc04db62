"""Issue 30 items 15 and 16: names with bidirectional controls and invisible characters
are neutralised where they enter, so texts, pictures and files show what a reader sees;
the leaderboard's columns line up whatever the width of a name's characters."""

from __future__ import annotations

from pathlib import Path

import pytest
from scripted import Script, opened

from bot.config import Config
from bot.names import display_name, display_width, neutral, pad
from bot.service.core.values import Actor, Place
from bot.service.game import GameService
from render.ascii import text_board
from render.png import render_image
from render.view import BoardView, PlayerInfo

HERE = Place(guild_id=7, channel_id=70)
RLO, PDF, LRI, PDI, ZWSP = "\u202e", "\u202c", "\u2066", "\u2069", "\u200b"
HIDDEN = [RLO, PDF, LRI, PDI, ZWSP, "\u200e", "\u200f", "\u061c", "\ufeff", "\u00ad",
          "\u2060", "\U000e0041", "\u3164", "\u2028"]


@pytest.mark.parametrize("name, shown", [
    (f"{RLO}evil{PDF}", "evil"),
    (f"al{ZWSP}ice", "alice"),
    (f"{LRI}bob{PDI} the{chr(0x2028)}great", "bob the great"),
    ("\u3164", "7"),                              # a Hangul filler alone: nothing visible
    ("\U0001f468\u200d\U0001f469\u200d\U0001f467 fam", "\U0001f468\u200d\U0001f469\u200d"
     "\U0001f467 fam"),                           # the emoji's joiners stay
])
def test_names_are_neutralised(name: str, shown: str) -> None:
    assert display_name(name, "7") == shown
    assert Actor(7, name).name == shown
    assert not any(ch in Actor(7, name).name for ch in HIDDEN)


def test_display_width_counts_columns() -> None:
    assert display_width("abc") == 3 and display_width("\U0001f3b2x") == 3
    assert display_width("e\u0301") == 1 and display_width("日本") == 4
    assert display_width(pad("\U0001f3b2dice", 20)) == 20
    assert pad("x" * 30, 20).endswith("…") and display_width(pad("x" * 30, 20)) == 20
    assert neutral("a\x00b") == "ab"


async def test_a_bidi_name_reaches_no_text_picture_or_file(tmp_path: Path) -> None:
    storage = await opened(tmp_path / "bg.sqlite3")
    service = GameService(storage, Config(), dice=Script([3, 1, 6, 5]))
    eve, bob = Actor(11, f"{RLO}eve{PDF} {LRI}x{PDI}"), Actor(12, f"b{ZWSP}ob")
    texts = []
    for reply in (await service.challenge(HERE, eve, bob, length=1),
                  await service.accept(HERE, bob),
                  await service.move(HERE, eve, "8/5 6/5"),
                  await service.board(HERE, bob),
                  await service.export(HERE, bob, "mat"),
                  await service.leaderboard(HERE, bob),
                  await service.stats(HERE, bob, eve)):
        assert reply.ok, reply.text
        texts.append(reply.text)
        texts.extend(str(n) for n in reply.notify)
        if reply.attachment is not None:
            texts.append(reply.attachment[1].decode("utf-8", "replace"))
        for board in reply.boards:
            texts.append(text_board(board.view))
            assert [p.name for p in board.view.players] == ["eve x", "bob"]
        for picture in reply.pictures:
            texts.append(picture.alt_text)
    joined = "\n".join(texts)
    assert "eve x" in joined and "bob" in joined
    assert not any(ch in joined for ch in HIDDEN)
    assert (await service.user_names([11, 12])) == {11: "eve x", 12: "bob"}


def test_the_picture_draws_the_neutral_name() -> None:
    """The PNG of a board whose player came in with U+202E is the picture of the plain
    name (Pillow would draw the override's reversed run)."""
    from engine.position import Position

    raw = BoardView(Position.standard(), players=(PlayerInfo(Actor(1, f"{RLO}alice").name),
                                                  PlayerInfo("bob")))
    plain = BoardView(Position.standard(), players=(PlayerInfo("alice"), PlayerInfo("bob")))
    assert render_image(raw).tobytes() == render_image(plain).tobytes()


async def test_leaderboard_columns_line_up_with_a_wide_emoji(tmp_path: Path) -> None:
    storage = await opened(tmp_path / "bg.sqlite3")
    service = GameService(storage, Config(), dice=Script([3, 1]))
    dice_fan, bob = Actor(11, "\U0001f3b2\U0001f3b2 fan"), Actor(12, "bob")
    assert (await service.challenge(HERE, dice_fan, bob, length=1)).ok
    assert (await service.accept(HERE, bob)).ok
    assert (await service.forfeit(HERE, bob, confirm=True)).ok
    board = await service.leaderboard(HERE, bob)
    lines = [line for line in board.text.splitlines() if " rating " in line and " exp " in line]
    assert len(lines) == 2
    columns = {display_width(line[:line.index(" rating ")]) for line in lines}
    assert len(columns) == 1, lines

"""Issue 42 item 7: the chouette panel lists the box's partners with the box, not among
the captain's partners (the text board said "Partners ... 3. dave (with box) (in)";
the picture drew him under "Partners")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from scripted import Script, opened

import render.png
from bot.config import Config
from bot.service.core.replies import Reply
from bot.service.core.values import Actor, Place
from bot.service.game import GameService
from render.ascii import text_board
from render.png import render_image

ALICE, BOB, CAROL, DAVE = (Actor(1, "alice"), Actor(2, "bob"), Actor(3, "carol"),
                           Actor(4, "dave"))
HERE = Place(guild_id=7, channel_id=70)


def ok(reply: Reply) -> Reply:
    assert reply.ok, reply.text
    return reply


async def seated(tmp_path: Path) -> Reply:
    storage = await opened(tmp_path / "bg.sqlite3")
    games = GameService(storage, Config(), dice=Script([6, 5, 4, 3, 1, 3, 5, 2]))  # type: ignore[arg-type]
    ok(await games.chouette.open(HERE, ALICE, box_partners=1))
    for p in (BOB, CAROL, DAVE):
        ok(await games.chouette.join(HERE, p))
    return ok(await games.chouette.start(HERE, ALICE))


async def test_the_box_partner_is_listed_with_the_box(tmp_path: Path) -> None:
    reply = await seated(tmp_path)
    assert "with the box: dave" in reply.text
    view = reply.boards[-1].view
    assert view.chouette is not None
    assert [p.name for p in view.chouette.partners] == ["carol"]
    assert view.chouette.box_partners == ("dave",)
    line = next(line for line in text_board(view).splitlines() if "Chouette:" in line)
    assert line.strip() == "Chouette: box alice with dave, captain bob; partners: 1. carol (in)"
    assert "(with box)" not in line


async def test_the_picture_draws_the_box_partner_under_the_box(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    reply = await seated(tmp_path)
    view = reply.boards[-1].view
    drawn: list[tuple[str, float]] = []
    original = render.png._Ops.text

    def record(self: Any, zone: Any, xy: tuple[float, float], text: str, *rest: Any,
               **kw: Any) -> None:
        if zone == "chouette":
            drawn.append((text, xy[1]))
        original(self, zone, xy, text, *rest, **kw)

    monkeypatch.setattr(render.png._Ops, "text", record)
    render_image(view)
    texts = [t for t, _ in drawn]
    y = dict(drawn)
    assert "with dave" in texts, texts
    assert y["Box"] < y["with dave"] < y["Captain"] < y["Partners"]
    assert not any("dave" in t for t in texts if y[t] > y["Partners"]), texts

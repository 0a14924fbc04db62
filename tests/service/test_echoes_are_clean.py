"""Every echo clean (issue 43 item 4): hostile text -- NUL and other control characters,
lone surrogates (not even encodable as UTF-8), bidirectional controls, invisible
characters, very long input -- sent as the option of every action of the action table
(in a game waiting for a move, and where there is none) and to every other command that
takes typed text (/settings show, set, reset; /challenge's variant; /tournament create;
/puzzle answer; /export; /leaderboard; /rules), on a real SQLite file.  Every reply, a
refusal or not, is checked: no control character but the newline, no lone surrogate, no
bidirectional control, encodable as UTF-8, and bounded."""

from __future__ import annotations

import asyncio
import tempfile
import unicodedata
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scripted import Script, opened

from bot.config import Config
from bot.service.core.replies import Action, Reply, plain
from bot.service.core.values import Actor, Place
from bot.service.game import GameService

ALICE, BOB, ADMIN = Actor(1, "alice"), Actor(2, "bob"), Actor(3, "admin")
TABLE, EMPTY = Place(7, 70), Place(7, 71)
MAX_REPLY = 2000
"""Discord's limit on a message's content: no echo may make a reply longer."""

NASTY = ["\x00", "\ud800", "\udfff", "\u202e", "\u2066", "\u200f", "\u061c", "\x1b[31m",
         "\u200b", "\r\n", "\x85", "\t", "\x7f", "\u2028", "\ufeff", "\U000e0041", "A" * 5000]
PREFIXES = ["", "threads", "rules.jacoby", "13/7 ", "24/18", "1", "on", "gammon", "confirm",
            "mat", "rating", "standard", "in/20"]

pieces = st.one_of(st.sampled_from(NASTY), st.text(max_size=6),
                   st.characters(categories=["Cc", "Cf", "Cs", "Zl", "Zp", "Co", "Cn"]))
hostile = st.builds(lambda head, body: head + "".join(body), st.sampled_from(PREFIXES),
                    st.lists(pieces, min_size=1, max_size=6))

BIDI = {"\u061c", "\u200e", "\u200f", *map(chr, range(0x202A, 0x202F)),
        *map(chr, range(0x2066, 0x206A))}


def clean(text: str, what: str) -> None:
    """``text`` is fit to show: the checks of the issue."""
    bad = [c for c in text if (unicodedata.category(c) == "Cc" and c != "\n")
           or unicodedata.category(c) == "Cs" or c in BIDI]
    assert not bad, (what, bad[:5], text[:200])
    text.encode("utf-8")  # (raises for a lone surrogate)
    assert len(text) <= MAX_REPLY, (what, len(text))


def check(reply: Reply, what: str) -> None:
    clean(reply.text, what)
    for line in reply.notify:
        clean(plain(line), what)


async def scenario(texts: list[str]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        storage = await opened(Path(folder) / "bg.sqlite3")
        service = GameService(storage, Config(), dice=Script([6, 1], then="3f1a9c52e7b4d0862b5e"))
        assert (await service.challenge(TABLE, ALICE, BOB, length=3)).ok
        assert (await service.accept(TABLE, BOB)).ok  # alice's 6-1 to play
        for text in texts:
            for action in Action:
                for place in (TABLE, EMPTY):
                    for actor in (ALICE, BOB):
                        reply = await service.act(action, place, actor, option=text)
                        check(reply, f"/{action.value} {text!r}")
            for place in (TABLE, EMPTY):
                check(await service.settings_show(place, ADMIN, text), "settings show")
                check(await service.settings_set(place, ADMIN, text, text, manage_server=True),
                      "settings set (key)")
                check(await service.settings_set(place, ADMIN, "threads", text,
                                                 manage_server=True), "settings set (value)")
                check(await service.settings_set(place, ADMIN, "rules.jacoby", text,
                                                 manage_server=True), "settings set (rule)")
                check(await service.settings_reset(place, ADMIN, text, manage_server=True),
                      "settings reset")
            check(await service.challenge(EMPTY, ALICE, BOB, variant=text), "challenge")
            check(await service.tournament_create(EMPTY, ADMIN, is_organiser=True, name=text,
                                                  format=text, length=text),
                  "tournament create")
            check(await service.puzzle_answer(EMPTY, ALICE, text), "puzzle answer")
            check(await service.export(TABLE, ALICE, text), "export")
            check(await service.leaderboard(EMPTY, ALICE, text), "leaderboard")
            check(await service.rules(text, EMPTY), "rules")
        await storage.close()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(hostile, min_size=1, max_size=3))
def test_every_reply_to_hostile_text_is_clean(texts: list[str]) -> None:
    asyncio.run(scenario(texts))


def test_the_echoes_the_issue_names_are_clean() -> None:
    """/settings show threads\\0, /settings set and reset with a lone surrogate, /step \\0
    (issue 43 item 4), each answered with the text cleaned, not raw."""
    async def run() -> None:
        with tempfile.TemporaryDirectory() as folder:
            storage = await opened(Path(folder) / "bg.sqlite3")
            service = GameService(storage, Config(), dice=Script([6, 1]))
            assert (await service.challenge(TABLE, ALICE, BOB, length=3)).ok
            assert (await service.accept(TABLE, BOB)).ok
            shown = await service.settings_show(TABLE, ADMIN, "threads\x00")
            assert not shown.ok and "There is no setting 'threads'" in shown.text, shown.text
            for reply in (await service.settings_set(TABLE, ADMIN, "x\ud800", "on",
                                                     manage_server=True),
                          await service.settings_set(TABLE, ADMIN, "threads", "o\ud800n",
                                                     manage_server=True),
                          await service.settings_reset(TABLE, ADMIN, "x\ud800",
                                                       manage_server=True)):
                assert not reply.ok and "\ufffd" in reply.text, reply.text
                check(reply, "surrogate")
            step = await service.act(Action.STEP, TABLE, ALICE, option="13/9\x00")
            assert not step.ok and step.text.startswith("13/9 is not a step"), step.text
            check(step, "/step")
            long = await service.settings_show(TABLE, ADMIN, "\u202e" + "A" * 5000)
            assert not long.ok and "A" * 41 not in long.text and "\u202e" not in long.text
            await storage.close()

    asyncio.run(run())

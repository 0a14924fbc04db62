"""The console speaks the clock (issue 44 items 4, 6, 7): the ``clock`` option of
/challenge, the time left after each action, and a flag fall printed when it falls, with
nobody typing (the console's timer calls the service's one entry point for due work)."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

from scripted import Script, opened

from bot.adapters.console import Console
from bot.adapters.console.clock import clock_timer
from bot.config import Config
from bot.service.game import GameService


async def console_on(tmp_path: Path) -> tuple[Console, io.StringIO]:
    storage = await opened(tmp_path / "c.sqlite3")
    out = io.StringIO()
    service = GameService(storage, Config(), dice=Script([3, 1], then="0123456789abcdef"))  # type: ignore[arg-type]
    return Console(service, tmp_path / "boards", out=out), out


async def test_the_time_left_after_each_action_and_a_flag_fall_as_it_happens(
        tmp_path: Path) -> None:
    console, out = await console_on(tmp_path)
    async with clock_timer(console):
        assert await console.handle("alice: /challenge @bob length=1 clock=1s+1s/pt")
        assert "clock: 1 s a decision + 1 s a point: 1 s each" in out.getvalue()
        assert await console.handle("bob: /accept")
        said = out.getvalue()
        assert "Clock: alice 0:01, bob 0:01. @alice: 1 s delay, then the reserve" in said, said
        assert "the flag falls in 0:02." in said
        assert "clock 0:01" in said  # beside each name on the text board
        await asyncio.sleep(0.3)  # the timer's first beat: the clocks are kept from here
        mark = len(out.getvalue())
        await asyncio.sleep(2.6)  # nobody types: alice's flag falls and it is printed
        fall = out.getvalue()[mark:]
    assert "alice's time ran out." in fall and "bob wins the match on time" in fall, fall
    assert "Clock: alice 0:00, bob 0:01." in fall


async def test_the_clock_option_is_refused_with_what_is_allowed(tmp_path: Path) -> None:
    console, out = await console_on(tmp_path)
    assert await console.handle("alice: /challenge @bob clock=usbgf")
    assert "(only you see this) The clock usbgf gives a reserve per point" in out.getvalue()
    assert await console.handle("alice: /challenge @bob length=3 clock=lightning")
    assert "'lightning' is not a clock: name one of none, correspondence" in out.getvalue()


async def test_an_open_challenge_in_the_console(tmp_path: Path) -> None:
    console, out = await console_on(tmp_path)
    assert await console.handle("alice: /challenge length=1 min_rating=1400")
    said = out.getvalue()
    assert "alice posts an open challenge: a 1-point match" in said
    assert "Anyone but alice with a rating of at least 1400 may press Accept; it expires in " \
        "30 minutes" in said
    assert "[Accept] ()  [Withdraw] (alice)" in said
    assert await console.handle("alice: /accept")
    assert "You posted this open challenge" in out.getvalue()
    assert await console.handle("carol: /accept")
    assert "carol accepts." in out.getvalue()
    assert await console.handle("alice: /challenge min_rating=x")
    assert "min_rating and max_rating are whole numbers" in out.getvalue()


async def test_the_queue_and_the_lobby_in_the_console(tmp_path: Path) -> None:
    console, out = await console_on(tmp_path)
    async with clock_timer(console):  # the pairing is printed by the timer
        assert await console.handle("ann: /queue join length=1")
        assert "You are in the queue for a 1-point match of standard" in out.getvalue()
        assert await console.handle("eve: /lobby")
        assert "1 player waits in the queue:" in out.getvalue()
        assert await console.handle("/channel side")
        assert await console.handle("ben: /queue join length=1")
        await asyncio.sleep(0.6)
        said = out.getvalue()
    assert "Paired from the queue: @ann (1500) and @ben (1500)" in said, said
    assert "ben accepts." in said
    assert await console.handle("ann: /queue leave")
    assert "You are not in the queue" in out.getvalue()
    assert await console.handle("ann: /queue join length=x")
    assert "length is a whole number" in out.getvalue()

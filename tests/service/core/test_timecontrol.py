"""The ``clock`` option (issue 44 item 4): presets as Backgammon Galaxy and USBGF play them,
the custom form, and what is refused (saying why and what is allowed)."""

from __future__ import annotations

import pytest

from bot.service.core.timecontrol import (
    DAY,
    MINUTE,
    SECOND,
    ClockError,
    ClockSpec,
    left,
    new_clock,
    parse_clock,
)


@pytest.mark.parametrize(("text", "delay", "reserve"), [
    ("fast", 8 * SECOND, 20 * SECOND),  # Galaxy: 8 s a move + 20 s a point
    ("normal", 10 * SECOND, MINUTE),  # 10 s + 1 min a point
    ("casual", 15 * SECOND, 3 * MINUTE),  # 15 s + 3 min a point
    ("usbgf", 12 * SECOND, 2 * MINUTE),  # USBGF: 12 s delay + 2 min a point
])
def test_presets(text: str, delay: int, reserve: int) -> None:
    spec = parse_clock(text)
    assert spec is not None and (spec.delay_ms, spec.reserve_ms, spec.per_point) == (
        delay, reserve, True)
    assert spec.text == text
    assert spec.reserve_for(7) == 7 * reserve


def test_custom_forms() -> None:
    assert parse_clock("12s+2m/pt") == ClockSpec(12 * SECOND, 2 * MINUTE, True)
    assert parse_clock("12s+5m") == ClockSpec(12 * SECOND, 5 * MINUTE, False)
    blitz = parse_clock("1s+4s/pt")
    assert blitz == ClockSpec(SECOND, 4 * SECOND, True)
    assert blitz.text == "1s+4s/pt" and blitz.reserve_for(3) == 12 * SECOND
    assert parse_clock(" 1m30s + 1h ") == ClockSpec(90 * SECOND, 60 * MINUTE, False)
    assert parse_clock("0s+10m") == ClockSpec(0, 10 * MINUTE, False)  # no delay at all
    assert parse_clock("12S+5M").text == "12s+5m"  # type: ignore[union-attr]


def test_none_and_correspondence() -> None:
    assert parse_clock("none") is None and parse_clock(None) is None and parse_clock("") is None
    corr = parse_clock("correspondence")
    assert corr is not None and (corr.delay_ms, corr.reserve_ms) == (DAY, 0)
    assert corr.text == "correspondence" and corr.reserve_for(0) == 0  # money play too
    two = parse_clock("correspondence:2d")
    assert two is not None and two.delay_ms == 2 * DAY and two.text == "correspondence:2d"
    assert "a decision" in two.describe()


@pytest.mark.parametrize(("text", "words"), [
    ("soon", "not a clock"),
    ("12x+5m", "not a time"),
    ("12s+0s", "positive"),
    ("12s+99d", "longer than"),
    ("correspondence:10m", "hours to days"),
])
def test_refusals_say_what_is_allowed(text: str, words: str) -> None:
    with pytest.raises(ClockError, match=words):
        parse_clock(text)


def test_a_reserve_per_point_needs_a_match() -> None:
    spec = parse_clock("usbgf")
    assert spec is not None
    with pytest.raises(ClockError, match=r"money play has no length.*12s\+5m"):
        spec.reserve_for(0)
    row = new_clock(5, spec, 3)
    assert (row.white_ms, row.black_ms, row.turn, row.deadline_ms) == (
        6 * MINUTE, 6 * MINUTE, None, None)


def test_faces() -> None:
    assert left(0) == "0:00" and left(1) == "0:01"  # a started second still shows
    assert left(65 * SECOND) == "1:05" and left(3723 * SECOND) == "1:02:03"
    assert left(2 * DAY + 3 * 3600 * SECOND) == "2d 3h"

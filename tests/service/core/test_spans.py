"""Lengths of time in the host's messages (a claim's wait, a reminder), as people write
them: "1 day", not "1440 minute(s)"."""

from __future__ import annotations

import pytest

from bot.service.core.spans import span


@pytest.mark.parametrize(("minutes", "text"), [
    (0, "0 minutes"),
    (0.2, "1 minute"),  # a wait is rounded up: never said shorter than it is
    (1, "1 minute"),
    (59.5, "1 hour"),
    (90, "1 hour 30 minutes"),
    (1439.01, "1 day"),
    (1440, "1 day"),
    (1441, "1 day 1 minute"),
    (1500, "1 day 1 hour"),  # the two largest units: 1 day 1 hour (and 0 minutes)
    (1501, "1 day 1 hour"),  # the minute is left out
    (2 * 1440 + 180, "2 days 3 hours"),
])
def test_span(minutes: float, text: str) -> None:
    assert span(minutes) == text

"""Lengths of time as a player reads them: "24 hours", "1 hour 30 minutes", "2 days"."""

from __future__ import annotations

import math

_UNITS = (("day", 24 * 60), ("hour", 60), ("minute", 1))


def span(minutes: float) -> str:
    """``minutes`` in the two largest units that are not zero, rounded up to the minute
    (so a wait is never said to be shorter than it is): 1440 -> "1 day", 90 ->
    "1 hour 30 minutes", 0.2 -> "1 minute"."""
    if minutes <= 0:
        return "0 minutes"
    left = math.ceil(minutes)
    parts: list[str] = []
    for name, size in _UNITS:
        count, left = divmod(left, size)
        if count:
            parts.append(f"{count} {name}{'' if count == 1 else 's'}")
    return " ".join(parts[:2])

"""Time controls (issue 44 item 4): what a ``clock`` option says, parsed and shown; the
value every feature that starts a match reads (the clocks themselves are kept by
:mod:`bot.service.clock`).

A clock is a **delay** per decision (the reserve starts only after it: the "simple"
or US delay) and a **reserve** per player for the whole match or money session:

* ``none`` -- no clock (today's behaviour);
* ``correspondence`` -- a deadline for each decision and no reserve: one day a
  decision, or ``correspondence:12h``, ``correspondence:3d`` (hours to days);
* the live presets, as Backgammon Galaxy plays them -- ``fast`` (8 s + 20 s a point),
  ``normal`` (10 s + 1 min a point), ``casual`` (15 s + 3 min a point) -- and
  ``usbgf`` (12 s + 2 min a point, USBGF's tournaments);
* a custom form ``DELAY+RESERVE`` with ``/pt`` for a reserve per point of match
  length: ``12s+2m/pt`` (matches), ``12s+5m`` (money play, or a whole match), any
  positive times down to seconds (``1s+4s/pt``), in ``s``, ``m``, ``h``, ``d``
  (``1m30s``).

A reserve per point needs a match length: money play has none, so it is refused there
with the whole-reserve form to use instead.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.storage.interface import ClockRow

SECOND = 1000
MINUTE = 60 * SECOND
HOUR = 60 * MINUTE
DAY = 24 * HOUR
MAX_PART = 30 * DAY
"""The longest delay or reserve one may name (a correspondence decision: days)."""
MAX_RESERVE = 400 * DAY
"""The longest reserve of a whole match (a per-point reserve times the length)."""
UNITS = {"s": SECOND, "m": MINUTE, "h": HOUR, "d": DAY}
_PART = re.compile(r"(\d+(?:\.\d+)?)([smhd])")
EXAMPLES = "none, correspondence, fast, normal, casual, usbgf, 12s+2m/pt or 12s+5m"


class ClockError(ValueError):
    """A clock option that is not one: the message says why and what is allowed."""


@dataclass(frozen=True, slots=True)
class ClockSpec:
    """One time control: ``delay_ms`` a decision, then ``reserve_ms`` for the match
    (``per_point``: that much for each point of the match length)."""

    delay_ms: int
    reserve_ms: int
    per_point: bool = False
    name: str = ""
    """The preset's name ("fast", "correspondence"), "" for a custom clock."""

    @property
    def text(self) -> str:
        """The option as it is stored and typed again (``usbgf``, ``12s+5m``)."""
        if self.name == "correspondence":
            return ("correspondence" if self.delay_ms == DAY
                    else f"correspondence:{duration(self.delay_ms)}")
        if self.name:
            return self.name
        return f"{duration(self.delay_ms)}+{duration(self.reserve_ms)}" + (
            "/pt" if self.per_point else "")

    def reserve_for(self, length: int) -> int:
        """Each player's reserve for a match of ``length`` points (0: money play)."""
        if not self.per_point:
            return self.reserve_ms
        if length <= 0:
            raise ClockError(f"The clock {self.text} gives a reserve per point of match "
                             "length, and money play has no length: name a whole reserve "
                             "instead, e.g. clock:12s+5m.")
        return min(self.reserve_ms * length, MAX_RESERVE)

    def describe(self, length: int = 0) -> str:
        """In words, for the challenge's terms: "usbgf (12 s a decision + 2 min a point)"."""
        if self.name == "correspondence":
            return f"correspondence ({words(self.delay_ms)} a decision)"
        reserve = words(self.reserve_ms) + (" a point" if self.per_point else "")
        if self.per_point and length > 0:
            reserve += f": {words(self.reserve_for(length))} each"
        head = f"{self.name} (" if self.name else ""
        return (f"{head}{words(self.delay_ms)} a decision + {reserve}"
                + (")" if self.name else ""))


PRESETS: dict[str, ClockSpec] = {
    "fast": ClockSpec(8 * SECOND, 20 * SECOND, True, "fast"),
    "normal": ClockSpec(10 * SECOND, MINUTE, True, "normal"),
    "casual": ClockSpec(15 * SECOND, 3 * MINUTE, True, "casual"),
    "usbgf": ClockSpec(12 * SECOND, 2 * MINUTE, True, "usbgf"),
    "correspondence": ClockSpec(DAY, 0, False, "correspondence"),
}


def parse_duration(text: str, what: str) -> int:
    """``12s``, ``2m``, ``1m30s``, ``1.5h``, ``3d`` in milliseconds."""
    cleaned = text.strip().lower().replace(" ", "")
    if not cleaned or _PART.sub("", cleaned):
        raise ClockError(f"The {what} {cleaned[:20]!r} is not a time: write a number and "
                         "a unit s, m, h or d, e.g. 12s, 2m, 1m30s. Clocks: " + EXAMPLES + ".")
    total = sum(round(float(n) * UNITS[u]) for n, u in _PART.findall(cleaned))
    if total > MAX_PART:
        raise ClockError(f"The {what} {cleaned} is longer than {words(MAX_PART)}: "
                         "name a shorter one.")
    return total


def parse_clock(text: str | None) -> ClockSpec | None:
    """The clock an option names (None: ``none`` or nothing), or :class:`ClockError`."""
    cleaned = (text or "").strip().lower().replace(" ", "")
    if cleaned in ("", "none", "off", "no"):
        return None
    if cleaned in PRESETS:
        return PRESETS[cleaned]
    if cleaned.startswith("correspondence:"):
        delay = parse_duration(cleaned.split(":", 1)[1], "time a decision")
        if delay < HOUR:
            raise ClockError("A correspondence clock gives hours to days a decision "
                             "(e.g. correspondence:12h); for a live game use a delay and "
                             "a reserve, e.g. 12s+2m/pt.")
        return ClockSpec(delay, 0, False, "correspondence")
    if "+" not in cleaned:
        raise ClockError(f"{cleaned[:30]!r} is not a clock: name one of {EXAMPLES} "
                         "(a delay a decision + a reserve, /pt for a reserve per point).")
    delay_text, reserve_text = cleaned.split("+", 1)
    per_point = reserve_text.endswith("/pt")
    if per_point:
        reserve_text = reserve_text[:-3]
    delay = parse_duration(delay_text, "delay")
    reserve = parse_duration(reserve_text, "reserve")
    if reserve <= 0:
        raise ClockError("The reserve must be a positive time (e.g. 12s+2m/pt); for a "
                         "deadline a decision without a reserve, use correspondence.")
    return ClockSpec(delay, reserve, per_point)


def duration(ms: int) -> str:
    """Compact, as typed: ``12s``, ``2m``, ``1m30s``, ``1d``."""
    if ms <= 0:
        return "0s"
    out = []
    rest = ms
    for unit, size in (("d", DAY), ("h", HOUR), ("m", MINUTE), ("s", SECOND)):
        if rest >= size:
            out.append(f"{rest // size}{unit}")
            rest %= size
    if rest and not out:
        return f"{ms / SECOND:g}s"
    return "".join(out)


def words(ms: int) -> str:
    """For sentences: ``12 s``, ``2 min``, ``1 h 30 min``, ``1 day``."""
    days, rest = divmod(max(0, ms), DAY)
    hours, rest = divmod(rest, HOUR)
    minutes, rest = divmod(rest, MINUTE)
    seconds = rest / SECOND
    parts = []
    if days:
        parts.append(f"{days} day" + ("s" if days != 1 else ""))
    if hours:
        parts.append(f"{hours} h")
    if minutes:
        parts.append(f"{minutes} min")
    if seconds or not parts:
        parts.append(f"{seconds:g} s")
    return " ".join(parts)


def left(ms: int) -> str:
    """Time left as a clock face shows it: ``4:05``, ``1:02:03``, ``2d 3h``."""
    ms = max(0, ms)
    if ms >= DAY:
        return f"{ms // DAY}d {ms % DAY // HOUR}h"
    seconds = -(-ms // SECOND)  # a started second counts: the face shows 0:00 only at zero
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def new_clock(match_id: int, spec: ClockSpec, length: int) -> ClockRow:
    """The clock of a new match: each player's whole reserve, nobody's decision yet."""
    each = spec.reserve_for(length)
    return ClockRow(match_id, spec.text, spec.delay_ms, each, each)

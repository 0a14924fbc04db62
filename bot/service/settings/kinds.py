"""The kinds of value a server setting takes: how a typed value is read (a refusal lists the
allowed values), stored (typed JSON), read back, shown and offered by an autocomplete.

Every kind has the same five parts (:class:`Kind`); the settings table
(:mod:`bot.service.settings.table`) gives each key one.  Channels and roles are typed in the
adapter's own way (Discord ``<#id>``, the console ``#name``): the adapter passes a
:class:`Names` that turns a typed word into an id, and the service speaks in ids
(:class:`~bot.service.core.replies.ChannelMention`, :class:`~bot.service.core.replies.RoleMention`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from bot.service.core.limits import shown
from bot.service.core.replies import ChannelMention, Part, RoleMention
from bot.service.core.spans import span
from bot.service.core.timecontrol import EXAMPLES, PRESETS, ClockError, parse_clock
from bot.service.core.values import MAX_ID
from engine.errors import BackgammonError
from engine.rules import RuleOptions
from engine.words import counted

MAX_CHANNELS = 15
"""Channels a list may name (games, tournaments)."""
_QUOTE = 40


class SettingError(ValueError):
    """A typed value a setting does not take; the message says what it does take."""


def quoted(text: str) -> str:
    """``text`` in quotes for a refusal, cleaned and cut to a readable length
    (:func:`~bot.service.core.limits.shown`, the one echo of what was typed)."""
    return shown(text, _QUOTE)


class Names(Protocol):
    """How the adapter names channels and roles (the service stores their ids)."""

    def channel(self, word: str) -> int | None:
        """The id of the channel ``word`` names in this server (None: no such channel)."""
        ...

    def role(self, word: str) -> int | None:
        """The id of the role ``word`` names in this server (None: no such role)."""
        ...

    def takes_messages(self, channel_id: int) -> bool:
        """Whether the bot can post in the channel (not a forum, a category...)."""
        ...


_ID = re.compile(r"[#@&<>]*([0-9]{1,19})>?")


class ByIds:
    """Channels and roles typed as their ids (``123``, ``#123``, ``<#123>``): the names of
    an adapter that knows no better; "here" is the channel the command was typed in."""

    def __init__(self, here: int | None = None) -> None:
        self.here = here

    def _id(self, word: str) -> int | None:
        found = _ID.fullmatch(word.strip())
        if found is None:
            return None
        value = int(found.group(1))
        return value if 0 < value <= MAX_ID else None

    def channel(self, word: str) -> int | None:
        if word.strip().lower() == "here":
            return self.here
        return self._id(word)

    def takes_messages(self, channel_id: int) -> bool:
        return True  # (nothing is known of the channel but its id)

    def role(self, word: str) -> int | None:
        return self._id(word)


class Kind(Protocol):
    """What a setting's value is."""

    @property
    def allowed(self) -> str:
        """The allowed values, as a refusal lists them."""
        ...

    def parse(self, text: str, names: Names) -> Any:
        """The JSON value to store for the typed ``text``; :class:`SettingError` (saying
        what is allowed) when it is not one."""
        ...

    def decode(self, stored: Any) -> Any:
        """The typed value of a stored JSON value; :class:`ValueError` when the stored value
        is no longer one (it is then ignored)."""
        ...

    def show(self, value: Any) -> tuple[Part, ...]:
        """The typed value as a reader sees it."""
        ...

    def choices(self) -> list[str]:
        """Values an autocomplete offers."""
        ...


_ON = {"on", "yes", "true", "1", "y", "enabled"}
_OFF = {"off", "no", "false", "0", "n", "disabled"}


@dataclass(frozen=True, slots=True)
class Switch:
    """On or off."""

    allowed: str = "on or off"

    def parse(self, text: str, names: Names) -> Any:
        word = text.strip().lower()
        if word in _ON:
            return True
        if word in _OFF:
            return False
        raise SettingError(f"must be on or off, not {quoted(text)}")

    def decode(self, stored: Any) -> Any:
        if not isinstance(stored, bool):
            raise ValueError(stored)
        return stored

    def show(self, value: Any) -> tuple[Part, ...]:
        return ("on" if value else "off",)

    def choices(self) -> list[str]:
        return ["on", "off"]


@dataclass(frozen=True, slots=True)
class OneOf:
    """One of a list of names (a variant, an AI level)."""

    names: Callable[[], tuple[str, ...]]
    """The allowed names (read when needed: variants are plug-ins)."""

    @property
    def allowed(self) -> str:
        return "one of: " + ", ".join(self.names())

    def parse(self, text: str, names: Names) -> Any:
        word = text.strip().lower()
        if word in self.names():
            return word
        raise SettingError(f"must be {self.allowed}; not {quoted(text)}")

    def decode(self, stored: Any) -> Any:
        if not isinstance(stored, str) or stored not in self.names():
            raise ValueError(stored)
        return stored

    def show(self, value: Any) -> tuple[Part, ...]:
        return (str(value),)

    def choices(self) -> list[str]:
        return list(self.names())


_TIME = re.compile(r"([0-9]{1,6}(?:\.[0-9]{1,3})?)\s*(m|min|mins|minutes?|h|hours?|d|days?)?",
                   re.ASCII)
_UNIT = {"m": 1, "h": 60, "d": 24 * 60}


@dataclass(frozen=True, slots=True)
class Minutes:
    """A length of time in minutes, typed as minutes or with a unit (``90``, ``2h``,
    ``1d``)."""

    least: float
    most: float
    zero: str = ""
    """What 0 means (empty: 0 is not allowed)."""

    @property
    def allowed(self) -> str:
        low = "0 (" + self.zero + ") or " if self.zero else ""
        return (f"{low}a time from {span(self.least)} to {span(self.most)}, in minutes or "
                "with a unit: 90, 2h, 1d")

    def parse(self, text: str, names: Names) -> Any:
        found = _TIME.fullmatch(text.strip().lower())
        if found is None:
            raise SettingError(f"must be {self.allowed}; not {quoted(text)}")
        minutes = float(found.group(1)) * _UNIT[(found.group(2) or "m")[0]]
        if minutes == 0 and self.zero:
            return 0.0
        if not self.least <= minutes <= self.most:
            raise SettingError(f"must be {self.allowed}; not {quoted(text)}")
        return minutes

    def decode(self, stored: Any) -> Any:
        if isinstance(stored, bool) or not isinstance(stored, int | float):
            raise ValueError(stored)
        value = float(stored)
        if not (value == 0 and self.zero) and not self.least <= value <= self.most:
            raise ValueError(stored)
        return value

    def show(self, value: Any) -> tuple[Part, ...]:
        if value == 0 and self.zero:
            return (f"0 ({self.zero})",)
        minutes = f"{value:g} {counted(int(value), 'minute', digits=False)}"
        return (f"{minutes} ({span(value)})" if value >= 60 else minutes,)

    def choices(self) -> list[str]:
        return (["0"] if self.zero else []) + ["30", "60", "2h", "12h", "1d", "3d"]


_NUMBER = re.compile(r"[0-9]{1,4}(?:\.[0-9]{1,4})?", re.ASCII)


@dataclass(frozen=True, slots=True)
class Number:
    """A number between two bounds (``0.08``)."""

    least: float
    most: float
    unit: str = ""
    """Shown after the value ("EMG")."""

    @property
    def allowed(self) -> str:
        unit = f" {self.unit}" if self.unit else ""
        return f"a number from {self.least:g} to {self.most:g}{unit}"

    def parse(self, text: str, names: Names) -> Any:
        word = text.strip().lower().removesuffix(self.unit.lower()).strip()
        if _NUMBER.fullmatch(word) is None or not self.least <= float(word) <= self.most:
            raise SettingError(f"must be {self.allowed}; not {quoted(text)}")
        return float(word)

    def decode(self, stored: Any) -> Any:
        if isinstance(stored, bool) or not isinstance(stored, int | float) or \
                not self.least <= float(stored) <= self.most:
            raise ValueError(stored)
        return float(stored)

    def show(self, value: Any) -> tuple[Part, ...]:
        return (f"{value:g}" + (f" {self.unit}" if self.unit else ""),)

    def choices(self) -> list[str]:
        return [f"{v:g}" for v in (self.least, (self.least + self.most) / 2, self.most)]


def _channel_list(stored: Any) -> tuple[int, ...]:
    if not isinstance(stored, list) or not stored or len(stored) > MAX_CHANNELS or any(
            isinstance(c, bool) or not isinstance(c, int) or not 0 < c <= MAX_ID
            for c in stored):
        raise ValueError(stored)
    return tuple(stored)


@dataclass(frozen=True, slots=True)
class Channels:
    """Every channel (``all``), or the channels named (the value None is "all")."""

    allowed: str = (f"all, or up to {MAX_CHANNELS} channels of this server named as "
                    "#channel (\"here\": this channel)")

    def parse(self, text: str, names: Names) -> Any:
        words = text.replace(",", " ").split()
        if [w.lower() for w in words] == ["all"]:
            return None
        if not words or len(words) > MAX_CHANNELS:
            raise SettingError(f"must be {self.allowed}; not {quoted(text)}")
        found: list[int] = []
        for word in words:
            channel = names.channel(word)
            if channel is None:
                raise SettingError(f"must be {self.allowed}: {quoted(word)} is not a channel "
                                   "of this server")
            if channel not in found:
                found.append(channel)
        return found

    def decode(self, stored: Any) -> Any:
        return None if stored is None else _channel_list(stored)

    def show(self, value: Any) -> tuple[Part, ...]:
        if value is None:
            return ("all channels",)
        parts: list[Part] = []
        for index, channel in enumerate(value):
            if index:
                parts.append(", ")
            parts.append(ChannelMention(channel))
        return tuple(parts)

    def choices(self) -> list[str]:
        return ["all", "here"]


@dataclass(frozen=True, slots=True)
class OneChannel:
    """One channel, or none (``none``: what None means is said in ``none``)."""

    none: str

    @property
    def allowed(self) -> str:
        return ("a channel of this server named as #channel (\"here\": this channel), or "
                f"none ({self.none})")

    def parse(self, text: str, names: Names) -> Any:
        word = text.strip()
        if word.lower() == "none":
            return None
        channel = names.channel(word) if word and len(word.split()) == 1 else None
        if channel is None:
            raise SettingError(f"must be {self.allowed}; {quoted(text)} is not a channel of "
                               "this server")
        if not names.takes_messages(channel):
            raise SettingError(f"must be {self.allowed}; {quoted(text)} takes no messages (a "
                               "forum or a category): name a text or announcement channel")
        return channel

    def decode(self, stored: Any) -> Any:
        if stored is None:
            return None
        if isinstance(stored, bool) or not isinstance(stored, int) or not 0 < stored <= MAX_ID:
            raise ValueError(stored)
        return stored

    def show(self, value: Any) -> tuple[Part, ...]:
        return (f"none ({self.none})",) if value is None else (ChannelMention(value),)

    def choices(self) -> list[str]:
        return ["here", "none"]


@dataclass(frozen=True, slots=True)
class OneRole:
    """A role of the server, or none (only Manage Server)."""

    none: str

    @property
    def allowed(self) -> str:
        return f"a role of this server named as @role, or none ({self.none})"

    def parse(self, text: str, names: Names) -> Any:
        word = text.strip()
        if word.lower() == "none":
            return None
        role = names.role(word) if word else None
        if role is None:
            raise SettingError(f"must be {self.allowed}; {quoted(text)} is not a role of "
                               "this server")
        return role

    def decode(self, stored: Any) -> Any:
        if stored is None:
            return None
        if isinstance(stored, bool) or not isinstance(stored, int) or not 0 < stored <= MAX_ID:
            raise ValueError(stored)
        return RoleMention(stored)

    def show(self, value: Any) -> tuple[Part, ...]:
        return (f"none ({self.none})",) if value is None else (value,)

    def choices(self) -> list[str]:
        return ["none"]


_RULE_CHOICES: dict[str, list[str]] = {
    "automatic_doubles_cap": ["1", "2", "3", "none"],
    "max_cube": ["none", "2", "4", "8", "16", "32", "64"],
    "backgammon_value": ["3", "4"],
}


@dataclass(frozen=True, slots=True)
class RuleOption:
    """One rule option (:class:`engine.rules.RuleOptions`), read by the engine, which says
    what is allowed."""

    name: str

    @property
    def allowed(self) -> str:
        default = RuleOptions().to_dict()[self.name]
        if isinstance(default, bool):
            return "on or off"
        return "one of: " + ", ".join(self.choices())

    def parse(self, text: str, names: Names) -> Any:
        try:
            options = RuleOptions.from_dict({self.name: text.strip()})
        except BackgammonError as error:
            raise SettingError(str(error).removeprefix(f"Rule option '{self.name}' ")
                               .rstrip(".")) from None
        return options.to_dict()[self.name]

    def decode(self, stored: Any) -> Any:
        try:
            return RuleOptions.from_dict({self.name: stored}).to_dict()[self.name]
        except BackgammonError:
            raise ValueError(stored) from None

    def show(self, value: Any) -> tuple[Part, ...]:
        if isinstance(value, bool):
            return ("on" if value else "off",)
        return ("none" if value is None else str(value),)

    def choices(self) -> list[str]:
        default = RuleOptions().to_dict()[self.name]
        if isinstance(default, bool):
            return ["on", "off"]
        if self.name in _RULE_CHOICES:
            return _RULE_CHOICES[self.name]
        enum = type(getattr(RuleOptions(), self.name))
        return [str(m.value) for m in enum]


@dataclass(frozen=True, slots=True)
class ClockOption:
    """A time control (issue 44): ``none``, ``correspondence``, a preset or a custom
    ``DELAY+RESERVE`` (see :mod:`bot.service.core.timecontrol`); stored as typed again."""

    allowed: str = f"a clock: {EXAMPLES}"

    def parse(self, text: str, names: Names) -> Any:
        try:
            spec = parse_clock(text)
        except ClockError as error:
            raise SettingError(str(error)) from None
        return spec.text if spec is not None else "none"

    def decode(self, stored: Any) -> Any:
        if not isinstance(stored, str):
            raise ValueError(stored)
        parse_clock(stored)  # (a ClockError is a ValueError: the stored value is ignored)
        return stored

    def show(self, value: Any) -> tuple[Part, ...]:
        spec = parse_clock(str(value))
        return (spec.describe() if spec is not None else "none",)

    def choices(self) -> list[str]:
        return ["none", *PRESETS, "12s+2m/pt", "12s+5m"]

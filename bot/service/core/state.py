"""The typed state a match row carries between actions (its ``state`` JSON column).

:class:`MatchState` is what the service reads and writes; storage keeps its
:meth:`~MatchState.to_dict` form, as the engine's record keeps events.  Databases
written before this module load unchanged: the stored keys are the same.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from engine.chouette import GameStakes, TableOptions


@dataclass(frozen=True, slots=True)
class Draft:
    """Moves typed so far this turn, or a whole play waiting for Confirm.

    Valid only for the game (``game``, its row id) and the record length (``seq``)
    it was typed at: once anything happens in the game it is stale."""

    game: int
    seq: int
    text: str

    def fits(self, game: int, seq: int) -> bool:
        return self.game == game and self.seq == seq

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game, "seq": self.seq, "text": self.text}

    @classmethod
    def from_dict(cls, data: Any) -> Draft | None:
        if not isinstance(data, Mapping):
            return None
        return cls(int(data.get("game", 0)), int(data.get("seq", -1)), str(data.get("text", "")))


@dataclass(frozen=True, slots=True)
class Unsettled:
    """A finished play its player may still take back (until the opponent acts).

    Its events (the play's, ``events`` as the engine writes them) are kept here, not in
    the game's stored record: they follow the ``seq`` stored events of game ``game`` and
    are appended to the record when the opponent acts, so a stored record holds only
    final plays (see :mod:`bot.service.core.takeback`)."""

    game: int
    seq: int
    events: tuple[Mapping[str, Any], ...]
    user: int

    def to_dict(self) -> dict[str, Any]:
        return {"game": self.game, "seq": self.seq, "events": [dict(e) for e in self.events],
                "user": self.user}

    @classmethod
    def from_dict(cls, data: Any) -> Unsettled | None:
        if not isinstance(data, Mapping) or not isinstance(data.get("events"), list):
            return None
        return cls(int(data.get("game", 0)), int(data.get("seq", -1)),
                   tuple(dict(e) for e in data["events"] if isinstance(e, Mapping)),
                   int(data.get("user", 0)))


@dataclass(frozen=True, slots=True)
class AISeat:
    """The AI plays ``user``'s side at ``level``."""

    user: int
    level: str

    def to_dict(self) -> dict[str, Any]:
        return {"user": self.user, "level": self.level}


@dataclass(frozen=True, slots=True)
class Suggestion:
    """A chouette partner's suggestion, made when the game's record was ``seq`` long."""

    user: int
    seq: int
    text: str


@dataclass(frozen=True, slots=True)
class ChouetteGame:
    """The money side of a chouette game in progress (see :mod:`bot.service.chouette.service`)."""

    id: int
    """The chouette's id."""
    game: int
    """The game's number at the table."""
    names: Mapping[int, str]
    options: TableOptions
    stakes: GameStakes
    suggestions: tuple[Suggestion, ...] = ()

    def name(self, user: int) -> str:
        return self.names.get(user, str(user))

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "game": self.game,
                "names": {str(u): n for u, n in self.names.items()},
                "options": self.options.to_dict(), "stakes": self.stakes.to_dict(),
                "suggestions": [[s.user, s.seq, s.text] for s in self.suggestions]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ChouetteGame:
        return cls(
            id=int(data["id"]), game=int(data["game"]),
            names={int(u): str(n) for u, n in dict(data.get("names", {})).items()},
            options=TableOptions.from_dict(data["options"]),
            stakes=GameStakes.from_dict(data["stakes"]),
            suggestions=tuple(Suggestion(int(u), int(s), str(t))
                              for u, s, t in data.get("suggestions", [])))


@dataclass(frozen=True, slots=True)
class OpenTerms:
    """An open challenge (issue 44 item 1): anyone but its challenger may accept it until
    ``until`` (ISO time of the service), and in a rated one only a player whose rating is
    within ``low`` to ``high`` (None: no bound)."""

    until: str
    low: int | None = None
    high: int | None = None
    minutes: float = 0.0
    """How long it was posted for."""

    def to_dict(self) -> dict[str, Any]:
        return {"until": self.until, "low": self.low, "high": self.high,
                "minutes": self.minutes}

    @classmethod
    def from_dict(cls, data: Any) -> OpenTerms | None:
        if not isinstance(data, Mapping) or not isinstance(data.get("until"), str):
            return None
        low, high = data.get("low"), data.get("high")
        minutes = data.get("minutes")
        return cls(str(data["until"]), low if isinstance(low, int) else None,
                   high if isinstance(high, int) else None,
                   float(minutes) if isinstance(minutes, int | float) else 0.0)


@dataclass(frozen=True, slots=True)
class MatchState:
    """Everything a match carries between actions besides the game record."""

    hints: bool = False
    """/hint is allowed (unrated games, or both players agreed)."""
    ai: AISeat | None = None
    draft: Draft | None = None
    """Moves entered so far this turn (a play typed in parts)."""
    pending: Draft | None = None
    """A complete play waiting for Confirm (``auto_confirm`` off)."""
    chouette: ChouetteGame | None = None
    home_channel: int | None = None
    """The channel the challenge was typed in, when the game lives in a thread of it:
    commands typed there find the game (issue 16 item 9)."""
    unsettled: Unsettled | None = None
    """The last play, which its player may take back until the opponent acts."""
    orientation: str = "challenger"
    """How the board is turned: "challenger" (white at the bottom all game long) or
    "on-roll" (the player on roll at the bottom); see ``render.orientation``."""
    challenge_message: int | None = None
    """The message (in the match's channel) that shows the challenge with its Accept and
    Decline buttons, once the adapter posted it: the answer retires its buttons."""
    answers_only: bool = False
    """The game lives where the bot may only answer its players (a DM, a group DM, a server
    that did not install it: issue 32): nobody is reminded there, nobody claims by time,
    no grades are posted there."""
    open: OpenTerms | None = None
    """An open challenge, until someone accepts it (its ``black_id`` is then the
    challenger's own: nobody is challenged yet)."""
    clock: str | None = None
    """The match's time control (``usbgf``, ``12s+5m``: :mod:`bot.service.clock`), None
    without a clock; its state is the match's ``match_clocks`` row."""
    extra: Mapping[str, Any] = field(default_factory=dict)
    """Keys this version does not know (kept as they were)."""

    def with_(self, **changes: Any) -> MatchState:
        return replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = dict(self.extra)
        out["hints"] = self.hints
        if self.ai is not None:
            out["ai"] = self.ai.to_dict()
        if self.draft is not None:
            out["draft"] = self.draft.to_dict()
        if self.pending is not None:
            out["pending"] = self.pending.to_dict()
        if self.chouette is not None:
            out["chouette"] = self.chouette.to_dict()
        if self.home_channel is not None:
            out["home_channel"] = self.home_channel
        if self.unsettled is not None:
            out["unsettled"] = self.unsettled.to_dict()
        if self.orientation != "challenger":
            out["orientation"] = self.orientation
        if self.challenge_message is not None:
            out["challenge_message"] = self.challenge_message
        if self.answers_only:
            out["answers_only"] = True
        if self.clock is not None:
            out["clock"] = self.clock
        if self.open is not None:
            out["open"] = self.open.to_dict()
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MatchState:
        known = {"hints", "ai", "draft", "pending", "chouette", "pending_ok", "home_channel",
                 "orientation", "unsettled", "challenge_message", "answers_only", "clock", "open"}
        home = data.get("home_channel")
        message = data.get("challenge_message")
        ai = data.get("ai")
        chouette = data.get("chouette")
        return cls(
            hints=bool(data.get("hints", False)),
            ai=AISeat(int(ai.get("user", 0)), str(ai.get("level")))
            if isinstance(ai, Mapping) else None,
            draft=Draft.from_dict(data.get("draft")),
            pending=Draft.from_dict(data.get("pending")),
            chouette=ChouetteGame.from_dict(chouette) if isinstance(chouette, Mapping) else None,
            home_channel=home if isinstance(home, int) and not isinstance(home, bool) else None,
            unsettled=Unsettled.from_dict(data.get("unsettled")),
            orientation=str(data.get("orientation", "challenger")),
            challenge_message=message
            if isinstance(message, int) and not isinstance(message, bool) else None,
            answers_only=data.get("answers_only") is True,
            clock=str(data["clock"]) if isinstance(data.get("clock"), str) else None,
            open=OpenTerms.from_dict(data.get("open")),
            extra={k: v for k, v in data.items() if k not in known})


@dataclass(frozen=True, slots=True)
class TableState:
    """A chouette table's own state (its ``chouettes.state`` column)."""

    seated: bool = False
    """The seat throw has been made."""
    games: int = 0
    """Games played at the table."""
    seat_seed: str | None = None
    seat_throws: tuple[tuple[tuple[int, int], ...], ...] = ()
    """Each round of the seat throw: (user, die) pairs."""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seated": self.seated, "games": self.games}
        if self.seat_seed is not None:
            out["seat_seed"] = self.seat_seed
            out["seat_throws"] = [[list(p) for p in r] for r in self.seat_throws]
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TableState:
        seed = data.get("seat_seed")
        return cls(seated=bool(data.get("seated", False)), games=int(data.get("games", 0)),
                   seat_seed=str(seed) if seed is not None else None,
                   seat_throws=tuple(tuple((int(u), int(d)) for u, d in r)
                                     for r in data.get("seat_throws", [])))

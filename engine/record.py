"""The game record: an append-only sequence of immutable events.

Every transition of :class:`engine.game.Game` appends one event (a finished
game also appends :class:`GameEnd`); :meth:`engine.game.Game.replay` rebuilds
the exact state from the events.  Things the rules do by themselves (a roll
that cannot be played, an automatic double on an opening tie) are not
events: replay derives them again.

Storage format (``format`` 1; stable: new event types may be added, existing
keys never change meaning).  Each event is a flat JSON object with a
``type``; players are ``"white"``/``"black"``; result kinds
``"single"``/``"gammon"``/``"backgammon"``::

    {"type": "opening", "white": [5], "black": [3]}        one die each (or two)
    {"type": "roll", "player": "white", "dice": [3, 1]}
    {"type": "play", "player": "white", "moves": [[8, 5, false], [6, 5, false]]}
        moves are [from, to, hit] in the mover's own numbering
        (25 = bar, 26 = not yet entered, 0 = off); [] = no move
    {"type": "choice", "player": "white", "option": "4"}
    {"type": "double", "player": "white"}
    {"type": "take", "player": "black"}
    {"type": "drop", "player": "black"}
    {"type": "beaver", "player": "black"}
    {"type": "resign", "player": "black", "kind": "gammon"}
    {"type": "resign-answer", "player": "white", "accept": true}
    {"type": "forfeit", "player": "black", "kind": "single"}
    {"type": "end", "winner": "white", "kind": "gammon", "reason": "borne off",
     "points": 2}

A whole game (:class:`GameRecord`) adds the header needed to replay it::

    {"format": 1, "variant": "standard", "rules": {...RuleOptions.to_dict()...},
     "setup": {"money": true, "crawford": false, "first_player": null,
               "position": null},
    ("position", when not null, is a set-up start: [white's 27 counts, black's 27
    counts], each in its own numbering as in :mod:`engine.position`.)
     "events": [...]}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from engine.dice import Dice
from engine.errors import BackgammonError
from engine.move import Move
from engine.player import Player
from engine.position import Position
from engine.scoring import EndReason, ResultKind

FORMAT = 1


class RecordError(BackgammonError, ValueError):
    """A stored record that cannot be read or does not replay."""


def _player(value: Any) -> Player:
    try:
        return Player[str(value).upper()]
    except KeyError:
        raise RecordError(f"not a player: {value!r}") from None


def _kind(value: Any) -> ResultKind:
    try:
        return ResultKind[str(value).upper()]
    except KeyError:
        raise RecordError(f"not a result kind: {value!r}") from None


@dataclass(frozen=True, slots=True)
class OpeningRoll:
    """The opening throw: one die each (or two dice each, by the opening method)."""

    type: ClassVar[str] = "opening"
    white: tuple[int, ...]
    black: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "white": list(self.white), "black": list(self.black)}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> OpeningRoll:
        return cls(tuple(int(x) for x in d["white"]), tuple(int(x) for x in d["black"]))


@dataclass(frozen=True, slots=True)
class Roll:
    type: ClassVar[str] = "roll"
    player: Player
    dice: Dice

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "player": self.player.label,
                "dice": [self.dice.first, self.dice.second]}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Roll:
        first, second = d["dice"]
        return cls(_player(d["player"]), Dice(int(first), int(second)))


@dataclass(frozen=True, slots=True)
class PlayMade:
    type: ClassVar[str] = "play"
    player: Player
    moves: tuple[Move, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "player": self.player.label,
                "moves": [[m.src, m.dst, m.hit] for m in self.moves]}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> PlayMade:
        moves = tuple(Move(int(m[0]), int(m[1]), bool(m[2])) for m in d["moves"])
        return cls(_player(d["player"]), moves)


@dataclass(frozen=True, slots=True)
class ChoiceMade:
    type: ClassVar[str] = "choice"
    player: Player
    option: str

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "player": self.player.label, "option": self.option}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> ChoiceMade:
        return cls(_player(d["player"]), str(d["option"]))


@dataclass(frozen=True, slots=True)
class _PlayerEvent:
    type: ClassVar[str] = ""
    player: Player

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "player": self.player.label}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Any:
        return cls(_player(d["player"]))


@dataclass(frozen=True, slots=True)
class DoubleOffered(_PlayerEvent):
    type: ClassVar[str] = "double"


@dataclass(frozen=True, slots=True)
class Take(_PlayerEvent):
    type: ClassVar[str] = "take"


@dataclass(frozen=True, slots=True)
class Drop(_PlayerEvent):
    type: ClassVar[str] = "drop"


@dataclass(frozen=True, slots=True)
class Beaver(_PlayerEvent):
    type: ClassVar[str] = "beaver"


@dataclass(frozen=True, slots=True)
class ResignOffer:
    type: ClassVar[str] = "resign"
    player: Player
    kind: ResultKind

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "player": self.player.label, "kind": self.kind.label}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> ResignOffer:
        return cls(_player(d["player"]), _kind(d["kind"]))


@dataclass(frozen=True, slots=True)
class ResignAnswer:
    type: ClassVar[str] = "resign-answer"
    player: Player
    accept: bool

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "player": self.player.label, "accept": self.accept}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> ResignAnswer:
        return cls(_player(d["player"]), bool(d["accept"]))


@dataclass(frozen=True, slots=True)
class Forfeit:
    """``player`` loses by forfeit (a timeout claim, leaving...), as a ``kind``."""

    type: ClassVar[str] = "forfeit"
    player: Player
    kind: ResultKind = ResultKind.SINGLE

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "player": self.player.label, "kind": self.kind.label}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Forfeit:
        return cls(_player(d["player"]), _kind(d.get("kind", "single")))


@dataclass(frozen=True, slots=True)
class GameEnd:
    """Appended by the game when it ends (derived: replay recomputes it)."""

    type: ClassVar[str] = "end"
    winner: Player
    kind: ResultKind
    reason: EndReason
    points: int

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.type, "winner": self.winner.label, "kind": self.kind.label,
                "reason": self.reason.value, "points": self.points}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> GameEnd:
        try:
            reason = EndReason(d["reason"])
        except ValueError:
            raise RecordError(f"not an end reason: {d['reason']!r}") from None
        return cls(_player(d["winner"]), _kind(d["kind"]), reason, int(d["points"]))


Event = (OpeningRoll | Roll | PlayMade | ChoiceMade | DoubleOffered | Take | Drop | Beaver
         | ResignOffer | ResignAnswer | Forfeit | GameEnd)

_TYPES: dict[str, Any] = {
    cls.type: cls
    for cls in (OpeningRoll, Roll, PlayMade, ChoiceMade, DoubleOffered, Take, Drop, Beaver,
                ResignOffer, ResignAnswer, Forfeit, GameEnd)
}


def event_to_dict(event: Event) -> dict[str, Any]:
    return event.to_dict()


def event_from_dict(data: Mapping[str, Any]) -> Event:
    """Read one stored event; :class:`RecordError` if it is not one."""
    try:
        cls = _TYPES[data["type"]]
    except (KeyError, TypeError):
        raise RecordError(f"not a game event: {data!r}") from None
    try:
        event: Event = cls.from_dict(data)
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, RecordError):
            raise
        raise RecordError(f"malformed {data.get('type')} event: {data!r}") from exc
    return event


def events_to_list(events: Sequence[Event]) -> list[dict[str, Any]]:
    return [e.to_dict() for e in events]


def events_from_list(items: Sequence[Mapping[str, Any]]) -> tuple[Event, ...]:
    return tuple(event_from_dict(d) for d in items)


@dataclass(frozen=True, slots=True)
class GameRecord:
    """Everything needed to replay a game: variant name, rules, setup and events."""

    variant: str
    rules: Mapping[str, Any]
    events: tuple[Event, ...] = ()
    money: bool = True
    crawford: bool = False
    first_player: Player | None = None
    position: Position | None = None
    """A set-up starting position (None: the variant's own)."""
    extra: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "variant": self.variant,
            "rules": dict(self.rules),
            "setup": {"money": self.money, "crawford": self.crawford,
                      "first_player": (self.first_player.label if self.first_player is not None
                                       else None),
                      "position": ([list(side) for side in self.position.sides]
                                   if self.position is not None else None),
                      **dict(self.extra)},
            "events": events_to_list(self.events),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameRecord:
        if data.get("format") != FORMAT:
            raise RecordError(f"unknown record format {data.get('format')!r}")
        setup = dict(data.get("setup", {}))
        first = setup.pop("first_player", None)
        sides = setup.pop("position", None)
        try:
            position = (Position.from_sides(sides[0], sides[1]) if sides is not None else None)
        except (ValueError, TypeError, IndexError) as exc:
            raise RecordError(f"bad starting position {sides!r}") from exc
        return cls(
            variant=str(data["variant"]),
            rules=dict(data.get("rules", {})),
            events=events_from_list(data.get("events", [])),
            money=bool(setup.pop("money", True)),
            crawford=bool(setup.pop("crawford", False)),
            first_player=_player(first) if first is not None else None,
            position=position,
            extra=setup,
        )

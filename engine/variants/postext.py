"""A compact, readable position text for every variant.

GNU Backgammon Position IDs cannot hold checkers that have not entered yet,
so the variants use this text instead.  Grammar::

    POSTEXT := [COLOUR ":"] SIDE "/" SIDE
    COLOUR  := "white" | "black" | "w" | "b"     colour of the first SIDE (default white)
    SIDE    := "-" | ITEM ("," ITEM)*            "-": nothing left (all borne off)
    ITEM    := WHERE ["x" COUNT]                 COUNT defaults to 1
    WHERE   := POINT (1-24) | "in" | "bar" | "off"

The first SIDE is the player on roll; each side is written in its owner's own
point numbering (so the text does not depend on the variant's geometry).
``in`` counts checkers not yet entered, ``bar`` checkers on the bar; ``off``
is optional (whatever is missing from 15 is off; if written it must agree).
Items are written highest point first, ``in`` and ``bar`` before the points.

Examples: the start of every book variant is ``inx15/inx15``;
``black:inx3,24x2,13x10/6x5,bar,offx9`` has black on roll with three men
to enter, two on his 24-point and ten on his 13-point, against white's five
on his 6-point, one on the bar and nine borne off.
"""

from __future__ import annotations

import re

from engine.errors import InvalidIdError
from engine.player import Player
from engine.position import BAR, CHECKERS, OFF, SLOTS, WAITING, Position, Side
from engine.words import counted

_ITEM_RE = re.compile(r"(in|bar|off|\d{1,2})(?:x(\d{1,2}))?")
_COLOURS = {"white": Player.WHITE, "w": Player.WHITE, "black": Player.BLACK, "b": Player.BLACK}


def encode_side(side: Side) -> str:
    items = []
    for index, name in ((WAITING, "in"), (BAR, "bar")):
        if side[index]:
            items.append(name + (f"x{side[index]}" if side[index] > 1 else ""))
    for point in range(24, 0, -1):
        if side[point]:
            items.append(str(point) + (f"x{side[point]}" if side[point] > 1 else ""))
    return ",".join(items) or "-"


def encode(position: Position, on_roll: Player = Player.WHITE) -> str:
    """The text of ``position`` with ``on_roll``'s side first."""
    first = encode_side(position.sides[on_roll])
    second = encode_side(position.sides[on_roll.other])
    prefix = "" if on_roll is Player.WHITE else "black:"
    return f"{prefix}{first}/{second}"


def decode_side(text: str) -> Side:
    counts = [0] * SLOTS
    text = text.strip()
    off: int | None = None
    if text != "-":
        for raw in text.split(","):
            item = raw.strip()
            match = _ITEM_RE.fullmatch(item)
            if not match:
                raise InvalidIdError(
                    f"Can't read {item!r} in a position text: write items like 13x5, 24, "
                    "inx3, bar or offx2, separated by commas."
                )
            where, count_text = match.groups()
            count = int(count_text) if count_text else 1
            if count < 1:
                raise InvalidIdError(f"{item!r}: a count is at least 1.")
            if where == "off":
                off = (off or 0) + count
                continue
            index = {"in": WAITING, "bar": BAR}.get(where)
            if index is None:
                index = int(where)
                if not 1 <= index <= 24:
                    raise InvalidIdError(f"{item!r}: points are 1 to 24.")
            counts[index] += count
    on_board = sum(counts)
    if on_board > CHECKERS:
        raise InvalidIdError(f"{text!r} has {on_board} checkers; a side has {CHECKERS}.")
    if off is not None and off != CHECKERS - on_board:
        raise InvalidIdError(
            f"{text!r}: {counted(on_board, 'checker')} "
            f"{counted(on_board, 'is', digits=False)} placed, so {CHECKERS - on_board} are off, "
            f"not {off}."
        )
    counts[OFF] = CHECKERS - on_board
    return tuple(counts)


def decode(text: str) -> tuple[Position, Player]:
    """The position and the player on roll (the first side's colour)."""
    body = text.strip().lower().replace(" ", "")
    on_roll = Player.WHITE
    if ":" in body:
        colour, _, body = body.partition(":")
        if colour not in _COLOURS:
            raise InvalidIdError(f"{colour!r} is not a colour: write white: or black:.")
        on_roll = _COLOURS[colour]
    parts = body.split("/")
    if len(parts) != 2:
        raise InvalidIdError(
            "A position text is two sides separated by '/', like inx15/inx15 "
            "(the player on roll first)."
        )
    first, second = decode_side(parts[0]), decode_side(parts[1])
    sides = (first, second) if on_roll is Player.WHITE else (second, first)
    return Position(sides), on_roll

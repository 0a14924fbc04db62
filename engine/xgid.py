"""eXtreme Gammon's XGID.

An XGID is ``XGID=`` followed by ten colon-separated fields::

    XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10
         position                   | | | |  | | | | max cube (log2)
                                    | | | |  | | | match length (0 = money)
                                    | | | |  | | Crawford (match) / Jacoby+2*Beaver (money)
                                    | | | |  | top player's score
                                    | | | |  bottom player's score
                                    | | | dice: 00 = to roll or double, D = doubled,
                                    | | |       B = beavered, R = raccooned, or two dice
                                    | | turn: 1 = bottom player, -1 = top player
                                    | cube owner: 1 = bottom, -1 = top, 0 = centred
                                    cube value (log2)

The position is 26 characters: character 0 is the top player's bar,
characters 1..24 are the points 1..24 numbered from the **bottom** player's
side, character 25 the bottom player's bar.  ``-`` is an empty point,
``A``..``O`` are 1..15 of the bottom player's checkers, ``a``..``o`` 1..15 of
the top player's.  Checkers not shown are borne off.  The position string is
absolute (it does not depend on whose turn it is).

While a cube decision is pending (``D``, ``B``, ``R``) ``turn`` names the
player who must answer it, as GNU Backgammon's Match ID does.

Player mapping (the one place it is decided): XG's **bottom** player is the
engine's BLACK and its **top** player WHITE, the same seats as GNU
Backgammon's players 1 and 0 (:data:`engine.gnubgid.GNUBG_PLAYER`), so an
XGID and a GNU Backgammon ID of the same game name the same colours.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from engine.errors import InvalidIdError
from engine.player import Player
from engine.position import BAR, CHECKERS, OFF, SLOTS, WAITING, Position
from engine.words import counted

BOTTOM = Player.BLACK
"""The engine colour of XG's bottom player (``turn`` 1, upper-case letters)."""
TOP = Player.WHITE
"""The engine colour of XG's top player (``turn`` -1, lower-case letters)."""

STANDARD_XGID = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10"


class CubeAction(Enum):
    """A cube decision pending in the dice field."""

    NONE = ""
    DOUBLED = "D"
    BEAVERED = "B"
    RACCOONED = "R"


@dataclass(frozen=True, slots=True)
class XgidState:
    """Everything an XGID holds, in engine terms (``score`` indexed by Player)."""

    position: Position
    turn: Player
    cube_value: int = 1
    cube_owner: Player | None = None
    dice: tuple[int, int] | None = None
    cube_action: CubeAction = CubeAction.NONE
    score: tuple[int, int] = (0, 0)
    match_length: int = 0
    crawford: bool = False
    jacoby: bool = False
    beaver: bool = False
    max_cube: int = 1024

    def __post_init__(self) -> None:
        for name, value in (("cube value", self.cube_value), ("max cube", self.max_cube)):
            if value < 1 or value & (value - 1):
                raise ValueError(f"the {name} must be a power of two, not {value}")
        if self.dice is not None and self.cube_action is not CubeAction.NONE:
            raise ValueError("dice and a pending cube decision exclude each other")
        if self.dice is not None and not all(1 <= d <= 6 for d in self.dice):
            raise ValueError(f"dice are two numbers from 1 to 6, not {self.dice}")
        if self.match_length < 0 or any(s < 0 for s in self.score):
            raise ValueError("scores and match length cannot be negative")
        if self.match_length and (self.jacoby or self.beaver):
            raise ValueError("the Jacoby and beaver rules are for money games only")
        if not self.match_length and self.crawford:
            raise ValueError("a money game has no Crawford game")

    @property
    def is_money(self) -> bool:
        return self.match_length == 0


_PLAYER_OF_SIGN = {1: BOTTOM, -1: TOP}
_SIGN_OF_PLAYER = {BOTTOM: 1, TOP: -1}
_FIELD_RE = re.compile(r"^-?\d+$")


def _bad(text: str, reason: str) -> InvalidIdError:
    return InvalidIdError(f"{text!r} is not a valid XGID: {reason}.")


def _int_field(text: str, value: str, name: str) -> int:
    if not _FIELD_RE.match(value):
        raise _bad(text, f"the {name} field {value!r} is not a whole number")
    return int(value)


def _log2(text: str, value: str, name: str) -> int:
    exponent = _int_field(text, value, name)
    if not 0 <= exponent <= 15:
        raise _bad(text, f"the {name} field is a power of two from 0 to 15, not {exponent}")
    return 1 << exponent


def _letter(count: int, upper: bool) -> str:
    if count == 0:
        return "-"
    letter = chr(ord("A") + count - 1)
    return letter if upper else letter.lower()


def encode_position(position: Position) -> str:
    """The 26-character XGID position field of ``position``."""
    bottom, top = position.sides[BOTTOM], position.sides[TOP]
    for player, side in ((BOTTOM, bottom), (TOP, top)):
        if side[WAITING]:
            raise InvalidIdError(
                f"{player.label} has {counted(side[WAITING], 'checker')} not yet entered; "
                "an XGID cannot describe that."
            )
    chars = [_letter(top[BAR], upper=False)]
    for point in range(1, 25):
        if bottom[point] and top[25 - point]:
            raise InvalidIdError(f"both players have checkers on the bottom player's {point}")
        if bottom[point]:
            chars.append(_letter(bottom[point], upper=True))
        else:
            chars.append(_letter(top[25 - point], upper=False))
    chars.append(_letter(bottom[BAR], upper=True))
    return "".join(chars)


def decode_position(field: str, text: str | None = None) -> Position:
    """Decode the 26-character position field."""
    shown = field if text is None else text
    if len(field) != 26:
        raise _bad(shown, f"its position has {counted(len(field), 'character')} instead of 26")
    bottom = [0] * SLOTS
    top = [0] * SLOTS
    for i, ch in enumerate(field):
        if ch == "-":
            continue
        if "A" <= ch <= "O":
            count, upper = ord(ch) - ord("A") + 1, True
        elif "a" <= ch <= "o":
            count, upper = ord(ch) - ord("a") + 1, False
        else:
            raise _bad(shown, f"character {i + 1} of the position, {ch!r}, is not '-' or "
                              "a letter from A to O")
        if i == 0:
            if upper:
                raise _bad(shown, "the first character is the top player's bar, so it is "
                                  "lower-case")
            top[BAR] = count
        elif i == 25:
            if not upper:
                raise _bad(shown, "the last character is the bottom player's bar, so it is "
                                  "upper-case")
            bottom[BAR] = count
        elif upper:
            bottom[i] = count
        else:
            top[25 - i] = count
    for player, side in ((BOTTOM, bottom), (TOP, top)):
        on_board = sum(side)
        if on_board > CHECKERS:
            raise _bad(shown, f"{player.label} would have {on_board} checkers (at most "
                              f"{CHECKERS})")
        side[OFF] = CHECKERS - on_board
    if BOTTOM == Player.WHITE:
        return Position((tuple(bottom), tuple(top)))
    return Position((tuple(top), tuple(bottom)))


def encode_xgid(state: XgidState) -> str:
    """The XGID of ``state`` (with the ``XGID=`` prefix)."""
    owner = 0 if state.cube_owner is None else _SIGN_OF_PLAYER[state.cube_owner]
    if state.dice is not None:
        dice = f"{state.dice[0]}{state.dice[1]}"
    else:
        dice = state.cube_action.value or "00"
    if state.match_length:
        rules = int(state.crawford)
    else:
        rules = int(state.jacoby) + 2 * int(state.beaver)
    fields = [
        encode_position(state.position),
        str(state.cube_value.bit_length() - 1),
        str(owner),
        str(_SIGN_OF_PLAYER[state.turn]),
        dice,
        str(state.score[BOTTOM]),
        str(state.score[TOP]),
        str(rules),
        str(state.match_length),
        str(state.max_cube.bit_length() - 1),
    ]
    return "XGID=" + ":".join(fields)


def decode_xgid(xgid: str) -> XgidState:
    """Decode an XGID (the ``XGID=`` prefix and the max-cube field are optional)."""
    if not isinstance(xgid, str):
        raise InvalidIdError(f"an XGID is text, not {type(xgid).__name__}")
    text = xgid.strip()
    body = text[5:] if text.upper().startswith("XGID=") else text
    parts = body.split(":")
    if len(parts) not in (9, 10):
        raise InvalidIdError(
            f"{text!r} is not an XGID: it has {counted(len(parts), 'colon-separated field')}; an "
            f"XGID has 10, like {STANDARD_XGID}."
        )
    position = decode_position(parts[0], text)
    cube_value = _log2(text, parts[1], "cube value")
    owner_sign = _int_field(text, parts[2], "cube owner")
    if owner_sign not in (-1, 0, 1):
        raise _bad(text, f"the cube owner is 1, 0 or -1, not {owner_sign}")
    turn_sign = _int_field(text, parts[3], "turn")
    if turn_sign not in (-1, 1):
        raise _bad(text, f"the turn is 1 (bottom) or -1 (top), not {turn_sign}")
    dice_field = parts[4]
    dice: tuple[int, int] | None = None
    action = CubeAction.NONE
    if dice_field in ("D", "B", "R"):
        action = CubeAction(dice_field)
    elif re.fullmatch(r"[1-6][1-6]", dice_field):
        dice = (int(dice_field[0]), int(dice_field[1]))
    elif dice_field != "00":
        raise _bad(text, f"the dice field is 00, D, B, R or two dice from 1 to 6, not "
                         f"{dice_field!r}")
    score_bottom = _int_field(text, parts[5], "bottom score")
    score_top = _int_field(text, parts[6], "top score")
    rules = _int_field(text, parts[7], "Crawford/Jacoby")
    length = _int_field(text, parts[8], "match length")
    max_cube = _log2(text, parts[9], "max cube") if len(parts) == 10 else 1024
    if length < 0 or score_bottom < 0 or score_top < 0:
        raise _bad(text, "scores and the match length cannot be negative")
    if length:
        if rules not in (0, 1):
            raise _bad(text, f"in a match the Crawford field is 0 or 1, not {rules}")
        for name, s in (("bottom", score_bottom), ("top", score_top)):
            if s > length:
                raise _bad(text, f"the {name} player's score {s} is beyond the "
                                 f"{length}-point match")
    elif not 0 <= rules <= 3:
        raise _bad(text, f"in a money game the Jacoby/beaver field is 0 to 3, not {rules}")
    score = [0, 0]
    score[BOTTOM] = score_bottom
    score[TOP] = score_top
    return XgidState(
        position=position,
        turn=_PLAYER_OF_SIGN[turn_sign],
        cube_value=cube_value,
        cube_owner=None if owner_sign == 0 else _PLAYER_OF_SIGN[owner_sign],
        dice=dice,
        cube_action=action,
        score=(score[0], score[1]),
        match_length=length,
        crawford=bool(length and rules == 1),
        jacoby=bool(not length and rules & 1),
        beaver=bool(not length and rules & 2),
        max_cube=max_cube,
    )

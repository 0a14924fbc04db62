"""GNU Backgammon Position ID and Match ID.

Both formats are described in the GNU Backgammon manual, "Technical Notes":
"A technical description of the Position ID" and "... of the Match ID".

Position ID
-----------
An 80-bit key written as 14 Base64 characters.  For each of the two players in
turn, for each of that player's points 1..24 and then the bar, append one ``1``
bit per checker and then a ``0``; pad with ``0`` to 80 bits.  Bits are packed
little-endian (the first bit is the least significant bit of the first byte).

The ID is *relative*: it describes the board from the point of view of the
player on roll, each side in its own numbering (exactly the engine's own
convention, see :mod:`engine.position`).  GNU Backgammon writes the side of
the player **not** on roll first and the side of the player on roll second
(its ``anBoard[0]`` and ``anBoard[1]``).  The manual's prose says the
opposite, but the program, its author's published examples and independent
implementations all put the player on roll second, so that is what this
module does; the starting position, being symmetric, cannot tell them apart.

Match ID
--------
A 66-bit key (plus one bit used by newer versions for the Jacoby rule) packed
little-endian into 9 bytes and written as 12 Base64 characters::

    bits  0-3   log2 of the cube value
    bits  4-5   cube owner: 0 = player 0, 1 = player 1, 3 = centred
    bit   6     player on roll (or who has rolled)
    bit   7     Crawford game
    bits  8-10  game state: 0 none, 1 playing, 2 over, 3 resigned, 4 dropped
    bit  11     whose turn it is to act (differs from bit 6 during a double
                or a resignation offer)
    bit  12     a double is being offered
    bits 13-14  resignation offered: 0 none, 1 single, 2 gammon, 3 backgammon
    bits 15-17  first die (0 = not rolled)
    bits 18-20  second die
    bits 21-35  match length (0 = money game)
    bits 36-50  player 0's score
    bits 51-65  player 1's score
    bit  66     set when the Jacoby rule is **off** (so old IDs read as "on")

Player numbering
----------------
GNU Backgammon numbers its players 0 and 1.  :data:`GNUBG_PLAYER` below is the
one place where that numbering meets the engine's colours.
"""

from __future__ import annotations

import re
from binascii import a2b_base64, b2a_base64
from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum
from operator import itemgetter

from engine.errors import InvalidIdError
from engine.player import Player
from engine.position import BAR, CHECKERS, OFF, WAITING, Position, Side
from engine.words import counted

GNUBG_PLAYER: tuple[Player, Player] = (Player.WHITE, Player.BLACK)
"""``GNUBG_PLAYER[n]`` is the engine colour of GNU Backgammon's player ``n``.

GNU Backgammon's player 0 ("O", drawn at the top of its board) is WHITE and its
player 1 ("X", drawn at the bottom) is BLACK.  Every conversion of a player
number in this module goes through this table or :func:`gnubg_number`.
"""


def gnubg_number(player: Player) -> int:
    """GNU Backgammon's number (0 or 1) for an engine colour."""
    return GNUBG_PLAYER.index(player)


_B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_B64_INDEX = {c: i for i, c in enumerate(_B64)}
_POSITION_ID_RE = re.compile(r"^[A-Za-z0-9+/]{14}$")
_MATCH_ID_RE = re.compile(r"^[A-Za-z0-9+/]{12}$")

POSITION_ID_LENGTH = 14
MATCH_ID_LENGTH = 12
STANDARD_POSITION_ID = "4HPwATDgc/ABMA"
"""The starting position (the manual's example)."""


# --------------------------------------------------------------------------
# Keys as integers, Base64 by the standard library
# --------------------------------------------------------------------------
#
# A key is one Python int (bit 0 = the first bit of the manual's description).
# ``int.to_bytes(n, "little")`` packs it as GNU Backgammon does, and gnubg's
# Base64 (groups of three bytes, high bits first, the alphabet above) is the
# standard Base64 of those bytes without its ``=`` padding: 10 bytes give 14
# characters and two ``=``, 9 bytes exactly 12 characters.
#
# The Position ID's bits are written as text, most significant bit first, and
# read by ``int(text, 2)``: a point holding ``n`` checkers is ``"0" + "1" * n``
# (its ones, then the separating zero, read backwards), so a side is the join
# of its points' strings from the bar down to the 1-point.

_UNARY: dict[int, str] = {n: "0" + "1" * n for n in range(CHECKERS + 1)}
"""A point with ``n`` checkers in the key's text (most significant bit first)."""
_BACKWARD_POINTS = slice(BAR, 0, -1)
"""The bar, then the points 24..1: the order a side is written in the key's text."""
_POSITION_KEY_BITS = 80
_PADDED_KEY_BITS = 96
"""A key and two bytes of zeros: 12 bytes, exactly 16 Base64 characters."""
_POSITION_KEY_BYTES = 10
_MATCH_KEY_BYTES = 9


def _side_text(side: Side) -> str:
    """The key bits of one side, most significant first."""
    try:
        return "".join(itemgetter(*side[_BACKWARD_POINTS])(_UNARY))
    except KeyError:  # only an unchecked position can hold such a count
        raise InvalidIdError(
            f"a point holds an impossible number of checkers ({side[1:BAR + 1]})"
        ) from None


def _not_entered(player: Player, side: Side) -> InvalidIdError:
    return InvalidIdError(
        f"{player.label} has {counted(side[WAITING], 'checker')} not yet entered; "
        "a GNU Backgammon Position ID cannot describe that."
    )


def _too_many() -> InvalidIdError:
    return InvalidIdError("the position has more checkers than a Position ID can hold")


def position_key(position: Position, on_roll: Player) -> int:
    """The 80-bit Position ID key of ``position`` seen by ``on_roll``, as an int.

    Raises :class:`InvalidIdError` for checkers not yet entered.
    """
    sides = position.sides
    mine, theirs = sides[on_roll], sides[1 - on_roll]
    if theirs[WAITING]:
        raise _not_entered(on_roll.other, theirs)
    if mine[WAITING]:
        raise _not_entered(on_roll, mine)
    key = int(_side_text(mine) + _side_text(theirs), 2)
    if key >> _POSITION_KEY_BITS:
        raise _too_many()
    return key


# --------------------------------------------------------------------------
# Position ID
# --------------------------------------------------------------------------

def _clean(text: str, what: str) -> str:
    if not isinstance(text, str):
        raise InvalidIdError(f"a {what} is text, not {type(text).__name__}")
    return text.strip()


def encode_position_id(position: Position, on_roll: Player) -> str:
    """The Position ID of ``position`` seen by ``on_roll`` (the player to move).

    Raises :class:`InvalidIdError` for a position the format cannot hold
    (checkers not yet entered, in the variants that start off the board).
    """
    key = position_key(position, on_roll).to_bytes(_POSITION_KEY_BYTES, "little")
    return b2a_base64(key, newline=False)[:POSITION_ID_LENGTH].decode("ascii")


def encode_position_ids(positions: Sequence[Position], on_roll: Player) -> list[str]:
    """:func:`encode_position_id` of each position, all seen by ``on_roll``.

    The same IDs as one call each, faster for many positions of one player (the
    legal plays of a roll): each side of the opponent is written once (the
    plays share a few: his side as it was and after each hit), and the keys are
    read as one number (each padded to 96 bits, the last one first) and written
    by one Base64 pass.  Raises :class:`InvalidIdError` as one call would.
    """
    me = int(on_roll)
    them = 1 - me
    opponent: dict[int, tuple[str, int]] = {}
    kept: list[Side] = []  # while its entry exists, no other object can take a side's id
    texts: list[str] = []
    append = texts.append
    unary = _UNARY
    backward = _BACKWARD_POINTS
    pick = itemgetter
    try:
        for position in positions:
            sides = position.sides
            theirs = sides[them]
            mine = sides[me]
            known = opponent.get(id(theirs))
            if known is None or mine[WAITING]:
                if theirs[WAITING] or mine[WAITING]:
                    raise ValueError("checkers not yet entered")
                text = _side_text(theirs)
                known = opponent[id(theirs)] = (text, _PADDED_KEY_BITS - len(text))
                kept.append(theirs)
            append(known[0])
            append("".join(pick(*mine[backward])(unary)).zfill(known[1]))
        texts.reverse()  # the last key in the most significant bits
        joined_bits = "".join(texts)
        if len(joined_bits) != len(positions) * _PADDED_KEY_BITS:
            raise ValueError("a key is too long")
        data = int(joined_bits or "0", 2).to_bytes(len(texts) * _PADDED_KEY_BITS // 16, "little")
        if any(data[_POSITION_KEY_BYTES :: _PADDED_KEY_BITS // 8]) or \
                any(data[_POSITION_KEY_BYTES + 1 :: _PADDED_KEY_BITS // 8]):
            raise ValueError("a key longer than 80 bits")
    except (ValueError, KeyError):
        # Checkers not entered, or counts no legal position holds: one at a time, the
        # same IDs or the same refusal as one call each.
        return [encode_position_id(position, on_roll) for position in positions]
    joined = b2a_base64(data, newline=False).decode("ascii")
    return [joined[i : i + POSITION_ID_LENGTH] for i in range(0, len(joined), 16)]


def decode_position_id(position_id: str, on_roll: Player = Player.WHITE) -> Position:
    """The position described by ``position_id`` with ``on_roll`` the player to move.

    A Position ID does not say *which colour* is on roll (that is in the Match
    ID); the caller chooses, WHITE by default.  Surrounding blanks are ignored.
    """
    text = _clean(position_id, "Position ID")
    if not _POSITION_ID_RE.match(text):
        raise InvalidIdError(
            f"{text!r} is not a GNU Backgammon Position ID: it is exactly "
            f"{POSITION_ID_LENGTH} characters from A-Z, a-z, 0-9, + and / "
            f"(the starting position is {STANDARD_POSITION_ID})."
        )
    if _B64_INDEX[text[-1]] & 0x0F:
        raise InvalidIdError(
            f"{text!r} is not a valid Position ID: its last character is impossible "
            "(the ID was probably mistyped or cut)."
        )
    key = int.from_bytes(a2b_base64(text + "=="), "little")
    # The bits from the first, split at the zeros: runs[k] is the ones before zero k.
    runs = format(key, f"0{_POSITION_KEY_BITS}b")[::-1].split("0")
    sides: list[list[int]] = []
    for number, label in enumerate(("the player not on roll", "the player on roll")):
        first = 25 * number
        if len(runs) <= first + 25:
            raise InvalidIdError(
                f"{text!r} is not a valid Position ID: it describes more checkers "
                "than a board can hold."
            )
        counts = [0, *map(len, runs[first : first + 25]), 0]
        on_board = sum(counts)
        if on_board > CHECKERS:
            raise InvalidIdError(
                f"{text!r} is not a valid Position ID: {label} would have {on_board} "
                f"checkers on the board (at most {CHECKERS})."
            )
        counts[OFF] = CHECKERS - on_board
        sides.append(counts)
    if any(runs[50:]):
        raise InvalidIdError(
            f"{text!r} is not a valid Position ID: it has stray bits after the "
            "second player's checkers."
        )
    opponent, mover = sides
    if any(map(min, mover[1:BAR], opponent[BAR - 1 : 0 : -1])):
        point = next(p for p in range(1, BAR) if mover[p] and opponent[BAR - p])
        raise InvalidIdError(
            f"{text!r} is not a valid Position ID: both players would have checkers "
            f"on the same point (the mover's {point}-point)."
        )
    # Valid by construction (counts from 0, 15 a side): no need to check again.
    mine: Side = tuple(mover)
    theirs: Side = tuple(opponent)
    if on_roll == Player.WHITE:
        return Position.unchecked(mine, theirs)
    return Position.unchecked(theirs, mine)


# --------------------------------------------------------------------------
# Match ID
# --------------------------------------------------------------------------

class GameState(IntEnum):
    """Bits 8-10 of the Match ID."""

    NONE = 0
    """No game started."""
    PLAYING = 1
    OVER = 2
    RESIGNED = 3
    DROPPED = 4
    """The game ended by a dropped double."""


class Resignation(IntEnum):
    """Bits 13-14: the resignation on offer (the offerer is the other of ``turn``)."""

    NONE = 0
    SINGLE = 1
    GAMMON = 2
    BACKGAMMON = 3


MAX_SCORE = 0x7FFF


@dataclass(frozen=True, slots=True)
class MatchIdState:
    """Everything a GNU Backgammon Match ID holds, in engine terms.

    ``on_roll`` is the player on roll (or who has just rolled); ``turn`` is
    the player who must act now (the opponent while a double or a
    resignation is on offer).  ``dice`` is ``None`` before the roll.
    ``score`` is indexed by :class:`Player`.  ``match_length`` 0 is a money
    game.  ``jacoby`` is only meaningful in money games.
    """

    cube_value: int = 1
    cube_owner: Player | None = None
    on_roll: Player = Player.WHITE
    crawford: bool = False
    game_state: GameState = GameState.PLAYING
    turn: Player = Player.WHITE
    double_offered: bool = False
    resignation: Resignation = Resignation.NONE
    dice: tuple[int, int] | None = None
    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    jacoby: bool = False

    def __post_init__(self) -> None:
        value = self.cube_value
        if value < 1 or value & (value - 1) or value > 1 << 15:
            raise ValueError(f"the cube shows a power of two from 1 to 32768, not {value}")
        if self.dice is not None:
            if len(self.dice) != 2 or not all(1 <= d <= 6 for d in self.dice):
                raise ValueError(f"dice are two numbers from 1 to 6, not {self.dice}")
        if not 0 <= self.match_length <= MAX_SCORE:
            raise ValueError(f"match length must be 0 (money) to {MAX_SCORE}")
        if len(self.score) != 2 or not all(0 <= s <= MAX_SCORE for s in self.score):
            raise ValueError(f"scores are two numbers from 0 to {MAX_SCORE}")

    @property
    def is_money(self) -> bool:
        return self.match_length == 0


def match_key(state: MatchIdState) -> int:
    """The Match ID key of ``state`` (67 bits), as an int."""
    owner = 3 if state.cube_owner is None else gnubg_number(state.cube_owner)
    dice = state.dice or (0, 0)
    high, low = max(dice), min(dice)  # gnubg writes the higher die first
    score = state.score
    return (
        ((state.cube_value.bit_length() - 1) & 0xF)
        | (owner & 3) << 4
        | gnubg_number(state.on_roll) << 6
        | int(state.crawford) << 7
        | (int(state.game_state) & 7) << 8
        | gnubg_number(state.turn) << 11
        | int(state.double_offered) << 12
        | (int(state.resignation) & 3) << 13
        | (high & 7) << 15
        | (low & 7) << 18
        | (state.match_length & MAX_SCORE) << 21
        | (score[GNUBG_PLAYER[0]] & MAX_SCORE) << 36
        | (score[GNUBG_PLAYER[1]] & MAX_SCORE) << 51
        | int(not state.jacoby) << 66
    )


def encode_match_id(state: MatchIdState) -> str:
    """The 12-character Match ID of ``state``."""
    key = match_key(state).to_bytes(_MATCH_KEY_BYTES, "little")
    return b2a_base64(key, newline=False).decode("ascii")


def decode_match_id(match_id: str) -> MatchIdState:
    """Decode a 12-character Match ID (surrounding blanks ignored)."""
    text = _clean(match_id, "Match ID")
    if not _MATCH_ID_RE.match(text):
        raise InvalidIdError(
            f"{text!r} is not a GNU Backgammon Match ID: it is exactly "
            f"{MATCH_ID_LENGTH} characters from A-Z, a-z, 0-9, + and /."
        )
    bits = int.from_bytes(a2b_base64(text), "little")

    def field(start: int, width: int) -> int:
        return (bits >> start) & ((1 << width) - 1)

    def bad(reason: str) -> InvalidIdError:
        return InvalidIdError(f"{text!r} is not a valid Match ID: {reason}.")

    owner_bits = field(4, 2)
    if owner_bits == 2:
        raise bad("its cube-owner field is neither a player nor centred")
    state_bits = field(8, 3)
    if state_bits > GameState.DROPPED:
        raise bad(f"game state {state_bits} does not exist")
    die1, die2 = field(15, 3), field(18, 3)
    if die1 > 6 or die2 > 6:
        raise bad("a die shows more than 6")
    if (die1 == 0) != (die2 == 0):
        raise bad("only one of the two dice has a value")
    length = field(21, 15)
    scores = (field(36, 15), field(51, 15))
    crawford = bool(field(7, 1))
    if length:
        for n, s in enumerate(scores):
            if s > length:
                raise bad(f"player {n}'s score {s} is beyond the match length {length}")
    elif crawford:
        raise bad("a money game cannot be a Crawford game")
    score = [0, 0]
    for n in (0, 1):
        score[GNUBG_PLAYER[n]] = scores[n]
    return MatchIdState(
        cube_value=1 << field(0, 4),
        cube_owner=None if owner_bits == 3 else GNUBG_PLAYER[owner_bits],
        on_roll=GNUBG_PLAYER[field(6, 1)],
        crawford=crawford,
        game_state=GameState(state_bits),
        turn=GNUBG_PLAYER[field(11, 1)],
        double_offered=bool(field(12, 1)),
        resignation=Resignation(field(13, 2)),
        dice=(die1, die2) if die1 else None,
        match_length=length,
        score=(score[0], score[1]),
        jacoby=not field(66, 1),
    )


# --------------------------------------------------------------------------
# Both together: "PositionID:MatchID"
# --------------------------------------------------------------------------

def encode_gnubg_id(position: Position, state: MatchIdState) -> str:
    """``PositionID:MatchID`` as GNU Backgammon shows it (the board seen by ``on_roll``)."""
    return f"{encode_position_id(position, state.on_roll)}:{encode_match_id(state)}"


def decode_gnubg_id(text: str) -> tuple[Position, MatchIdState]:
    """Decode ``PositionID:MatchID`` (a ``GNUBGID`` prefix is accepted)."""
    body = _clean(text, "GNU Backgammon ID")
    if body.upper().startswith("GNUBGID"):
        body = body[7:].lstrip(" =:")
    parts = body.split(":")
    if len(parts) != 2:
        raise InvalidIdError(
            f"{text.strip()!r} is not a GNU Backgammon ID: write the Position ID and the "
            "Match ID separated by a colon, like 4HPwATDgc/ABMA:cAkAAAAAAAAA."
        )
    state = decode_match_id(parts[1])
    return decode_position_id(parts[0], state.on_roll), state

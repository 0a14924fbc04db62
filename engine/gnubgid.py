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
from dataclasses import dataclass
from enum import IntEnum

from engine.errors import InvalidIdError
from engine.player import Player
from engine.position import BAR, CHECKERS, OFF, SLOTS, WAITING, Position, Side

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
# Base64 over little-endian bit strings
# --------------------------------------------------------------------------

def _key_to_id(key: bytes, length: int) -> str:
    """gnubg's Base64: groups of 3 bytes, high bits first, no padding."""
    padded = key + b"\0" * (-len(key) % 3)
    out: list[str] = []
    for i in range(0, len(padded), 3):
        n = (padded[i] << 16) | (padded[i + 1] << 8) | padded[i + 2]
        out.extend(_B64[(n >> s) & 63] for s in (18, 12, 6, 0))
    return "".join(out)[:length]


def _id_to_key(text: str, nbytes: int) -> bytes:
    values = [_B64_INDEX[c] for c in text]
    values += [0] * (-len(values) % 4)
    out = bytearray()
    for i in range(0, len(values), 4):
        n = (values[i] << 18) | (values[i + 1] << 12) | (values[i + 2] << 6) | values[i + 3]
        out += bytes(((n >> 16) & 255, (n >> 8) & 255, n & 255))
    return bytes(out[:nbytes])


def _key_to_int(key: bytes) -> int:
    return int.from_bytes(key, "little")


def _int_to_key(value: int, nbytes: int) -> bytes:
    return value.to_bytes(nbytes, "little")


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
    bits = 0
    nbit = 0
    for player in (on_roll.other, on_roll):
        side = position.sides[player]
        if side[WAITING]:
            raise InvalidIdError(
                f"{player.label} has {side[WAITING]} checker(s) not yet entered; "
                "a GNU Backgammon Position ID cannot describe that."
            )
        for index in range(1, BAR + 1):
            count = side[index]
            bits |= ((1 << count) - 1) << nbit
            nbit += count + 1
    return _key_to_id(_int_to_key(bits, 10), POSITION_ID_LENGTH)


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
    key = _id_to_key(text, 10)
    if _B64_INDEX[text[-1]] & 0x0F:
        raise InvalidIdError(
            f"{text!r} is not a valid Position ID: its last character is impossible "
            "(the ID was probably mistyped or cut)."
        )
    bits = _key_to_int(key)
    sides: list[list[int]] = []
    pos = 0
    for label in ("the player not on roll", "the player on roll"):
        counts = [0] * SLOTS
        for index in range(1, BAR + 1):
            while pos < 80 and bits >> pos & 1:
                counts[index] += 1
                pos += 1
            if pos >= 80:
                raise InvalidIdError(
                    f"{text!r} is not a valid Position ID: it describes more checkers "
                    "than a board can hold."
                )
            pos += 1  # the separating 0
        on_board = sum(counts)
        if on_board > CHECKERS:
            raise InvalidIdError(
                f"{text!r} is not a valid Position ID: {label} would have {on_board} "
                f"checkers on the board (at most {CHECKERS})."
            )
        counts[OFF] = CHECKERS - on_board
        sides.append(counts)
    if bits >> pos:
        raise InvalidIdError(
            f"{text!r} is not a valid Position ID: it has stray bits after the "
            "second player's checkers."
        )
    opponent, mover = sides
    for point in range(1, 25):
        if mover[point] and opponent[25 - point]:
            raise InvalidIdError(
                f"{text!r} is not a valid Position ID: both players would have checkers "
                f"on the same point (the mover's {point}-point)."
            )
    mine: Side = tuple(mover)
    theirs: Side = tuple(opponent)
    if on_roll == Player.WHITE:
        return Position((mine, theirs))
    return Position((theirs, mine))


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


def encode_match_id(state: MatchIdState) -> str:
    """The 12-character Match ID of ``state``."""
    owner = 3 if state.cube_owner is None else gnubg_number(state.cube_owner)
    dice = state.dice or (0, 0)
    high, low = max(dice), min(dice)  # gnubg writes the higher die first
    fields = (
        (0, 4, state.cube_value.bit_length() - 1),
        (4, 2, owner),
        (6, 1, gnubg_number(state.on_roll)),
        (7, 1, int(state.crawford)),
        (8, 3, int(state.game_state)),
        (11, 1, gnubg_number(state.turn)),
        (12, 1, int(state.double_offered)),
        (13, 2, int(state.resignation)),
        (15, 3, high),
        (18, 3, low),
        (21, 15, state.match_length),
        (66, 1, int(not state.jacoby)),
    )
    bits = 0
    for start, width, value in fields:
        bits |= (value & ((1 << width) - 1)) << start
    for n in (0, 1):
        bits |= (state.score[GNUBG_PLAYER[n]] & MAX_SCORE) << (36 + 15 * n)
    return _key_to_id(_int_to_key(bits, 9), MATCH_ID_LENGTH)


def decode_match_id(match_id: str) -> MatchIdState:
    """Decode a 12-character Match ID (surrounding blanks ignored)."""
    text = _clean(match_id, "Match ID")
    if not _MATCH_ID_RE.match(text):
        raise InvalidIdError(
            f"{text!r} is not a GNU Backgammon Match ID: it is exactly "
            f"{MATCH_ID_LENGTH} characters from A-Z, a-z, 0-9, + and /."
        )
    bits = _key_to_int(_id_to_key(text, 9))

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

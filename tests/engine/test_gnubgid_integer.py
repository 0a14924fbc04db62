"""GNU Backgammon IDs by integer arithmetic against the bit-by-bit reference.

engine.gnubgid builds each key as one Python int and converts it with
int.to_bytes / int.from_bytes and the standard library's Base64.  The
reference below is the previous bit-by-bit implementation, kept here only as
the oracle: a bit appended at a time, gnubg's Base64 written out three bytes to
four characters, and the decoder walking the bits one by one.  Every
property compares the new code with it (and, for Position IDs, with gnubg_nn's
own C implementation): the IDs written, the positions and match states read
back, and the exact error message for every malformed key.
"""

from __future__ import annotations

from dataclasses import replace

import gnubg_nn
from hypothesis import given, settings
from hypothesis import strategies as st
from movegen_corpus import position_corpus, to_gnubg

from engine.dice import ALL_ROLLS
from engine.errors import InvalidIdError
from engine.gnubgid import (
    GNUBG_PLAYER,
    MAX_SCORE,
    GameState,
    MatchIdState,
    Resignation,
    decode_match_id,
    decode_position_id,
    encode_match_id,
    encode_position_id,
    encode_position_ids,
    gnubg_number,
)
from engine.movegen import legal_plays
from engine.player import Player
from engine.position import BAR, CHECKERS, OFF, SLOTS, WAITING, Position, Side
from engine.words import counted

# -- the reference: the previous bit-by-bit implementation ---------------------------

_B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_B64_INDEX = {c: i for i, c in enumerate(_B64)}


def ref_key_to_id(key: bytes, length: int) -> str:
    padded = key + b"\0" * (-len(key) % 3)
    out: list[str] = []
    for i in range(0, len(padded), 3):
        n = (padded[i] << 16) | (padded[i + 1] << 8) | padded[i + 2]
        out.extend(_B64[(n >> s) & 63] for s in (18, 12, 6, 0))
    return "".join(out)[:length]


def ref_id_to_key(text: str, nbytes: int) -> bytes:
    values = [_B64_INDEX[c] for c in text]
    values += [0] * (-len(values) % 4)
    out = bytearray()
    for i in range(0, len(values), 4):
        n = (values[i] << 18) | (values[i + 1] << 12) | (values[i + 2] << 6) | values[i + 3]
        out += bytes(((n >> 16) & 255, (n >> 8) & 255, n & 255))
    return bytes(out[:nbytes])


def ref_encode_position_id(position: Position, on_roll: Player) -> str:
    bits = 0
    nbit = 0
    for player in (on_roll.other, on_roll):
        side = position.sides[player]
        if side[WAITING]:
            raise InvalidIdError(
                f"{player.label} has {counted(side[WAITING], 'checker')} not yet entered; "
                "a GNU Backgammon Position ID cannot describe that."
            )
        for index in range(1, BAR + 1):
            for _ in range(side[index]):
                bits |= 1 << nbit
                nbit += 1
            nbit += 1
    return ref_key_to_id(bits.to_bytes(10, "little"), 14)


def ref_decode_position_id(text: str, on_roll: Player) -> Position:
    """The decoder's checks after the text's form (14 Base64 characters) is known good."""
    key = ref_id_to_key(text, 10)
    if _B64_INDEX[text[-1]] & 0x0F:
        raise InvalidIdError(
            f"{text!r} is not a valid Position ID: its last character is impossible "
            "(the ID was probably mistyped or cut)."
        )
    bits = int.from_bytes(key, "little")
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
            pos += 1
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
    return Position((mine, theirs)) if on_roll == Player.WHITE else Position((theirs, mine))


def ref_encode_match_id(state: MatchIdState) -> str:
    owner = 3 if state.cube_owner is None else gnubg_number(state.cube_owner)
    dice = state.dice or (0, 0)
    fields = (
        (0, 4, state.cube_value.bit_length() - 1),
        (4, 2, owner),
        (6, 1, gnubg_number(state.on_roll)),
        (7, 1, int(state.crawford)),
        (8, 3, int(state.game_state)),
        (11, 1, gnubg_number(state.turn)),
        (12, 1, int(state.double_offered)),
        (13, 2, int(state.resignation)),
        (15, 3, max(dice)),
        (18, 3, min(dice)),
        (21, 15, state.match_length),
        (36, 15, state.score[GNUBG_PLAYER[0]]),
        (51, 15, state.score[GNUBG_PLAYER[1]]),
        (66, 1, int(not state.jacoby)),
    )
    bits = 0
    for start, width, value in fields:
        for i in range(width):
            if value >> i & 1:
                bits |= 1 << (start + i)
    return ref_key_to_id(bits.to_bytes(9, "little"), 12)


def ref_match_fields(text: str) -> list[int]:
    """The Match ID's fields, read one bit at a time."""
    key = ref_id_to_key(text, 9)
    bit = [key[i // 8] >> (i % 8) & 1 for i in range(72)]

    def field(start: int, width: int) -> int:
        return sum(bit[start + i] << i for i in range(width))

    return [field(s, w) for s, w in ((0, 4), (4, 2), (6, 1), (7, 1), (8, 3), (11, 1), (12, 1),
                                     (13, 2), (15, 3), (18, 3), (21, 15), (36, 15), (51, 15),
                                     (66, 1))]


def outcome(func: object, *args: object) -> object:
    """The result of ``func(*args)``, or the InvalidIdError's message."""
    assert callable(func)
    try:
        return func(*args)
    except InvalidIdError as exc:
        return ("InvalidIdError", str(exc))


# -- strategies ----------------------------------------------------------------------

players = st.sampled_from(list(Player))


@st.composite
def boards(draw: st.DrawFn) -> tuple[Position, Player]:
    """Any legal board: 15 checkers a side on off/1..24/bar, no point held by both."""
    on_roll = draw(players)
    # Few slots make tall stacks, many spread the checkers out.
    slots = draw(st.lists(st.integers(OFF, BAR), min_size=1, max_size=BAR + 1, unique=True))
    mine = [0] * SLOTS
    for _ in range(CHECKERS):
        mine[draw(st.sampled_from(slots))] += 1
    free = [0, BAR, *(p for p in range(1, 25) if not mine[25 - p])]
    theirs = [0] * SLOTS
    for _ in range(CHECKERS):
        theirs[draw(st.sampled_from(free))] += 1
    sides = (tuple(mine), tuple(theirs))
    position = Position(sides if on_roll == Player.WHITE else sides[::-1])
    return position, on_roll


_RUNS = st.sampled_from((0, 0, 0, 0, 0, 0, 1, 1, 2, 3, 5, 15, 16))
"""A point's count, mostly small (so that 50 of them fit in 80 bits), sometimes too many."""


@st.composite
def position_keys(draw: st.DrawFn) -> str:
    """14 Base64 characters: a valid board's key with a few bits flipped, or a key built
    from runs of ones (so mostly near-valid keys, some stray bits, some overflows)."""
    if draw(st.booleans()):
        position, on_roll = draw(boards())
        key = int.from_bytes(ref_id_to_key(ref_encode_position_id(position, on_roll), 10),
                             "little")
        for bit in draw(st.lists(st.integers(0, 83), max_size=3)):
            key ^= 1 << bit
    else:
        runs = draw(st.lists(_RUNS, min_size=0, max_size=56))
        bits = "".join("1" * n + "0" for n in runs)[:84]
        key = int(bits[::-1] or "0", 2)
    if draw(st.booleans()):
        key &= (1 << 80) - 1  # the last character then is possible
    return ref_key_to_id(key.to_bytes(11, "little"), 14)


@st.composite
def match_states(draw: st.DrawFn) -> MatchIdState:
    length = draw(st.integers(0, MAX_SCORE))
    top = length or MAX_SCORE
    dice = draw(st.none() | st.tuples(st.integers(1, 6), st.integers(1, 6)))
    return MatchIdState(
        cube_value=1 << draw(st.integers(0, 15)),
        cube_owner=draw(st.none() | players),
        on_roll=draw(players),
        crawford=bool(length) and draw(st.booleans()),
        game_state=draw(st.sampled_from(list(GameState))),
        turn=draw(players),
        double_offered=draw(st.booleans()),
        resignation=draw(st.sampled_from(list(Resignation))),
        dice=dice,
        match_length=length,
        score=(draw(st.integers(0, top)), draw(st.integers(0, top))),
        jacoby=draw(st.booleans()),
    )


# -- Position ID -----------------------------------------------------------------------


@settings(max_examples=400)
@given(boards())
def test_position_id_equals_the_reference_and_gnubg(board: tuple[Position, Player]) -> None:
    position, on_roll = board
    pid = encode_position_id(position, on_roll)
    assert pid == ref_encode_position_id(position, on_roll)
    assert pid == gnubg_nn.position_id(to_gnubg(position, on_roll))
    assert decode_position_id(pid, on_roll) == position
    assert ref_decode_position_id(pid, on_roll) == position
    assert encode_position_ids([position], on_roll) == [pid]


@settings(max_examples=400)
@given(position_keys(), players)
def test_position_id_decoding_equals_the_reference(text: str, on_roll: Player) -> None:
    """Every key, valid or not: the same position, or the same refusal word for word."""
    new = outcome(decode_position_id, text, on_roll)
    assert new == outcome(ref_decode_position_id, text, on_roll)
    if isinstance(new, Position):
        assert encode_position_id(new, on_roll) == text


@settings(max_examples=100)
@given(st.lists(boards(), max_size=30), players)
def test_position_ids_of_many_equal_one_by_one(
        items: list[tuple[Position, Player]], on_roll: Player) -> None:
    positions = [position for position, _ in items]
    assert encode_position_ids(positions, on_roll) == [
        ref_encode_position_id(position, on_roll) for position in positions]


def test_position_ids_of_legal_plays_equal_one_by_one() -> None:
    """The batch encoder on what it is made for: every play of every roll (opponent sides
    shared between plays, changed by hits)."""
    for position, player in position_corpus(7, 40):
        for dice in ALL_ROLLS:
            after = [play.position for play in legal_plays(position, player, dice.first,
                                                           dice.second)]
            expected = [ref_encode_position_id(p, player) for p in after]
            assert encode_position_ids(after, player) == expected
            assert [decode_position_id(pid, player) for pid in expected] == after


def test_checkers_not_entered_are_refused_alike() -> None:
    waiting = Position.empty()
    for player in Player:
        expected = outcome(ref_encode_position_id, waiting, player)
        assert isinstance(expected, tuple)
        assert outcome(encode_position_id, waiting, player) == expected
        assert outcome(encode_position_ids, [Position.standard(), waiting], player) == expected


@settings(max_examples=200)
@given(boards(), st.integers(OFF, BAR), st.integers(-40, 40), st.booleans())
def test_impossible_counts_are_refused_alike(
        board: tuple[Position, Player], slot: int, count: int, mover: bool) -> None:
    """A count no legal position holds (only Position.unchecked can build one): the
    batch encoder refuses it exactly as one call does, never writes a wrong ID."""
    position, on_roll = board
    player = on_roll if mover else on_roll.other
    side = list(position.sides[player])
    side[slot] = count
    sides = list(position.sides)
    sides[player] = tuple(side)
    odd = Position.unchecked(sides[0], sides[1])
    single = outcome(encode_position_id, odd, on_roll)
    assert outcome(encode_position_ids, [position, odd], on_roll) == \
        (single if isinstance(single, tuple) else [encode_position_id(position, on_roll), single])


# -- Match ID --------------------------------------------------------------------------


@settings(max_examples=400)
@given(match_states())
def test_match_id_equals_the_reference(state: MatchIdState) -> None:
    mid = encode_match_id(state)
    assert mid == ref_encode_match_id(state)
    back = decode_match_id(mid)
    high_first = None if state.dice is None else (max(state.dice), min(state.dice))
    assert back.dice == high_first
    assert back == replace(state, dice=high_first)


@settings(max_examples=400)
@given(st.integers(0, 2**72 - 1))
def test_match_id_decoding_reads_the_same_bits(value: int) -> None:
    """Any 72 bits: a refusal, or a state whose fields are the reference's bits."""
    text = ref_key_to_id(value.to_bytes(9, "little"), 12)
    state = outcome(decode_match_id, text)
    if isinstance(state, tuple):
        assert state[1].startswith(f"{text!r} is not a valid Match ID: ")
        return
    assert isinstance(state, MatchIdState)
    fields = ref_match_fields(text)
    owner = 3 if state.cube_owner is None else gnubg_number(state.cube_owner)
    dice = state.dice or (0, 0)
    assert fields == [
        state.cube_value.bit_length() - 1, owner, gnubg_number(state.on_roll),
        int(state.crawford), int(state.game_state), gnubg_number(state.turn),
        int(state.double_offered), int(state.resignation), dice[0], dice[1],
        state.match_length, state.score[GNUBG_PLAYER[0]], state.score[GNUBG_PLAYER[1]],
        int(not state.jacoby)]
    assert encode_match_id(state) == ref_encode_match_id(state)

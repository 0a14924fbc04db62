"""Move notation: reading what players type and writing plays canonically.

Two layers, as in python-chess (syntax apart from legality):

* :func:`parse_moves` is pure syntax.  It knows point names (``bar``, ``off``,
  numbers), separators, hit marks and repeat counts, and nothing about the
  rules: ``13/18`` parses (it is rejected later, by :mod:`engine.interpret`,
  with a message about direction).
* :func:`format_moves` / :func:`format_play` write GNU Backgammon's canonical
  notation, following gnubg's ``FormatMove`` (drawboard.c):

  1. single-die moves are sorted by source point, highest first, then by
     destination, highest first;
  2. moves of one checker are combined greedily (a move whose source is the
     destination of an earlier move continues it); an intermediate point is
     written only when a blot was hit there (``24/18*/13``), otherwise it is
     left out (``24/13``);
  3. identical moves (same points, including written intermediate points) are
     merged with a count: ``8/5(2) 6/5(2)``;
  4. a destination where a blot was hit gets ``*`` the first time only
     (``8/5* 6/5``);
  5. points are numbers in the mover's own numbering, ``bar`` and ``off``.

  A play with no move (the roll could not be played) formats as the empty
  string, as ``FormatMove`` does.

Points in a :class:`TypedMove` use the engine's indices: ``25`` is the bar,
``0`` is off.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from itertools import islice
from operator import attrgetter

from engine.errors import NotationError
from engine.move import Move, Play
from engine.position import BAR, OFF, WAITING

MAX_TEXT = 200
"""Longest move text :func:`parse_moves` reads (a full play is under 40 characters)."""

MAX_COUNT = 4
"""No roll moves more than four checkers, so ``(n)`` is at most ``(4)``."""

ACCEPTED_FORMS = (
    "Write moves like 13/7 8/7, 24/18*/13, 8/5(2) 6/5(2), bar/22 or 6/off "
    "(also 13-7, b/22, 25/22, 6/o, 6/0)."
)

NO_MOVE_WORDS = frozenset(
    {"", "-", "no move", "nomove", "none", "pass", "cannot move", "can't move", "cant move"}
)
"""Texts that mean "no move".  They parse to an empty tuple, which only a roll
that cannot be played at all accepts (see :func:`engine.interpret.resolve_play`)."""

_POINT = r"(?:\d{1,3}|bar|ba|b|off|of|o)"
_CHUNK_RE = re.compile(
    rf"(?P<path>{_POINT}\*?(?:[/\-]{_POINT}\*?)+)(?:\((?P<count>\d{{1,3}})\))?"
)
_STEP_RE = re.compile(rf"({_POINT})(\*?)")
_SEPARATORS_RE = re.compile(r"[\s,;]+")


@dataclass(frozen=True, slots=True)
class TypedMove:
    """One written move: a checker's path and how many checkers take it.

    ``points`` is the path (``(24, 18, 13)`` for ``24/18/13``; 25 is the bar,
    0 is off); ``hits[i]`` tells whether ``*`` was written after
    ``points[i + 1]``; ``count`` comes from ``(n)``.
    """

    points: tuple[int, ...]
    hits: tuple[bool, ...]
    count: int = 1

    def __post_init__(self) -> None:
        if len(self.points) < 2:
            raise ValueError("a move needs a source and a destination")
        if len(self.hits) != len(self.points) - 1:
            raise ValueError("one hit mark per point after the first")
        if not 1 <= self.count <= MAX_COUNT:
            raise ValueError(f"count must be 1 to {MAX_COUNT}")
        for i, p in enumerate(self.points):
            if not OFF <= p <= BAR:
                raise ValueError(f"no point {p}")
            if p == BAR and i > 0:
                raise ValueError("the bar can only start a move")
            if p == OFF and i < len(self.points) - 1:
                raise ValueError("off can only end a move")

    @property
    def source(self) -> int:
        return self.points[0]

    @property
    def destination(self) -> int:
        return self.points[-1]

    def hops(self) -> tuple[tuple[int, int], ...]:
        """Consecutive point pairs of one repetition: ``24/18/13`` -> (24, 18), (18, 13)."""
        return tuple(zip(self.points, self.points[1:], strict=False))

    def marked_hits(self) -> frozenset[int]:
        """Points written with ``*``."""
        return frozenset(p for p, h in zip(self.points[1:], self.hits, strict=True) if h)

    def __str__(self) -> str:
        text = _point_name(self.points[0])
        for p, h in zip(self.points[1:], self.hits, strict=True):
            text += "/" + _point_name(p) + ("*" if h else "")
        return text + (f"({self.count})" if self.count > 1 else "")


def _point_name(index: int) -> str:
    if index >= BAR:
        return "bar"
    if index == OFF:
        return "off"
    return str(index)


def _point_value(token: str, chunk: str) -> int:
    if token[0] == "b":
        return BAR
    if token[0] == "o":
        return OFF
    value = int(token)
    if value > BAR:
        raise NotationError(
            f"There is no point {value} in {chunk!r}: points are 1-24, "
            f"with bar (or 25) and off (or 0)."
        )
    return value


ARROWS_RE = re.compile(r"\s*(?:→|->|⟶|=>)\s*")
"""The arrows of the move builder's labels (``13 → 11``) and their ASCII forms (``13->11``)."""


def unarrow(text: str) -> str:
    """The move builder's way of writing a play (``24 → 18* → 13, 8 → 5 ×2``, as
    :func:`engine.steps.play_label` writes it; ``13->11`` in ASCII) in notation:
    ``24/18*/13 8/5(2)``.  Other text is left as it is."""
    text = ARROWS_RE.sub("/", text)
    return re.sub(r"\s*[×x]\s*(\d)\b", r"(\1)", text)


def _normalise(text: str) -> str:
    text = unarrow(text.strip().lower())
    # Allow spaces around separators, before '*' and inside "(2)".
    text = re.sub(r"\s*([/\-(])\s*", r"\1", text)
    text = re.sub(r"\s+([*)])", r"\1", text)
    # "8/5(2)6/5(2)": a count closes a move.
    return re.sub(r"\)(?=\S)", ") ", text)


def is_no_move(text: str) -> bool:
    """True for the empty text and the words that mean "no move"."""
    return " ".join(text.strip().lower().split()) in NO_MOVE_WORDS


def parse_move(chunk: str) -> TypedMove:
    """Parse one move (``24/18*/13``, ``8/5(2)``, ``bar-22``...) with no spaces in it."""
    match = _CHUNK_RE.fullmatch(chunk)
    if not match:
        if re.fullmatch(rf"{_POINT}\*?", chunk):
            raise NotationError(
                f"{chunk!r} is only one point: a move goes from one point to another, "
                f"like 13/7. {ACCEPTED_FORMS}"
            )
        raise NotationError(f"Can't read {chunk!r}. {ACCEPTED_FORMS}")
    steps = _STEP_RE.findall(match.group("path"))
    points = tuple(_point_value(tok, chunk) for tok, _ in steps)
    if steps[0][1]:
        raise NotationError(
            f"In {chunk!r} the * is on the starting point: write it after the point "
            f"where the hit happens, like 13/7*."
        )
    if BAR in points[1:]:
        raise NotationError(f"In {chunk!r} the bar is not at the start: only bar/.. moves enter.")
    if OFF in points[:-1]:
        raise NotationError(f"In {chunk!r} off is not at the end: write bearing off as 6/off.")
    count = 1
    if match.group("count") is not None:
        count = int(match.group("count"))
        if not 1 <= count <= MAX_COUNT:
            raise NotationError(
                f"In {chunk!r} the count ({count}) is impossible: a roll moves at most "
                f"{MAX_COUNT} checkers, so write (2), (3) or (4)."
            )
    return TypedMove(points, tuple(bool(star) for _, star in steps[1:]), count)


def parse_moves(text: str) -> tuple[TypedMove, ...]:
    """Parse what a player typed into written moves, in the order typed.

    Lenient about spelling: spaces or commas between moves, ``/`` or ``-``
    between points (or the move builder's arrows, ``13 → 11``, ``13->11``),
    ``bar``/``b``/``25``, ``off``/``o``/``0``, optional ``*``, ``(n)`` repeats,
    any case, extra whitespace.  The empty text and the words
    in :data:`NO_MOVE_WORDS` give ``()`` ("no move").  Raises
    :class:`NotationError` naming the first unreadable part.
    """
    if len(text) > MAX_TEXT:
        raise NotationError(
            f"That is {len(text)} characters; a play is at most {MAX_TEXT}. {ACCEPTED_FORMS}"
        )
    if is_no_move(text):
        return ()
    chunks = [c for c in _SEPARATORS_RE.split(_normalise(text)) if c]
    return tuple(parse_move(chunk) for chunk in chunks)


def format_typed(moves: Iterable[TypedMove]) -> str:
    """Write typed moves back as text, in the order given (not canonical)."""
    return " ".join(str(m) for m in moves)


# --------------------------------------------------------------------------
# Canonical output (gnubg FormatMove)
# --------------------------------------------------------------------------


def format_moves(moves: Iterable[Move],
                 point_name: Callable[[int], str] | None = None) -> str:
    """Canonical GNU Backgammon text of the single-die ``moves`` of one play.

    Hit marks come from the moves' ``hit`` flags: a point is marked where any
    move hit (in a legal play that is exactly where the opponent had a blot).
    ``point_name`` names the start and end of each path (variants name index
    26, a checker not yet entered, ``in``); the default is ``bar``/``off``/numbers.
    """
    name = point_name or _point_name
    singles = sorted(((m.src, m.dst) for m in moves), key=lambda sd: (-sd[0], -sd[1]))
    hit_points = {m.dst for m in moves if m.hit}

    # Combine moves of one checker: chains[i] lists its points; intermediate
    # points are kept only where a blot was hit.
    chains: list[list[int] | None] = [[s, d] for s, d in singles]
    for i, chain in enumerate(chains):
        if chain is None:
            continue
        for j in range(i + 1, len(chains)):
            other = chains[j]
            if other is not None and chain[-1] == other[0]:
                if chain[-1] not in hit_points:
                    chain.pop()
                chain.append(other[1])
                chains[j] = None
    paths = [c for c in chains if c is not None]

    # Merge identical paths into counts, keeping first-occurrence order.
    merged: list[tuple[list[int], int]] = []
    for path in paths:
        for k, (seen, count) in enumerate(merged):
            if seen == path:
                merged[k] = (seen, count + 1)
                break
        else:
            merged.append((path, 1))

    marked: set[int] = set()
    parts: list[str] = []
    for path, count in merged:
        text = name(path[0])
        for p in path[1:-1]:
            text += f"/{_point_name(p)}*"
            marked.add(p)
        dest = path[-1]
        text += "/" + name(dest)
        if dest != OFF and dest in hit_points and dest not in marked:
            text += "*"
            marked.add(dest)
        if count > 1:
            text += f"({count})"
        parts.append(text)
    return " ".join(parts)


def format_play(play: Play) -> str:
    """Canonical GNU Backgammon text of ``play`` ("" when it has no move)."""
    moves = play.moves
    key = tuple(map(id, moves))
    known = _TEXT_BY_MOVES.get(key)
    if known is None:
        known = _remember(key, moves)
    return known[1]


def format_plays(plays: Iterable[Play]) -> list[str]:
    """:func:`format_play` of each play, in order (faster than one call each)."""
    get = _TEXT_BY_MOVES.get
    texts: list[str] = []
    for play in plays:
        moves = play.moves
        key = tuple(map(id, moves))
        known = get(key)
        if known is None:
            known = _remember(key, moves)
        texts.append(known[1])
    return texts


_TEXT_BY_MOVES: dict[tuple[int, ...], tuple[tuple[Move, ...], str]] = {}
"""The text of a play by the identities of its moves.  The move generator hands
out the same :class:`Move` objects again and again, and the host and the command
line write the same plays again and again; a key of ``id()``s costs no Python
``__hash__`` per move.  Each entry keeps its moves alive, so no id in a key can
be reused by another object while the entry exists."""
_TEXT_BY_MOVES_LIMIT = 1 << 16
"""At this many entries the oldest quarter is forgotten."""


def _remember(key: tuple[int, ...], moves: tuple[Move, ...]) -> tuple[tuple[Move, ...], str]:
    if len(_TEXT_BY_MOVES) >= _TEXT_BY_MOVES_LIMIT:
        for old in list(islice(_TEXT_BY_MOVES, _TEXT_BY_MOVES_LIMIT // 4)):
            del _TEXT_BY_MOVES[old]
    entry = _TEXT_BY_MOVES[key] = (moves, _format_standard(moves))
    return entry


_NAMES: tuple[str, ...] = tuple(_point_name(i) for i in range(WAITING + 1))


def _format_standard(moves: tuple[Move, ...]) -> str:
    """:func:`format_moves` with the standard point names (the same text; the
    plays of one and two moves, most plays, are written without its general
    machinery)."""
    names = _NAMES
    if len(moves) == 2:
        a, b = moves
        sa, da, sb, db = a.src, a.dst, b.src, b.dst
        if sa < sb or (sa == sb and da < db):
            a, b = b, a
            sa, da, sb, db = sb, db, sa, da
        if da == sb:  # one checker: the point between is written where it hit
            return (names[sa] + ("/" + names[da] + "*" if a.hit else "") + "/" + names[db]
                    + ("*" if b.hit and db != OFF else ""))
        if sa == sb and da == db:
            return (names[sa] + "/" + names[da] + ("*" if (a.hit or b.hit) and da != OFF else "")
                    + "(2)")
        star_a = da != OFF and (a.hit or (b.hit and db == da))
        star_b = db != OFF and b.hit and not (star_a and db == da)
        return (names[sa] + "/" + names[da] + ("*" if star_a else "") + " " + names[sb] + "/"
                + names[db] + ("*" if star_b else ""))
    if len(moves) == 1:
        m = moves[0]
        return names[m.src] + "/" + names[m.dst] + ("*" if m.hit and m.dst != OFF else "")
    # format_moves's steps, on tuples: sort, chain, merge equal paths, write.
    pairs = sorted(map(_SRC_DST, moves), reverse=True)
    hits = {m.dst for m in moves if m.hit}
    n = len(pairs)
    free = [True] * n
    paths: dict[tuple[int, tuple[int, ...], int], int] = {}
    for i in range(n):
        if not free[i]:
            continue
        src, end = pairs[i]
        between: tuple[int, ...] = ()
        for j in range(i + 1, n):
            if free[j] and pairs[j][0] == end:
                if end in hits:
                    between += (end,)
                end = pairs[j][1]
                free[j] = False
        path = (src, between, end)
        paths[path] = paths.get(path, 0) + 1
    marked: set[int] = set()
    parts: list[str] = []
    for (src, between, end), count in paths.items():
        text = names[src]
        for p in between:
            text += "/" + names[p] + "*"
            marked.add(p)
        text += "/" + names[end]
        if end in hits and end != OFF and end not in marked:
            text += "*"
            marked.add(end)
        if count > 1:
            text += f"({count})"
        parts.append(text)
    return " ".join(parts)


_SRC_DST = attrgetter("src", "dst")

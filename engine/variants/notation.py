"""Move notation for the variants that enter checkers from off the board.

Everything is as in :mod:`engine.notation` (gnubg style, points in the mover's
own numbering, ``bar``, ``off``, ``*`` for a hit, ``(n)`` for repeats), plus
one source point:

``in``
    a checker not yet entered (index 26).  ``in/22`` enters a checker on the
    22-point (with a 3); ``in/22/17`` enters it and moves it on; ``in/20(4)``
    enters four.  Accepted spellings: ``in``, ``i``, ``enter``, ``entry``,
    ``e``, ``new``, ``n``, ``w`` (waiting), ``26``.  In a variant whose hit
    checkers go back off the board rather than to the bar (Acey-Deucey,
    1973 rules), ``bar`` also means ``in``.

:func:`format_play` writes plays canonically (entries first as ``in/..``);
:func:`resolve_play` finds the legal play a text names.  Text is matched on
the mover's resulting checkers, so the order of the moves and whether a
checker's steps are written together (``in/17``) or apart (``in/20 20/17``)
do not matter; written hits choose between plays that differ only in hits.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise

from engine import notation
from engine.errors import AmbiguousPlayError, IllegalPlayError, NotationError
from engine.move import Move, Play
from engine.player import Player
from engine.position import BAR, OFF, WAITING, Position
from engine.variants.movement import MovementRules

ACCEPTED_FORMS = ("Write moves like in/22 (enter a man on your 22-point), in/22/17, "
                  "in/20(2), 13/7*, bar/22 or 6/off.")

_IN_WORDS = ("enter", "entry", "new", "in", "i", "e", "n", "w", "26")
_POINT = r"(?:enter|entry|new|in|i|e|n|w|bar|ba|b|off|of|o|\d{1,2})"
_CHUNK_RE = re.compile(rf"({_POINT}\*?(?:/{_POINT}\*?)+)(?:\((\d)\))?")
_STEP_RE = re.compile(rf"({_POINT})(\*?)")
NO_MOVE_WORDS = frozenset({"", "-", "no move", "none", "pass", "nomove", "cannot move"})


@dataclass(frozen=True, slots=True)
class WrittenMove:
    """One written move: the path of a checker (26 = in, 25 = bar, 0 = off), hits, count."""

    points: tuple[int, ...]
    hits: tuple[bool, ...]
    count: int = 1


def point_name(index: int) -> str:
    if index == WAITING:
        return "in"
    if index == BAR:
        return "bar"
    if index == OFF:
        return "off"
    return str(index)


def _value(token: str, first: bool, rules: MovementRules | None, chunk: str) -> int:
    if token in _IN_WORDS:
        if not first:
            raise NotationError(f"In {chunk!r} 'in' is not at the start. {ACCEPTED_FORMS}")
        return WAITING
    if token[0] == "b":
        if not first:
            raise NotationError(f"In {chunk!r} the bar is not at the start. {ACCEPTED_FORMS}")
        return WAITING if rules is not None and rules.hit_to == WAITING else BAR
    if token[0] == "o":
        return OFF
    value = int(token)
    if value > BAR:
        raise NotationError(f"There is no point {value} in {chunk!r}. {ACCEPTED_FORMS}")
    if value == BAR and rules is not None and rules.hit_to == WAITING:
        return WAITING
    return value


def parse_moves(text: str, rules: MovementRules | None = None) -> tuple[WrittenMove, ...]:
    """Parse move text; ``rules`` decides what ``bar`` means (see the module docstring)."""
    clean = text.strip().lower()
    if " ".join(clean.split()) in NO_MOVE_WORDS:
        return ()
    if len(clean) > 200:
        raise NotationError("That is too long for one play. " + ACCEPTED_FORMS)
    clean = re.sub(r"\s*([/\-(])\s*", r"\1", clean)
    clean = re.sub(r"\s+([*)])", r"\1", clean)
    clean = re.sub(r"(?<=[a-z0-9*])-(?=[a-z0-9])", "/", clean)
    clean = re.sub(r"\)(?=\S)", ") ", clean)
    moves = []
    for chunk in (c for c in re.split(r"[\s,;]+", clean) if c):
        match = _CHUNK_RE.fullmatch(chunk)
        if not match:
            raise NotationError(f"Can't read {chunk!r}. {ACCEPTED_FORMS}")
        steps = _STEP_RE.findall(match.group(1))
        points = tuple(_value(tok, i == 0, rules, chunk) for i, (tok, _) in enumerate(steps))
        if OFF in points[:-1]:
            raise NotationError(f"In {chunk!r} off is not at the end. {ACCEPTED_FORMS}")
        if any(a <= b for a, b in pairwise(points)):
            raise NotationError(
                f"{chunk!r} goes the wrong way: checkers move from higher points to lower "
                "ones in your own numbering (in and the bar are highest, off is lowest)."
            )
        count = int(match.group(2)) if match.group(2) else 1
        if not 1 <= count <= 4:
            raise NotationError(f"In {chunk!r} the count must be 2, 3 or 4.")
        moves.append(WrittenMove(points, tuple(bool(s) for _, s in steps[1:]), count))
    return tuple(moves)


def format_moves(moves: Iterable[Move]) -> str:
    """Canonical text (gnubg's FormatMove rules, with ``in`` for entering)."""
    return notation.format_moves(moves, point_name)


def format_play(play: Play) -> str:
    """Canonical text of a play ("" when it has no move)."""
    return format_moves(play.moves)


def resolve_play(text: str, position: Position, player: Player, legal: Sequence[Play],
                 rules: MovementRules) -> Play:
    """The legal play (of one stage) that ``text`` names.

    Raises :class:`NotationError` for unreadable text, :class:`IllegalPlayError`
    when no legal play fits (naming up to five that do exist) and
    :class:`AmbiguousPlayError` when several fit.
    """
    written = parse_moves(text, rules)
    mine = list(position.sides[player])
    marked: set[int] = set()
    for move in written:
        mine[move.points[0]] -= move.count
        mine[move.points[-1]] += move.count
        marked.update(p for p, h in zip(move.points[1:], move.hits, strict=True) if h)
    fits = [p for p in legal if list(p.position.sides[player]) == mine]
    if marked:
        fits = [p for p in fits if marked <= {m.dst for m in p.moves if m.hit}] or fits
    if len(fits) > 1:
        quiet = [p for p in fits if not ({m.dst for m in p.moves if m.hit} - marked)]
        fits = quiet or fits
    if len(fits) == 1:
        return fits[0]
    names = [format_play(p) or "no move" for p in legal][:5]
    if not fits:
        if not written and legal[0].moves:
            raise IllegalPlayError(f"You can move: for example {names[0]}.")
        raise IllegalPlayError(
            f"{text.strip() or 'No move'} is not a legal play here. Legal plays include: "
            + "; ".join(names) + "."
        )
    candidates = [format_play(p) for p in fits]
    raise AmbiguousPlayError(
        f"{text.strip()} could mean {' or '.join(candidates[:5])}: write where you hit.",
        candidates,
    )

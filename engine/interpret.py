"""Matching what a player typed to the legal play it means.

:func:`resolve_play` turns text like ``24/18 18/13``, ``13/7 8/7`` or
``bar/22 6/off`` into one of the legal plays of the roll, whatever order the
moves were typed in and whether one checker's steps were written together
(``24/13``) or apart (``24/18 18/13``).  When the text does not name exactly
one legal play it raises an error whose message says what is wrong and what is
allowed instead.

How the match works
-------------------
The legal plays (from :func:`engine.movegen.legal_plays`, or given by the
caller) are the authority.  Each written hop (``24/18``, ``18/13``...) is
realised with the dice that are left in every way the board allows (a hop of
several pips may use several dice, landing on open points in between), in
every order of the hops.  A realisation that ends on the position of a legal
play matches it; plays compare by the position they produce, so two ways of
writing the same play always match the same play.

Gnubg's notation writes every point where a blot is hit, so a realisation
that hits a blot on a point the player did not write is used only when no
realisation without such a hidden hit matches: ``24/13`` with 6-5 means the
non-hitting way when there is one, and is ambiguous when both ways hit.

When nothing matches, the typed moves are replayed under the full movement
rules (002 'MOVEMENT OF PIECES', 'HITTING AND ENTERING', 'BEARING OFF') to
find the first move that cannot be made, and one small function per kind of
failure words the explanation, in the player's own point numbers.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.dice import Dice
from engine.errors import AmbiguousPlayError, IllegalPlayError, IncompletePlayError
from engine.move import Play
from engine.movegen import MIRROR, legal_plays
from engine.notation import TypedMove, format_play, format_typed, parse_moves
from engine.player import Player
from engine.position import BAR, OFF, Position
from engine.words import counted

MAX_LISTED = 5
"""How many candidate plays an error message names."""

Hop = tuple[int, int]


# --------------------------------------------------------------------------
# Board state during a turn
# --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Board:
    """The mover's side, the opponent's side (own numbering) and the dice left."""

    mine: tuple[int, ...]
    theirs: tuple[int, ...]
    dice: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class _Turn:
    """Everything fixed during one resolution."""

    position: Position
    player: Player
    dice: Dice
    opposite: Sequence[int]
    plays: tuple[Play, ...]
    legal: dict[Position, Play]
    required: int

    def start(self) -> _Board:
        return _Board(
            self.position.sides[self.player],
            self.position.sides[1 - self.player],
            tuple(sorted(self.dice.moves(), reverse=True)),
        )

    def opponents_at(self, board: _Board, point: int) -> int:
        """Opposing checkers on the mover's ``point`` (1-24)."""
        return board.theirs[self.opposite[point]]

    def to_position(self, board: _Board) -> Position:
        if self.player == Player.WHITE:
            return Position.unchecked(board.mine, board.theirs)
        return Position.unchecked(board.theirs, board.mine)

    def move(self, board: _Board, src: int, dst: int, die: int) -> tuple[_Board, bool]:
        """Move one checker ``src`` -> ``dst`` with ``die``; the new board and whether it hit."""
        mine = list(board.mine)
        mine[src] -= 1
        mine[dst] += 1
        theirs = board.theirs
        hit = dst != OFF and theirs[self.opposite[dst]] == 1
        if hit:
            t = list(theirs)
            t[self.opposite[dst]] = 0
            t[BAR] += 1
            theirs = tuple(t)
        dice = list(board.dice)
        dice.remove(die)
        return _Board(tuple(mine), theirs, tuple(dice)), hit

    def used(self, board: _Board) -> int:
        return len(self.dice.moves()) - len(board.dice)


def _make_turn(position: Position, player: Player, dice: Dice, plays: Sequence[Play] | None,
               opposite: Sequence[int]) -> _Turn:
    if plays is None:
        plays = legal_plays(position, player, dice.first, dice.second, opposite)
    plays = tuple(plays)
    return _Turn(
        position=position,
        player=player,
        dice=dice,
        opposite=opposite,
        plays=plays,
        legal={p.position: p for p in plays},
        required=max((len(p.dice) for p in plays), default=0),
    )


def _distinct(values: Iterable[int]) -> list[int]:
    return sorted(set(values), reverse=True)


def _expand(typed: Sequence[TypedMove]) -> tuple[Hop, ...]:
    """Every written hop, repeated as the counts say."""
    return tuple(hop for tm in typed for _ in range(tm.count) for hop in tm.hops())


def _remove_one(hops: tuple[Hop, ...], hop: Hop) -> tuple[Hop, ...]:
    i = hops.index(hop)
    return hops[:i] + hops[i + 1:]


# --------------------------------------------------------------------------
# Matching: realise the written hops in every way the board allows
# --------------------------------------------------------------------------


def _realise_hop(turn: _Turn, board: _Board, src: int, dst: int) -> list[tuple[_Board, bool]]:
    """Ways to move one checker ``src`` -> ``dst`` with the dice left.

    Only geometry is checked here (a checker to move, no landing on two or
    more opposing checkers); the legal plays decide the rest.  Each result
    tells whether it avoided hitting on an unwritten point in between.
    """
    if not board.mine[src]:
        return []
    results: list[tuple[_Board, bool]] = []

    def walk(current: _Board, at: int, literal: bool) -> None:
        for die in _distinct(current.dice):
            target = at - die
            if dst > OFF and target < dst:
                continue
            land = max(target, OFF)
            if land != OFF and turn.opponents_at(current, land) >= 2:
                continue
            after, hit = turn.move(current, at, land, die)
            if land == dst:
                results.append((after, literal))
            else:
                walk(after, land, literal and not hit)

    walk(board, src, True)
    return results


def _realise(turn: _Turn, hops: tuple[Hop, ...]) -> dict[_Board, bool]:
    """Final boards reachable by playing all ``hops`` in any order -> literal?"""
    finals: dict[_Board, bool] = {}
    seen: set[tuple[_Board, tuple[Hop, ...], bool]] = set()

    def rec(board: _Board, rest: tuple[Hop, ...], literal: bool) -> None:
        key = (board, rest, literal)
        if key in seen:
            return
        seen.add(key)
        if not rest:
            finals[board] = finals.get(board, False) or literal
            return
        for hop in dict.fromkeys(rest):
            remaining = _remove_one(rest, hop)
            for after, lit in _realise_hop(turn, board, *hop):
                rec(after, remaining, literal and lit)

    rec(turn.start(), tuple(sorted(hops, reverse=True)), True)
    return finals


def _completions(turn: _Turn, boards: Iterable[_Board]) -> list[Play]:
    """Legal plays reachable from ``boards`` by moving more checkers with the dice left."""
    found: dict[Position, Play] = {}
    stack = list(boards)
    seen = set(stack)
    while stack:
        board = stack.pop()
        pos = turn.to_position(board)
        if pos in turn.legal:
            found[pos] = turn.legal[pos]
        for die in _distinct(board.dice):
            for src in range(BAR, 0, -1):
                if not board.mine[src]:
                    continue
                land = max(src - die, OFF)
                if land != OFF and turn.opponents_at(board, land) >= 2:
                    continue
                after, _ = turn.move(board, src, land, die)
                if after not in seen:
                    seen.add(after)
                    stack.append(after)
    return list(found.values())


@dataclass(frozen=True, slots=True)
class _Match:
    exact: tuple[Play, ...]
    """Legal plays the text names completely."""
    partial: tuple[Play, ...]
    """Legal plays that contain the typed moves and more (when ``exact`` is empty)."""


def _match(turn: _Turn, hops: tuple[Hop, ...]) -> _Match:
    finals = _realise(turn, hops)
    literal: dict[Position, Play] = {}
    loose: dict[Position, Play] = {}
    for board, is_literal in finals.items():
        pos = turn.to_position(board)
        if pos in turn.legal:
            (literal if is_literal else loose)[pos] = turn.legal[pos]
    exact = literal or loose
    if exact:
        return _Match(_sorted(exact.values()), ())
    return _Match((), _sorted(_completions(turn, finals)))


def _sorted(plays: Iterable[Play]) -> tuple[Play, ...]:
    return tuple(sorted(plays, key=lambda p: (-len(p.moves), format_play(p))))


# --------------------------------------------------------------------------
# Wording helpers
# --------------------------------------------------------------------------


def _point(index: int) -> str:
    return "the bar" if index >= BAR else f"the {index} point"


def _name(index: int) -> str:
    return "bar" if index >= BAR else "off" if index == OFF else str(index)


def _hop_text(hop: Hop) -> str:
    return f"{_name(hop[0])}/{_name(hop[1])}"


def _join(items: Sequence[str], word: str = "or") -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {word} " + items[-1]


def _choices(plays: Sequence[Play]) -> str:
    texts = [format_play(p) or "no move" for p in plays[:MAX_LISTED]]
    more = len(plays) - MAX_LISTED
    return _join(texts) + (f" (and {more} more)" if more > 0 else "")


def _number_word(n: int) -> str:
    return {1: "one", 2: "two", 3: "three", 4: "four"}.get(n, str(n))


def _dice_left(dice: Sequence[int]) -> str:
    """'the 2', 'the 6 and the 2', 'one 3', 'three 3s'."""
    if len(set(dice)) > 1:
        return _join([f"the {d}" for d in dice], "and")
    if len(dice) == 1:
        return f"the {dice[0]}"
    return f"{_number_word(len(dice))} {dice[0]}s"


def _must_use(turn: _Turn) -> str:
    """'use both dice' / 'play all four 3s' / 'play three 3s'."""
    if turn.dice.is_double:
        count = "all four" if turn.required == 4 else _number_word(turn.required)
        return f"play {count} {turn.dice.first}s"
    return "use both dice" if turn.required == 2 else f"play the {turn.dice.high}"


# --------------------------------------------------------------------------
# Explanations: one function per kind of failure
# --------------------------------------------------------------------------


def _explain_no_move(turn: _Turn) -> str:
    return f"No legal move with {turn.dice}: you can't move this turn."


def _explain_direction(hop: Hop) -> str | None:
    src, dst = hop
    if src == dst:
        return f"{_hop_text(hop)} doesn't move the checker anywhere."
    if src < dst:
        return (
            f"{_hop_text(hop)} goes the wrong way: your checkers move from higher to lower "
            f"point numbers, toward your home board (points 1-6) and off."
        )
    return None


def _explain_too_many(turn: _Turn, hops: Sequence[Hop]) -> str | None:
    limit = len(turn.dice.moves())
    if len(hops) <= limit:
        return None
    return (
        f"That is {len(hops)} moves, but {turn.dice} lets you move at most "
        f"{_number_word(limit)} times."
    )


def _explain_false_hit(turn: _Turn, typed: Sequence[TypedMove]) -> str | None:
    start = turn.start()
    for tm in typed:
        for point in sorted(tm.marked_hits(), reverse=True):
            if point != OFF and turn.opponents_at(start, point) == 0:
                return (
                    f"There is no opposing checker on your {point} point to hit: "
                    f"{tm} can't hit there (leave out the *)."
                )
    return None


def _explain_bar_first(turn: _Turn, board: _Board, src: int) -> str | None:
    on_bar = board.mine[BAR]
    if not on_bar or src == BAR:
        return None
    checkers = "a checker" if on_bar == 1 else counted(on_bar, "checker")
    them = "it" if on_bar == 1 else "them"
    open_points = [
        f"bar/{BAR - d}" for d in sorted(set(board.dice))
        if turn.opponents_at(board, BAR - d) <= 1
    ]
    if not open_points:
        return (
            f"You have {checkers} on the bar and no open point to enter with "
            f"{_dice_left(board.dice)}, so you can't move anything else."
        )
    verb = "is" if len(open_points) == 1 else "are"
    return f"You have {checkers} on the bar: enter {them} first ({_join(open_points)} {verb} open)."


def _explain_no_checker(turn: _Turn, board: _Board, src: int) -> str | None:
    if board.mine[src]:
        return None
    had = turn.position.count(turn.player, src)
    if had:
        checkers = "checker" if had == 1 else "checkers"
        return f"You have only {had} {checkers} on {_point(src)}."
    return f"You have no checker on {_point(src)}."


def _explain_pips(turn: _Turn, board: _Board, hop: Hop) -> str:
    src, dst = hop
    pips = f"{src - dst} pip" + ("" if src - dst == 1 else "s")
    if not board.dice:
        return (
            f"You have no dice left for {_hop_text(hop)}: your other moves already use "
            f"the {turn.dice} you rolled."
        )
    if turn.used(board) == 0:
        return f"{_hop_text(hop)} is {pips} but you rolled {turn.dice}."
    left = _dice_left(board.dice)
    return f"{_hop_text(hop)} is {pips} but you have only {left} left to play."


def _explain_blocked(turn: _Turn, hop: Hop, blocked: dict[int, int]) -> str:
    if len(blocked) == 1:
        ((point, count),) = blocked.items()
        return f"Point {point} is blocked ({count} opposing checkers)."
    parts = [f"point {p} ({n} opposing checkers)" for p, n in sorted(blocked.items(), reverse=True)]
    every = "both" if len(parts) == 2 else "all"
    return f"You can't play {_hop_text(hop)}: {_join(parts, 'and')} are {every} blocked."


def _explain_not_home(board: _Board) -> str | None:
    outside = [i for i in range(len(board.mine) - 1, 6, -1) if board.mine[i]]
    if not outside:
        return None
    count = sum(board.mine[i] for i in outside)
    names = _join([_name(i) if i < BAR else "the bar" for i in outside], "and")
    subject = f"a checker on {names} is" if count == 1 else f"checkers on {names} are"
    return f"You can't bear off yet: {subject} outside your home board."


def _explain_higher_point(board: _Board, src: int, die: int) -> str | None:
    higher = [i for i in range(6, src, -1) if board.mine[i]]
    if not higher:
        return None
    return (
        f"You can't bear off from the {src} point with a {die} while you have a checker "
        f"on the {higher[0]} point."
    )


def _explain_high_die(turn: _Turn, board: _Board) -> str | None:
    if turn.required != 1 or turn.dice.is_double or turn.used(board) != 1:
        return None
    if board.dice != (turn.dice.high,):
        return None
    return (
        f"When only one die can be played you must play the {turn.dice.high}. "
        f"Legal plays: {_choices(_sorted(turn.plays))}."
    )


def _explain_rest_unplayable(turn: _Turn, board: _Board, typed_text: str) -> str | None:
    if turn.used(board) >= turn.required:
        return None
    return (
        f"After {typed_text} you can't play {_dice_left(board.dice)}, but you must "
        f"{_must_use(turn)} when you can. Legal plays: {_choices(_sorted(turn.plays))}."
    )


def _explain_incomplete(turn: _Turn, hops: Sequence[Hop], plays: Sequence[Play]) -> str:
    if not hops:
        text = f"You must play your {turn.dice}: {_choices(plays)}."
    else:
        # One sentence, whatever the number of plays listed (issue 30 item 12: it read
        # "You must play all four 6s: 24/18(2) 11/5 8/2, ... or 24/18(2) 8/2(2) do.").
        text = f"You must {_must_use(turn)}: play {_choices(plays)}."
    if turn.position.bar(turn.player) and all(src != BAR for src, _ in hops):
        text = "You have a checker on the bar: enter it first. " + text
    return text


# --------------------------------------------------------------------------
# Replaying under the full rules to find the first move that fails
# --------------------------------------------------------------------------


def _splits(dice: Sequence[int], src: int, dst: int) -> list[tuple[int, ...]]:
    """Die sequences that take a checker from ``src`` to ``dst`` (any overshoot bears off)."""
    found: list[tuple[int, ...]] = []

    def rec(left: list[int], at: int, used: tuple[int, ...]) -> None:
        for die in _distinct(left):
            target = at - die
            if dst > OFF and target < dst:
                continue
            rest = list(left)
            rest.remove(die)
            if target == dst or (dst == OFF and target < OFF):
                found.append((*used, die))
            else:
                rec(rest, target, (*used, die))

    rec(list(dice), src, ())
    return found


@dataclass(frozen=True, slots=True)
class _Failure:
    message: str
    blocked_point: int = 0
    blocked_count: int = 0


def _step_failure(turn: _Turn, board: _Board, at: int, die: int) -> _Failure | None:
    """Why one checker can't move from ``at`` with ``die`` under the full rules."""
    bar = _explain_bar_first(turn, board, at)
    if bar:
        return _Failure(bar)
    target = at - die
    if target > OFF:
        count = turn.opponents_at(board, target)
        if count >= 2:
            message = f"Point {target} is blocked ({count} opposing checkers)."
            return _Failure(message, target, count)
        return None
    not_home = _explain_not_home(board)
    if not_home:
        return _Failure(not_home)
    if target < OFF:
        higher = _explain_higher_point(board, at, die)
        if higher:
            return _Failure(higher)
    return None


def _play_hop(turn: _Turn, board: _Board, hop: Hop) -> tuple[list[_Board], str | None]:
    """Boards after playing ``hop`` under the full rules, or why it can't be played."""
    src, dst = hop
    for check in (_explain_bar_first, _explain_no_checker):
        reason = check(turn, board, src)
        if reason:
            return [], reason
    splits = _splits(board.dice, src, dst)
    if not splits:
        return [], _explain_pips(turn, board, hop)
    results: list[_Board] = []
    failures: list[_Failure] = []
    for split in splits:
        current, at = board, src
        for die in split:
            failure = _step_failure(turn, current, at, die)
            if failure:
                failures.append(failure)
                break
            land = max(at - die, OFF)
            current, _ = turn.move(current, at, land, die)
            at = land
        else:
            results.append(current)
    if results:
        return results, None
    if all(f.blocked_point for f in failures):
        blocked = {f.blocked_point: f.blocked_count for f in failures}
        return [], _explain_blocked(turn, hop, blocked)
    return [], next(f.message for f in failures if not f.blocked_point)


def _replay(turn: _Turn, hops: tuple[Hop, ...]) -> tuple[list[_Board], str | None]:
    """Play the hops in every order; the final boards, or the deepest failure's reason."""
    finals: list[_Board] = []
    deepest: list[tuple[int, str]] = []

    def rec(board: _Board, rest: tuple[Hop, ...], depth: int) -> None:
        if not rest:
            finals.append(board)
            return
        for hop in dict.fromkeys(rest):
            boards, reason = _play_hop(turn, board, hop)
            if reason is not None and (not deepest or depth > deepest[0][0]):
                deepest[:] = [(depth, reason)]
            for after in dict.fromkeys(boards):
                rec(after, _remove_one(rest, hop), depth + 1)

    rec(turn.start(), hops, 0)
    return finals, (deepest[0][1] if deepest else None)


def _explain(turn: _Turn, typed: Sequence[TypedMove], hops: tuple[Hop, ...]) -> str:
    """Why the typed moves are not (part of) a legal play."""
    first = typed[0].hops()[0] if typed and typed[0].hops() else None
    if first is not None and first[0] > first[1] and not _splits(turn.start().dice, *first):
        # The first move typed fits no die of the roll: say so, not what another move
        # typed after it would leave ("only the 2 left" when nothing was played).
        return _explain_pips(turn, turn.start(), first)
    finals, reason = _replay(turn, hops)
    if not finals:
        return reason or f"{format_typed(typed)} can't be played with {turn.dice}."
    typed_text = format_typed(typed)
    for board in finals:
        message = _explain_high_die(turn, board) or _explain_rest_unplayable(
            turn, board, typed_text
        )
        if message:
            return message
    return (
        f"{typed_text} is not a legal play with {turn.dice}. "
        f"Legal plays: {_choices(_sorted(turn.plays))}."
    )


# --------------------------------------------------------------------------
# Public API
# --------------------------------------------------------------------------


def resolve_moves(position: Position, player: Player, dice: Dice, typed: Sequence[TypedMove],
                  plays: Sequence[Play] | None = None, *,
                  opposite: Sequence[int] = MIRROR) -> Play:
    """The legal play that the parsed moves ``typed`` name (see :func:`resolve_play`)."""
    turn = _make_turn(position, player, dice, plays, opposite)
    hops = _expand(typed)
    no_move = turn.required == 0
    if not hops:
        if no_move:
            return turn.plays[0]
        candidates = _sorted(turn.plays)
        raise IncompletePlayError(
            _explain_incomplete(turn, hops, candidates), [format_play(p) for p in candidates]
        )
    if no_move:
        raise IllegalPlayError(_explain_no_move(turn))
    for hop in hops:
        reason = _explain_direction(hop)
        if reason:
            raise IllegalPlayError(reason)
    reason = _explain_too_many(turn, hops) or _explain_false_hit(turn, typed)
    if reason:
        raise IllegalPlayError(reason)

    match = _match(turn, hops)
    if len(match.exact) == 1:
        return match.exact[0]
    if match.exact:
        raise AmbiguousPlayError(
            f"{format_typed(typed)} could mean {_choices(match.exact)}: "
            f"write the one you mean.",
            [format_play(p) for p in match.exact],
        )
    if match.partial:
        raise IncompletePlayError(
            _explain_incomplete(turn, hops, match.partial),
            [format_play(p) for p in match.partial],
        )
    raise IllegalPlayError(_explain(turn, typed, hops))


def resolve_play(position: Position, player: Player, dice: Dice, text: str,
                 plays: Sequence[Play] | None = None, *,
                 opposite: Sequence[int] = MIRROR) -> Play:
    """The legal play that ``text`` names, for ``player`` to move with ``dice``.

    ``plays`` are the legal plays of the roll (computed with
    :func:`engine.movegen.legal_plays` when not given); ``opposite`` maps the
    mover's points to the opponent's numbering (standard geometry by default).

    Raises :class:`~engine.errors.NotationError` for unreadable text,
    :class:`~engine.errors.AmbiguousPlayError` when the text fits several
    legal plays, :class:`~engine.errors.IncompletePlayError` when the moves are
    legal so far but more dice must be played (both list the candidates in
    canonical notation), and :class:`~engine.errors.IllegalPlayError` saying
    why the first offending move cannot be made.  The empty text (or "no
    move", "pass") is accepted only when the roll cannot be played.
    """
    return resolve_moves(position, player, dice, parse_moves(text), plays, opposite=opposite)


def plays_matching_prefix(position: Position, player: Player, dice: Dice, text: str,
                          plays: Sequence[Play] | None = None, *, limit: int = 25,
                          opposite: Sequence[int] = MIRROR) -> list[Play]:
    """Legal plays consistent with partly typed ``text`` (for autocomplete).

    The moves before the last word must be complete and are matched like
    :func:`resolve_play` does (any order, combined or split hops, plays that
    continue them included).  The last word, unless the text ends with a space
    or comma, may be unfinished: a play fits when one of its canonical moves
    starts with it (``24/1`` fits ``24/18*/13``) or when the word read as a
    whole move fits.  Unreadable text gives ``[]``.  Results are sorted by
    canonical text, at most ``limit`` of them.
    """
    turn = _make_turn(position, player, dice, plays, opposite)
    stripped = text.lstrip()
    words = stripped.replace(",", " ").split()
    partial = ""
    if words and not stripped[-1:].isspace() and not stripped.endswith(","):
        partial = words.pop()
    try:
        done = parse_moves(" ".join(words))
    except ValueError:
        return []
    pool = _consistent(turn, _expand(done))
    if partial:
        prefix = partial.lower().replace("-", "/").replace("*", "")
        fitting = {
            p for p in pool
            if any(m.replace("*", "").startswith(prefix) for m in format_play(p).split())
        }
        try:
            whole = parse_moves(" ".join([*words, partial]))
            fitting.update(_consistent(turn, _expand(whole)))
        except ValueError:
            pass
        pool = [p for p in pool if p in fitting]
    return sorted(pool, key=format_play)[:limit]


def _consistent(turn: _Turn, hops: tuple[Hop, ...]) -> list[Play]:
    if not hops:
        return list(turn.plays)
    if any(src <= dst for src, dst in hops):
        return []
    match = _match(turn, hops)
    return list(match.exact or match.partial)


def partial_board(position: Position, player: Player, dice: Dice, text: str,
                  plays: Sequence[Play] | None = None, *,
                  opposite: Sequence[int] = MIRROR) -> tuple[Position, tuple[int, ...]] | None:
    """The position after the moves ``text`` names so far, and the die values left.

    For a play entered in parts: the typed moves must be legal so far (some legal
    play continues them); when they can be realised in several ways, the one
    without a hidden hit comes first.  None when the text is unreadable or fits
    no legal play.
    """
    turn = _make_turn(position, player, dice, plays, opposite)
    try:
        hops = _expand(parse_moves(text))
    except ValueError:
        return None
    if not hops or any(src <= dst for src, dst in hops):
        return None
    finals = _realise(turn, hops)
    fitting = [(not literal, turn.to_position(board).sides, board)
               for board, literal in finals.items() if _completions(turn, [board])]
    if not fitting:
        return None
    board = min(fitting, key=lambda item: (item[0], item[1]))[2]
    return turn.to_position(board), board.dice

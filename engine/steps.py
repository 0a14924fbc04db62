"""Playing a roll one checker at a time: the steps a player may take next (issue 31).

A :class:`Step` moves one checker by one die (``13/7``, ``8/5*``, ``bar/22``, ``6/off``,
``in/19`` in the variants that enter checkers from off the board).  :class:`Steps` is the
tree of steps of one stage of a turn (the two dice of a throw, the four plays of a doublet
or of its reverse side, the 1 and 2 of acey-deucy, a named doublet): from a
:class:`Partial` play (the position after the steps taken so far and the dice left) it
lists the steps that may come next.

The legal plays of the stage -- each variant's own generator, given by the caller -- are
the authority: a step is offered only when a legal play can still be completed after it,
so the compulsory-play rules (as many dice as possible, the higher die, a variant's rules
of entering) hold by construction, and a partial play is finished exactly when it has
reached a legal play.  Each single step obeys the movement rules of the variant as
:func:`engine.variants.movement.refusal` states them (a checker on the bar enters first,
no man moves before all are entered where a variant says so, bearing off only with every
checker home, a larger die only from the highest point...), so the steps come in an order
the rules allow.

Two plays are the same play when they produce the same position (:class:`~engine.move.Play`).
A checker borne off from the highest point by a die larger than needed leaves the other
dice playing alike (each of them, being at least that point, only bears off from the
highest point), so such a step is offered once: with the exact die if it is left, else with
the largest die that may bear the checker off.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from engine.game import Game
from engine.move import Move, Play
from engine.player import Player
from engine.position import BAR, OFF, WAITING, Position
from engine.rules import RuleOptions
from engine.variant import Variant
from engine.variants.common import BookVariant
from engine.variants.movement import MovementRules, refusal
from engine.variants.notation import point_name

ARROW = "→"
_POINTS = {"in": WAITING, "bar": BAR, "off": OFF}
_WORD_RE = re.compile(r"(in|bar|\d{1,2})/(off|\d{1,2})\*?")


def movement_of(variant: Variant, rules: RuleOptions) -> MovementRules:
    """The movement rules of single steps in ``variant`` under ``rules``."""
    if isinstance(variant, BookVariant):
        return variant.movement_for(rules)
    return MovementRules(variant.title, opposite=tuple(variant.opposite), hit_to=BAR)


@dataclass(frozen=True, slots=True)
class Step:
    """One checker moved by one die, in the mover's own point numbers."""

    move: Move
    die: int

    @property
    def word(self) -> str:
        """The step in move notation: ``13/7``, ``8/5*``, ``bar/22``, ``6/off``, ``in/19``."""
        move = self.move
        return f"{point_name(move.src)}/{point_name(move.dst)}{'*' if move.hit else ''}"

    @property
    def label(self) -> str:
        """The step as a player reads it: ``13 → 7``, ``8 → 5*``, ``6 → off``."""
        move = self.move
        return (f"{point_name(move.src)} {ARROW} {point_name(move.dst)}"
                f"{'*' if move.hit else ''}")


@dataclass(frozen=True, slots=True)
class Partial:
    """A play in progress: the position after the steps taken and the dice left."""

    position: Position
    dice: tuple[int, ...]
    """The die values still to play, highest first."""
    moves: tuple[Move, ...] = ()
    """The steps taken (empty when resumed from a position, :meth:`Steps.resume`)."""


def play_label(text: str) -> str:
    """A whole play's notation as a player reads it: ``24/18*/13 8/5(2)`` becomes
    ``24 → 18* → 13, 8 → 5 ×2``."""
    parts = []
    for chunk in text.split():
        count = re.fullmatch(r"(.*)\((\d)\)", chunk)
        body, times = (count[1], f" ×{count[2]}") if count else (chunk, "")
        parts.append(body.replace("/", f" {ARROW} ") + times)
    return ", ".join(parts)


def notation_order(plays: Iterable[Play], text: Callable[[Play], str]) -> list[Play]:
    """Plays in notation order, as their canonical ``text`` reads (the checkers furthest
    back first, point by point), which says nothing of which play is better."""
    def key(play: Play) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(-_POINTS[p] if p in _POINTS else -int(p)
                           for p in re.sub(r"\(\d\)|\*", "", chunk).split("/"))
                     for chunk in text(play).split())

    return sorted(plays, key=key)


class Steps:
    """The steps of one stage: ``player`` plays ``dice`` from ``position``, whose legal
    plays are ``plays``, under the movement rules ``rules``."""

    def __init__(self, position: Position, player: Player, dice: Sequence[int],
                 plays: Sequence[Play], rules: MovementRules) -> None:
        self.position = position
        self.player = player
        self.dice = tuple(sorted(dice, reverse=True))
        self.rules = rules
        self.legal: dict[Position, Play] = {p.position: p for p in plays}
        self._reach: dict[tuple[Position, tuple[int, ...]], frozenset[Position]] = {}
        self._moves: dict[tuple[Position, tuple[int, ...]],
                          tuple[tuple[Step, Position], ...]] = {}

    @classmethod
    def of_game(cls, game: Game) -> Steps | None:
        """The steps of the stage ``game`` waits for (None: no play is awaited)."""
        stage = game.stage
        if stage is None or game.turn is None:
            return None
        return cls(game.position, game.turn, stage.dice, game.legal_plays(),
                   movement_of(game.variant, game.rules))

    # -- partial plays ----------------------------------------------------------------

    def start(self) -> Partial:
        """Nothing played yet."""
        return Partial(self.position, self.dice)

    def resume(self, position: Position, dice: Iterable[int]) -> Partial:
        """A play entered some other way (typed moves), now at ``position`` with ``dice`` left."""
        return Partial(position, tuple(sorted(dice, reverse=True)))

    def take(self, partial: Partial, step: Step) -> Partial:
        """``partial`` after ``step`` (one of :meth:`options`)."""
        for offered, after in self._children(partial.position, partial.dice):
            if offered == step:
                dice = list(partial.dice)
                dice.remove(step.die)
                return Partial(after, tuple(dice), (*partial.moves, step.move))
        raise ValueError(f"{step.word} is not a step of this play now")

    def replay(self, words: Iterable[str]) -> Partial | None:
        """The partial play that the step words (as :attr:`Step.word` writes them) give, or
        None when they are not steps of a play that can still be completed."""
        partial = self.start()
        for word in words:
            found = _WORD_RE.fullmatch(word.strip().lower())
            if found is None:
                return None
            src = {"in": WAITING, "bar": BAR}.get(found[1]) or int(found[1])
            dst = 0 if found[2] == "off" else int(found[2])
            step = next((s for s in self.options(partial)
                         if (s.move.src, s.move.dst) == (src, dst)), None)
            if step is None:
                return None
            partial = self.take(partial, step)
        return partial

    # -- what may come next -------------------------------------------------------------

    def finished(self, partial: Partial) -> Play | None:
        """The legal play ``partial`` has reached, or None while it is not one yet."""
        if self._complete(partial.position, partial.dice):
            return self.legal[partial.position]
        return None

    def options(self, partial: Partial) -> list[Step]:
        """The steps after which a legal play can still be completed: by die, highest first,
        then from the checker furthest back."""
        return [step for step, after in self._children(partial.position, partial.dice)
                if self._reachable(after, _less(partial.dice, step.die))]

    def completions(self, partial: Partial) -> list[Play]:
        """The legal plays ``partial`` can still become (in no particular order)."""
        return [self.legal[p] for p in self._reachable(partial.position, partial.dice)]

    def viable(self, partial: Partial) -> bool:
        """Whether a legal play can be completed from ``partial``."""
        return bool(self._reachable(partial.position, partial.dice))

    # -- the search ---------------------------------------------------------------------

    def _complete(self, position: Position, dice: tuple[int, ...]) -> bool:
        play = self.legal.get(position)
        if play is None:
            return False
        used = len(self.dice) - len(dice)
        # A play that bore a checker off with a larger die than its own may reach a legal
        # play's position with fewer steps: finished when no checker can move any more.
        return used >= len(play.dice) or not self._children(position, dice)

    def _reachable(self, position: Position, dice: tuple[int, ...]) -> frozenset[Position]:
        key = (position, dice)
        found = self._reach.get(key)
        if found is None:
            out: set[Position] = set()
            if self._complete(position, dice):
                out.add(position)
            for step, after in self._children(position, dice):
                out |= self._reachable(after, _less(dice, step.die))
            found = self._reach[key] = frozenset(out)
        return found

    def _children(self, position: Position, dice: tuple[int, ...]
                  ) -> tuple[tuple[Step, Position], ...]:
        """Every single step the movement rules allow now, one per checker and point."""
        key = (position, dice)
        found = self._moves.get(key)
        if found is not None:
            return found
        player, rules = self.player, self.rules
        mine = position.sides[player]
        out: dict[tuple[int, int], tuple[Step, Position]] = {}
        for die in sorted(set(dice), reverse=True):
            for src in (WAITING, BAR, *range(24, 0, -1)):
                if not mine[src]:
                    continue
                dst = 25 - die if src >= BAR else max(src - die, OFF)
                move = Move(src, dst)
                if refusal(position, player, move, die, rules) is not None:
                    continue
                if (src, dst) in out:  # a bear-off that a larger die may make too
                    if dst != OFF or out[(src, dst)][0].die == src:
                        continue
                    if die != src:  # the exact die first, else the largest
                        continue
                after, hit = self._apply(position, move)
                out[(src, dst)] = (Step(Move(src, dst, hit), die), after)
        ordered = sorted(out.values(), key=lambda item: (-item[0].die, -item[0].move.src))
        found = self._moves[key] = tuple(ordered)
        return found

    def _apply(self, position: Position, move: Move) -> tuple[Position, bool]:
        player, rules = self.player, self.rules
        mine = list(position.sides[player])
        theirs = list(position.sides[1 - player])
        mine[move.src] -= 1
        mine[move.dst] += 1
        hit = False
        if move.dst != OFF:
            spot = rules.opposite[move.dst]
            if theirs[spot] == 1:
                theirs[spot] = 0
                theirs[rules.hit_to] += 1
                hit = True
        if player is Player.WHITE:
            return Position.unchecked(tuple(mine), tuple(theirs)), hit
        return Position.unchecked(tuple(theirs), tuple(mine)), hit


def _less(dice: tuple[int, ...], die: int) -> tuple[int, ...]:
    """``dice`` without one ``die`` (order kept)."""
    i = dice.index(die)
    return dice[:i] + dice[i + 1:]

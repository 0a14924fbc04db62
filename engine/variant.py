"""The Variant interface: everything that differs between forms of backgammon.

Modelled on python-chess: one class per variant, the game code asks the
variant and never tests for a particular one.  A variant says

* how the board starts (:meth:`Variant.initial_position`; an empty board
  keeps all 15 checkers of each side at index 26, ``WAITING``);
* the geometry (:attr:`Variant.opposite`: ``opposite[i]`` is the opponent's
  index of my point ``i``, as :data:`engine.movegen.MIRROR` for standard);
* how one throw of the dice is played, as a sequence of *steps* decided one
  at a time by :meth:`Variant.next_step` from a :class:`TurnContext` that
  records what has happened in the turn so far.  A step is one of

  - :class:`Stage`: play these die values (``(3, 1)``, ``(5, 5, 5, 5)``,
    the reverse side ``(2, 2, 2, 2)``...).  The legal plays come from
    :meth:`Variant.legal_plays`.  The game records the play and asks for the
    next step;
  - :class:`Choice`: the player must pick one of ``options`` (for example the
    doublet named after acey-deucy) with the game's ``choose`` command;
  - :class:`ThrowAgain`: the same player throws again within the same turn
    (no cube action in between, unless the rule option
    ``double_before_any_throw`` allows a double before it);
  - :class:`EndTurn`: the turn passes to the opponent;

* how the first move is decided (:meth:`Variant.opening_method`);
* whether the doubling cube is used and whether gammons count
  (:attr:`Variant.cube_allowed`, :attr:`Variant.scores_gammons`);
* who has won and how (:meth:`Variant.winner`, :meth:`Variant.result_kind`,
  :meth:`Variant.zone`);
* what to tell a player whose play is refused (:attr:`Stage.rule`,
  :meth:`Variant.illegal_play_message`).

A stage whose only legal play is the empty play is applied by the game
automatically (the player cannot move); the variant then sees that empty play
in :attr:`TurnContext.plays` and decides what follows (a lost throw, no
reverse side, no extra throw...).

Variants register themselves in :data:`VARIANTS` with :func:`register`;
:func:`get_variant` looks a name up.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, TypeVar

from engine import interpret, notation
from engine.dice import Dice
from engine.errors import RuleOptionError
from engine.move import Play
from engine.movegen import MIRROR, legal_plays
from engine.player import Player
from engine.position import CHECKERS, OFF, WAITING, Position
from engine.rules import DEFAULT_RULES, HigherDie, OpeningMethod, RuleOptions
from engine.scoring import ResultKind, Zone

# -- steps of a turn -----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Stage:
    """Play these die values now (one :class:`~engine.move.Play`).

    ``label`` names the stage for the player ("the 1 and the 2", "the reverse
    side"); ``rule`` is the sentence shown when a play is refused in this
    stage (e.g. "After acey-deucy you must first play the 1 and the 2.").
    """

    dice: tuple[int, ...]
    label: str = ""
    rule: str = ""


@dataclass(frozen=True, slots=True)
class Choice:
    """The player must choose one of ``options`` (strings typed or clicked).

    ``kind`` is a short machine name (``"doublet"``); ``prompt`` the question.
    """

    kind: str
    prompt: str
    options: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ThrowAgain:
    """The same player throws again in the same turn (no cube action between)."""

    reason: str = ""


@dataclass(frozen=True, slots=True)
class EndTurn:
    """The turn is over; the opponent is on roll."""

    reason: str = ""


Step = Stage | Choice | ThrowAgain | EndTurn


@dataclass(frozen=True, slots=True)
class TurnContext:
    """What has happened so far in the current turn; the input of :meth:`Variant.next_step`.

    ``throws`` holds every throw of this turn, the current one last (an
    extra throw appends); ``plays`` the stages already played *for the
    current throw*, with the play made in each (possibly empty); ``choices``
    the choices made for the current throw; ``position`` the position now;
    ``turn_number`` how many turns this player had before this one in the
    game (0 for his first turn); ``opening`` is true for the game's first
    turn (the one the opening throw decided); ``rules`` the game's rule options.
    """

    player: Player
    throws: tuple[Dice, ...]
    plays: tuple[tuple[Stage, Play], ...]
    choices: tuple[str, ...]
    position: Position
    turn_number: int = 0
    opening: bool = False
    rules: RuleOptions = DEFAULT_RULES
    """The agreed rule options (the variants read the options that concern them)."""

    @property
    def dice(self) -> Dice:
        """The current throw."""
        return self.throws[-1]

    @property
    def previous_throws(self) -> tuple[Dice, ...]:
        return self.throws[:-1]


# -- the interface -------------------------------------------------------------


class Variant(ABC):
    """Base class of every variant; :class:`StandardBackgammon` is the reference.

    Subclasses override class attributes and methods; instances carry no state
    (the game state is in :class:`engine.game.Game`), so one instance can be
    shared.  Two instances of the same class compare equal.
    """

    name: ClassVar[str] = "variant"
    """Registry key, lower case (``"standard"``, ``"acey-deucey"``...)."""
    title: ClassVar[str] = "Variant"
    """Human name."""
    aliases: ClassVar[tuple[str, ...]] = ()
    opposite: ClassVar[Sequence[int]] = MIRROR
    """``opposite[i]`` (``i`` in 1..24) is the opponent's index of my point ``i``."""
    cube_allowed: ClassVar[bool] = True
    scores_gammons: ClassVar[bool] = True
    sources: ClassVar[tuple[str, ...]] = ()
    """The rule books, named as players know them ("Boyden 1930, ch.12"), for /rules."""

    # board -------------------------------------------------------------------

    @abstractmethod
    def initial_position(self) -> Position:
        """The position a game of this variant starts from."""

    # opening -----------------------------------------------------------------

    def opening_method(self, rules: RuleOptions) -> OpeningMethod:
        """How the first move is decided; by default the agreed rule option."""
        return rules.opening

    # the steps of a turn -----------------------------------------------------

    @abstractmethod
    def next_step(self, turn: TurnContext) -> Step:
        """What the player on roll must do next in this turn."""

    def legal_plays(self, position: Position, player: Player, stage: Stage,
                    turn: TurnContext) -> list[Play]:
        """Every distinct legal play of ``stage`` (at least one; the empty play if none).

        The default handles a stage of two dice or four equal dice with the
        standard movement rules and this variant's geometry.
        """
        dice = stage.dice
        if len(dice) == 2 or (len(dice) == 4 and len(set(dice)) == 1):
            return legal_plays(position, player, dice[0], dice[1], self.opposite,
                               higher_die=turn.rules.higher_die is HigherDie.REQUIRED)
        raise ValueError(f"{self.title}: a stage of {dice} needs the variant's own move "
                         "generator (override legal_plays)")

    def illegal_play_message(self, turn: TurnContext, stage: Stage, play: Play) -> str:
        """The sentence for a play that is not among the legal plays."""
        if stage.rule:
            return stage.rule
        what = stage.label or "-".join(str(d) for d in stage.dice[:2])
        return f"That play is not legal with {what}."

    # notation ------------------------------------------------------------------

    def format_play(self, play: Play) -> str:
        """Canonical text of ``play`` ("" for no move): GNU Backgammon's notation."""
        return notation.format_play(play)

    def resolve_play(self, text: str, position: Position, player: Player, stage: Stage,
                     plays: Sequence[Play]) -> Play:
        """The legal play of ``stage`` that ``text`` names (any order, lenient syntax).

        Raises :class:`~engine.errors.NotationError`,
        :class:`~engine.errors.AmbiguousPlayError`,
        :class:`~engine.errors.IncompletePlayError` or
        :class:`~engine.errors.IllegalPlayError` with a reason for the player.
        """
        dice = Dice(stage.dice[0], stage.dice[1])
        return interpret.resolve_play(position, player, dice, text, plays,
                                      opposite=self.opposite)

    def suggest_plays(self, text: str, position: Position, player: Player, stage: Stage,
                      plays: Sequence[Play], limit: int = 25) -> list[Play]:
        """Legal plays consistent with partly typed ``text`` (autocomplete)."""
        dice = Dice(stage.dice[0], stage.dice[1])
        return interpret.plays_matching_prefix(position, player, dice, text, plays,
                                               limit=limit, opposite=self.opposite)

    # the end -----------------------------------------------------------------

    def winner(self, position: Position) -> Player | None:
        """The player who has borne off all his checkers, if any."""
        for player in Player:
            if position.sides[player][OFF] == CHECKERS:
                return player
        return None

    def gammons_counted(self, rules: RuleOptions) -> bool:
        """Whether gammons and backgammons score under ``rules`` (default: the
        class's :attr:`scores_gammons`; a variant may read an option of its own)."""
        return self.scores_gammons

    def result_kind(self, position: Position, winner: Player) -> ResultKind:
        """Single, gammon or backgammon for a finished position (002, 003 ch.3 VII, 004).

        A loser who has borne off a checker loses a single (even if hit later:
        000 'SCORING', 003 ch.3 VII note).  Otherwise a gammon, or a
        backgammon if he still has a checker on the bar (or not yet entered)
        or in the winner's home board.  Variants whose gammons are not scored
        get a single.
        """
        loser = winner.other
        side = position.sides[loser]
        if side[OFF] or not self.scores_gammons:
            return ResultKind.SINGLE
        if any(side[i] for i in range(1, WAITING + 1) if self.zone(i) is Zone.WINNER_INNER):
            return ResultKind.BACKGAMMON
        return ResultKind.GAMMON

    def zone(self, index: int) -> Zone:
        """The zone of a loser's checker at his own ``index`` (checker scoring).

        Default: by the quarter of his route, which is right for every
        variant where the players move in opposite directions.
        """
        if index == OFF:
            return Zone.OFF
        if index <= 6:
            return Zone.LOSER_INNER
        if index <= 12:
            return Zone.LOSER_OUTER
        if index <= 18:
            return Zone.WINNER_OUTER
        return Zone.WINNER_INNER  # 19..24, the bar (25), not yet entered (26)

    # presentation ------------------------------------------------------------

    def describe(self, rules: RuleOptions | None = None) -> list[str]:
        """Lines for /rules: the title, then this variant's own rules as they play under
        ``rules`` (default: the default options).  The agreed options themselves are
        described by :meth:`rule_lines`, so these lines do not repeat them."""
        lines = [self.title]
        if not self.cube_allowed:
            lines.append("no doubling cube")
        if not self.scores_gammons:
            lines.append("gammons and backgammons are not scored")
        return lines

    def rule_lines(self, rules: RuleOptions, *, money: bool | None = None) -> list[str]:
        """The options ``rules`` as they apply in this variant (for /rules): its own
        opening, its scoring of gammons, its variant-only options, and only the
        options of money play (``money`` True) or of matches (False)."""
        return rules.describe(self.name, money=money, opening=self.opening_method(rules),
                              gammons=self.gammons_counted(rules))

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self)

    def __hash__(self) -> int:
        return hash(type(self))

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class StandardBackgammon(Variant):
    """Standard backgammon (001, 002; 000, 003 ch.3, 004)."""

    name = "standard"
    title = "Backgammon"
    aliases = ("backgammon", "bg")
    sources = ("the modern rules", "Boyden 1930, ch.3", "Milton Bradley 1973",
               "Parker Brothers")

    def initial_position(self) -> Position:
        return Position.standard()

    def next_step(self, turn: TurnContext) -> Step:
        if not turn.plays:
            return Stage(turn.dice.moves())
        return EndTurn()


# -- registry ------------------------------------------------------------------

VARIANTS: dict[str, type[Variant]] = {}
"""Every registered variant by name (aliases included)."""

VT = TypeVar("VT", bound=Variant)


def register(cls: type[VT]) -> type[VT]:
    """Class decorator: add a variant (and its aliases) to :data:`VARIANTS`."""
    for key in (cls.name, *cls.aliases):
        VARIANTS[key.lower()] = cls
    return cls


register(StandardBackgammon)


def get_variant(name: str) -> type[Variant]:
    """The variant class called ``name`` (case-insensitive; aliases accepted).

    Importing :mod:`engine.variants` registers the other variants; this
    function does so on first use.
    """
    _load_plugins()
    key = name.strip().lower().replace("_", "-").replace(" ", "-")
    try:
        return VARIANTS[key]
    except KeyError:
        names = ", ".join(sorted({cls.name for cls in VARIANTS.values()}))
        raise RuleOptionError(f"Unknown variant '{name}'. Variants: {names}.") from None


_loaded: list[bool] = []


def _load_plugins() -> None:
    """Import :mod:`engine.variants` once, so its variants register themselves."""
    if _loaded:
        return
    _loaded.append(True)
    import importlib

    try:
        importlib.import_module("engine.variants")
    except ModuleNotFoundError as exc:
        if exc.name != "engine.variants":
            raise

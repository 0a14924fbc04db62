"""Rule options: every point where the rule books disagree, as a named option.

The default of every option is the modern tournament rule (001, 002).  The
other values are the older usages, each cited to the book it comes from:

==========================  ===========  ==============================================
option (dict key)           default      values and sources
==========================  ===========  ==============================================
``cube``                    ``on``       optional doubling with a cube (001 'THE
                                         DOUBLING TRACK', 002 'DOUBLING', 004
                                         'OPTIONAL DOUBLING')
``beavers``                 ``off``      002 'OPTIONAL RULES' Beavers (money play only)
``jacoby``                  ``off``      002 'OPTIONAL RULES' The Jacoby Rule (money
                                         play only)
``automatic_doubles``       ``off``      ties on the opening throw double the stake
                                         (000 'DOUBLING' and 'ADDITIONAL RULES' 5, 002
                                         'OPTIONAL RULES', 003 ch.4 I)
``automatic_doubles_cap``   ``1``        at most this many automatic doubles a game
                                         ("usually one", 002); ``none`` = no limit
``max_cube``                ``none``     highest cube value (a power of two), or none
``crawford``                ``on``       cube dead in the Crawford game of a match
``scoring``                 ``games``    see :class:`ScoringMethod`
``backgammon_value``        ``3``        000 'SCORING': "a triple or quadruple game
                                         (according to agreement)"; 3 or 4
``opening``                 ``one-die``  see :class:`OpeningMethod`
``winner_throws_first``     ``off``      003 ch.3 VII (end): the winner of a single
                                         game throws first in the next game; after a
                                         gammon or backgammon both throw again
``higher_die``              ``required`` when only one die can be played, the higher
                                         (001, 002); ``free``: either (003 ch.3 V "Some
                                         players maintain ... he must play the higher")
``double_before_any_throw`` ``off``      002 'DOUBLING': a double only at the start of
                                         one's turn; ``on``: also before an extra throw
                                         in the turn and before the opening re-throw
                                         (003 ch.4 II "immediately before throwing his
                                         dice", 004 'OPTIONAL DOUBLING' "before he throws")
``drop_scoring``            ``single``   a refused double costs a single game at the
                                         cube value (001, 002); ``as-it-stands``: the
                                         position is scored as it stands, a gammon or
                                         backgammon if it is one (003 ch.4 II, 004
                                         'OPTIONAL DOUBLING').  Checker scoring always
                                         counts the men as they stand (003 ch.6 II)
``automatic_doubles_two_dice`` ``on``    with a two-dice opening every tie doubles
                                         (000 'ADDITIONAL RULES' 5 "Each tie");
                                         ``off``: only ties of a single die each
                                         (003 ch.4 I)
``kicked_off``              ``enter-first`` Acey-Deucey (1973) only: a kicked-off man
                                         re-enters before any other man moves (000
                                         'KICKING-OFF' "same as in starting the game" with
                                         'MOVES: Same as Backgammon' and 000 'HITTING
                                         BLOTS'; 003 ch.12); ``reserve``: he rejoins the
                                         men not yet entered, no duty to enter him first
``acey_deucey_gammons``     ``on``       Acey-Deucey (1973) only; the book is silent:
                                         ``on`` scores gammons and backgammons as in
                                         backgammon (000 'SCORING'; a man not yet entered
                                         counts as one on the bar), ``off`` single games
``russian_entering``        ``last-man`` Russian only: men still to enter at the start
                                         of a stage (two dice, or one side of a doublet)
                                         are entered and no man moves, unless only one
                                         is left (003 ch.10 IV, "This also applies to
                                         doublets"); ``enter-then-move``: once the last
                                         man is in, the rest of the stage moves men
                                         (as 003 ch.10 III 2 describes)
==========================  ===========  ==============================================

How ``backgammon_value`` combines with the scoring methods: it is the
multiplier of a backgammon in scoring by games (000 'SCORING': "a triple or
quadruple game (according to agreement)") and in combined System 1, which
makes up the score "according to games, gammons, and backgammons" (003 ch.6
III).  The checker-count combinations say "triple" in so many words (003 ch.6
III System 2, 004 'SCORING BY STRANDED MEN AND GAMES COMBINED' and its "Other
combinations"), so ``combined-2`` and ``combined-checkers-1/2`` always triple.

Option values typed by users are read with ASCII digits only; anything else is
refused with a :class:`~engine.errors.RuleOptionError` that names the option
and what is allowed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from enum import Enum
from typing import Any

from engine.errors import RuleOptionError


class ScoringMethod(Enum):
    """How a finished game is scored (before the cube and automatic doubles)."""

    GAMES = "games"
    """1 / 2 / 3 for single, gammon, backgammon (002, 003 ch.6 I, 004 'SCORING BY GAMES')."""
    CHECKERS_1 = "checkers-1"
    """1/2/3/4 per loser's checker by zone, bar 4 (000 'SCORING BY COUNTERS OR MEN',
    003 ch.6 II Method 1, 004 Option 2); no gammons."""
    CHECKERS_2 = "checkers-2"
    """1/2/4/8 per loser's checker by zone (003 ch.6 II Method 2, 004 Option 3); no gammons."""
    STRANDED = "stranded"
    """One point per loser's checker not borne off (004 Option 1); no gammons."""
    COMBINED_1 = "combined-1"
    """Games score times 2/3/4 for the loser's furthest-back checker in his outer
    table / the winner's outer table / the winner's inner table or bar
    (003 ch.6 III System 1)."""
    COMBINED_2 = "combined-2"
    """One point per checker not borne off, doubled for a gammon, tripled for a
    backgammon (003 ch.6 III System 2, 004 'SCORING BY STRANDED MEN AND GAMES COMBINED')."""
    COMBINED_CHECKERS_1 = "combined-checkers-1"
    """004 Option 2 with the gammon/backgammon multiplier ('Other combinations')."""
    COMBINED_CHECKERS_2 = "combined-checkers-2"
    """004 Option 3 with the gammon/backgammon multiplier ('Other combinations')."""

    @property
    def counts_checkers(self) -> bool:
        """True when the score depends on where the loser's checkers stand."""
        return self is not ScoringMethod.GAMES


class OpeningMethod(Enum):
    """How the first move of a game is decided."""

    ONE_DIE = "one-die"
    """One die each; the higher plays both dice as his first move (001, 002,
    000 'ADDITIONAL RULES' 4a, 003 ch.3 III 1)."""
    ONE_DIE_RETHROW = "one-die-rethrow"
    """One die each; the higher throws again and plays his own throw
    (003 ch.3 III 1, 'Exception')."""
    TWO_DICE_CHOICE = "two-dice-choice"
    """Two dice each; the higher total may play that throw or throw again
    (000 'ADDITIONAL RULES' 4b, 003 ch.3 III 2)."""
    TWO_DICE_RETHROW = "two-dice-rethrow"
    """Two dice each; the higher total throws again for his first move
    (004 'HOW TO MOVE' start of game; 003 ch.12)."""
    ONE_DIE_CHOICE = "one-die-choice"
    """One die each; the higher may play both dice or throw again (003 ch.10 I,
    Russian backgammon: "Either one or two dice may be used ... the winner either
    may throw again with his own dice or use the initial throw")."""

    @property
    def dice_each(self) -> int:
        return 1 if self in (OpeningMethod.ONE_DIE, OpeningMethod.ONE_DIE_RETHROW,
                             OpeningMethod.ONE_DIE_CHOICE) else 2


class HigherDie(Enum):
    """When only one of two different dice can be played."""

    REQUIRED = "required"
    """The higher must be played if it can be (001, 002 movement rule 4)."""
    FREE = "free"
    """Either may be played (003 ch.3 V: only "some players maintain" the higher)."""


class DropScoring(Enum):
    """What a refused double costs."""

    SINGLE = "single"
    """A single game at the value before the double (001, 002 "pays one point")."""
    AS_IT_STANDS = "as-it-stands"
    """The game "is scored as it stands" (003 ch.4 II, 004 'OPTIONAL DOUBLING'):
    a gammon or backgammon if the position is one."""


class KickedOff(Enum):
    """Acey-Deucey (1973): what happens to a man kicked off."""

    ENTER_FIRST = "enter-first"
    """He waits on the bar and re-enters before any other man moves (000
    'KICKING-OFF' with 'MOVES: Same as Backgammon' and 000 'HITTING BLOTS': "A
    player cannot move any other man while he has a blotted man off the board")."""
    RESERVE = "reserve"
    """He rejoins the men not yet entered; they enter when the player likes."""


class RussianEntering(Enum):
    """Russian backgammon: may men move in the stage that enters the last men?"""

    LAST_MAN = "last-man"
    """Only when one man is left to enter at the start of the stage (003 ch.10 IV)."""
    ENTER_THEN_MOVE = "enter-then-move"
    """Whenever the last man comes in, the rest of the stage moves men (003 ch.10
    III 2 "he enters these men and then is allowed to start moving his men")."""


_DESCRIPTIONS: dict[Enum, str] = {
    ScoringMethod.GAMES: "by games: single 1, gammon 2, backgammon {bg}",
    ScoringMethod.CHECKERS_1: "by checkers (1/2/3/4 points a checker by table, bar 4)",
    ScoringMethod.CHECKERS_2: "by checkers (1/2/4/8 points a checker by table, bar 8)",
    ScoringMethod.STRANDED: "one point for each checker the loser has not borne off",
    ScoringMethod.COMBINED_1: (
        "by games (backgammon {bg}), times 2/3/4 when the loser still has a checker in his "
        "outer table / "
        "the winner's outer table / the winner's home board or the bar"
    ),
    ScoringMethod.COMBINED_2: (
        "one point a checker not borne off, doubled for a gammon, tripled for a backgammon"
    ),
    ScoringMethod.COMBINED_CHECKERS_1: (
        "1/2/3/4 points a checker by table, doubled for a gammon, tripled for a backgammon"
    ),
    ScoringMethod.COMBINED_CHECKERS_2: (
        "1/2/4/8 points a checker by table, doubled for a gammon, tripled for a backgammon"
    ),
    OpeningMethod.ONE_DIE: "one die each; the higher die plays both dice",
    OpeningMethod.ONE_DIE_RETHROW: "one die each; the higher die throws again for the first move",
    OpeningMethod.TWO_DICE_CHOICE: (
        "two dice each; the higher total plays that throw or throws again"
    ),
    OpeningMethod.TWO_DICE_RETHROW: "two dice each; the higher total throws again",
    OpeningMethod.ONE_DIE_CHOICE: (
        "one die each; the higher plays both dice or throws again"
    ),
}

MILTON_BRADLEY = "Milton Bradley 1973"
"""000: Milton Bradley (E.S. Lowe), *Backgammon*, 1973."""
MODERN = "the modern rules"
"""001 and 002: the modern rules sheets."""
BOYDEN = "Boyden 1930"
"""003: Elizabeth Clark Boyden, *The New Backgammon*, 1930."""
PARKER = "Parker Brothers"
"""004: Parker Brothers, *Modern Backgammon*."""
BOOKS = {"000": MILTON_BRADLEY, "001": MODERN, "002": MODERN, "003": BOYDEN, "004": PARKER}
"""The rule books by file number, as players know them (for texts players read)."""

_NO_GAMMONS: dict[ScoringMethod, str] = {
    ScoringMethod.COMBINED_1: (
        "by games (single games only), times 2/3/4 when the loser still has a checker in "
        "his outer table / the winner's outer table / the winner's home board or the bar"
    ),
    ScoringMethod.COMBINED_2: "one point a checker not borne off (no gammons)",
    ScoringMethod.COMBINED_CHECKERS_1: "1/2/3/4 points a checker by table (no gammons)",
    ScoringMethod.COMBINED_CHECKERS_2: "1/2/4/8 points a checker by table (no gammons)",
}
"""The scoring methods that multiply for gammons, in a variant that scores none."""

_TRUE = {"on", "yes", "true", "1", "y"}
_FALSE = {"off", "no", "false", "0", "n"}
_NONE = {"none", "no limit", "unlimited", "off", "-"}


_BOOLEANS = ("cube", "beavers", "jacoby", "automatic_doubles", "crawford",
             "winner_throws_first", "double_before_any_throw", "automatic_doubles_two_dice",
             "acey_deucey_gammons")
_ENUMS: dict[str, type[Enum]] = {
    "scoring": ScoringMethod, "opening": OpeningMethod, "higher_die": HigherDie,
    "drop_scoring": DropScoring, "kicked_off": KickedOff, "russian_entering": RussianEntering,
}

@dataclass(frozen=True, slots=True)
class RuleOptions:
    """The agreed rules of a game, match or money session (immutable)."""

    cube: bool = True
    beavers: bool = False
    jacoby: bool = False
    automatic_doubles: bool = False
    automatic_doubles_cap: int | None = 1
    max_cube: int | None = None
    crawford: bool = True
    scoring: ScoringMethod = ScoringMethod.GAMES
    backgammon_value: int = 3
    opening: OpeningMethod = OpeningMethod.ONE_DIE
    winner_throws_first: bool = False
    higher_die: HigherDie = HigherDie.REQUIRED
    double_before_any_throw: bool = False
    drop_scoring: DropScoring = DropScoring.SINGLE
    automatic_doubles_two_dice: bool = True
    kicked_off: KickedOff = KickedOff.ENTER_FIRST
    acey_deucey_gammons: bool = True
    russian_entering: RussianEntering = RussianEntering.LAST_MAN

    def __post_init__(self) -> None:
        for name in _BOOLEANS:
            if not isinstance(getattr(self, name), bool):
                raise RuleOptionError(f"Rule option '{name}' must be on or off.")
        for name, enum in _ENUMS.items():
            if not isinstance(getattr(self, name), enum):
                raise RuleOptionError(_enum_message(name, enum))
        cap = self.automatic_doubles_cap
        if cap is not None and (not isinstance(cap, int) or isinstance(cap, bool) or cap < 1):
            raise RuleOptionError(
                "Rule option 'automatic_doubles_cap' must be a whole number from 1 up, or none;"
                f" not {_quote(cap)}."
            )
        top = self.max_cube
        if top is not None and (
            not isinstance(top, int) or isinstance(top, bool) or top < 2 or top & (top - 1)
        ):
            raise RuleOptionError(
                "Rule option 'max_cube' must be a power of two from 2 up (2, 4, 8, 16, 32, 64...),"
                f" or none; not {_quote(top)}."
            )
        if self.backgammon_value not in (3, 4):
            raise RuleOptionError("Rule option 'backgammon_value' must be 3 or 4, not "
                                  f"{_quote(self.backgammon_value)}.")
        if self.beavers and not self.cube:
            raise RuleOptionError("Rule option 'beavers' needs the cube: set cube to on.")
        if self.jacoby and not self.cube:
            raise RuleOptionError("Rule option 'jacoby' needs the cube: set cube to on.")

    # -- plain-dict form (bot configuration, /challenge options, storage) ----

    @classmethod
    def from_dict(cls, options: Mapping[str, Any]) -> RuleOptions:
        """Parse named options; unknown names or bad values raise :class:`RuleOptionError`.

        Keys are the field names (``-`` and spaces may stand for ``_``); values
        may be Python values or the strings a user types (``on``/``off``,
        ``none``, numbers, the enum values such as ``checkers-1``).
        """
        known = {f.name for f in fields(cls)}
        values: dict[str, Any] = {}
        for raw_key, raw in options.items():
            key = str(raw_key).strip().lower().replace("-", "_").replace(" ", "_")
            if key not in known:
                raise RuleOptionError(
                    f"Unknown rule option {_quote(raw_key)}. "
                    f"Known options: {', '.join(sorted(known))}."
                )
            values[key] = _parse_value(key, raw)
        return cls(**values)

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly form; ``RuleOptions.from_dict(r.to_dict()) == r``."""
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            out[f.name] = value.value if isinstance(value, Enum) else value
        return out

    def replace(self, **changes: Any) -> RuleOptions:
        """A copy with some options changed (values as in :meth:`from_dict`)."""
        parsed = RuleOptions.from_dict(changes)
        return replace(self, **{k: getattr(parsed, k) for k in _normalised_keys(changes)})

    # -- descriptions ---------------------------------------------------------

    def describe(self, variant: str | None = None, *, money: bool | None = None,
                 opening: OpeningMethod | None = None, gammons: bool = True) -> list[str]:
        """One line per option that applies, for the /rules command.

        ``variant`` (a registry name such as ``"acey-deucey"``) limits the
        variant-only options to that variant's; ``None`` lists them all, each
        naming its variant.  ``money`` True leaves out what applies to matches only
        (the Crawford rule), False what applies to money play only (beavers, the
        Jacoby rule); None lists both.  ``opening`` is the opening the variant
        really uses (:meth:`engine.variant.Variant.opening_method`; default this
        option's own) and ``gammons`` whether the variant scores gammons under these
        options (:meth:`engine.variant.Variant.gammons_counted`), so that the lines
        never contradict the variant's own rules.  Books are named as players know
        them (``Boyden 1930, ch.4``), never by file.
        """
        bg = str(self.backgammon_value)
        start = opening or self.opening
        lines = []
        if self.cube:
            cube = "doubling cube: on"
            if self.max_cube:
                cube += f" (up to {self.max_cube:,})"
            lines.append(cube)
            if money is not False:
                lines.append(f"beavers: {'on' if self.beavers else 'off'}")
                lines.append(
                    f"Jacoby rule (money play): {'on' if self.jacoby else 'off'}"
                )
            if money is not True:
                lines.append(f"Crawford rule (matches): {'on' if self.crawford else 'off'}")
        else:
            lines.append("doubling cube: off")
        if self.automatic_doubles:
            cap = self.automatic_doubles_cap
            limit = "no limit" if cap is None else f"at most {cap} a game"
            lines.append(f"automatic doubles on opening ties: on ({limit})")
        else:
            lines.append("automatic doubles on opening ties: off")
        if gammons:
            lines.append("scoring: " + _DESCRIPTIONS[self.scoring].format(bg=bg))
            if self.scoring is ScoringMethod.GAMES and self.backgammon_value != 3:
                lines.append(f"a backgammon counts {bg} times the stake")
            if self.scoring in (ScoringMethod.COMBINED_2, ScoringMethod.COMBINED_CHECKERS_1,
                                ScoringMethod.COMBINED_CHECKERS_2) \
                    and self.backgammon_value != 3:
                lines.append("backgammon_value applies to scoring by games and combined-1; "
                             "this scoring triples a backgammon, as its books say "
                             f"({BOYDEN} ch.6 III, {PARKER})")
        elif self.scoring is ScoringMethod.GAMES:
            lines.append("scoring: by games, every game a single game (no gammons or "
                         "backgammons)")
        else:
            lines.append("scoring: " + _NO_GAMMONS.get(self.scoring, _DESCRIPTIONS[
                self.scoring].format(bg=bg)))
        lines.append("opening throw: " + _DESCRIPTIONS[start])
        lines.append(
            "next game: "
            + ("the winner of a single game throws first; after a gammon both throw again"
               if self.winner_throws_first else "both throw for the first move")
        )
        lines.append(
            "only one die playable: "
            + (f"the higher must be played ({MODERN})" if self.higher_die is HigherDie.REQUIRED
               else f"play either ({BOYDEN}, ch.3 V)")
        )
        if self.cube:
            lines.append(
                "doubling: "
                + ("before any throw of your own, also an extra throw or the opening re-throw "
                   f"({BOYDEN}, ch.4 II; {PARKER})" if self.double_before_any_throw
                   else f"only at the start of your turn, before rolling ({MODERN})")
            )
            lines.append(
                "a refused double: "
                + ("the game is scored as it stands"
                   + (", a gammon or backgammon if it is one" if gammons else "")
                   + f" ({BOYDEN}, ch.4 II; {PARKER})"
                   if self.drop_scoring is DropScoring.AS_IT_STANDS
                   else f"a single game at the cube value ({MODERN})")
            )
        if self.automatic_doubles and (opening is None or start.dice_each == 2):
            lines.append(
                "automatic doubles with a two-dice opening: "
                + (f"every tie doubles ({MILTON_BRADLEY}, rule 5)"
                   if self.automatic_doubles_two_dice
                   else f"none; only ties of a single die each double ({BOYDEN}, ch.4 I)")
            )
        if variant in (None, "acey-deucey"):
            tag = " (Acey-Deucey)" if variant is None else ""
            lines.append(
                f"a kicked-off man{tag}: "
                + ("re-enters before any other man moves" if self.kicked_off
                   is KickedOff.ENTER_FIRST else "rejoins the men not yet entered")
            )
            lines.append(
                f"gammons{tag}: "
                + ("counted as in backgammon; a man not yet entered counts as one on the bar"
                   if self.acey_deucey_gammons else "not counted: every game is a single game")
            )
        if variant in (None, "russian", "russian-restriction-1"):
            tag = " (Russian)" if variant is None else ""
            lines.append(
                f"entering{tag}: "
                + ("no man moves in a throw (or side of a doublet) that starts with two or "
                   f"more men to enter ({BOYDEN}, ch.10 IV)"
                   if self.russian_entering is RussianEntering.LAST_MAN
                   else "once the last man is in, the rest of the throw moves men "
                        f"({BOYDEN}, ch.10 III 2)")
            )
        return lines


DEFAULT_RULES = RuleOptions()


_NUMBER = re.compile(r"[0-9]{1,18}")
_QUOTE_LIMIT = 40


def _quote(raw: Any) -> str:
    """``raw`` in quotes for a refusal, cut to a readable length."""
    text = str(raw)
    if len(text) > _QUOTE_LIMIT:
        text = text[:_QUOTE_LIMIT] + "..."
    return f"'{text}'"


def whole_number(text: str) -> int | None:
    """The value of ASCII digits (at most 18 of them), or None for anything else.

    ``str.isdigit`` accepts '²' and other Unicode digits that ``int`` refuses; every
    number a user types (rule options, match lengths, page and game numbers) is read
    with this.
    """
    return int(text) if _NUMBER.fullmatch(text) else None


def _normalised_keys(options: Mapping[str, Any]) -> list[str]:
    return [str(k).strip().lower().replace("-", "_").replace(" ", "_") for k in options]


def _enum_message(name: str, enum: type[Enum]) -> str:
    allowed = ", ".join(str(m.value) for m in enum)
    return f"Rule option '{name}' must be one of: {allowed}."


def _parse_value(key: str, raw: Any) -> Any:
    text = str(raw).strip().lower() if raw is not None else "none"
    if key in _BOOLEANS:
        if isinstance(raw, bool):
            return raw
        if text in _TRUE:
            return True
        if text in _FALSE:
            return False
        raise RuleOptionError(f"Rule option '{key}' must be on or off, not {_quote(raw)}.")
    if key in ("automatic_doubles_cap", "max_cube"):
        if raw is None or text in _NONE:
            return None
        if isinstance(raw, int) and not isinstance(raw, bool):
            return raw
        number = whole_number(text)
        if number is not None:
            return number
        what = ("a whole number from 1 up" if key == "automatic_doubles_cap"
                else "a power of two from 2 up")
        raise RuleOptionError(
            f"Rule option '{key}' must be {what} written in digits 0-9 (at most 18), or none; "
            f"not {_quote(raw)}.")
    if key == "backgammon_value":
        if isinstance(raw, int) and not isinstance(raw, bool):
            return raw
        number = whole_number(text)
        if number is not None:
            return number
        raise RuleOptionError(
            f"Rule option 'backgammon_value' must be 3 or 4, not {_quote(raw)}.")
    enum = _ENUMS[key]
    if isinstance(raw, enum):
        return raw
    for member in enum:
        if text in (str(member.value), member.name.lower()):
            return member
    raise RuleOptionError(_enum_message(key, enum) + f" Not {_quote(raw)}.")

"""The numbered choices of the move builder at one moment, and its menus.

The steps come first, die by die (highest first), then -- when the legal plays that can
still be made are few -- the whole plays, in notation order (which says nothing of which
is better).  ``/step N`` and a pick in a Discord menu name the same numbers, computed the
same way from the same state, so the console and Discord share one definition.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.names import printable
from bot.service.core.limits import echo
from bot.service.core.replies import Menu, MenuOption, Refusal
from engine.errors import NotationError
from engine.game import Game
from engine.move import Play
from engine.notation import TypedMove, parse_moves, unarrow
from engine.position import BAR, OFF, WAITING
from engine.rules import whole_number
from engine.steps import Partial, Step, Steps, notation_order, play_label

MAX_PLAYS = 25
"""At most this many whole plays are listed (one menu in Discord)."""
PER_MENU = 25
"""At most this many entries in one menu (Discord's limit on a select menu's options)."""
_COUNTS = {1: "one", 2: "two", 3: "three", 4: "four"}
_REGIONS = ((BAR, "from the bar or off the board"), (19, "from your points 19 to 24"),
            (13, "from your points 13 to 18"), (7, "from your points 7 to 12"),
            (1, "from your home board (1 to 6)"))


def region(step: Step) -> str:
    """Where a step starts, for splitting a long menu."""
    return next(name for low, name in _REGIONS if step.move.src >= low)


def describe(step: Step) -> str:
    """A few words on what a step does."""
    move = step.move
    parts = []
    if move.src == WAITING:
        parts.append("enters a new checker")
    elif move.src == BAR:
        parts.append("enters from the bar")
    if move.dst == OFF:
        parts.append("bears the checker off")
    if move.hit:
        parts.append("hits")
    return ", ".join(parts)


@dataclass(frozen=True, slots=True)
class Listing:
    """The steps that may come next and, when few, the whole plays still possible."""

    steps: tuple[Step, ...]
    plays: tuple[Play, ...]
    labels: tuple[str, ...]
    """The whole plays' canonical texts (the variant's notation)."""
    every: tuple[Play, ...]
    """Every legal play still possible (listed or not)."""

    @classmethod
    def of(cls, game: Game, tree: Steps, partial: Partial) -> Listing:
        every = tuple(notation_order(tree.completions(partial), game.variant.format_play))
        plays = every if len(every) <= MAX_PLAYS else ()
        return cls(tuple(tree.options(partial)), plays,
                   tuple(game.variant.format_play(p) for p in plays), every)

    def __len__(self) -> int:
        return len(self.steps) + len(self.plays)

    def pick(self, game: Game, option: str) -> Step | Play:
        """The step or whole play that ``option`` names: its number here, a step as
        written (``13/7``, ``bar/22``, ``6/off``) or a whole play in notation.  What the
        player typed is read as it is echoed: cleaned of control characters."""
        option = printable(option)
        text = " ".join(option.lower().split())
        if not text:
            raise Refusal("Say which step: /step 2 takes the second one /steps lists.")
        number = whole_number(text)
        if number is not None:
            if 1 <= number <= len(self.steps):
                return self.steps[number - 1]
            if len(self.steps) < number <= len(self):
                return self.plays[number - len(self.steps) - 1]
            raise Refusal(f"There is no step {number}: /steps lists 1 to {len(self)}.")
        text = " ".join(unarrow(text).replace(",", " ").split())
        bare = text.replace("*", "")
        for step in self.steps:
            if step.word.replace("*", "") == bare:
                return step
        for play in self.every:
            if game.variant.format_play(play).lower() == text:
                return play
        typed = readable(text)
        if typed is None:
            raise Refusal(f"{echo(option.strip(), 30)} is not understood: write a step as "
                          "/steps prints it (13 → 11, or 13->11 or 13/11), a whole play in "
                          "notation (13/11 6/5), or the step's number in /steps (/step 2).")
        if len(typed) == 1 and typed[0].count == 1 and len(typed[0].points) == 2:
            src, dst = typed[0].points
            for step in self.steps:
                if (step.move.src, step.move.dst) == (src, dst):
                    return step
        raise Refusal(f"{echo(option.strip(), 30)} is not a step you can take now: /steps "
                      "lists the steps that lead to a legal play.")


    def menus(self, dice_left: tuple[int, ...], per_menu: int = PER_MENU
              ) -> tuple[Menu, ...]:
        """A menu per die still to play (split by where the checkers start when one would
        hold more than ``per_menu``), then the whole plays."""
        out: list[Menu] = []
        number = 1
        doublet = len(dice_left) > 1 and len(set(dice_left)) == 1
        for die in sorted(set(dice_left), reverse=True):
            steps = [s for s in self.steps if s.die == die]
            if not steps:
                continue
            if doublet:
                left = len(dice_left)
                title = f"Play a {die} ({_COUNTS.get(left, str(left))} left)"
            else:
                title = f"Play the {die}"
            options = []
            for step in steps:
                options.append((region(step), MenuOption(number, step.label, describe(step))))
                number += 1
            if len(options) <= per_menu:
                out.append(Menu(title, tuple(o for _, o in options)))
                continue
            for _, name in _REGIONS:
                part = tuple(o for where, o in options if where == name)
                for start in range(0, len(part), per_menu):
                    out.append(Menu(f"{title}, {name}", part[start:start + per_menu]))
        if self.plays:
            whole = tuple(MenuOption(number + i, play_label(text))
                          for i, text in enumerate(self.labels))
            title = "Or the whole play" if len(whole) > 1 else "Or play it all at once"
            out.append(Menu(title, whole))
        return tuple(out)


_STEP_WORD_RE = re.compile(r"(in|bar|\d{1,2})\*?(/(off|\d{1,2})\*?)+(\(\d\))?")


def readable(text: str) -> tuple[TypedMove, ...] | None:
    """The moves ``text`` writes, when it is move notation at all (legal or not; ``()``
    for notation the generic reader does not know, as ``in/19``), else None."""
    try:
        return parse_moves(text)
    except NotationError:
        pass
    if text and all(_STEP_WORD_RE.fullmatch(word) for word in text.split()):
        return ()
    return None

"""Persistent puzzle answers (issue 33): a select menu of candidate plays, buttons for a
cube decision.

The custom id carries the puzzle and, for a button, the answer, so they keep working
after a restart (no view kept in memory)::

    bgpz:<puzzle id>:<answer>      a button: "double", "no double", "take", "pass"
    bgpzm:<puzzle id>              the menu of plays (the play is the option picked)

Anyone may answer (a puzzle is for everyone who sees it); the answer goes to the service
as ``/puzzle answer`` does, and its judgement comes back privately.
"""

from __future__ import annotations

import re
from typing import Any, cast

import discord

from bot.adapters.discord.buttons import Host
from bot.adapters.discord.convert import AnswerableOnly, actor_of, place_of
from bot.service.core.replies import PuzzleChoices, Reply

BUTTON_TEMPLATE = r"bgpz:(?P<puzzle>[0-9]+):(?P<answer>[a-z ]+)"
MENU_TEMPLATE = r"bgpzm:(?P<puzzle>[0-9]+)"
_STYLES = {"double": discord.ButtonStyle.primary, "take": discord.ButtonStyle.success,
           "pass": discord.ButtonStyle.danger}


async def _answer(interaction: discord.Interaction[Any], puzzle: int, answer: str) -> None:
    host = cast(Host, interaction.client)
    try:
        presenter = host.presenter
        reply = await presenter.call(interaction, host.service.puzzle_answer(
            place_of(interaction), actor_of(interaction.user), answer, puzzle))
        await presenter.private(interaction, reply.text)
    except Exception as error:  # one error handler for commands, buttons and menus
        await host.on_interaction_error(interaction, error)


class PuzzleButton(AnswerableOnly, discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
                   template=BUTTON_TEMPLATE):
    """One cube answer of one puzzle."""

    def __init__(self, puzzle: int, answer: str) -> None:
        self.puzzle = puzzle
        self.answer = answer
        super().__init__(discord.ui.Button(
            label=answer.capitalize(), custom_id=f"bgpz:{puzzle}:{answer}",
            style=_STYLES.get(answer, discord.ButtonStyle.secondary)))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> PuzzleButton:
        return cls(int(match["puzzle"]), match["answer"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _answer(interaction, self.puzzle, self.answer)


class PuzzleMenu(AnswerableOnly, discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
                 template=MENU_TEMPLATE):
    """The candidate plays of one puzzle (at most 25, in notation order)."""

    def __init__(self, puzzle: int, options: tuple[str, ...] = ()) -> None:
        self.puzzle = puzzle
        super().__init__(discord.ui.Select(
            custom_id=f"bgpzm:{puzzle}", placeholder="Your play",
            options=[discord.SelectOption(label=o[:100], value=o[:100])
                     for o in options[:25]] or [discord.SelectOption(label="-")]))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> PuzzleMenu:
        return cls(int(match["puzzle"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        values = self.item.values  # (refreshed from the interaction before the callback)
        if not values:  # pragma: no cover - Discord always sends the pick
            return
        await _answer(interaction, self.puzzle, values[0])


def puzzle_view(reply: Reply) -> discord.ui.View | None:
    """The answers a reply's puzzle offers, as a persistent view (None: no puzzle)."""
    choices: PuzzleChoices | None = reply.puzzle
    if choices is None or not choices.options:
        return None
    view = discord.ui.View(timeout=None)
    if choices.buttons:
        for option in choices.options[:5]:
            view.add_item(PuzzleButton(choices.puzzle_id, option))
    else:
        view.add_item(PuzzleMenu(choices.puzzle_id, choices.options))
    return view

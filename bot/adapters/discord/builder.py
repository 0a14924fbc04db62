"""The move builder in Discord (issue 31): a private message to the player to play, with a
select menu of the next steps per die (and of the whole plays when they are few), the play
entered so far drawn on the board, and the buttons Undo step, Start over, Confirm (or the
options of a variant's choice).

The Play button of the board (a :class:`~.buttons.GameButton` of ``Action.STEPS``) opens it;
each pick edits it in place (a deferred update, then the original response edited), and a
pick that makes the play also posts the new board for the table
(:meth:`~.presenter.Presenter.publish`).  Menus and buttons are persistent
:class:`discord.ui.DynamicItem`\\ s whose custom ids carry the match and the state version
they were made for, so a pick on an older builder (another step was taken, the turn is
over) is refused by the service ("this game has moved on") and the message shows where the
game stands now.  The numbers picked are the service's (``/step N`` in the console): every
rule stays in the service.

Discord's limits hold: at most 25 options a menu (the service splits a die's steps by where
they start when there would be more), labels, values and descriptions of at most 100
characters, placeholders of at most 150, custom ids of at most 100, at most five action
rows, a select menu alone in its row and at most five buttons in a row.
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from typing import Any, Protocol, cast

import discord

from bot.adapters.discord import places
from bot.adapters.discord.convert import AnswerableOnly, actor_of, mention, place_of
from bot.adapters.discord.deadlines import PRIVATE_DEFER
from bot.adapters.discord.renderer import Renderer
from bot.service.core.replies import Action, BuilderView, Button, Menu, Reply
from bot.service.core.values import Expect
from bot.service.game import GameService

MAX_ROWS = 5
MAX_BUTTONS = 5
"""Buttons in one action row."""
MAX_OPTIONS = 25
MAX_OPTION_TEXT = 100
MAX_PLACEHOLDER = 150
MAX_LABEL = 80
"""A button's label."""
MAX_DESCRIPTION = 4096
COLOUR = discord.Colour(0x2E7D32)
PICTURE = "draft.png"
MENU_TEMPLATE = r"bgs:(?P<match>[0-9]+):(?P<version>[0-9]+):(?P<user>[0-9]+):(?P<part>[0-9]+)"
BUTTON_TEMPLATE = (r"bgb:(?P<act>[a-z-]+):(?P<match>[0-9]+):(?P<version>[0-9]+)"
                   r":(?P<user>[0-9]+)(?::(?P<option>.*))?")
_STYLES = {Action.CONFIRM: discord.ButtonStyle.success,
           Action.START_OVER: discord.ButtonStyle.danger,
           Action.CHOOSE: discord.ButtonStyle.primary}


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


class Publishing(Protocol):
    """What the builder needs of the presenter (:class:`~.presenter.Presenter`)."""

    renderer: Renderer

    async def publish(self, interaction: discord.Interaction[Any],
                      reply: Reply) -> discord.Message | None: ...


class Host(Protocol):
    """What the builder needs of the bot."""

    @property
    def service(self) -> GameService: ...

    @property
    def presenter(self) -> Publishing: ...

    async def on_interaction_error(self, interaction: discord.Interaction[Any],
                                   error: Exception) -> None: ...


# -------------------------------------------------------------------- the components


class StepMenu(AnswerableOnly, discord.ui.DynamicItem[discord.ui.Select[discord.ui.View]],
               template=MENU_TEMPLATE):
    """One menu of the builder: its options' values are the service's step numbers."""

    def __init__(self, match_id: int, version: int, user: int, part: int,
                 menu: Menu | None = None) -> None:
        self.match_id, self.version, self.user, self.part = match_id, version, user, part
        options = [discord.SelectOption(label=clip(o.label, MAX_OPTION_TEXT),
                                        value=str(o.number),
                                        description=clip(o.description, MAX_OPTION_TEXT)
                                        or None)
                   for o in (menu.options[:MAX_OPTIONS] if menu is not None else ())]
        super().__init__(discord.ui.Select(
            custom_id=f"bgs:{match_id}:{version}:{user}:{part}",
            placeholder=clip(menu.title, MAX_PLACEHOLDER) if menu is not None else None,
            min_values=1, max_values=1,
            options=options or [discord.SelectOption(label="-", value="0")]))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> StepMenu:
        return cls(int(match["match"]), int(match["version"]), int(match["user"]),
                   int(match["part"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        values = self.item.values
        await pressed(interaction, Action.STEP, values[0] if values else "",
                      Expect(self.version, self.match_id), self.user)


class BuilderButton(AnswerableOnly, discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
                    template=BUTTON_TEMPLATE):
    """Undo step, Start over, Confirm, or an option of a choice."""

    def __init__(self, act: Action, match_id: int, version: int, user: int,
                 label: str = "", option: str = "") -> None:
        self.act, self.match_id, self.version, self.user = act, match_id, version, user
        self.option = option
        custom_id = f"bgb:{act.value}:{match_id}:{version}:{user}"
        if option:
            custom_id += f":{option}"
        super().__init__(discord.ui.Button(
            label=clip(label or act.value, MAX_LABEL), custom_id=custom_id[:100],
            style=_STYLES.get(act, discord.ButtonStyle.secondary)))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any],
                             match: re.Match[str]) -> BuilderButton:
        return cls(Action(match["act"]), int(match["match"]), int(match["version"]),
                   int(match["user"]), getattr(item, "label", None) or "",
                   match["option"] or "")

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await pressed(interaction, self.act, self.option or None,
                      Expect(self.version, self.match_id), self.user)


def build_view(view: BuilderView, match_id: int, version: int, user: int
               ) -> discord.ui.View | None:
    """The builder's menus (a row each) and its buttons (up to five a row), at most five
    rows: the buttons' rows first, so they always fit."""
    buttons: Sequence[Button] = view.buttons
    button_rows = -(-len(buttons) // MAX_BUTTONS)
    menus = view.menus[:MAX_ROWS - button_rows]
    if not menus and not buttons:
        return None
    out = discord.ui.View(timeout=None)
    for row, menu in enumerate(menus):
        item = StepMenu(match_id, version, user, row, menu)
        item.item.row = row
        out.add_item(item)
    for index, button in enumerate(buttons[:MAX_BUTTONS * (MAX_ROWS - len(menus))]):
        item2 = BuilderButton(button.action, match_id, version, user, button.label,
                              button.option)
        item2.item.row = len(menus) + index // MAX_BUTTONS
        out.add_item(item2)
    return out


# ---------------------------------------------------------------------- showing it


async def show(renderer: Renderer, interaction: discord.Interaction[Any], reply: Reply,
               note: str = "") -> None:
    """Show ``reply``'s builder as the interaction's private response (the Play button:
    deferred privately first, since the picture takes a moment), or as the edit of the
    builder message whose menu or button was used.

    The private "thinking..." is noted (:data:`~.deadlines.PRIVATE_DEFER`) until the
    builder replaces it: an error in between (the picture cannot be drawn) is answered by
    editing it (:meth:`~.presenter.Presenter.private`), not by a follow-up."""
    view = reply.builder
    assert view is not None and reply.match_id is not None and reply.version is not None
    if not interaction.response.is_done():
        await interaction.response.defer(ephemeral=True, thinking=True)
        interaction.extras[PRIVATE_DEFER] = True
    embed = discord.Embed(colour=COLOUR, description=clip(
        "\n\n".join(p for p in (note, view.text) if p), MAX_DESCRIPTION))
    files: list[discord.File] = []
    if view.board is not None:
        (png,) = await renderer.pngs([view.board.view])
        files.append(discord.File(io.BytesIO(png), filename=PICTURE))
        embed.set_image(url=f"attachment://{PICTURE}")
    components = build_view(view, reply.match_id, reply.version, interaction.user.id)
    await interaction.edit_original_response(content=None, embed=embed, attachments=files,
                                             view=components)
    interaction.extras.pop(PRIVATE_DEFER, None)  # (answered: what follows is a follow-up)


async def close(interaction: discord.Interaction[Any], text: str) -> None:
    """The builder is done (the play is made, or the turn is over): its text, no menus."""
    embed = discord.Embed(colour=COLOUR, description=clip(text or "Done.", MAX_DESCRIPTION))
    await interaction.edit_original_response(content=None, embed=embed, attachments=[],
                                             view=None)


async def pressed(interaction: discord.Interaction[Any], action: Action, option: str | None,
                  expect: Expect, user: int) -> None:
    """A pick in the builder: acknowledge at once (the message is edited below), act
    through the service's action table, post the new board if the play was made, then
    show the builder as it is now (or close it)."""
    host = cast(Host, interaction.client)
    try:
        if interaction.user.id != user:
            await interaction.response.send_message(
                f"This move builder is {mention(user)}'s: press Play on the board for "
                "your own when it is your turn.", ephemeral=True,
                allowed_mentions=discord.AllowedMentions.none())
            return
        await interaction.response.defer()
        place, actor = place_of(interaction), actor_of(interaction.user)
        service = host.service
        reply = await service.act(action, place, actor, option=option, expect=expect)
        note = ""
        made = reply.ok and not reply.ephemeral
        if made:  # the play (or the choice) is made: the table sees it
            await places.reopen(interaction.channel)  # (a thread archived meanwhile)
            await host.presenter.publish(interaction, reply)
        if not reply.ok or made or action is not Action.STEP:
            note = reply.text
        now = await service.act(Action.STEPS, place, actor)
        if now.ok and now.builder is not None:
            await show(host.presenter.renderer, interaction, now, note)
        else:  # the turn is over: what happened (and, after a refusal, why nothing more)
            await close(interaction, note if made else "\n".join(
                p for p in (note, now.text) if p))
    except Exception as error:  # one error handler for commands, buttons and menus
        await host.on_interaction_error(interaction, error)

"""Persistent game buttons: a :class:`discord.ui.DynamicItem` per action.

The custom id carries everything a press needs, so buttons keep working after
a restart (no view is kept in memory)::

    bg:<act>:<match id>:<state version>:<user ids joined by '.'>[:<option>]

e.g. ``bg:roll:12:7:1234.5678``.  A press by someone not listed gets a private
refusal naming who may press it; a press on an older board (another match,
or another version of this one) gets "this game has moved on" from the
service (:class:`~bot.service.core.values.Expect`).  The game rules stay in the service: the
buttons only name the action (the service's action table makes the call).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable
from typing import Any, Protocol, cast

import discord

from bot.adapters.discord import places
from bot.adapters.discord.activity import OpenBoard
from bot.adapters.discord.convert import AnswerableOnly, actor_of, mention, place_of
from bot.service.core.replies import Action, Button, Reply
from bot.service.core.values import Expect
from bot.service.game import GameService

CUSTOM_ID_MAX = 100
TEMPLATE = (r"bg:(?P<act>[a-z-]+):(?P<match>[0-9]+):(?P<version>[0-9]+):(?P<users>[0-9.]*)"
            r"(?::(?P<option>.*))?")

_STYLES = {
    Action.ACCEPT: discord.ButtonStyle.success,
    Action.ROLL: discord.ButtonStyle.primary,
    Action.TAKE: discord.ButtonStyle.success,
    Action.CONFIRM: discord.ButtonStyle.success,
    Action.ACCEPT_RESIGNATION: discord.ButtonStyle.success,
    Action.DECLINE: discord.ButtonStyle.danger,
    Action.DROP: discord.ButtonStyle.danger,
    Action.REJECT_RESIGNATION: discord.ButtonStyle.danger,
}


class Answering(Protocol):
    """What a button needs of the presenter (:class:`~.presenter.Presenter`)."""

    async def private(self, interaction: discord.Interaction[Any], text: str) -> None: ...

    async def call(self, interaction: discord.Interaction[Any],
                   work: Awaitable[Reply]) -> Reply: ...

    async def send(self, interaction: discord.Interaction[Any], reply: Reply, *,
                   from_button: bool = False,
                   code_block: bool = False) -> discord.Message | None: ...

    async def long_work(self, interaction: discord.Interaction[Any], work: Awaitable[Reply],
                        *, from_button: bool = False) -> None: ...


class Host(Protocol):
    """What a button needs from the bot (the :class:`~bot.adapters.discord.app.BackgammonBot`)."""

    @property
    def service(self) -> GameService: ...

    @property
    def presenter(self) -> Answering: ...

    async def on_interaction_error(self, interaction: discord.Interaction[Any],
                                   error: Exception) -> None: ...


def custom_id(act: Action, match_id: int, version: int, users: tuple[int, ...],
              option: str = "") -> str:
    """The button's custom id; the user list is left out if it would not fit."""
    cid = f"bg:{act.value}:{match_id}:{version}:{'.'.join(map(str, users))}"
    if option:
        cid += f":{option}"
    if len(cid) > CUSTOM_ID_MAX and users:
        return custom_id(act, match_id, version, (), option)
    return cid


class GameButton(AnswerableOnly, discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
                 template=TEMPLATE):
    """One action button of one state of one match."""

    def __init__(self, act: Action, match_id: int, version: int, users: tuple[int, ...],
                 label: str, option: str = "") -> None:
        self.act = act
        self.match_id = match_id
        self.version = version
        self.users = users
        self.option = option
        super().__init__(discord.ui.Button(
            label=label[:80] or act.value, style=_STYLES.get(act, discord.ButtonStyle.secondary),
            custom_id=custom_id(act, match_id, version, users, option)))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any],
                             match: re.Match[str]) -> GameButton:
        users = tuple(int(u) for u in match["users"].split(".") if u)
        label = getattr(item, "label", None) or match["act"]
        return cls(Action(match["act"]), int(match["match"]), int(match["version"]), users,
                   label, match["option"] or "")

    @property
    def label(self) -> str:
        return self.item.label or self.act.value

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        host = cast(Host, interaction.client)
        try:
            await self.press(host, interaction)
        except Exception as error:  # one error handler for commands and buttons
            await host.on_interaction_error(interaction, error)

    async def press(self, host: Host, interaction: discord.Interaction[Any]) -> None:
        presenter = host.presenter
        if self.users and interaction.user.id not in self.users:
            who = " or ".join(mention(u) for u in self.users)
            await presenter.private(interaction, f"Only {who} can press {self.label} here.")
            return
        place = place_of(interaction)
        actor = actor_of(interaction.user)
        service = host.service

        # The match id tells an old match's button in this channel from the current one's.
        work = service.act(self.act, place, actor, option=self.option or None,
                           expect=Expect(self.version, self.match_id))
        if self.act is Action.ANALYZE:  # may take many minutes: the result in the channel
            await presenter.long_work(interaction, work, from_button=True)
            return
        reply = await presenter.call(interaction, work)
        if reply.ok:  # in a thread archived meanwhile: open it again first
            await places.reopen(interaction.channel)
        await presenter.send(interaction, reply, from_button=True)


REFRESH = Button(Action.BOARD, "Refresh", ())
"""Where the bot is not a member (a DM, a group DM: issue 32) it never posts on its own, so
each board offers anyone a Refresh: the game's board now, with its buttons, as the answer."""


def build_view(reply: Reply, *, refresh: bool = False,
               activity: bool = False) -> discord.ui.View | None:
    """The buttons of a reply as a persistent view (``None`` when there are none);
    ``refresh``: a game's board gets a Refresh button too (:data:`REFRESH`); ``activity``:
    and an Open board button that launches the live board (issue 45)."""
    if reply.match_id is None or reply.version is None:
        return None
    buttons = list(reply.buttons[:25])
    over = any(b.action is Action.REMATCH for b in buttons)  # (nothing left to refresh)
    if refresh and reply.boards and not over and len(buttons) < 25:
        buttons.append(REFRESH)
    live = activity and bool(reply.boards) and not over and len(buttons) < 25
    if not buttons and not live:
        return None
    view = discord.ui.View(timeout=None)
    for button in buttons:
        view.add_item(make_button(button, reply.match_id, reply.version))
    if live:
        view.add_item(OpenBoard())
    return view


def make_button(button: Button, match_id: int, version: int) -> GameButton:
    return GameButton(button.action, match_id, version, button.users, button.label, button.option)

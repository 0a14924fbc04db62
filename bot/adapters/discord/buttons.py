"""Persistent game buttons: a :class:`discord.ui.DynamicItem` per action.

The custom id carries everything a press needs, so buttons keep working after
a restart (no view is kept in memory)::

    bg:<act>:<match id>:<state version>:<user ids joined by '.'>[:<option>]

e.g. ``bg:roll:12:7:1234.5678``.  A press by someone not listed gets a private
refusal naming who may press it; a press on an older board (another match,
or another version of this one) gets "this game has moved on" from the
service (``expected_version``).  The game rules stay in the service: the
buttons only say which service call to make.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Protocol, cast

import discord

from bot.service.game import Actor, GameService, Place
from bot.service.replies import Act, Button, Reply

if TYPE_CHECKING:
    from bot.adapters.discord.presenter import Presenter

CUSTOM_ID_MAX = 100
TEMPLATE = (r"bg:(?P<act>[a-z-]+):(?P<match>[0-9]+):(?P<version>[0-9]+):(?P<users>[0-9.]*)"
            r"(?::(?P<option>.*))?")

_STYLES = {
    Act.ACCEPT: discord.ButtonStyle.success,
    Act.ROLL: discord.ButtonStyle.primary,
    Act.TAKE: discord.ButtonStyle.success,
    Act.CONFIRM: discord.ButtonStyle.success,
    Act.ACCEPT_RESIGNATION: discord.ButtonStyle.success,
    Act.DECLINE: discord.ButtonStyle.danger,
    Act.DROP: discord.ButtonStyle.danger,
    Act.REJECT_RESIGNATION: discord.ButtonStyle.danger,
}


class Host(Protocol):
    """What a button needs from the bot (the :class:`~bot.adapters.discord.app.BackgammonBot`)."""

    @property
    def service(self) -> GameService: ...

    @property
    def presenter(self) -> Presenter: ...

    async def on_interaction_error(self, interaction: discord.Interaction[Any],
                                   error: Exception) -> None: ...


def custom_id(act: Act, match_id: int, version: int, users: tuple[int, ...],
              option: str = "") -> str:
    """The button's custom id; the user list is left out if it would not fit."""
    cid = f"bg:{act.value}:{match_id}:{version}:{'.'.join(map(str, users))}"
    if option:
        cid += f":{option}"
    if len(cid) > CUSTOM_ID_MAX and users:
        return custom_id(act, match_id, version, (), option)
    return cid


def _call(service: GameService, act: Act, place: Place, actor: Actor, match_id: int,
          version: int, option: str) -> Awaitable[Reply]:
    """The service call a button makes."""
    simple: dict[Act, Callable[..., Awaitable[Reply]]] = {
        Act.ACCEPT: service.accept, Act.DECLINE: service.decline, Act.ROLL: service.roll,
        Act.DOUBLE: service.double, Act.TAKE: service.take, Act.DROP: service.drop,
        Act.BEAVER: service.beaver, Act.UNDO: service.undo, Act.CONFIRM: service.confirm,
    }
    if act in simple:
        return simple[act](place, actor, expected_version=version, match_id=match_id)
    if act is Act.ACCEPT_RESIGNATION or act is Act.REJECT_RESIGNATION:
        return service.answer_resignation(place, actor, act is Act.ACCEPT_RESIGNATION,
                                          expected_version=version, match_id=match_id)
    return service.choose(place, actor, option, expected_version=version, match_id=match_id)


class GameButton(discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
                 template=TEMPLATE):
    """One action button of one state of one match."""

    def __init__(self, act: Act, match_id: int, version: int, users: tuple[int, ...],
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
        return cls(Act(match["act"]), int(match["match"]), int(match["version"]), users,
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
        from bot.adapters.discord.presenter import actor_of, place_of

        presenter = host.presenter
        if self.users and interaction.user.id not in self.users:
            who = " or ".join(f"<@{u}>" for u in self.users)
            await presenter.private(interaction, f"Only {who} can press {self.label} here.")
            return
        place = place_of(interaction)
        actor = actor_of(interaction.user)
        service = host.service

        # The match id tells an old match's button in this channel from the current one's.
        reply = await presenter.call(interaction, _call(
            service, self.act, place, actor, self.match_id, self.version, self.option))
        await presenter.send(interaction, reply, from_button=True)


def build_view(reply: Reply) -> discord.ui.View | None:
    """The buttons of a reply as a persistent view (``None`` when there are none)."""
    if not reply.buttons or reply.match_id is None or reply.version is None:
        return None
    view = discord.ui.View(timeout=None)
    for button in reply.buttons[:25]:
        view.add_item(make_button(button, reply.match_id, reply.version))
    return view


def make_button(button: Button, match_id: int, version: int) -> GameButton:
    return GameButton(button.act, match_id, version, button.users, button.label, button.option)

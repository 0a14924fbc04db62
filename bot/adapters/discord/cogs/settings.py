"""/settings show, set and reset: the server's own defaults (issue 29 item 11).

The group is for members with Manage Server (``default_member_permissions``: Discord shows
it to them only); the service checks it again with the permission the interaction itself
carries.  Channels and roles are typed as Discord writes them in a text option (``<#id>``,
``#name``, ``<@&id>``, ``@name``): :class:`GuildNames` turns them into ids for the service.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.adapters.discord.cogs._base import Interaction, ServiceCog
from bot.adapters.discord.convert import GUILD_CONTEXT, GUILD_INSTALL
from bot.service.settings.service import SettingsService

if TYPE_CHECKING:
    from bot.adapters.discord.host import ServiceBot

CHOICE_NAME = 100
"""Discord's limit on the name of a choice (characters)."""
_CHANNEL = re.compile(r"<#([0-9]{1,20})>|#?([0-9]{1,20})")
_ROLE = re.compile(r"<@&([0-9]{1,20})>|@?([0-9]{1,20})")


class GuildNames:
    """Channels and roles of the interaction's server, as a member types them."""

    def __init__(self, guild: discord.Guild | None, here: int | None) -> None:
        self.guild = guild
        self.here = here

    @classmethod
    def of(cls, interaction: Interaction) -> GuildNames:
        channel = interaction.channel
        parent = getattr(channel, "parent_id", None)  # in a thread: its channel
        here = parent if isinstance(parent, int) else interaction.channel_id
        return cls(interaction.guild, here)

    def channel(self, word: str) -> int | None:
        word = word.strip()
        if word.lower() == "here":
            return self.here
        if self.guild is None:
            return None
        found = _CHANNEL.fullmatch(word)
        if found:
            known = self.guild.get_channel(int(found.group(1) or found.group(2)))
            return known.id if known is not None else None
        name = word.removeprefix("#").lower()
        return next((c.id for c in self.guild.channels if c.name.lower() == name), None)

    def takes_messages(self, channel_id: int) -> bool:
        """Not a forum (its posts are threads), a category or a media channel."""
        if self.guild is None:
            return True
        found = self.guild.get_channel_or_thread(channel_id)
        return found is None or isinstance(found, discord.abc.Messageable)

    def role(self, word: str) -> int | None:
        word = word.strip()
        if self.guild is None:
            return None
        found = _ROLE.fullmatch(word)
        if found:
            known = self.guild.get_role(int(found.group(1) or found.group(2)))
            return known.id if known is not None else None
        name = word.removeprefix("@").lower()
        return next((r.id for r in self.guild.roles if r.name.lower() == name), None)


def manages_server(interaction: Interaction) -> bool:
    """What the interaction itself says of the member's permissions (never a cached role)."""
    return interaction.permissions.manage_guild


async def key_autocomplete(interaction: Interaction, current: str
                           ) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=f"{key} — {about}"[:CHOICE_NAME], value=key)
            for key, about in SettingsService.keys(current)]


async def value_autocomplete(interaction: Interaction, current: str
                             ) -> list[app_commands.Choice[str]]:
    key = str(getattr(interaction.namespace, "key", "") or "")
    return [app_commands.Choice(name=v, value=v) for v in SettingsService.values(key, current)]


class SettingsCog(ServiceCog):
    """The server's own defaults."""

    settings = app_commands.Group(
        name="settings", description="This server's own defaults for games and tournaments",
        # Only in servers that installed the app: the settings are a server's own.
        guild_only=True, allowed_contexts=GUILD_CONTEXT, allowed_installs=GUILD_INSTALL,
        default_permissions=discord.Permissions(manage_guild=True))

    @settings.command(description="The server's settings, or what one setting takes")
    @app_commands.describe(key="One setting (autocompletes)")
    @app_commands.autocomplete(key=key_autocomplete)
    async def show(self, interaction: Interaction,
                   key: app_commands.Range[str, 1, 60] | None = None) -> None:
        await self.answer(interaction, self.service.settings_show(*self.where(interaction), key))

    @settings.command(name="set", description="Change one of the server's settings")
    @app_commands.describe(key="The setting (autocompletes)",
                           value="Its new value (autocompletes; channels as #channel)")
    @app_commands.autocomplete(key=key_autocomplete, value=value_autocomplete)
    async def set_(self, interaction: Interaction, key: app_commands.Range[str, 1, 60],
                   value: app_commands.Range[str, 1, 1000]) -> None:
        await self.answer(interaction, self.service.settings_set(
            *self.where(interaction), key, value, manage_server=manages_server(interaction),
            names=GuildNames.of(interaction)))

    @settings.command(description="Put one setting back to the bot operator's default")
    @app_commands.describe(key="The setting (autocompletes)")
    @app_commands.autocomplete(key=key_autocomplete)
    async def reset(self, interaction: Interaction,
                    key: app_commands.Range[str, 1, 60]) -> None:
        await self.answer(interaction, self.service.settings_reset(
            *self.where(interaction), key, manage_server=manages_server(interaction)))


async def setup(bot: ServiceBot) -> None:
    await bot.add_cog(SettingsCog(bot))

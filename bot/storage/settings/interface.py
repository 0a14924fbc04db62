"""Server settings: the row and the calls on it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol


@dataclass(frozen=True, slots=True)
class GuildSettingsRow:
    """The settings one server chose: ``values`` maps a setting's key to its JSON value
    (only the keys the server set; the others are the operator's defaults)."""

    guild_id: int
    values: dict[str, Any]
    version: int
    """0 for a server that never set anything (no row is stored); +1 per change."""
    updated_at: str = ""
    updated_by: int | None = None


class SettingsTransaction(Protocol):
    """Server settings inside one transaction."""

    async def guild_settings(self, guild_id: int) -> GuildSettingsRow:
        """The server's row (``version`` 0 and no values when it never set anything)."""
        ...

    async def write_guild_settings(self, row: GuildSettingsRow, values: dict[str, Any], *,
                                   updated_by: int | None) -> GuildSettingsRow:
        """Replace the server's values by ``values`` if the stored row is still at
        ``row.version`` (strings cleaned of what the databases cannot hold); the new row.
        :class:`~bot.storage.core.errors.RetryableConflict` when another transaction wrote
        first: nothing is applied, and running the whole action again reads its change."""
        ...

    async def guilds_with_setting(self, key: str) -> list[tuple[int, Any]]:
        """(guild id, value) of every server that set ``key``."""
        ...

"""The SQL of server settings, written once for both backends."""

from __future__ import annotations

import json
from typing import Any

from bot.storage.core.sql import SqlPrimitives, dumps, now
from bot.storage.settings.interface import GuildSettingsRow

TEXT_LIMIT = 200
"""Characters of a text value kept (every value a setting takes is far shorter)."""


def clean_text(text: str) -> str:
    """A text value as both backends store it: NULs removed, lone surrogates as U+FFFD,
    other control characters as spaces, cut to :data:`TEXT_LIMIT` characters (as
    :func:`~bot.storage.core.errors.clean_name` does for names)."""
    out = []
    for ch in text:
        code = ord(ch)
        if code == 0:
            continue
        if 0xD800 <= code <= 0xDFFF:
            out.append("\ufffd")
        elif code < 0x20 or code == 0x7F:
            out.append(" ")
        else:
            out.append(ch)
    return "".join(out)[:TEXT_LIMIT]


def cleaned(value: Any) -> Any:
    """``value`` (JSON: text, numbers, booleans, null, lists, objects) with every text
    cleaned (:func:`clean_text`), keys included."""
    if isinstance(value, str):
        return clean_text(value)
    if isinstance(value, list | tuple):
        return [cleaned(v) for v in value]
    if isinstance(value, dict):
        return {clean_text(str(k)): cleaned(v) for k, v in value.items()}
    return value


def _row(row: Any) -> GuildSettingsRow:
    values = json.loads(row[1])
    return GuildSettingsRow(int(row[0]), values if isinstance(values, dict) else {},
                            int(row[2]), str(row[3]), None if row[4] is None else int(row[4]))


class SettingsQueries(SqlPrimitives):
    """Each server's settings."""

    async def guild_settings(self, guild_id: int) -> GuildSettingsRow:
        row = await self._one(
            "SELECT guild_id, settings, version, updated_at, updated_by FROM guild_settings "
            "WHERE guild_id = ?", (guild_id,))
        return _row(row) if row else GuildSettingsRow(guild_id, {}, 0)

    async def write_guild_settings(self, row: GuildSettingsRow, values: dict[str, Any], *,
                                   updated_by: int | None) -> GuildSettingsRow:
        text = dumps(cleaned(values))
        stamp = now()
        conflict = (f"the settings of server {row.guild_id} changed since they were read "
                    f"(version {row.version})")
        if row.version == 0:  # the first change: a row nobody else may insert first
            await self._write_checked(
                "INSERT INTO guild_settings (guild_id, settings, version, updated_at, "
                "updated_by) VALUES (?, ?, 1, ?, ?) ON CONFLICT (guild_id) DO NOTHING",
                (row.guild_id, text, stamp, updated_by), conflict, retry=True)
        else:
            await self._write_checked(
                "UPDATE guild_settings SET settings = ?, version = version + 1, "
                "updated_at = ?, updated_by = ? WHERE guild_id = ? AND version = ?",
                (text, stamp, updated_by, row.guild_id, row.version), conflict, retry=True)
        return GuildSettingsRow(row.guild_id, json.loads(text), row.version + 1, stamp,
                                updated_by)

    async def guilds_with_setting(self, key: str) -> list[tuple[int, Any]]:
        # The JSON is stored with its keys quoted: the LIKE keeps the scan to the servers
        # that mention the key (``_`` matches itself too), the JSON decides.
        rows = await self._all(
            "SELECT guild_id, settings FROM guild_settings WHERE settings LIKE ? "
            "ORDER BY guild_id", (f'%"{key}"%',))
        out: list[tuple[int, Any]] = []
        for guild_id, text in rows:
            values = json.loads(text)
            if isinstance(values, dict) and key in values:
                out.append((int(guild_id), values[key]))
        return out

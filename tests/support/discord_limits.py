"""Discord's limits on what a message may hold, checked on every payload the bot sends to
the fake Discord (tests/support/fake_discord.py), as Discord's API would refuse them
(error 50035, "Invalid Form Body").

From discord-api-docs (docs/components/reference.md, docs/resources/message.md): at most
5 action rows; a select menu alone in its row, 1 to 25 options, option label, value and
description at most 100 characters, placeholder at most 150, values unique; at most 5
buttons in a row, a button label at most 80; every custom_id at most 100 characters and
unique in the message; content at most 2000 characters; at most 10 embeds, an embed's
description at most 4096.

Also (issue 29): embed titles, fields, footers and the 6000 characters of all a message's
embeds; an empty new message (50006); at most 10 files of at most 10 MiB each (40005,
"Request entity too large": docs/reference.md#uploading-files); autocomplete choices (at
most 25, name and value 1 to 100 characters); modals (title and text input labels at most
45 characters, 1 to 5 rows); and the application commands' schema at sync
(docs/interactions/application-commands.md: :func:`command_problems`).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from typing import Any

import pytest

MAX_ROWS = 5
MAX_BUTTONS = 5
MAX_OPTIONS = 25
MAX_OPTION_TEXT = 100
MAX_PLACEHOLDER = 150
MAX_LABEL = 80
MAX_CUSTOM_ID = 100
MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_DESCRIPTION = 4096
MAX_EMBED_TITLE = 256
MAX_EMBED_FIELDS = 25
MAX_FIELD_NAME = 256
MAX_FIELD_VALUE = 1024
MAX_FOOTER = 2048
MAX_EMBED_TOTAL = 6000
MAX_FILES = 10
MAX_FILE_SIZE = 10 * 1024 * 1024
"""Uploads: 10 MiB per file (Discord lowered it from 25 MiB in 2024)."""
MAX_CHOICES = 25
MAX_CHOICE_TEXT = 100
MAX_MODAL_TITLE = 45
MAX_INPUT_LABEL = 45

MAX_COMMAND_NAME = 32
MAX_COMMAND_DESCRIPTION = 100
MAX_COMMAND_OPTIONS = 25
MAX_COMMAND_CHARACTERS = 4000
MAX_GLOBAL_COMMANDS = 100
INTEGER_LIMIT = 2**53 - 1
"""INTEGER options: "Any integer between -2^53+1 and 2^53-1" (bounds included)."""
SUB_COMMAND, SUB_COMMAND_GROUP, INTEGER, NUMBER = 1, 2, 4, 10


def problems(payload: dict[str, Any]) -> list[str]:
    """What in ``payload`` Discord would refuse."""
    found: list[str] = []
    content = payload.get("content") or ""
    if len(content) > MAX_CONTENT:
        found.append(f"content of {len(content)} characters")
    embeds = payload.get("embeds") or []
    if len(embeds) > MAX_EMBEDS:
        found.append(f"{len(embeds)} embeds")
    total = 0
    for embed in embeds:
        if len(embed.get("description") or "") > MAX_DESCRIPTION:
            found.append("an embed description too long")
        if len(embed.get("title") or "") > MAX_EMBED_TITLE:
            found.append("an embed title too long")
        footer = (embed.get("footer") or {}).get("text") or ""
        if len(footer) > MAX_FOOTER:
            found.append("an embed footer too long")
        fields = embed.get("fields") or []
        if len(fields) > MAX_EMBED_FIELDS:
            found.append(f"{len(fields)} embed fields")
        for item in fields:
            if not 1 <= len(item.get("name") or "") <= MAX_FIELD_NAME:
                found.append(f"an embed field name of {len(item.get('name') or '')}")
            if not 1 <= len(item.get("value") or "") <= MAX_FIELD_VALUE:
                found.append(f"an embed field value of {len(item.get('value') or '')}")
        author = (embed.get("author") or {}).get("name") or ""
        total += (len(embed.get("title") or "") + len(embed.get("description") or "")
                  + len(footer) + len(author)
                  + sum(len(f.get("name") or "") + len(f.get("value") or "") for f in fields))
    if total > MAX_EMBED_TOTAL:
        found.append(f"embeds of {total} characters in all")
    rows = payload.get("components") or []
    if len(rows) > MAX_ROWS:
        found.append(f"{len(rows)} action rows")
    ids: list[str] = []
    for row in rows:
        items = row.get("components", [])
        if row.get("type") != 1:
            found.append(f"a top-level component of type {row.get('type')}")
        selects = [c for c in items if c.get("type") == 3]
        if selects and len(items) != 1:
            found.append("a select menu shares its row")
        if len(items) > MAX_BUTTONS:
            found.append(f"{len(items)} components in a row")
        for item in items:
            custom_id = str(item.get("custom_id", ""))
            if item.get("type") == 2 and item.get("style") == 5:
                if "url" not in item or "custom_id" in item:
                    found.append("a link button needs a url and no custom_id")
            else:
                ids.append(custom_id)
                if not 1 <= len(custom_id) <= MAX_CUSTOM_ID:
                    found.append(f"custom_id of {len(custom_id)} characters")
            if item.get("type") == 2 and len(item.get("label") or "") > MAX_LABEL:
                found.append(f"button label {item.get('label')!r}")
            if item.get("type") == 3:
                options = item.get("options") or []
                if not 1 <= len(options) <= MAX_OPTIONS:
                    found.append(f"a select menu with {len(options)} options")
                if len(item.get("placeholder") or "") > MAX_PLACEHOLDER:
                    found.append("a placeholder too long")
                values = [o.get("value") for o in options]
                if len(set(values)) != len(values):
                    found.append("option values repeated")
                for option in options:
                    for key in ("label", "value", "description"):
                        if len(option.get(key) or "") > MAX_OPTION_TEXT:
                            found.append(f"option {key} {option.get(key)!r}")
    if len(set(ids)) != len(ids):
        found.append("custom_ids repeated in one message")
    return found


def empty(payload: dict[str, Any], files: dict[str, bytes]) -> bool:
    """Whether a new message would be empty (Discord: 50006, "Cannot send an empty
    message")."""
    return not (payload.get("content") or payload.get("embeds") or files
                or payload.get("components") or payload.get("sticker_ids")
                or payload.get("poll"))


def file_problems(files: dict[str, bytes]) -> list[str]:
    """What in the uploads Discord would refuse (40005 for the size)."""
    found = [f"{name} is {len(data)} bytes (at most {MAX_FILE_SIZE})"
             for name, data in files.items() if len(data) > MAX_FILE_SIZE]
    if len(files) > MAX_FILES:
        found.append(f"{len(files)} files")
    return found


def choice_problems(choices: list[dict[str, Any]]) -> list[str]:
    """What in autocomplete choices Discord would refuse."""
    found = [f"{len(choices)} choices"] if len(choices) > MAX_CHOICES else []
    for choice in choices:
        name = str(choice.get("name") or "")
        value = choice.get("value")
        if not 1 <= len(name) <= MAX_CHOICE_TEXT:
            found.append(f"a choice name of {len(name)} characters")
        if isinstance(value, str) and not 1 <= len(value) <= MAX_CHOICE_TEXT:
            found.append(f"a choice value of {len(value)} characters")
    return found


def modal_problems(data: dict[str, Any]) -> list[str]:
    """What in a modal Discord would refuse."""
    found: list[str] = []
    if not 1 <= len(str(data.get("title") or "")) <= MAX_MODAL_TITLE:
        found.append("a modal title of the wrong length")
    if not 1 <= len(str(data.get("custom_id") or "")) <= MAX_CUSTOM_ID:
        found.append("a modal custom_id of the wrong length")
    rows = data.get("components") or []
    if not 1 <= len(rows) <= MAX_ROWS:
        found.append(f"a modal of {len(rows)} rows")
    for row in rows:
        for item in row.get("components", []):
            if len(str(item.get("label") or "")) > MAX_INPUT_LABEL:
                found.append(f"a text input label {item.get('label')!r}")
            if not 1 <= len(str(item.get("custom_id") or "")) <= MAX_CUSTOM_ID:
                found.append("a text input custom_id of the wrong length")
    return found


# ------------------------------------------------------- the command schema (at sync)


def _name_ok(name: str) -> bool:
    """``^[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$``, in lowercase where a
    letter has a lowercase form (CHAT_INPUT commands and options)."""
    if not 1 <= len(name) <= MAX_COMMAND_NAME:
        return False
    for char in name:
        deva_or_thai = "\u0900" <= char <= "\u097f" or "\u0e00" <= char <= "\u0e7f"
        if not (char in "-_'" or unicodedata.category(char)[0] in "LN" or deva_or_thai):
            return False
        if char.lower() != char:
            return False
    return True


def _characters(item: dict[str, Any]) -> int:
    """The characters of names, descriptions and choice values in ``item`` (and below)."""
    count = len(str(item.get("name") or "")) + len(str(item.get("description") or ""))
    for choice in item.get("choices") or []:
        count += len(str(choice.get("name") or "")) + len(str(choice.get("value") or ""))
    return count + sum(_characters(o) for o in item.get("options") or [])


def _option_problems(where: str, options: list[dict[str, Any]], depth: int) -> list[str]:
    found: list[str] = []
    if len(options) > MAX_COMMAND_OPTIONS:
        found.append(f"{where}: {len(options)} options")
    kinds = [int(o.get("type", 0)) for o in options]
    subs = [k in (SUB_COMMAND, SUB_COMMAND_GROUP) for k in kinds]
    if any(subs) and not all(subs):
        found.append(f"{where}: subcommands mixed with other options")
    seen_optional = False
    for option in options:
        name = str(option.get("name") or "")
        here = f"{where} {name}"
        kind = int(option.get("type", 0))
        if not _name_ok(name):
            found.append(f"{here}: the name {name!r}")
        if not 1 <= len(str(option.get("description") or "")) <= MAX_COMMAND_DESCRIPTION:
            found.append(f"{here}: a description of the wrong length")
        if kind == SUB_COMMAND_GROUP:
            if depth > 0:
                found.append(f"{here}: a group nested below the top level")
            inner = option.get("options") or []
            if any(int(o.get("type", 0)) != SUB_COMMAND for o in inner):
                found.append(f"{here}: a group may hold only subcommands")
            found += _option_problems(here, inner, depth + 1)
            continue
        if kind == SUB_COMMAND:
            inner = option.get("options") or []
            if any(int(o.get("type", 0)) in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in inner):
                found.append(f"{here}: a subcommand may not hold subcommands")
            found += _option_problems(here, inner, depth + 1)
            continue
        if option.get("required"):
            if seen_optional:
                found.append(f"{here}: a required option after an optional one")
        else:
            seen_optional = True
        choices = option.get("choices") or []
        if len(choices) > MAX_CHOICES:
            found.append(f"{here}: {len(choices)} choices")
        if choices and option.get("autocomplete"):
            found.append(f"{here}: choices and autocomplete together")
        found += [f"{here}: {p}" for p in choice_problems(choices) if choices]
        for bound in ("min_value", "max_value"):
            value = option.get(bound)
            if value is None:
                continue
            if kind == INTEGER and (not isinstance(value, int)
                                    or not -INTEGER_LIMIT <= value <= INTEGER_LIMIT):
                found.append(f"{here}: {bound} {value} outside ±(2**53-1)")
            if kind not in (INTEGER, NUMBER):
                found.append(f"{here}: {bound} on an option of type {kind}")
    return found


PRIMARY_ENTRY_POINT = 4
ENTRY_POINT_HANDLERS = (1, 2)  # APP_HANDLER, DISCORD_LAUNCH_ACTIVITY


def entry_point_problems(commands: list[dict[str, Any]], *, global_: bool) -> list[str]:
    """What Discord refuses of Entry Point commands (interactions/application-commands.md,
    "Entry Point Commands" and "Application Command Object"): an app has at most one, a
    global command only; ``handler`` (APP_HANDLER 1 or DISCORD_LAUNCH_ACTIVITY 2) is an
    Entry Point command's field and no other's; it has a name and a description as a
    command has, and no options."""
    found: list[str] = []
    entry = [c for c in commands if int(c.get("type", 1)) == PRIMARY_ENTRY_POINT]
    if len(entry) > 1:
        found.append(f"{len(entry)} PRIMARY_ENTRY_POINT commands (an app has one)")
    if entry and not global_:
        found.append("a PRIMARY_ENTRY_POINT command in a server's commands (global only)")
    for command in commands:
        where = f"/{command.get('name')}"
        kind = int(command.get("type", 1))
        if kind not in (1, 2, 3, PRIMARY_ENTRY_POINT):
            found.append(f"{where}: the command type {kind}")
        if kind != PRIMARY_ENTRY_POINT:
            if "handler" in command:
                found.append(f"{where}: a handler on a command of type {kind}")
            continue
        if command.get("handler") not in ENTRY_POINT_HANDLERS:
            found.append(f"{where}: the entry point handler {command.get('handler')!r}")
        if command.get("options"):
            found.append(f"{where}: options on an Entry Point command")
        if not _name_ok(str(command.get("name") or "")):
            found.append(f"{where}: the name {command.get('name')!r}")
        if not 1 <= len(str(command.get("description") or "")) <= MAX_COMMAND_DESCRIPTION:
            found.append(f"{where}: a description of the wrong length")
    return found


def command_problems(commands: list[dict[str, Any]], *, global_: bool = True) -> list[str]:
    """What in a bulk overwrite of application commands Discord would refuse (50035)."""
    found: list[str] = []
    chat = [c for c in commands if int(c.get("type", 1)) == 1]
    if global_ and len(chat) > MAX_GLOBAL_COMMANDS:
        found.append(f"{len(chat)} CHAT_INPUT commands")
    names = [str(c.get("name")) for c in chat]
    if len(set(names)) != len(names):
        found.append("command names repeated")
    found += entry_point_problems(commands, global_=global_)
    for command in chat:
        name = str(command.get("name") or "")
        where = f"/{name}"
        if not _name_ok(name):
            found.append(f"{where}: the name {name!r}")
        if not 1 <= len(str(command.get("description") or "")) <= MAX_COMMAND_DESCRIPTION:
            found.append(f"{where}: a description of the wrong length")
        if _characters(command) > MAX_COMMAND_CHARACTERS:
            found.append(f"{where}: {_characters(command)} characters in all")
        permissions = command.get("default_member_permissions")
        if permissions is not None and not str(permissions).isdigit():
            found.append(f"{where}: default_member_permissions {permissions!r}")
        found += _option_problems(where, command.get("options") or [], 0)
    return found


def command_hygiene(commands: list[dict[str, Any]], *, global_: bool) -> list[str]:
    """What a command sync Discord accepts sends beyond its docs
    (interactions/application-commands.md, "Application Command Object"):
    ``dm_permission`` is deprecated, ``contexts`` says the same; ``contexts`` and
    ``integration_types`` are for global commands only (and so is ``dm_permission``)."""
    found: list[str] = []
    for command in commands:
        where = f"/{command.get('name')}"
        if "dm_permission" in command and "contexts" in command:
            found.append(f"{where}: the deprecated dm_permission beside contexts")
        if not global_:
            found += [f"{where}: {key} in a server's command (global commands only)"
                      for key in ("contexts", "integration_types", "dm_permission")
                      if key in command]
    return found


@pytest.fixture
def discord_limits(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Check every message the bot sends or edits against Discord's limits; the test
    fails if any was broken (the list of what was)."""
    from fake_discord import FakeDiscord, Message

    seen: list[str] = []
    original = FakeDiscord._apply

    def checking(message: Message, payload: dict[str, Any], files: dict[str, bytes]) -> None:
        seen.extend(f"message {message.id}: {p}" for p in problems(payload))
        original(message, payload, files)

    monkeypatch.setattr(FakeDiscord, "_apply", staticmethod(checking))
    yield seen
    assert not seen, seen

"""Discord's limits on what a message may hold, checked on every payload the bot sends to
the fake Discord (tests/support/fake_discord.py), as Discord's API would refuse them
(error 50035, "Invalid Form Body").

From discord-api-docs (docs/components/reference.md, docs/resources/message.md): at most
5 action rows; a select menu alone in its row, 1 to 25 options, option label, value and
description at most 100 characters, placeholder at most 150, values unique; at most 5
buttons in a row, a button label at most 80; every custom_id at most 100 characters and
unique in the message; content at most 2000 characters; at most 10 embeds, an embed's
description at most 4096.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fake_discord import FakeDiscord, Message

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


def problems(payload: dict[str, Any]) -> list[str]:
    """What in ``payload`` Discord would refuse."""
    found: list[str] = []
    content = payload.get("content") or ""
    if len(content) > MAX_CONTENT:
        found.append(f"content of {len(content)} characters")
    embeds = payload.get("embeds") or []
    if len(embeds) > MAX_EMBEDS:
        found.append(f"{len(embeds)} embeds")
    for embed in embeds:
        if len(embed.get("description") or "") > MAX_DESCRIPTION:
            found.append("an embed description too long")
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
            ids.append(custom_id)
            if len(custom_id) > MAX_CUSTOM_ID:
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


@pytest.fixture
def discord_limits(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Check every message the bot sends or edits against Discord's limits; the test
    fails if any was broken (the list of what was)."""
    seen: list[str] = []
    original = FakeDiscord._apply

    def checking(message: Message, payload: dict[str, Any], files: dict[str, bytes]) -> None:
        seen.extend(f"message {message.id}: {p}" for p in problems(payload))
        original(message, payload, files)

    monkeypatch.setattr(FakeDiscord, "_apply", staticmethod(checking))
    yield seen
    assert not seen, seen

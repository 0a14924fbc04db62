"""Issue 42 item 3: a refused rule option's value is echoed (cleaned), as every other
refusal of ``/settings set`` does (``rules.max_cube 3`` said only what is allowed)."""

from __future__ import annotations

from pathlib import Path

import pytest
from scripted import opened

from bot.config import Config
from bot.service.core.values import Actor, Place
from bot.service.game import GameService

ADMIN = Actor(1, "admin")
HERE = Place(guild_id=7, channel_id=70)


@pytest.mark.parametrize(("key", "value", "said"), [
    ("rules.max_cube", "3", "rules.max_cube must be a power of two from 2 up (2, 4, 8, 16, 32, "
                            "64...), or none; not '3'."),
    ("rules.max_cube", "0003", "or none; not '3'."),
    ("rules.max_cube", "1", "or none; not '1'."),
    ("rules.automatic_doubles_cap", "0", "rules.automatic_doubles_cap must be a whole number "
                                         "from 1 up, or none; not '0'."),
    ("rules.backgammon_value", "5", "rules.backgammon_value must be 3 or 4, not '5'."),
])
async def test_a_refused_rule_value_is_echoed(tmp_path: Path, key: str, value: str,
                                              said: str) -> None:
    storage = await opened(tmp_path / "bg.sqlite3")
    service = GameService(storage, Config())  # type: ignore[arg-type]
    reply = await service.settings_set(HERE, ADMIN, key, value, manage_server=True)
    assert not reply.ok and reply.ephemeral
    assert said in reply.text, reply.text

"""The fake Discord checks Entry Point commands as Discord documents them (issue 45;
interactions/application-commands.md, "Entry Point Commands", "Application Command Types"
and "Entry Point Command Handler Types"), so the bot's sync is tested against those rules."""

from __future__ import annotations

from typing import Any

import aiohttp
import pytest
from discord_e2e import Host
from discord_limits import command_problems
from fake_discord import FakeDiscord

from bot.adapters.discord.activity import entry_point_command

pytestmark = pytest.mark.e2e

CHAT = {"name": "board", "description": "The board", "type": 1}


def test_the_bots_entry_point_command_is_as_documented() -> None:
    entry = entry_point_command({"contexts": [0, 1, 2], "integration_types": [0]})
    assert command_problems([CHAT, entry]) == []
    assert entry["type"] == 4 and entry["handler"] == 2


@pytest.mark.parametrize(("commands", "global_", "said"), [
    ([CHAT, entry_point_command(), dict(entry_point_command(), name="open")], True,
     "2 PRIMARY_ENTRY_POINT commands"),
    ([entry_point_command()], False, "in a server's commands (global only)"),
    ([dict(entry_point_command(), handler=3)], True, "the entry point handler 3"),
    ([{k: v for k, v in entry_point_command().items() if k != "handler"}], True,
     "the entry point handler None"),
    ([dict(entry_point_command(), options=[{"type": 3, "name": "x", "description": "x"}])],
     True, "options on an Entry Point command"),
    ([dict(CHAT, handler=2)], True, "a handler on a command of type 1"),
    ([dict(entry_point_command(), description="")], True, "a description of the wrong"),
    ([dict(CHAT, type=5)], True, "the command type 5"),
])
def test_what_discord_refuses_of_entry_points_is_refused(
        commands: list[dict[str, Any]], global_: bool, said: str) -> None:
    problems = command_problems(commands, global_=global_)
    assert any(said in p for p in problems), problems


async def test_a_global_overwrite_without_the_entry_point_is_refused_50240(
        host: Host, fake: FakeDiscord) -> None:
    """Discord's 50240: with Activities enabled, a bulk overwrite of the global commands
    must include the Entry Point command (or delete it separately)."""
    fake.enable_activities()
    url = f"{fake.api}/applications/{fake.app_id}/commands"
    async with aiohttp.ClientSession() as http:
        async with http.put(url, json=[CHAT]) as answer:
            assert answer.status == 400 and (await answer.json())["code"] == 50240
        async with http.put(url, json=[CHAT, entry_point_command()]) as answer:
            assert answer.status == 200, await answer.text()
    assert set(fake.commands) == {"board", "launch"}

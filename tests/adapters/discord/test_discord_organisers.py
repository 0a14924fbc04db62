"""Organiser commands (issue 29, item 9): a top-level /tournament-admin that Discord shows
by default only to members with Manage Server, and the check on the interaction's own
permissions, not the bot's cache of the server's roles."""

from __future__ import annotations

import discord
import discord_limits as limits
import pytest
from discord_e2e import Host, private, users
from fake_discord import FakeDiscord

pytestmark = pytest.mark.e2e

MANAGE_GUILD = discord.Permissions(manage_guild=True).value


def integer_bounds(item: dict[str, object]) -> list[int]:
    found: list[int] = []
    for option in item.get("options") or []:  # type: ignore[attr-defined]
        if option["type"] == limits.INTEGER:
            found += [option[k] for k in ("min_value", "max_value") if k in option]
        found += integer_bounds(option)
    return found


async def test_organiser_commands_are_hidden_by_default_and_checked_by_the_interaction(
        fake: FakeDiscord, host: Host) -> None:
    alice, bob, carol = users(fake)
    await host.start()
    synced = {c["name"]: c for c in fake.syncs[0][1]}
    assert str(synced["tournament-admin"]["default_member_permissions"]) == str(MANAGE_GUILD)
    assert synced["tournament"]["default_member_permissions"] is None
    bounds = [b for c in synced.values() for b in integer_bounds(c)]
    assert len(bounds) > 14 and all(abs(b) <= limits.INTEGER_LIMIT for b in bounds)

    # carol's roles (the cache: @everyone has every permission in the fake's server) would
    # make her an organiser; the interaction says she has no Manage Server: refused.
    carol.permissions = discord.Permissions(send_messages=True).value
    record = await fake.slash(carol, "tournament-admin create", name="Cup",
                              format="single-elimination")
    assert "organiser" in await private(record)
    record = await fake.slash(alice, "tournament-admin create", name="Cup",
                              format="single-elimination")
    signup = await record.public()
    assert "Tournament #1 Cup" in signup.content
    record = await fake.slash(carol, "tournament-admin cancel")
    assert "Only the organiser" in await private(record)
    record = await fake.slash(bob, "tournament join")  # the players' command
    assert (await record.message()).text


async def test_the_bot_subscribes_only_to_the_intents_it_uses(fake: FakeDiscord,
                                                              host: Host) -> None:
    """Item 10: IDENTIFY asks for the guilds intent alone: no message content, no messages,
    no typing, no members, no presences, no reactions."""
    alice, bob, _ = users(fake)
    await host.start()
    (identify,) = fake.identified
    intents = discord.Intents.none()
    intents.value = int(identify["intents"])
    assert intents == discord.Intents(guilds=True)
    assert not (intents.message_content or intents.messages or intents.typing
                or intents.members or intents.presences or intents.reactions)
    record = await fake.slash(alice, "challenge", opponent=bob)  # interactions still come
    assert "alice challenges bob" in (await record.public()).content

"""End to end: /settings (issue 29 item 11) through the real discord.py client against the
fake Discord -- the command is for Manage Server (``default_member_permissions``) and the
bot checks the interaction's own permissions again; each change is answered with what
changed, a refusal with the allowed values; the server's values reach the commands that
read them (threads, the channels where games and tournaments start, the organiser role,
the tournament announcements, /rules), and the operator's config applies where the server
set nothing."""

from __future__ import annotations

import asyncio
import re
from dataclasses import replace

import discord
import pytest
from discord_e2e import Host, posted_challenge, private, users
from fake_discord import FakeDiscord, User

from bot.config import DiscordConfig

pytestmark = pytest.mark.e2e

MANAGE_GUILD = discord.Permissions(manage_guild=True).value


def member(fake: FakeDiscord, name: str, *roles: int) -> User:
    """A member without Manage Server (in the interaction's own permissions)."""
    user = fake.user(name)
    perms = discord.Permissions.all()
    perms.manage_guild = False
    perms.administrator = False
    user.permissions = perms.value
    user.roles = list(roles)
    return user


async def signup_noted(host: Host, tournament: int) -> None:
    """Wait until the bot has stored the sign-up message of ``tournament`` (the last step of
    /tournament create, after its public answer)."""
    assert host.storage is not None
    for _ in range(200):
        async with host.storage.snapshot() as tx:
            row = await tx.get_tournament(tournament)
        if row is not None and "signup_message" in row.state:
            return
        await asyncio.sleep(0.02)
    raise AssertionError("the sign-up message was never noted")


async def setting(fake: FakeDiscord, user: User, key: str, value: str) -> str:
    return await private(await fake.slash(user, "settings set", key=key, value=value))


async def test_the_command_is_for_members_who_manage_the_server(fake: FakeDiscord,
                                                                host: Host) -> None:
    alice, _, _ = users(fake)
    bob = member(fake, "bob2")
    await host.start()
    command = next(c for c in fake.syncs[0][1] if c["name"] == "settings")
    assert int(command["default_member_permissions"]) == MANAGE_GUILD
    assert command["contexts"] == [0]  # servers only (not the deprecated dm_permission)
    subs = {o["name"]: o for o in command["options"]}
    assert set(subs) == {"show", "set", "reset"}
    assert all(o.get("autocomplete") for o in subs["set"]["options"])
    # Discord hides it from bob; a client that sends it anyway is refused by the bot, which
    # reads bob's permissions from the interaction itself.
    refused = await setting(fake, bob, "threads", "on")
    assert "Only members with the Manage Server permission" in refused
    async with host.storage.snapshot() as tx:
        assert (await tx.guild_settings(fake.guild_id)).version == 0
    assert await setting(fake, alice, "threads", "maybe") == (
        "threads must be on or off, not 'maybe'. Nothing was changed.")
    # (the test host's config has use_threads = false)
    assert await setting(fake, alice, "threads", "on") == "threads: off → on"
    shown = await private(await fake.slash(bob, "settings show"))
    assert "threads: on (set here)" in shown and "variant: standard (default)" in shown


async def test_threads_follow_the_server_over_the_config(fake: FakeDiscord, host: Host) -> None:
    alice, bob, carol = users(fake)
    await host.start(replace(host.config, discord=DiscordConfig(use_threads=True)))
    # Unset: the operator's use_threads = true opens a thread.
    note = await private(await fake.slash(alice, "challenge", opponent=bob, length=3))
    thread_id = int(re.search(r"<#(\d+)>", note)[1])  # type: ignore[index]
    assert fake.channels[thread_id]["type"] == 11
    assert await setting(fake, alice, "threads", "off") == "threads: on → off"
    record = await fake.slash(carol, "challenge", opponent=bob, length=3)
    challenge = await posted_challenge(fake, record)
    assert challenge.channel_id == fake.channel_id  # played in the channel itself
    assert sum(c.get("type") == 11 for c in fake.channels.values()) == 1


async def test_games_and_chouettes_start_only_in_the_server_s_channels(
        fake: FakeDiscord, host: Host) -> None:
    alice, bob, carol = users(fake)
    games = fake.add_channel("games")
    await host.start()
    assert await setting(fake, alice, "game_channels", f"<#{games}>") == (
        f"game_channels: all channels → <#{games}>")
    refused = await private(await fake.slash(alice, "challenge", opponent=bob, length=3))
    assert refused == ("Games don't start in this channel on this server: nothing was "
                       f"started.\nGames start in <#{games}>.")
    refused = await private(await fake.slash(carol, "chouette open"))
    assert "Chouette tables don't open in this channel" in refused and f"<#{games}>" in refused
    record = await fake.slash(alice, "challenge", opponent=bob, length=3, channel=games)
    assert (await posted_challenge(fake, record)).channel_id == games
    # A channel of another server (or none at all) is refused with what is allowed.
    bad = await setting(fake, alice, "game_channels", "<#123456789>")
    assert "is not a channel of this server" in bad and "all, or up to 15 channels" in bad
    assert await setting(fake, alice, "game_channels", "all") == (
        f"game_channels: <#{games}> → all channels")


async def test_autocomplete_offers_keys_then_their_values(fake: FakeDiscord,
                                                          host: Host) -> None:
    alice, _, _ = users(fake)
    await host.start()
    assert await fake.autocomplete(alice, "settings set", "key", "thre") == ["threads"]
    keys = await fake.autocomplete(alice, "settings set", "key", "")
    assert keys[:2] == ["variant", "threads"] and len(keys) == 25
    assert await fake.autocomplete(alice, "settings set", "value", "", key="threads") == [
        "on", "off"]
    assert "russian" in await fake.autocomplete(alice, "settings set", "value", "ru",
                                                key="variant")
    assert await fake.autocomplete(alice, "settings set", "value", "",
                                   key="rules.scoring") == [
        "games", "checkers-1", "checkers-2", "stranded", "combined-1", "combined-2",
        "combined-checkers-1", "combined-checkers-2"]


async def test_the_organiser_role_of_the_server(fake: FakeDiscord, host: Host) -> None:
    fake.user("owner")  # the guild's owner has every permission: not one of the players
    fake.everyone_permissions = discord.Permissions.all().value & ~MANAGE_GUILD & ~(
        discord.Permissions(administrator=True).value)
    director = fake.add_role("Tournament director")
    alice = fake.user("alice")  # Manage Server in her interactions: changes the settings
    bob = member(fake, "bob", director)
    carol = member(fake, "carol")
    await host.start()
    refused = await private(await fake.slash(bob, "tournament-admin create", name="Cup",
                                             format="swiss"))
    assert "Only organisers can create a tournament: members with Manage Server." in refused
    assert await setting(fake, alice, "organiser_role", f"<@&{director}>") == (
        f"organiser_role: none (only members with Manage Server) → <@&{director}>")
    created = await (await fake.slash(bob, "tournament-admin create", name="Cup",
                                      format="swiss")).public()
    assert "Tournament #1 Cup" in created.content
    await signup_noted(host, 1)
    refused = await private(await fake.slash(carol, "tournament-admin create", name="Cup 2",
                                             format="swiss"))
    assert refused.endswith(f"The organiser role here: <@&{director}>.")


async def test_tournaments_and_their_announcements_go_where_the_server_says(
        fake: FakeDiscord, host: Host) -> None:
    alice, bob, carol = users(fake)
    hall = fake.add_channel("tournaments")
    news = fake.add_channel("announcements")
    await host.start()
    assert await setting(fake, alice, "tournament_channels", f"<#{hall}>") == (
        f"tournament_channels: all channels → <#{hall}>")
    refused = await private(await fake.slash(alice, "tournament-admin create", name="Cup",
                                             format="single-elimination", length="1"))
    assert "Tournaments aren't created in this channel" in refused and f"<#{hall}>" in refused
    assert await setting(fake, alice, "tournament_announcements", "#announcements") == (
        f"tournament_announcements: none (each tournament's own channel) → <#{news}>")
    record = await fake.slash(alice, "tournament-admin create", name="Cup",
                              format="single-elimination", length="1", channel=hall)
    assert "Tournament #1 Cup" in (await record.public()).content
    await signup_noted(host, 1)
    for user in (bob, carol):
        joined = await (await fake.slash(user, "tournament join", channel=hall)).message()
        assert "joins #1 Cup" in joined.content
    assert "starts with 2 players" in (await (await fake.slash(
        alice, "tournament-admin start", channel=hall)).public()).content
    await fake.until(lambda: any("the match is on in" in m.content
                                 for m in fake.channel_messages(news)))
    assert not any("the match is on in" in m.content for m in fake.channel_messages(hall))


async def test_rules_show_the_server_s_defaults(fake: FakeDiscord, host: Host) -> None:
    alice, bob, carol = users(fake)
    await host.start()
    assert "**Backgammon** — no game" in await private(await fake.slash(carol, "rules"))
    assert await setting(fake, alice, "variant", "russian") == "variant: standard → russian"
    assert await setting(fake, alice, "rules.cube", "off") == "rules.cube: on → off"
    text = await private(await fake.slash(carol, "rules"))
    assert text.startswith("**Russian backgammon** — no game in this channel: the server's "
                           "defaults") and "doubling cube: off" in text
    record = await fake.slash(alice, "challenge", opponent=bob, length=3)
    challenge = await posted_challenge(fake, record)
    assert "Russian backgammon" in challenge.content and "doubling cube: off" in challenge.content
    assert await private(await fake.slash(alice, "settings reset", key="variant")) == (
        "variant: russian → standard (the operator's default)")

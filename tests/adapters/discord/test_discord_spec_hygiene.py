"""Each call sends what Discord's docs define for it (issue 43 item 5), through the real
discord.py client against the fake Discord, which records what goes beyond the docs
(:attr:`FakeDiscord.hygiene`; the end-to-end fixture fails on any):

* a public thread is started without ``invitable`` (resources/channel.md, "Start Thread
  without Message": "whether non-moderators can add other non-moderators to a thread;
  only available when creating a private thread");
* no command carries the deprecated ``dm_permission`` beside ``contexts``
  (interactions/application-commands.md, "Application Command Object");
* a server's command sync carries no ``contexts`` nor ``integration_types`` (documented
  for global commands only), and its commands are offered there all the same."""

from __future__ import annotations

from dataclasses import replace

from discord_e2e import Host, private, users
from fake_channels import PUBLIC_THREAD, THREADS
from fake_discord import GUILD, FakeDiscord

from bot.config import DiscordConfig


async def test_a_game_thread_is_a_public_thread_without_invitable(fake: FakeDiscord,
                                                                 host: Host) -> None:
    alice, bob, _ = users(fake)
    await host.start(replace(host.config, discord=DiscordConfig(use_threads=True)))
    note = await private(await fake.slash(alice, "challenge", opponent=bob, length=3))
    (thread,) = [c for c, data in fake.channels.items() if data["type"] in THREADS]
    assert f"<#{thread}>" in note
    assert fake.channels[thread]["type"] == PUBLIC_THREAD
    made = [call for call in fake.channel_calls if call[0].endswith("/threads")]
    assert made == [(f"POST /channels/{fake.channel_id}/threads", fake.channel_id)]
    assert fake.hygiene == []


async def test_global_commands_carry_contexts_and_no_dm_permission(fake: FakeDiscord,
                                                                  host: Host) -> None:
    await host.start()
    ((guild, payload),) = fake.syncs
    assert guild is None
    for command in payload:
        assert "dm_permission" not in command, command["name"]
        assert command["contexts"] and command["integration_types"], command["name"]
    settings = next(c for c in payload if c["name"] == "settings")
    assert settings["contexts"] == [GUILD]  # (what dm_permission false said)
    assert fake.hygiene == []


async def test_a_server_sync_carries_no_global_only_fields(fake: FakeDiscord,
                                                          host: Host) -> None:
    alice, _, _ = users(fake)
    await host.start(replace(host.config, discord=DiscordConfig(
        dev_guild_ids=(fake.guild_id,))))
    ((guild, payload),) = fake.syncs
    assert guild == fake.guild_id
    assert {"challenge", "settings", "help"} <= {c["name"] for c in payload}
    for command in payload:
        for key in ("contexts", "integration_types", "dm_permission"):
            assert key not in command, (command["name"], key)
    assert fake.hygiene == []
    # The server's commands work there as before.
    assert "/challenge" in (await (await fake.slash(alice, "help")).message()).text

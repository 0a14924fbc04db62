"""Games and their threads as Discord really has them (issue 29 items 5, 7 and 8), through
the real discord.py client against the fake Discord's strict channels
(tests/support/fake_channels.py): a refused challenge leaves no thread; games start
correctly in announcement and forum channels and in a thread; a finished match's thread is
archived after the grace period and reopened by a rematch; reminders and /claim work in a
thread Discord archived for inactivity."""

from __future__ import annotations

import re
from dataclasses import replace

from discord_e2e import Host, private, users
from fake_channels import THREADS
from fake_discord import FakeDiscord

from bot.config import DiscordConfig


def threads(fake: FakeDiscord) -> list[int]:
    return [cid for cid, c in fake.channels.items() if c["type"] in THREADS]


async def test_a_refused_challenge_leaves_no_thread(fake: FakeDiscord, host: Host) -> None:
    # Item 5: the bot does not have Manage Threads (it does not ask for it), so a thread
    # opened for a challenge the service then refuses could never be deleted.
    alice, bob, _ = users(fake)
    robot = fake.user("robot")
    robot.bot = True
    await fake.guard.deny(fake.channel_id, "manage_threads")
    await host.start(replace(host.config, discord=DiscordConfig(use_threads=True)))
    refusals = {
        "jacoby with a match length": (dict(opponent=bob, length=3, jacoby=True),
                                       "Jacoby rule applies to money play only"),
        "yourself": (dict(opponent=alice), "You can't challenge yourself"),
        "a bot": (dict(opponent=robot), "robot is a bot and can't play"),
        "the bot, with no AI": (dict(opponent=fake.bot_user), "can't play"),
        "a level against a person": (dict(opponent=bob, level="beginner"),
                                     "The level option is for games against the bot"),
        "an unknown variant": (dict(opponent=bob, variant="chess"), "chess"),
        "a length and a stake": (dict(opponent=bob, length=3, stake=2),
                                 "not both"),
    }
    for kind, (options, reason) in refusals.items():
        record = await fake.slash(alice, "challenge", **options)  # type: ignore[arg-type]
        assert reason in await private(record), kind
        assert threads(fake) == [], f"{kind}: a thread was left behind"
    assert not [m for m in fake.channel_messages(fake.channel_id) if not m.ephemeral]
    # A challenge that stands gets its thread.
    note = await private(await fake.slash(alice, "challenge", opponent=bob, length=3))
    (thread,) = threads(fake)
    assert f"<#{thread}>" in note
    assert re.search(r"alice challenges bob", fake.channel_messages(thread)[0].content)

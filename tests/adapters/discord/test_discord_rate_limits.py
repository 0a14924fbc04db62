"""The bot under Discord's rate limits (issue 43 item 2): the real discord.py client against
the fake Discord with its limits on (tests/support/fake_ratelimits.py: per-route buckets
with their ``X-RateLimit-*`` headers, 429 with ``retry_after``, the global limit, a
channel's messages in one bucket), on a scaled clock so that the tests stay short.

The bursts the bot makes: a 256-player tournament round opening (a thread, a board and an
announcement line per pairing) while players use commands; many games ending at once (their
boards and lines, and the next round opening); many results posted in channels at once (as
a grading run does).  Nothing is lost or posted twice, every interaction is answered within
Discord's deadlines (the fixture checks it: callbacks are behind no bucket), and the bot
keeps inside every bucket by the headers (no 429 of a bucket's)."""

from __future__ import annotations

import asyncio
import os
import re
from collections import Counter
from dataclasses import replace

import pytest
from discord_e2e import Capture, Host, users
from fake_discord import FakeDiscord, Message, User
from fake_ratelimits import GLOBAL_LIMIT, MESSAGES, THREADS, RateLimits

from bot.service.core.replies import Reply
from bot.service.core.values import Actor, Place

pytestmark = pytest.mark.e2e

SCALE = float(os.environ.get("FAKE_DISCORD_SCALE", "0.02"))
"""Real seconds per Discord second: a 5-per-5-seconds bucket refills every 0.1 s.  (To
measure a burst in Discord's time, run with ``FAKE_DISCORD_SCALE=1``: on the scaled clock
the bot's own work counts 50 times over.)"""


def pairing_threads(fake: FakeDiscord) -> list[int]:
    return [cid for cid, c in fake.channels.items() if c.get("type") == 11]


def boards(fake: FakeDiscord) -> dict[int, list[Message]]:
    """Each pairing thread's messages with a board (an embed)."""
    return {cid: [m for m in fake.channel_messages(cid) if m.embeds]
            for cid in pairing_threads(fake)}


async def tournament(fake: FakeDiscord, host: Host, size: int) -> tuple[User, list[User]]:
    """A single-elimination tournament of ``size`` players (1-point matches) taking sign-ups
    in the fake's channel: the organiser (who plays too) and the players."""
    organiser, _, _ = users(fake)
    record = await fake.slash(organiser, "tournament-admin create", name="Big cup",
                              format="single-elimination", length="1")
    await record.public()
    assert host.bot is not None
    service = host.bot.service
    place = Place(fake.guild_id, fake.channel_id)
    players = [organiser] + [fake.user(f"p{i}") for i in range(size - 1)]
    for player in players:
        joined = await service.tournament_join(place, Actor(player.id, player.name))
        assert joined.ok, joined.text
    return organiser, players


def no_bucket_overrun(limits: RateLimits) -> None:
    """The bot waited as the headers said: no 429 of a bucket's, and none of the global
    limit's."""
    assert limits.refused() == [], limits.refused()[:5]


async def test_a_256_player_round_opens_under_discords_limits(fake: FakeDiscord, host: Host,
                                                             logs: Capture) -> None:
    limits = fake.rate_limit(SCALE)
    await host.start()
    organiser, players = await tournament(fake, host, 256)
    started = await fake.slash(organiser, "tournament-admin start")
    assert "starts with 256 players" in (await started.public()).content
    # Commands while the round opens: answered in time (the fixture checks 3 s), whatever
    # the channel's buckets hold.
    asked = []
    for player in players[1:6]:
        asked.append(await fake.slash(player, "tournament status"))
        asked.append(await fake.slash(player, "help"))
        await asyncio.sleep(0.05)
    for record in asked:
        await record.message()
    await fake.until(lambda: sum(bool(b) for b in boards(fake).values()) == 128, timeout=600)
    await asyncio.sleep(20 * SCALE)  # (any stray post would come now)
    threads = pairing_threads(fake)
    assert len(threads) == 128
    assert all(len(b) == 1 for b in boards(fake).values()), "a board posted twice"
    mentioned = Counter(int(u) for cid in threads for u in set(
        re.findall(r"<@(\d+)>", fake.channel_messages(cid)[0].content)))
    assert sorted(mentioned) == sorted(p.id for p in players)
    assert set(mentioned.values()) == {1}  # each player in one pairing, once
    lines = [m for m in fake.channel_messages(fake.channel_id)
             if "the match is on in" in m.content]
    assert len(lines) == 128 and len({m.content for m in lines}) == 128
    assert fake.refusals == [] and fake.guard.refusals == []
    no_bucket_overrun(limits)
    # Discord's time: the thread starts and the announcement lines (one bucket each, in the
    # tournament's channel) could not go quicker than 5 per 5 s.
    starts = limits.span("/threads")
    assert starts >= (128 - THREADS.count) / THREADS.count * THREADS.per * 0.9
    messages = [r for r in limits.log if r.bucket == f"messages:{fake.channel_id}"]
    assert len(messages) >= 128 and MESSAGES.count == 5
    print(f"256 players: round 1 opened in {starts:.0f} s of Discord's time "
          f"({len(limits.log)} requests, {len(limits.refused())} answered 429)")
    assert "cannot post" not in logs.text() and "cannot open" not in logs.text()


async def test_many_live_boards_edited_at_once(fake: FakeDiscord, host: Host,
                                              logs: Capture) -> None:
    # Live boards (board_mode live): /board in each of 32 match threads at once makes each
    # shown board the game's live board; then 32 players forfeit at the same moment: 32
    # answers, 32 live boards edited in place, 32 result lines in the tournament's channel,
    # and round 2's 16 threads opening.
    limits = fake.rate_limit(SCALE)
    await host.start(replace(host.config, discord=replace(host.config.discord,
                                                          board_mode="live")))
    _, players = await tournament(fake, host, 64)
    organiser = players[0]
    await (await fake.slash(organiser, "tournament-admin start")).public()
    await fake.until(lambda: sum(bool(b) for b in boards(fake).values()) == 32, timeout=300)
    first = list(pairing_threads(fake))
    losers = []
    for cid in first:
        opening = fake.channel_messages(cid)[0].content
        losers.append((cid, fake.users[int(re.findall(r"<@(\d+)>", opening)[0])]))
    looks = await asyncio.gather(*(fake.slash(user, "board", channel=cid)
                                   for cid, user in losers))
    live = [await look.public() for look in looks]
    before = {cid: len(b) for cid, b in boards(fake).items()}
    forfeits = await asyncio.gather(*(fake.slash(user, "forfeit", channel=cid, confirm=True)
                                      for cid, user in losers))
    for record in forfeits:
        await record.message()
    await fake.until(lambda: all(board.edits >= 1 for board in live), timeout=300)
    await fake.until(lambda: len(pairing_threads(fake)) == 48
                     and sum(bool(b) for b in boards(fake).values()) == 48, timeout=300)
    await asyncio.sleep(20 * SCALE)  # (any stray post or edit would come now)
    for board in live:
        assert board.components == [] and "wins" in board.text, board.text
    assert {cid: len(boards(fake)[cid]) for cid in first} == before  # edited, not posted
    assert all(len(b) == 1 for cid, b in boards(fake).items() if cid not in first)
    results = [m for m in fake.channel_messages(fake.channel_id) if "R2-" in m.content
               and "the match is on in" in m.content]
    assert len(results) == 16 and len({m.content for m in results}) == 16
    assert fake.refusals == [] and fake.guard.refusals == []
    no_bucket_overrun(limits)
    assert "cannot post" not in logs.text() and "could not" not in logs.text()


async def test_many_results_posted_at_once(fake: FakeDiscord, host: Host,
                                           logs: Capture) -> None:
    # A grading run's results (GradingCog.post, ordinary messages in the matches'
    # channels), 80 at once in 8 channels: each posted once, each channel's bucket kept.
    limits = fake.rate_limit(SCALE)
    channels = [fake.add_channel(f"games-{i}") for i in range(8)]
    bot = await host.start()
    cog = bot.get_cog("GradingCog")
    assert cog is not None
    texts = [f"Grades of match {n}: error rate {n}.0" for n in range(80)]
    await asyncio.gather(*(cog.post(channels[n % 8], Reply(ok=True, text=text))  # type: ignore[attr-defined]
                           for n, text in enumerate(texts)))
    posted = [m.content for cid in channels for m in fake.channel_messages(cid)]
    assert sorted(posted) == sorted(texts)
    no_bucket_overrun(limits)
    # 10 per channel: the first 5 at once, the other 5 once the window had passed.
    assert limits.span("/messages") >= MESSAGES.per * 0.9
    assert "cannot post" not in logs.text()


async def test_a_burst_past_the_global_limit_loses_nothing(fake: FakeDiscord, host: Host,
                                                          logs: Capture) -> None:
    # 300 results at once in 60 channels (5 each: within every channel's bucket), on
    # Discord's own clock, where the global limit (50 per second) binds.  discord.py learns
    # of it only from a 429 and gives a request up after five in a row: without the bot's
    # pace (bot/adapters/discord/pace.py) posts are lost.
    limits = fake.rate_limit(1.0)
    channels = [fake.add_channel(f"results-{i}") for i in range(60)]
    bot = await host.start()
    cog = bot.get_cog("GradingCog")
    assert cog is not None
    texts = [f"Grades of match {n}" for n in range(300)]
    await asyncio.gather(*(cog.post(channels[n % 60], Reply(ok=True, text=text))  # type: ignore[attr-defined]
                           for n, text in enumerate(texts)))
    posted = [m.content for cid in channels for m in fake.channel_messages(cid)]
    assert sorted(posted) == sorted(texts)  # each once
    no_bucket_overrun(limits)  # (no 429 of the global limit's either)
    assert bot.pace.waited > 0  # queued and spread
    assert limits.span("/messages") >= 300 / GLOBAL_LIMIT - 1

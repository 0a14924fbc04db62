"""End to end (issue 32): the app installed to users' accounts, played in a DM (channel
type 1) and a group DM (type 3) where its bot is not a member, through the real discord.py
client against the fake Discord.

There the bot may only answer interactions: the fake refuses every channel REST call
with 403 Missing Access (50001) and every use of an interaction token after its 15
minutes with 401 (50027), and records the channel calls, so each test checks that the bot
made none on the DM itself.  The same app keeps working in a server that installed it,
also when the players installed it to their accounts too.
"""

from __future__ import annotations

import asyncio
import functools
import re
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from discord_e2e import (
    Host,
    assert_board_message,
    button_users,
    only_newest_has_buttons,
    posted_challenge,
    private,
    start_game,
    turn_of,
    users,
)
from discord_limits import discord_limits
from fake_discord import (
    BOT_DM,
    GUILD,
    PRIVATE_CHANNEL,
    TOKEN_LIFETIME,
    FakeDiscord,
    Interaction,
    Message,
    User,
)

from bot.ai.runner import AIRunner
from bot.config import DiscordConfig
from bot.service.core.values import PERSONAL

pytestmark = pytest.mark.e2e
__all__ = ["discord_limits"]  # the fixture (Discord's limits on every payload), by name

SERVER_ONLY = {"tournament", "tournament-admin", "settings"}


def no_calls_on(fake: FakeDiscord, channel: int) -> list[str]:
    """The channel REST calls the bot made on ``channel`` (there must be none)."""
    return [call for call, target in fake.channel_calls if target == channel]


async def open_challenge(fake: FakeDiscord, challenger: User, opponent: User, channel: int,
                         **terms: int) -> Message:
    record = await fake.slash(challenger, "challenge", channel=channel, opponent=opponent,
                              **terms)
    assert record.context in (BOT_DM, PRIVATE_CHANNEL)
    return await posted_challenge(fake, record)


async def play_match(fake: FakeDiscord, host: Host, board: Message, players: tuple[User, User],
                     channel: int, *, points: int) -> tuple[Message, bool]:
    """Press the buttons (one double, taken) and type the moves until the match is won,
    stopping and starting the bot again after 12 actions; the last board, and whether a
    double was taken."""
    by_id = {p.id: p for p in players}
    doubled = taken = False
    for step in range(1500):
        if f"wins the {points}-point match" in board.text:
            return board, taken
        if step == 12:  # a restart in the middle: the buttons and the game go on
            await host.stop()
            await host.start()
        labels = board.labels()
        record: Interaction
        if "Take" in labels:
            (who,) = button_users(board, "Take")
            record = await fake.click(by_id[who], board, "Take")
            taken = True
        elif "Double" in labels and "Roll" in labels and not doubled:
            (who,) = button_users(board, "Double")
            record = await fake.click(by_id[who], board, "Double")
            doubled = True
        elif "Roll" in labels:
            (who,) = button_users(board, "Roll")
            record = await fake.click(by_id[who], board, "Roll")
        else:
            mover = by_id[turn_of(board)]
            plays = await fake.autocomplete(mover, "move", "moves", "", channel=channel)
            assert plays, board.text
            record = await fake.slash(mover, "move", channel=channel, moves=plays[0])
        board = await record.public()
        assert_board_message(board)
        assert board.channel_id == channel and board.guild_id is None
        over = f"wins the {points}-point match" in board.text
        assert over or "Refresh" in board.labels(), board.labels()  # anyone may fetch it
        if step != 12:  # (the board before a restart keeps its buttons: no token for it)
            await fake.until(functools.partial(only_newest_has_buttons, fake, board))
    raise AssertionError("the match did not end")


async def test_commands_declare_both_installs_and_their_contexts(fake: FakeDiscord,
                                                                 host: Host) -> None:
    await host.start()
    (_, payload), = fake.syncs
    for command in payload:
        if command["name"] in SERVER_ONLY:  # a server's own: the bot posts for them
            assert command["integration_types"] == [0], command["name"]
            assert command["contexts"] == [GUILD], command["name"]
        else:
            assert command["integration_types"] == [0, 1], command["name"]
            assert command["contexts"] == [GUILD, BOT_DM, PRIVATE_CHANNEL], command["name"]
    assert {"challenge", "board", "chouette", "leaderboard", "stats", "history", "export",
            "verify", "rules", "replay", "hint"} <= {c["name"] for c in payload}


@pytest.mark.parametrize("group", [False, True], ids=["dm", "group-dm"])
async def test_a_3_point_match_in_a_dm_of_a_user_installed_app(
        fake: FakeDiscord, host: Host, group: bool, discord_limits: list[str]) -> None:
    alice, bob, carol = users(fake)
    fake.install_to_user(alice, bob)
    fake.guild_installed = False  # no server is needed at all
    dm = fake.add_dm(alice, bob, carol, group=True) if group else fake.add_dm(alice, bob)
    await host.start()

    challenge = await open_challenge(fake, alice, bob, dm, length=3)
    assert "alice challenges bob" in challenge.content and challenge.guild_id is None
    assert button_users(challenge, "Accept") == [bob.id]
    accepted = await fake.click(bob, challenge, "Accept")
    assert await accepted.acknowledged() == 7 and challenge.components == []
    board = await accepted.public()
    board, taken = await play_match(fake, host, board, (alice, bob), dm, points=3)
    assert taken  # bob or alice took a double on the way
    assert "Dice seed of game" in board.text
    assert board.labels() == ["Rematch"]  # (the match is over: nothing to refresh)

    # Games outside servers count toward the personal rating, on the /stats card.
    stats = await (await fake.slash(alice, "stats", channel=dm)).public()
    assert "personal rating (games outside servers)" in stats.content
    verified = await (await fake.slash(bob, "verify", channel=dm, game=1)).public()
    assert "dice match the seed" in verified.content
    history = await (await fake.slash(bob, "history", channel=dm)).public()
    assert "alice" in history.text or history.files
    if group:  # carol did not install the app: Discord offers her no command there
        with pytest.raises(AssertionError, match="not offered to carol"):
            await fake.slash(carol, "board", channel=dm)
    assert host.storage is not None
    async with host.storage.snapshot() as tx:
        row = await tx.latest_match_in_channel(dm)
        assert row is not None and row.status == "finished"
        assert (row.guild_id, row.place_kind) == (PERSONAL, "group_dm" if group else "dm")
    assert no_calls_on(fake, dm) == [] and fake.refusals == []


async def test_a_player_back_after_hours_taps_refresh(fake: FakeDiscord, host: Host) -> None:
    """Hours after the last board, every token shown has run out.  A typed move answers
    with the new board and leaves the old one alone (no edit with an expired token: the
    fake would refuse it); the old board's Refresh answers with the board now and its
    buttons."""
    alice, bob, _ = users(fake)
    fake.install_to_user(alice, bob)
    dm = fake.add_dm(alice, bob)
    await host.start()
    challenge = await open_challenge(fake, alice, bob, dm, stake=1)
    old = await (await fake.click(bob, challenge, "Accept")).public()
    assert "Refresh" in old.labels()
    fake.advance(3 * 3600)  # three hours later, for Discord...
    assert host.bot is not None
    later = host.bot.presenter.clock() + 3 * 3600
    host.bot.presenter.clock = lambda: later  # ...and for the bot
    mover = alice if turn_of(old) == alice.id else bob
    waiting = bob if mover is alice else alice
    plays = await fake.autocomplete(mover, "move", "moves", "", channel=dm)
    moved = await (await fake.slash(mover, "move", channel=dm, moves=plays[0])).public()
    assert_board_message(moved)
    assert button_users(moved, "Roll") == [waiting.id]

    refreshed = await (await fake.click(waiting, old, "Refresh")).public()
    assert_board_message(refreshed)
    assert refreshed.id != moved.id and button_users(refreshed, "Roll") == [waiting.id]
    assert old.components == []  # the pressed board lost its buttons in the answer
    rolled = await (await fake.click(waiting, refreshed, "Roll")).public()
    assert re.search(rf"{waiting.name} rolled \d-\d", rolled.text), rolled.text
    assert no_calls_on(fake, dm) == [] and fake.refusals == []


async def test_the_fake_refuses_a_late_follow_up_and_a_channel_call(fake: FakeDiscord,
                                                                    host: Host) -> None:
    """The fake itself: Discord's answers where a bot is not a member, and to a late
    token."""
    import discord

    alice, bob, _ = users(fake)
    fake.install_to_user(alice)
    dm = fake.add_dm(alice, bob)
    bot = await host.start()
    record = await fake.slash(alice, "rules", channel=dm)
    assert "no game in this channel: the defaults for a new game" in await private(record)
    with pytest.raises(discord.Forbidden) as refused:
        await bot.get_partial_messageable(dm).send("hello")
    assert refused.value.code == 50001 and refused.value.status == 403
    fake.advance(TOKEN_LIFETIME + 1)
    webhook = discord.Webhook.partial(fake.app_id, record.token, client=bot)
    with pytest.raises(discord.HTTPException) as late:
        await webhook.send("too late")
    assert late.value.code == 50027 and late.value.status == 401
    fake.refusals.clear()
    fake.channel_calls.clear()


async def test_a_game_against_the_bot_in_its_dm(fake: FakeDiscord, host: Host) -> None:
    host.ai = AIRunner(processes=False, time_limit=20.0)
    await host.ai.start()
    alice, _, _ = users(fake)
    fake.install_to_user(alice)
    fake.guild_installed = False
    dm = fake.add_dm(alice, fake.bot_user)
    try:
        await host.start()
        record = await fake.slash(alice, "challenge", channel=dm, opponent=fake.bot_user,
                                  length=1, level="beginner")
        assert record.context == BOT_DM
        board = await record.public()
        assert "You play the AI" in board.text
        for _ in range(400):
            if "wins the 1-point match" in board.text:
                break
            labels = board.labels()
            assert not [u for label in labels if label != "Refresh"
                        for u in button_users(board, label) if u == fake.app_id]
            if "Take" in labels:
                record = await fake.click(alice, board, "Take")
            elif "Roll" in labels:
                record = await fake.click(alice, board, "Roll")
            else:
                plays = await fake.autocomplete(alice, "move", "moves", "", channel=dm)
                assert plays, board.text
                record = await fake.slash(alice, "move", channel=dm, moves=plays[0])
            board = await record.public()
            assert_board_message(board)
        else:
            raise AssertionError("the game did not end")
        # The AI's turns came in the answers to alice's actions: nothing else was posted.
        assert all(m.interaction_id is not None for m in fake.channel_messages(dm))
        assert no_calls_on(fake, dm) == [] and fake.refusals == []
    finally:
        host.ai.close()


async def test_a_chouette_is_refused_in_a_dm_with_the_reason(fake: FakeDiscord,
                                                             host: Host) -> None:
    alice, bob, carol = users(fake)
    fake.install_to_user(alice, bob, carol)
    group = fake.add_dm(alice, bob, carol, group=True)
    await host.start()
    record = await fake.slash(alice, "chouette open", channel=group)
    text = await private(record)
    assert "A chouette table needs a server, not this group DM" in text
    assert "/challenge" in text  # what can be done here instead
    board = await fake.slash(bob, "leaderboard", channel=group)
    assert "needs a server" in await private(board) and "personal rating" in (
        await private(board))
    with pytest.raises(AssertionError, match="not offered in context"):
        await fake.slash(alice, "tournament list", channel=group)
    assert no_calls_on(fake, group) == []


async def test_a_server_that_installed_it_and_whose_players_did_too(fake: FakeDiscord,
                                                                    host: Host) -> None:
    """Both installs in one server: the bot is a member, so it plays as before (boards
    without Refresh, the older board's buttons taken off by the channel's REST)."""
    alice, bob, _ = users(fake)
    fake.install_to_user(alice, bob)
    await host.start()
    board = await start_game(fake, alice, bob, length=1)
    assert "Refresh" not in board.labels() and board.guild_id == fake.guild_id
    mover = alice if turn_of(board) == alice.id else bob
    plays = await fake.autocomplete(mover, "move", "moves", "")
    moved = await (await fake.slash(mover, "move", moves=plays[0])).public()
    await fake.until(functools.partial(only_newest_has_buttons, fake, moved))
    record = await fake.slash(alice, "stats")
    assert "alice: rating" in (await record.public()).content
    record = await fake.slash(alice, "tournament list")  # a server's own command: here
    assert "tournament" in (await record.message()).text.lower()


async def test_taps_in_a_dm_the_builder_and_board(fake: FakeDiscord, host: Host,
                                                 discord_limits: list[str]) -> None:
    """The Play button's private move builder works there too, and the live board mode
    (configured) is not used where the bot may not edit on its own: each play's answer is
    a new board; /board typed gives the board with its buttons."""
    alice, bob, _ = users(fake)
    fake.install_to_user(alice, bob)
    dm = fake.add_dm(alice, bob)
    await host.start(replace(host.config, discord=DiscordConfig(use_threads=False,
                                                                board_mode="live")))
    by_id = {alice.id: alice, bob.id: bob}
    challenge = await open_challenge(fake, alice, bob, dm, length=1)
    board = await (await fake.click(bob, challenge, "Accept")).public()
    for _ in range(4):  # two plays each, by taps
        if "Roll" in board.labels():
            (uid,) = button_users(board, "Roll")
            board = await (await fake.click(by_id[uid], board, "Roll")).public()
        (uid,) = button_users(board, "Play")
        opened = await fake.click(by_id[uid], board, "Play")
        builder = await opened.message()
        assert builder.ephemeral
        before = len(fake.channel_messages(dm))
        for _ in range(10):
            menus = builder.menus()
            if not menus:
                break
            edits = builder.edits
            label = menus[0]["options"][0]["label"]
            picked = await fake.select(by_id[uid], builder, menus[0]["placeholder"], label)
            await picked.acknowledged()
            await fake.until(lambda e=edits, b=builder: b.edits > e)
        await fake.until(lambda n=before: any(
            not m.ephemeral and m.files for m in fake.channel_messages(dm)[n:]))
        board = next(m for m in reversed(fake.channel_messages(dm))
                     if not m.ephemeral and m.files)
        assert_board_message(board)
        assert "Refresh" in board.labels()
    looked = await (await fake.slash(alice, "board", channel=dm)).public()
    assert_board_message(looked)
    assert "Refresh" in looked.labels() and len(looked.labels()) > 1
    assert no_calls_on(fake, dm) == [] and fake.refusals == []


async def test_a_server_that_only_its_players_installed_it_to(fake: FakeDiscord, host: Host,
                                                              discord_limits: list[str]
                                                              ) -> None:
    """A server without the bot (only users installed the app): a game there is the
    server's (its rating), played by answers only: no thread, no call on the channel."""
    alice, bob, _ = users(fake)
    fake.install_to_user(alice, bob)
    guild, lounge = fake.add_foreign_guild()
    await host.start()
    record = await fake.slash(alice, "challenge", channel=lounge, opponent=bob, length=1)
    assert record.context == GUILD and record.owners == {"1": str(alice.id)}
    challenge = await posted_challenge(fake, record)
    board = await (await fake.click(bob, challenge, "Accept")).public()
    assert board.guild_id == guild and "Refresh" in board.labels()
    mover = alice if turn_of(board) == alice.id else bob
    plays = await fake.autocomplete(mover, "move", "moves", "", channel=lounge)
    moved = await (await fake.slash(mover, "move", channel=lounge, moves=plays[0])).public()
    await fake.until(functools.partial(only_newest_has_buttons, fake, moved))
    # Days later: no reminder is posted there (the bot may not), and nobody wins by waiting.
    host.offset = timedelta(days=2)
    assert host.bot is not None
    cog: Any = host.bot.get_cog("ReminderCog")
    assert await cog.send_reminders() == 0
    claimed = await fake.slash(mover, "claim", channel=lounge)
    assert "Claiming a game by time needs me in this server" in await private(claimed)
    forfeit = await (await fake.slash(mover, "forfeit", channel=lounge, confirm=True)).public()
    assert "wins the 1-point match" in forfeit.text
    assert host.storage is not None
    async with host.storage.snapshot() as tx:
        row = await tx.latest_match_in_channel(lounge)
        assert row is not None and (row.guild_id, row.place_kind) == (guild, "server")
    with pytest.raises(AssertionError, match="not offered to alice here"):
        await fake.slash(alice, "tournament list", channel=lounge)  # a server install's
    assert no_calls_on(fake, lounge) == [] and fake.refusals == []


async def test_long_work_in_a_dm_answers_through_the_token(
        fake: FakeDiscord, host: Host, monkeypatch: pytest.MonkeyPatch) -> None:
    """/analyze in a DM, slow: under way at once; the result is a follow-up of the
    interaction (the bot may not post there on its own); work that outlasts the token is
    told so, privately, while the token still runs."""
    from bot.adapters.discord import presenter as presenter_module
    from bot.service.core.replies import Reply

    alice, bob, _ = users(fake)
    fake.install_to_user(alice)
    dm = fake.add_dm(alice, bob)
    bot = await host.start()
    monkeypatch.setattr(bot.presenter, "defer_after", 0.1)
    release = asyncio.Event()

    async def analyze(*args: object, **kwargs: object) -> Reply:
        await release.wait()
        return Reply(True, "Analysis of the match: alice 4.1, bob 6.3")

    monkeypatch.setattr(bot.service, "analyze", analyze)
    record = await fake.slash(alice, "analyze", channel=dm, match=True)
    under_way = await record.message()
    assert under_way.ephemeral and "the result comes here" in under_way.text
    release.set()
    result = await record.public()
    assert result.interaction_id == record.id and "Analysis of the match" in result.text

    release.clear()
    monkeypatch.setattr(presenter_module, "TOKEN_MARGIN", 0.5)  # (the token's 14 minutes)
    record = await fake.slash(alice, "analyze", channel=dm, match=True)
    await record.message()
    told = await record.message(1)
    assert told.ephemeral and "did not finish within the 15 minutes" in told.text
    release.set()
    assert no_calls_on(fake, dm) == [] and fake.refusals == []


async def test_a_chouette_in_a_server_that_only_its_players_installed_it_to(
        fake: FakeDiscord, tmp_path: Path, discord_limits: list[str]) -> None:
    """A chouette needs no thread and no message of the bot's own: in a server the bot is
    not a member of, three players who installed the app open, join and start a table,
    the captain moves, the box doubles and the team answers, each by an interaction's
    answer; the table is the server's (not a personal place); no call on the channel."""
    from discord_e2e import BOARD_WIDTH, Script, pngs

    alice, bob, carol = users(fake)
    fake.install_to_user(alice, bob, carol)
    guild, lounge = fake.add_foreign_guild()
    script = Script([6, 5, 4,   # seat throws: alice, bob, carol
                     1, 3])     # game 1 opening: box 1, captain 3
    host = Host(fake, tmp_path, script)
    await host.start()
    try:
        opened = await (await fake.slash(alice, "chouette open", channel=lounge,
                                         stake=2)).public()
        assert "alice opens a chouette of" in opened.content and opened.guild_id == guild
        await (await fake.slash(bob, "chouette join", channel=lounge)).public()
        joined = await (await fake.slash(carol, "chouette join", channel=lounge)).public()
        assert "The table can start" in joined.content
        board = await (await fake.slash(carol, "chouette start", channel=lounge)).public()
        assert board.embeds and not board.ephemeral  # the board, with its chouette panel
        assert all(image.width > BOARD_WIDTH for image in pngs(board))
        assert ("Chouette game 1: alice in the box against captain bob and partners carol"
                in board.text)
        assert turn_of(board) == bob.id
        refused = await fake.slash(carol, "move", channel=lounge, moves="8/5 6/5")
        assert "only the captain rolls, moves and doubles" in await private(refused)
        moved = await (await fake.slash(bob, "move", channel=lounge, moves="8/5 6/5")).public()
        assert "bob plays 8/5 6/5" in moved.text
        assert button_users(moved, "Double") == [alice.id]
        offer = await (await fake.click(alice, moved, "Double")).public()
        assert "alice doubles to 2" in offer.text
        assert button_users(offer, "Take") == sorted([bob.id, carol.id])
        taken = await (await fake.click(bob, offer, "Take")).public()
        assert "bob takes: the cube is at 2" in taken.text
        status = await private(await fake.slash(carol, "chouette status", channel=lounge))
        assert "Chouette (playing)" in status and "Game 1: box alice vs captain bob" in status
        assert host.storage is not None
        async with host.storage.snapshot() as tx:
            row = await tx.latest_match_in_channel(lounge)
            assert row is not None and (row.guild_id, row.place_kind) == (guild, "server")
        assert no_calls_on(fake, lounge) == [] and fake.refusals == []
    finally:
        await host.stop()

"""End to end: the real discord.py client (the project's bot and cogs) against a fake Discord.

The fake (tests/fake_discord.py) serves REST and the websocket gateway on
127.0.0.1; only ``Route.BASE`` and ``DiscordWebSocket.DEFAULT_GATEWAY`` are
redirected.  Errors logged by the bot or by discord.py fail the test (discord.py
only logs exceptions raised in commands and buttons).
"""

from __future__ import annotations

import asyncio
import copy
import functools
import io
import logging
import re
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import Any

import discord
import pytest
from discord_e2e import (
    TOKEN,
    Capture,
    Host,
    Script,
    assert_board_message,
    button_users,
    only_newest_has_buttons,
    posted_challenge,
    private,
    start_game,
    turn_of,
    users,
)
from fake_discord import EPHEMERAL, FakeDiscord, Interaction, Message
from PIL import Image

from bot.adapters.discord.cogs.reminders import ReminderCog
from bot.ai.runner import AIRunner
from bot.config import DiscordConfig, GameConfig

pytestmark = pytest.mark.e2e


async def test_full_match_from_challenge_to_leaderboard(fake: FakeDiscord, host: Host) -> None:
    alice, bob, carol = users(fake)
    bot = await host.start()
    assert bot.synced is True and len(fake.syncs) == 1
    names = {c["name"] for c in fake.syncs[0][1]}
    assert {"challenge", "accept", "decline", "roll", "move", "undo", "double", "take",
            "drop", "beaver", "resign", "board", "leaderboard", "stats", "export", "verify",
            "rules", "help"} <= names
    assert fake.tokens == [TOKEN] and fake.heartbeats >= 1

    board = await start_game(fake, alice, bob, length=1)
    assert "Opening throw" in board.embeds[0]["description"]
    by_id = {alice.id: alice, bob.id: bob}
    seen = 0
    for _ in range(400):
        text = board.text
        if "wins the 1-point match" in text:
            break
        rolling = "Roll" in board.labels()
        if rolling:
            (player,) = button_users(board, "Roll")
            record = await fake.click(by_id[player], board, "Roll")
        else:
            player = turn_of(board)
            plays = await fake.autocomplete(by_id[player], "move", "moves", "")
            assert 1 <= len(plays) <= 25
            record = await fake.slash(by_id[player], "move", moves=plays[0])
        board = await record.public()
        assert_board_message(board)
        # Only the newest board keeps buttons, whether the last action was a typed
        # command or a button (an older button could only answer "moved on").
        await fake.until(functools.partial(only_newest_has_buttons, fake, board))
        if rolling:  # the dice just rolled are always in the text
            assert re.search(rf"{by_id[player].name} rolled \d-\d", board.text), board.text
        seen += 1
    else:
        raise AssertionError("the game did not end")
    assert seen > 10
    assert "Dice seed of game 1" in board.text
    assert board.labels() == ["Rematch"]  # the one thing left to press (issue 19, item 10)
    _, alt = _picture(board, "-summary.png", "PNG")  # issue 18: the match summary
    assert alt.startswith("Summary of the match to 1: alice ")

    record = await fake.slash(carol, "leaderboard")
    table = (await record.public()).content
    assert "Leaderboard by rating" in table and "alice" in table and "bob" in table
    record = await fake.slash(alice, "stats", user=bob)
    assert "bob: rating" in (await record.public()).content
    record = await fake.slash(bob, "verify", game=1)
    assert "dice match the seed" in (await record.public()).content
    record = await fake.slash(carol, "export")
    exported = await record.public()
    ((name, data),) = exported.files.items()
    assert name.endswith(".mat") and b"1 point match" in data


async def test_double_taken_then_dropped_and_refusals(fake: FakeDiscord, tmp_path: Path,
                                                      logs: Capture) -> None:
    # alice opens with 3-1; bob doubles, alice takes; bob rolls 4-2;
    # alice redoubles, bob drops; the money game is settled and game 2 starts.
    h = Host(fake, tmp_path, Script([3, 1, 4, 2, 5, 2, 6, 3]))
    alice, bob, carol = users(fake)
    await h.start()
    try:
        board = await start_game(fake, alice, bob, stake=5)
        assert turn_of(board) == alice.id and "3-1" in board.text

        every = await fake.autocomplete(alice, "move", "moves", "")
        plays = await fake.autocomplete(alice, "move", "moves", "8/5")
        assert "8/5 6/5" in plays and len(plays) < len(every) <= 25
        assert "24/20" in every and "24/20" not in plays
        assert await fake.autocomplete(bob, "move", "moves", "") == []

        refused = await fake.slash(alice, "move", moves="24/1")
        assert (await refused.message()).flags & EPHEMERAL
        refused = await fake.slash(bob, "move", moves="13/10 13/12")
        assert "not your turn" in await private(refused)
        refused = await fake.slash(carol, "roll")
        assert "not playing" in await private(refused)

        record = await fake.slash(alice, "move", moves="8/5 6/5")
        board = await record.public()
        assert "alice plays 8/5 6/5" in board.text
        # alice may take her play back until bob acts (issue 19, item 8)
        assert board.labels() == ["Roll", "Double", "Take back"]
        assert button_users(board, "Take back") == [alice.id]
        assert button_users(board, "Double") == [bob.id]

        wrong = await fake.click(alice, board, "Double")
        assert f"Only <@{bob.id}> can press Double" in await private(wrong)

        record = await fake.click(bob, board, "Double")
        offer = await record.public()
        assert "bob doubles to 2" in offer.text
        assert sorted(offer.labels()) == ["Drop", "Take"]
        record = await fake.click(alice, offer, "Take")
        taken = await record.public()
        assert "alice takes: the cube is at 2" in taken.text
        assert "bob rolled 4-2" in taken.text and turn_of(taken) == bob.id  # rolls at once
        record = await fake.slash(bob, "move", moves="8/4 6/4")
        board = await record.public()
        assert "Double" in board.labels()
        seen_before = copy.deepcopy(board)  # as a client still showing it has it
        record = await fake.slash(alice, "double")
        offer = await record.public()
        assert "alice doubles to 4" in offer.text
        record = await fake.click(bob, offer, "Drop")
        settled = await record.public()
        assert "bob drops" in settled.text
        assert "alice wins a single game (double dropped): 2 points" in settled.text
        assert "alice +2, bob -2 points (+10 / -10 at 5 a point)" in settled.text
        assert "Game 2 begins" in settled.text
        assert len(settled.embeds) == 2  # the final board, then game 2's board
        assert_board_message(settled)

        # /double was typed: the board before it lost its buttons all the same...
        await fake.until(lambda: not board.components)
        # ...and a press that was already on its way is answered, not applied.
        stale = await fake.click(alice, seen_before, "Roll")
        assert "moved on" in await private(stale)
    finally:
        await h.stop()


async def test_buttons_survive_a_restart_and_sync_is_skipped(fake: FakeDiscord,
                                                             host: Host) -> None:
    alice, bob, _ = users(fake)
    await host.start()
    board = await start_game(fake, alice, bob, stake=1)
    player = turn_of(board)
    mover = alice if player == alice.id else bob
    plays = await fake.autocomplete(mover, "move", "moves", "")
    record = await fake.slash(mover, "move", moves=plays[0])
    board = await record.public()
    assert "Roll" in board.labels()
    await host.stop()

    await host.start()  # a new Bot instance on the same database
    assert host.bot is not None and host.bot.synced is False
    assert len(fake.syncs) == 1  # the command payload did not change
    (roller,) = button_users(board, "Roll")
    record = await fake.click(alice if roller == alice.id else bob, board, "Roll")
    rolled = await record.public()
    assert re.search(r"rolled \d-\d", rolled.text)
    assert_board_message(rolled)


async def test_missing_permissions_are_named(fake: FakeDiscord, host: Host) -> None:
    alice, bob, _ = users(fake)
    await host.start()
    await start_game(fake, alice, bob, stake=1)
    no_files = discord.Permissions.all()
    no_files.attach_files = False
    record = await fake.slash(alice, "board", app_permissions=no_files.value)
    assert "Attach Files" in await private(record)


async def test_game_in_a_thread(fake: FakeDiscord, host: Host) -> None:
    alice, bob, carol = users(fake)
    await host.start(replace(host.config, discord=DiscordConfig(use_threads=True)))
    record = await fake.slash(alice, "challenge", opponent=bob, length=3)
    note = await private(record)
    thread_id = int(re.search(r"<#(\d+)>", note)[1])  # type: ignore[index]
    assert fake.channels[thread_id]["type"] == 11
    (challenge,) = fake.channel_messages(thread_id)
    assert bob.mention in challenge.content
    accepted = await fake.click(bob, challenge, "Accept")
    board = await accepted.public()
    assert board.channel_id == thread_id
    assert_board_message(board)
    record = await fake.slash(alice, "board", channel=thread_id)
    assert_board_message(await record.public())
    # Issue 16 item 9: typed in the parent channel, /board points to the thread.
    record = await fake.slash(alice, "board")
    assert await private(record) == f"Your game with bob is played in its thread: <#{thread_id}>"
    record = await fake.slash(carol, "board")  # a spectator has no game of his own there
    assert "no game in this channel" in await private(record)


async def test_accept_typed_in_the_parent_channel_of_the_thread(
        fake: FakeDiscord, host: Host) -> None:
    # Issue 16 item 9: bob answers /accept where the challenge was typed, not in its thread.
    alice, bob, _ = users(fake)
    await host.start(replace(host.config, discord=DiscordConfig(use_threads=True)))
    note = await private(await fake.slash(alice, "challenge", opponent=bob, length=3))
    thread_id = int(re.search(r"<#(\d+)>", note)[1])  # type: ignore[index]
    record = await fake.slash(bob, "accept")  # in the parent channel
    assert await private(record) == f"Done in <#{thread_id}>."
    posted = fake.channel_messages(thread_id)[-1]
    assert_board_message(posted)  # the game's first board, in the thread
    assert "to play" in posted.content
    # Nothing public in the parent: only the two private answers (flags 64: ephemeral).
    assert all(m.flags == 64 for m in fake.channel_messages(fake.channel_id))


async def test_no_thread_permission_plays_in_the_channel(fake: FakeDiscord, host: Host) -> None:
    alice, bob, _ = users(fake)
    await host.start(replace(host.config, discord=DiscordConfig(use_threads=True),
                             game=GameConfig()))
    perms = discord.Permissions.all()
    perms.create_public_threads = False
    record = await fake.slash(alice, "challenge", opponent=bob, app_permissions=perms.value)
    message = await posted_challenge(fake, record)
    assert "Create Public Threads" in message.content
    assert message.channel_id == fake.channel_id


async def test_resignation_decline_cancel_help_and_rules(fake: FakeDiscord, host: Host) -> None:
    alice, bob, carol = users(fake)
    await host.start()
    record = await fake.slash(alice, "challenge", opponent=bob, length=3, jacoby=True)
    assert "Jacoby rule applies to money play only" in await private(record)
    record = await fake.slash(alice, "challenge", opponent=bob, stake=3, jacoby=True,
                              beavers=True, scoring="games")
    challenge = await posted_challenge(fake, record)
    assert "Jacoby rule (money play): on" in challenge.content
    assert "beavers: on" in challenge.content
    refused = await fake.click(carol, challenge, "Decline")
    assert f"Only <@{bob.id}> can press Decline" in await private(refused)
    declined = await fake.click(bob, challenge, "Decline")
    assert "bob declines the challenge" in (await declined.public()).content

    record = await fake.slash(alice, "challenge", opponent=bob)
    challenge = await posted_challenge(fake, record)
    record = await fake.slash(alice, "cancel")
    assert "alice withdraws the challenge" in (await record.public()).content

    await start_game(fake, alice, bob, stake=2)
    record = await fake.slash(bob, "resign", kind="gammon")
    offer = await record.public()
    assert "bob offers to resign a gammon" in offer.text
    assert sorted(offer.labels()) == ["Accept resignation", "Reject resignation"]
    assert button_users(offer, "Accept resignation") == [alice.id]
    accepted = await fake.click(alice, offer, "Accept resignation")
    over = await accepted.public()
    assert "alice accepts the resignation" in over.text and "Game 2 begins" in over.text
    assert_board_message(over)

    record = await fake.slash(carol, "help")
    text = await private(record)
    assert "/challenge" in text and "/move" in text and "/leaderboard" in text
    assert "taken back (`/undo`) until the opponent rolls" in text  # issue 30 item 17
    record = await fake.slash(carol, "rules", variant="standard")
    assert await private(record)


async def test_unexpected_error_is_logged_and_apologised(fake: FakeDiscord, host: Host,
                                                         logs: Capture,
                                                         monkeypatch: pytest.MonkeyPatch,
                                                         ) -> None:
    alice, bob, _ = users(fake)
    bot = await host.start()
    await start_game(fake, alice, bob, stake=1)

    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the database caught fire")

    monkeypatch.setattr(bot.service.watch, "board", broken)
    record = await fake.slash(alice, "board")
    assert "Sorry, something went wrong" in await private(record)
    errors = [r for r in logs.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and errors[0].exc_info is not None
    assert "the database caught fire" in logs.format(errors[0])
    logs.records.remove(errors[0])  # expected: the fixture fails on any other error


async def test_slow_service_calls_are_deferred(fake: FakeDiscord, host: Host,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    alice, bob, _ = users(fake)
    bot = await host.start()
    await start_game(fake, alice, bob, stake=1)
    real_board = bot.service.watch.board

    async def slow(*args: object, **kwargs: object) -> object:
        await asyncio.sleep(0.3)
        return await real_board(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(bot.service.watch, "board", slow)
    monkeypatch.setattr(bot.presenter, "defer_after", 0.05)
    record = await fake.slash(bob, "board")
    assert await record.acknowledged() == 5  # deferred ("thinking"), privately
    assert record.answer_time is not None and record.answer_time < 0.3
    board = await record.public()
    assert_board_message(board)
    refused = await fake.slash(alice, "roll")  # refusals stay private when deferred too
    assert await refused.acknowledged() == 4


async def test_idle_player_is_reminded(fake: FakeDiscord, host: Host) -> None:
    alice, bob, _ = users(fake)
    bot = await host.start()
    board = await start_game(fake, alice, bob, stake=1)
    waiting = turn_of(board)
    # load_extension imports the cog module afresh, so compare by name, not class
    cog: Any = bot.get_cog("ReminderCog")
    assert type(cog).__name__ == ReminderCog.__name__
    assert await cog.send_reminders() == 0
    host.offset = timedelta(hours=2)  # the game has been idle for two hours
    assert await cog.send_reminders() == 1
    assert await cog.send_reminders() == 0  # once per state of the match
    reminder = fake.channel_messages(fake.channel_id)[-1]
    assert reminder.content.startswith(f"<@{waiting}>, it's your turn here")


def _picture(message: Message, suffix: str, fmt: str) -> tuple[Image.Image, str]:
    """The one attachment of ``message`` named ``*suffix``, opened by Pillow, and its
    description (the alt text)."""
    (name,) = [n for n in message.files if n.endswith(suffix)]
    image = Image.open(io.BytesIO(message.files[name]))
    image.load()
    assert image.format == fmt
    return image, message.descriptions.get(name, "")


async def analysis(fake: FakeDiscord, record: Interaction) -> Message:
    """/analyze's result: its public answer, or, when the work took more than a moment,
    the channel message that follows the private "Analysing..." (issue 29, item 2)."""
    await record.acknowledged()
    head = f"{record.user.mention}: the result you asked for is ready."
    await fake.until(lambda: any(not m.ephemeral for m in record.messages) or any(
        m.content.startswith(head) for m in fake.channel_messages(record.channel_id)))
    answers = [m for m in record.messages if not m.ephemeral] + [
        m for m in fake.channel_messages(record.channel_id) if m.content.startswith(head)]
    return answers[0]


async def test_replay_analyze_and_stats_answer_with_pictures(fake: FakeDiscord,
                                                             tmp_path: Path) -> None:
    """Issue 18: /replay, /analyze and /stats through Discord attach a picture Pillow
    can open, with its text alternative as the attachment's description."""
    # A 3-point match: bob opens 3-1, alice doubles, bob drops; game 2 begins.
    h = Host(fake, tmp_path, Script([1, 3, 1, 3]))
    h.ai = AIRunner(processes=False, time_limit=20.0)
    await h.ai.start()
    alice, bob, carol = users(fake)
    await h.start()
    try:
        names = {c["name"]: c for c in fake.syncs[0][1]}
        assert "replay" in names
        assert {o["name"] for o in names["analyze"]["options"]} == {"game", "match", "depth"}
        await start_game(fake, alice, bob, length=3)
        await (await fake.slash(bob, "move", moves="8/5 6/5")).public()
        await (await fake.slash(alice, "double")).public()
        dropped = await (await fake.slash(bob, "drop")).public()
        assert "Game 2 begins" in dropped.text

        replay = await (await fake.slash(carol, "replay", game=1)).public()
        assert "Replay of game 1" in replay.content
        image, alt = _picture(replay, "-replay.gif", "GIF")
        assert getattr(image, "n_frames", 1) == 1 + 2 + 1  # a play, double, drop, result
        assert alt.startswith("Replay of the game between alice and bob: 1 play, 2 cube")
        missing = await fake.slash(carol, "replay", game=5)
        assert "There is no game 5" in await private(missing)

        analysed = await analysis(fake, await fake.slash(alice, "analyze", game=1))
        assert "Analysis of game 1" in analysed.text
        assert "played at alice 0, bob 0 in a match to 3" in analysed.text
        chart, alt = _picture(analysed, "-analysis.png", "PNG")
        assert chart.width > 300 and alt.startswith("Analysis graph for alice against bob")
        assert len(analysed.embeds) == len([n for n in analysed.files
                                            if n.startswith("board-")]) >= 1
        for embed in analysed.embeds:
            assert "Match ID: " in embed["footer"]["text"]
        running = await fake.slash(alice, "analyze", game=2)
        assert "Game 2 is still being played" in await private(running)

        stats = await (await fake.slash(carol, "stats", user=bob)).public()
        assert "bob: rating" in stats.content
        card, alt = _picture(stats, "-card.png", "PNG")
        assert card.width > 300 and alt.startswith("Player card of bob")
    finally:
        await h.stop()
        h.ai.close()


async def test_the_draft_the_stage_and_the_match_id_are_shown(fake: FakeDiscord,
                                                             tmp_path: Path) -> None:
    """Issue 19, items 2 and 3: a play entered in part is drawn (its Position ID in the
    footer, the board picture changed), the Match ID says who is on roll with which dice
    at which score, and a variant's second stage names the dice owed."""
    from engine.gnubgid import decode_match_id, decode_position_id
    from engine.player import Player

    h = Host(fake, tmp_path, Script([3, 2]))
    alice, bob, _ = users(fake)
    await h.start()
    try:
        board = await start_game(fake, alice, bob, length=3)
        before = board.embeds[-1]["footer"]["text"]
        before_png = list(board.files.values())[-1]
        record = await fake.slash(alice, "move", moves="13/10")
        drafted = await record.public()
        assert_board_message(drafted)
        assert "alice has played 13/10 so far" in drafted.text
        footer = drafted.embeds[-1]["footer"]["text"]
        position_id, match_id = re.fullmatch(
            r"Position ID: (\S+) · Match ID: (\S+)", footer).groups()  # type: ignore[union-attr]
        assert footer != before and list(drafted.files.values())[-1] != before_png
        drawn = decode_position_id(position_id, Player.WHITE)
        assert drawn.sides[Player.WHITE][10] == 1 and drawn.sides[Player.WHITE][13] == 4
        state = decode_match_id(match_id)
        assert (state.match_length, state.score, state.dice) == (3, (0, 0), (3, 2))
        assert state.on_roll is Player.WHITE
        assert "Undo" in drafted.labels()

    finally:
        await h.stop()


async def test_a_variant_s_second_stage_names_the_dice_owed(fake: FakeDiscord,
                                                           tmp_path: Path) -> None:
    # 003 ch.12 (Acey-Deucey): a doublet is played on both sides: four 3s, then four 4s.
    h = Host(fake, tmp_path, Script([6, 5, 1, 2, 3, 3]))
    alice, bob, _ = users(fake)
    await h.start()
    try:
        record = await fake.slash(alice, "challenge", opponent=bob, variant="acey-deucey-1930")
        challenge = await posted_challenge(fake, record)
        board = await (await fake.click(bob, challenge, "Accept")).public()
        assert f"<@{alice.id}> to play 3-3." in board.content
        record = await fake.slash(alice, "move", moves="in/22(4)")
        board = await record.public()
        assert (f"<@{alice.id}> to play 4-4 (the reverse side, four 4s, owed after the 3-3)."
                in board.content)
        refused = await fake.slash(alice, "move", moves="in/22(4)")
        assert "Now you play 4-4 (the reverse side" in await private(refused)
        roll = await fake.slash(alice, "roll")
        assert "play 4-4 (the reverse side" in await private(roll)
    finally:
        await h.stop()


async def test_rematch_and_forfeit_confirmation(fake: FakeDiscord, tmp_path: Path) -> None:
    """Issue 19, items 9 and 10: /forfeit asks first; the match's last board has a Rematch
    button for both players, which challenges again with the same terms."""
    h = Host(fake, tmp_path, Script([3, 1, 3, 1]))
    alice, bob, _ = users(fake)
    await h.start()
    try:
        await start_game(fake, alice, bob, length=3)
        asked = await fake.slash(bob, "forfeit")
        assert "/forfeit confirm" in await private(asked)
        record = await fake.slash(bob, "forfeit", confirm=True)
        ended = await record.public()
        assert "alice wins the match by forfeit" in ended.text
        assert ended.labels() == ["Rematch"]
        assert sorted(button_users(ended, "Rematch")) == sorted([alice.id, bob.id])
        record = await fake.click(bob, ended, "Rematch")
        again = await posted_challenge(fake, record)
        assert "bob challenges alice to a 3-point match" in again.content
        assert button_users(again, "Accept") == [alice.id]
    finally:
        await h.stop()

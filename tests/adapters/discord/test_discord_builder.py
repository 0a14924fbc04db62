"""The move builder and the live board end to end (issue 31): the real discord.py client
against the fake Discord on 127.0.0.1.

Every message the bot sends or edits is checked against Discord's limits
(tests/support/discord_limits.py); the fake fails a test whose interaction was not
answered within 3 seconds.
"""

from __future__ import annotations

import asyncio
import copy
import random
import re
from dataclasses import replace
from pathlib import Path

import pytest
from discord_e2e import (
    Host,
    Script,
    button_users,
    pngs,
    posted_challenge,
    private,
    start_game,
    turn_of,
    users,
)
from discord_limits import discord_limits
from fake_discord import EPHEMERAL, FakeDiscord, Interaction, Message, User
from scripted import Script as Dice

from bot.adapters.discord.live import LiveBoards
from bot.config import DiscordConfig

pytestmark = pytest.mark.e2e
__all__ = ["discord_limits"]  # the fixture, used by name

BUILDER_BUTTONS = ("Undo step", "Start over", "Confirm")


def boards(fake: FakeDiscord, channel: int | None = None) -> list[Message]:
    """The public board messages of a channel, oldest first."""
    return [m for m in fake.channel_messages(channel or fake.channel_id)
            if not m.ephemeral and any(n.startswith("board-") for n in m.files)]


def newest_board(fake: FakeDiscord, channel: int | None = None) -> Message:
    return boards(fake, channel)[-1]


class Taps:
    """Plays a match with buttons and menus only, noting what it met."""

    def __init__(self, fake: FakeDiscord, players: list[User], seed: int,
                 channel: int | None = None, *, live: LiveBoards | None = None) -> None:
        self.fake = fake
        self.live = live
        self.whole = 0.15
        """How often a whole play is picked when the menu of whole plays is there."""
        self.by_id = {u.id: u for u in players}
        self.rng = random.Random(seed)
        self.channel = channel or fake.channel_id
        self.seen: dict[str, int] = {"picks": 0, "doublets": 0, "bear-offs": 0, "hits": 0,
                                     "whole plays": 0, "stages": 0, "choices": 0,
                                     "builders": 0, "reverse sides": 0, "doublets named": 0}

    async def settle(self) -> None:
        """Wait until every interaction so far is answered and nothing is loading."""
        live = self.live
        for _ in range(1000):  # (an edit's task ends after its last request: polled)
            if (all(r.callbacks for r in self.fake.interactions.values())
                    and not any(m.loading for m in self.fake.messages.values())
                    and (live is None or not live.drawing)):
                if live is not None:  # one pending turn mention at a time
                    assert len(turn_mentions(self.fake, self.channel)) <= 1
                return
            await asyncio.sleep(0.01)
        raise AssertionError("the bot never settled")

    async def build(self, user: User, board: Message) -> None:
        """Press Play and pick steps until the builder closes."""
        opened = await self.fake.click(user, board, "Play")
        assert await opened.acknowledged() == 5, (await opened.message()).text
        builder = await opened.message()
        assert builder.flags & EPHEMERAL and builder.interaction_id == opened.id
        self.seen["builders"] += 1
        stage_texts: set[str] = set()
        for _ in range(200):
            assert builder.ephemeral
            menus = builder.menus()
            if not menus and not builder.labels():
                return  # closed: the play is made and the turn is over
            description = builder.embeds[0]["description"]
            stage_texts.add(re.sub(r"\n.*", "", description.split("you play ")[-1],
                                   flags=re.S))
            self.seen["stages"] = max(self.seen["stages"], len(stage_texts))
            self.seen["reverse sides"] += "(the reverse side" in description
            choices = [b for b in builder.labels() if b not in BUILDER_BUTTONS]
            before = builder.edits
            if choices:  # a variant's choice, as buttons of the builder
                self.seen["doublets named"] += "name any doublet" in description
                record = await self.fake.click(user, builder, self.rng.choice(choices))
            else:
                assert builder.embeds[0]["image"]["url"] == "attachment://draft.png"
                (picture,) = pngs(builder)
                assert picture.width > 300
                steps = [m for m in menus if m["placeholder"].startswith("Play")]
                whole = [m for m in menus if m["placeholder"].startswith("Or")]
                menu = self.rng.choice(whole if whole and (
                    not steps or self.rng.random() < self.whole) else steps)
                label = self.rng.choice(menu["options"])["label"]
                if menu in whole:
                    self.seen["whole plays"] += 1
                if "left)" in menu["placeholder"]:
                    self.seen["doublets"] += 1
                self.seen["bear-offs"] += "off" in label
                self.seen["hits"] += "*" in label
                self.seen["picks"] += 1
                record = await self.fake.select(user, builder, menu["placeholder"], label)
            assert await record.acknowledged() == 6  # the builder is edited in place
            await self.fake.until(lambda edits=before: builder.edits > edits)
            await self.settle()
        raise AssertionError("the builder never closed")

    async def play_match(self, limit: int = 1000) -> Message:
        """Roll, build and choose until the match is won; the last board."""
        for _ in range(limit):
            await self.settle()
            board = newest_board(self.fake, self.channel)
            if "wins the 1-point match" in board.text:
                return board
            labels = board.labels()
            if "Play" in labels:
                (uid,) = button_users(board, "Play")
                await self.build(self.by_id[uid], board)
            elif "Roll" in labels:
                (uid,) = button_users(board, "Roll")
                record = await self.fake.click(self.by_id[uid], board, "Roll")
                await self.answered(record, board)
            else:
                choices = [b for b in labels if b not in ("Take back", "Double")]
                assert choices, (board.text, labels)
                pick = self.rng.choice(choices)
                (uid,) = button_users(board, pick)
                self.seen["choices"] += 1
                record = await self.fake.click(self.by_id[uid], board, pick)
                await self.answered(record, board)
        raise AssertionError("the match did not end")

    async def answered(self, record: Interaction, board: Message) -> None:
        """A button of the board was pressed: wait for the new state (a new board, or the
        live board drawn again with its buttons)."""
        assert await record.acknowledged() == 7
        if self.live is None:
            await record.public()
        await self.settle()


@pytest.mark.slow
async def test_a_whole_match_played_by_taps(fake: FakeDiscord, tmp_path: Path,
                                            discord_limits: list[str]) -> None:
    # Board mode 'auto' in a shared channel: a new board after every play.
    host = Host(fake, tmp_path, Dice(then="9e3779b97f4a7c15f39cc0605cedc834"))
    alice, bob, _ = users(fake)
    await host.start()
    try:
        await start_game(fake, alice, bob, length=1)
        taps = Taps(fake, [alice, bob], seed=31)
        last = await taps.play_match()
        seen = taps.seen
        assert seen["builders"] > 10 and seen["picks"] > 30
        assert seen["doublets"] and seen["bear-offs"] and seen["hits"], seen
        assert last.labels() == ["Rematch"]
        assert len(boards(fake)) > seen["builders"]  # 'new': a board per action
        typed = [r for r in fake.interactions.values() if r.type == 2]
        assert len(typed) == 1  # /challenge: everything else was a tap
    finally:
        await host.stop()


@pytest.mark.slow
async def test_a_variant_game_by_taps_on_a_live_board(fake: FakeDiscord, tmp_path: Path,
                                                       discord_limits: list[str]) -> None:
    # Acey-Deucey (1930 rules, 003 ch.12): both sides of every doublet, the doublet named
    # after acey-deucy -- with the live board: one board message, edited.
    host = Host(fake, tmp_path, Dice(
        [6, 5, 1, 2], then="196115ac469d88bd77022cf950df30bf16dc6d4a2960d01f601d6024210b0375"))
    alice, bob, _ = users(fake)
    await host.start(replace(host.config, discord=DiscordConfig(use_threads=False,
                                                                board_mode="live")))
    assert host.bot is not None and host.bot.presenter.live is not None
    host.bot.presenter.live.min_interval = 0.0
    try:
        record = await fake.slash(alice, "challenge", opponent=bob, length=1,
                                  variant="acey-deucey-1930")
        challenge = await posted_challenge(fake, record)
        await (await fake.click(bob, challenge, "Accept")).public()
        taps = Taps(fake, [alice, bob], seed=7, live=host.bot.presenter.live)
        taps.whole = 0.5  # (a long game: half the time the whole play, from its menu)
        last = await taps.play_match()
        seen = taps.seen
        assert seen["stages"] >= 2 and seen["doublets"] and seen["bear-offs"], seen
        assert seen["reverse sides"] and seen["doublets named"], seen
        (board,) = boards(fake)  # one board message for the game, edited in place
        assert board is last and board.edits > 20
        assert "wins the 1-point match" in board.text and board.labels() == ["Rematch"]
        assert not turn_mentions(fake)  # the game is over: no one is waiting
    finally:
        await host.stop()


def turn_mentions(fake: FakeDiscord, channel: int | None = None) -> list[Message]:
    """The live board's short messages mentioning the player to act."""
    return [m for m in fake.channel_messages(channel or fake.channel_id)
            if not m.ephemeral and "(board: https://discord.com/channels/" in m.content]


async def test_the_builder_s_refusals(fake: FakeDiscord, host: Host,
                                      discord_limits: list[str]) -> None:
    alice, bob, _ = users(fake)
    host.dice = Script([6, 1, 3, 1])
    await host.start()
    board = await start_game(fake, alice, bob, length=3)
    assert turn_of(board) == alice.id and button_users(board, "Play") == [alice.id]
    refused = await fake.click(bob, board, "Play")
    assert f"Only <@{alice.id}> can press Play" in await private(refused)

    first = await (await fake.click(alice, board, "Play")).message()
    second = await (await fake.click(alice, board, "Play")).message()
    assert first.menus() == second.menus()
    assert [m["placeholder"] for m in first.menus()] == ["Play the 6", "Play the 1",
                                                         "Or the whole play"]
    assert [o["label"] for o in first.menu("Play the 6")["options"]] == [
        "24 → 18", "13 → 7", "8 → 2"]
    picked = await fake.select(alice, first, "Play the 6", "13 → 7")
    assert await picked.acknowledged() == 6
    await fake.until(lambda: "So far: 13 → 7." in first.embeds[0]["description"])
    assert first.labels() == ["Undo step", "Start over"]
    assert [m["placeholder"] for m in first.menus()] == ["Play the 1", "Or the whole play"]
    assert newest_board(fake) is board  # a step is private: nothing new for the table

    # the other builder is out of date: refused, and shown as the game stands now
    before = second.edits
    stale = await fake.select(alice, second, "Play the 6", "24 → 18")
    assert await stale.acknowledged() == 6
    await fake.until(lambda: second.edits > before)
    text = second.embeds[0]["description"]
    assert "moved on" in text and "So far: 13 → 7." in text

    # someone else's pick on alice's builder (a client showing it) is refused privately
    wrong = await fake.select(bob, first, "Play the 1", "8 → 7")
    assert "This move builder is" in await private(wrong)

    before = first.edits
    undone = await fake.click(alice, first, "Undo step")
    assert await undone.acknowledged() == 6
    await fake.until(lambda: first.edits > before)
    assert "Undone 13/7" in first.embeds[0]["description"]
    assert first.labels() == []

    old_client = copy.deepcopy(board)  # as a client still showing it has it
    before = first.edits
    whole = await fake.select(alice, first, "Or the whole play", "13 → 7, 8 → 7")
    made = await whole.public()  # the play is made: the table sees the new board
    assert "alice plays 13/7 8/7." in made.text and "Roll" in made.labels()
    await fake.until(lambda: first.edits > before and not first.components)
    assert "alice plays 13/7 8/7." in first.embeds[0]["description"]
    assert board.components == []  # the older board lost its buttons

    # a Play button of a turn that is over
    pressed = await fake.click(alice, old_client, "Play")
    assert "moved on" in await private(pressed)


async def test_a_live_board_edits_one_message_and_keeps_one_mention(
        fake: FakeDiscord, host: Host, discord_limits: list[str]) -> None:
    alice, bob, _ = users(fake)
    host.dice = Dice(then="9e3779b97f4a7c15f39cc0605cedc834")
    await host.start(replace(host.config, discord=DiscordConfig(use_threads=True)))
    assert host.bot is not None and host.bot.presenter.live is not None
    host.bot.presenter.live.min_interval = 0.0
    note = await private(await fake.slash(alice, "challenge", opponent=bob, length=1))
    thread = int(re.search(r"<#(\d+)>", note)[1])  # type: ignore[index]
    (challenge,) = fake.channel_messages(thread)
    accepted = await fake.click(bob, challenge, "Accept")
    board = await accepted.public()  # 'auto' in a game's thread: the live board
    assert board.channel_id == thread and "to play" in board.content
    by_id = {alice.id: alice, bob.id: bob}
    actions = 0
    for _ in range(400):
        if "wins the 1-point match" in board.text:
            break
        version = board.custom_ids()
        if "Roll" in board.labels():
            (uid,) = button_users(board, "Roll")
            record = await fake.click(by_id[uid], board, "Roll")
            assert await record.acknowledged() == 7  # buttons off until it is drawn again
        else:
            uid = turn_of(board) if "to play" in board.content else next(
                int(u) for u in re.findall(r"<@(\d+)>", board.content))
            plays = await fake.autocomplete(by_id[uid], "move", "moves", "", channel=thread)
            record = await fake.slash(by_id[uid], "move", moves=plays[0], channel=thread)
            assert (await record.message()).ephemeral  # a private "done" for the mover
        actions += 1
        await fake.until(lambda shown=version: (board.components and board.custom_ids() != shown)
                         or "wins the" in board.text)
        await fake.until(lambda: len(turn_mentions(fake, thread)) == 1
                         or "wins the" in board.text)
        assert len(turn_mentions(fake, thread)) <= 1  # one pending mention at a time
        assert boards(fake, thread) == [board]  # one board message for the game
    else:
        raise AssertionError("the game did not end")
    assert actions > 10 and board.edits >= actions
    await fake.until(lambda: not turn_mentions(fake, thread))
    assert len(fake.deleted) >= actions - 1  # every older mention went


async def test_quick_actions_are_drawn_in_one_edit(fake: FakeDiscord, host: Host,
                                                   discord_limits: list[str]) -> None:
    alice, bob, carol = users(fake)
    host.dice = Script([6, 1, 3, 1, 5, 2])
    await host.start(replace(host.config, discord=DiscordConfig(use_threads=False,
                                                                board_mode="live")))
    assert host.bot is not None and host.bot.presenter.live is not None
    live = host.bot.presenter.live
    live.min_interval = 1.5
    board = await start_game(fake, alice, bob, length=3)
    assert live.edits == 0
    moved = await fake.slash(alice, "move", moves="13/7 8/7")
    assert (await moved.message()).ephemeral
    await fake.until(lambda: live.edits == 1)  # the first edit comes at once
    assert "alice plays 13/7 8/7" in board.text
    rolled = await fake.click(bob, board, "Roll")
    assert await rolled.acknowledged() == 7  # (the pressed buttons go at once)
    bob_moved = await fake.slash(bob, "move", moves="8/5 6/5")
    assert (await bob_moved.message()).ephemeral
    assert live.edits == 1 and "alice plays" in board.text  # within the interval: waiting
    await fake.until(lambda: live.edits == 2)
    assert "bob plays 8/5 6/5" in board.text and f"<@{alice.id}>" in board.content
    assert "Roll" in board.labels()
    await asyncio.sleep(0.2)
    assert live.edits == 2  # the roll and the play: one edit
    (mention,) = turn_mentions(fake)
    assert mention.content.startswith(f"It's <@{alice.id}>'s turn: roll or double.")
    assert mention.content.endswith(f"/{fake.channel_id}/{board.id})")  # a link to the board

    # /board posts the board anew at the bottom: the old message goes, the mention too
    looked = await fake.slash(carol, "board")
    again = await looked.public()
    await fake.until(lambda: board.id in fake.deleted and not turn_mentions(fake))
    assert boards(fake) == [again]
    assert live.showing(fake.channel_id) == again.id
    rolled = await fake.click(alice, again, "Roll")
    assert await rolled.acknowledged() == 7
    await fake.until(lambda: live.edits == 3)
    assert "alice rolled 5-2" in again.text and boards(fake) == [again]

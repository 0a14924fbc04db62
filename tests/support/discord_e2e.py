"""The fake Discord harness of the end-to-end tests: fixtures (a fake Discord on
127.0.0.1, the bot's logs, a bot host) and helpers to read its messages."""

from __future__ import annotations

import asyncio
import io
import itertools
import logging
import re
from collections.abc import AsyncIterator, Callable, Iterable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import discord
import pytest
import yarl
from fake_discord import EPHEMERAL, FakeDiscord, Interaction, Message, User
from PIL import Image
from scripted import Script as ScriptedDice

from bot.adapters.discord.app import BackgammonBot
from bot.ai.runner import AIRunner
from bot.config import Config, DiscordConfig, StorageConfig
from bot.service.core import fairdice
from bot.service.game import GameService
from bot.storage.sqlite import SqliteStorage

TOKEN = "fake.bot-token.SECRET-do-not-log"
BOARD_WIDTH = 800


def Script(dice: Iterable[int] = ()) -> ScriptedDice:
    """Scripted dice, then an endless fixed sequence (e2e games run as long as they need)."""
    return ScriptedDice(dice, then="3a91f07c5e2d84b6")


class Capture(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []
        self.setFormatter(logging.Formatter("%(name)s %(levelname)s %(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def text(self) -> str:
        return "\n".join(self.format(r) for r in self.records)


@pytest.fixture
def logs() -> Iterator[Capture]:
    """Every log record during the test; errors fail it, and the token must not appear."""
    capture = Capture()
    root = logging.getLogger()
    chatty = logging.getLogger("discord")  # its debug logs show what is sent and received
    old = root.level, chatty.level
    root.addHandler(capture)
    root.setLevel(logging.INFO)
    chatty.setLevel(logging.DEBUG)
    try:
        yield capture
    finally:
        root.removeHandler(capture)
        root.setLevel(old[0])
        chatty.setLevel(old[1])
    errors = [capture.format(r) for r in capture.records if r.levelno >= logging.ERROR]
    assert not errors, "errors were logged:\n" + "\n".join(errors)
    assert TOKEN not in capture.text()


@pytest.fixture
async def fake(monkeypatch: pytest.MonkeyPatch, logs: Capture) -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord()
    await server.start()
    monkeypatch.setattr(discord.http.Route, "BASE", server.api)
    monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY",
                        yarl.URL(server.gateway))
    try:
        yield server
    finally:
        await server.stop()
    assert not server.unknown, f"the bot called unknown routes: {server.unknown}"
    assert not server.hygiene, f"beyond Discord's docs: {server.hygiene}"
    assert not server.late_answers(), server.late_answers()


class Host:
    """Starts and stops the project's bot on one database, against the fake."""

    def __init__(self, fake: FakeDiscord, tmp_path: Path,
                 dice: Callable[[str, int], fairdice.DiceStream]) -> None:
        self.fake = fake
        self.db = tmp_path / "bg.sqlite3"
        self.config = Config(discord=DiscordConfig(use_threads=False),
                             storage=StorageConfig(database=str(self.db)))
        self.dice = dice
        self.bot: BackgammonBot | None = None
        self.task: asyncio.Task[None] | None = None
        self.storage: SqliteStorage | None = None
        self.offset = timedelta(0)
        """How far the service's clock runs ahead of the real one."""
        self.ai: AIRunner | None = None
        """The AI the service gets (None: none, as by default)."""
        self.storage_factory: Callable[[Path], SqliteStorage] = SqliteStorage
        """Makes the storage on the database file (a slow one: tests/support/slow_storage.py)."""

    async def start(self, config: Config | None = None) -> BackgammonBot:
        if config is not None:
            self.config = config
        self.storage = self.storage_factory(self.db)
        await self.storage.open()
        seeds = (f"{n:064x}" for n in itertools.count(1))
        service = GameService(self.storage, self.config, dice=self.dice,
                              dice_seed=lambda: next(seeds),
                              clock=lambda: datetime.now(UTC) + self.offset, ai=self.ai)
        bot = BackgammonBot(self.config, service=service, guild_ready_timeout=0.05)
        self.bot = bot
        self.task = asyncio.create_task(bot.start(TOKEN))
        ready = asyncio.create_task(bot.wait_until_ready())
        done, _ = await asyncio.wait({self.task, ready}, timeout=15,
                                     return_when=asyncio.FIRST_COMPLETED)
        if ready not in done:
            ready.cancel()
            if self.task in done:
                self.task.result()
            raise AssertionError("the bot did not become ready")
        await self.fake.connected()
        return bot

    async def stop(self) -> None:
        if self.bot is not None:
            await self.bot.close()
        if self.task is not None:
            await asyncio.wait_for(self.task, 10)
        if self.storage is not None:
            await self.storage.close()
        self.bot = self.task = self.storage = None


@pytest.fixture
async def host(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[Host]:
    h = Host(fake, tmp_path, fairdice.SeededDice)  # real dice from fixed seeds
    try:
        yield h
    finally:
        await h.stop()


def users(fake: FakeDiscord) -> tuple[User, User, User]:
    return fake.user("alice"), fake.user("bob"), fake.user("carol")


def pngs(message: Message, only: Iterable[str] | None = None) -> list[Image.Image]:
    """The PNG images attached to ``message`` (those named in ``only``, if given)."""
    images: list[Image.Image] = []
    for name, data in message.files.items():
        if only is not None and name not in only:
            continue
        assert name.endswith(".png")
        image = Image.open(io.BytesIO(data))
        image.load()
        assert image.format == "PNG"
        images.append(image)
    return images


def assert_board_message(message: Message) -> None:
    """An embed per board, each showing its attached PNG, with the GNU IDs in the footer.
    Any other file is a picture (a match summary: issue 18) with its alt text."""
    assert not message.ephemeral
    assert message.embeds, message
    boards = [n for n in message.files if n.startswith("board-")]
    for name in message.files:
        assert name in boards or message.descriptions.get(name), (name, message.descriptions)
    images = pngs(message, boards)
    assert len(images) == len(message.embeds)
    for embed, (name, image) in zip(message.embeds, zip(boards, images, strict=True),
                                    strict=True):
        assert embed["image"]["url"] == f"attachment://{name}"
        assert image.width == BOARD_WIDTH and 300 < image.height < 1000
        assert re.fullmatch(r"Position ID: \S{14} · Match ID: \S{12}", embed["footer"]["text"])


def turn_of(message: Message) -> int:
    found = re.search(r"<@(\d+)> to play", message.content)
    assert found, message.content
    return int(found[1])


def button_users(message: Message, label: str) -> list[int]:
    users_part = message.button(label)["custom_id"].split(":")[4]
    return [int(u) for u in users_part.split(".") if u]


async def private(record: Interaction) -> str:
    """The text of the private (ephemeral) answer: its content and embed descriptions."""
    message = await record.message()
    assert message.flags & EPHEMERAL, message
    return message.text


async def posted_challenge(fake: FakeDiscord, record: Interaction) -> Message:
    """The public message of a challenge (``/challenge``, ``/rematch`` or the Rematch
    button) once its buttons are on: it is posted without them, and they come once the
    service has noted the message (bot/adapters/discord/posted.py)."""
    challenge = await record.public()
    await fake.until(lambda: challenge.labels() == ["Accept", "Decline"])
    return challenge


async def start_game(fake: FakeDiscord, alice: User, bob: User, **terms: int) -> Message:
    """alice challenges bob, bob accepts with the button; the first board."""
    record = await fake.slash(alice, "challenge", opponent=bob, **terms)
    challenge = await posted_challenge(fake, record)
    assert "alice challenges bob" in challenge.content
    assert button_users(challenge, "Accept") == [bob.id]
    accepted = await fake.click(bob, challenge, "Accept")
    assert await accepted.acknowledged() == 7  # the pressed message loses its buttons
    assert challenge.components == []
    board = await accepted.public()
    assert_board_message(board)
    return board


# --------------------------------------------------------------------- tests


def only_newest_has_buttons(fake: FakeDiscord, board: Message) -> bool:
    """Whether ``board`` is the only message of its channel with buttons (if it has any)."""
    newest = [board.id] if board.components else []
    return [m.id for m in fake.channel_messages(board.channel_id) if m.components] == newest



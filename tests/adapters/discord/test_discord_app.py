"""The Discord adapter's small pieces: error messages, button ids, token redaction, sync hash."""

from __future__ import annotations

import logging
from dataclasses import replace
from pathlib import Path

import discord
from discord import app_commands

from bot.adapters.discord.app import BackgammonBot, RedactingFormatter, cog_extensions
from bot.adapters.discord.buttons import CUSTOM_ID_MAX, GameButton, build_view, custom_id
from bot.adapters.discord.errors import APOLOGY, MissingPermission, describe_error
from bot.config import Config, DiscordConfig, StorageConfig, TimeoutConfig
from bot.service.core.replies import Action, Button, Reply


def test_missing_permissions_are_named() -> None:
    text = describe_error(app_commands.BotMissingPermissions(["embed_links", "attach_files"]))
    assert text is not None and "Embed Links and Attach Files permissions" in text
    text = describe_error(MissingPermission("Create Public Threads", "open a thread"))
    assert text is not None and "Create Public Threads" in text


def test_unexpected_errors_get_no_message_of_their_own() -> None:
    assert describe_error(RuntimeError("boom")) is None
    assert "Sorry" in APOLOGY


def test_custom_id_carries_match_version_users_and_option() -> None:
    cid = custom_id(Action.ACCEPT_RESIGNATION, 12, 7, (111, 222))
    assert cid == "bg:accept-resignation:12:7:111.222"
    match = GameButton.__discord_ui_compiled_template__.fullmatch(cid)
    assert match is not None and match["users"] == "111.222" and match["option"] is None
    long_option = "x" * 60
    users = (10**18, 10**18 + 1)
    cid = custom_id(Action.CHOOSE, 1, 1, users, long_option)
    assert len(cid) <= CUSTOM_ID_MAX and cid.endswith(long_option) and ":1:1::" in cid


def test_view_only_when_there_are_buttons() -> None:
    assert build_view(Reply(ok=True, text="x", match_id=1, version=2)) is None
    view = build_view(Reply(ok=True, text="x", match_id=1, version=2,
                            buttons=(Button(Action.ROLL, "Roll", (5,)),
                                     Button(Action.DOUBLE, "Double", (5,)))))
    assert view is not None and view.timeout is None
    assert [getattr(i, "custom_id", None) for i in view.children] == [
        "bg:roll:1:2:5", "bg:double:1:2:5"]


def test_token_is_redacted_from_logs() -> None:
    formatter = RedactingFormatter("sekrit.token")
    record = logging.LogRecord("x", logging.ERROR, __file__, 1, "login with %s failed",
                               ("sekrit.token",), None)
    assert "sekrit.token" not in formatter.format(record)
    assert "[token]" in formatter.format(record)


def test_cogs_are_discovered() -> None:
    cogs = "bot.adapters.discord.cogs"
    assert {f"{cogs}.game", f"{cogs}.info"} <= set(cog_extensions())


async def test_command_hash_is_stable_and_depends_on_the_target(tmp_path: Path) -> None:
    config = Config(storage=StorageConfig(database=str(tmp_path / "db.sqlite3")),
                    timeouts=TimeoutConfig(reminder_minutes=0))  # no reminder loop here
    bots = []
    for cfg in (config, config, replace(config, discord=DiscordConfig(dev_guild_ids=(5,)))):
        bot = BackgammonBot(cfg)
        for extension in cog_extensions():
            await bot.load_extension(extension)
        bots.append(bot)
    assert bots[0].command_hash() == bots[1].command_hash() != bots[2].command_hash()
    assert bots[0].sync_state == tmp_path / "db.sqlite3.commands.sha256"
    assert isinstance(bots[0].intents, discord.Intents) and not bots[0].intents.message_content

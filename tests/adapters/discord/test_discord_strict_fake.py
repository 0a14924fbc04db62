"""The fake Discord is as strict as Discord (issue 29, item 12): each rule through the real
discord.py client, with Discord's status and error code."""

from __future__ import annotations

import asyncio
import io
import logging
from typing import Any

import aiohttp
import discord
import discord_limits as limits
import pytest
from discord import app_commands
from discord_e2e import Capture, Host, users
from fake_discord import TOKEN_LIFETIME, FakeDiscord

pytestmark = pytest.mark.e2e


async def callback(fake: FakeDiscord, token: str, iid: int, kind: int,
                   data: dict[str, Any] | None = None) -> tuple[int, dict[str, Any]]:
    """POST an interaction response as a bot would; (status, JSON body)."""
    async with aiohttp.ClientSession() as session, session.post(
            f"{fake.api}/interactions/{iid}/{token}/callback",
            json={"type": kind, **({"data": data} if data else {})}) as response:
        return response.status, await response.json()


async def test_a_late_first_response_is_refused_with_10062(
        fake: FakeDiscord, host: Host, logs: Capture, monkeypatch: pytest.MonkeyPatch) -> None:
    alice, _, _ = users(fake)
    bot = await host.start()
    monkeypatch.setattr(bot.presenter, "defer_after", 60.0)  # (never defers)
    real = bot.service.rules

    async def late(*args: Any, **kwargs: Any) -> Any:
        fake.advance(3.5)  # the service took 3.5 s
        return await real(*args, **kwargs)

    monkeypatch.setattr(bot.service, "rules", late)
    record = await fake.slash(alice, "rules")
    await fake.until(lambda: len(record.refusals) >= 1)
    assert "10062 Unknown interaction" in record.refusals[0]
    assert not record.callbacks and record.messages == []
    await fake.until(lambda: len(record.refusals) >= 2)  # the apology is refused too
    for _ in range(200):  # (the warning follows the refusal)
        if any("could not tell the user" in r.getMessage() for r in logs.records):
            break
        await asyncio.sleep(0.01)
    assert fake.late_answers()  # (the fixture would fail the test)
    fake.forget(record)
    logs.records[:] = [r for r in logs.records if r.levelno < logging.ERROR]


async def test_the_network_latency_counts_in_the_three_seconds(
        fake: FakeDiscord, host: Host) -> None:
    alice, _, _ = users(fake)
    await host.start()
    fake.latency = 0.2
    record = await fake.slash(alice, "help")
    await record.message()
    assert record.answer_time is not None and record.answer_time >= 0.2


async def test_the_webhook_before_the_first_response_and_after_fifteen_minutes(
        fake: FakeDiscord) -> None:
    alice = fake.user("alice")
    record = fake.pending(alice)
    async with aiohttp.ClientSession() as session:
        webhook = discord.Webhook.partial(fake.app_id, record.token, session=session)
        with pytest.raises(discord.NotFound) as early:
            await webhook.send("too early", wait=True)
        assert early.value.code == 10015
        with pytest.raises(discord.NotFound):
            await webhook.edit_message("@original", content="too early")  # type: ignore[arg-type]
        status, _ = await callback(fake, record.token, record.id, 5)
        assert status == 200
        assert record.callback_type == 5
        status, body = await callback(fake, record.token, record.id, 4, {"content": "again"})
        assert (status, body["code"]) == (400, 40060)
        sent = await webhook.edit_message("@original",  # type: ignore[arg-type]
                                          content="in time")
        assert sent.content == "in time"
        more = await webhook.send("and more", wait=True)
        assert more.content == "and more" and more.id != sent.id
        fake.advance(TOKEN_LIFETIME + 1)
        with pytest.raises(discord.HTTPException) as expired:
            await webhook.send("too late", wait=True)
        assert (expired.value.status, expired.value.code) == (401, 50027)


async def test_a_first_response_after_three_seconds(fake: FakeDiscord) -> None:
    record = fake.pending(fake.user("alice"))
    fake.advance(3.01)
    status, body = await callback(fake, record.token, record.id, 4, {"content": "late"})
    assert (status, body["code"], body["message"]) == (404, 10062, "Unknown interaction")
    assert fake.late_answers()
    fake.forget(record)


async def test_payloads_over_discords_limits_are_refused(fake: FakeDiscord,
                                                          host: Host) -> None:
    bot = await host.start()
    channel = bot.get_partial_messageable(fake.channel_id)
    with pytest.raises(discord.HTTPException) as long:
        await channel.send("x" * (limits.MAX_CONTENT + 1))
    assert (long.value.status, long.value.code) == (400, 50035)
    with pytest.raises(discord.HTTPException) as big:
        await channel.send(file=discord.File(io.BytesIO(bytes(limits.MAX_FILE_SIZE + 1)),
                                             filename="big.png"))
    assert (big.value.status, big.value.code) == (413, 40005)
    embed = discord.Embed(title="t" * (limits.MAX_EMBED_TITLE + 1))
    with pytest.raises(discord.HTTPException) as title:
        await channel.send(embed=embed)
    assert title.value.code == 50035
    view = discord.ui.View()
    view.add_item(discord.ui.Button(label="x" * (limits.MAX_LABEL + 1), custom_id="a"))
    with pytest.raises(discord.HTTPException) as label:
        await channel.send("buttons", view=view)
    assert label.value.code == 50035
    fitting = await channel.send(file=discord.File(io.BytesIO(bytes(limits.MAX_FILE_SIZE)),
                                                   filename="ok.png"))
    assert fitting.attachments[0].size == limits.MAX_FILE_SIZE
    assert len(fake.refusals) == 4


def command(**option: Any) -> dict[str, Any]:
    base = {"name": "ok", "description": "fine", "type": 1,
            "options": [{"name": "n", "description": "d", "type": 4, **option}]}
    return base


@pytest.mark.parametrize(("payload", "problem"), [
    ({"name": "Board", "description": "x", "type": 1}, "the name 'Board'"),
    ({"name": "a b", "description": "x", "type": 1}, "the name 'a b'"),
    ({"name": "x" * 33, "description": "x", "type": 1}, "the name"),
    ({"name": "ok", "description": "", "type": 1}, "description"),
    ({"name": "ok", "description": "d" * 101, "type": 1}, "description"),
    (command(max_value=2**53), "max_value 9007199254740992"),
    (command(min_value=-(2**53)), "min_value"),
    ({"name": "ok", "description": "d", "type": 1, "options": [
        {"name": "a", "description": "d", "type": 3},
        {"name": "b", "description": "d", "type": 3, "required": True}]},
     "a required option after an optional one"),
    ({"name": "ok", "description": "d", "type": 1, "options": [
        {"name": f"o{i}", "description": "d", "type": 3} for i in range(26)]}, "26 options"),
    ({"name": "ok", "description": "d", "type": 1, "options": [
        {"name": "c", "description": "d", "type": 3, "choices": [
            {"name": f"c{i}", "value": f"{i}"} for i in range(26)]}]}, "26 choices"),
    ({"name": "ok", "description": "d", "type": 1, "options": [
        {"name": "g", "description": "d", "type": 2, "options": [
            {"name": "h", "description": "d", "type": 2, "options": []}]}]},
     "a group may hold only subcommands"),
    ({"name": "ok", "description": "d", "type": 1, "options": [
        {"name": "s", "description": "d", "type": 1, "options": []},
        {"name": "x", "description": "d", "type": 3}]}, "subcommands mixed"),
    ({"name": "ok", "description": "d" * 100, "type": 1, "options": [
        {"name": f"o{i}", "description": "d" * 100, "type": 3, "choices": [
            {"name": "n" * 100, "value": "v" * 100} for _ in range(2)]}
        for i in range(10)]}, "characters in all"),
])
def test_the_command_schema(payload: dict[str, Any], problem: str) -> None:
    found = limits.command_problems([payload])
    assert any(problem in p for p in found), found


def test_the_command_schema_accepts_what_discord_accepts() -> None:
    assert limits.command_problems([
        command(min_value=-(2**53 - 1), max_value=2**53 - 1, required=True),
        {"name": "नमस्ते", "description": "d", "type": 1},
        {"name": "tournament-admin", "description": "d", "type": 1,
         "default_member_permissions": "32", "options": [
             {"name": "g", "description": "d", "type": 2, "options": [
                 {"name": "s", "description": "d", "type": 1, "options": []}]}]},
    ]) == []
    assert limits.command_problems([{"name": f"c{i}", "description": "d", "type": 1}
                                    for i in range(101)]) == ["101 CHAT_INPUT commands"]


async def test_a_sync_discord_refuses_fails(fake: FakeDiscord, host: Host) -> None:
    alice, _, _ = users(fake)
    bot = await host.start()

    @app_commands.command(name="bad", description="an integer bound Discord refuses")
    async def bad(interaction: discord.Interaction[Any],
                  number: app_commands.Range[int, 1, 2**53]) -> None: ...

    bot.tree.add_command(bad)
    with pytest.raises(app_commands.CommandSyncFailure) as refused:
        await bot.tree.sync()
    assert refused.value.code == 50035
    assert "/bad number: max_value 9007199254740992" in str(refused.value)
    bot.tree.remove_command("bad")
    record = await fake.slash(alice, "help")  # the bot's own commands synced at start
    assert "/challenge" in (await record.message()).text

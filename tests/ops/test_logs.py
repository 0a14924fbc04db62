"""The logs (issue 34, item 3): one INFO line per committed action (place, action, outcome,
milliseconds), unexpected errors with a reference that the player's apology shows, and JSON
lines on request."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import re
import sys
from pathlib import Path

import pytest
from race_table import BLACK, PLACE, WHITE, ScriptedDice

from bot.adapters.console import Console
from bot.adapters.console.run import handle_line
from bot.config import Config, ConfigError, parse_config
from bot.ops.logs import JsonFormatter, apology, error_reference, setup_logging
from bot.service.game import GameService
from bot.storage.sqlite import SqliteStorage


async def test_one_info_line_per_committed_action(tmp_path: Path,
                                                  caplog: pytest.LogCaptureFixture) -> None:
    storage = SqliteStorage(tmp_path / "l.sqlite3")
    await storage.open()
    try:
        service = GameService(storage, Config(), dice=ScriptedDice)
        caplog.set_level(logging.INFO, logger="bot.service.core.runner")
        assert (await service.challenge(PLACE, WHITE, BLACK, stake=1)).ok
        assert not (await service.roll(PLACE, BLACK)).ok  # refused: no line
        assert (await service.accept(PLACE, BLACK)).ok
        assert (await service.move(PLACE, WHITE, "8/5 6/5")).ok
    finally:
        await storage.close()
    lines = [r.getMessage() for r in caplog.records if r.name == "bot.service.core.runner"
             and r.levelno == logging.INFO]
    assert len(lines) == 3, lines
    place = f"{PLACE.guild_id}/{PLACE.channel_id}"
    for line, kind, who in zip(lines, ("challenge", "accept", "move"),
                               (WHITE, BLACK, WHITE), strict=True):
        assert re.fullmatch(rf"{place} {kind} by {who.id}: committed in \d+\.\d ms", line), line


async def test_an_unexpected_error_in_the_console_has_a_reference(
        tmp_path: Path, caplog: pytest.LogCaptureFixture,
        monkeypatch: pytest.MonkeyPatch) -> None:
    storage = SqliteStorage(tmp_path / "e.sqlite3")
    await storage.open()
    try:
        service = GameService(storage, Config())
        out = io.StringIO()
        console = Console(service, tmp_path / "boards", out=out)

        async def broken(*args: object, **kwargs: object) -> None:
            raise RuntimeError("the database caught fire")

        monkeypatch.setattr(service.standings, "leaderboard", broken)
        assert await handle_line(console, "alice: /leaderboard", asyncio.Event())
    finally:
        await storage.close()
    shown = re.search(r"error ([0-9a-f]{8})", out.getvalue())
    assert shown and "Sorry, something went wrong" in out.getvalue(), out.getvalue()
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and shown[1] in errors[0].getMessage()
    assert errors[0].exc_info is not None


def test_references_are_short_and_shown_in_the_apology() -> None:
    refs = {error_reference() for _ in range(50)}
    assert len(refs) == 50 and all(re.fullmatch(r"[0-9a-f]{8}", r) for r in refs)
    assert "error 7f3a9c01" in apology("7f3a9c01")


def test_json_lines_carry_the_fields_and_never_the_token() -> None:
    formatter = JsonFormatter("sekrit.token")
    try:
        raise ValueError("bad sekrit.token")
    except ValueError:
        record = logging.LogRecord("bot.x", logging.ERROR, __file__, 1,
                                   "failed with %s", ("sekrit.token",), sys.exc_info())
    record.error_ref = "0123abcd"
    line = formatter.format(record)
    assert "\n" not in line and "sekrit" not in line
    data = json.loads(line)
    assert data["level"] == "error" and data["logger"] == "bot.x"
    assert data["message"] == "failed with [token]"
    assert data["error_ref"] == "0123abcd"
    assert "ValueError" in data["traceback"]
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT.*\+00:00", data["time"])


def test_setup_logging_writes_json_lines(capsys: pytest.CaptureFixture[str]) -> None:
    root = logging.getLogger()
    before = list(root.handlers), root.level
    try:
        setup_logging("tok", json_lines=True, level="warning")
        logging.getLogger("bot.test").warning("careful: %s", "tok")
        logging.getLogger("bot.test").info("not shown")
    finally:
        for handler in root.handlers[:]:
            if handler not in before[0]:
                root.removeHandler(handler)
        root.setLevel(before[1])
    lines = [line for line in capsys.readouterr().err.splitlines() if line.startswith("{")]
    assert [json.loads(line)["message"] for line in lines] == ["careful: [token]"]


@pytest.mark.parametrize("text, message", [
    ('[ops]\nmetrics_address = "9108"', "ops.metrics_address must be host:port"),
    ('[ops]\nmetrics_address = "127.0.0.1:99999"', "ops.metrics_address must be host:port"),
    ('[ops]\nlog_level = "loud"', "ops.log_level must be one of"),
    ('[ops]\njson_logs = "yes"', "ops.json_logs must be true or false"),
])
def test_ops_settings_are_checked(text: str, message: str) -> None:
    with pytest.raises(ConfigError) as raised:
        parse_config(text)
    assert message in str(raised.value) and "\n" not in str(raised.value)


def test_ops_settings_are_read() -> None:
    config = parse_config('[ops]\nmetrics_address = "[::1]:9108"\njson_logs = true')
    assert config.ops.metrics_address == "[::1]:9108" and config.ops.json_logs

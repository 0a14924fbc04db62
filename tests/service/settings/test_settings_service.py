"""/settings through the game service (issue 29 item 11): the table of keys, what show, set
and reset answer (each change with what changed, each refusal with the allowed values and
nothing stored), Manage Server, stored values that no longer hold, the cache of each process,
and two admins at once on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pg
import pytest
from scripted import opened

from bot.config import (
    AIConfig,
    AnalysisConfig,
    Config,
    DiscordConfig,
    GameConfig,
    TimeoutConfig,
    TournamentSettingsConfig,
)
from bot.service.core.replies import ChannelMention, Reply, RoleMention, plain
from bot.service.core.values import Actor, Place
from bot.service.game import GameService
from bot.service.settings.kinds import MAX_CHANNELS
from bot.service.settings.service import SettingsService
from bot.service.settings.table import SETTINGS, ServerSettings
from bot.storage.interface import GuildSettingsRow
from engine.rules import RuleOptions

ADMIN = Actor(1, "admin")
HERE = Place(guild_id=7, channel_id=70)
OPERATOR = Config(
    discord=DiscordConfig(use_threads=False, board_mode="new", archive_after_minutes=240),
    analysis=AnalysisConfig(grade_matches=False, anonymous_puzzles=False,
                            puzzle_min_equity=0.25),
    game=GameConfig(variant="french", rules={"jacoby": True, "max_cube": 64}),
    timeouts=TimeoutConfig(reminder_minutes=15, claim_after_minutes=90),
    ai=AIConfig(enabled=False, default_level="expert"),
    tournament=TournamentSettingsConfig(organiser_role="Directors"))
"""An operator whose every default differs from the built-in ones."""


def lines(reply: Reply) -> list[str]:
    return [plain(n) for n in reply.notify]


async def make(tmp_path: Path, config: Config = OPERATOR, name: str = "s.sqlite3",
               **kw: Any) -> GameService:
    return GameService(await opened(tmp_path / name), config, **kw)


async def stored(service: GameService, guild: int = HERE.guild_id) -> GuildSettingsRow:
    async with service.storage.snapshot() as tx:
        row: GuildSettingsRow = await tx.guild_settings(guild)
        return row


async def put(service: GameService, key: str, value: str) -> Reply:
    return await service.settings_set(HERE, ADMIN, key, value, manage_server=True)


# --------------------------------------------------------------------- the table


def test_every_field_has_a_key_and_every_rule_option_too() -> None:
    own = {f.name for f in dataclasses.fields(ServerSettings)} - {
        "rules", "chosen", "ignored", "version"}
    keys = [s.key for s in SETTINGS]
    assert len(keys) == len(set(keys))
    assert {k for k in keys if not k.startswith("rules.")} == own
    assert {k.removeprefix("rules.") for k in keys if k.startswith("rules.")} == {
        f.name for f in dataclasses.fields(RuleOptions)}
    assert all(s.description and s.kind.allowed and s.kind.choices() for s in SETTINGS)


def test_the_defaults_are_the_operator_s_config() -> None:
    defaults = SettingsService(None, OPERATOR, ai_available=True).defaults()  # type: ignore[arg-type]
    assert defaults == ServerSettings(
        variant="french", rules={**RuleOptions().to_dict(), "jacoby": True, "max_cube": 64},
        threads=False, archive_after_minutes=240.0, game_channels=None,
        tournament_channels=None, ai=False,
        ai_level="expert", reminder_minutes=15.0, claim_after_minutes=90.0,
        organiser_role=RoleMention(None, "Directors"), tournament_announcements=None,
        analysis_announcements=None, board_mode="new", grade_matches=False,
        anonymous_puzzles=False, puzzle_min_equity=0.25, daily_puzzle_channel=None)
    assert SettingsService(None, Config(), ai_available=False).defaults().ai is False  # type: ignore[arg-type]
    assert SettingsService(None, Config(), ai_available=False).defaults().grade_matches is False  # type: ignore[arg-type]


# ------------------------------------------------------------------ show, set, reset


async def test_show_says_where_each_value_comes_from(tmp_path: Path) -> None:
    service = await make(tmp_path)
    shown = await service.settings_show(HERE, ADMIN)
    assert shown.ok and shown.ephemeral and "/settings show key" in shown.text
    text = lines(shown)
    assert "variant: french (default)" in text and "threads: off (default)" in text
    assert "ai: off (default) (the bot's operator runs no AI)" in text
    assert "organiser_role: @Directors (default)" in text
    assert "claim_after_minutes: 90 minutes (1 hour 30 minutes) (default)" in text
    # Issue 42 item 3: each rule option is listed under its key, as the unknown-key
    # refusal promises.
    assert text[-1].startswith("rules.<option> by the operator's defaults: cube on, ")
    assert "jacoby on" in text[-1] and "max_cube 64" in text[-1]
    assert (await put(service, "jacoby", "off")).ok
    assert (await put(service, "game_channels", "71, #72")).ok
    text = lines(await service.settings_show(HERE, ADMIN))
    assert "game_channels: #71, #72 (set here)" in text
    assert text[-2] == "rules.<option> set here: jacoby off"
    assert "cube on" in text[-1] and "jacoby" not in text[-1]
    one = await service.settings_show(HERE, ADMIN, "game-channels")
    assert one.notify[0] == ("game_channels", ": ", ChannelMention(71), ", ",
                             ChannelMention(72), " (set here)")
    assert lines(one)[2] == (f"Allowed: all, or up to {MAX_CHANNELS} channels of this server "
                             "named as #channel (\"here\": this channel).")
    assert lines(one)[3] == "The operator's default: all channels."


async def test_the_longest_show_fits_a_discord_message(tmp_path: Path) -> None:
    """Every key at its longest value (15 channels of 19-digit ids twice, every rule option
    set): /settings show still fits Discord's 2000 characters, channels as ``<#id>``."""
    from bot.adapters.discord.outgoing import MAX_CONTENT, private_text

    service = await make(tmp_path, Config())
    big = 1_234_567_890_123_456_789
    channels = " ".join(str(big + i) for i in range(MAX_CHANNELS))
    for key, value in (("game_channels", channels), ("tournament_channels", channels),
                       ("organiser_role", str(big)), ("tournament_announcements", str(big)),
                       ("analysis_announcements", str(big)),
                       ("daily_puzzle_channel", str(big)), ("board_mode", "auto"),
                       ("puzzle_min_equity", "0.0825"), ("grade_matches", "off"),
                       ("anonymous_puzzles", "off"), ("claim_after_minutes", "29.999d"),
                       ("clock", "59m59s+59m59s/pt"), ("open_challenge_minutes", "6.999d"),
                       ("queue_channel", str(big))):
        assert (await put(service, key, value)).ok, key
    for setting in SETTINGS:
        if setting.rule:
            for value in sorted(setting.kind.choices(), key=len, reverse=True):
                if (await put(service, setting.key, value)).ok:
                    break  # (the longest value the other options allow)
            else:
                raise AssertionError(setting.key)
    shown = await service.settings_show(HERE, ADMIN)
    assert len(shown.notify) == len([s for s in SETTINGS if not s.rule]) + 1
    assert all(f"{s.key.removeprefix('rules.')} " in private_text(shown)
               for s in SETTINGS if s.rule)  # each rule listed with its value (issue 42)
    assert len(private_text(shown)) <= MAX_CONTENT
    # A long list of channels shows its first five there; /settings show key has them all.
    assert f"<#{big + 4}> and 10 more (set here)" in private_text(shown)
    one = await service.settings_show(HERE, ADMIN, "game_channels")
    assert f"<#{big + 14}> (set here)" in private_text(one)


async def test_each_change_says_what_changed(tmp_path: Path) -> None:
    service = await make(tmp_path)
    changes = [("threads", "on", "threads: off → on"),
               ("variant", "Russian", "variant: french → russian"),
               ("rules.max_cube", "none", "rules.max_cube: 64 → none"),
               ("reminder_minutes", "2h", "reminder_minutes: 15 minutes → 120 minutes "
                                          "(2 hours)"),
               ("reminder_minutes", "0", "reminder_minutes: 120 minutes (2 hours) → "
                                         "0 (no reminders)"),
               ("claim_after_minutes", "1.5d", "claim_after_minutes: 90 minutes (1 hour 30 "
                                               "minutes) → 2160 minutes (1 day 12 hours)"),
               ("game_channels", "here", "game_channels: all channels → #70"),
               ("organiser_role", "<@&55>", "organiser_role: @Directors → @55"),
               ("organiser_role", "none", "organiser_role: @55 → none (only members with "
                                          "Manage Server)"),
               ("tournament_announcements", "<#80>", "tournament_announcements: none (each "
                                                     "tournament's own channel) → #80"),
               ("ai_level", "beginner", "ai_level: expert → beginner")]
    for version, (key, value, said) in enumerate(changes, start=1):
        reply = await put(service, key, value)
        assert reply.ok and reply.ephemeral and lines(reply) == [said], lines(reply)
        assert (await stored(service)).version == version
    same = await put(service, "threads", "yes")
    assert lines(same) == ["threads is already on here: nothing changed."]
    pinned = await put(service, "ai_level", "beginner")
    assert "already" in lines(pinned)[0]
    own = await put(service, "analysis_announcements", "none")
    assert lines(own) == ["analysis_announcements: none (the match's own channel), now set "
                          "here (it was the operator's default; it stays if that changes)"]
    reset = await service.settings_reset(HERE, ADMIN, "variant", manage_server=True)
    assert lines(reset) == ["variant: russian → french (the operator's default)"]
    again = await service.settings_reset(HERE, ADMIN, "variant", manage_server=True)
    assert lines(again) == ["variant is not set here: it is the operator's default, french. "
                            "Nothing changed."]
    settings = await service.server_settings(HERE.guild_id)
    assert settings.game_channels == (70,) and settings.threads is True
    assert settings.rules["max_cube"] is None and settings.rules["jacoby"] is True
    assert "variant" not in settings.chosen and "threads" in settings.chosen


REFUSALS = [
    ("threads", "maybe", "threads must be on or off, not 'maybe'."),
    ("variant", "chess", "variant must be one of: acey-deucey, "),
    ("ai_level", "godlike", "ai_level must be one of: beginner, intermediate, strong, expert;"),
    ("reminder_minutes", "-5", "reminder_minutes must be 0 (no reminders) or a time from "
                               "1 minute to 7 days, in minutes or with a unit: 90, 2h, 1d;"),
    ("reminder_minutes", "8d", "a time from 1 minute to 7 days"),
    ("claim_after_minutes", "0", "claim_after_minutes must be a time from 1 minute to 30 days"),
    ("claim_after_minutes", "²", "not '²'"),
    ("game_channels", "", "game_channels must be all, or up to 15 channels"),
    ("game_channels", "#lobby", "'#lobby' is not a channel of this server"),
    ("tournament_channels", " ".join(map(str, range(1, 17))), "up to 15 channels"),
    ("organiser_role", "@everyone", "organiser_role must be a role of this server named as "
                                    "@role, or none (only members with Manage Server);"),
    ("tournament_announcements", "70 71", "must be a channel of this server named as "
                                          "#channel"),
    ("analysis_announcements", "0", "'0' is not a channel of this server"),
    ("rules.jacoby", "sometimes", "rules.jacoby must be on or off, not 'sometimes'."),
    ("rules.scoring", "points", "rules.scoring must be one of: games, checkers-1, checkers-2"),
    ("rules.max_cube", "3", "rules.max_cube must be a power of two from 2 up"),
    ("rules.backgammon_value", "5", "rules.backgammon_value must be 3 or 4"),
    ("rules.opening", "coin", "one-die, one-die-rethrow, two-dice-choice"),
    ("ai", "on", "The bot's operator runs no AI"),
    ("rules.cube", "off", "rules.cube can't be off with the other rule options in force here: "
                          "Rule option 'jacoby' needs the cube: set cube to on."),
    ("threads", "x" * 1001, "That value is too long: threads takes on or off."),
]


@pytest.mark.parametrize(("key", "value", "said"), REFUSALS)
async def test_a_refusal_lists_the_allowed_values_and_stores_nothing(
        tmp_path: Path, key: str, value: str, said: str) -> None:
    service = await make(tmp_path)
    reply = await put(service, key, value)
    assert not reply.ok and reply.ephemeral and said in reply.text, reply.text
    assert reply.text.endswith("Nothing was changed.")
    assert await stored(service) == GuildSettingsRow(HERE.guild_id, {}, 0)


async def test_a_reset_the_other_rule_options_refuse_changes_nothing(tmp_path: Path) -> None:
    service = await make(tmp_path, Config(game=GameConfig(rules={"cube": False})))
    assert (await put(service, "rules.cube", "on")).ok
    assert (await put(service, "rules.beavers", "on")).ok
    reply = await service.settings_reset(HERE, ADMIN, "rules.cube", manage_server=True)
    assert not reply.ok and reply.text == (
        "rules.cube can't be off with the other rule options in force here: Rule option "
        "'beavers' needs the cube: set cube to on. Nothing was changed.")
    assert (await stored(service)).version == 2
    assert (await service.settings_reset(HERE, ADMIN, "beavers", manage_server=True)).ok
    assert (await service.settings_reset(HERE, ADMIN, "cube", manage_server=True)).ok
    assert (await service.server_settings(HERE.guild_id)).rules["cube"] is False


async def test_every_key_refuses_a_value_it_does_not_take(tmp_path: Path) -> None:
    service = await make(tmp_path)
    for setting in SETTINGS:
        reply = await put(service, setting.key, "\u00b2 ?")
        assert not reply.ok and reply.text.startswith(setting.key), reply.text
    assert (await stored(service)).version == 0


async def test_only_managers_change_anyone_looks(tmp_path: Path) -> None:
    service = await make(tmp_path)
    player = Actor(5, "player")
    for call in (service.settings_set(HERE, player, "threads", "on", manage_server=False),
                 service.settings_reset(HERE, player, "threads", manage_server=False)):
        reply = await call
        assert not reply.ok and reply.text.startswith(
            "Only members with the Manage Server permission can change this server's settings")
    assert (await stored(service)).version == 0
    assert (await service.settings_show(HERE, player)).ok
    unknown = await put(service, "colour", "green")
    assert not unknown.ok and "There is no setting 'colour'. Settings: variant, threads" \
        in unknown.text and "rules.<option>" in unknown.text
    bad = await service.settings_set(Place(2**64, 70), ADMIN, "threads", "on",
                                     manage_server=True)
    assert not bad.ok and "server id is not valid" in bad.text


async def test_a_stored_value_that_no_longer_holds_is_ignored(tmp_path: Path) -> None:
    """A variant the bot no longer has, a rule option the operator's options now refuse:
    the operator's default applies, and /settings show says so."""
    service = await make(tmp_path, Config())
    async with service.storage.transaction() as tx:
        await tx.write_guild_settings(GuildSettingsRow(HERE.guild_id, {}, 0), {
            "variant": "chess", "threads": "yes", "rules.beavers": True, "future_key": 1},
            updated_by=1)
    assert (await service.server_settings(HERE.guild_id)).rules["beavers"] is True
    strict = await make(tmp_path, Config(game=GameConfig(rules={"cube": False})),
                        name="s.sqlite3")
    settings = await strict.server_settings(HERE.guild_id)
    assert settings.variant == "standard" and settings.threads is True
    assert settings.rules["beavers"] is False and settings.chosen == frozenset()
    assert settings.ignored == ("variant", "threads", "rules.beavers")
    assert lines(await strict.settings_show(HERE, ADMIN))[-1] == (
        "ignored (no longer valid, the operator's default applies): variant, threads, "
        "rules.beavers")
    # A change keeps what this version does not know.
    assert (await put(strict, "rules.cube", "on")).ok
    assert (await stored(strict)).values["future_key"] == 1


# ------------------------------------------------------------------ the cache


class Counting:
    """A storage that counts its snapshots (the reads of settings)."""

    def __init__(self, storage: Any) -> None:
        self.storage = storage
        self.snapshots = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.storage, name)

    @asynccontextmanager
    async def snapshot(self) -> AsyncIterator[Any]:
        self.snapshots += 1
        async with self.storage.snapshot() as tx:
            yield tx


async def test_settings_are_read_once_and_another_process_sees_a_change(
        tmp_path: Path) -> None:
    now = [0.0]
    first = Counting(await opened(tmp_path / "s.sqlite3"))
    second = Counting(await opened(tmp_path / "s.sqlite3"))
    a = SettingsService(first, OPERATOR, ai_available=False, clock=lambda: now[0])  # type: ignore[arg-type]
    b = SettingsService(second, OPERATOR, ai_available=False, clock=lambda: now[0])  # type: ignore[arg-type]
    assert (await a.of(7)).threads is False and (await b.of(7)).threads is False
    for _ in range(5):  # an action's read of them costs no database trip
        await a.of(7)
        await b.of(7)
    assert (first.snapshots, second.snapshots) == (1, 1)
    changed = await a.set(HERE, ADMIN, "threads", "on", manage_server=True)
    assert changed.ok
    assert (await a.of(7)).threads is True  # this process: at once, from its write
    assert first.snapshots == 1
    assert (await b.of(7)).threads is False  # the other: its copy until it expires
    now[0] += 30.5
    assert (await b.of(7)).threads is True and second.snapshots == 2
    assert (await a.of(8)).threads is False and first.snapshots == 2  # each server its own


async def test_a_read_that_began_before_a_change_does_not_undo_it(tmp_path: Path) -> None:
    service = SettingsService(await opened(tmp_path / "s.sqlite3"), OPERATOR,
                              ai_available=False)
    old = await service.of(7)
    assert (await service.set(HERE, ADMIN, "threads", "on", manage_server=True)).ok
    service._remember(7, old)  # the late answer of a read made before the change
    assert (await service.of(7)).threads is True


# ------------------------------------------------------------ two admins at once


@pytest.fixture(params=["sqlite", "postgres"])
async def two_processes(request: pytest.FixtureRequest, tmp_path: Path
                        ) -> AsyncIterator[tuple[GameService, GameService]]:
    if request.param == "sqlite":
        yield (await make(tmp_path), await make(tmp_path))
        return
    reason = pg.unavailable()
    if reason is not None:
        pytest.skip(reason)
    from bot.storage.postgres import PostgresStorage

    url = await pg.create_database()
    stores = [PostgresStorage(url, pool_size=4) for _ in range(2)]
    try:
        for s in stores:
            await s.open()
        yield GameService(stores[0], OPERATOR), GameService(stores[1], OPERATOR)
    finally:
        for s in stores:
            await s.close()
        await pg.drop_database(url)


async def test_two_admins_at_once_both_changes_apply(
        two_processes: tuple[GameService, GameService]) -> None:
    one, two = two_processes
    for round_ in range(4):
        value = "on" if round_ % 2 else "off"
        replies = await asyncio.gather(
            one.settings_set(HERE, ADMIN, "threads", value, manage_server=True),
            two.settings_set(HERE, Actor(2, "other admin"), "rules.max_cube",
                             str(2 ** (round_ + 1)), manage_server=True))
        assert all(r.ok for r in replies), [r.text for r in replies]
    final = await stored(one)
    assert final.values == {"threads": True, "rules.max_cube": 16} and final.version == 8
    # The same key from both: both apply, one after the other, and the second answer
    # starts from the first's value (never a change lost, never an untrue "before").
    first, second = await asyncio.gather(
        one.settings_set(HERE, ADMIN, "variant", "russian", manage_server=True),
        two.settings_set(HERE, ADMIN, "variant", "acey-deucey", manage_server=True))
    pairs = [tuple(line.removeprefix("variant: ").split(" → "))
             for line in lines(first) + lines(second)]
    start = next(p for p in pairs if p[0] == "french")
    (then,) = [p for p in pairs if p is not start]
    assert then[0] == start[1] and {start[1], then[1]} == {"russian", "acey-deucey"}
    assert (await stored(two)).values["variant"] == then[1]

"""Typed configuration loaded from TOML.

``load_config(path)`` reads a TOML file with :mod:`tomllib` into a
:class:`Config`.  Every section and key is declared here; an unknown key, a
value of the wrong type or a bad value raises :class:`ConfigError` whose
message names the key and says what is allowed.  ``python -m bot`` prints that
message as one line and exits with status 2.

The Discord token is never stored in the repository: it comes from the
``DISCORD_TOKEN`` environment variable, or from ``discord.token`` in the file.

The game defaults here (variant, rule options, threads, the AI and its level, the reminder
and claim times, the organiser role) are the operator's: each server may set its own with
``/settings`` (:mod:`bot.service.settings`), and a server that sets nothing follows these.
"""

from __future__ import annotations

import os
import tomllib
import typing
from dataclasses import dataclass, field, fields, is_dataclass, replace
from pathlib import Path
from typing import Any


class ConfigError(Exception):
    """A configuration problem, described in one line."""


BOARD_MODES = ("auto", "live", "new")


@dataclass(frozen=True, slots=True)
class DiscordConfig:
    token: str = ""
    """Bot token; the ``DISCORD_TOKEN`` environment variable wins when set."""
    dev_guild_ids: tuple[int, ...] = ()
    """Guilds that get slash commands synced instantly while developing."""
    use_threads: bool = True
    """Start each game in its own thread when the bot may create threads."""
    archive_after_minutes: int = 60
    """A game's (or tournament match's) thread is archived this long after its match ended,
    when nothing else is open there (0: never; needs Manage Threads, else Discord archives
    it after a day without activity).  The default of ``/settings archive_after_minutes``."""
    shard_count: int = 0
    """0 lets discord.py choose (AutoShardedBot); >0 fixes the shard count."""
    shard_ids: tuple[int, ...] = ()
    """The shards this process runs (several processes: each its own ids); empty = all."""
    board_mode: str = "auto"
    """How a game's board follows the play (issue 31): 'live' (one board message per game,
    edited after every action, and one short message mentioning the player to act), 'new'
    (a new board message after every action; the older one loses its buttons), or 'auto'
    (live in a game's own thread, new in a shared channel).  Read only through
    ``bot.adapters.discord.live.board_mode``."""

    def check(self) -> None:
        if self.board_mode not in BOARD_MODES:
            raise ConfigError("discord.board_mode must be one of: "
                              f"{', '.join(map(repr, BOARD_MODES))} (not {self.board_mode!r})")
        if self.shard_count < 0:
            raise ConfigError("discord.shard_count must be 0 (automatic) or a positive number")
        if not 0 <= self.archive_after_minutes <= 10080:
            raise ConfigError("discord.archive_after_minutes must be from 0 (never) to 10080 "
                              "(a week)")
        if self.shard_ids:
            if self.shard_count <= 0:
                raise ConfigError("discord.shard_ids needs discord.shard_count (the total "
                                  "number of shards of all processes)")
            if any(not 0 <= s < self.shard_count for s in self.shard_ids):
                raise ConfigError(f"discord.shard_ids must be between 0 and "
                                  f"{self.shard_count - 1} (discord.shard_count - 1)")
            if len(set(self.shard_ids)) != len(self.shard_ids):
                raise ConfigError("discord.shard_ids lists a shard twice")
        if any(g <= 0 for g in self.dev_guild_ids):
            raise ConfigError("discord.dev_guild_ids must list positive guild ids")


@dataclass(frozen=True, slots=True)
class StorageConfig:
    database: str = "bgbot.sqlite3"
    """Path of the SQLite database file (created on first start)."""
    url: str = ""
    """PostgreSQL URL (postgresql://user@host:5432/dbname) shared by several bot
    processes; empty = the SQLite file."""
    pool_size: int = 10
    """PostgreSQL: most connections this process opens (keep the sum over all processes
    below the server's max_connections)."""
    acquire_timeout: float = 10.0
    """Seconds an action waits for a free connection (PostgreSQL: of the pool; SQLite: of
    the process's one connection) before the player is told to try again."""
    lock_timeout: float = 10.0
    """Seconds an action waits for a lock another action holds (the game's, a player's
    rating row; SQLite: the file's write lock) before the player hears "this game is
    busy, try again"."""
    retry_seconds: float = 10.0
    """PostgreSQL: time budget for retrying an action that the server aborted without
    applying it (deadlock, serialization failure, connection refused or lost, the server
    restarting) before the player hears "the database is unavailable, try again"."""

    def check(self) -> None:
        if not self.database.strip():
            raise ConfigError("storage.database must be a file path, not empty")
        if self.url and not self.url.startswith(("postgresql://", "postgres://")):
            raise ConfigError("storage.url must be empty (SQLite) or a PostgreSQL URL such as "
                              "'postgresql://bgbot@127.0.0.1:5432/bgbot'")
        if self.pool_size < 1:
            raise ConfigError("storage.pool_size must be 1 or more")
        for key in ("acquire_timeout", "lock_timeout", "retry_seconds"):
            value = getattr(self, key)
            if not 0 < value <= 3600:
                raise ConfigError(f"storage.{key} must be more than 0 and at most 3600 "
                                  f"seconds (not {value})")


@dataclass(frozen=True, slots=True)
class GameConfig:
    variant: str = "standard"
    """Default variant for /challenge (standard, acey-deucey, acey-deucey-1930, russian, french)."""
    rules: dict[str, Any] = field(default_factory=dict)
    """Default rule options (see the README's rule option table); checked by the engine."""
    auto_confirm: bool = True
    """Finish a turn as soon as a complete legal play is entered (no Confirm step)."""

    def check(self) -> None:
        if not self.variant.strip():
            raise ConfigError("game.variant must name a variant, e.g. 'standard'")


@dataclass(frozen=True, slots=True)
class TimeoutConfig:
    reminder_minutes: float = 60.0
    """Remind the player on roll after this many idle minutes (0 disables reminders)."""
    claim_after_minutes: float = 1440.0
    """After this many idle minutes the waiting opponent may claim the game."""
    claim_scores_as: str = "cube"
    """'cube': scored as a resignation at the current cube value; 'gammon' or 'backgammon'."""

    def check(self) -> None:
        if self.reminder_minutes < 0:
            raise ConfigError("timeouts.reminder_minutes must be 0 (off) or more")
        if self.claim_after_minutes <= 0:
            raise ConfigError("timeouts.claim_after_minutes must be more than 0")
        if self.claim_scores_as not in ("cube", "gammon", "backgammon"):
            raise ConfigError(
                "timeouts.claim_scores_as must be one of: 'cube', 'gammon', 'backgammon'"
            )


ORIENTATIONS = ("challenger", "on-roll")


@dataclass(frozen=True, slots=True)
class TournamentSettingsConfig:
    organiser_role: str = ""
    """Discord role whose members may create and run tournaments (besides Manage Server)."""
    reminder_hours: float = 12.0
    """Remind the players of an unfinished match this many hours before the round's deadline
    (at most half-way through the round)."""
    round_hours: float = 0.0
    """Default hours a round lasts before its deadline (0: no deadline unless given)."""

    def check(self) -> None:
        if self.reminder_hours < 0:
            raise ConfigError("tournament.reminder_hours must be 0 or more")
        if self.round_hours < 0:
            raise ConfigError("tournament.round_hours must be 0 (no deadline) or more")


def default_render_workers() -> int:
    """One render worker fewer than the cores this process may run on, at least one.

    The event loop (every game's actions, Discord's heartbeats) needs a core of its own:
    on 2 cores, two workers and the loop took turns on the cores; at 75 % of the
    saturation a move's p99 was 38-52 ms with two workers against 19 ms with one,
    which also saturated higher: 607 actions/s against 490-499 (issue 35,
    ``bench/run.py service``)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not Linux: every core
        cores = os.cpu_count() or 1
    return max(1, cores - 1)


@dataclass(frozen=True, slots=True)
class RenderConfig:
    theme: str = "default"
    """Board theme: 'default' (colour-blind safe) or another theme name."""
    board_dir: str = "boards"
    """Console mode writes every board PNG into this folder."""
    workers: int = field(default_factory=default_render_workers)
    """Processes that render board PNGs for Discord (0: a thread of the bot process);
    by default one fewer than the cores (:func:`default_render_workers`)."""
    orientation: str = "challenger"
    """How a game's board is turned: 'challenger' (one orientation per game: the
    challenger, a chouette's box, at the bottom, in his point numbers) or 'on-roll' (the
    player on roll at the bottom, turning every turn)."""

    def check(self) -> None:
        if self.orientation not in ORIENTATIONS:
            raise ConfigError("render.orientation must be one of: "
                              f"{', '.join(map(repr, ORIENTATIONS))} (not {self.orientation!r})")
        if not 0 <= self.workers <= 32:
            raise ConfigError(f"render.workers must be from 0 to 32 (not {self.workers})")
        from render.theme import theme_names

        names = theme_names()
        if self.theme not in names:
            raise ConfigError(f"render.theme must be one of: {', '.join(names)} "
                              f"(not {self.theme!r})")


@dataclass(frozen=True, slots=True)
class AIConfig:
    enabled: bool = True
    """Players may challenge the bot itself (and ask for /hint and /analyze)."""
    name: str = "gnubot"
    """The AI's name in the console mode (in Discord it is the bot's own account)."""
    default_level: str = "strong"
    """beginner, intermediate, strong or expert."""
    time_limit: float = 10.0
    """Seconds the AI may think about one decision before a quick fallback decides."""
    processes: bool = True
    """Think in a separate process (keeps the bot responsive); false: a thread."""

    def check(self) -> None:
        levels = ("beginner", "intermediate", "strong", "expert")
        if self.default_level not in levels:
            raise ConfigError(f"ai.default_level must be one of: {', '.join(levels)}")
        if self.time_limit <= 0:
            raise ConfigError("ai.time_limit must be more than 0 seconds")
        if not self.name.strip():
            raise ConfigError("ai.name must not be empty")


LOG_LEVELS = ("debug", "info", "warning", "error")


def split_address(address: str) -> tuple[str, int]:
    """``host:port`` (``[::1]:9108`` for IPv6) as (host, port); ValueError if it is not one."""
    host, sep, port = address.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise ValueError(address)
    return host.removeprefix("[").removesuffix("]"), int(port)


@dataclass(frozen=True, slots=True)
class OpsConfig:
    metrics_address: str = ""
    """``host:port`` of the HTTP endpoint serving /healthz and /metrics (Prometheus);
    empty: no endpoint."""
    json_logs: bool = False
    """Write the logs as JSON lines (one object a line) instead of text."""
    log_level: str = "info"
    """debug, info (one line per committed action), warning or error."""

    def check(self) -> None:
        if self.metrics_address:
            try:
                split_address(self.metrics_address)
            except ValueError:
                raise ConfigError("ops.metrics_address must be host:port, e.g. "
                                  f"'127.0.0.1:9108' (not {self.metrics_address!r}); empty: "
                                  "no endpoint") from None
        if self.log_level not in LOG_LEVELS:
            raise ConfigError(f"ops.log_level must be one of: {', '.join(LOG_LEVELS)} "
                              f"(not {self.log_level!r})")


@dataclass(frozen=True, slots=True)
class AnalysisConfig:
    """Grading and puzzles (issue 33).  Server-level options: until per-server settings
    exist they apply to every server, and the service reads them through ONE accessor
    (``bot.service.analysis.settings.AnalysisSettings``)."""

    grade_matches: bool = True
    """Grade every finished standard match and money session in the background (only
    where the AI is on), and post the grades in the match's channel."""
    grade_seconds: float = 900.0
    """The most one match's grading may take (each game at most 120 s); past it the
    match is given up, saying why in the log."""
    grade_nice: int = 10
    """How much lower than the bot's the grading process's CPU priority is (0-19)."""
    puzzle_min_equity: float = 0.08
    """A decision that lost at least this much equity (EMG) becomes a puzzle (0.08:
    GNU Backgammon's "bad"; at least 0.02)."""
    anonymous_puzzles: bool = True
    """Puzzles do not name the player whose decision they show, nor his opponent."""
    daily_puzzle_channels: dict[str, Any] = field(default_factory=dict)
    """Server id -> the channel where a puzzle is posted every day, e.g.
    ``{ "123456789012345678" = 234567890123456789 }``."""
    daily_puzzle_hour: int = 12
    """The hour (UTC) the daily puzzle is posted."""

    def check(self) -> None:
        if not 10 <= self.grade_seconds <= 86400:
            raise ConfigError("analysis.grade_seconds must be from 10 to 86400 seconds")
        if not 0 <= self.grade_nice <= 19:
            raise ConfigError("analysis.grade_nice must be from 0 to 19")
        if not 0.02 <= self.puzzle_min_equity <= 3.0:
            raise ConfigError("analysis.puzzle_min_equity must be from 0.02 to 3.0 (EMG)")
        if not 0 <= self.daily_puzzle_hour <= 23:
            raise ConfigError("analysis.daily_puzzle_hour must be from 0 to 23 (UTC)")
        for guild, channel in self.daily_puzzle_channels.items():
            if not guild.isdigit() or int(guild) <= 0:
                raise ConfigError("analysis.daily_puzzle_channels: each key must be a "
                                  f"server id (digits), not {guild!r}")
            if isinstance(channel, bool) or not isinstance(channel, int) or channel <= 0:
                raise ConfigError(f"analysis.daily_puzzle_channels.{guild} must be a "
                                  f"channel id (a positive integer), not {channel!r}")


@dataclass(frozen=True, slots=True)
class ActivityConfig:
    """The live board as Discord's activity (issue 45; README "The live board")."""

    address: str = ""
    """``host:port`` the board is served on (behind the public HTTPS address the
    developer portal's URL mapping names); empty: no activity, no Open board button."""
    application_id: int = 0
    """The application's id (its OAuth2 client id)."""
    client_secret: str = ""
    """The application's OAuth2 client secret (``BGBOT_CLIENT_SECRET`` wins when set):
    sent to Discord only, never to a page nor a log."""
    api: str = "https://discord.com/api/v10"
    """Discord's API (tests point it at their fake)."""

    @property
    def secret(self) -> str:
        return os.environ.get("BGBOT_CLIENT_SECRET", "").strip() or self.client_secret.strip()

    @property
    def enabled(self) -> bool:
        return bool(self.address and self.application_id and self.secret)

    def __repr__(self) -> str:  # the secret is never printed
        return (f"ActivityConfig(address={self.address!r}, application_id="
                f"{self.application_id}, client_secret={'***' if self.secret else ''!r})")

    def check(self) -> None:
        if self.address:
            try:
                split_address(self.address)
            except ValueError:
                raise ConfigError("activity.address must be host:port, e.g. "
                                  f"'127.0.0.1:8765' (not {self.address!r}); empty: no "
                                  "activity") from None
            if not self.application_id or not self.secret:
                raise ConfigError("activity.address is set: activity.application_id and "
                                  "activity.client_secret (or BGBOT_CLIENT_SECRET) are "
                                  "needed too")


@dataclass(frozen=True, slots=True)
class Config:
    discord: DiscordConfig = field(default_factory=DiscordConfig)
    storage: StorageConfig = field(default_factory=StorageConfig)
    game: GameConfig = field(default_factory=GameConfig)
    timeouts: TimeoutConfig = field(default_factory=TimeoutConfig)
    render: RenderConfig = field(default_factory=RenderConfig)
    ai: AIConfig = field(default_factory=AIConfig)
    tournament: TournamentSettingsConfig = field(default_factory=TournamentSettingsConfig)
    ops: OpsConfig = field(default_factory=OpsConfig)
    analysis: AnalysisConfig = field(default_factory=AnalysisConfig)
    activity: ActivityConfig = field(default_factory=ActivityConfig)

    @property
    def token(self) -> str:
        return os.environ.get("DISCORD_TOKEN", "").strip() or self.discord.token.strip()


def _type_name(tp: Any) -> str:
    origin = typing.get_origin(tp)
    if origin is tuple:
        return f"a list of {_type_name(typing.get_args(tp)[0])}s"
    if origin is dict:
        return "a table"
    return {str: "a string", int: "an integer", float: "a number", bool: "true or false"}.get(
        tp, str(tp)
    )


def _coerce(key: str, value: Any, tp: Any) -> Any:
    origin = typing.get_origin(tp)
    if origin is tuple:
        (item,) = typing.get_args(tp)[:1]
        if not isinstance(value, list):
            raise ConfigError(f"{key} must be {_type_name(tp)}, got {value!r}")
        return tuple(_coerce(f"{key}[{i}]", v, item) for i, v in enumerate(value))
    if origin is dict:
        if not isinstance(value, dict):
            raise ConfigError(f"{key} must be a table, got {value!r}")
        return dict(value)
    if tp is bool:
        if not isinstance(value, bool):
            raise ConfigError(f"{key} must be true or false, got {value!r}")
        return value
    if tp is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ConfigError(f"{key} must be an integer, got {value!r}")
        return value
    if tp is float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ConfigError(f"{key} must be a number, got {value!r}")
        return float(value)
    if tp is str:
        if not isinstance(value, str):
            raise ConfigError(f"{key} must be a string, got {value!r}")
        return value
    raise ConfigError(f"{key}: unsupported type")  # pragma: no cover


def _build(cls: Any, data: dict[str, Any], prefix: str) -> Any:
    hints = typing.get_type_hints(cls)
    known = {f.name: f for f in fields(cls)}
    for key in data:
        if key not in known:
            allowed = ", ".join(sorted(known))
            where = f"[{prefix}]" if prefix else "the top level"
            raise ConfigError(f"unknown key {prefix + '.' if prefix else ''}{key} in {where}; "
                              f"allowed: {allowed}")
    values: dict[str, Any] = {}
    for name in known:
        if name not in data:
            continue
        tp = hints[name]
        full = f"{prefix}.{name}" if prefix else name
        if isinstance(tp, type) and is_dataclass(tp):
            if not isinstance(data[name], dict):
                raise ConfigError(f"[{full}] must be a table")
            values[name] = _build(tp, data[name], full)
        else:
            values[name] = _coerce(full, data[name], tp)
    obj = cls(**values)
    check = getattr(obj, "check", None)
    if check is not None:
        check()
    return obj


def parse_config(text: str, *, source: str = "config") -> Config:
    """Parse TOML text into a checked :class:`Config`."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{source} is not valid TOML: {exc}") from None
    config: Config = _build(Config, data, "")
    _check_rules(config)
    return config


def _check_rules(config: Config) -> None:
    """Validate the rule options with the engine, which owns their definitions."""
    from engine.errors import BackgammonError

    try:
        from engine.rules import RuleOptions
    except ImportError:  # pragma: no cover - the engine always ships rules.py
        return
    from_dict = getattr(RuleOptions, "from_dict", None)
    if from_dict is None:  # pragma: no cover
        return
    try:
        from_dict(config.game.rules)
    except BackgammonError as exc:
        raise ConfigError(f"game.rules: {exc}") from None


def load_config(path: str | Path | None) -> Config:
    """Load ``path`` (or defaults when ``path`` is None)."""
    if path is None:
        return Config()
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"config file {p} does not exist") from None
    except OSError as exc:
        raise ConfigError(f"cannot read config file {p}: {exc.strerror}") from None
    return parse_config(text, source=str(p))


def with_database(config: Config, database: str) -> Config:
    return replace(config, storage=replace(config.storage, database=database))


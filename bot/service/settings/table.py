"""The server settings: the typed value every feature reads (:class:`ServerSettings`) and the
table of keys a server may set (:data:`SETTINGS`), each with its description, its kind of
value (:mod:`bot.service.settings.kinds`) and the operator's default from ``config.toml``.

Adding a key: a field of :class:`ServerSettings` and a :class:`Setting` row in
:data:`SETTINGS` (same name); ``/settings`` shows, sets, resets, refuses and autocompletes
it from the row, and the storage keeps it with the others (typed JSON) with no migration.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any

from bot.ai.levels import LEVELS
from bot.config import BOARD_MODES, Config
from bot.service.core.replies import RoleMention
from bot.service.core.values import Place
from bot.service.settings.kinds import (
    Channels,
    ClockOption,
    Kind,
    Minutes,
    Number,
    OneChannel,
    OneOf,
    OneRole,
    RuleOption,
    Switch,
)
from engine.errors import BackgammonError
from engine.rules import RuleOptions
from engine.variant import VARIANTS, get_variant


@dataclass(frozen=True, slots=True)
class ServerSettings:
    """A server's settings in force: each the server's own value (``/settings set``), else
    the operator's default (``config.toml``)."""

    variant: str
    """The variant of a new game, chouette or tournament that names none."""
    rules: dict[str, Any]
    """Every rule option of a new game (:meth:`RuleOptions.to_dict` form): the options a
    command names win over these.  Read only."""
    threads: bool
    """A new game gets its own thread (where the bot may create threads)."""
    archive_after_minutes: float
    """A game's thread is archived this long after its match ended, when nothing else is
    open there (0: never)."""
    game_channels: tuple[int, ...] | None
    """The channels where games start (a thread: its channel); None: every channel."""
    tournament_channels: tuple[int, ...] | None
    """The channels where tournaments are created; None: every channel."""
    ai: bool
    """Players may challenge the bot itself (False too when the operator runs no AI)."""
    ai_level: str
    """The bot's level when a challenge names none."""
    reminder_minutes: float
    """Idle minutes before the player on roll is reminded (0: never)."""
    claim_after_minutes: float
    """Idle minutes after which the waiting opponent may claim the game."""
    organiser_role: RoleMention | None
    """Members with this role run tournaments (besides Manage Server); None: nobody else.
    The operator's default names the role only (``role_id`` None)."""
    tournament_announcements: int | None
    """The channel of tournament announcements; None: each tournament's own channel."""
    analysis_announcements: int | None
    """The channel where the grades of every finished match are posted; None: the match's
    own channel."""
    board_mode: str
    """How boards follow the play in Discord: ``auto`` (one live board edited in place in a
    game's own thread, a new board after every action in a shared channel), ``live`` or
    ``new``."""
    grade_matches: bool
    """Grade every finished standard match and money session in the background (False too
    when the operator runs no AI)."""
    anonymous_puzzles: bool
    """Puzzles do not name the player whose decision they show."""
    puzzle_min_equity: float
    """EMG a decision must lose to become a puzzle."""
    daily_puzzle_channel: int | None
    """Where a puzzle is posted every day; None: the operator's choice for this server
    (``analysis.daily_puzzle_channels``), else no daily puzzle."""
    clock: str = "none"
    """The time control of a new game that names none (issue 44): ``none``, or a
    :mod:`bot.service.core.timecontrol` clock as typed."""
    open_challenge_minutes: float = 30.0
    """How long an open challenge (``/challenge`` without an opponent) waits."""
    queue_channel: int | None = None
    """Where a match paired from the queue starts (issue 44 item 2); None: where the later
    of the two players joined."""
    watch_page: bool = False
    """Anyone with a game's watch link may watch it, read-only, outside Discord (issue 45:
    the web board's watch page)."""
    chosen: frozenset[str] = field(default=frozenset())
    """The keys this server set (the others are the operator's defaults)."""
    ignored: tuple[str, ...] = ()
    """Keys the server set whose stored value no longer holds (the operator's default
    applies): a rule option the operator's changed options now refuse, say."""
    version: int = 0
    """The version of the server's stored settings (0: it never set any)."""

    def rule_options(self) -> RuleOptions:
        return RuleOptions.from_dict(self.rules)

    def games_allowed(self, place: Place) -> bool:
        """Whether a game may start at ``place`` (a thread: where its channel is allowed)."""
        return _allowed(self.game_channels, place)

    def tournaments_allowed(self, place: Place) -> bool:
        return _allowed(self.tournament_channels, place)


def _allowed(channels: tuple[int, ...] | None, place: Place) -> bool:
    return channels is None or place.channel_id in channels or (
        place.parent_id is not None and place.parent_id in channels)


@dataclass(frozen=True, slots=True)
class Setting:
    """One key a server may set."""

    key: str
    """As typed in ``/settings set key value`` (a rule option: ``rules.<option>``)."""
    description: str
    kind: Kind
    default: Callable[[Config], Any]
    """The operator's default, typed as :meth:`Kind.decode` gives a stored value."""
    rule: str = ""
    """A rule option: its name in :class:`RuleOptions` (the value goes into ``rules``)."""


def variant_names() -> tuple[str, ...]:
    get_variant("standard")  # loads the variant plug-ins
    return tuple(sorted({cls.name for cls in VARIANTS.values()}))


def level_names() -> tuple[str, ...]:
    return tuple(LEVELS)


def operator_rules(config: Config) -> dict[str, Any]:
    """Every rule option as the operator's ``[game.rules]`` sets it (checked at start-up)."""
    return RuleOptions.from_dict(config.game.rules).to_dict()


RULE_DESCRIPTIONS: dict[str, str] = {
    "cube": "the doubling cube",
    "beavers": "beavers (money play)",
    "jacoby": "the Jacoby rule (money play)",
    "automatic_doubles": "automatic doubles when the opening throw ties",
    "automatic_doubles_cap": "at most this many automatic doubles a game",
    "max_cube": "the highest cube value",
    "crawford": "the Crawford rule (matches)",
    "scoring": "how a game is scored",
    "backgammon_value": "what a backgammon counts (3 or 4 times)",
    "opening": "how the first move is decided",
    "winner_throws_first": "the winner of a single game throws first in the next",
    "higher_die": "only one die playable: must it be the higher?",
    "double_before_any_throw": "doubling also before an extra throw or the opening re-throw",
    "drop_scoring": "what a refused double costs",
    "automatic_doubles_two_dice": "with a two-dice opening every tie doubles",
    "kicked_off": "Acey-Deucey: where a kicked-off man goes",
    "acey_deucey_gammons": "Acey-Deucey: gammons count",
    "russian_entering": "Russian: may men move in the throw that enters the last men?",
}


def _rule_default(name: str) -> Callable[[Config], Any]:
    return lambda config: operator_rules(config)[name]


def _role_default(config: Config) -> RoleMention | None:
    name = config.tournament.organiser_role
    return RoleMention(None, name) if name else None


SETTINGS: tuple[Setting, ...] = (
    Setting("variant", "the variant of a new game, chouette or tournament that names none",
            OneOf(variant_names), lambda c: c.game.variant),
    Setting("threads", "each new game gets its own thread (where the bot may create threads)",
            Switch(), lambda c: c.discord.use_threads),
    Setting("archive_after_minutes", "archive a game's thread this long after its match "
            "ends, when nothing else is open there", Minutes(1, 7 * 24 * 60, zero="never"),
            lambda c: float(c.discord.archive_after_minutes)),
    Setting("game_channels", "where games start: /challenge, /chouette open, /rematch "
            "(a thread counts as its channel)", Channels(), lambda c: None),
    Setting("tournament_channels", "where tournaments are created", Channels(),
            lambda c: None),
    Setting("ai", "players may challenge the bot itself", Switch(), lambda c: c.ai.enabled),
    Setting("ai_level", "the bot's level when a challenge names none", OneOf(level_names),
            lambda c: c.ai.default_level),
    Setting("reminder_minutes", "remind the player on roll after this idle time",
            Minutes(1, 7 * 24 * 60, zero="no reminders"),
            lambda c: c.timeouts.reminder_minutes),
    Setting("claim_after_minutes", "after this idle time the waiting opponent may /claim",
            Minutes(1, 30 * 24 * 60), lambda c: c.timeouts.claim_after_minutes),
    Setting("organiser_role", "members with this role run tournaments (besides Manage "
            "Server)", OneRole(none="only members with Manage Server"), _role_default),
    Setting("tournament_announcements", "where tournament announcements go (pairings "
            "opened, deadlines passed)", OneChannel(none="each tournament's own channel"),
            lambda c: None),
    Setting("analysis_announcements", "where the grades of every finished match are posted",
            OneChannel(none="the match's own channel"), lambda c: None),
    Setting("board_mode", "how boards follow the play: auto (a live board in a game's own "
            "thread, a new board after each action in a shared channel), live or new",
            OneOf(lambda: BOARD_MODES), lambda c: c.discord.board_mode),
    Setting("grade_matches", "grade every finished standard match in the background (PR, "
            "luck) and post the grades", Switch(), lambda c: c.analysis.grade_matches),
    Setting("anonymous_puzzles", "puzzles made from this server's blunders do not name the "
            "player", Switch(), lambda c: c.analysis.anonymous_puzzles),
    Setting("puzzle_min_equity", "a decision that lost at least this much equity becomes a "
            "puzzle", Number(0.02, 1.0, "EMG"), lambda c: c.analysis.puzzle_min_equity),
    Setting("daily_puzzle_channel", "where a puzzle is posted every day",
            OneChannel(none="no daily puzzle"), lambda c: None),
    Setting("clock", "the clock of a new game that names none: none, correspondence, fast, "
            "normal, casual, usbgf, or a delay and reserve like 12s+2m/pt", ClockOption(),
            lambda c: "none"),
    Setting("open_challenge_minutes", "how long an open challenge (/challenge without an "
            "opponent) waits for someone to accept it", Minutes(1, 7 * 24 * 60),
            lambda c: 30.0),
    Setting("queue_channel", "where a match paired from the queue starts",
            OneChannel(none="where the later of the two joined"), lambda c: None),
    Setting("watch_page", "anyone with a game's link may watch it outside "
            "Discord (read-only)", Switch(),
            lambda c: False),
    *(Setting(f"rules.{f.name}", f"the rule option {f.name} of a new game: "
              + RULE_DESCRIPTIONS.get(f.name, f.name), RuleOption(f.name),
              _rule_default(f.name), rule=f.name) for f in fields(RuleOptions)),
)
"""Every key, in the order ``/settings show`` lists them."""

BY_KEY: dict[str, Setting] = {s.key: s for s in SETTINGS}


def find(key: str) -> Setting | None:
    """The setting ``key`` names (case, spaces and ``-`` forgiven; ``jacoby`` is
    ``rules.jacoby``)."""
    word = key.strip().lower().replace("-", "_").replace(" ", "_")
    return BY_KEY.get(word) or BY_KEY.get(f"rules.{word}")


def build(config: Config, stored: dict[str, Any], *, ai_available: bool,
          version: int = 0) -> ServerSettings:
    """The settings in force from the server's ``stored`` values over the operator's
    defaults.  A stored value that no longer holds is ignored (and listed), so a server is
    never left without working defaults."""
    values: dict[str, Any] = {}
    chosen: set[str] = set()
    ignored: list[str] = []
    rules = operator_rules(config)
    server_rules: dict[str, Any] = {}
    for setting in SETTINGS:
        typed = setting.default(config)
        if setting.key in stored:
            try:
                typed = setting.kind.decode(stored[setting.key])
            except ValueError:
                ignored.append(setting.key)
            else:
                chosen.add(setting.key)
                if setting.rule:
                    server_rules[setting.rule] = typed
        if not setting.rule:
            values[setting.key] = typed
    merged = {**rules, **server_rules}
    try:
        RuleOptions.from_dict(merged)
    except BackgammonError:  # the operator's options changed under the server's
        merged = rules
        dropped = {f"rules.{name}" for name in server_rules}
        ignored.extend(sorted(dropped))
        chosen -= dropped
    values["ai"] = bool(values["ai"]) and ai_available
    values["grade_matches"] = bool(values["grade_matches"]) and ai_available
    return ServerSettings(rules=merged, chosen=frozenset(chosen), ignored=tuple(ignored),
                          version=version, **values)

"""``/settings``: each server's own defaults, over the operator's ``config.toml``.

* :meth:`SettingsService.of` -- the settings in force in a server, read by every feature
  (cached per server in this process: a change made here is seen at once, one made by
  another process within :data:`CACHE_SECONDS`; a cached read costs no database trip);
* :meth:`SettingsService.show`, :meth:`SettingsService.set`, :meth:`SettingsService.reset`
  -- the command: anyone may look, members with Manage Server (the adapter passes what the
  interaction itself says, never a cached role) change; each change answers with what
  changed (``threads: on → off``), each refusal with the allowed values.

A change is one transaction with the version check of :mod:`bot.storage.settings`: two
admins changing settings at once both apply, one after the other (the later one reads the
earlier's change and answers from it), never one lost.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from bot.config import Config
from bot.service.core.replies import ChannelMention, Notice, Part, Refusal, Reply, notice
from bot.service.core.values import MAX_ID, Actor, Place, bad_ids, without_server
from bot.service.settings.kinds import ByIds, Names, SettingError, quoted
from bot.service.settings.table import BY_KEY, SETTINGS, ServerSettings, Setting, build, find
from bot.storage.interface import Storage, StorageError, Transaction
from engine.errors import BackgammonError
from engine.rules import RuleOptions

log = logging.getLogger(__name__)

CACHE_SECONDS = 30.0
"""How long this process serves a server's settings from memory before reading them again
(a change made through this process is seen at once; one made by another process sharing
the PostgreSQL database, within this time)."""
CACHE_LIMIT = 10_000
"""Servers whose settings are kept in memory."""
MAX_VALUE_TEXT = 1000
"""Characters of a typed value read at most."""
ARROW = " → "


def change_line(setting: Setting, old: Any, new: Any, tail: str = "") -> Notice:
    """``key: old → new`` as a reader sees the two values."""
    return notice(setting.key, ": ", *setting.kind.show(old), ARROW, *setting.kind.show(new),
                  *((tail,) if tail else ()))


BRIEF_ITEMS = 5
"""The channels of a list key shown in the list of every key (the rest are counted)."""


def typed(settings: ServerSettings, setting: Setting) -> Any:
    """The value of ``setting`` in ``settings``."""
    if setting.rule:
        return settings.rules[setting.rule]
    return getattr(settings, setting.key)


class SettingsService:
    """The settings of every server, over the operator's config."""

    def __init__(self, storage: Storage, config: Config, *, ai_available: bool,
                 clock: Callable[[], float] = time.monotonic,
                 cache_seconds: float = CACHE_SECONDS) -> None:
        """``ai_available``: the operator runs the AI (a server can't switch it on
        otherwise); ``clock``: seconds, for the cache (tests move it)."""
        self.storage = storage
        self.config = config
        self.ai_available = ai_available
        self.clock = clock
        self.cache_seconds = cache_seconds
        self._defaults = build(config, {}, ai_available=ai_available)
        self._cache: dict[int, tuple[float, ServerSettings]] = {}

    # ------------------------------------------------------------ reading

    def defaults(self) -> ServerSettings:
        """The operator's defaults (a server that set nothing)."""
        return self._defaults

    def build(self, stored: dict[str, Any], version: int = 0) -> ServerSettings:
        return build(self.config, stored, ai_available=self.ai_available, version=version)

    async def of(self, guild_id: int) -> ServerSettings:
        """The settings in force in ``guild_id`` (from memory when read lately).

        Call it outside any transaction of the action (SQLite serves one at a time).
        Raises :class:`StorageError` when they must be read and the database is away."""
        if isinstance(guild_id, bool) or not 0 <= guild_id <= MAX_ID:
            return self._defaults  # (the action refuses the id itself)
        hit = self._cache.get(guild_id)
        if hit is not None and hit[0] > self.clock():
            return hit[1]
        async with self.storage.snapshot() as tx:
            row = await tx.guild_settings(guild_id)
        settings = self.build(row.values, row.version)
        self._remember(guild_id, settings)
        return settings

    async def within(self, tx: Transaction, guild_id: int) -> ServerSettings:
        """The settings in force in ``guild_id``, read inside the caller's transaction ``tx``
        when they are not in memory (an action that ends a match reads them there: SQLite
        serves one transaction at a time)."""
        if isinstance(guild_id, bool) or not 0 <= guild_id <= MAX_ID:
            return self._defaults
        hit = self._cache.get(guild_id)
        if hit is not None and hit[0] > self.clock():
            return hit[1]
        row = await tx.guild_settings(guild_id)
        settings = self.build(row.values, row.version)
        tx.on_commit(lambda: self._remember(guild_id, settings))
        return settings

    def _remember(self, guild_id: int, settings: ServerSettings) -> None:
        now = self.clock()
        hit = self._cache.pop(guild_id, None)
        if hit is not None and hit[0] > now and hit[1].version > settings.version:
            settings = hit[1]  # a read that began before this process's own change
        while len(self._cache) >= CACHE_LIMIT:
            del self._cache[next(iter(self._cache))]
        self._cache[guild_id] = (now + self.cache_seconds, settings)

    def forget(self, guild_id: int) -> None:
        """Read ``guild_id``'s settings again next time."""
        self._cache.pop(guild_id, None)

    async def per_guild(self, *keys: str) -> dict[str, tuple[Any, dict[int, Any]]]:
        """For each of ``keys``: the operator's default and the value of every server that
        set it (one snapshot, whatever the number of servers): for the loops that serve
        every server at once, such as the reminders."""
        out: dict[str, tuple[Any, dict[int, Any]]] = {}
        async with self.storage.snapshot() as tx:
            for key in keys:
                setting = BY_KEY[key]
                chosen: dict[int, Any] = {}
                for guild_id, stored in await tx.guilds_with_setting(key):
                    try:
                        chosen[guild_id] = setting.kind.decode(stored)
                    except ValueError:
                        continue  # (ignored: the operator's default applies)
                out[key] = (typed(self._defaults, setting), chosen)
        return out

    # ------------------------------------------------------------ /settings

    async def show(self, place: Place, actor: Actor, key: str | None = None) -> Reply:
        """Every setting of the server (or ``key``'s, with what it takes), and whether it
        is the server's own or the operator's default."""
        if (bad := bad_ids(place, actor)) is not None:
            return Reply.refuse(bad)
        if not place.in_server:
            return Reply.refuse(without_server(
                place, "/settings",
                "they are a server's own defaults, chosen by its admins. Without a server "
                "the operator's defaults apply, and each /challenge can pick its own options."))
        setting = None
        if key:
            setting = find(key)
            if setting is None:
                return Reply.refuse(unknown(key))
        try:
            settings = await self.of(place.guild_id)
        except StorageError as error:
            return Reply.refuse(str(error))
        if setting is not None:
            return Reply(ok=True, text="", ephemeral=True,
                         notify=self.describe(settings, setting))
        lines: list[Notice] = [self.line(settings, each, brief=True)
                               for each in SETTINGS if not each.rule]
        # The rule options last, each by its name in rules.<option> and its value: those
        # set here, then the operator's defaults (a line each, to fit one message).
        for own, head in ((True, "rules.<option> set here: "),
                          (False, "rules.<option> by the operator's defaults: ")):
            rules = [notice(each.key.removeprefix("rules."), " ",
                            *each.kind.show(typed(settings, each)))
                     for each in SETTINGS if each.rule and (each.key in settings.chosen) == own]
            if rules:
                lines.append(notice(head, *_joined(rules, ", ")))
        if settings.ignored:
            lines.append(notice("ignored (no longer valid, the operator's default applies): "
                                + ", ".join(settings.ignored)))
        # (short: with every key at its longest value, the list fits one Discord message)
        head = "Settings here (more: /settings show key):"
        return Reply(ok=True, text=head, ephemeral=True, notify=tuple(lines))

    def line(self, settings: ServerSettings, setting: Setting, *,
             brief: bool = False) -> Notice:
        """``setting``'s value here and where it comes from; ``brief`` (the list of every
        key, which must fit one Discord message): a long list of channels shows its first
        :data:`BRIEF_ITEMS` and counts the others (``/settings show key`` lists them all)."""
        own = setting.key in settings.chosen
        extra = ""
        if setting.key == "ai" and not self.ai_available:
            extra = " (the bot's operator runs no AI)"
        value = typed(settings, setting)
        shown = setting.kind.show(value)
        if brief and isinstance(value, tuple) and len(value) > BRIEF_ITEMS:
            shown = (*setting.kind.show(value[:BRIEF_ITEMS]),
                     f" and {len(value) - BRIEF_ITEMS} more")
        return notice(setting.key, ": ", *shown,
                      (" (set here)" if own else " (default)") + extra)

    def describe(self, settings: ServerSettings, setting: Setting) -> tuple[Notice, ...]:
        """``setting``'s value here, what it is, what it takes and the operator's default."""
        return (self.line(settings, setting),
                notice(f"{setting.key}: {setting.description}."),
                notice(f"Allowed: {setting.kind.allowed}."),
                notice("The operator's default: ",
                       *setting.kind.show(typed(self._defaults, setting)), "."))

    async def set(self, place: Place, actor: Actor, key: str, value: str, *,
                  manage_server: bool, names: Names | None = None) -> Reply:
        """Set ``key`` to the typed ``value`` for the server.  ``manage_server``: the
        interaction says the actor has Manage Server; ``names``: how the adapter names
        channels and roles (default: by id, "here" for this channel)."""
        refused = self._check(place, actor, manage_server)
        if refused is not None:
            return refused
        setting = find(key)
        if setting is None:
            return Reply.refuse(unknown(key))
        if len(value) > MAX_VALUE_TEXT:
            return Reply.refuse(f"That value is too long: {setting.key} takes "
                                f"{setting.kind.allowed}. Nothing was changed.")
        try:
            here = place.parent_id or place.channel_id  # (in a thread: its channel)
            parsed = setting.kind.parse(value, names or ByIds(here))
        except SettingError as error:
            return Reply.refuse(f"{setting.key} {error}. Nothing was changed.")
        if setting.key == "ai" and parsed and not self.ai_available:
            return Reply.refuse("The bot's operator runs no AI (ai.enabled is off in its "
                                "config), so games against the bot can't be switched on "
                                "here. Nothing was changed.")

        async def work(tx: Transaction) -> Reply:
            row = await tx.guild_settings(place.guild_id)
            before = self.build(row.values, row.version)
            if setting.rule:
                check_rules(setting, {**before.rules, setting.rule: parsed})
            values = {**row.values, setting.key: parsed}
            after = self.build(values, row.version + 1)
            old, new = typed(before, setting), typed(after, setting)
            if setting.key in before.chosen and old == new:
                return Reply(ok=True, text="", ephemeral=True, notify=(notice(
                    setting.key, " is already ", *setting.kind.show(new),
                    " here: nothing changed."),))
            await tx.write_guild_settings(row, values, updated_by=actor.id)
            tx.on_commit(lambda: self._remember(place.guild_id, after))
            if old == new:  # the operator's default, now the server's own
                line = notice(setting.key, ": ", *setting.kind.show(new), ", now set here "
                              "(it was the operator's default; it stays if that changes)")
            else:
                line = change_line(setting, old, new)
            return Reply(ok=True, text="", ephemeral=True, notify=(line,))

        return await self._write(work)

    async def reset(self, place: Place, actor: Actor, key: str, *,
                    manage_server: bool) -> Reply:
        """``key`` back to the operator's default."""
        refused = self._check(place, actor, manage_server)
        if refused is not None:
            return refused
        setting = find(key)
        if setting is None:
            return Reply.refuse(unknown(key))

        async def work(tx: Transaction) -> Reply:
            row = await tx.guild_settings(place.guild_id)
            before = self.build(row.values, row.version)
            default = typed(self._defaults, setting)
            if setting.key not in row.values:
                return Reply(ok=True, text="", ephemeral=True, notify=(notice(
                    setting.key, " is not set here: it is the operator's default, ",
                    *setting.kind.show(default), ". Nothing changed."),))
            if setting.rule:  # the others may need the server's value of this one
                check_rules(setting, {**before.rules, setting.rule: default})
            values = {k: v for k, v in row.values.items() if k != setting.key}
            after = self.build(values, row.version + 1)
            await tx.write_guild_settings(row, values, updated_by=actor.id)
            tx.on_commit(lambda: self._remember(place.guild_id, after))
            return Reply(ok=True, text="", ephemeral=True, notify=(change_line(
                setting, typed(before, setting), typed(after, setting),
                " (the operator's default)"),))

        return await self._write(work)

    def _check(self, place: Place, actor: Actor, manage_server: bool) -> Reply | None:
        if (bad := bad_ids(place, actor)) is not None:
            return Reply.refuse(bad)
        if not place.in_server:
            return Reply.refuse(without_server(
                place, "/settings",
                "they are a server's own defaults, chosen by its admins. Without a server "
                "the operator's defaults apply, and each /challenge can pick its own options."))
        if not manage_server:
            return Reply.refuse("Only members with the Manage Server permission can change "
                                "this server's settings. /rules shows the defaults of a new "
                                "game here.")
        return None

    async def _write(self, work: Callable[[Transaction], Any]) -> Reply:
        try:
            reply: Reply = await self.storage.run(work)
        except Refusal as refusal:
            return Reply.refuse(str(refusal))
        except StorageError as error:
            return Reply.refuse(str(error))
        return reply

    # ------------------------------------------------------------ autocomplete

    @staticmethod
    def keys(typed_text: str, limit: int = 25) -> list[tuple[str, str]]:
        """(key, description) of the keys matching ``typed_text``, for an autocomplete."""
        word = typed_text.strip().lower().replace("-", "_")
        found = [s for s in SETTINGS if word in s.key]
        found.sort(key=lambda s: (not s.key.startswith(word), s.key.startswith("rules.")))
        return [(s.key, s.description) for s in found[:limit]]

    @staticmethod
    def values(key: str, typed_text: str, limit: int = 25) -> list[str]:
        """The values ``key`` takes that match ``typed_text``, for an autocomplete."""
        setting = find(key)
        if setting is None:
            return []
        word = typed_text.strip().lower()
        return [v for v in setting.kind.choices() if word in v.lower()][:limit]


def refuse_channel(reason: str, lead: str, channels: tuple[int, ...] | None) -> Reply:
    """A refusal saying where this may be done instead: ``lead`` then the channels, as
    values (each adapter links them its own way)."""
    parts: list[Part] = [lead]
    for index, channel in enumerate(channels or ()):
        parts += [", "] if index else []
        parts.append(ChannelMention(channel))
    return Reply(ok=False, text=reason, ephemeral=True, notify=(notice(*parts, "."),))


def unknown(key: str) -> str:
    names = ", ".join(s.key for s in SETTINGS if not s.rule)
    return (f"There is no setting {quoted(key)}. Settings: {names}, and rules.<option> for "
            "each rule option (e.g. rules.jacoby). /settings show lists them with their "
            "values.")


def check_rules(setting: Setting, rules: dict[str, Any]) -> None:
    """Refuse a rule option that the other options in force do not allow."""
    try:
        RuleOptions.from_dict(rules)
    except BackgammonError as error:
        shown = "".join(str(p) for p in setting.kind.show(rules[setting.rule]))
        raise Refusal(f"{setting.key} can't be {shown} with the other rule options in force "
                      f"here: {error} Nothing was changed.") from None


def _joined(lines: list[Notice], sep: str) -> tuple[Part, ...]:
    out: list[Part] = []
    for index, line in enumerate(lines):
        if index:
            out.append(sep)
        out.extend(line)
    return tuple(out)

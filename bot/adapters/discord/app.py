"""The Discord bot: a thin adapter from slash commands and buttons to the game service.

:class:`BackgammonBot` is a :class:`discord.ext.commands.AutoShardedBot` whose
``setup_hook`` opens the storage, creates the :class:`~bot.service.game.GameService`
(unless one is injected, as the tests do), registers the persistent game
buttons (:class:`~bot.adapters.discord.buttons.GameButton`), loads every cog in
``bot/adapters/discord/cogs``
and syncs the application commands, only when their payload changed since the
last sync (a SHA-256 of it is kept next to the database).

One error handler (:meth:`BackgammonBot.on_interaction_error`, used by the
command tree and by the buttons) turns errors into private messages: missing
permissions are named, anything unexpected is logged with its traceback and
answered with an apology.  The token never reaches the logs
(:class:`RedactingFormatter`).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import pkgutil
import sys
from pathlib import Path
from typing import Any

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from bot.adapters.discord.activity import OpenBoard, entry_point_command, start_board
from bot.adapters.discord.builder import BuilderButton, StepMenu
from bot.adapters.discord.buttons import GameButton
from bot.adapters.discord.convert import EVERY_CONTEXT, EVERY_INSTALL, answerable
from bot.adapters.discord.deadlines import DONE, received
from bot.adapters.discord.errors import THREAD_ARCHIVED, Unanswerable, describe_error
from bot.adapters.discord.host import ServiceBot
from bot.adapters.discord.live import LiveBoards, board_mode
from bot.adapters.discord.lobby import LobbyAccept, LobbyJoin
from bot.adapters.discord.pace import Pace
from bot.adapters.discord.presenter import Presenter
from bot.adapters.discord.puzzles import PuzzleButton, PuzzleMenu
from bot.adapters.discord.renderer import Renderer
from bot.config import Config
from bot.ops.endpoint import start_endpoint
from bot.ops.logs import RedactingFormatter as RedactingFormatter  # (re-exported)
from bot.ops.logs import apology, error_reference
from bot.ops.logs import setup_logging as setup_ops_logging
from bot.ops.metrics import observer_for
from bot.runtime import Stopper, stop_children
from bot.service.core.boot import Storage, StorageError, storage_for
from bot.service.core.values import Place
from bot.service.game import GameService
from engine.words import counted

log = logging.getLogger(__name__)

INTENTS = discord.Intents.none()
INTENTS.guilds = True
"""The gateway events the bot subscribes to: only the servers themselves (their channels,
threads and roles, which the caches, the settings and the threads need).  Commands,
buttons and menus come as interactions, which need no intent; the bot reads no message,
no typing, no reaction, no member list, no presence."""


class BackgammonTree(app_commands.CommandTree["BackgammonBot"]):
    async def interaction_check(self, interaction: discord.Interaction[BackgammonBot]) -> bool:
        received(interaction)  # the deadlines count from here
        if not answerable(interaction):
            raise Unanswerable("a thread a moderator locked and archived")
        return True

    async def on_error(self, interaction: discord.Interaction[BackgammonBot],
                       error: app_commands.AppCommandError) -> None:
        await self.client.on_interaction_error(interaction, error)


GLOBAL_ONLY = ("contexts", "integration_types")
"""Fields of a command that Discord documents for global commands only
(interactions/application-commands.md)."""


def documented(command: dict[str, Any], *, guild: bool) -> dict[str, Any]:
    """``command`` as discord.py writes it, less what Discord's docs do not define for the
    call: ``dm_permission`` (deprecated: ``contexts`` says the same) always, and
    ``contexts`` and ``integration_types`` in a server's command (a server's commands
    are offered in that server only, to its members)."""
    dropped = ("dm_permission", *(GLOBAL_ONLY if guild else ()))
    return {k: v for k, v in command.items() if k not in dropped}


def cog_extensions() -> list[str]:
    """Every module of ``bot/adapters/discord/cogs`` (names starting with ``_`` are helpers)."""
    from bot.adapters.discord import cogs

    return sorted(f"{cogs.__name__}.{m.name}" for m in pkgutil.iter_modules(cogs.__path__)
                  if not m.name.startswith("_"))


class BackgammonBot(ServiceBot):
    """The bot.  ``service`` or ``storage`` may be injected (tests); otherwise the
    config's storage (SQLite file, or PostgreSQL ``storage.url``) is opened in
    :meth:`setup_hook`."""

    def __init__(self, config: Config, *, service: GameService | None = None,
                 storage: Storage | None = None, sync_state: Path | None = None,
                 **options: Any) -> None:
        shard_count = config.discord.shard_count or None
        if config.discord.shard_ids:  # one of several processes: run only these shards
            options.setdefault("shard_ids", list(config.discord.shard_ids))
        options.setdefault("allowed_mentions", discord.AllowedMentions(
            everyone=False, roles=False, users=True))
        # Every command is offered to both installs (a server's, a user's account: issue
        # 32) in servers, DMs with the bot and DMs and group DMs between users, unless it
        # says otherwise (the tournament and settings groups: servers that installed it).
        options.setdefault("allowed_installs", EVERY_INSTALL)
        options.setdefault("allowed_contexts", EVERY_CONTEXT)
        super().__init__(command_prefix=commands.when_mentioned,
                         intents=INTENTS, tree_cls=BackgammonTree,
                         shard_count=shard_count, help_command=None, **options)
        self.pace = Pace()
        """The pace of the bot's REST requests under Discord's global limit (:mod:`.pace`):
        every request of discord.py's HTTP client takes its turn."""
        self.http.request = self.pace.paced(  # type: ignore[method-assign,assignment]
            self.http.request)
        self.config = config
        self._service = service
        self._storage = storage if service is None else service.storage
        self._owns_storage = service is None
        self.board_server: aiohttp.web.AppRunner | None = None
        """The live board's web server (Discord's activity), when it is set up."""
        self.presenter = Presenter(
            Renderer(config.render.theme, workers=config.render.workers),
            notes=lambda: self.service,
            live=lambda presenter: LiveBoards(presenter.build, self.board_mode))
        if sync_state is None and config.storage.database != ":memory:":
            db = Path(config.storage.database)
            sync_state = db.with_name(db.name + ".commands.sha256")
        self.sync_state = sync_state
        self.synced: bool | None = None
        """After start-up: True if commands were synced, False if unchanged."""

    @property
    def service(self) -> GameService:
        if self._service is None:
            raise RuntimeError("the game service starts in setup_hook")
        return self._service

    async def setup_hook(self) -> None:
        if self._service is None:
            if self._storage is None:
                self._storage = storage_for(self.config)  # SQLite file or PostgreSQL url
            storage = self._storage
            await storage.open()
            from bot.ai.runner import runner_from_config

            runner = runner_from_config(self.config.ai)
            self._service = GameService(storage, self.config, ai=runner,
                                        observer=observer_for(self.config))
            lifecycle = self._service.lifecycle
            lifecycle.on_stop("the storage", storage.close)  # registered first: closed last
            if runner is not None:
                lifecycle.on_stop("the AI workers", runner.close)
                await runner.start()
        self._service.lifecycle.on_stop("the render workers", self.presenter.renderer.close)
        await self.presenter.renderer.start()  # the first boards need not wait for workers
        if self._owns_storage:  # (tests inject their service and serve no endpoint)
            metrics = await start_endpoint(self.config, self._service, self.gateway_problem,
                                           self.presenter.renderer)
            if metrics is not None:
                metrics.metrics.gateway = lambda: [(sid, shard.latency)
                                                   for sid, shard in self.shards.items()]
        if self._service.ai is not None and self.user is not None:
            # Challenging the bot itself starts a game against the AI.
            self._service.set_ai_user(self.user.id, self.user.name)
        self.add_dynamic_items(GameButton, StepMenu, BuilderButton, PuzzleButton, PuzzleMenu,
                               OpenBoard, LobbyAccept, LobbyJoin)
        self.board_server = await start_board(self.config, self._service,
                                              self.http.token or self.config.token)
        self.presenter.activity = self.board_server is not None
        for extension in cog_extensions():
            await self.load_extension(extension)
        self.synced = await self.sync_commands()

    async def close(self) -> None:
        """Stop: no new action, those in flight finish (their replies still reach Discord),
        then the gateway closes, then what the service registered (render and AI workers,
        the storage when it is this bot's) in the reverse order of their start."""
        service = self._service
        if service is not None:
            await service.lifecycle.drain()
        if self.board_server is not None:  # the activity's pages: no new action
            server, self.board_server = self.board_server, None
            await server.cleanup()
        try:
            await self.presenter.close()  # the live boards' last edits
            await super().close()
        finally:
            self.presenter.renderer.close()
            if service is not None and self._owns_storage:
                self._service = None
                await service.lifecycle.stop()

    async def board_mode(self, place: Place) -> str:
        """The board mode of ``place``: its server's ``board_mode`` setting."""
        settings = await self.service.server_settings(place.guild_id)
        return board_mode(settings.board_mode, place)

    def gateway_problem(self) -> str | None:
        """For the health check: None when every shard of this process is connected."""
        if self.is_closed():
            return "closed"
        if not self.is_ready():
            return "not ready yet"
        down = [sid for sid, shard in self.shards.items() if shard.is_closed()]
        shards = counted(len(down), "shard", digits=False)
        return f"{shards} {', '.join(map(str, down))} disconnected" if down else None
    # ------------------------------------------------------------ commands

    def command_payload(self, guild: discord.abc.Snowflake | None = None,
                        ) -> list[dict[str, Any]]:
        """The commands as synced globally (``guild``: to that server): the fields Discord
        documents for each (:func:`documented`)."""
        commands = [documented(c.to_dict(self.tree), guild=guild is not None)
                     for c in self.tree.get_commands(guild=guild)]
        if guild is None and self.config.activity.enabled:  # (global only, per Discord)
            board = next((c for c in commands if c.get("name") == "board"), None)
            commands.append(entry_point_command(board))
        return commands

    def command_hash(self) -> str:
        guilds = sorted(self.config.discord.dev_guild_ids)
        data = {"application": self.application_id, "guilds": guilds,
                "commands": self.command_payload()}
        return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()

    async def sync_commands(self) -> bool:
        """Sync the commands (to the dev guilds, else globally) if they changed."""
        digest = self.command_hash()
        if self.sync_state is not None:
            try:
                if self.sync_state.read_text(encoding="utf-8").strip() == digest:
                    log.info("application commands unchanged: sync skipped")
                    return False
            except OSError:
                pass
        guilds = self.config.discord.dev_guild_ids
        if self.application_id is None:
            raise app_commands.MissingApplicationID
        if guilds:
            for guild_id in guilds:
                guild = discord.Object(guild_id)
                self.tree.copy_global_to(guild=guild)
                await self.http.bulk_upsert_guild_commands(
                    self.application_id, guild_id, payload=self.command_payload(guild))
            log.info("application commands synced to guilds %s", ", ".join(map(str, guilds)))
        else:
            await self.http.bulk_upsert_global_commands(self.application_id,
                                                        payload=self.command_payload())
            log.info("application commands synced globally")
        if self.sync_state is not None:
            try:
                self.sync_state.write_text(digest + "\n", encoding="utf-8")
            except OSError as exc:
                log.warning("cannot record the command hash in %s: %s", self.sync_state, exc)
        return True

    # -------------------------------------------------------------- errors

    async def on_interaction_error(self, interaction: discord.Interaction[Any],
                                   error: Exception) -> None:
        """The one error handler of commands and buttons."""
        original = error.original if isinstance(
            error, app_commands.CommandInvokeError) else error
        if isinstance(original, Unanswerable) or (
                isinstance(original, discord.HTTPException)
                and original.code == THREAD_ARCHIVED and not answerable(interaction)):
            # Discord refuses every answer there: nothing was done, nothing can be said.
            log.info("not answering %s in %s: a thread a moderator locked and archived",
                     interaction.command.qualified_name if interaction.command
                     else "an interaction", interaction.channel_id)
            return
        text = describe_error(error)
        if text is None:
            command = interaction.command.qualified_name if interaction.command else None
            what = f"/{command}" if command else f"interaction {interaction.data!r}"
            ref = error_reference()  # in the log line and in the apology: a report finds it
            log.error("unexpected error %s in %s", ref, what, exc_info=original,
                      extra={"error_ref": ref})
            text = apology(ref) if not interaction.extras.get(DONE) else (
                f"Something went wrong on my side (logged as error {ref}).")
        if interaction.extras.get(DONE):  # the service carried the action out already
            text = ("Your command went through (anything it changed is saved), but I could "
                    f"not post its result here. {text} `/board` shows where a game stands.")
        try:
            await self.presenter.private(interaction, text)
        except discord.HTTPException as exc:
            log.warning("could not tell the user about an error: %s", exc)

    async def on_ready(self) -> None:
        user = self.user
        log.info("ready as %s (%s) in %d guild(s)", user, user.id if user else "?",
                 len(self.guilds))


def setup_logging(token: str, config: Config | None = None) -> None:
    ops = (config or Config()).ops
    setup_ops_logging(token, json_lines=ops.json_logs, level=ops.log_level)


async def _run(config: Config) -> int:
    async with BackgammonBot(config) as bot:
        closing: list[asyncio.Future[None]] = []  # (a reference keeps the task alive)
        stopper = Stopper(on_stop=lambda: closing.append(asyncio.ensure_future(bot.close())))
        stopper.install()
        try:
            await bot.start(config.token)
        except StorageError as error:
            print(f"bgbot: cannot start: {error}", file=sys.stderr)
            return 1
        except discord.LoginFailure:
            log.error("Discord rejected the token: check DISCORD_TOKEN or discord.token")
            return 1
        except discord.PrivilegedIntentsRequired:  # pragma: no cover - no privileged intent
            log.error("Discord refused the intents")
            return 1
        except (aiohttp.ClientError, OSError) as exc:
            log.error("Cannot reach Discord (%s): check the network, or run the console "
                      "mode with `python -m bot console`", exc)
            return 1
        finally:
            stopper.remove()
            await bot.close()
            await asyncio.to_thread(stop_children)
    return 0


def run_discord(config: Config) -> int:
    """Run the bot until it is stopped (SIGTERM, Ctrl-C: cleanly, status 0); the exit
    status for ``python -m bot``."""
    setup_logging(config.token, config)
    try:
        return asyncio.run(_run(config))
    except KeyboardInterrupt:  # before the handlers were installed
        return 0

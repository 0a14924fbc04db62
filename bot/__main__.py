"""Start the bot: ``python -m bot [--config PATH]`` or ``python -m bot COMMAND``.

With a Discord token (``DISCORD_TOKEN`` or ``discord.token`` in the config) the
Discord bot starts; without one, or with the ``console`` command, the local
console mode starts on the same game service.  The other commands look after the data:
``backup`` and ``check`` (:mod:`bot.ops.backup`), ``migrate-sqlite`` (to PostgreSQL).
``python -m bot --help`` lists them all.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bot.config import Config, ConfigError, load_config, with_database


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description="Backgammon host for Discord. Without a command it starts the Discord "
                    "bot when a token is configured (DISCORD_TOKEN or discord.token), else "
                    "the console mode. SIGTERM or Ctrl-C stop it cleanly.",
    )
    parser.add_argument("--config", metavar="PATH",
                        help="TOML config file (default: config.toml if it exists)")
    sub = parser.add_subparsers(dest="command", title="commands", metavar="COMMAND")
    console = sub.add_parser("console", help="play in the terminal on the same game service")
    console.add_argument("--db", metavar="PATH", help="SQLite database file for the console")
    console.add_argument("--script", metavar="FILE",
                         help="read commands from FILE instead of the keyboard ('-' for stdin)")
    console.add_argument("--boards", metavar="DIR", help="folder for board PNGs")
    sub.add_parser("discord", help="run the Discord bot (needs a token)")
    webp = sub.add_parser("web", help="serve the live web board on 127.0.0.1 (the console's "
                                      "users: two tabs, two players)")
    webp.add_argument("--port", type=int, default=8765, help="port (default 8765; 0: any)")
    webp.add_argument("--no-open", action="store_true", help="do not open a browser")
    webp.add_argument("--db", metavar="PATH", help="SQLite database file")
    backup = sub.add_parser("backup", help="copy the SQLite database to FILE, consistently, "
                                           "even while the bot runs")
    backup.add_argument("file", metavar="FILE", help="the new file of the copy")
    backup.add_argument("--db", metavar="PATH",
                        help="the database to copy (default: storage.database)")
    check = sub.add_parser("check", help="verify a SQLite database or backup: integrity, "
                                         "migrations, every game replayed")
    check.add_argument("file", metavar="FILE")
    migrate = sub.add_parser("migrate-sqlite", aliases=["migrate"],
                             help="copy a SQLite database into an empty PostgreSQL database "
                                  "and verify the copy by replaying every game")
    migrate.add_argument("sqlite_path", metavar="SQLITE_PATH")
    migrate.add_argument("postgres_url", metavar="POSTGRES_URL")
    return parser


def where_line(config: Config, config_path: str | None, boards: str | None, *,
               discord: bool = False) -> str:
    """The one line a start prints: where the database, the boards and the config are (the
    first start on a fresh machine says it creates the database)."""
    if config.storage.url:
        from bot.storage.backends import describe

        data = f"database {describe(config)}"
    else:
        path = Path(config.storage.database).resolve()
        data = (f"database {path}" if path.exists()
                else f"new database {path} (first start: created now)")
    folder = ("boards posted to Discord" if discord
              else f"boards in {Path(boards or config.render.board_dir).resolve()}")
    if config_path is None and Path("config.toml").exists():
        config_path = "config.toml"
    setting = (f"config {Path(config_path).resolve()}" if config_path else
               "no config file (defaults; copy config.example.toml to config.toml to change "
               "them)")
    return f"bgbot: {data}; {folder}; {setting}"


def _load(args: argparse.Namespace) -> Config:
    path = args.config
    if path is None and Path("config.toml").exists():
        path = "config.toml"
    return load_config(path)


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        config = _load(args)
    except ConfigError as exc:
        print(f"config error: {exc}", file=sys.stderr)
        return 2
    command = args.command
    if command in ("migrate-sqlite", "migrate"):
        from bot.storage.sqlite_to_postgres import run as migrate_sqlite

        return migrate_sqlite(args.sqlite_path, args.postgres_url)
    if command == "backup":
        from bot.ops.backup import run_backup

        if config.storage.url and not args.db:
            print("backup: this bot's data is in PostgreSQL: back it up with pg_dump (README, "
                  "\"Backups\")")
            return 2
        return run_backup(args.db or config.storage.database, args.file)
    if command == "check":
        from bot.ops.backup import run_check

        return run_check(args.file)
    if command is None:
        command = "discord" if config.token else "console"
        if command == "console":
            print("No Discord token configured (DISCORD_TOKEN or discord.token): "
                  "starting the local console mode.", file=sys.stderr)
    if command == "discord":
        if not config.token:
            print("config error: no Discord token: set DISCORD_TOKEN or discord.token",
                  file=sys.stderr)
            return 2
        print(where_line(config, args.config, None, discord=True), file=sys.stderr)
        from bot.adapters.discord.app import run_discord
        from bot.runtime import tune_gc

        tune_gc()
        return run_discord(config)
    if getattr(args, "db", None):
        config = with_database(config, args.db)
    if command == "web":
        from bot.adapters.web.run import run_web

        return run_web(config, port=args.port, open_browser=not args.no_open)
    print(where_line(config, args.config, getattr(args, "boards", None)), file=sys.stderr)
    from bot.adapters.console import run_console
    from bot.runtime import tune_gc

    tune_gc()
    return run_console(config, script=getattr(args, "script", None),
                       boards=getattr(args, "boards", None))


if __name__ == "__main__":
    sys.exit(main())

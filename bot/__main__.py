"""Start the bot: ``python -m bot [--config PATH]`` or ``python -m bot console``.

With a Discord token (``DISCORD_TOKEN`` or ``discord.token`` in the config) the
Discord bot starts; without one, or with the ``console`` command, the local
console mode starts on the same game service.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bot.config import Config, ConfigError, load_config, with_database


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description="Backgammon host for Discord. Without a token it starts the console mode.",
    )
    parser.add_argument("--config", metavar="PATH",
                        help="TOML config file (default: config.toml if it exists)")
    sub = parser.add_subparsers(dest="command")
    console = sub.add_parser("console", help="play in the terminal on the same game service")
    console.add_argument("--db", metavar="PATH", help="SQLite database file for the console")
    console.add_argument("--script", metavar="FILE",
                         help="read commands from FILE instead of the keyboard ('-' for stdin)")
    console.add_argument("--boards", metavar="DIR", help="folder for board PNGs")
    sub.add_parser("discord", help="run the Discord bot (needs a token)")
    migrate = sub.add_parser("migrate-sqlite",
                             help="copy a SQLite database into an empty PostgreSQL database "
                                  "and verify the copy by replaying every game")
    migrate.add_argument("sqlite_path", metavar="SQLITE_PATH")
    migrate.add_argument("postgres_url", metavar="POSTGRES_URL")
    return parser


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
    if command == "migrate-sqlite":
        from bot.storage.sqlite_to_postgres import run as migrate_sqlite

        return migrate_sqlite(args.sqlite_path, args.postgres_url)
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
        from bot.adapters.discord.app import run_discord
        from bot.runtime import tune_gc

        tune_gc()
        return run_discord(config)
    if getattr(args, "db", None):
        config = with_database(config, args.db)
    from bot.adapters.console import run_console
    from bot.runtime import tune_gc

    tune_gc()
    return run_console(config, script=getattr(args, "script", None),
                       boards=getattr(args, "boards", None))


if __name__ == "__main__":
    sys.exit(main())

"""``python tests/support/fake_bot.py API GATEWAY ARGS...``: ``python -m bot ARGS...`` with
discord.py pointed at the fake Discord (tests/support/fake_discord.py) on 127.0.0.1, as the
in-process end-to-end tests point it (tests/support/discord_e2e.py)."""

from __future__ import annotations

import sys

import discord
import yarl

if __name__ == "__main__":
    api, gateway, *argv = sys.argv[1:]
    discord.http.Route.BASE = api
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
    from bot.__main__ import main

    sys.exit(main(argv))

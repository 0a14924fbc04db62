"""Importing the service loads no network, no Pillow and no discord.py (the adapters and
the AI load them when they are used): re-exports once pulled bgsage and Pillow into every
``import bot.service...``."""

from __future__ import annotations

import subprocess
import sys


def test_importing_the_service_loads_neither_the_ai_network_nor_pillow_nor_discord() -> None:
    code = ("import sys, bot.service.game, bot.service.chouette.service, "
            "bot.service.analysis.service; "
            "print(sorted(m for m in ('bgsage', 'PIL', 'discord', 'aiohttp') "
            "if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=True)
    assert done.stdout.strip() == "[]", done.stdout

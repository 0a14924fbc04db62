"""Issue 42 item 3: the ``hints`` option of ``/challenge`` is in the README's option list,
the console's ``/help`` and Discord's ``/help`` (players learnt it from a refusal)."""

from __future__ import annotations

import re
from pathlib import Path

from bot.adapters.console.help import HELP
from bot.adapters.discord.cogs.info import START_TIPS

ROOT = Path(__file__).resolve().parents[2]


def test_the_readme_lists_the_hints_option_of_challenge() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    (row,) = [line for line in readme.splitlines()
              if line.startswith("| `/challenge opponent:@user")]
    assert "[hints]" in row and re.search(r"`hints`: either player may ask `/hint`", row)


def test_the_console_help_names_hints() -> None:
    (line,) = [line for line in HELP.splitlines() if "/challenge @user" in line]
    assert "hints=on" in line
    assert "hints=on: either player may ask /hint" in HELP


def test_discord_help_names_hints() -> None:
    assert "`hints` to allow `/hint` in a rated match" in START_TIPS

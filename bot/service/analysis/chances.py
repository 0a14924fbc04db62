"""Winning chances as a hint shows them: the player's wins, gammons and backgammons,
and the opponent's gammons and backgammons too (issue 19 item 14)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bot.ai.sage import Chances


def chances_text(c: Chances) -> str:
    """``"win 54.1% (gammon 15.2%, backgammon 0.8%); opponent's gammon 10.3%,
    backgammon 0.5%"``."""
    return (f"win {c.win * 100:.1f}% (gammon {c.gammon_win * 100:.1f}%, backgammon "
            f"{c.backgammon_win * 100:.1f}%); opponent's gammon {c.gammon_loss * 100:.1f}%, "
            f"backgammon {c.backgammon_loss * 100:.1f}%")

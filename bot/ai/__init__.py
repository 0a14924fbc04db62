"""The AI opponent, hints and game analysis (bgsage for standard backgammon, a
heuristic for the variants).  See the modules:

* :mod:`bot.ai.convert`   engine positions <-> bgsage boards
* :mod:`bot.ai.levels`    named levels (depth + noise); default ``strong``
* :mod:`bot.ai.deadcube`  when a double cannot change anything (never offered)
* :mod:`bot.ai.context`   the match score the game does not carry
* :mod:`bot.ai.player`    ``decide(game, context, level, rng) -> Decision``
* :mod:`bot.ai.heuristic` the documented heuristic player (variants, baseline)
* :mod:`bot.ai.hints`     ``hint``: the best plays, the cube advice
* :mod:`bot.ai.analysis`  ``analyze``: decisions (:mod:`bot.ai.decisions`), luck
  (:mod:`bot.ai.luck`), match-winning chances (:mod:`bot.ai.mwc`); what it finds
  (:mod:`bot.ai.analysed`) and its stored form (:mod:`bot.ai.stored`)
* :mod:`bot.ai.runner`    ``AIRunner``: the same, off the event loop, with a time limit
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.ai.analysed import GameAnalysis
    from bot.ai.analysis import analyze
    from bot.ai.context import MatchContext
    from bot.ai.deadcube import dead_double_reason
    from bot.ai.hints import Hint, hint
    from bot.ai.levels import (
        DEFAULT_LEVEL,
        LEVELS,
        Level,
        analysis_level,
        fallback_level,
        get_level,
    )
    from bot.ai.player import Decision, NoDecision, apply_decision, decide
    from bot.ai.runner import AIRunner

_HOMES = {
    "AIRunner": "bot.ai.runner",
    "DEFAULT_LEVEL": "bot.ai.levels",
    "Decision": "bot.ai.decision",
    "GameAnalysis": "bot.ai.analysed",
    "Hint": "bot.ai.hints",
    "LEVELS": "bot.ai.levels",
    "Level": "bot.ai.levels",
    "MatchContext": "bot.ai.context",
    "NoDecision": "bot.ai.decision",
    "analysis_level": "bot.ai.levels",
    "analyze": "bot.ai.analysis",
    "apply_decision": "bot.ai.player",
    "dead_double_reason": "bot.ai.deadcube",
    "decide": "bot.ai.player",
    "fallback_level": "bot.ai.levels",
    "get_level": "bot.ai.levels",
    "hint": "bot.ai.hints",
}
"""Where each name lives: imported on first use, so ``import bot.ai.levels`` (or the
service) does not load the network (bgsage) until an AI is used."""


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'bot.ai' has no attribute {name!r}")
    return getattr(importlib.import_module(home), name)


__all__ = [
    "DEFAULT_LEVEL",
    "LEVELS",
    "AIRunner",
    "Decision",
    "GameAnalysis",
    "Hint",
    "Level",
    "MatchContext",
    "NoDecision",
    "analysis_level",
    "analyze",
    "apply_decision",
    "dead_double_reason",
    "decide",
    "fallback_level",
    "get_level",
    "hint",
]

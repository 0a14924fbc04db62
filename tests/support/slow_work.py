"""Jobs that keep a worker process busy for a while (tests/support/group_signal_driver.py):
importable by name in the worker processes."""

from __future__ import annotations

import os
import time
from typing import Any


def slow_pid(seconds: float) -> int:
    """Work for ``seconds``, then say which process did it."""
    time.sleep(seconds)
    return os.getpid()


def slow_analyze(record: Any, context: Any, seconds: float) -> Any:
    """The grading worker's analysis of a game, ``seconds`` longer."""
    from bot.ai.analysis import analyze

    time.sleep(seconds)
    return analyze(record, context)

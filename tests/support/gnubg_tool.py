"""Debian's GNU Backgammon for the tests that load files into it: where it is, and the
mark of a test that needs it (skipped, saying why, when it is missing)."""

from __future__ import annotations

import os
import shutil
from typing import Any

import pytest


def _gnubg() -> str | None:
    found = shutil.which("gnubg")
    if found:
        return found
    debian = "/usr/games/gnubg"                  # Debian installs it outside $PATH
    return debian if os.access(debian, os.X_OK) else None


GNUBG = _gnubg()
_skip_without_gnubg = pytest.mark.skipif(
    GNUBG is None,
    reason="GNU Backgammon is not installed (Debian: apt-get install -y gnubg)")


def needs_gnubg(test: Any) -> Any:
    """Marks a test ``gnubg`` and skips it, saying why, when gnubg is missing."""
    return pytest.mark.gnubg(_skip_without_gnubg(test))

"""The licence check of the runtime dependencies (issue 34, item 5): .ci/licences.py, which
.ci/check runs, passes on what is installed, and would fail if a GPL package (gnubg-nn, a
test-only dependency) were needed at run time."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from importlib import metadata
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]


def licences() -> ModuleType:
    spec = importlib.util.spec_from_file_location("licences", ROOT / ".ci" / "licences.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("text, flagged", [
    ("GPL-3.0-or-later", True), ("AGPL-3.0-only", True),
    ("GNU General Public License v3 (GPLv3)", True),
    ("GNU Affero General Public License v3", True),
    ("GNU Lesser General Public License v3 (LGPLv3)", False), ("LGPL-2.1-or-later", False),
    ("GNU Library or Lesser General Public License (LGPL)", False),
    ("MIT", False), ("MPL-2.0", False), ("Apache-2.0 AND BSD-2-Clause", False),
])
def test_copyleft_is_recognised_in_any_spelling(text: str, flagged: bool) -> None:
    assert licences().copyleft(text) is flagged


def test_the_runtime_closure_is_the_project_s_without_its_extras() -> None:
    closure = licences().runtime_closure()
    for needed in ("discord-py", "pillow", "aiosqlite", "bgsage", "networkx",
                   "prometheus-client", "aiohttp"):
        assert needed in closure, sorted(closure)
    for test_only in ("gnubg-nn", "pytest", "hypothesis", "mypy", "asyncpg"):
        assert test_only not in closure


def test_the_check_passes_here_and_would_fail_on_gnubg_nn(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    module = licences()
    assert module.main() == 0
    gnubg = metadata.distribution("gnubg-nn")
    assert module.copyleft(module.licence(gnubg))
    real = module.runtime_closure
    monkeypatch.setattr(module, "runtime_closure", lambda: {**real(), "gnubg-nn": gnubg})
    assert module.main() == 1
    assert "FAILED: gnubg-nn" in capsys.readouterr().out


def test_pip_check_passes() -> None:
    done = subprocess.run([sys.executable, "-m", "pip", "check"], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stdout

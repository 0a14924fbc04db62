"""``python -m bot`` (issue 34, item 6): ``--help`` lists every command, and a start prints
one line saying where the database, the boards and the config are (on a fresh machine: that
the database is created)."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str, cwd: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bot", *args], input=stdin,
                          capture_output=True, text=True, cwd=cwd, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT), "DISCORD_TOKEN": ""})


def test_help_lists_every_command(tmp_path: Path) -> None:
    done = run("--help", cwd=tmp_path)
    assert done.returncode == 0
    for command in ("console", "discord", "backup", "check", "migrate-sqlite", "migrate"):
        assert f"    {command}" in done.stdout, (command, done.stdout)


def test_the_first_start_says_where_everything_is(tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_text("[ai]\nenabled = false\n")
    first = run("console", "--script", "-", cwd=tmp_path, stdin="/quit\n")
    assert first.returncode == 0, first.stderr
    lines = [line for line in first.stderr.splitlines() if line.startswith("bgbot:")]
    assert lines == [f"bgbot: new database {tmp_path / 'bgbot.sqlite3'} (first start: "
                     f"created now); boards in {tmp_path / 'boards'}; config "
                     f"{tmp_path / 'config.toml'}"], first.stderr
    again = run("console", "--script", "-", cwd=tmp_path, stdin="/quit\n")
    assert f"bgbot: database {tmp_path / 'bgbot.sqlite3'}; boards in" in again.stderr


@pytest.mark.slow  # (the AI, on by default, starts its worker)
def test_without_a_config_file_it_says_so(tmp_path: Path) -> None:
    done = run("console", "--db", "x.sqlite3", "--script", "-", cwd=tmp_path,
               stdin="/quit\n")
    assert "no config file (defaults; copy config.example.toml" in done.stderr


def test_web_serves_the_board_on_loopback_and_stops_on_sigterm(tmp_path: Path) -> None:
    """``python -m bot web --port 0 --no-open`` (issue 45): the board on 127.0.0.1, the
    local sign-in, a clean stop on SIGTERM."""
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", "web", "--port", "0", "--no-open",
         "--db", str(tmp_path / "web.sqlite3")],
        stderr=subprocess.PIPE, text=True, cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])})
    try:
        assert process.stderr is not None
        line = ""
        for _ in range(5):
            line = process.stderr.readline()
            if "web board" in line:
                break
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert found, line
        with urllib.request.urlopen(f"{found[0]}api/settings", timeout=10) as answer:
            assert json.loads(answer.read()) == {"mode": "local", "client_id": ""}
            assert "frame-ancestors" in answer.headers["Content-Security-Policy"]
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=20) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()

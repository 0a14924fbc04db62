"""``python -m bot`` in a child process, as an operator runs it: its output read as it
comes, its worker processes listed, signals sent.  ``fake_bot.py`` beside it runs the
Discord bot against the fake Discord."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FAKE_BOT = Path(__file__).with_name("fake_bot.py")


class BotProcess:
    """A running ``python -m bot ...`` (or the fake-Discord launcher)."""

    def __init__(self, args: Sequence[str], *, cwd: Path, stdin: bool = True,
                 env: dict[str, str] | None = None, launcher: Path | None = None) -> None:
        command = [sys.executable, str(launcher)] if launcher else [sys.executable, "-m", "bot"]
        self.proc = subprocess.Popen(
            [*command, *args], cwd=cwd, stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})})
        self.out = bytearray()
        self.err = bytearray()
        self._threads = [threading.Thread(target=self._pump, args=(s, b), daemon=True)
                         for s, b in ((self.proc.stdout, self.out), (self.proc.stderr, self.err))]
        for t in self._threads:
            t.start()

    @staticmethod
    def _pump(stream: object, into: bytearray) -> None:
        read = stream.read1
        while chunk := read(65536):
            into.extend(chunk)

    @property
    def pid(self) -> int:
        return self.proc.pid

    def send(self, text: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(text.encode())
        self.proc.stdin.flush()

    def wait_for(self, text: str, timeout: float = 60.0, *, stream: str = "out") -> None:
        buffer = self.out if stream == "out" else self.err
        deadline = time.monotonic() + timeout
        while text.encode() not in buffer:
            if self.proc.poll() is not None:
                raise AssertionError(f"the bot ended (status {self.proc.returncode}) before "
                                     f"{text!r}:\n{self.err.decode(errors='replace')[-3000:]}")
            if time.monotonic() > deadline:
                raise AssertionError(f"no {text!r} within {timeout} s:\n"
                                     f"{self.out.decode(errors='replace')[-2000:]}\n"
                                     f"{self.err.decode(errors='replace')[-3000:]}")
            time.sleep(0.05)

    def children(self) -> list[int]:
        """The pids of its child processes now (worker processes, the resource tracker)."""
        return children_of(self.pid)

    def finish(self, timeout: float = 20.0) -> tuple[int, float]:
        """Wait for the exit; (status, seconds waited)."""
        started = time.monotonic()
        status = self.proc.wait(timeout)
        for t in self._threads:
            t.join(5)
        return status, time.monotonic() - started

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)


def children_of(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def alive(pids: Sequence[int], wait: float = 3.0) -> list[int]:
    """Those of ``pids`` still running after up to ``wait`` seconds (a zombie, dead but not
    yet collected by init, does not count)."""
    deadline = time.monotonic() + wait
    while True:
        running = []
        for pid in pids:
            try:
                state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
            except OSError:
                continue
            if state not in ("Z", "X"):
                running.append(pid)
        if not running or time.monotonic() > deadline:
            return running
        time.sleep(0.1)

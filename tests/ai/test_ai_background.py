"""The grading worker process (bot/ai/background.py): one analysis at a time at a lower
CPU priority, killed when a call overruns (a new one serves the next call), killed at
once by close(), and gone when its parent is killed."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.ai.analysis import analyze
from bot.ai.background import BackgroundAnalyser
from bot.ai.context import MatchContext
from bot.ai.selfplay import play_match

pytestmark = pytest.mark.slow


def _gone(pid: int, seconds: float = 15.0) -> bool:
    """Whether process ``pid`` has ended (gone, or a zombie waiting to be reaped)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            return True
        if state == "Z":
            return True
        time.sleep(0.05)
    return False


def _nice(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[16])


async def test_the_worker_analyses_at_low_priority_and_is_killed_when_late() -> None:
    (game, *_) = play_match(0, 21)
    analyser = BackgroundAnalyser(nice=7)
    try:
        result = await analyser.analyze(game.record, MatchContext.money(), timeout=120)
        here = analyze(game.record, MatchContext.money())
        assert [(p.decisions, p.rolls, [m.event_index for m in p.mistakes])
                for p in result.players] == [
            (p.decisions, p.rolls, [m.event_index for m in p.mistakes]) for p in here.players]
        assert [x for p in result.players for x in (p.total_lost, p.luck)] == pytest.approx(
            [x for p in here.players for x in (p.total_lost, p.luck)], abs=1e-6)
        pid = analyser.pid
        assert pid is not None and _nice(pid) == _nice(os.getpid()) + 7
        with pytest.raises(TimeoutError):
            await analyser.analyze(game.record, MatchContext.money(), timeout=0.01)
        assert analyser.killed == 1 and _gone(pid)
        again = await analyser.analyze(game.record, MatchContext.money(), timeout=120)
        assert again.players[0].decisions == result.players[0].decisions
        assert analyser.pid != pid
        second = analyser.pid
    finally:
        analyser.close()
    assert second is not None and _gone(second, seconds=1.0)  # close() kills at once


def test_the_worker_ends_when_its_parent_is_killed(tmp_path: Path) -> None:
    code = ("import asyncio, sys\n"
            "from bot.ai.background import BackgroundAnalyser\n"
            "from bot.ai.selfplay import play_match\n"
            "async def main():\n"
            "    a = BackgroundAnalyser(nice=5)\n"
            "    game = play_match(0, 21)[0]\n"
            "    await a.analyze(game.record, timeout=120)\n"
            "    print(a.pid, flush=True)\n"
            "    await asyncio.sleep(3600)\n"
            "if __name__ == '__main__':\n"
            "    asyncio.run(main())\n")
    script = tmp_path / "parent.py"
    script.write_text(code)
    parent = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE)
    assert parent.stdout is not None
    line = parent.stdout.readline()
    assert line.strip().isdigit(), parent.communicate()[1].decode()[-2000:]
    worker = int(line)
    assert Path(f"/proc/{worker}").exists()
    parent.send_signal(signal.SIGKILL)
    parent.communicate()
    assert _gone(worker), "the grading worker outlived its killed parent"

"""Issue 42 item 18: what the console says when a signal stops it (``python -m bot
console`` in a child process, standard input a pipe, the AI off for a quick start).

Ctrl-C during ``/demo`` said "The bot is restarting: your action was not applied. Try
again in a minute", which is not what happened; at the prompt it said nothing.
"""

from __future__ import annotations

import os
import signal
from pathlib import Path

from bot_process import BotProcess

STOP_SECONDS = 20.0


def console(tmp_path: Path) -> BotProcess:
    config = tmp_path / "quick.toml"
    config.write_text("[ai]\nenabled = false\n")
    return BotProcess(["--config", str(config), "console", "--db",
                       str(tmp_path / "bg.sqlite3"), "--boards", str(tmp_path / "boards"),
                       "--script", "-"], cwd=tmp_path)


def stop(bot: BotProcess, sig: int) -> tuple[int, str, str]:
    os.kill(bot.pid, sig)
    try:
        status, _ = bot.finish(STOP_SECONDS)
    finally:
        bot.kill()
    return status, bot.out.decode(errors="replace"), bot.err.decode(errors="replace")


def test_ctrl_c_during_demo_says_that_the_demo_was_stopped(tmp_path: Path) -> None:
    bot = console(tmp_path)
    try:
        bot.send("alice: /challenge @bob length=25\nbob: /accept\n/demo\n")
        bot.wait_for("> /demo")
        bot.wait_for("alice plays")  # the demo is under way
    except BaseException:
        bot.kill()
        raise
    status, out, err = stop(bot, signal.SIGINT)
    assert status == 0, err[-2000:]
    assert "restarting" not in out and "Try again in a minute" not in out, out[-2000:]
    tail = out[out.index("> /demo"):]
    assert "/demo stopped after " in tail and "the console is stopping (Ctrl-C or SIGTERM)" \
        in tail, tail[-2000:]
    assert "wins the 25-point match" not in tail  # stopped mid-match
    assert out.rstrip().endswith("start it again to go on where you left off."), out[-500:]
    assert "Traceback" not in out + err


def test_ctrl_c_at_the_prompt_says_that_the_console_stopped(tmp_path: Path) -> None:
    bot = console(tmp_path)
    try:
        bot.send("alice: /challenge @bob\n")
        bot.wait_for("alice challenges bob")
    except BaseException:
        bot.kill()
        raise
    status, out, err = stop(bot, signal.SIGINT)
    assert status == 0, err[-2000:]
    last = out.rstrip().splitlines()[-1]
    assert last == ("bgbot console stopped (Ctrl-C or SIGTERM): every move made is saved; "
                    "start it again to go on where you left off."), out[-1000:]
    assert "Traceback" not in out + err

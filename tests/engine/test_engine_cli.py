"""``python -m engine`` run as a subprocess: output format, exit codes, stdin mode.

Expected plays come from GNU Backgammon's generator (gnubg_nn), not from ours.
"""

from __future__ import annotations

import queue
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO

import gnubg_nn
import pytest
from movegen_corpus import position_corpus

from engine.gnubgid import encode_position_id

ROOT = Path(__file__).resolve().parents[2]
START = "4HPwATDgc/ABMA"
# The mover has 14 on his 6-point and one on the bar; the opponent holds 1..6.
CLOSED_OUT = gnubg_nn.position_id([[2, 2, 2, 2, 2, 2] + [0] * 19, [0] * 5 + [14] + [0] * 18 + [1]])


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "engine", *args], input=stdin,
                          capture_output=True, text=True, cwd=ROOT, timeout=120)


def gnubg_ids(position_id: str, d1: int, d2: int) -> set[str]:
    """Position IDs after each of gnubg's plays (its board[1], the mover, still on roll)."""
    board = gnubg_nn.board_from_position_id(position_id)
    keys = gnubg_nn.moves(board, d1, d2)
    return {gnubg_nn.position_id([list(side) for side in gnubg_nn.board_from_position_key(k)])
            for k in keys}


def blocks(stdout: str) -> list[list[str]]:
    """The stdin-mode output split into cases: each case's lines, ended by an empty line."""
    assert stdout.endswith("\n")
    out: list[list[str]] = []
    current: list[str] = []
    for line in stdout[:-1].split("\n"):
        if line:
            current.append(line)
        else:
            out.append(current)
            current = []
    assert current == [], "the last case is not followed by an empty line"
    return out


def test_plays_lists_every_play_with_its_position_id() -> None:
    result = run("plays", START, "31")
    assert result.returncode == 0 and result.stderr == ""
    lines = result.stdout.splitlines()
    assert len(lines) == 16
    notations, ids = zip(*(line.split("\t") for line in lines), strict=True)
    assert all(n.strip() for n in notations) and len(set(notations)) == 16
    assert set(ids) == gnubg_ids(START, 3, 1)


@pytest.mark.parametrize("dice", ["3-1", "13", "1-3"])
def test_dice_spellings(dice: str) -> None:
    assert run("plays", START, dice).stdout == run("plays", START, "31").stdout


def test_no_legal_play_prints_nothing() -> None:
    assert gnubg_ids(CLOSED_OUT, 6, 5) == set()
    result = run("plays", CLOSED_OUT, "65")
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


@pytest.mark.parametrize(
    "args",
    [
        ("plays", "4HPwATDgc/ABM", "31"),
        ("plays", START, "71"),
        ("plays", START, "3"),
        ("plays", START),
        ("plays",),
        ("plays", START, "31", "--variant", "no-such-variant"),
        ("show", "nonsense"),
        ("show", START, "cAkAAAAAAAA"),
        ("frobnicate",),
        (),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: tuple[str, ...]) -> None:
    result = run(*args)
    assert result.returncode == 2
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1
    assert "Traceback" not in result.stderr


def test_variant_standard_is_accepted() -> None:
    assert run("plays", START, "31", "--variant", "standard").stdout == \
        run("plays", START, "31").stdout


def test_stdin_mode_blocks_and_errors() -> None:
    stdin = f"{START} 31\nnot-an-id 31\n\n{CLOSED_OUT} 65\n{START} 66\n"
    result = run("plays", "-", stdin=stdin)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("line 2:")
    cases = blocks(result.stdout)
    # Four cases (the blank input line is skipped): plays, empty, empty, plays.
    assert len(cases) == 4
    assert cases[0] == run("plays", START, "31").stdout.splitlines()
    assert cases[1] == [] and cases[2] == []
    assert cases[3] == run("plays", START, "66").stdout.splitlines()


def test_stdin_mode_thousands_of_cases() -> None:
    cases = []
    for i, (position, player) in enumerate(position_corpus(5, 1000)):
        pid = encode_position_id(position, player)
        d1, d2 = i % 6 + 1, (i // 6) % 6 + 1
        cases.append((pid, d1, d2))
    cases = cases * 2
    result = run("plays", "-", stdin="".join(f"{p} {a}{b}\n" for p, a, b in cases))
    assert result.returncode == 0 and result.stderr == ""
    outputs = blocks(result.stdout)
    assert len(outputs) == len(cases) == 2000
    for (pid, d1, d2), lines in list(zip(cases, outputs, strict=True))[::40]:
        ids = {line.split("\t")[1] for line in lines}
        assert ids == gnubg_ids(pid, d1, d2)


class _Answers:
    """Lines read from a process's stdout in a thread, so a hang fails the test
    (after a generous minute) instead of blocking it."""

    def __init__(self, stream: IO[str]) -> None:
        self.queue: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, args=(stream,), daemon=True).start()

    def _read(self, stream: IO[str]) -> None:
        for line in stream:
            self.queue.put(line)
        self.queue.put("")

    def block(self) -> list[str]:
        """The next case's lines (up to its empty line)."""
        lines: list[str] = []
        while True:
            try:
                line = self.queue.get(timeout=60)
            except queue.Empty:
                raise AssertionError("no answer: the line was not answered before more "
                                     "input came") from None
            assert line, "the output ended"
            if line == "\n":
                return lines
            lines.append(line.rstrip("\n"))


def test_stdin_mode_answers_each_line_before_the_next_arrives() -> None:
    """A program can drive ``plays -`` one line at a time: each answer comes while
    the input is still open (before, the answers waited for the end of the input)."""
    proc = subprocess.Popen([sys.executable, "-m", "engine", "plays", "-"], cwd=ROOT,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    answers = _Answers(proc.stdout)
    try:
        proc.stdin.write(f"{START} 31\n")
        proc.stdin.flush()
        assert answers.block() == run("plays", START, "31").stdout.splitlines()
        # A line that arrives in two pieces is answered once it is whole.
        proc.stdin.write(START[:6])
        proc.stdin.flush()
        proc.stdin.write(f"{START[6:]} 66\n")
        proc.stdin.flush()
        assert answers.block() == run("plays", START, "66").stdout.splitlines()
        # A bad line keeps its number across reads; the next line is still answered.
        proc.stdin.write(f"nonsense 31\n{CLOSED_OUT} 65\n")
        proc.stdin.flush()
        assert answers.block() == []
        assert answers.block() == []
        proc.stdin.close()
        assert proc.wait(timeout=60) == 2
        assert proc.stderr.read().startswith("line 3: ")
    finally:
        proc.kill()
        proc.wait()


def test_stdin_mode_bytes_that_are_not_text_make_one_bad_line() -> None:
    result = subprocess.run([sys.executable, "-m", "engine", "plays", "-"], cwd=ROOT,
                            input=b"\xff\xfe 31\r\n" + f"{START} 21".encode(),
                            capture_output=True, timeout=120)
    assert result.returncode == 2
    assert result.stderr.decode().startswith("line 1: ")
    cases = blocks(result.stdout.decode())
    # The last line has no newline and is answered all the same.
    assert cases == [[], run("plays", START, "21").stdout.splitlines()]


def test_show_draws_the_board() -> None:
    result = run("show", START)
    assert result.returncode == 0
    assert " Position ID: 4HPwATDgc/ABMA" in result.stdout
    assert "+13-14-15-16-17-18------19-20-21-22-23-24-+" in result.stdout
    both = run("show", START, "8IhuACAACAAE")
    assert both.returncode == 0 and " Match ID   : 8IhuACAACAAE" in both.stdout
    assert "Rolled 53" in both.stdout and "Crawford" in both.stdout
    assert run("show", f"{START}:8IhuACAACAAE").stdout == both.stdout

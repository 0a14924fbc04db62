"""The Discord adapter's board renderer: worker processes, and what happens when one dies."""

from __future__ import annotations

import os
import signal

import pytest

from bot.adapters.discord.renderer import Renderer
from render import render_png
from render.gallery import examples

VIEWS = examples()


async def test_worker_processes_draw_the_same_png_as_the_bot_process() -> None:
    renderer = Renderer("default", workers=2)
    try:
        await renderer.start()
        views = [VIEWS["opening"], VIEWS["bear-off"], VIEWS["chouette"]]
        pngs = await renderer.pngs(views)
        assert len(renderer.pids) == 2
    finally:
        renderer.close()
    assert pngs == [render_png(v) for v in views]
    assert all(p.startswith(b"\x89PNG\r\n\x1a\n") for p in pngs)


async def test_a_theme_is_passed_to_the_workers() -> None:
    renderer = Renderer("classic", workers=1)
    try:
        png = await renderer.png(VIEWS["middle-game"])
    finally:
        renderer.close()
    assert png == render_png(VIEWS["middle-game"], theme="classic")
    assert png != render_png(VIEWS["middle-game"])


async def test_without_workers_boards_are_drawn_in_a_thread() -> None:
    renderer = Renderer(workers=0)
    assert await renderer.png(VIEWS["game-over"]) == render_png(VIEWS["game-over"])
    assert renderer.pids == []


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
async def test_a_killed_worker_costs_no_picture_and_is_replaced() -> None:
    renderer = Renderer(workers=1)
    try:
        await renderer.start()
        killed = renderer.pids
        assert len(killed) == 1
        for pid in killed:
            os.kill(pid, signal.SIGKILL)
        # The board being drawn when the pool breaks is drawn in a thread instead...
        png = await renderer.png(VIEWS["opening"])
        assert png == render_png(VIEWS["opening"])
        # ...and the next boards go to a new worker.
        png = await renderer.png(VIEWS["bear-off"])
        assert len(renderer.pids) == 1 and renderer.pids != killed
        assert png == render_png(VIEWS["bear-off"])
    finally:
        renderer.close()


@pytest.mark.skipif(not hasattr(os, "nice"), reason="needs os.nice")
async def test_workers_run_at_a_lower_priority_than_the_bot() -> None:
    from bot.adapters.discord.renderer import WORKER_NICENESS

    renderer = Renderer(workers=1)
    try:
        await renderer.start()
        (pid,) = renderer.pids
        assert os.getpriority(os.PRIO_PROCESS, pid) == os.nice(0) + WORKER_NICENESS
    finally:
        renderer.close()


async def test_where_no_process_can_start_boards_are_drawn_in_threads(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import multiprocessing.context

    def refuse(process_obj: object) -> None:
        raise OSError("no processes here")

    monkeypatch.setattr(multiprocessing.context.SpawnProcess, "_Popen", staticmethod(refuse))
    renderer = Renderer(workers=2)
    try:
        await renderer.start()  # logs and carries on: the bot still starts
        assert renderer.workers == 0 and renderer.pids == []
        assert await renderer.png(VIEWS["opening"]) == render_png(VIEWS["opening"])
    finally:
        renderer.close()


async def test_the_pictures_are_drawn_by_the_workers() -> None:
    """Issue 18: a replay, a chart, a card and a summary drawn in a worker process are
    the bytes the render functions give."""
    from picture_games import sample_game

    from bot.service.core.replies import Picture, PictureKind
    from bot.service.pictures.contents import match_summary, player_card, replay_frames
    from engine.match import MoneySession
    from render.card import render_card
    from render.chart import ChartData, render_chart
    from render.replay import render_replay
    from render.summary import render_summary

    record = sample_game(8)
    frames = tuple(replay_frames(record, ("alice", "bob"), MoneySession.new()))
    chart = ChartData("alice", "bob", (), (), None, 8)
    card = player_card("alice", {"games": 3, "games_won": 2})
    summary = match_summary(("alice", "bob"), 0, [record])
    renderer = Renderer(workers=1)
    try:
        await renderer.start()
        drawn = [await renderer.picture(Picture(kind, content, "x", "alt"))
                 for kind, content in ((PictureKind.REPLAY, frames), (PictureKind.CHART, chart),
                                       (PictureKind.CARD, card),
                                       (PictureKind.SUMMARY, summary))]
    finally:
        renderer.close()
    assert drawn == [render_replay(frames).data, render_chart(chart), render_card(card),
                     render_summary(summary)]
    assert drawn[0].startswith(b"GIF89a")


BATCH = 48
"""Boards in the batch a worker is killed in the middle of."""
BATCH_BOUND = 60.0
"""Seconds the whole batch may take, the kill included (about one second here, unloaded)."""
RECOVERY_BOUND = 60.0
"""Seconds until the pool has its workers again, with no other picture asked for."""


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
@pytest.mark.parametrize(("workers", "kills"), [(1, 1), (2, 1), (2, 2)],
                         ids=["the only worker", "one of two", "both of two"])
async def test_a_worker_killed_in_the_middle_of_a_batch_loses_no_board(
        workers: int, kills: int) -> None:
    """A render worker killed (SIGKILL) while a big batch of boards is being drawn: every
    board of the batch is delivered, right (the bytes the bot process draws, read back as a
    PNG of the board's size), within a bounded time; and the pool gets its workers back by
    itself, new processes, without waiting for more pictures to be asked for.

    On the old renderer a batch whose last live worker died never finished: the boards
    waiting for a free worker were woken only by a worker's answer, and no answer came."""
    import asyncio
    import io

    from PIL import Image

    views = [list(VIEWS.values())[i % len(VIEWS)] for i in range(BATCH)]
    expected = {id(v): render_png(v) for v in VIEWS.values()}
    renderer = Renderer(workers=workers)
    try:
        await renderer.start()
        first = renderer.pids
        assert len(first) == workers
        killed: list[int] = []

        def drawn(seconds: float) -> None:  # a few boards in: kill, once
            if not killed and renderer.pending < BATCH - 4:
                killed.extend(first[:kills])
                for pid in killed:
                    os.kill(pid, signal.SIGKILL)

        renderer.on_drawn = drawn
        pngs = await asyncio.wait_for(renderer.pngs(views), BATCH_BOUND)
        assert killed, "the batch ended before a worker could be killed"
        assert len(pngs) == BATCH
        for view, png in zip(views, pngs, strict=True):
            assert png == expected[id(view)]
            with Image.open(io.BytesIO(png)) as image:
                assert image.format == "PNG"
                assert image.size == Image.open(io.BytesIO(expected[id(view)])).size
        loop = asyncio.get_running_loop()
        deadline = loop.time() + RECOVERY_BOUND
        while len(renderer.pids) < workers and loop.time() < deadline:
            await asyncio.sleep(0.05)
        now = renderer.pids
        assert len(now) == workers and not set(now) & set(killed), (first, killed, now)
        assert renderer.workers == workers  # (no fall-back to threads for good)
        renderer.on_drawn = None
        assert await renderer.png(VIEWS["opening"]) == render_png(VIEWS["opening"])
        assert renderer.pids == now  # drawn by the new workers
    finally:
        renderer.close()


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
@pytest.mark.parametrize("killed_at_start", [1, 3])
async def test_a_worker_killed_as_it_starts_is_started_again(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
        killed_at_start: int) -> None:
    """A worker killed before its first answer does not mean processes cannot run here: it
    is started again; only workers that keep dying as they start (START_TRIES in a row)
    leave the boards to threads, and the log says so, without claiming processes cannot
    start.  (The old renderer drew in threads for good after one such death.)"""
    import multiprocessing.context

    from bot.adapters.discord.renderer import START_TRIES

    assert killed_at_start in (1, START_TRIES)
    starting = multiprocessing.context.SpawnProcess.start
    killed: list[int] = []

    def start_then_kill(process: multiprocessing.context.SpawnProcess) -> None:
        starting(process)
        if len(killed) < killed_at_start and process.pid is not None:
            killed.append(process.pid)
            os.kill(process.pid, signal.SIGKILL)

    monkeypatch.setattr(multiprocessing.context.SpawnProcess, "start", start_then_kill)
    renderer = Renderer(workers=1)
    try:
        await renderer.start()
        assert len(killed) == killed_at_start
        assert await renderer.png(VIEWS["opening"]) == render_png(VIEWS["opening"])
        if killed_at_start < START_TRIES:
            assert renderer.workers == 1 and len(renderer.pids) == 1
            assert not set(renderer.pids) & set(killed)
        else:
            assert renderer.workers == 0 and renderer.pids == []
            assert f"{START_TRIES} render workers in a row ended as they started" in (
                caplog.text)
    finally:
        renderer.close()
    assert caplog.text.count("ended as it started: starting another") == min(
        killed_at_start, START_TRIES - 1)


@pytest.mark.skipif(not hasattr(signal, "SIGSTOP"), reason="needs SIGSTOP")
async def test_a_worker_hung_as_it_starts_is_replaced_after_a_bound(
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """A new worker that never answers (stopped as it starts) holds the boards waiting for
    it only START_TIMEOUT seconds: it is killed and another one started."""
    import asyncio
    import multiprocessing.context

    from bot.adapters.discord import renderer as module

    monkeypatch.setattr(module, "START_TIMEOUT", 3.0)
    starting = multiprocessing.context.SpawnProcess.start
    stopped: list[int] = []

    def start_then_stop(process: multiprocessing.context.SpawnProcess) -> None:
        starting(process)
        if not stopped and process.pid is not None:
            stopped.append(process.pid)
            os.kill(process.pid, signal.SIGSTOP)

    monkeypatch.setattr(multiprocessing.context.SpawnProcess, "start", start_then_stop)
    renderer = Renderer(workers=1)
    try:
        png = await asyncio.wait_for(renderer.png(VIEWS["opening"]), 60)
        assert png == render_png(VIEWS["opening"])
        assert renderer.workers == 1 and len(renderer.pids) == 1
        assert renderer.pids != stopped
    finally:
        renderer.close()
        for pid in stopped:  # (killed by the renderer; this only makes sure)
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
    assert "did not answer within 3 s of starting: starting another" in caplog.text

"""The service keeps the clock (issue 44 items 5 to 7), with an injected time source.

A clock of ``1s+4s/pt`` on a 3-point match: a delay of one second a decision, then a
reserve of 12 seconds each.  ``keep`` plays the timer the adapters run: it calls the one
entry point, :meth:`GameService.due_work`, every quarter of a second of fake time.
"""

from __future__ import annotations

from pathlib import Path

from clock_time import ALICE, BOB, HERE, OPENING, T0, Time, clock_of, status
from scripted import Script, opened

from bot.config import Config
from bot.service.core.replies import Countdown, Reply
from bot.service.core.values import Place
from bot.service.game import GameService
from bot.storage.interface import MatchStatus, StorageUnavailable


async def make(path: Path, time: Time, storage: object = None) -> GameService:
    store = storage or await opened(path / "bg.sqlite3")
    return GameService(store, Config(), dice=Script(OPENING, then="0123456789abcdef"),  # type: ignore[arg-type]
                       clock=time)


async def keep(service: GameService, time: Time, until: float, step: float = 0.25
               ) -> list[tuple[float, int, Reply]]:
    """The timer keeps the clocks until ``until`` seconds: (when, channel, reply) posted."""
    posts = []
    while time.seconds < until:
        time.at(min(until, time.seconds + step))
        posts += [(time.seconds, channel, reply) for channel, reply in
                  await service.due_work()]
    return posts


async def beat(service: GameService, time: Time) -> None:
    """The timer's beat now (the clocks are kept from here on)."""
    await service.clocks.beat(int(time.now.timestamp() * 1000))


async def beats(service: GameService, time: Time, until: float) -> None:
    """The timer beats every half second until ``until`` but looks at no flag."""
    while time.seconds < until:
        time.at(min(until, time.seconds + 0.5))
        await beat(service, time)


async def start(service: GameService, time: Time, clock: str = "1s+4s/pt",
                length: int = 3) -> None:
    await beat(service, time)
    made = await service.challenge(HERE, ALICE, BOB, length=length, clock=clock)
    assert made.ok, made.text
    assert "clock: 1 s a decision + 4 s a point: 12 s each" in made.text or length != 3
    accepted = await service.accept(HERE, BOB)
    assert accepted.ok, accepted.text


async def test_a_decision_within_its_delay_costs_nothing(tmp_path: Path) -> None:
    time = Time()
    service = await make(tmp_path, time)
    await start(service, time)
    started = await clock_of(service)
    assert (started.turn, started.since_ms, started.deadline_ms) == (
        0, 0 + int(T0.timestamp() * 1000), int(T0.timestamp() * 1000) + 13_000)
    await keep(service, time, 0.9)
    reply = await service.move(HERE, ALICE, "8/5 6/5")
    assert reply.ok, reply.text
    row = await clock_of(service)
    assert (row.white_ms, row.black_ms, row.turn) == (12_000, 12_000, 1)
    view = reply.boards[-1].view  # every board shows both players' time left
    assert (view.players[0].clock, view.players[1].clock) == ("0:12", "0:12")


async def test_the_reserve_runs_after_the_delay(tmp_path: Path) -> None:
    time = Time()
    service = await make(tmp_path, time)
    await start(service, time)
    await keep(service, time, 3.5)
    reply = await service.move(HERE, ALICE, "8/5 6/5")
    assert reply.ok, reply.text
    row = await clock_of(service)
    assert (row.white_ms, row.black_ms) == (9_500, 12_000)  # 3.5 s less the 1 s delay
    assert reply.boards[-1].view.players[0].clock == "0:10"
    # Bob's decision (his roll) now runs: the countdown to his flag, in Discord's markup.
    now_ms = int(time.now.timestamp() * 1000)
    assert row.deadline_ms == now_ms + 1_000 + 12_000
    countdowns = [p for line in reply.notify for p in line if isinstance(p, Countdown)]
    assert countdowns == [Countdown(-(-row.deadline_ms // 1000), "in 0:13")]


async def test_out_of_time_loses_the_match_posted_by_the_timer(tmp_path: Path) -> None:
    time = Time()
    service = await make(tmp_path, time)
    await start(service, time)
    posts = await keep(service, time, 20)
    assert len(posts) == 1  # posted once
    when, channel, reply = posts[0]
    assert channel == HERE.channel_id and 13 <= when < 14  # within a second of the fall
    assert "alice's time ran out" in reply.text and "bob wins the match on time" in reply.text
    assert await status(service) == (MatchStatus.FINISHED, BOB.id)
    final = reply.boards[0].view  # the final board, with the clocks
    assert (final.players[0].clock, final.players[1].clock) == ("0:00", "0:12")
    row = await clock_of(service)
    assert (row.white_ms, row.turn, row.deadline_ms) == (0, None, None)


async def test_money_play_loses_the_game_at_the_cubes_value(tmp_path: Path) -> None:
    time = Time()
    service = await make(tmp_path, time)
    await start(service, time, clock="1s+5s", length=0)
    posts = await keep(service, time, 10)
    assert len(posts) == 1
    reply = posts[0][2]
    assert "wins the game on time at the cube's value; the money session is over" in (
        reply.text)
    assert "bob wins a single game (forfeit): 1 point." in reply.text  # the cube's value: 1
    assert (await status(service))[0] is MatchStatus.FINISHED


async def test_a_move_after_the_fall_is_decided_by_the_time_at_commit(tmp_path: Path) -> None:
    time = Time()
    service = await make(tmp_path, time)
    await start(service, time)
    await beats(service, time, 13.2)  # the flag fell at 13 s; the timer has not looked yet
    reply = await service.move(HERE, ALICE, "8/5 6/5")
    assert reply.ok
    assert "came after your time ran out, so it was not played" in reply.text
    assert "bob wins the match on time" in reply.text
    assert await status(service) == (MatchStatus.FINISHED, BOB.id)
    assert await keep(service, time, 15) == []  # decided once: the timer finds nothing


async def test_a_move_just_before_the_fall_is_played(tmp_path: Path) -> None:
    time = Time()
    service = await make(tmp_path, time)
    await start(service, time)
    await beats(service, time, 12.9)
    reply = await service.move(HERE, ALICE, "8/5 6/5")
    assert reply.ok and "alice plays 8/5 6/5" in reply.text, reply.text
    assert (await clock_of(service)).white_ms == 100
    posts = await keep(service, time, 30)  # bob never rolls: his flag falls, not alice's
    assert len(posts) == 1 and "bob's time ran out" in posts[0][2].text
    assert await status(service) == (MatchStatus.FINISHED, ALICE.id)


async def test_a_restart_charges_nobody_for_the_time_nobody_could_play(tmp_path: Path) -> None:
    time = Time()
    service = await make(tmp_path, time)
    await start(service, time)
    await keep(service, time, 2)  # alice has used 2 s (1 s past her delay)
    time.at(62)  # the process was down for a minute: nobody kept the clocks
    again = await make(tmp_path, time, storage=service.storage)
    reply = await again.move(HERE, ALICE, "8/5 6/5")  # before the new timer's first beat
    assert reply.ok, reply.text
    assert (await clock_of(again)).white_ms == 11_000


async def test_after_a_restart_the_timer_moves_the_clocks_on(tmp_path: Path) -> None:
    time = Time()
    service = await make(tmp_path, time)
    await start(service, time)
    await keep(service, time, 2)
    time.at(62)
    again = await make(tmp_path, time, storage=service.storage)
    assert await keep(again, time, 64) == []  # no flag fell for the minute away
    reply = await again.move(HERE, ALICE, "8/5 6/5")
    assert reply.ok, reply.text
    # 2 s before, 1.75 s after the first beat of the new process, less the delay
    assert (await clock_of(again)).white_ms == 9_250


async def test_a_database_outage_is_charged_to_nobody(tmp_path: Path) -> None:
    time = Time()
    service = await make(tmp_path, time)
    await start(service, time)
    await keep(service, time, 2)
    beat = service.clocks.beat

    async def away(now: int) -> None:
        raise StorageUnavailable()

    service.clocks.beat = away  # type: ignore[method-assign]
    assert await keep(service, time, 40) == []  # the timer can't keep them: nobody loses
    service.clocks.beat = beat  # type: ignore[method-assign]
    service.clocks.last_beat = 0
    await keep(service, time, 41)
    reply = await service.move(HERE, ALICE, "8/5 6/5")
    assert reply.ok, reply.text
    # 2 s before, 0.75 s after the first beat once the database is back, less the delay
    assert (await clock_of(service)).white_ms == 10_250


async def test_the_opening_throw_takes_no_time(tmp_path: Path) -> None:
    # Automatic actions are done inside the action before them: the first decision (alice's
    # play of the opening throw) starts when the acceptance commits.
    time = Time()
    service = await make(tmp_path, time)
    await beat(service, time)
    await service.challenge(HERE, ALICE, BOB, length=3, clock="1s+4s/pt")
    await keep(service, time, 5)  # a challenge waiting: no clock runs
    row = await clock_of(service)
    assert (row.turn, row.white_ms, row.black_ms) == (None, 12_000, 12_000)
    await service.accept(HERE, BOB)
    row = await clock_of(service)
    assert row.turn == 0 and row.since_ms == int(time.now.timestamp() * 1000)
    assert row.decision.endswith(".0")


async def test_a_forced_play_takes_no_time(tmp_path: Path) -> None:
    # Item 7: bob's 4-4 hits two of alice's checkers; her 1-3 then has one legal play
    # (bar/24 bar/22), which the service makes in her roll's own action: her clock is
    # charged for the roll only, and bob's decision starts when that roll commits.
    time = Time()
    store = await opened(tmp_path / "bg.sqlite3")
    service = GameService(store, Config(), dice=Script([3, 1, 4, 4, 1, 3],
                                                       then="0123456789abcdef"), clock=time)
    await start(service, time)
    await keep(service, time, 0.5)
    assert (await service.move(HERE, ALICE, "24/23 8/5")).ok
    await keep(service, time, 1.0)
    assert (await service.roll(HERE, BOB)).ok
    played = await service.move(HERE, BOB, "24/20*/16 8/4 6/2*")
    assert played.ok, played.text
    await keep(service, time, 4.0)  # alice's roll: 3 s, 2 s past her delay
    rolled = await service.roll(HERE, ALICE)
    assert rolled.ok and "alice plays bar/24 bar/22 (forced)" in rolled.text, rolled.text
    row = await clock_of(service)
    now_ms = int(time.now.timestamp() * 1000)
    assert (row.turn, row.since_ms, row.white_ms, row.black_ms) == (1, now_ms, 10_000, 12_000)
    await keep(service, time, 6.0)  # bob's clock runs now, alice's does not
    row = await clock_of(service)
    assert (row.turn, row.white_ms) == (1, 10_000)
    assert (await service.board(HERE, ALICE)).boards[-1].view.players[0].clock == "0:10"


async def test_an_automatic_roll_takes_no_time(tmp_path: Path) -> None:
    # Item 7: after bob takes alice's double she may not double again, so her throw is
    # automatic, made in bob's take: her play's decision starts when the take commits.
    time = Time()
    service = await make(tmp_path, time)
    await start(service, time)
    await keep(service, time, 0.5)
    assert (await service.move(HERE, ALICE, "8/5 6/5")).ok
    await keep(service, time, 1.0)
    assert (await service.roll(HERE, BOB)).ok  # 1-2
    assert (await service.move(HERE, BOB, "24/23 13/11")).ok
    await keep(service, time, 1.5)
    assert (await service.double(HERE, ALICE)).ok
    await keep(service, time, 5.0)  # bob's take: 3.5 s, 2.5 s past his delay
    took = await service.take(HERE, BOB)
    assert took.ok and "alice rolled" in took.text, took.text
    row = await clock_of(service)
    now_ms = int(time.now.timestamp() * 1000)
    assert (row.turn, row.since_ms, row.white_ms, row.black_ms) == (0, now_ms, 12_000, 9_500)
    assert row.deadline_ms == now_ms + 1_000 + 12_000


async def test_a_match_without_a_clock_has_none(tmp_path: Path) -> None:
    time = Time()
    service = await make(tmp_path, time)
    made = await service.challenge(HERE, ALICE, BOB, length=3)
    assert "clock" not in made.text
    await service.accept(HERE, BOB)
    reply = await service.move(HERE, ALICE, "8/5 6/5")
    assert reply.boards[-1].view.players[0].clock == ""
    assert await keep(service, time, 100) == []


async def test_a_per_point_clock_in_money_play_is_refused(tmp_path: Path) -> None:
    service = await make(tmp_path, Time())
    reply = await service.challenge(HERE, ALICE, BOB, clock="usbgf")
    assert not reply.ok and "money play has no length" in reply.text
    assert "12s+5m" in reply.text
    bad = await service.challenge(HERE, ALICE, BOB, length=3, clock="soon")
    assert not bad.ok and "not a clock" in bad.text


async def test_the_servers_default_clock_and_a_rematch_keeps_the_clock(tmp_path: Path) -> None:
    time = Time()
    service = await make(tmp_path, time)
    admin = ALICE
    assert (await service.settings_set(HERE, admin, "clock", "1s+4s/pt",
                                       manage_server=True)).ok
    shown = await service.settings_show(HERE, admin, "clock")
    assert "1 s a decision + 4 s a point" in "".join(str(p) for p in shown.notify[0])
    refused = await service.settings_set(HERE, admin, "clock", "lightning", manage_server=True)
    assert not refused.ok and "not a clock" in refused.text
    await beat(service, time)
    made = await service.challenge(HERE, ALICE, BOB, length=3)  # names no clock: the server's
    assert "clock: 1 s a decision + 4 s a point: 12 s each" in made.text
    assert (await service.accept(HERE, BOB)).ok
    posts = await keep(service, time, 20)
    assert len(posts) == 1 and (await status(service))[0] is MatchStatus.FINISHED
    again = await service.rematch(HERE, BOB)
    assert again.ok and "clock: 1 s a decision + 4 s a point" in again.text, again.text
    money = await service.challenge(Place(7, 71), ALICE, BOB, stake=1)
    assert money.ok and "the server's clock 1s+4s/pt gives a reserve per point" in money.text
    asked = await service.challenge(Place(7, 72), ALICE, BOB, length=3, clock="none")
    assert asked.ok and "clock" not in asked.text  # a challenge's own "none" wins


async def test_board_shows_the_clocks_as_they_run(tmp_path: Path) -> None:
    time = Time()
    service = await make(tmp_path, time)
    await start(service, time)
    await keep(service, time, 3.5)
    board = await service.board(HERE, BOB)  # a look: nothing written
    view = board.boards[-1].view
    assert (view.players[0].clock, view.players[1].clock) == ("0:10", "0:12")
    countdown = [p for line in board.notify for p in line if isinstance(p, Countdown)]
    assert countdown and countdown[0].text == "in 0:10"  # 13 s from the start, 3.5 gone
    assert (await clock_of(service)).white_ms == 12_000

"""The game service end to end on a real SQLite file: flows, settlement, refusals.

Dice are injected (a scripted stream), so every game here is reproducible.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from scripted import Script, opened

from bot.config import Config, GameConfig, TimeoutConfig
from bot.service.core import fairdice
from bot.service.core.replies import Action, Mention, plain
from bot.service.core.values import Actor, Expect, Place
from bot.service.game import GameService

ALICE = Actor(1, "alice")
BOB = Actor(2, "bob")
CAROL = Actor(3, "carol")
HERE = Place(guild_id=7, channel_id=70)


async def make(tmp_path: Path, dice: Iterable[int] = (), config: Config | None = None,
               **kw: object) -> GameService:
    storage = await opened(tmp_path / "bg.sqlite3")
    return GameService(storage, config or Config(), dice=Script(dice), **kw)  # type: ignore[arg-type]


async def start(service: GameService, **terms: object) -> None:
    reply = await service.challenge(HERE, ALICE, BOB, **terms)  # type: ignore[arg-type]
    assert reply.ok, reply.text
    reply = await service.accept(HERE, BOB)
    assert reply.ok, reply.text


async def version(service: GameService) -> int:
    async with service.storage.transaction() as tx:
        row = await tx.open_match_in_channel(HERE.channel_id)
        assert row is not None
        return row.version


async def test_opening_roll_and_a_play(tmp_path: Path) -> None:
    # Opening: alice (white) throws 3, bob 1: alice plays 3-1 (002 'MOVEMENT OF PIECES').
    service = await make(tmp_path, [3, 1])
    await start(service, length=3)
    board = await service.board(HERE, CAROL)  # a spectator may look
    assert board.ok and "Opening" not in board.text
    reply = await service.move(HERE, ALICE, "8/5 6/5")
    assert reply.ok, reply.text
    assert "alice plays 8/5 6/5" in reply.text
    assert reply.boards and reply.boards[-1].position_id  # GNU IDs of the position shown
    assert any(b.action is Action.ROLL and b.users == (BOB.id,) for b in reply.buttons)


async def test_refusals_explain_and_change_nothing(tmp_path: Path) -> None:
    service = await make(tmp_path, [3, 1])
    await start(service, length=3)
    before = await version(service)
    cases = [
        (service.move(HERE, CAROL, "8/5 6/5"), "not playing in this game"),
        (service.move(HERE, BOB, "8/5 6/5"), "not your turn"),
        (service.roll(HERE, ALICE), "already rolled 3-1"),
        (service.move(HERE, ALICE, "8/2"), "pips"),
        (service.move(HERE, ALICE, "x" * 5000), "too long"),
        (service.move(HERE, ALICE, "13/zz"), "Example: /move"),
        (service.double(HERE, ALICE), "already rolled"),
        (service.take(HERE, BOB), "not your turn"),
        (service.roll(Place(7, 71), ALICE), "no game in this channel"),
        (service.roll(Place(8, 70), ALICE), "no game in this channel"),
        (service.accept(HERE, BOB), "no challenge waiting"),
        (service.cancel(HERE, ALICE), "no challenge waiting"),
    ]
    for call, words in cases:
        reply = await call
        assert not reply.ok and reply.ephemeral
        assert words in reply.text, (words, reply.text)
    assert await version(service) == before


async def test_incomplete_play_is_kept_as_a_draft_and_can_be_undone(tmp_path: Path) -> None:
    service = await make(tmp_path, [3, 1])
    await start(service, length=3)
    v0 = await version(service)
    reply = await service.move(HERE, ALICE, "8/5")
    assert reply.ok and "alice has played 8/5 so far" in reply.text  # not "entered" (issue 19, 7)
    assert any(b.action is Action.UNDO for b in reply.buttons)
    undo = await service.undo(HERE, ALICE)
    assert undo.ok and "nothing entered yet" in undo.text
    again = await service.undo(HERE, ALICE)
    assert not again.ok and "Nothing to undo" in again.text
    await service.move(HERE, ALICE, "8/5")
    done = await service.move(HERE, ALICE, "6/5")
    assert done.ok and "alice plays 8/5 6/5" in done.text
    assert await version(service) == v0 + 4


async def test_confirm_step_when_auto_confirm_is_off(tmp_path: Path) -> None:
    config = Config(game=GameConfig(auto_confirm=False))
    service = await make(tmp_path, [3, 1], config)
    await start(service, length=3)
    pending = await service.move(HERE, ALICE, "8/5 6/5")
    assert pending.ok and "Confirm" in pending.text
    assert any(b.action is Action.CONFIRM for b in pending.buttons)
    confirmed = await service.confirm(HERE, ALICE)
    assert confirmed.ok and "alice plays 8/5 6/5" in confirmed.text
    assert not (await service.confirm(HERE, ALICE)).ok


async def test_money_drop_settles_the_ledger_and_starts_the_next_game(tmp_path: Path) -> None:
    # Game 1: alice opens 3-1, bob rolls 5-2 ... alice doubles, bob drops.
    service = await make(tmp_path, [3, 1, 5, 2, 4, 1])
    await start(service, stake=5)
    await service.move(HERE, ALICE, "8/5 6/5")
    assert (await service.roll(HERE, BOB)).ok
    assert (await service.move(HERE, BOB, "13/8 13/11")).ok
    assert (await service.double(HERE, ALICE)).ok
    dropped = await service.drop(HERE, BOB)
    assert dropped.ok, dropped.text
    assert "alice wins a single game (double dropped): 1 point" in dropped.text
    assert "Game 2 begins" in dropped.text
    async with service.storage.transaction() as tx:
        assert await tx.balance(HERE.guild_id, ALICE.id) == 5
        assert await tx.balance(HERE.guild_id, BOB.id) == -5
        row = await tx.open_match_in_channel(HERE.channel_id)
        assert row is not None and row.status == "active"
        games = await tx.games_of_match(row.id)
        assert [g.status for g in games] == ["finished", "active"]
        assert games[0].result is not None and games[0].result["points"] == 1


async def test_take_then_resignation_ends_the_match_and_rates_it(tmp_path: Path) -> None:
    service = await make(tmp_path, [3, 1, 5, 2, 4, 2])
    await start(service, length=3)
    await service.move(HERE, ALICE, "8/5 6/5")
    await service.roll(HERE, BOB)
    await service.move(HERE, BOB, "13/8 13/11")
    await service.double(HERE, ALICE)
    taken = await service.take(HERE, BOB)
    assert taken.ok and "cube is at 2" in taken.text
    # Bob owns the cube now; alice is on roll and may not double: she rolls automatically.
    resign = await service.resign(HERE, BOB, "gammon")
    assert resign.ok and "4 points" in resign.text
    refused = await service.answer_resignation(HERE, BOB, True)
    assert not refused.ok and "not your turn" in refused.text
    accepted = await service.answer_resignation(HERE, ALICE, True)
    assert accepted.ok
    assert "alice wins a gammon (resignation): 4 points" in accepted.text
    assert "alice wins the 3-point match" in accepted.text
    async with service.storage.transaction() as tx:
        alice = await tx.rating(HERE.guild_id, ALICE.id)
        bob = await tx.rating(HERE.guild_id, BOB.id)
    # FIBS: equal ratings, N = 3: 4 * 5 * sqrt(3) * 0.5 = 17.32...
    assert alice.rating == pytest.approx(1500 + 10 * 3 ** 0.5)
    assert bob.rating == pytest.approx(1500 - 10 * 3 ** 0.5)
    assert (alice.experience, bob.experience) == (3, 3)
    board = await service.leaderboard(HERE, CAROL)
    assert board.ok and board.text.index("alice") < board.text.index("bob")


async def test_stale_button_and_restart(tmp_path: Path) -> None:
    service = await make(tmp_path, [3, 1, 6, 6])
    await start(service, length=3)
    v = await version(service)
    await service.move(HERE, ALICE, "8/5 6/5")
    stale = await service.roll(HERE, BOB, expect=Expect(v))
    assert not stale.ok and "moved on" in stale.text
    # A new service on the same file (a restart) continues the same game.
    await service.storage.close()
    storage = await opened(tmp_path / "bg.sqlite3")
    script = service.runner.dice  # same scripted dice
    restarted = GameService(storage, Config(), dice=script)
    rolled = await restarted.roll(HERE, BOB, expect=Expect(v + 1))
    assert rolled.ok and "bob rolled 6-6" in rolled.text


async def test_claim_after_the_inactivity_limit(tmp_path: Path) -> None:
    now = [datetime.now(UTC)]
    config = Config(timeouts=TimeoutConfig(claim_after_minutes=30, reminder_minutes=10))
    service = await make(tmp_path, [3, 1], config, clock=lambda: now[0])
    await start(service, length=1)
    now[0] += timedelta(seconds=10)  # (the match's time is the real clock's, a moment later)
    early = await service.claim(HERE, BOB)
    assert not early.ok and "alice still has 30 minutes to act" in early.text, early.text
    now[0] += timedelta(minutes=29, seconds=30)
    early = await service.claim(HERE, BOB)
    assert not early.ok and "alice still has 1 minute to act" in early.text, early.text
    own = await service.claim(HERE, ALICE)
    assert not own.ok and "while your opponent has to act" in own.text
    now[0] += timedelta(minutes=1)
    claimed = await service.claim(HERE, BOB)
    assert claimed.ok and "bob claims the game" in claimed.text
    assert "bob wins the 1-point match" in claimed.text


async def test_reminder_is_sent_once_across_two_services(tmp_path: Path) -> None:
    now = [datetime.now(UTC)]
    config = Config(timeouts=TimeoutConfig(reminder_minutes=10))
    first = await make(tmp_path, [3, 1], config, clock=lambda: now[0] + timedelta(hours=1))
    await start(first, length=1)
    storage2 = await opened(tmp_path / "bg.sqlite3")
    second = GameService(storage2, config, clock=lambda: now[0] + timedelta(hours=1))
    got = await first.due_reminders() + await second.due_reminders()
    assert len(got) == 1
    channel, line = got[0]
    assert channel == HERE.channel_id and Mention(ALICE.id, ALICE.name) in line
    assert ("it's your turn here (idle for 10 minutes). After 1 day your opponent may claim "
            "the game.") in plain(line)
    assert await first.due_reminders() == [] and await second.due_reminders() == []


async def test_verify_recomputes_every_die_of_a_finished_game(tmp_path: Path) -> None:
    storage = await opened(tmp_path / "bg.sqlite3")
    seeds = iter(["ab" * 32, "cd" * 32])
    service = GameService(storage, Config(), dice_seed=lambda: next(seeds))
    await start(service, length=1)
    reply = await service.resign(HERE, ALICE, "single")
    reply = await service.answer_resignation(HERE, BOB, True)
    assert reply.ok and "ab" * 32 in reply.text  # the seed is revealed at the end
    check = await service.verify(HERE, CAROL)
    assert check.ok and "dice match the seed" in check.text
    assert fairdice.seed_hash("ab" * 32) in check.text


async def test_challenge_terms_are_checked(tmp_path: Path) -> None:
    service = await make(tmp_path)
    cases = [
        (dict(opponent=ALICE), "yourself"),
        (dict(opponent=BOB, length=99), "1 to 25 points"),
        (dict(opponent=BOB, length=3, stake=5), "not both"),
        (dict(opponent=BOB, stake=-1), "stake"),
        (dict(opponent=BOB, variant="chess"), "Unknown variant"),
        (dict(opponent=BOB, rules={"scoring": "golf"}), "scoring"),
        (dict(opponent=BOB, length=5, rules={"jacoby": "on"}), "money play only"),
    ]
    for terms, words in cases:
        opponent = terms.pop("opponent")
        reply = await service.challenge(HERE, ALICE, opponent, **terms)  # type: ignore[arg-type]
        assert not reply.ok and words in reply.text, (words, reply.text)
    assert (await service.challenge(HERE, ALICE, BOB, length=3)).ok
    busy = await service.challenge(HERE, CAROL, BOB)
    assert not busy.ok and "already has a game" in busy.text
    wrong = await service.accept(HERE, CAROL)
    assert not wrong.ok and "for bob" in wrong.text
    assert (await service.cancel(HERE, ALICE)).ok


async def test_variant_game_through_the_service(tmp_path: Path) -> None:
    # Russian backgammon: both throw two dice (003 ch.10 I); the winner may play or throw again.
    service = await make(tmp_path, [5, 3, 2, 1])
    await start(service, length=1, variant="russian")
    board = await service.board(HERE, ALICE)
    assert board.ok and board.boards[-1].view.variant == "Russian backgammon"
    assert any(b.action is Action.CHOOSE for b in board.buttons)


def test_config_replace_is_usable() -> None:
    # Keep the dataclass replace API in use by tests that build configs.
    assert replace(Config(), game=GameConfig(auto_confirm=False)).game.auto_confirm is False


async def test_export_gives_a_mat_file_that_parses_back(tmp_path: Path) -> None:
    from engine.formats.matfile import parse_mat

    service = await make(tmp_path, [3, 1, 5, 2])
    await start(service, length=3)
    await service.move(HERE, ALICE, "8/5 6/5")
    await service.roll(HERE, BOB)
    await service.move(HERE, BOB, "13/8 13/11")
    reply = await service.export(HERE, CAROL)
    assert reply.ok and reply.attachment is not None
    name, data = reply.attachment
    assert name.endswith(".mat")
    parsed = parse_mat(data.decode())
    assert parsed.length == 3 and len(parsed.games) == 1
    assert not (await service.export(Place(7, 99), CAROL)).ok


async def test_button_of_an_earlier_match_is_refused(tmp_path: Path) -> None:
    service = await make(tmp_path, [3, 1, 4, 2])
    await start(service, length=1)
    first = await service.board(HERE, ALICE)
    assert (await service.forfeit(HERE, BOB)).ok
    await start(service, length=1)
    current = await service.board(HERE, ALICE)
    assert current.match_id != first.match_id
    old = await service.move(HERE, ALICE, "8/4 6/4")  # typed commands need no match id
    assert old.ok
    stale = await service.roll(HERE, BOB, expect=Expect(current.version, first.match_id))
    assert not stale.ok and "earlier game" in stale.text


async def test_an_action_on_a_cached_game_is_two_trips_to_the_database(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Each trip to aiosqlite's thread costs more than the SQL itself (bot/storage.py):
    # an action is BEGIN + the read of its match row, then its writes + COMMIT;
    # a read-only call is its read, then COMMIT.
    from bot.storage.sqlite import transaction as storage_module

    trips: list[list[str]] = []
    submit = storage_module._submit

    async def counting(db: object, batch: list[storage_module._Statement]) -> object:
        trips.append([st.sql.split()[0] for st in batch])
        return await submit(db, batch)  # type: ignore[arg-type]

    service = await make(tmp_path, [3, 1, 6, 5])
    await start(service, stake=1)
    monkeypatch.setattr(storage_module, "_submit", counting)
    assert (await service.move(HERE, ALICE, "8/5 6/5")).ok
    # (alice acts for the first time through this service: her name is written too; her
    # play's event is appended when bob acts, as she may take it back until then)
    assert trips == [["BEGIN", "INSERT", "SELECT"], ["UPDATE", "UPDATE", "COMMIT"]]
    trips.clear()
    assert await service.suggestions(HERE, BOB, "") == []  # bob has not rolled
    assert trips == [["BEGIN", "SELECT"], ["COMMIT"]]
    trips.clear()
    assert (await service.roll(HERE, BOB)).ok
    assert trips == [["BEGIN", "SELECT"], ["INSERT", "UPDATE", "UPDATE", "COMMIT"]]


async def test_a_state_loaded_in_a_rolled_back_transaction_is_never_served(
        tmp_path: Path) -> None:
    # A chouette's next match is inserted and loaded inside the action that ends the
    # previous game; if that action rolls back (e.g. its version check fails at
    # commit), the row never existed, and SQLite may give its id to the next match.
    service = await make(tmp_path, [3, 1])
    dave = Actor(4, "dave")
    with pytest.raises(RuntimeError):
        async with service.storage.transaction() as tx:
            for who in (ALICE, BOB):
                await tx.upsert_user(who.id, who.name)
            ghost = await tx.insert_match(
                guild_id=HERE.guild_id, channel_id=HERE.channel_id, white_id=ALICE.id,
                black_id=BOB.id, variant="standard", rules={}, length=3, stake=0,
                rated=True, status="challenged")
            await service.runner.load_row(tx, ghost)
            raise RuntimeError("the action fails after loading the new match")
    assert (await service.challenge(HERE, CAROL, dave, length=1)).ok
    reply = await service.accept(HERE, dave)
    assert reply.ok, reply.text
    assert reply.match_id == ghost.id  # the id was given again...
    names = {p.name for p in reply.boards[-1].view.players}
    assert names == {"carol", "dave"}  # ...but not the ghost's state


@pytest.mark.parametrize(("rules", "kind", "offered", "settled"), [
    # 002 'OPTIONAL RULES', The Jacoby Rule: with the cube centred in money play, gammons
    # and backgammons count as a single game -- the offer must say 1 point, not 3.
    ({"jacoby": True}, "backgammon", "1 point, counted as a single here", 1),
    # 000 'SCORING': "a triple or quadruple game (according to agreement)": with
    # backgammon_value 4 a resigned backgammon is 4 points, as settled.
    ({"backgammon_value": 4}, "backgammon", "4 points", 4),
    ({}, "gammon", "2 points", 2),
])
async def test_the_resignation_offer_names_the_points_the_engine_settles(
        tmp_path: Path, rules: dict[str, object], kind: str, offered: str,
        settled: int) -> None:
    service = await make(tmp_path, [3, 1, 4, 2])  # (the next game's opening: 4-2)
    await start(service, stake=1, rules=rules)
    offer = await service.resign(HERE, ALICE, kind)
    assert offer.ok, offer.text
    assert f"alice offers to resign a {kind} ({offered})." in offer.text
    accepted = await service.answer_resignation(HERE, BOB, True)
    assert accepted.ok, accepted.text
    point = "point" if settled == 1 else "points"
    assert f"bob wins a {kind} (resignation)" in accepted.text
    assert f": {settled} {point}." in accepted.text


@pytest.mark.parametrize(("terms", "asked"), [
    ({"length": 3}, "@bob: take or drop?"),
    ({"stake": 1, "rules": {"beavers": "on"}}, "@bob: take, drop or beaver?"),
])
async def test_a_double_asks_for_the_answers_there_are(tmp_path: Path, terms: dict[str, object],
                                                       asked: str) -> None:
    """The answers to a double, in words: accept or refuse (002 'DOUBLING'), and the beaver
    where that optional rule is on (002 'DOUBLING', "Beavers"); it read "take, drop?"."""
    service = await make(tmp_path, [3, 1, 2, 1])
    await start(service, **terms)
    assert (await service.move(HERE, ALICE, "8/5 6/5")).ok
    assert (await service.roll(HERE, BOB)).ok
    assert (await service.move(HERE, BOB, "13/11 24/23")).ok
    reply = await service.double(HERE, ALICE)
    assert reply.ok, reply.text
    assert [plain(n) for n in reply.notify] == [asked]

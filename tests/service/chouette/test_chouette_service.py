"""Chouette through the services on a real SQLite file, with scripted dice.

The dice script is consumed in order: first the seat throws (one die each, ties
thrown again), then each game's opening throw (white = the box, black = the
captain), then any rolls.  Games are ended quickly by cube actions and
resignations, so the settlements are exact and follow the books' arithmetic.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from scripted import OPENED, Script, opened

from bot.config import Config
from bot.service.core.replies import Action, Reply, plain
from bot.service.core.values import Actor, Place
from bot.service.game import GameService
from render.view import StakeState

ALICE = Actor(1, "alice")
BOB = Actor(2, "bob")
CAROL = Actor(3, "carol")
DAVE = Actor(4, "dave")
ERIN = Actor(5, "erin")
FRANK = Actor(6, "frank")
GRACE = Actor(7, "grace")
HERE = Place(guild_id=7, channel_id=70)
PEOPLE = (ALICE, BOB, CAROL, DAVE, ERIN, FRANK, GRACE)


class Host:
    def __init__(self, games: GameService, script: Script) -> None:
        self.games = games
        self.table = games.chouette
        self.script = script


async def make(tmp_path: Path, dice: Iterable[int] = ()) -> Host:
    storage = await opened(tmp_path / "bg.sqlite3")
    script = Script(dice)
    return Host(GameService(storage, Config(), dice=script), script)  # type: ignore[arg-type]


def ok(reply: Reply) -> Reply:
    assert reply.ok, reply.text
    return reply


async def seat(host: Host, players: Iterable[Actor], **options: Any) -> Reply:
    """Open (first player), join (the others) and start."""
    first, *rest = players
    ok(await host.table.open(HERE, first, **options))
    for p in rest:
        ok(await host.table.join(HERE, p))
    return ok(await host.table.start(HERE, first))


async def current(host: Host) -> tuple[int, int, dict[str, Any]]:
    """(box, captain, chouette state) of the game in progress."""
    async with host.games.storage.transaction() as tx:
        row = await tx.open_match_in_channel(HERE.channel_id)
        assert row is not None and row.chouette_id is not None
        return row.white_id, row.black_id, row.state["chouette"]


async def order(host: Host) -> list[int]:
    async with host.games.storage.transaction() as tx:
        crow = await tx.open_chouette_in_channel(HERE.channel_id)
        assert crow is not None
        return [m.user_id for m in await tx.chouette_members(crow.id)]


async def ledger(host: Host) -> list[tuple[int, Fraction, int, int | None, int | None]]:
    """(user, exact points, amount, game, chouette) of every ledger entry, in order."""
    db = host.games.storage.db  # type: ignore[attr-defined]
    async with db.execute("SELECT user_id, points, points_den, amount, game_id, chouette_id "
                          "FROM ledger ORDER BY id") as cur:
        return [(u, Fraction(p, d), a, g, c) for u, p, d, a, g, c in await cur.fetchall()]


async def game_result(host: Host, game_id: int) -> dict[int, Fraction]:
    return {u: p for u, p, _, g, _ in await ledger(host) if g == game_id}


async def last_game_id(host: Host) -> int:
    rows = await ledger(host)
    game = rows[-1][3]
    assert game is not None
    return game


async def assert_zero_sum_per_game(host: Host) -> None:
    """Every chouette game's ledger entries add up to zero, in points and in money."""
    points: dict[int | None, Fraction] = {}
    money: dict[int | None, int] = {}
    for _, p, amount, game, chouette in await ledger(host):
        assert chouette is not None and game is not None
        points[game] = points.get(game, Fraction(0)) + p
        money[game] = money.get(game, 0) + amount
    assert points and set(points.values()) == {0} and set(money.values()) == {0}


# --------------------------------------------------------------------------- tests

async def test_the_books_example_white_in_the_box_wins_a_gammon_with_two_doubles(
        tmp_path: Path) -> None:
    # 003 ch.6 I: an automatic double (opening tie) and an optional double (the box's,
    # taken), then a gammon: 8 points.  White (alice, box) +16, Black -8, Brown -8.
    host = await make(tmp_path, [6, 4, 2,            # seats: alice, bob, carol
                                 2, 2, 1, 3,         # opening tie (automatic double), 1-3
                                 6, 5,               # alice's roll after the take
                                 5, 3])              # next game's opening
    reply = await seat(host, [ALICE, BOB, CAROL], rules={"automatic_doubles": "on"})
    assert "Seat throw: alice 6, bob 4, carol 2" in reply.text
    assert "Automatic double: the cube is now 2" in reply.text
    assert "alice in the box against captain bob and partners carol" in reply.text
    ok(await host.games.move(HERE, BOB, "8/5 6/5"))
    ok(await host.games.double(HERE, ALICE))
    ok(await host.games.take(HERE, CAROL))           # carol's own answer
    reply = ok(await host.games.take(HERE, BOB))      # the captain closes the double
    assert "cube is at 4" in reply.text
    ok(await host.games.resign(HERE, BOB, "gammon"))
    reply = ok(await host.games.answer_resignation(HERE, ALICE, True))
    assert "alice (box) +16, bob (captain) -8, carol -8" in reply.text
    assert await game_result(host, await last_game_id(host)) == {1: 16, 2: -8, 3: -8}
    # The box won: he stays, carol captains, bob goes to the foot (003 ch.5).
    assert await order(host) == [1, 3, 2]
    box, captain, _ = await current(host)
    assert (box, captain) == (1, 3)
    assert host.script.values == []


@pytest.mark.parametrize("refusal, expected", [
    # 003/004: carol loses 1 (the value as it stands) to the captain, who carries her
    # share: box wins 2 (cube 2) against bob's two shares and dave's one.
    ("lose-to-captain", {1: 6, 2: 1 - 4, 3: -1, 4: -2}),
    # 000: carol's stake is forfeited to bob and dave, who share her result equally:
    # bob and dave are each at -2 1/2, exactly (issue 30 item 1).
    ("forfeit-to-partners", {1: 6, 2: Fraction(-5, 2), 3: -1, 4: Fraction(-5, 2)}),
])
async def test_a_partner_refuses_the_box_s_double_the_captain_takes(
        tmp_path: Path, refusal: str, expected: dict[int, Fraction]) -> None:
    host = await make(tmp_path, [6, 5, 4, 3, 1, 3, 6, 5, 4, 2])
    await seat(host, [ALICE, BOB, CAROL, DAVE], refusal=refusal, stake=10)
    ok(await host.games.move(HERE, BOB, "8/5 6/5"))
    reply = ok(await host.games.double(HERE, ALICE))
    assert any(b.action is Action.TAKE and set(b.users) == {2, 3, 4} for b in reply.buttons)
    assert "Partners' answers: carol not yet (goes with the captain); dave not yet" in (
        reply.text)
    reply = ok(await host.games.drop(HERE, CAROL))
    assert "carol drops (a partner's own answer" in reply.text
    reply = ok(await host.games.take(HERE, BOB))
    assert "carol retires from this game, losing 1 point" in reply.text
    _, _, state = await current(host)
    assert [s[3] for s in state["stakes"]["team"]] == ["in", "retired", "in"]
    board = ok(await host.games.board(HERE, CAROL))
    panel = board.boards[-1].view.chouette
    assert panel is not None
    assert [(p.name, p.state) for p in panel.partners] == [
        ("carol", StakeState.DROPPED), ("dave", StakeState.OWNS_CUBE)]
    refused = await host.games.take(HERE, CAROL)
    assert not refused.ok and "retired from this game" in refused.text
    ok(await host.games.resign(HERE, BOB, "single"))
    ok(await host.games.answer_resignation(HERE, ALICE, True))
    game = await last_game_id(host)
    assert await game_result(host, game) == expected
    amounts = {u: a for u, _, a, g, _ in await ledger(host) if g == game}
    exact = {"lose-to-captain": {1: 60, 2: -30, 3: -10, 4: -20},
             "forfeit-to-partners": {1: 60, 2: -25, 3: -10, 4: -25}}[refusal]
    assert amounts == exact
    await assert_zero_sum_per_game(host)


@pytest.mark.parametrize("size", [3, 4, 5])
async def test_the_captain_s_drop_is_final_for_the_whole_team(tmp_path: Path,
                                                            size: int) -> None:
    players = PEOPLE[:size]
    seats = [6, 5, 4, 3, 2][:size]
    host = await make(tmp_path, [*seats, 1, 3, 4, 2])
    await seat(host, players)
    ok(await host.games.move(HERE, BOB, "8/5 6/5"))
    ok(await host.games.double(HERE, ALICE))
    ok(await host.games.take(HERE, CAROL))  # carol would play on, but bob decides
    reply = ok(await host.games.drop(HERE, BOB))
    assert "The captain's word is final: the whole team drops." in reply.text
    result = await game_result(host, await last_game_id(host))
    assert result == {1: size - 1, **{p.id: -1 for p in players[1:]}}
    # Rotation: alice stays in the box, carol captains, bob to the foot.
    assert await order(host) == [1, *(p.id for p in players[2:]), 2]


async def test_partner_takes_over_when_the_captain_drops(tmp_path: Path) -> None:
    host = await make(tmp_path, [6, 5, 4, 3, 1, 3, 6, 5, 4, 2])
    await seat(host, [ALICE, BOB, CAROL, DAVE], captain_refusal="partner-takes-over")
    ok(await host.games.move(HERE, BOB, "8/5 6/5"))
    ok(await host.games.double(HERE, ALICE))
    ok(await host.games.take(HERE, CAROL))
    reply = ok(await host.games.drop(HERE, BOB))       # dave said nothing: goes with bob
    assert "bob drops; carol took, and takes over as captain" in reply.text
    assert "carol takes: the cube is at 2" in reply.text
    box, captain, state = await current(host)
    assert (box, captain) == (1, 3) and state["stakes"]["captains"] == [2, 3]
    refused = await host.games.resign(HERE, BOB, "single")
    assert not refused.ok and "carol is the captain" in refused.text
    ok(await host.games.resign(HERE, ALICE, "single"))   # the box gives up: team wins 2
    ok(await host.games.answer_resignation(HERE, CAROL, True))
    # bob and dave lost 1 each to carol, who then won 2 for each of three shares.
    assert await game_result(host, await last_game_id(host)) == {1: -6, 2: -1, 3: 8, 4: -1}
    # The team won: the (last) captain takes the box; the first captain and the old box
    # go to the foot.
    assert await order(host) == [3, 4, 2, 1]


async def test_the_team_doubles_and_the_box_drops(tmp_path: Path) -> None:
    # The box wins the opening and plays; then the captain doubles the box.
    host = await make(tmp_path, [6, 5, 4, 3, 1, 4, 2])
    await seat(host, [ALICE, BOB, CAROL])
    ok(await host.games.move(HERE, ALICE, "8/5 6/5"))
    refused = await host.games.double(HERE, CAROL)
    assert not refused.ok and "only the captain rolls, moves and doubles" in refused.text
    ok(await host.games.double(HERE, BOB))
    refused = await host.games.take(HERE, CAROL)
    assert not refused.ok and "the box answers the team's double" in refused.text
    ok(await host.games.drop(HERE, ALICE))
    assert await game_result(host, await last_game_id(host)) == {1: -2, 2: 1, 3: 1}
    assert await order(host) == [2, 3, 1]  # bob takes the box, alice to the foot


async def test_roles_are_checked_and_suggestions_reach_the_captain(tmp_path: Path) -> None:
    host = await make(tmp_path, [6, 5, 4, 1, 3])
    await seat(host, [ALICE, BOB, CAROL])
    refused = await host.games.move(HERE, CAROL, "8/5 6/5")
    assert not refused.ok and "only the captain rolls, moves and doubles" in refused.text
    refused = await host.games.move(HERE, ALICE, "8/5 6/5")
    assert not refused.ok and "not your turn" in refused.text
    refused = await host.games.move(HERE, DAVE, "8/5 6/5")
    assert not refused.ok and "not playing in this game" in refused.text
    refused = await host.table.suggest(HERE, BOB, "8/5 6/5")
    assert not refused.ok and "You are the captain" in refused.text
    refused = await host.table.suggest(HERE, ALICE, "8/5 6/5")
    assert not refused.ok and "Only the captain's partners" in refused.text
    reply = ok(await host.table.suggest(HERE, CAROL, "8/5 6/5 makes the 5 point"))
    assert "Suggestions for the captain bob: carol: 8/5 6/5 makes the 5 point" in reply.text
    board = ok(await host.games.board(HERE, BOB))
    assert board.boards and board.boards[-1].view.chouette is not None
    reply = ok(await host.games.move(HERE, BOB, "8/5 6/5"))
    assert "Suggestions" not in reply.text  # shown until the captain acted
    refused = await host.games.forfeit(HERE, BOB)
    assert not refused.ok and "/chouette leave" in refused.text


async def test_open_join_start_refusals_and_the_cap(tmp_path: Path) -> None:
    host = await make(tmp_path, [6, 5, 4, 3, 2, 1, 5, 3])
    refused = await host.table.join(HERE, ALICE)
    assert not refused.ok and "no chouette in this channel" in refused.text
    refused = await host.table.open(HERE, ALICE, cap=9)
    assert not refused.ok and "cap is 3 to 8" in refused.text
    refused = await host.table.open(HERE, ALICE, rules={"beavers": "on"})
    assert not refused.ok and "Beavers are not used in a chouette" in refused.text
    ok(await host.table.open(HERE, ALICE))
    refused = await host.table.open(HERE, BOB)
    assert not refused.ok and "already has a chouette" in refused.text
    refused = await host.games.challenge(HERE, BOB, CAROL)
    assert not refused.ok and "chouette table" in refused.text
    ok(await host.table.join(HERE, BOB))
    refused = await host.table.start(HERE, ALICE)
    assert not refused.ok and "needs 3 players; 2 at the table" in refused.text
    refused = await host.table.join(HERE, BOB)
    assert not refused.ok and "already at this table" in refused.text
    for p in (CAROL, DAVE, ERIN, FRANK):
        ok(await host.table.join(HERE, p))
    refused = await host.table.join(HERE, GRACE)
    assert not refused.ok and "full (6 players)" in refused.text
    refused = await host.table.start(HERE, GRACE)
    assert not refused.ok and "Only a player at the table" in refused.text
    reply = ok(await host.table.start(HERE, ALICE))
    assert "Order: alice, bob, carol, dave, erin, frank" in reply.text
    refused = await host.table.start(HERE, ALICE)
    assert not refused.ok and "already playing" in refused.text
    status = ok(await host.table.status(HERE, GRACE))
    assert "1. alice (box, threw 6) +0" in status.text
    assert "2. bob (captain, threw 5)" in status.text
    assert "6. frank (partner, threw 1)" in status.text
    assert "Game 1: box alice vs captain bob, cube 1" in status.text


async def test_rotation_over_several_games_with_five_players(tmp_path: Path) -> None:
    # Each game: an opening throw (no tie), then one side resigns a single game.
    host = await make(tmp_path, [6, 5, 4, 3, 2,
                                 3, 1, 4, 1, 1, 4, 5, 2, 2, 5, 6, 1])
    await seat(host, [ALICE, BOB, CAROL, DAVE, ERIN])
    box_wins = [True, False, True, True, False]
    seen = []
    for box_won in box_wins:
        box, captain, _ = await current(host)
        seen.append((box, captain))
        loser = next(p for p in PEOPLE if p.id == (captain if box_won else box))
        winner = next(p for p in PEOPLE if p.id == (box if box_won else captain))
        ok(await host.games.resign(HERE, loser, "single"))
        ok(await host.games.answer_resignation(HERE, winner, True))
        result = await game_result(host, await last_game_id(host))
        assert result[box] == (4 if box_won else -4)
        assert sum(result.values()) == 0
    assert seen == [(1, 2), (1, 3), (3, 4), (3, 5), (3, 2)]
    assert await order(host) == [2, 1, 4, 5, 3]
    await assert_zero_sum_per_game(host)
    board = ok(await host.games.leaderboard(HERE, ALICE, "money"))
    totals: dict[int, int] = {}
    for u, _, amount, _, _ in await ledger(host):
        totals[u] = totals.get(u, 0) + amount
    for p in (ALICE, BOB, CAROL, DAVE, ERIN):
        assert f"balance {totals[p.id]:+d}" in next(
            line for line in board.text.splitlines() if p.name in line)
    status = ok(await host.table.status(HERE, ALICE))
    assert f"carol (partner, threw 4) {totals[3]:+d}" in status.text


async def test_a_latecomer_joins_at_the_foot_and_plays_from_the_next_game(
        tmp_path: Path) -> None:
    host = await make(tmp_path, [6, 5, 4, 3, 1, 5, 2, 4, 2])
    await seat(host, [ALICE, BOB, CAROL])
    reply = ok(await host.table.join(HERE, DAVE))
    assert "foot of the list (place 4). You play from the next game." in reply.text
    ok(await host.games.move(HERE, ALICE, "8/5 6/5"))
    ok(await host.games.double(HERE, BOB))
    refused = await host.games.take(HERE, DAVE)
    assert not refused.ok and "not playing in this game" in refused.text
    ok(await host.games.take(HERE, ALICE))
    ok(await host.games.resign(HERE, ALICE, "single"))
    ok(await host.games.answer_resignation(HERE, BOB, True))
    assert await game_result(host, await last_game_id(host)) == {1: -4, 2: 2, 3: 2}
    # The team won: bob takes the box; carol, then the latecomer, then alice.
    assert await order(host) == [2, 3, 4, 1]
    _, _, state = await current(host)
    assert [s[0] for s in state["stakes"]["team"]] == [3, 4, 1]


async def test_leaving_mid_game_is_a_drop_at_the_current_value_with_confirmation(
        tmp_path: Path) -> None:
    host = await make(tmp_path, [6, 5, 4, 3, 1, 3, 6, 5, 4, 2])
    await seat(host, [ALICE, BOB, CAROL, DAVE])
    ok(await host.games.move(HERE, BOB, "8/5 6/5"))
    ok(await host.games.double(HERE, ALICE))
    refused = await host.table.leave(HERE, DAVE, confirm=True)
    assert not refused.ok and "settle it first" in refused.text
    ok(await host.games.take(HERE, BOB))              # cube 2, the team owns it
    refused = await host.table.leave(HERE, DAVE)
    assert not refused.ok and "current value, 2 points" in refused.text
    assert await order(host) == [1, 2, 3, 4]           # nothing changed
    reply = ok(await host.table.leave(HERE, DAVE, confirm=True))
    assert "dave retires from this game, losing 2 points to bob" in reply.text
    assert await order(host) == [1, 2, 3]
    # The captain leaves too: carol takes over, bob loses 2 for each of his 2 shares.
    reply = ok(await host.table.leave(HERE, BOB, confirm=True))
    assert "carol is the new captain" in reply.text
    box, captain, _ = await current(host)
    assert (box, captain) == (1, 3)
    ok(await host.games.resign(HERE, CAROL, "single"))
    reply = ok(await host.games.answer_resignation(HERE, ALICE, True))
    # dave -2 (to bob); bob +2 -4 (to carol); carol +4, then loses 2 for 3 shares.
    assert await game_result(host, await last_game_id(host)) == {1: 6, 2: -2, 3: -2, 4: -2}
    assert "it needs 3 to play on" in reply.text
    assert await order(host) == [1, 3]
    refused = await host.games.roll(HERE, ALICE)
    assert not refused.ok
    reply = ok(await host.table.leave(HERE, CAROL))    # no stake in play: no confirmation
    assert "carol leaves the chouette" in reply.text
    ok(await host.table.join(HERE, ERIN))
    ok(await host.table.join(HERE, FRANK))
    reply = ok(await host.table.start(HERE, ALICE))    # seats are kept, no new throw
    assert "Seat throw" not in reply.text
    assert "alice in the box against captain erin and partners frank" in reply.text


async def test_the_box_leaving_mid_game_forfeits_and_the_captain_takes_the_box(
        tmp_path: Path) -> None:
    host = await make(tmp_path, [6, 5, 4, 3, 1, 3, 4, 2])
    await seat(host, [ALICE, BOB, CAROL, DAVE])
    ok(await host.games.move(HERE, BOB, "8/5 6/5"))
    refused = await host.table.leave(HERE, ALICE)
    assert not refused.ok and "1 point against each player on the team" in refused.text
    reply = ok(await host.table.leave(HERE, ALICE, confirm=True))
    assert "alice leaves the table and the box forfeits the game" in reply.text
    assert await game_result(host, await last_game_id(host)) == {1: -3, 2: 1, 3: 1, 4: 1}
    assert await order(host) == [2, 3, 4]
    box, captain, _ = await current(host)
    assert (box, captain) == (2, 3)


async def test_a_restart_in_the_middle_of_a_chouette_game_resumes_it(tmp_path: Path) -> None:
    host = await make(tmp_path, [6, 5, 4, 3, 1, 3])
    await seat(host, [ALICE, BOB, CAROL, DAVE], refusal="forfeit-to-partners")
    ok(await host.games.move(HERE, BOB, "8/5 6/5"))
    ok(await host.games.double(HERE, ALICE))
    ok(await host.games.drop(HERE, DAVE))
    ok(await host.table.suggest(HERE, CAROL, "take: we have good timing"))
    await host.games.storage.close()
    OPENED.remove(host.games.storage)  # type: ignore[arg-type]
    # A new process: new storage, services and dice on the same database file.
    again = await make(tmp_path, [6, 5, 4, 2])
    board = ok(await again.games.board(HERE, BOB))
    assert "Suggestions for the captain bob: carol: take: we have good timing" in board.text
    assert "Partners' answers: carol not yet (goes with the captain); dave drops" in board.text
    reply = ok(await again.games.take(HERE, BOB))
    assert ("dave retires from this game, losing 1 point to bob (1/2 point) and carol "
            "(1/2 point)") in reply.text
    ok(await again.games.resign(HERE, ALICE, "single"))
    ok(await again.games.answer_resignation(HERE, BOB, True))
    # Team wins 2: bob and carol each +1/2 + 1.5 x 2 = 3 1/2 (exact: issue 30 item 1);
    # dave -1.
    assert await game_result(again, await last_game_id(again)) == {
        1: -6, 2: Fraction(7, 2), 3: Fraction(7, 2), 4: -1}
    assert await order(again) == [2, 3, 4, 1]


async def test_box_partners_share_the_box_s_result(tmp_path: Path) -> None:
    host = await make(tmp_path, [6, 5, 4, 3, 1, 3, 5, 2])
    reply = await seat(host, [ALICE, BOB, CAROL, DAVE], box_partners=1)
    assert "with the box: dave" in reply.text
    refused = await host.games.move(HERE, DAVE, "8/5 6/5")
    assert not refused.ok and "share the box's result" in refused.text
    ok(await host.games.resign(HERE, BOB, "single"))
    reply = ok(await host.games.answer_resignation(HERE, ALICE, True))
    assert "dave (with the box) +1" in reply.text
    assert await game_result(host, await last_game_id(host)) == {1: 1, 4: 1, 2: -1, 3: -1}
    # The box won: carol captains; bob, beaten, "becomes the lower ranking of the
    # inactive partners" (003 ch.5) -- the foot of the team, not the box's side;
    # dave, who won with the box, keeps sharing it.
    assert await order(host) == [1, 3, 2, 4]


async def test_a_box_partner_who_leaves_mid_game_keeps_his_share_of_that_game(
        tmp_path: Path) -> None:
    host = await make(tmp_path, [6, 5, 4, 3, 1, 3, 5, 2])
    await seat(host, [ALICE, BOB, CAROL, DAVE], box_partners=1)
    reply = ok(await host.table.leave(HERE, DAVE))
    assert ("dave leaves the chouette. dave still shares the box's result of the game in "
            "progress, as when it began.") in reply.text
    ok(await host.games.resign(HERE, BOB, "single"))
    reply = ok(await host.games.answer_resignation(HERE, ALICE, True))
    assert await game_result(host, await last_game_id(host)) == {1: 1, 4: 1, 2: -1, 3: -1}
    assert 4 not in await order(host)  # and he plays no further game


async def test_a_suggestion_survives_the_captain_s_automatic_roll_until_he_plays(
        tmp_path: Path) -> None:
    host = await make(tmp_path, [6, 5, 4, 3, 1, 6, 5, 6, 5, 4, 3])
    await seat(host, [ALICE, BOB, CAROL])
    ok(await host.games.move(HERE, ALICE, "8/5 6/5"))
    ok(await host.games.double(HERE, BOB))
    ok(await host.games.take(HERE, ALICE))             # bob can't redouble: rolls 6-5
    ok(await host.games.move(HERE, BOB, "24/13"))
    ok(await host.table.suggest(HERE, CAROL, "13/9 13/10 if 4-3"))
    ok(await host.games.roll(HERE, ALICE))
    ok(await host.games.move(HERE, ALICE, "24/13"))
    # bob may not double, but his throw waits for him while alice may take her play back
    # (issue 30 item 17); he rolls.
    reply = ok(await host.games.roll(HERE, BOB))
    assert "bob rolled 4-3" in reply.text
    assert "Suggestions for the captain bob: carol: 13/9 13/10 if 4-3" in reply.text
    reply = ok(await host.games.move(HERE, BOB, "13/9 13/10"))
    assert "Suggestions" not in reply.text
    assert host.script.values == []


async def test_a_server_playing_beavers_opens_chouettes_without_them(tmp_path: Path) -> None:
    # 002 'OPTIONAL RULES' beavers are a two-player option; in a chouette each partner
    # answers the box's double for himself (003 ch.5), so the table plays without them.
    from bot.config import GameConfig

    storage = await opened(tmp_path / "bg.sqlite3")
    config = Config(game=GameConfig(rules={"beavers": True, "jacoby": True}))
    table = GameService(storage, config, dice=Script()).chouette  # type: ignore[arg-type]
    reply = ok(await table.open(HERE, ALICE, rules={"scoring": "checkers-1"}))
    assert "beavers: off" in reply.text and "Jacoby rule (money play): on" in reply.text
    assert "scoring: by checkers (1/2/3/4 points a checker by table, bar 4)" in reply.text
    refused = await table.open(Place(HERE.guild_id, HERE.channel_id + 1), ALICE,
                               rules={"beavers": "on"})
    assert not refused.ok and "Beavers are not used in a chouette" in refused.text


async def test_after_a_partner_s_drop_the_prompt_asks_only_the_others(tmp_path: Path) -> None:
    # Issue 19, item 7: a partner who answered is not asked again.
    host = await make(tmp_path, [6, 5, 4, 3, 1, 3])
    await seat(host, [ALICE, BOB, CAROL, DAVE])
    ok(await host.games.move(HERE, BOB, "8/5 6/5"))
    ok(await host.games.double(HERE, ALICE))
    reply = ok(await host.games.drop(HERE, CAROL))
    asked = [plain(n) for n in reply.notify if "answer the box's double" in plain(n)]
    assert asked == ["@dave: answer the box's double for yourself with /take or /drop "
                     "before the captain does; the captain's answer closes it."]
    take = next(b for b in reply.buttons if b.action is Action.TAKE)
    assert set(take.users) == {BOB.id, DAVE.id}


async def test_board_at_a_chouette_names_the_box_and_captain_not_a_two_player_session(
        tmp_path: Path) -> None:
    """/board at a chouette table used to open with the two-player money line ("Session
    after 0 game(s): carol +0, bob +0 points"), which misstates a table of three or more."""
    host = await make(tmp_path, [5, 3, 1, 6, 4, 2])
    await seat(host, [ALICE, BOB, CAROL])
    box, captain, state = await current(host)
    names = {ALICE.id: "alice", BOB.id: "bob", CAROL.id: "carol"}
    board = ok(await host.games.board(HERE, DAVE))  # a spectator
    first = board.text.splitlines()[0]
    assert first == (f"Chouette game {state['game']}: {names[box]} in the box against captain "
                     f"{names[captain]} and the team; /chouette status shows the seats and "
                     "the table's standings.")
    assert "Session after" not in board.text


# ------------------------------------------- issue 30 ("What a new player met, third round")

async def test_a_forfeited_share_is_shared_equally_and_stored_exactly(tmp_path: Path) -> None:
    """Item 1.  000 'CHOUETTE': "his stake is forfeited to his partners, who share his
    profit or loss equally".  alice in the box, bob captain, partners carol and dave; the
    box doubles, dave drops, carol and bob take, the box wins: bob and carol -2 1/2 each."""
    host = await make(tmp_path, [6, 5, 4, 3, 1, 3, 6, 5, 4, 2])
    await seat(host, [ALICE, BOB, DAVE, CAROL], refusal="forfeit-to-partners", stake=10)
    ok(await host.games.move(HERE, BOB, "8/5 6/5"))
    ok(await host.games.double(HERE, ALICE))
    ok(await host.games.drop(HERE, DAVE))
    ok(await host.games.take(HERE, CAROL))
    ok(await host.games.take(HERE, BOB))
    ok(await host.games.resign(HERE, BOB, "single"))
    reply = ok(await host.games.answer_resignation(HERE, ALICE, True))
    assert ("alice (box) +6 (+60), bob (captain) -2 1/2 (-25), dave (retired) -1 (-10), "
            "carol -2 1/2 (-25)") in reply.text
    game = await last_game_id(host)
    assert await game_result(host, game) == {
        ALICE.id: 6, BOB.id: Fraction(-5, 2), DAVE.id: -1, CAROL.id: Fraction(-5, 2)}
    status = ok(await host.table.status(HERE, CAROL))
    assert "carol (partner, threw 3) -25 (-2 1/2 points)" in status.text


async def test_money_that_is_not_whole_is_rounded_and_says_so(tmp_path: Path) -> None:
    """Item 1 at a stake of 1: points exact in the ledger, money in whole units, the
    rounding shown (never lost silently) and the table zero-sum."""
    host = await make(tmp_path, [6, 5, 4, 3, 1, 3, 6, 5, 4, 2])
    await seat(host, [ALICE, BOB, DAVE, CAROL], refusal="forfeit-to-partners", stake=1)
    ok(await host.games.move(HERE, BOB, "8/5 6/5"))
    ok(await host.games.double(HERE, ALICE))
    ok(await host.games.drop(HERE, DAVE))
    ok(await host.games.take(HERE, BOB))
    ok(await host.games.resign(HERE, BOB, "single"))
    reply = ok(await host.games.answer_resignation(HERE, ALICE, True))
    assert "bob (captain) -2 1/2 (-2, exactly -2 1/2)" in reply.text
    assert "carol -2 1/2 (-3, exactly -2 1/2)" in reply.text
    assert "rounded so that the table adds up to zero" in reply.text
    rows = [r for r in await ledger(host) if r[3] == await last_game_id(host)]
    assert sorted(p for _, p, _, _, _ in rows) == [
        Fraction(-5, 2), Fraction(-5, 2), -1, 6]
    assert sum(a for _, _, a, _, _ in rows) == 0


async def test_each_chouette_game_begins_with_the_number_verify_takes(tmp_path: Path) -> None:
    """Item 7: game 2 of the table says "Game 2 begins", as its end says "/verify 2"."""
    host = await make(tmp_path, [6, 5, 4, 3, 1, 4, 1, 5, 2])
    first = await seat(host, [ALICE, BOB, CAROL])
    assert "Game 1 begins" in first.text
    ok(await host.games.resign(HERE, BOB, "single"))
    reply = ok(await host.games.answer_resignation(HERE, ALICE, True))
    assert "/verify 1" in reply.text
    assert "Chouette game 2:" in reply.text
    assert "Game 2 begins" in reply.text and "Game 1 begins" not in reply.text
    ok(await host.games.resign(HERE, CAROL, "single"))
    reply = ok(await host.games.answer_resignation(HERE, ALICE, True))
    assert "/verify 2" in reply.text and "Game 3 begins" in reply.text


async def test_a_partner_s_drop_is_shown_before_the_captain_answers(tmp_path: Path) -> None:
    """Item 6: dave dropped the box's double: the panel (text and picture) says so while
    the captain has not answered, also after a restart."""
    from dataclasses import replace

    from render.ascii import text_board
    from render.png import render_image

    host = await make(tmp_path, [6, 5, 4, 3, 1, 3])
    await seat(host, [ALICE, BOB, CAROL, DAVE], refusal="forfeit-to-partners")
    ok(await host.games.move(HERE, BOB, "8/5 6/5"))
    ok(await host.games.double(HERE, ALICE))
    ok(await host.games.drop(HERE, DAVE))
    ok(await host.games.take(HERE, CAROL))
    for service in (host, None):
        if service is None:  # a new process on the same database
            await host.games.storage.close()
            OPENED.remove(host.games.storage)  # type: ignore[arg-type]
            service = await make(tmp_path, [6, 5])
        view = ok(await service.games.board(HERE, ALICE)).boards[-1].view
        assert "partners: 1. carol (takes), 2. dave (drops)" in text_board(view)
        panel = view.chouette
        assert panel is not None
        assert [(p.name, p.state) for p in panel.partners] == [
            ("carol", StakeState.TAKES), ("dave", StakeState.DROPS)]
        pending = replace(panel, partners=tuple(replace(p, state=StakeState.IN)
                                                for p in panel.partners))
        fr = render_image(view)
        assert fr.tobytes() != render_image(replace(view, chouette=pending)).tobytes()

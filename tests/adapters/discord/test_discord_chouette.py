"""End to end: a chouette through the real discord.py client against the fake Discord.

The fixtures and helpers are those of tests/support/discord_e2e.py (errors logged by
the bot fail the test).  The dice are scripted: the seat throws (one die each, in
the order the players sat down), then each game's opening throw (white = the box
first, black = the captain), then the rolls.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from discord_e2e import (
    BOARD_WIDTH,
    Capture,
    Host,
    Script,
    button_users,
    pngs,
    private,
    turn_of,
    users,
)
from fake_discord import FakeDiscord, Message

pytestmark = pytest.mark.e2e


def assert_chouette_board(message: Message) -> None:
    """A public board message whose every board carries the chouette panel (the picture
    is wider than a two-player board) and the GNU Backgammon IDs in the footer."""
    assert not message.ephemeral and message.embeds, message
    images = pngs(message)
    assert len(images) == len(message.embeds)
    for embed, (name, image) in zip(message.embeds, zip(message.files, images, strict=True),
                                    strict=True):
        assert embed["image"]["url"] == f"attachment://{name}"
        assert image.width > BOARD_WIDTH and 300 < image.height < 1000
        assert re.fullmatch(r"Position ID: \S{14} · Match ID: \S{12}", embed["footer"]["text"])


def money_line(table: str, name: str) -> str:
    return next(line for line in table.splitlines() if f" {name} " in line)


async def test_a_chouette_game_from_open_to_the_leaderboard(fake: FakeDiscord, tmp_path: Path,
                                                            logs: Capture) -> None:
    alice, bob, carol = users(fake)
    dave = fake.user("dave")
    script = Script([6, 5, 4,   # seat throws: alice, bob, carol
                     1, 3,      # game 1 opening: box 1, captain 3
                     6, 5,      # the box's roll after the take
                     4, 2])     # game 2 opening: box 4, captain 2
    host = Host(fake, tmp_path, script)
    await host.start()
    try:
        synced = {c["name"]: c for c in fake.syncs[0][1]}
        subcommands = {o["name"]: o for o in synced["chouette"]["options"]}
        assert set(subcommands) == {"open", "join", "leave", "start", "suggest", "status"}
        opening = {o["name"]: o for o in subcommands["open"]["options"]}
        assert [c["value"] for c in opening["refusal"]["choices"]] == [
            "lose-to-captain", "forfeit-to-partners"]
        assert (opening["cap"]["min_value"], opening["cap"]["max_value"]) == (3, 8)
        assert {"jacoby", "automatic_doubles", "scoring"} <= set(opening)
        assert "beavers" not in opening

        # ------------------------------------------------------------ the table
        record = await fake.slash(alice, "chouette open", stake=5, refusal="lose-to-captain")
        opened = (await record.public()).content
        assert "alice opens a chouette of" in opened and "stake 5 a point" in opened
        assert "loses the game's value to the captain" in opened
        record = await fake.slash(alice, "chouette start")
        assert "needs 3 players; 1 at the table" in await private(record)
        record = await fake.slash(bob, "chouette join")
        assert "bob joins the chouette at the foot of the list (place 2). 1 more needed" in (
            (await record.public()).content)
        record = await fake.slash(carol, "chouette join")
        assert "The table can start" in (await record.public()).content
        record = await fake.slash(dave, "challenge", opponent=alice)
        assert "chouette table" in await private(record)

        record = await fake.slash(carol, "chouette start")
        board = await record.public()
        assert_chouette_board(board)
        assert "Seat throw: alice 6, bob 5, carol 4." in board.text
        assert ("Chouette game 1: alice in the box against captain bob and partners carol"
                in board.text)
        assert turn_of(board) == bob.id  # the captain won the opening throw (3-1)

        # ------------------------------------------------------- role refusals
        record = await fake.slash(carol, "move", moves="8/5 6/5")
        assert "only the captain rolls, moves and doubles" in await private(record)
        record = await fake.slash(alice, "move", moves="8/5 6/5")
        assert "not your turn" in await private(record)
        record = await fake.slash(dave, "move", moves="8/5 6/5")
        assert "not playing in this game" in await private(record)
        record = await fake.slash(bob, "chouette suggest", text="8/5 6/5")
        assert "You are the captain" in await private(record)
        record = await fake.slash(carol, "chouette leave")
        assert ("leaving now counts as dropping at its current value, 1 point. Leave again "
                "with confirm") in await private(record)

        record = await fake.slash(carol, "chouette suggest", text="8/5 6/5 makes the 5 point")
        suggested = await record.public()
        assert_chouette_board(suggested)
        assert ("Suggestions for the captain bob: carol: 8/5 6/5 makes the 5 point"
                in suggested.text)

        record = await fake.slash(bob, "move", moves="8/5 6/5")
        board = await record.public()
        assert "bob plays 8/5 6/5" in board.text and "Suggestions" not in board.text
        assert button_users(board, "Double") == [alice.id]
        record = await fake.click(carol, board, "Double")
        assert f"Only <@{alice.id}> can press Double" in await private(record)

        # ------------------------------ the box doubles; the partner answers for himself
        record = await fake.click(alice, board, "Double")
        offer = await record.public()
        assert "alice doubles to 2" in offer.text
        assert "Partners' answers: carol not yet (goes with the captain)." in offer.text
        assert f"<@{carol.id}>: answer the box's double for yourself" in offer.content
        assert sorted(offer.labels()) == ["Drop", "Take"]
        assert button_users(offer, "Take") == sorted([bob.id, carol.id])
        record = await fake.click(dave, offer, "Take")
        assert "can press Take here" in await private(record)

        record = await fake.click(carol, offer, "Drop")
        assert await record.acknowledged() == 7  # the pressed message loses its buttons
        assert offer.components == []
        answered = await record.public()
        assert "carol drops (a partner's own answer; the captain bob answers for the team)" in (
            answered.text)
        assert "Partners' answers: carol drops." in answered.text
        # carol has answered: only the captain is asked now (issue 19, item 7)
        assert button_users(answered, "Take") == [bob.id]
        assert f"<@{carol.id}>: answer the box's double" not in answered.content

        record = await fake.click(bob, answered, "Take")
        taken = await record.public()
        assert_chouette_board(taken)
        assert ("carol retires from this game, losing 1 point to bob, who carries the share"
                in taken.text)
        assert "bob takes: the cube is at 2" in taken.text
        assert "alice rolled 6-5" in taken.text and turn_of(taken) == alice.id
        record = await fake.slash(carol, "take")
        assert "You retired from this game" in await private(record)

        record = await fake.slash(alice, "move", moves="24/13")
        board = await record.public()
        assert button_users(board, "Double") == [bob.id]  # the team owns the cube
        record = await fake.click(bob, board, "Double")
        offer = await record.public()
        assert "bob doubles to 4" in offer.text
        assert button_users(offer, "Drop") == [alice.id]  # the box answers alone
        record = await fake.slash(carol, "drop")
        assert "retired from this game" in await private(record)

        # ------------------------------------------------- settlement and rotation
        record = await fake.click(alice, offer, "Drop")
        settled = await record.public()
        assert_chouette_board(settled)
        assert len(settled.embeds) == 2  # game 1's final board, then game 2's
        # The team wins the cube's 2 points: bob carries carol's share (2 x 2) and won
        # her 1 point when she dropped; stake 5 a point.
        assert ("Settlement of chouette game 1; stake 5 a point: alice (box) -4 (-20), "
                "bob (captain) +5 (+25), carol (retired) -1 (-5).") in settled.text
        # The team won: its captain takes the box, the partner captains, the box goes
        # to the foot of the list.
        assert ("Chouette game 2: bob in the box against captain carol and partners alice"
                in settled.text)
        assert turn_of(settled) == bob.id  # the box won game 2's opening throw (4-2)
        record = await fake.slash(alice, "move", moves="8/4 6/4")
        assert "carol is the captain" in await private(record)  # alice is a partner now

        record = await fake.slash(dave, "chouette status")
        status = await private(record)
        assert "Chouette (playing), 1 game played" in status
        assert "1. bob (box, threw 5) +25" in status
        assert "2. carol (captain, threw 4) -5" in status
        assert "3. alice (partner, threw 6) -20" in status
        assert "Game 2: box bob vs captain carol, cube 1" in status

        record = await fake.slash(dave, "leaderboard", order="money")
        table = (await record.public()).content
        assert table.startswith("```") and "Leaderboard by money" in table
        assert "balance +25" in money_line(table, "bob")
        assert "balance -20" in money_line(table, "alice")
        assert "balance -5" in money_line(table, "carol")
        ranked = re.findall(r"^\s*\d+\. (\w+)", table, re.M)
        assert ranked == ["bob", "carol", "alice"]

        # Leaving mid-game, confirmed: a partner's drop at the game's value (1 point).
        record = await fake.slash(alice, "chouette leave", confirm=True)
        left = await record.public()
        assert_chouette_board(left)
        assert "alice leaves the table." in left.text
        assert ("alice retires from this game, losing 1 point to carol, who carries the "
                "share") in left.text
        assert script.values == []  # every scripted die was thrown
    finally:
        await host.stop()


async def test_chouette_refusals_autocomplete_and_help(fake: FakeDiscord, tmp_path: Path,
                                                       logs: Capture) -> None:
    alice, bob, carol = users(fake)
    host = Host(fake, tmp_path, Script())
    await host.start()
    try:
        record = await fake.slash(alice, "chouette join")
        assert "no chouette in this channel" in await private(record)
        record = await fake.slash(alice, "chouette open", cap=4, box_partners=2)
        assert "Box partners must leave a box, a captain and a partner" in (
            await private(record))
        variants = await fake.autocomplete(alice, "chouette open", "variant", "russ")
        assert "russian" in variants and all("russ" in v for v in variants)
        record = await fake.slash(alice, "chouette open", variant="russian",
                                  refusal="forfeit-to-partners",
                                  captain_refusal="partner-takes-over", jacoby=True,
                                  automatic_doubles=True, scoring="checkers-2")
        opened = (await record.public()).content
        assert "forfeits the game's value to the partners still in" in opened
        assert "a partner who took becomes captain" in opened
        # The game's rule options, as in /challenge (beavers are not a chouette's).
        assert "Jacoby rule (money play): on" in opened
        assert "automatic doubles on opening ties: on" in opened
        assert "scoring: by checkers (1/2/4/8 points a checker by table, bar 8)" in opened
        record = await fake.slash(bob, "chouette open")
        assert "already has a chouette" in await private(record)
        record = await fake.slash(bob, "chouette suggest", text="double")
        assert "No chouette game is in progress" in await private(record)
        record = await fake.slash(bob, "chouette leave")
        assert "not at this chouette table" in await private(record)
        record = await fake.slash(alice, "chouette leave")
        assert "The table is empty and closes" in (await record.public()).content

        record = await fake.slash(carol, "help")
        text = await private(record)
        assert ("`/chouette open|join|leave|start|suggest|status` Chouette: one player in "
                "the box against a team") in text
        assert "`/challenge`" in text and "`/leaderboard`" in text
        assert text.endswith("then `/chouette start`.")  # whole: not clipped at 2000
        assert len(text) > 2000  # (every command is listed: more than a message holds)
    finally:
        await host.stop()

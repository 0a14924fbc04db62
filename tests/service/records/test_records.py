"""What players see of their games' records (issue 19 items 4, 6, 11, 14; issue 22 item 4;
issue 15 wiring): one game numbering per channel for /verify and /export, the
chouette table's past games, /history, /rules with the options in force, the
variant-only rule options typed as words, the chouette's split advice."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from scripted import Script, opened

from bot.config import Config
from bot.service.analysis.chances import chances_text
from bot.service.core.replies import Reply
from bot.service.core.values import Actor, Place
from bot.service.game import GameService
from bot.service.rules.terms import pairs_for, parse_rule_words, suggest_rule_words

ALICE = Actor(1, "alice")
BOB = Actor(2, "bob")
CAROL = Actor(3, "carol")
DAVE = Actor(4, "dave")
ERIN = Actor(5, "erin")
FRANK = Actor(6, "frank")
HERE = Place(guild_id=7, channel_id=70)
THERE = Place(guild_id=7, channel_id=71)


def ok(reply: Reply) -> Reply:
    assert reply.ok, reply.text
    return reply


def seeds() -> Any:
    n = iter(range(100))
    return lambda: f"{next(n):02x}" * 32


async def seeded(tmp_path: Path) -> GameService:
    """A service with real seeded dice (so /verify passes) and known seeds 00.., 01..."""
    storage = await opened(tmp_path / "bg.sqlite3")
    return GameService(storage, Config(), dice_seed=seeds())


async def scripted(tmp_path: Path, dice: Iterable[int]) -> GameService:
    storage = await opened(tmp_path / "bg.sqlite3")
    return GameService(storage, Config(), dice=Script(dice))  # type: ignore[arg-type]


async def resign_game(service: GameService, place: Place, loser: Actor, winner: Actor) -> Reply:
    ok(await service.resign(place, loser, "single"))
    return ok(await service.answer_resignation(place, winner, True))


# -- item 6: one numbering a player can use, scoped to the channel --------------------


async def test_verify_numbers_are_the_channel_s_own(tmp_path: Path) -> None:
    """Issue 19 item 6: "Dice seed of game 1 … /verify 4" and /verify 1 verifying another
    channel's game 1.  Now the end-of-game line and /verify use one number, the
    channel's, and /verify N in a channel never reaches another channel's game."""
    service = await seeded(tmp_path)
    # There: a money session whose first game takes the global row id 1 (seed 00...).
    ok(await service.challenge(THERE, CAROL, DAVE, stake=1))
    ok(await service.accept(THERE, DAVE))
    await resign_game(service, THERE, CAROL, DAVE)
    # Here: a 3-point match; its game 1 is row 3 (row 2 is the next game over there).
    ok(await service.challenge(HERE, ALICE, BOB, length=3))
    ok(await service.accept(HERE, BOB))
    ended = await resign_game(service, HERE, ALICE, BOB)
    async with service.storage.snapshot() as tx:
        match = await tx.open_match_in_channel(HERE.channel_id)
        assert match is not None
        games = await tx.games_of_match(match.id)
    first = games[0]
    assert first.number == 1 and first.id != 1  # its global id is not 1
    line = next(ln for ln in ended.text.splitlines() if ln.startswith("Dice seed of game"))
    assert re.search(r"Dice seed of game 1: .* /verify 1 checks every roll", line), line
    assert first.seed in line
    check = ok(await service.verify(HERE, CAROL, 1))
    assert check.text.startswith("Game 1: all") and first.seed in check.text
    assert "dice match the seed" in check.text
    assert ok(await service.verify(HERE, CAROL)).text == check.text  # the last finished
    running = ok(await service.verify(HERE, CAROL, 2))
    assert "Game 2 is still being played" in running.text and games[1].seed not in running.text
    # The old global id of this channel's game is not a number here any more.
    refused = await service.verify(HERE, CAROL, first.id)
    assert not refused.ok and refused.ephemeral
    assert f"no game {first.id} in this channel's match" in refused.text
    assert "games 1 to 2" in refused.text
    refused = await service.verify(HERE, CAROL, 0)
    assert not refused.ok and "numbered from 1" in refused.text
    nothing = await service.verify(Place(7, 99), CAROL)
    assert not nothing.ok and "No game has been played in this channel" in nothing.text


async def test_a_chouette_table_s_past_games_are_reachable(tmp_path: Path) -> None:
    """Issue 19 item 6: in a chouette channel /verify and /export reached only the
    unfinished current game.  Each table game has its own match row; the numbers are
    the table's ("Chouette game 2")."""
    service = await seeded(tmp_path)
    table = service.chouette
    ok(await table.open(HERE, ALICE))
    ok(await table.join(HERE, BOB))
    ok(await table.join(HERE, CAROL))
    ok(await table.start(HERE, ALICE))
    seeds_seen: list[str] = []
    for number in (1, 2):
        async with service.storage.snapshot() as tx:
            row = await tx.open_match_in_channel(HERE.channel_id)
            assert row is not None
            box = next(p for p in (ALICE, BOB, CAROL) if p.id == row.white_id)
            captain = next(p for p in (ALICE, BOB, CAROL) if p.id == row.black_id)
            (game,) = await tx.games_of_match(row.id)
        seeds_seen.append(game.seed)
        ended = await resign_game(service, HERE, captain, box)
        assert f"Dice seed of game {number}: {game.seed}" in ended.text
        assert f"/verify {number} checks every roll" in ended.text
    for number, seed in enumerate(seeds_seen, start=1):
        check = ok(await service.verify(HERE, DAVE, number))
        assert check.text.startswith(f"Game {number}: all") and seed in check.text
    assert "Game 3 is still being played" in ok(await service.verify(HERE, DAVE, 3)).text
    refused = await service.verify(HERE, DAVE, 4)
    assert not refused.ok and "no game 4 at this chouette table" in refused.text
    assert "games 1 to 3" in refused.text
    first = ok(await service.export(HERE, DAVE, "mat", 1))
    assert first.attachment is not None
    name, data = first.attachment
    assert name == "bgbot-chouette-game-1.mat" and b"Game 1" in data
    latest = ok(await service.export(HERE, DAVE, "sgf"))
    assert latest.attachment is not None and latest.attachment[0] == \
        "bgbot-chouette-game-3.sgf"
    assert latest.match_id != first.match_id
    history = ok(await service.history(HERE, DAVE, 1))
    assert history.text.startswith("Game 1:") and "offers to resign" in history.text


async def test_export_takes_a_format(tmp_path: Path) -> None:
    """Issue 22 item 4: /export format:sgf gives GNU Backgammon's .sgf (its rules in the
    RU property); mat stays the default; an unknown format is refused."""
    service = await scripted(tmp_path, [3, 1, 5, 2])
    ok(await service.challenge(HERE, ALICE, BOB, length=3))
    ok(await service.accept(HERE, BOB))
    ok(await service.move(HERE, ALICE, "8/5 6/5"))
    mat = ok(await service.export(HERE, CAROL))
    assert mat.attachment is not None and mat.attachment[0].endswith(".mat")
    sgf = ok(await service.export(HERE, CAROL, "sgf"))
    assert sgf.attachment is not None
    name, data = sgf.attachment
    assert name.endswith(".sgf") and data.startswith(b"(;FF[4]GM[6]")
    assert b"RU[" in data and "File > Open" in sgf.text
    refused = await service.export(HERE, CAROL, "pdf")
    assert not refused.ok and "mat or sgf" in refused.text
    # A game number in a match: the match's file, saying so (it was refused before);
    # a number that is not one of its games is refused with the games it has.
    one = ok(await service.export(HERE, CAROL, "mat", 1))
    assert one.attachment == mat.attachment
    assert one.text.startswith("The match (game 1 is in it: the file holds the whole match)")
    refused = await service.export(HERE, CAROL, "mat", 2)
    assert not refused.ok and refused.ephemeral
    assert "There is no game 2 in this channel's match: it has game 1." in refused.text


# -- item 11: /history ------------------------------------------------------------------


async def test_history_lists_the_moves_dice_and_cube_of_the_match(tmp_path: Path) -> None:
    """Issue 19 item 11: the moves so far, in canonical notation, with the dice and the
    cube actions, and the earlier games of the match."""
    # Opening 3-1 to alice; bob rolls 5-2; alice doubles, bob takes; alice rolls 6-4;
    # game 2 opens 5-2.
    service = await scripted(tmp_path, [3, 1, 5, 2, 6, 4, 5, 2])
    ok(await service.challenge(HERE, ALICE, BOB, length=5))
    ok(await service.accept(HERE, BOB))
    ok(await service.move(HERE, ALICE, "6/5 8/5"))  # written out of order
    ok(await service.roll(HERE, BOB))
    ok(await service.move(HERE, BOB, "13/11 13/8"))
    ok(await service.double(HERE, ALICE))
    ok(await service.take(HERE, BOB))  # alice cannot double now: her roll is automatic
    text = ok(await service.history(HERE, CAROL)).text
    lines = text.splitlines()
    assert lines[0] == ("Game 1: alice (white) against bob (black), 5-point match, score "
                        "alice 0, bob 0:")
    assert "  opening throw: alice 3, bob 1" in lines
    assert "  alice 31: 8/5 6/5" in lines  # the canonical form, not as typed
    bob = next(line for line in lines if line.startswith("  bob 52: "))
    assert sorted(bob.split(": ")[1].split()) == ["13/11", "13/8"]
    assert "  alice doubles to 2" in lines and "  bob takes (cube 2)" in lines
    assert lines.index("  alice doubles to 2") < lines.index("  bob takes (cube 2)")
    assert "  alice 64" in lines  # rolled, not yet played
    assert lines[-1] == "  (in progress: alice to act)"
    # The game ends; game 2 begins; /history shows both, /history 1 only the first.
    await resign_game(service, HERE, BOB, ALICE)
    both = ok(await service.history(HERE, CAROL)).text
    assert "Game 1:" in both and "Game 2:" in both
    assert "alice wins a single (2 points, resignation)" in both
    assert "score alice 2, bob 0" in both
    one = ok(await service.history(HERE, CAROL, 1)).text
    assert "Game 2" not in one and one.startswith("Game 1:")
    refused = await service.history(HERE, CAROL, 9)
    assert not refused.ok and "no game 9" in refused.text
    nothing = await service.history(Place(7, 99), CAROL)
    assert not nothing.ok and "No game has been played" in nothing.text


async def test_a_long_history_comes_as_a_text_file(tmp_path: Path) -> None:
    """Issue 19 item 11: a history too long for one Discord message is attached."""
    storage = await opened(tmp_path / "bg.sqlite3")
    service = GameService(storage, Config(), dice=Script(then="0123456789abcdef"))
    ok(await service.challenge(HERE, ALICE, BOB, stake=1))
    ok(await service.accept(HERE, BOB))
    for _ in range(160):  # some eighty plays: far more than 1,800 characters
        board = ok(await service.board(HERE, CAROL))
        view = board.boards[-1].view
        player = ALICE if view.turn is not None and view.players[view.turn].name == "alice" \
            else BOB
        if any(b.action.value == "roll" for b in board.buttons):
            ok(await service.roll(HERE, player))
            continue
        plays = await service.suggestions(HERE, player, "")
        if plays:
            ok(await service.move(HERE, player, plays[0]))
    reply = ok(await service.history(HERE, CAROL))
    assert reply.attachment is not None
    name, data = reply.attachment
    assert name.endswith(".txt") and "attached file" in reply.text
    text = data.decode()
    assert text.startswith("Game 1: alice (white) against bob (black)") and len(text) > 1800


# -- item 4: /rules shows the options in force -------------------------------------------


async def test_rules_show_the_game_s_own_options_and_only_those_that_apply(
        tmp_path: Path) -> None:
    """Issue 19 item 4: /rules showed the server defaults, not the game's options; a
    Crawford line for money play; rule-book file names."""
    service = await scripted(tmp_path, [3, 1])
    defaults = ok(await service.rules(place=HERE)).text
    assert "no game in this channel: the server's defaults" in defaults
    assert "Crawford rule (matches)" in defaults and "Jacoby rule (money play)" in defaults
    ok(await service.challenge(HERE, ALICE, BOB, stake=2,
                               rules={"beavers": "on", "higher_die": "free"}))
    money = ok(await service.rules(place=HERE)).text
    assert "money play at 2 a point challenged here" in money
    assert "beavers: on" in money and "play either (Boyden 1930, ch.3 V)" in money
    assert "Crawford" not in money  # money play has no Crawford rule
    ok(await service.accept(HERE, BOB))
    assert "the rules of the money play at 2 a point in this channel" in \
        ok(await service.rules(place=HERE)).text
    ok(await service.challenge(THERE, ALICE, BOB, length=5, rules={"crawford": "off"}))
    match = ok(await service.rules(place=THERE)).text
    assert "Crawford rule (matches): off" in match
    assert "Jacoby" not in match and "beavers" not in match  # money-play-only options
    for text in (defaults, money, match):
        assert not re.search(r"\b00[0-4]\b|\.txt", text), text  # no file names
    assert "Rule books: the modern rules" in match


async def test_rules_of_a_variant_do_not_contradict_themselves(tmp_path: Path) -> None:
    """Issue 19 item 4: 1930 said "gammons are not scored" beside "gammon 2, backgammon
    3"; every variant said "one die each" for an opening of two dice each."""
    service = await scripted(tmp_path, [])
    navy = ok(await service.rules("acey-deucey-1930")).text
    assert "gammons and backgammons are not scored" in navy
    assert "gammon 2" not in navy and "backgammon 3" not in navy
    assert "every game a single game" in navy
    # 003 ch.12: "Each player throws two dice. High wins and re-throws for his first play."
    assert "opening throw: two dice each; the higher total throws again" in navy
    assert "one die each" not in navy
    assert "Rule books: Boyden 1930, ch.12 Acey-Deucey" in navy
    # 000 'THE GAME OF ACEY-DEUCY': two dice each, play that throw or throw again; the
    # 1973 variant's own options (kicked_off, gammons), not Russian's.
    acey = ok(await service.rules("acey-deucey")).text
    assert "two dice each; the higher total plays that throw or throws again" in acey
    assert "a kicked-off man: re-enters before any other man moves" in acey
    assert "entering" not in acey.split("Options:")[1]
    assert "Milton Bradley 1973" in acey
    russian = ok(await service.rules("russian")).text
    assert "entering: no man moves" in russian and "kicked-off" not in russian


async def test_rules_of_a_variant_game_show_its_variant_options(tmp_path: Path) -> None:
    """Issue 15: a game's variant-only options reach /rules through the variant."""
    service = await scripted(tmp_path, [3, 1])
    ok(await service.challenge(HERE, ALICE, BOB, length=3, variant="acey-deucey",
                               rules=parse_rule_words("kicked_off=reserve "
                                                      "acey_deucey_gammons=off")))
    text = ok(await service.rules(place=HERE)).text
    assert "a kicked-off man: rejoins the men not yet entered" in text
    assert "gammons: not counted: every game is a single game" in text
    assert "scoring: by games, every game a single game" in text
    refused = await service.challenge(THERE, ALICE, BOB, rules=parse_rule_words("kicked_off"))
    assert not refused.ok and "kicked_off" in refused.text and "reserve" in refused.text


def test_variant_rule_words_and_their_completions() -> None:
    assert parse_rule_words("kicked_off=reserve, russian_entering=enter-then-move") == {
        "kicked_off": "reserve", "russian_entering": "enter-then-move"}
    assert pairs_for("russian") == ["russian_entering=last-man",
                                    "russian_entering=enter-then-move"]
    assert pairs_for("standard") == []
    assert suggest_rule_words("kicked-off=r", "acey-deucey") == ["kicked_off=reserve"]
    assert suggest_rule_words("kicked_off=reserve ", "acey-deucey") == [
        "kicked_off=reserve acey_deucey_gammons=on",
        "kicked_off=reserve acey_deucey_gammons=off"]
    # A variant without such options: every pair is offered (the variant may change).
    assert len(suggest_rule_words("", "standard")) == 6


# -- issue 15 item 15: the chouette's split advice --------------------------------------


async def test_a_sixth_player_hears_the_book_s_advice_to_split(tmp_path: Path) -> None:
    """003 ch.5 (Boyden 1930, 'Chouette'): "if there are more than five it is wise to break
    up into two groups"."""
    service = await scripted(tmp_path, [])
    table = service.chouette
    ok(await table.open(HERE, ALICE))
    for player in (BOB, CAROL, DAVE, ERIN):
        assert "splitting" not in ok(await table.join(HERE, player)).text
    sixth = ok(await table.join(HERE, FRANK))
    assert "advises splitting a chouette of more than five players" in sixth.text


# -- item 14: hints show the opponent's gammons too ---------------------------------------


def test_hint_chances_show_the_opponent_s_gammons_and_backgammons() -> None:
    from bot.ai.sage import Chances

    text = chances_text(Chances(0.541, 0.152, 0.008, 0.103, 0.005))
    assert text == ("win 54.1% (gammon 15.2%, backgammon 0.8%); opponent's gammon 10.3%, "
                    "backgammon 0.5%")



async def test_a_hint_shows_the_opponent_s_gammon_chances(tmp_path: Path) -> None:
    """Issue 19 item 14: a hint showed only the player's own gammons."""
    from bot.ai.runner import AIRunner

    storage = await opened(tmp_path / "bg.sqlite3")
    runner = AIRunner(processes=False, time_limit=20.0)
    await runner.start()
    try:
        service = GameService(storage, Config(), dice=Script([3, 1]), ai=runner)  # type: ignore[arg-type]
        ok(await service.challenge(HERE, ALICE, BOB, length=3, hints=True))
        ok(await service.accept(HERE, BOB))
        hint = ok(await service.hint(HERE, ALICE))  # alice plays the opening 3-1
        first = next(line for line in hint.text.splitlines() if line.startswith("1. "))
        assert "8/5 6/5" in first
        assert re.search(r"win \d+\.\d% \(gammon \d+\.\d%, backgammon \d+\.\d%\); "
                         r"opponent's gammon \d+\.\d%, backgammon \d+\.\d%", first), first
    finally:
        runner.close()

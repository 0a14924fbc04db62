"""What players meet at the table (issue 19): the draft drawn, the stage's dice named,
the small texts, taking back a play, ending a session, rematch.

Dice are scripted, so every game here is reproducible.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from scripted import Script, opened

from bot.config import Config, GameConfig
from bot.service.core.replies import Action, plain
from bot.service.core.values import Actor, Place
from bot.service.game import GameService
from engine.gnubgid import encode_position_id
from engine.player import Player

ALICE = Actor(1, "alice")
BOB = Actor(2, "bob")
HERE = Place(guild_id=7, channel_id=70)
START_ID = "4HPwATDgc/ABMA"


async def make(tmp_path: Path, dice: Iterable[int] = (), config: Config | None = None,
               **kw: object) -> GameService:
    storage = await opened(tmp_path / "bg.sqlite3")
    return GameService(storage, config or Config(), dice=Script(dice), **kw)  # type: ignore[arg-type]


async def start(service: GameService, **terms: object) -> None:
    reply = await service.challenge(HERE, ALICE, BOB, **terms)  # type: ignore[arg-type]
    assert reply.ok, reply.text
    reply = await service.accept(HERE, BOB)
    assert reply.ok, reply.text


def turn_lines(reply: object) -> list[str]:
    return [plain(n) for n in reply.notify]  # type: ignore[attr-defined]


# -- item 2: the draft is drawn ------------------------------------------------------------


async def test_a_partly_entered_play_is_drawn_with_its_die_greyed(tmp_path: Path) -> None:
    # Alice opens with 3-2 (white, 002 'MOVEMENT OF PIECES'); 13/10 enters half the play.
    service = await make(tmp_path, [3, 2])
    await start(service, length=3)
    reply = await service.move(HERE, ALICE, "13/10")
    assert reply.ok, reply.text
    shown = reply.boards[-1]
    white = shown.view.position.sides[Player.WHITE]
    assert white[13] == 4 and white[10] == 1  # the checker is drawn on 10, not on 13
    assert shown.view.dice == (3, 2) and shown.view.dice_used == (True, False)
    assert shown.position_id == encode_position_id(shown.view.position, Player.WHITE)
    assert shown.position_id != START_ID
    assert shown.view.pips(Player.WHITE) == 167 - 3
    look = await service.board(HERE, BOB)  # what anyone sees: the same draft
    assert look.boards[-1].position_id == shown.position_id
    undo = await service.undo(HERE, ALICE)
    assert undo.boards[-1].position_id == START_ID
    assert not any(undo.boards[-1].view.dice_used)


async def test_a_hit_in_a_partial_play_puts_the_checker_on_the_bar(tmp_path: Path) -> None:
    # Bob opens 6-3 with 24/15 (a blot on alice's 10); alice rolls 2-3 and enters 13/10*.
    service = await make(tmp_path, [3, 6, 2, 3])
    await start(service, length=3)
    assert (await service.move(HERE, BOB, "24/15")).ok
    assert (await service.roll(HERE, ALICE)).ok
    reply = await service.move(HERE, ALICE, "13/10*")
    assert reply.ok, reply.text
    view = reply.boards[-1].view
    assert view.position.sides[Player.BLACK][25] == 1  # bob's checker is on the bar
    assert view.position.sides[Player.WHITE][10] == 1
    assert view.dice_used == (False, True)  # the 3 is played, the 2 is left
    assert "has played 13/10* so far" in reply.text and " entered " not in reply.text


async def test_a_play_awaiting_confirm_is_drawn(tmp_path: Path) -> None:
    config = Config(game=GameConfig(auto_confirm=False))
    service = await make(tmp_path, [3, 1], config)
    await start(service, length=3)
    reply = await service.move(HERE, ALICE, "8/5 6/5")
    assert reply.ok and "Confirm" in reply.text
    shown = reply.boards[-1]
    assert shown.view.position.sides[Player.WHITE][5] == 2
    assert shown.view.dice_used == (True, True)
    assert shown.view.last_play is not None and shown.view.last_play.player is Player.WHITE
    assert shown.position_id != START_ID
    assert any(b.action is Action.CONFIRM for b in reply.buttons)


# -- item 3: the variants' second stage ----------------------------------------------------


async def test_acey_deucey_1930_names_the_reverse_side_owed(tmp_path: Path) -> None:
    # 003 ch.12 (Acey-Deucey): "doublets ... play both sides" -- after four 3s, four 4s.
    service = await make(tmp_path, [6, 5, 1, 2, 3, 3])
    await start(service, variant="acey-deucey-1930")
    reply = await service.move(HERE, ALICE, "in/22(4)")
    assert reply.ok, reply.text
    assert turn_lines(reply) == ["@alice to play 4-4 (the reverse side, four 4s, owed after "
                                 "the 3-3)."]
    assert reply.boards[-1].view.dice == (4, 4)  # the picture shows the dice being played
    wrong = await service.move(HERE, ALICE, "in/22(4)")
    assert not wrong.ok and "Now you play 4-4 (the reverse side" in wrong.text
    assert "/move in/21(4)" in wrong.text
    roll = await service.roll(HERE, ALICE)
    assert not roll.ok and "play 4-4 (the reverse side" in roll.text


async def test_acey_deucey_1930_names_the_chosen_doublet(tmp_path: Path) -> None:
    # 003 ch.12: after the 1 and 2 of acey-deucy, the doublet of the player's choice.
    service = await make(tmp_path, [6, 5, 1, 2, 1, 2])
    await start(service, variant="acey-deucey-1930")
    reply = await service.move(HERE, ALICE, "in/24 in/23")
    assert reply.ok, reply.text
    chose = await service.choose(HERE, ALICE, "6")
    assert chose.ok, chose.text
    assert turn_lines(chose) == ["@alice to play 6-6 (four 6s, owed after the 1-2)."]
    assert chose.boards[-1].view.dice == (6, 6)
    wrong = await service.move(HERE, ALICE, "in/24")
    assert not wrong.ok and "Now you play 6-6 (four 6s" in wrong.text


# -- item 7: the smaller texts ------------------------------------------------------------


async def test_the_pips_refusal_when_nothing_was_played(tmp_path: Path) -> None:
    service = await make(tmp_path, [2, 1])
    await start(service, length=3)
    reply = await service.move(HERE, ALICE, "13/7 8/7")
    assert not reply.ok and reply.text == "13/7 is 6 pips but you rolled 2-1."


async def test_the_ascii_board_shows_the_cube_of_an_automatic_double(tmp_path: Path) -> None:
    # 004 'AUTOMATIC DOUBLES': a tie on the opening throw doubles the stake.
    from render.ascii import text_board

    service = await make(tmp_path, [3, 3, 3, 1])
    await start(service, stake=1, rules={"automatic_doubles": "on"})
    board = await service.board(HERE, ALICE)
    assert board.ok, board.text
    text = text_board(board.boards[-1].view)
    assert "Cube: 2 (centred)" in text and "Cube: 1" not in text


async def test_a_leaderboard_page_past_the_end_is_refused(tmp_path: Path) -> None:
    service = await make(tmp_path, [3, 1])
    await start(service, length=1)
    assert (await service.resign(HERE, BOB, "single")).ok
    assert (await service.answer_resignation(HERE, ALICE, True)).ok
    page = await service.leaderboard(HERE, ALICE, "rating", 2)
    assert not page.ok and page.ephemeral
    assert page.text == "The rating leaderboard has only 1 page: ask for page 1."
    assert "page 1/1" in (await service.leaderboard(HERE, ALICE, "rating", 1)).text


async def test_the_ai_is_not_on_the_rating_leaderboard(tmp_path: Path) -> None:
    service = await make(tmp_path, [3, 1])
    async with service.storage.transaction() as tx:
        await tx.upsert_user(ALICE.id, ALICE.name)
        await tx.upsert_user(99, "gnubot", True)
        from bot.storage.interface import MatchStatus

        await tx.insert_match(guild_id=HERE.guild_id, channel_id=HERE.channel_id,
                              white_id=ALICE.id, black_id=99, variant="standard", rules={},
                              length=1, stake=0, rated=False, status=MatchStatus.FINISHED)
    # alice has finished a rated match too: only such players are ranked by rating (issue
    # 42 item 17).
    await start(service, length=1)
    assert (await service.resign(HERE, BOB, "single")).ok
    assert (await service.answer_resignation(HERE, ALICE, True)).ok
    rating = await service.leaderboard(HERE, ALICE, "rating")
    assert rating.ok and "alice" in rating.text and "gnubot" not in rating.text
    wins = await service.leaderboard(HERE, ALICE, "wins")
    assert "gnubot" in wins.text  # the other lists still show every player


# -- item 9: ending a money session; /forfeit asks first ---------------------------------


async def finish_first_game(service: GameService) -> object:
    """Alice plays 3-1, bob resigns a single game: game 2 begins (opening 3-1 again)."""
    assert (await service.move(HERE, ALICE, "8/5 6/5")).ok
    assert (await service.resign(HERE, BOB, "single")).ok
    return await service.answer_resignation(HERE, ALICE, True)


async def test_forfeit_asks_for_confirmation_and_changes_nothing(tmp_path: Path) -> None:
    service = await make(tmp_path, [3, 1])
    await start(service, length=3)
    before = await service.board(HERE, ALICE)
    asked = await service.act(Action.FORFEIT, HERE, BOB)
    assert not asked.ok and asked.ephemeral
    assert asked.text == ("Forfeiting is final: you lose this game (1 point) and the match: "
                          "alice wins it. To give up only this game, /resign. To do it, "
                          "/forfeit confirm.")
    after = await service.board(HERE, ALICE)
    assert after.version == before.version  # nothing changed
    done = await service.act(Action.FORFEIT, HERE, BOB, option="confirm")
    assert done.ok and "alice wins the match by forfeit" in done.text


async def test_stop_ends_a_money_session_between_games(tmp_path: Path) -> None:
    service = await make(tmp_path, [3, 1, 3, 1])
    await start(service, stake=5)
    assert all(b.action is not Action.STOP for b in (await service.board(HERE, BOB)).buttons)
    ended = await finish_first_game(service)
    assert ended.ok and "Game 2 begins" in ended.text  # type: ignore[attr-defined]
    stop = [b for b in ended.buttons if b.action is Action.STOP]  # type: ignore[attr-defined]
    assert stop and set(stop[0].users) == {ALICE.id, BOB.id} and stop[0].label == "End session"
    reply = await service.stop(HERE, BOB)
    assert reply.ok, reply.text
    assert "bob ends the money session." in reply.text
    assert "Session after 1 game(s): alice +1, bob -1 points (+5 / -5 at 5 a point)." in (
        reply.text)
    assert [b.action for b in reply.buttons] == [Action.REMATCH]
    gone = await service.roll(HERE, ALICE)
    assert not gone.ok and "no game in this channel" in gone.text


async def test_stop_is_refused_during_a_game_and_in_a_match(tmp_path: Path) -> None:
    service = await make(tmp_path, [3, 1, 3, 1])
    await start(service, stake=1)
    assert (await service.move(HERE, ALICE, "8/5 6/5")).ok
    during = await service.stop(HERE, BOB)
    assert not during.ok and "A game is under way" in during.text
    assert all(b.action is not Action.STOP for b in (await service.board(HERE, BOB)).buttons)
    match = await make(tmp_path / "m", [3, 1])
    reply = await match.challenge(Place(7, 71), ALICE, BOB, length=3)
    assert reply.ok
    assert (await match.accept(Place(7, 71), BOB)).ok
    refused = await match.stop(Place(7, 71), ALICE)
    assert not refused.ok and "/stop is for money sessions" in refused.text


async def test_stop_before_anything_is_played_owes_nothing(tmp_path: Path) -> None:
    service = await make(tmp_path, [3, 1])
    await start(service, stake=5)
    reply = await service.stop(HERE, ALICE)
    assert reply.ok and "No game was played: nobody owes anything." in reply.text


# -- item 10: /rematch ---------------------------------------------------------------------


async def test_rematch_challenges_again_with_the_same_terms(tmp_path: Path) -> None:
    service = await make(tmp_path, [3, 1, 3, 1])
    await start(service, length=1, variant="standard", rules={"jacoby": "off"})
    assert (await service.move(HERE, ALICE, "8/5 6/5")).ok
    assert (await service.resign(HERE, BOB, "single")).ok
    won = await service.answer_resignation(HERE, ALICE, True)
    assert won.ok and "wins the 1-point match" in won.text
    button = next(b for b in won.buttons if b.action is Action.REMATCH)
    assert set(button.users) == {ALICE.id, BOB.id}
    stranger = await service.rematch(HERE, Actor(3, "carol"))
    assert not stranger.ok and "Only the two players" in stranger.text
    from bot.service.core.values import Expect

    again = await service.act(Action.REMATCH, HERE, BOB,
                              expect=Expect(won.version or 0, won.match_id))
    assert again.ok, again.text
    assert again.text.startswith("bob challenges alice to a 1-point match of Backgammon")
    assert [b.action for b in again.buttons] == [Action.ACCEPT, Action.DECLINE]
    async with service.storage.transaction() as tx:
        row = await tx.open_match_in_channel(HERE.channel_id)
    assert row is not None and (row.white_id, row.black_id, row.length) == (2, 1, 1)
    assert row.rules["jacoby"] is False and row.rated
    twice = await service.rematch(HERE, ALICE)
    # Issue 30 item 12: it said "not over yet"; the rematch waits for alice's answer.
    assert not twice.ok and "bob's challenge to you is waiting here" in twice.text


async def test_rematch_before_any_match_is_refused(tmp_path: Path) -> None:
    service = await make(tmp_path)
    reply = await service.rematch(HERE, ALICE)
    assert not reply.ok and "No match has been played in this channel" in reply.text


# -- item 5: one orientation per game, the IDs on the picture ----------------------------


async def test_the_board_keeps_one_orientation_all_game(tmp_path: Path) -> None:
    service = await make(tmp_path, [3, 1, 4, 2])
    await start(service, stake=1)
    first = await service.move(HERE, ALICE, "8/5 6/5")
    assert (await service.roll(HERE, BOB)).ok
    second = await service.move(HERE, BOB, "8/4 6/4")
    views = [r.boards[-1].view for r in (first, second)]
    assert [v.turn for v in views] == [Player.BLACK, Player.WHITE]
    assert [v.bottom for v in views] == [Player.WHITE, Player.WHITE]  # the challenger's


async def test_the_on_roll_orientation_is_a_config_option(tmp_path: Path) -> None:
    from bot.config import RenderConfig

    config = Config(render=RenderConfig(orientation="on-roll"))
    service = await make(tmp_path, [3, 1], config)
    await start(service, stake=1)
    reply = await service.move(HERE, ALICE, "8/5 6/5")
    assert reply.boards[-1].view.bottom is Player.BLACK  # bob is on roll: he is at the bottom


async def test_the_ids_are_printed_on_the_picture_and_the_last_play_says_whose_numbers(
        tmp_path: Path) -> None:
    from render.ascii import text_board

    service = await make(tmp_path, [3, 1, 4, 2])
    await start(service, stake=1)
    assert (await service.move(HERE, ALICE, "8/5 6/5")).ok
    assert (await service.roll(HERE, BOB)).ok
    reply = await service.move(HERE, BOB, "8/4 6/4")
    shown = reply.boards[-1]
    assert shown.view.ids == f"Position ID {shown.position_id}  Match ID {shown.match_id}"
    text = text_board(shown.view)
    assert "Last play: bob 8/4 6/4 (in bob's point numbers, from the top of this board)" in text


# -- item 8: take back a finished play until the opponent acts -------------------------


async def stored_kinds(service: GameService) -> list[tuple[str, object]]:
    async with service.storage.transaction() as tx:
        row = await tx.open_match_in_channel(HERE.channel_id)
        assert row is not None
        games = await tx.games_of_match(row.id)
        return [(e.kind, e.data.get("moves")) for e in await tx.events(games[-1].id)]


async def test_a_play_is_taken_back_and_only_the_final_play_is_recorded(
        tmp_path: Path) -> None:
    service = await make(tmp_path, [3, 1, 6, 5])
    await start(service, stake=1)
    played = await service.move(HERE, ALICE, "13/10 24/23")  # a typo for 8/5 6/5
    assert played.ok and "alice plays 24/23 13/10" in played.text
    take_back = [b for b in played.buttons if b.label == "Take back"]
    assert take_back and take_back[0].action is Action.UNDO and take_back[0].users == (
        ALICE.id,)
    assert [k for k, _ in await stored_kinds(service)] == ["opening"]  # not final yet
    undone = await service.undo(HERE, ALICE)
    assert undone.ok and "alice takes back the play" in undone.text
    assert turn_lines(undone) == ["@alice to play 3-1."]
    assert undone.boards[-1].position_id == START_ID
    assert (await service.move(HERE, ALICE, "8/5 6/5")).ok
    rolled = await service.roll(HERE, BOB)  # bob acts: alice's play is final
    assert rolled.ok and "bob rolled 6-5" in rolled.text
    assert all(b.label != "Take back" for b in rolled.buttons)
    late = await service.undo(HERE, ALICE)
    assert not late.ok and "not your turn" in late.text
    kinds = await stored_kinds(service)
    assert [k for k, _ in kinds] == ["opening", "play", "roll"]
    assert kinds[1][1] == [[8, 5, False], [6, 5, False]]  # only the final play


async def test_a_double_ends_the_chance_and_a_restart_keeps_it(tmp_path: Path) -> None:
    service = await make(tmp_path, [3, 1])
    await start(service, stake=1)
    assert (await service.move(HERE, ALICE, "8/5 6/5")).ok
    # A new process on the same database (no cache): the play may still be taken back.
    again = GameService(service.storage, Config(), dice=Script([]))
    board = await again.board(HERE, BOB)
    assert any(b.label == "Take back" for b in board.buttons)
    assert board.boards[-1].view.position.sides[Player.WHITE][5] == 2
    doubled = await again.double(HERE, BOB)
    assert doubled.ok
    refused = await again.undo(HERE, ALICE)
    assert not refused.ok and "Nothing to undo" in refused.text  # she must answer now
    assert [k for k, _ in await stored_kinds(again)] == ["opening", "play", "double"]


async def test_nothing_to_take_back_for_the_opponent(tmp_path: Path) -> None:
    service = await make(tmp_path, [3, 1])
    await start(service, stake=1)
    assert (await service.move(HERE, ALICE, "8/5 6/5")).ok
    refused = await service.undo(HERE, BOB)
    assert not refused.ok and "Nothing to undo" in refused.text
    assert any(b.label == "Take back" for b in (await service.board(HERE, BOB)).buttons)


async def test_one_play_is_written_one_way(tmp_path: Path) -> None:
    """Issue 19, item 7: the text, the ASCII board's last play and a draft all write a
    play in the canonical notation, whatever order and form it was typed in."""
    from render.ascii import text_board

    service = await make(tmp_path, [3, 1])
    await start(service, stake=1)
    reply = await service.move(HERE, ALICE, "6-5 8-5")
    assert reply.ok and "alice plays 8/5 6/5." in reply.text
    assert "Last play: alice 8/5 6/5" in text_board(reply.boards[-1].view)
    other = await make(tmp_path / "c", [3, 1])
    await other.challenge(HERE, ALICE, BOB, stake=1)
    await other.accept(HERE, BOB)
    draft = await other.move(HERE, ALICE, "8-5")
    assert draft.ok and "alice has played 8/5 so far" in draft.text


# -- issue 30 item 17: the same take-back window when the next throw would be automatic --


async def test_in_the_crawford_game_a_play_can_be_taken_back_until_the_opponent_rolls(
        tmp_path: Path) -> None:
    """002 'DOUBLING' and 003 ch.4: no double in the Crawford game, so bob's throw used to
    follow alice's play at once and she could never take it back.  Now his throw waits
    for him, as when he may double."""
    service = await make(tmp_path, [3, 1, 3, 1, 6, 5])
    await start(service, length=2)
    assert (await service.move(HERE, ALICE, "8/5 6/5")).ok
    assert (await service.double(HERE, BOB)).ok
    dropped = await service.drop(HERE, ALICE)                 # bob 1: the Crawford game
    assert dropped.ok and "Crawford" in dropped.text
    played = await service.move(HERE, ALICE, "13/10 24/23")  # a slip
    assert played.ok and "bob rolled" not in played.text
    assert turn_lines(played) == ["It's @bob's turn: roll."]
    assert any(b.label == "Take back" and b.users == (ALICE.id,) for b in played.buttons)
    assert any(b.action is Action.ROLL and b.users == (BOB.id,) for b in played.buttons)
    undone = await service.undo(HERE, ALICE)
    assert undone.ok and "alice takes back the play" in undone.text
    assert (await service.move(HERE, ALICE, "8/5 6/5")).ok
    early = await service.move(HERE, BOB, "24/18 13/8")
    assert not early.ok and "You must roll before moving" in early.text
    rolled = await service.roll(HERE, BOB)
    assert rolled.ok and "bob rolled 6-5" in rolled.text
    late = await service.undo(HERE, ALICE)
    assert not late.ok
    kinds = await stored_kinds(service)
    assert [k for k, _ in kinds] == ["opening", "play", "roll"]
    assert kinds[1][1] == [[8, 5, False], [6, 5, False]]  # only the final play


async def test_a_play_can_be_taken_back_when_the_opponent_may_not_double(
        tmp_path: Path) -> None:
    """002 'DOUBLING': only the owner of the cube may redouble.  alice owns it; after her
    play bob's throw waits for him, and she may take the play back until he rolls."""
    service = await make(tmp_path, [3, 1, 6, 5, 4, 2, 5, 3])
    await start(service, stake=1)
    assert (await service.move(HERE, ALICE, "8/5 6/5")).ok
    assert (await service.double(HERE, BOB)).ok
    taken = await service.take(HERE, ALICE)
    assert taken.ok and "bob rolled 6-5" in taken.text     # no play to take back: at once
    assert (await service.move(HERE, BOB, "24/13")).ok
    assert (await service.roll(HERE, ALICE)).ok              # she owns the cube: by hand
    played = await service.move(HERE, ALICE, "8/4 6/4")
    assert played.ok and "bob rolled" not in played.text
    assert (await service.undo(HERE, ALICE)).ok
    assert (await service.move(HERE, ALICE, "13/11 13/9")).ok
    rolled = await service.roll(HERE, BOB)
    assert rolled.ok and "bob rolled 5-3" in rolled.text

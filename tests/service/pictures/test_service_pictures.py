"""The pictures through the service (issue 18): /replay, the analysis graph and the
analysis at each game's own score (issue 19 item 1, item 14; issue 22 item 5), the
player card of /stats, the match summary at a match's end.  Real SQLite, real bgsage
(in this process), scripted dice."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from scripted import Script, opened

from bot.ai.analysis import analyze
from bot.ai.context import MatchContext
from bot.ai.levels import EXPERT
from bot.ai.runner import AIRunner
from bot.config import Config
from bot.service.analysis.service import ANALYSIS_SECONDS, EXPERT_ANALYSIS_SECONDS
from bot.service.core.replies import Action, PictureKind, Reply
from bot.service.core.values import Actor, Expect, Place
from bot.service.game import GameService
from bot.service.pictures.contents import count_actions
from bot.storage.replay import replay_game
from engine.gnubgid import decode_match_id
from engine.player import Player
from engine.record import GameRecord
from render.card import PlayerCard
from render.chart import ChartData
from render.replay import FrameKind
from render.summary import MatchSummary

ALICE = Actor(1, "alice")
BOB = Actor(2, "bob")
CAROL = Actor(3, "carol")
HERE = Place(guild_id=7, channel_id=70)

# Each opening throw is alice 1, bob 3: bob goes first and plays his 3-1.
OPENING = [1, 3]
GAMES = OPENING * 3 + [6, 5] + OPENING + [2, 1, 4, 2]
"""The dice of :func:`_three_point_match`: in the Crawford game nobody may double; alice
rolls her 6-5 (her throw waits for her after bob's play, which he may take back until
then: issue 30 item 17), and bob's 4-2 is rolled for him after alice takes in game 4."""


@pytest.fixture
async def ai() -> AsyncIterator[AIRunner]:
    runner = AIRunner(processes=False, time_limit=20.0)
    await runner.start()
    yield runner
    runner.close()


async def _service(tmp_path: Path, ai: AIRunner, dice: list[int]) -> GameService:
    storage = await opened(tmp_path / "bg.sqlite3")
    return GameService(storage, Config(), dice=Script(dice), ai=ai)


def ok(reply: Reply) -> Reply:
    assert reply.ok, reply.text
    return reply


async def _three_point_match(service: GameService) -> None:
    """A 3-point match: alice wins games 1 and 2 (bob drops her double after his
    opening), bob the Crawford game 3 (alice resigns), then in game 4 (post-Crawford,
    alice 2, bob 1) bob doubles at once, alice takes, and alice forfeits: bob wins 3-2."""
    ok(await service.challenge(HERE, ALICE, BOB, length=3))
    ok(await service.accept(HERE, BOB))
    for _ in range(2):
        ok(await service.move(HERE, BOB, "8/5 6/5"))
        ok(await service.double(HERE, ALICE))
        ok(await service.drop(HERE, BOB))
    ok(await service.move(HERE, BOB, "8/5 6/5"))  # game 3, Crawford: alice rolls 6-5
    ok(await service.roll(HERE, ALICE))  # (by hand: bob may take back till then, item 17)
    ok(await service.resign(HERE, ALICE, "single"))
    ok(await service.answer_resignation(HERE, BOB, True))
    ok(await service.move(HERE, BOB, "8/5 6/5"))  # game 4: alice rolls 2-1 next
    ok(await service.roll(HERE, ALICE))
    ok(await service.move(HERE, ALICE, "13/11 6/5"))
    ok(await service.double(HERE, BOB))
    ok(await service.take(HERE, ALICE))
    last = ok(await service.forfeit(HERE, ALICE))
    assert "bob wins the match by forfeit" in last.text or "wins the 3-point match" in last.text


async def _record(service: GameService, number: int) -> GameRecord:
    async with service.storage.snapshot() as tx:
        row = await tx.latest_match_in_channel(HERE.channel_id)
        assert row is not None
        game = next(g for g in await tx.games_of_match(row.id) if g.number == number)
        return replay_game(row, game, await tx.events(game.id)).to_record()


def _cube_lines(text: str, who: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip().startswith(who)]


async def test_each_game_is_analysed_at_the_score_it_was_played_at(
        tmp_path: Path, ai: AIRunner) -> None:
    # Issue 19 item 1.  Post-Crawford the trailer doubles at his first chance (the
    # leader cannot use the cube), so bob's immediate double of game 4 at alice 2,
    # bob 1 is right and alice's take wrong; at 0-0 it is the other way round.  Before the fix every
    # game was rated at the score after the match (alice 2, bob 3).
    service = await _service(tmp_path, ai, GAMES)
    await _three_point_match(service)
    record = await _record(service, 4)
    reply = ok(await service.analyze(HERE, ALICE, 4))
    assert "Analysis of game 4" in reply.text
    assert "played at alice 2, bob 1 in a match to 3" in reply.text
    right = analyze(record, MatchContext(3, (2, 1)))
    assert reply.text.splitlines()[1:] == right.summary(("alice", "bob"))
    assert not any(m.kind == "double" for m in right.of(Player.BLACK).mistakes)
    assert "better no double" not in reply.text
    # ... and alice, 1-away, should pass: a pass leaves double match point at 50%,
    # a take plays the match on this worse position.
    (take,) = right.of(Player.WHITE).mistakes
    assert (take.kind, take.played, take.best) == ("take", "take", "pass")
    assert "take (before rolling): played take, better pass" in reply.text
    # The same decisions at 0-0: bob's double is a clear mistake, alice's take right.
    at_start_of_match = analyze(record, MatchContext(3, (0, 0)))
    (double,) = [m for m in at_start_of_match.of(Player.BLACK).mistakes if m.kind == "double"]
    assert double.best == "no double" and double.equity_lost > 0.1
    assert not any(m.kind == "take" for m in at_start_of_match.of(Player.WHITE).mistakes)
    # ... and at the score after the match (the old behaviour) the figures differ.
    after = analyze(record, MatchContext(3, (2, 3)))
    assert after.summary(("alice", "bob")) != right.summary(("alice", "bob"))


async def test_analysis_boards_carry_the_score_of_their_game(tmp_path: Path,
                                                             ai: AIRunner) -> None:
    service = await _service(tmp_path, ai, GAMES)
    await _three_point_match(service)
    for number, score in ((1, (0, 0)), (2, (1, 0))):
        reply = ok(await service.analyze(HERE, BOB, number))
        assert reply.boards, reply.text  # alice's double and bob's drop were mistakes
        for board in reply.boards:
            state = decode_match_id(board.match_id)
            assert state.match_length == 3 and state.score == score, board.match_id
            assert [p.score for p in board.view.players] == list(score)
        assert "better no double" in reply.text and "better take" in reply.text


async def test_the_analysis_graph_is_for_the_player_who_asks(tmp_path: Path,
                                                             ai: AIRunner) -> None:
    service = await _service(tmp_path, ai, GAMES)
    await _three_point_match(service)
    for actor, me in ((ALICE, Player.WHITE), (BOB, Player.BLACK)):
        reply = ok(await service.analyze(HERE, actor, 1))
        (picture,) = reply.pictures
        assert picture.kind is PictureKind.CHART and picture.filename.endswith(".png")
        data = picture.content
        assert isinstance(data, ChartData)
        assert data.player == actor.name and data.opponent == ("bob" if me is Player.WHITE
                                                               else "alice")
        result = analyze(await _record(service, 1), MatchContext(3, (0, 0)))
        assert data.error_rate == pytest.approx(result.of(me).error_rate)
        assert len(data.points) == len(result.timeline)
        for point, decision in zip(data.points, result.timeline, strict=True):
            mine = decision.player is me
            assert point.win == pytest.approx(decision.win if mine else 1 - decision.win)
        assert {m.mine for m in data.mistakes} == {True, False}
        assert picture.alt_text.startswith(f"Analysis graph for {actor.name}")
        assert "Largest mistakes" in picture.alt_text


async def test_analyze_a_whole_match_with_its_error_rate(tmp_path: Path, ai: AIRunner) -> None:
    # Issue 19 item 14.
    service = await _service(tmp_path, ai, GAMES)
    await _three_point_match(service)
    reply = ok(await service.analyze(HERE, CAROL, whole_match=True))
    assert "Analysis of the match (4 finished games)" in reply.text
    scores = [(0, 0), (1, 0), (2, 0), (2, 1)]
    results = [analyze(await _record(service, n), MatchContext(3, s))
               for n, s in zip((1, 2, 3, 4), scores, strict=True)]
    for p, name in ((Player.WHITE, "alice"), (Player.BLACK, "bob")):
        decisions = sum(r.of(p).decisions for r in results)
        lost = sum(r.of(p).total_lost for r in results)
        assert (f"{name} over the match: {decisions} decisions, error rate "
                f"{lost / decisions * 1000:.1f} mEMG/decision") in reply.text
    for n in (1, 2, 3, 4):
        assert f"Analysis of game {n}, played at alice " in reply.text
    (picture,) = reply.pictures
    summary = picture.content
    assert picture.kind is PictureKind.SUMMARY and isinstance(summary, MatchSummary)
    assert summary.winner == Player.BLACK and summary.score == (2, 3)
    lost_white = sum(r.of(Player.WHITE).total_lost for r in results)
    decided_white = sum(r.of(Player.WHITE).decisions for r in results)
    assert summary.error_rates[0] == pytest.approx(lost_white / decided_white)
    assert "error rate" in picture.alt_text
    assert len(reply.boards) == 3  # the match's three largest mistakes


async def test_analyze_refuses_games_it_cannot_look_at(tmp_path: Path, ai: AIRunner) -> None:
    service = await _service(tmp_path, ai, OPENING * 2)
    no_game = await service.analyze(HERE, ALICE)
    assert not no_game.ok and no_game.ephemeral
    assert "No game has been played in this channel yet" in no_game.text
    ok(await service.challenge(HERE, ALICE, BOB, length=3))
    ok(await service.accept(HERE, BOB))
    ok(await service.move(HERE, BOB, "8/5 6/5"))
    ok(await service.double(HERE, ALICE))
    ok(await service.drop(HERE, BOB))
    missing = await service.analyze(HERE, ALICE, 7)
    assert not missing.ok and "There is no game 7 in this channel's match" in missing.text
    assert "games 1 to 2" in missing.text
    running = await service.analyze(HERE, ALICE, 2)
    assert not running.ok and "Game 2 is still being played" in running.text
    assert "here: 1" in running.text
    depth = await service.analyze(HERE, ALICE, 1, "deepest")
    assert not depth.ok and "Unknown analysis depth 'deepest'" in depth.text
    assert "expert" in depth.text


async def test_expert_depth_on_request_with_a_longer_time_limit(
        tmp_path: Path, ai: AIRunner, monkeypatch: pytest.MonkeyPatch) -> None:
    # Issue 22 item 5: /analyze depth:expert runs at GNU 2-ply, given more time.
    service = await _service(tmp_path, ai, OPENING * 2)
    ok(await service.challenge(HERE, ALICE, BOB, length=3))
    ok(await service.accept(HERE, BOB))
    ok(await service.move(HERE, BOB, "8/5 6/5"))
    ok(await service.double(HERE, ALICE))
    ok(await service.drop(HERE, BOB))
    calls: list[tuple[Any, float]] = []
    real = ai.analyze

    async def spy(record: GameRecord, context: MatchContext | None = None, level: Any = None,
                  timeout: float = 0.0) -> Any:
        calls.append((level, timeout))
        return await real(record, context, level, timeout=timeout)

    monkeypatch.setattr(ai, "analyze", spy)
    expert = ok(await service.analyze(HERE, ALICE, depth="expert"))
    assert "Depth: GNU 2-ply (bgsage)" in expert.text
    strong = ok(await service.analyze(HERE, ALICE))
    assert "Depth: GNU 1-ply (bgsage)" in strong.text
    assert calls[0] == (EXPERT, EXPERT_ANALYSIS_SECONDS)
    assert calls[1][1] == ANALYSIS_SECONDS < EXPERT_ANALYSIS_SECONDS


async def test_replay_is_the_game_from_the_askers_side(tmp_path: Path, ai: AIRunner) -> None:
    service = await _service(tmp_path, ai, GAMES)
    await _three_point_match(service)
    reply = ok(await service.replay(HERE, ALICE, 4))
    (picture,) = reply.pictures
    assert picture.kind is PictureKind.REPLAY and picture.filename.endswith(".gif")
    frames = picture.content
    assert isinstance(frames, tuple)
    plays, cubes = count_actions(await _record(service, 4))
    assert (plays, cubes) == (2, 2)
    assert len(frames) == plays + cubes + 1
    assert [f.kind for f in frames] == [FrameKind.PLAY, FrameKind.PLAY, FrameKind.CUBE,
                                        FrameKind.CUBE, FrameKind.RESULT]
    assert all(f.board.viewer is Player.WHITE for f in frames)  # alice asked
    # The session at the game's start: alice 2, bob 1, post-Crawford.
    assert [p.score for p in frames[0].board.players] == [2, 1]
    assert frames[0].board.match is not None and frames[0].board.match.post_crawford
    assert "score 2-3 (to 3)" in frames[-1].caption
    assert picture.alt_text.startswith("Replay of the game between alice and bob: 2 plays, "
                                       "2 cube actions.")
    assert "bob doubles to 2" in picture.alt_text
    seen_by_bob = ok(await service.replay(HERE, BOB, 4)).pictures[0].content
    assert isinstance(seen_by_bob, tuple)
    assert all(f.board.viewer is Player.BLACK for f in seen_by_bob)
    # By default the last finished game; a game not in the match is refused.
    default = ok(await service.replay(HERE, CAROL))
    assert "Replay of game 4" in default.text
    missing = await service.replay(HERE, CAROL, 9)
    assert not missing.ok and missing.ephemeral and "There is no game 9" in missing.text


async def test_replay_of_a_game_in_progress(tmp_path: Path, ai: AIRunner) -> None:
    service = await _service(tmp_path, ai, OPENING)
    nothing = await service.replay(HERE, ALICE)
    assert not nothing.ok and "No game has been played in this channel yet" in nothing.text
    ok(await service.challenge(HERE, ALICE, BOB, length=3))
    ok(await service.accept(HERE, BOB))
    ok(await service.move(HERE, BOB, "8/5 6/5"))
    reply = ok(await service.replay(HERE, ALICE))
    assert "still being played" in reply.text
    frames = reply.pictures[0].content
    assert isinstance(frames, tuple) and len(frames) == 2
    assert frames[-1].caption == "Game not finished: alice to act"


async def test_stats_answer_with_the_player_card(tmp_path: Path, ai: AIRunner) -> None:
    service = await _service(tmp_path, ai, GAMES)
    await _three_point_match(service)
    reply = ok(await service.stats(HERE, CAROL, BOB))
    assert "bob: rating" in reply.text
    (picture,) = reply.pictures
    card = picture.content
    assert picture.kind is PictureKind.CARD and isinstance(card, PlayerCard)
    assert card.name == "bob" and card.games == 4 and card.games_won == 2
    assert card.matches == 1 and card.matches_won == 1
    assert card.favourite_variant == "standard"
    assert len(card.rating_history) == 2 and card.rating_history[-1] == card.rating
    assert card.experience == 3 and card.provisional
    (recent,) = card.recent
    assert recent.won and recent.opponent == "alice" and recent.detail == "3-2 to 3"
    assert "Player card of bob" in picture.alt_text
    assert "won against alice 3-2 to 3" in picture.alt_text
    alice = ok(await service.stats(HERE, ALICE)).pictures[0].content
    assert isinstance(alice, PlayerCard)
    assert alice.recent[0].won is False and alice.recent[0].detail == "2-3 to 3"


async def test_a_money_session_result_on_the_card(tmp_path: Path, ai: AIRunner) -> None:
    service = await _service(tmp_path, ai, OPENING * 2)
    ok(await service.challenge(HERE, ALICE, BOB, stake=5))
    ok(await service.accept(HERE, BOB))
    ok(await service.move(HERE, BOB, "8/5 6/5"))
    ok(await service.double(HERE, ALICE))
    ok(await service.drop(HERE, BOB))
    ended = ok(await service.forfeit(HERE, BOB))
    (summary,) = ended.pictures
    assert summary.kind is PictureKind.SUMMARY
    assert isinstance(summary.content, MatchSummary) and summary.content.length == 0
    card = ok(await service.stats(HERE, ALICE)).pictures[0].content
    assert isinstance(card, PlayerCard)
    assert card.recent[0].won and card.recent[0].detail == "money +2"
    assert card.balance == 10


async def test_the_match_end_carries_the_summary_picture(tmp_path: Path, ai: AIRunner) -> None:
    service = await _service(tmp_path, ai, GAMES)
    ok(await service.challenge(HERE, ALICE, BOB, length=3))
    ok(await service.accept(HERE, BOB))
    for _ in range(2):
        ok(await service.move(HERE, BOB, "8/5 6/5"))
        ok(await service.double(HERE, ALICE))
        dropped = ok(await service.drop(HERE, BOB))
        assert dropped.pictures == ()  # a game ended, not the match
    ok(await service.move(HERE, BOB, "8/5 6/5"))
    ok(await service.resign(HERE, BOB, "single"))
    ended = ok(await service.answer_resignation(HERE, ALICE, True))
    assert "alice wins the 3-point match 3-0" in ended.text
    (picture,) = ended.pictures
    summary = picture.content
    assert picture.kind is PictureKind.SUMMARY and isinstance(summary, MatchSummary)
    assert summary.names == ("alice", "bob") and summary.length == 3
    assert [(g.number, g.winner, g.points, g.score) for g in summary.games] == [
        (1, 0, 1, (1, 0)), (2, 0, 1, (2, 0)), (3, 0, 1, (3, 0))]
    assert summary.games[2].crawford and summary.winner == 0
    assert [(c.game, c.action) for c in summary.cube] == [
        (1, "doubles to 2"), (1, "drops"), (2, "doubles to 2"), (2, "drops")]
    assert summary.error_rates == (None, None)  # no analysis ran
    assert picture.alt_text.startswith("Summary of the match to 3: alice 3, bob 0; "
                                       "alice wins.")


async def test_the_match_end_offers_its_analysis_with_the_error_rates(
        tmp_path: Path, ai: AIRunner) -> None:
    """The automatic summary has no error rates (nothing is analysed unasked); the end of
    the match offers the analysis, whose summary has them.  Without the AI the button is
    not shown (tests/service/play/test_table_play.py: Rematch alone)."""
    service = await _service(tmp_path, ai, GAMES + OPENING)
    ok(await service.challenge(HERE, ALICE, BOB, length=1))
    ok(await service.accept(HERE, BOB))
    ok(await service.move(HERE, BOB, "8/5 6/5"))
    ok(await service.resign(HERE, ALICE, "single"))
    ended = ok(await service.answer_resignation(HERE, BOB, True))
    assert [(b.action, b.label) for b in ended.buttons] == [
        (Action.REMATCH, "Rematch"), (Action.ANALYZE, "Analyse the match")]
    (offer,) = [b for b in ended.buttons if b.action is Action.ANALYZE]
    assert set(offer.users) == {ALICE.id, BOB.id}
    assert ended.version is not None and ended.match_id is not None
    pressed = ok(await service.act(Action.ANALYZE, HERE, ALICE,
                                   expect=Expect(ended.version, ended.match_id)))
    assert pressed.text == ok(await service.analyze(HERE, ALICE, whole_match=True)).text
    assert "Analysis of the match (1 finished game)" in pressed.text
    (picture,) = pressed.pictures
    assert isinstance(picture.content, MatchSummary)
    assert all(rate is not None for rate in picture.content.error_rates)
    # The button of a match that is no longer the channel's latest says so.
    ok(await service.challenge(HERE, ALICE, BOB, length=1))
    ok(await service.accept(HERE, BOB))
    ok(await service.move(HERE, BOB, "8/5 6/5"))
    ok(await service.resign(HERE, ALICE, "single"))
    ok(await service.answer_resignation(HERE, BOB, True))
    stale = await service.act(Action.ANALYZE, HERE, ALICE,
                              expect=Expect(ended.version, ended.match_id))
    assert not stale.ok and stale.ephemeral
    assert "for an earlier match in this channel" in stale.text


async def test_replay_at_a_chouette_table_by_the_table_s_game_numbers(tmp_path: Path) -> None:
    """Each chouette game is a match row of its own; /replay N names the table's game N
    (the numbering of /verify, issue 19 item 6), with that game's box and captain."""
    storage = await opened(tmp_path / "bg.sqlite3")
    service = GameService(storage, Config())
    table = service.chouette
    ok(await table.open(HERE, ALICE))
    ok(await table.join(HERE, BOB))
    ok(await table.join(HERE, CAROL))
    ok(await table.start(HERE, ALICE))
    seated: list[tuple[str, str]] = []
    for _ in (1, 2):
        async with service.storage.snapshot() as tx:
            row = await tx.open_match_in_channel(HERE.channel_id)
            assert row is not None
            box = next(p for p in (ALICE, BOB, CAROL) if p.id == row.white_id)
            captain = next(p for p in (ALICE, BOB, CAROL) if p.id == row.black_id)
        seated.append((box.name, captain.name))
        ok(await service.resign(HERE, captain, "single"))
        ok(await service.answer_resignation(HERE, box, True))
    assert seated[0] != seated[1]  # the captain changed
    for number in (1, 2):
        reply = ok(await service.replay(HERE, ALICE, number))
        frames = reply.pictures[0].content
        assert isinstance(frames, tuple)
        assert tuple(p.name for p in frames[0].board.players) == seated[number - 1]
        assert reply.text.startswith(f"Replay of game {number}: ")
    refused = await service.replay(HERE, ALICE, 4)
    assert not refused.ok and "no game 4 at this chouette table" in refused.text


@pytest.mark.parametrize(("variant", "dice", "plays", "caption", "drawn"), [
    # 003 ch.12 (1930): "double the moves may be made, plus the play for the double on the
    # reverse side of the dice": alice's 5-5, then its reverse side 2-2.
    ("acey-deucey-1930", [5, 5, 1, 2, 5, 5], [(ALICE, "in/20(4)"), (ALICE, "in/23(4)")],
     "2. alice 2-2 (reverse side of 5-5): in/23(4)", (2, 2)),
    # 000 'ACEY-DEUCY' 2: after the 1 and 2, the doublet bob names (6-6).
    ("acey-deucey", [3, 1, 1, 2, 1, 2], [(ALICE, "play"), (ALICE, "in/22 in/24"),
                                         (BOB, "roll"), (BOB, "6"), (BOB, "in/19(4)")],
     "3. bob 6-6 (named after 1-2): in/19(4)", (6, 6)),
])
async def test_replay_labels_a_second_stage_with_its_own_dice(
        tmp_path: Path, variant: str, dice: list[int], plays: list[tuple[Actor, str]],
        caption: str, drawn: tuple[int, int]) -> None:
    """Issue 30 item 3: the replay's caption, alt text and drawn dice of a reverse side or
    a named doublet are that stage's dice, as /history writes them."""
    storage = await opened(tmp_path / "bg.sqlite3")
    service = GameService(storage, Config(), dice=Script(dice, then="0123456789abcdef"))
    ok(await service.challenge(HERE, ALICE, BOB, length=3, variant=variant))
    ok(await service.accept(HERE, BOB))
    for actor, what in plays:
        if what == "roll":
            ok(await service.roll(HERE, actor))
        elif what in ("play", "6"):
            ok(await service.choose(HERE, actor, what))
        else:
            ok(await service.move(HERE, actor, what))
    history = ok(await service.history(HERE, CAROL))
    stage = caption.split(". ", 1)[1].split(" (")[0]          # "alice 2-2"
    name, shown = stage.split(" ")
    assert f"{name} {shown.replace('-', '')}: " in history.text  # /history's own words
    reply = ok(await service.replay(HERE, CAROL))
    (picture,) = reply.pictures
    frames = picture.content
    assert isinstance(frames, tuple)
    assert caption in [f.caption for f in frames]
    frame = next(f for f in frames if f.caption == caption)
    assert frame.board.dice == drawn
    assert caption in picture.alt_text


async def test_the_card_says_money_games_are_rated_one_by_one(tmp_path: Path,
                                                              ai: AIRunner) -> None:
    """Issue 30 item 14: "rating over 2 rated matches" stood beside "Matches 1 won of 1"
    after a money session of two games: each money game is rated as a 1-point match."""
    service = await _service(tmp_path, ai, OPENING * 3)
    ok(await service.challenge(HERE, ALICE, BOB, stake=5))
    ok(await service.accept(HERE, BOB))
    for _ in range(2):
        ok(await service.move(HERE, BOB, "8/5 6/5"))
        ok(await service.double(HERE, ALICE))
        ok(await service.drop(HERE, BOB))
    ok(await service.stop(HERE, ALICE))
    picture = ok(await service.stats(HERE, ALICE)).pictures[0]
    card = picture.content
    assert isinstance(card, PlayerCard) and card.matches == 1
    assert len(card.rating_history) == 3
    assert "Rating over 2 rated results (matches, and money games one by one)" in (
        picture.alt_text)

"""Games against the AI, hints and analysis through the game service (real SQLite)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import variant_nets

from bot.ai.runner import AIRunner
from bot.config import Config
from bot.service.ai_turns import decision_action, match_context
from bot.service.core.values import Actor, Expect, Place
from bot.service.game import GameService
from bot.storage.sqlite import SqliteStorage

ALICE = Actor(1, "alice")
BOB = Actor(2, "bob")
AI = Actor(99, "gnubot", is_bot=True)
HERE = Place(guild_id=7, channel_id=70)


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[GameService]:
    storage = SqliteStorage(tmp_path / "bg.sqlite3")
    await storage.open()
    runner = AIRunner(processes=False, time_limit=20.0)
    await runner.start()
    svc = GameService(storage, Config(), ai=runner)
    svc.set_ai_user(AI.id, AI.name)
    yield svc
    runner.close()
    await storage.close()


async def _play_out(service: GameService, place: Place, human: Actor, limit: int = 400) -> str:
    """The human rolls, takes and plays the first suggested play until the match ends.

    Every board shown offers no button to the AI: it acts by itself, so a button only
    it may press (a "Take back" after its play) would be one nobody can use."""
    text = ""
    for _ in range(limit):
        board = await service.board(place, human)
        if not board.ok:  # no open match any more: it is over
            return text
        assert not [b.label for b in board.buttons if AI.id in b.users], board.text
        mine = {b.action.value for b in board.buttons if human.id in b.users}
        if "take" in mine:
            reply = await service.take(place, human)
        elif "roll" in mine:
            reply = await service.roll(place, human)
        elif "accept-resignation" in mine:
            reply = await service.answer_resignation(place, human, True)
        else:
            plays = await service.suggestions(place, human, "")
            assert plays, board.text
            reply = await service.move(place, human, plays[0])
        assert reply.ok, reply.text
        assert not [b.label for b in reply.buttons if AI.id in b.users], reply.text
        text += reply.text + "\n"
    raise AssertionError("the match did not end")


async def test_a_match_against_the_ai_is_played_to_the_end(service: GameService) -> None:
    reply = await service.challenge(HERE, ALICE, AI, length=1, level="intermediate")
    assert reply.ok, reply.text
    assert "You play the AI at level" in reply.text
    log = reply.text + await _play_out(service, HERE, ALICE)
    assert "wins the 1-point match" in log
    assert "gnubot rolled" in log or "gnubot plays" in log
    async with service.storage.transaction() as tx:
        row = await tx.latest_match_in_channel(HERE.channel_id)
        assert row is not None and row.status == "finished" and not row.rated
        assert row.winner_id in (ALICE.id, AI.id)
        # Games against the AI are not rated.
        assert await tx.rating_history(HERE.guild_id, ALICE.id) == []
    analysis = await service.analyze(HERE, ALICE)
    assert analysis.ok, analysis.text
    assert "decisions, error rate" in analysis.text


async def test_hints_in_ai_games_and_in_rated_games(service: GameService) -> None:
    await service.challenge(HERE, ALICE, AI, length=3)
    board = await service.board(HERE, ALICE)
    hint = await service.hint(HERE, ALICE)
    if board.boards and board.boards[-1].view.turn is not None and \
            board.boards[-1].view.players[board.boards[-1].view.turn].name == "alice":
        assert hint.ok and hint.ephemeral and "Hint for alice" in hint.text
    else:
        assert not hint.ok and "your own decision" in hint.text
    rated = Place(7, 71)
    assert (await service.challenge(rated, ALICE, BOB, length=3)).ok
    assert (await service.accept(rated, BOB)).ok
    refused = await service.hint(rated, ALICE)
    refused_bob = await service.hint(rated, BOB)
    assert not refused.ok and not refused_bob.ok
    assert "Hints are off in this rated match" in refused.text
    open_hints = Place(7, 72)
    assert (await service.challenge(open_hints, ALICE, BOB, length=3, hints=True)).ok
    assert (await service.accept(open_hints, BOB)).ok
    answers = [await service.hint(open_hints, who) for who in (ALICE, BOB)]
    assert [a.ok for a in answers].count(True) == 1  # the player who must act
    assert any("1." in a.text for a in answers if a.ok)


async def test_ai_challenge_terms(service: GameService) -> None:
    bad = await service.challenge(HERE, ALICE, AI, level="grandmaster")
    assert not bad.ok and "Unknown AI level" in bad.text
    other_bot = await service.challenge(HERE, ALICE, Actor(5, "otherbot", is_bot=True))
    assert not other_bot.ok and "challenge me" in other_bot.text
    human_level = await service.challenge(HERE, ALICE, BOB, level="strong")
    assert not human_level.ok and "games against the bot" in human_level.text


async def test_ai_plays_a_variant_with_the_heuristic(service: GameService,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    variant_nets.remove(monkeypatch)  # where no network of ours knows the variant
    reply = await service.challenge(HERE, ALICE, AI, length=1, variant="french",
                                    level="beginner")
    assert reply.ok and "heuristic player" in reply.text
    # A few human actions, each answered by the AI, keep the game consistent.
    for _ in range(6):
        board = await service.board(HERE, ALICE)
        if not board.ok:
            break
        mine = {b.action.value for b in board.buttons if ALICE.id in b.users}
        if "roll" in mine:
            step = await service.roll(HERE, ALICE)
        elif "choose" in mine:
            option = next(b.option for b in board.buttons if b.action.value == "choose")
            step = await service.choose(HERE, ALICE, option)
        else:
            plays = await service.suggestions(HERE, ALICE, "")
            step = await service.move(HERE, ALICE, plays[0] if plays else "")
        assert step.ok, step.text


async def test_ai_against_ai_through_the_service(service: GameService) -> None:
    """Issue 9: AI-vs-AI complete matches through the game service (rules enforced,
    results recorded).  Alice's side is decided by the same AI and carried out with
    the ordinary operations, each checked against the version the AI looked at."""
    from bot.ai.levels import get_level
    from bot.ai.player import decide

    assert service.ai is not None
    for place, terms in ((Place(7, 80), {"length": 3}), (Place(7, 81), {"stake": 2})):
        reply = await service.challenge(place, ALICE, AI, level="intermediate", **terms)
        assert reply.ok, reply.text
        log = [reply.text]
        for _ in range(600):
            async with service.storage.transaction() as tx:
                row = await tx.open_match_in_channel(place.channel_id)
                if row is None:
                    break
                loaded = await service.runner.load_row(tx, row)
            game = loaded.game
            assert game is not None and game.awaiting is not None
            if "stake" in terms and len(loaded.session.results) >= 2:
                reply = await service.forfeit(place, ALICE)  # end the money session
            else:
                decision = decide(game, match_context(loaded.session),
                                  get_level("intermediate"))
                action, option = decision_action(game, decision)
                reply = await service.act(action, place, ALICE, option=option,
                                          expect=Expect(row.version, row.id))
            assert reply.ok, reply.text
            log.append(reply.text)
        else:
            raise AssertionError("the match did not end")
        text = "\n".join(log)
        async with service.storage.transaction() as tx:
            row = await tx.latest_match_in_channel(place.channel_id)
            assert row is not None and row.status == "finished"
            games = await tx.games_of_match(row.id)
            assert games and all(g.status == "finished" and g.result for g in games)
            if "stake" in terms:
                total = await tx.balance(7, ALICE.id) + await tx.balance(7, AI.id)
                assert total == 0  # every game settled both ways
        assert "wins" in text


async def test_rules_say_the_bot_is_weaker_in_variants(service: GameService,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 9: /rules says clearly that the AI is a weaker heuristic in the variants
    (where no network of ours knows them)."""
    variant_nets.remove(monkeypatch)
    standard = await service.rules("standard")
    russian = await service.rules("russian")
    assert standard.ok and "network" in standard.text
    assert russian.ok and "clearly weaker" in russian.text


async def test_rules_and_challenges_name_our_network_where_one_knows_the_variant(
        service: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 46: where our self-trained network plays a variant, /rules and the challenge
    say so (and how many games trained it), not that a heuristic plays."""
    nets = variant_nets.install(monkeypatch)
    russian = await service.rules("russian")
    games = f"{nets['russian'].games:,} games"
    assert russian.ok and "our own network for this variant" in russian.text
    assert games in russian.text and "heuristic" not in russian.text
    reply = await service.challenge(HERE, ALICE, AI, length=1, variant="russian",
                                    level="beginner")
    assert reply.ok and "In this variant the AI is our own network" in reply.text

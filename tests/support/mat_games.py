"""Random games and matches played with random legal actions, in the engine, for the
.mat and .sgf round-trip tests."""

from __future__ import annotations

import random

from bot.storage.interface import MatchRow, Transaction
from engine.formats.matfile import MatGame
from engine.game import Action, Game, Phase
from engine.match import Match, MoneySession
from engine.player import Player
from engine.rules import DEFAULT_RULES, RuleOptions
from engine.scoring import ResultKind


def play_randomly(game: Game, rng: random.Random, *, cube: float = 0.08,
                  resign: float = 0.004, forfeit: float = 0.002,
                  max_actions: int | None = None) -> Game:
    """Random legal actions until the game ends (or ``max_actions`` are made)."""
    done = 0
    while not game.is_finished and (max_actions is None or done < max_actions):
        done += 1
        r = rng.random()
        if r < forfeit:
            game = game.forfeit(rng.choice(list(Player)), rng.choice(list(ResultKind)))
            continue
        phase = game.phase
        if phase is Phase.OPENING:
            game = game.opening_roll(rng.randint(1, 6), rng.randint(1, 6))
        elif phase is Phase.RESIGNATION:
            assert game.resignation is not None
            game = game.answer_resignation(game.resignation.player.other, rng.random() < 0.5)
        elif r < forfeit + resign:
            who = rng.choice(list(Player))
            game = game.resign(who, rng.choice(list(ResultKind)))
        elif phase is Phase.ROLL:
            assert game.turn is not None
            if rng.random() < cube and game.may_double(game.turn):
                game = game.double(game.turn)
            else:
                game = game.roll((rng.randint(1, 6), rng.randint(1, 6)))
        elif phase is Phase.DOUBLED:
            assert game.cube.offer is not None
            answerer = game.cube.offer.answerer
            choices = ["take", "take", "drop"]
            if (answerer, Action.BEAVER) in game.available_actions():
                choices.append("beaver")
            pick = rng.choice(choices)
            game = (game.take(answerer) if pick == "take" else game.drop(answerer)
                    if pick == "drop" else game.beaver(answerer))
        elif phase is Phase.PLAY:
            game = game.play(rng.choice(game.legal_plays()))
        else:
            raise AssertionError(phase)
    return game


def random_match(rng: random.Random, length: int,
                 rules: RuleOptions = DEFAULT_RULES) -> tuple[list[MatGame], Match]:
    match = Match.new(length, rules)
    games: list[MatGame] = []
    while not match.is_over:
        game = play_randomly(match.new_game(), rng)
        games.append(MatGame(game.to_record(), match.score))
        match = match.add_game(game)
    return games, match


def random_session(rng: random.Random, count: int,
                   rules: RuleOptions) -> tuple[list[MatGame], MoneySession]:
    session = MoneySession.new(rules)
    games: list[MatGame] = []
    for _ in range(count):
        game = play_randomly(session.new_game(), rng)
        games.append(MatGame(game.to_record(), session.points))
        session = session.add_game(game)
    return games, session


async def store_match(tx: Transaction, games: list[MatGame], *, length: int) -> MatchRow:
    """``games`` stored as a finished match between Alice (1) and Bob (2), as the service
    stores them (set-up, events, results)."""
    await tx.upsert_user(1, "Alice")
    await tx.upsert_user(2, "Bob")
    row = await tx.insert_match(guild_id=5, channel_id=10, white_id=1, black_id=2,
                                variant="standard", rules={}, length=length, stake=0,
                                rated=True, status="active")
    for number, mg in enumerate(games, 1):
        rec = mg.record
        setup = {"money": rec.money, "crawford": rec.crawford,
                 "first_player": rec.first_player.label if rec.first_player else None}
        grow = await tx.insert_game(match_id=row.id, number=number, seed_hash="h",
                                    seed="s", setup=setup)
        await tx.append_events(grow.id, [(i, ev.type, ev.to_dict(), None)
                                         for i, ev in enumerate(rec.events)])
        result = Game.from_record(rec).result
        assert result is not None
        await tx.update_game(grow, status="finished", result=result.to_dict())
    return row

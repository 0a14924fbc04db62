"""Seeded synthetic game records of a chosen length, for the picture tests and
bench/bench_pictures.py: random legal plays (hits preferred, which keeps games
going), a double taken now and then, and a forfeit to end a game that is still
running after the wanted number of plays."""

from __future__ import annotations

import random

from engine.dice import Dice
from engine.game import Game, Phase
from engine.player import Player
from engine.record import GameRecord
from engine.scoring import ResultKind


def sample_game(plays: int, seed: int = 1, *, doubles: int = 2, money: bool = True,
                finish: bool = True) -> GameRecord:
    """A standard game with exactly ``plays`` plays (throws made, dances included)
    and up to ``doubles`` doubles (each taken); it ends by a forfeit of the
    player on roll after the last play (``finish``), or is left unfinished.

    Games that end before ``plays`` are thrown away and the next seed is tried.
    """
    for attempt in range(200):
        rng = random.Random(seed * 1000 + attempt)
        game = Game.new("standard", money=money)
        game = game.opening_roll(*_opening(rng))
        made = 0
        doubled = 0
        while made < plays and not game.is_finished:
            if game.phase is Phase.ROLL:
                assert game.turn is not None
                if doubled < doubles and made > 6 and rng.random() < 0.08 \
                        and game.may_double(game.turn):
                    game = game.double(game.turn)
                    assert game.cube.offer is not None
                    game = game.take(game.cube.offer.answerer)
                    doubled += 1
                    continue
                game = game.roll(Dice(rng.randint(1, 6), rng.randint(1, 6)))
                if game.phase is not Phase.PLAY:  # could not move
                    made += 1
                continue
            if game.phase is Phase.PLAY:
                legal = game.legal_plays()
                hitting = [p for p in legal if any(m.hit for m in p.moves)]
                pool = hitting if hitting and rng.random() < 0.9 else legal
                game = game.play(rng.choice(pool))
                made += 1
                continue
            raise AssertionError(f"unexpected phase {game.phase}")
        if made == plays and not game.is_finished:
            if finish:
                loser = game.turn if game.turn is not None else Player.WHITE
                game = game.forfeit(loser, ResultKind.SINGLE)
            return game.to_record()
    raise AssertionError(f"no game of {plays} plays found")


def _opening(rng: random.Random) -> tuple[int, int]:
    while True:
        w, b = rng.randint(1, 6), rng.randint(1, 6)
        if w != b:
            return w, b

"""Property tests over random games of every book variant, played through
:class:`engine.game.Game` (rule sources: 000 'THE GAME OF ACEY-DEUCY', 003
ch.10-12).

Each game uses dice and decisions drawn from a hypothesis-chosen seed.
Checked at every step: each side keeps exactly 15 checkers (Position
validation); no point holds checkers of both colours under the variant's
geometry; in the 1973 Acey-Deucey nobody is ever on the bar (kicked-off men go
back off the board); a game ends within a fixed number of turns; and the
recorded events replay to exactly the same game.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.game import Game, Phase
from engine.movegen import legal_plays
from engine.player import Player
from engine.position import BAR, Position
from engine.rules import DEFAULT_RULES, KickedOff, RuleOptions
from engine.variant import Variant, get_variant
from engine.variants.acey_deucey import AceyDeucey
from engine.variants.movement import MovementRules, stage_plays

NAMES = ("acey-deucey", "acey-deucey-1930", "russian", "russian-restriction-1",
         "russian-restriction-2", "french")
MAX_TURNS = 3000
"""Random games here last a few hundred turns; this is a generous bound."""


def check_position(variant: Variant, position: Position,
                   rules: RuleOptions = DEFAULT_RULES) -> None:
    Position(position.sides)  # validates 15 checkers a side, no negative counts
    white, black = position.sides
    for i in range(1, 25):
        assert not (white[i] and black[variant.opposite[i]]), f"both colours on white's {i}"
    if isinstance(variant, AceyDeucey) and rules.kicked_off is KickedOff.RESERVE:
        # 000 'KICKING-OFF' under kicked_off = reserve: no bar in this game.
        assert white[BAR] == 0 and black[BAR] == 0


def random_game(name: str, seed: int) -> Game:
    rng = random.Random(seed)
    variant = get_variant(name)()
    game = Game.new(variant)
    turns = 0
    while not game.is_finished:
        check_position(variant, game.position)
        if game.phase is Phase.OPENING:
            each = variant.opening_method(game.rules).dice_each
            game = game.opening_roll([rng.randint(1, 6) for _ in range(each)],
                                     [rng.randint(1, 6) for _ in range(each)])
        elif game.phase is Phase.ROLL:
            if not game.extra_throw:
                turns += 1
                assert turns <= MAX_TURNS, "the game did not end"
            game = game.roll([rng.randint(1, 6), rng.randint(1, 6)])
        elif game.phase is Phase.CHOICE:
            choice = game.pending_choice
            assert choice is not None
            game = game.choose(rng.choice(choice.options))
        elif game.phase is Phase.PLAY:
            plays = game.legal_plays()
            assert plays and all(p.moves for p in plays)
            lengths = {len(p.dice) for p in plays}
            assert len(lengths) == 1  # every legal play uses as many dice as possible
            game = game.play(rng.choice(plays))
        else:  # pragma: no cover - no cube actions or resignations are made here
            raise AssertionError(f"unexpected phase {game.phase}")
    check_position(variant, game.position)
    return game


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_random_games_keep_the_invariants_and_replay(name: str, seed: int) -> None:
    game = random_game(name, seed)
    result = game.result
    assert result is not None
    assert game.position.sides[result.winner][0] == 15
    again = Game.replay(game.record, game.variant.name)
    assert again.position == game.position
    assert again.record == game.record
    assert again.result == game.result


@pytest.mark.parametrize("name", NAMES)
def test_variant_records_round_trip_through_storage(name: str) -> None:
    game = random_game(name, 7)
    again = Game.from_record(type(game.to_record()).from_dict(game.to_dict()))
    assert again.position == game.position and again.result == game.result


def test_gammons_by_variant() -> None:
    # 003 ch.12: "Gammons and backgammons are not scored" in Acey-Deucey (1930).
    assert get_variant("acey-deucey-1930").scores_gammons is False
    assert all(get_variant(n).scores_gammons for n in NAMES if n != "acey-deucey-1930")


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_variant_generator_with_standard_rules_agrees_with_movegen(seed: int) -> None:
    # With the bar, opposite directions and the regular bearing off (the rules
    # the variants share with backgammon: 003 ch.3 V-VII), the variant generator
    # must give exactly the plays of the standard generator (engine.movegen).
    rng = random.Random(seed)
    rules = MovementRules("standard")
    pos, player = Position.standard(), Player.WHITE
    for _ in range(60):
        if any(side[0] == 15 for side in pos.sides):
            break
        a, b = rng.randint(1, 6), rng.randint(1, 6)
        reference = legal_plays(pos, player, a, b)
        ours = stage_plays(pos, player, (a, b) if a != b else (a,) * 4, rules)
        assert {p.position for p in ours} == {p.position for p in reference}
        assert {len(p.dice) for p in ours} == {len(p.dice) for p in reference}
        pos, player = rng.choice(reference).position, player.other

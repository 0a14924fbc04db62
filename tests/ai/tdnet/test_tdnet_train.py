"""bot.ai.tdnet.train: λ-returns, reproducible runs, and learning that works."""

from __future__ import annotations

import numpy as np
import pytest

from bot.ai.tdnet.net import Net
from bot.ai.tdnet.train import Settings, contest, lambda_targets, main, save_checkpoint, train
from bot.ai.tdnet.turns import Evaluator
from engine.rules import RuleOptions
from engine.variant import get_variant


def test_lambda_returns_alternate_sides_and_end_in_the_result() -> None:
    values = np.array([[0.5, 0.1, 0.0, 0.2, 0.0], [0.4, 0.1, 0.0, 0.1, 0.0],
                       [0.9, 0.3, 0.0, 0.0, 0.0]])
    result = np.array([[1.0, 1.0, 0.0, 0.0, 0.0]])  # the last state's player won a gammon
    t = lambda_targets(values, result, 0.0)
    assert np.allclose(t[2], result[0])
    # λ = 0: each target is the next state's value from this side.
    assert np.allclose(t[1], [0.1, 0.0, 0.0, 0.3, 0.0])
    assert np.allclose(t[0], [0.6, 0.1, 0.0, 0.1, 0.0])
    t1 = lambda_targets(values, result, 1.0)
    # λ = 1: the result itself, seen from each side (the players alternate).
    assert np.allclose(t1[1], [0.0, 0.0, 0.0, 1.0, 0.0])
    assert np.allclose(t1[0], [1.0, 1.0, 0.0, 0.0, 0.0])


def test_a_run_is_reproducible_from_its_seed(tmp_path) -> None:  # type: ignore[no-untyped-def]
    variant = get_variant("russian")()
    a = train(variant, 4, 5, Settings(hidden=8))
    b = train(variant, 4, 5, Settings(hidden=8))
    assert np.array_equal(a.w1, b.w1) and np.array_equal(a.w2, b.w2) and a.games == 4
    # A run resumed from a checkpoint plays the same games as one never stopped.
    ckpt = tmp_path / "ckpt.npz"
    half = train(variant, 2, 5, Settings(hidden=8), checkpoint=ckpt)
    save_checkpoint(half, ckpt)
    resumed = train(variant, 4, 5, Settings(hidden=8), start=Net.load(ckpt))
    assert np.allclose(resumed.w1, a.w1) and np.allclose(resumed.w2, a.w2)


def test_the_command_writes_small_weights(tmp_path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "french.npz"
    assert main(["french", "--games", "2", "--seed", "3", "--hidden", "8", "--out", str(out)]) == 0
    net = Net.load(out)
    assert net.games == 2 and net.hidden == 8
    assert out.stat().st_size < 2_000_000


@pytest.mark.slow
def test_a_few_hundred_games_of_self_play_beat_random_play() -> None:
    variant = get_variant("russian")()
    rules = RuleOptions()
    untrained = Evaluator.of(Net.fresh(16, np.random.default_rng(9)), variant, rules)
    trained = Evaluator.of(train(variant, 200, 9, Settings(hidden=16, rate=0.05)), variant,
                           rules)
    before = contest(untrained, None, 40, 1)
    after = contest(trained, None, 40, 1)
    # Measured: -0.8 before, +2.4 points a game after 200 games.
    assert after > 1.0 and after > before + 1.0, (before, after)

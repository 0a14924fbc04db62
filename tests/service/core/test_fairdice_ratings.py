"""Provably fair dice and FIBS ratings."""

import hashlib
import hmac
import math
from collections import Counter

import pytest

from bot.service.core import fairdice
from bot.service.records import ratings


def test_seed_hash_is_sha256_of_the_seed_bytes() -> None:
    seed = "00" * 31 + "01"
    assert fairdice.seed_hash(seed) == hashlib.sha256(bytes(31) + b"\x01").hexdigest()


def test_die_follows_the_documented_derivation() -> None:
    seed = fairdice.new_seed()
    for index in range(50):
        digest = hmac.new(bytes.fromhex(seed), f"{index}:0".encode(), hashlib.sha256).digest()
        first_ok = next(b for b in digest if b < 252)
        assert fairdice.die(seed, index) == 1 + first_ok % 6


def test_dice_are_uniform_enough() -> None:
    seed = "ab" * 32
    counts = Counter(fairdice.die(seed, i) for i in range(12_000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    chi2 = sum((c - 2000) ** 2 / 2000 for c in counts.values())
    assert chi2 < 20.5  # p = 0.001 for 5 degrees of freedom


def test_seeded_source_continues_from_a_counter() -> None:
    seed = fairdice.new_seed()
    whole = fairdice.SeededDice(seed)
    first = [whole.die() for _ in range(10)]
    resumed = fairdice.SeededDice(seed, start=4)
    assert [resumed.die() for _ in range(6)] == first[4:]


def test_verify_reports_mismatches() -> None:
    seed = fairdice.new_seed()
    dice = [fairdice.die(seed, i) for i in range(8)]
    assert fairdice.verify(seed, fairdice.seed_hash(seed), dice) == []
    tampered = [*dice[:3], 7 - dice[3], *dice[4:]]
    assert fairdice.verify(seed, fairdice.seed_hash(seed), tampered) == [
        f"die 4 was {7 - dice[3]} but the seed gives {dice[3]}"]
    assert fairdice.verify(seed, "00" * 32, dice)[0].startswith("the seed does not match")


def test_fibs_equal_players_one_point() -> None:
    # D = 0: P = 1/2; K = 5 for newcomers: change = 4 * 5 * 1 * 0.5 = 10.
    w, lo = ratings.update(ratings.Rating(), ratings.Rating(), 1)
    assert w == ratings.Rating(1510.0, 1)
    assert lo == ratings.Rating(1490.0, 1)


@pytest.mark.parametrize("length", [1, 3, 7, 11])
def test_fibs_formula_against_the_definition(length: int) -> None:
    fav, dog = ratings.Rating(1700.0, 1000), ratings.Rating(1500.0, 50)
    p_upset = 1 / (10 ** (200 * math.sqrt(length) / 2000) + 1)
    # The underdog wins: he gains 4*K*sqrt(N)*P(he would have lost) = 4*4.5*sqrt(N)*(1-p_upset).
    new_dog, new_fav = ratings.update(dog, fav, length)
    assert new_dog.rating == pytest.approx(1500 + 4 * 4.5 * math.sqrt(length) * (1 - p_upset))
    assert new_fav.rating == pytest.approx(1700 - 4 * 1.0 * math.sqrt(length) * (1 - p_upset))
    # The favourite wins: he gains 4*K*sqrt(N)*p_upset.
    won_fav, lost_dog = ratings.update(fav, dog, length)
    assert won_fav.rating == pytest.approx(1700 + 4 * 1.0 * math.sqrt(length) * p_upset)
    assert lost_dog.rating == pytest.approx(1500 - 4 * 4.5 * math.sqrt(length) * p_upset)
    assert won_fav.experience == 1000 + length and lost_dog.experience == 50 + length

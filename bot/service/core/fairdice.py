"""Provably fair dice.

At the start of a game the host draws a secret 32-byte seed from the
operating system's CSPRNG (:func:`secrets.token_bytes`) and publishes
``SHA-256(seed)``.  Die number ``n`` (0, 1, 2, ... in the order the game uses
them) is derived as::

    for attempt in 0, 1, 2, ...:
        digest = HMAC-SHA256(key=seed, msg=f"{n}:{attempt}")
        for byte in digest:
            if byte < 252:            # 252 = 6 * 42: rejection sampling keeps
                return 1 + byte % 6   # all six faces exactly equally likely

When the game ends the seed is revealed, so anyone can recompute every roll
and compare with the game record (:func:`verify`; also
``python -m bot.service.core.fairdice SEED_HEX HASH_HEX N`` prints the first N dice).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import sys
from collections.abc import Sequence
from typing import Protocol


def new_seed() -> str:
    """A fresh secret seed, hex encoded."""
    return secrets.token_bytes(32).hex()


def seed_hash(seed_hex: str) -> str:
    """The published commitment to ``seed_hex``."""
    return hashlib.sha256(bytes.fromhex(seed_hex)).hexdigest()


def die(seed_hex: str, index: int) -> int:
    """Die number ``index`` of the game with this seed."""
    key = bytes.fromhex(seed_hex)
    attempt = 0
    while True:
        digest = hmac.new(key, f"{index}:{attempt}".encode(), hashlib.sha256).digest()
        for byte in digest:
            if byte < 252:
                return 1 + byte % 6
        attempt += 1  # pragma: no cover - needs 32 bytes >= 252 in a row


class DiceStream(Protocol):
    """The dice of one game: ``die()`` draws the next, ``drawn`` counts them."""

    drawn: int

    def die(self) -> int: ...


class SeededDice:
    """A :class:`engine.dice.DiceSource` drawing dice ``start``, ``start+1``, ... of a seed."""

    def __init__(self, seed_hex: str, start: int = 0) -> None:
        self.seed = seed_hex
        self.drawn = start

    def die(self) -> int:
        value = die(self.seed, self.drawn)
        self.drawn += 1
        return value


def verify(seed_hex: str, published_hash: str, dice: Sequence[int]) -> list[str]:
    """Check a revealed seed against its hash and the dice a game used.

    Returns a list of problems (empty when everything matches).
    """
    problems: list[str] = []
    if seed_hash(seed_hex) != published_hash.lower():
        problems.append("the seed does not match the hash published at the start of the game")
    for index, value in enumerate(dice):
        expected = die(seed_hex, index)
        if expected != value:
            problems.append(f"die {index + 1} was {value} but the seed gives {expected}")
    return problems


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 3:
        print("usage: python -m bot.service.core.fairdice SEED_HEX HASH_HEX N", file=sys.stderr)
        return 2
    seed, published, count = args
    try:
        n = int(count)
        ok = seed_hash(seed) == published.lower()
    except ValueError:
        print("SEED_HEX and HASH_HEX must be hexadecimal, N a number", file=sys.stderr)
        return 2
    print("hash matches" if ok else "HASH DOES NOT MATCH")
    print(" ".join(str(die(seed, i)) for i in range(n)))
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())

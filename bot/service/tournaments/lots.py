"""Recompute a tournament's seeding from its revealed lot seed (issue 30 item 13).

The start message of every tournament reveals the lot seed whose SHA-256 the sign-up
message published, and gives this command with the entrants in sign-up order and their
ratings as they stood at the start (``unrated`` for a player with no rated match)::

    python -m bot.service.tournaments.lots SEED HASH alice=1512.25 bob=unrated carol=unrated

It checks the seed against the published hash, seeds the field as the bot does
(:func:`engine.tournament.seeding.seed_entrants`: by rating, ties by lot, the lots drawn from
the seed with :class:`bot.service.core.fairdice.SeededDice`) and prints the seeds and the
lots each player drew.
"""

from __future__ import annotations

import shlex
import sys
from collections.abc import Sequence

from bot.service.core import fairdice
from engine.tournament.seeding import Entrant, Seed, seed_entrants

USAGE = "usage: python -m bot.service.tournaments.lots SEED HASH NAME=RATING|unrated ..."


def argument(entrant: Entrant) -> str:
    """One entrant as the command takes it (quoted for a shell)."""
    rating = "unrated" if entrant.rating is None else repr(entrant.rating)
    return shlex.quote(f"{entrant.display}={rating}")


def command(seed: str, seed_hash: str, entrants: Sequence[Entrant]) -> str:
    """The command line that recomputes the seeding of ``entrants`` (sign-up order)."""
    return (f"python -m bot.service.tournaments.lots {seed} {seed_hash} "
            + " ".join(argument(e) for e in entrants))


def reseed(seed: str, entrants: Sequence[Entrant]) -> tuple[tuple[Seed, ...], int]:
    """The seeds of ``entrants`` from the lot ``seed``, and how many dice were drawn."""
    dice = fairdice.SeededDice(seed)
    seeds = seed_entrants(entrants, dice.die)
    return seeds, dice.drawn


def parse(words: Sequence[str]) -> list[Entrant]:
    out = []
    for i, word in enumerate(words, 1):
        name, eq, rating = word.rpartition("=")
        if not eq or not name:
            raise ValueError(f"entrant {i} is {word!r}: write NAME=RATING or NAME=unrated")
        out.append(Entrant(str(i), name, None if rating == "unrated" else float(rating)))
    return out


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) < 3:
        print(USAGE, file=sys.stderr)
        return 2
    seed, published, *rest = args
    try:
        entrants = parse(rest)
        matches = fairdice.seed_hash(seed) == published.lower()
    except ValueError as error:
        print(f"{error}\n{USAGE}", file=sys.stderr)
        return 2
    print("hash matches" if matches else "HASH DOES NOT MATCH")
    seeds, drawn = reseed(seed, entrants)
    for s in seeds:
        lots = f"  lots {' '.join(map(str, s.lots))}" if s.lots else ""
        rating = "unrated" if s.entrant.rating is None else f"{s.entrant.rating:.0f}"
        print(f"{s.seed}. {s.entrant.display} ({rating}){lots}")
    print(f"{drawn} dice drawn from the seed")
    return 0 if matches else 1


if __name__ == "__main__":
    raise SystemExit(main())

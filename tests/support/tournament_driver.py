"""Drives tournaments with random results for the tournament tests (engine/tournament)."""

from __future__ import annotations

import random

from engine.tournament import (
    Entrant,
    Format,
    LastPlayerError,
    MatchLengths,
    Reason,
    TournamentConfig,
    TournamentState,
)


def field(n: int, rng: random.Random, ratings: bool = True) -> list[Entrant]:
    """``n`` entrants, some rated (with repeated ratings, so lots are drawn), some not."""
    choices: list[float | None] = [None, 1450.0, 1500.0, 1500.0, 1620.5] if ratings else [None]
    return [Entrant(f"u{i}", f"Player {i}", rng.choice(choices)) for i in range(n)]


def start(fmt: Format, n: int, seed: int = 0, **config: object) -> TournamentState:
    rng = random.Random(seed)
    cfg = TournamentConfig(fmt, MatchLengths(5, final=7), **config)  # type: ignore[arg-type]
    return TournamentState.start(cfg, field(n, rng), lambda: rng.randint(1, 6))


def step(state: TournamentState, rng: random.Random, removals: float = 0.0) -> TournamentState:
    """One event: usually a result for a random pending match, sometimes a forfeit or an
    organiser's result, and with probability ``removals`` the removal of a player."""
    pairing = rng.choice(state.pending)
    if removals and rng.random() < removals:
        try:
            return state.remove_player(rng.choice(pairing.players))
        except LastPlayerError:
            pass
    winner = rng.choice(pairing.players)
    kind = rng.random()
    if kind < 0.1:
        return state.record_result(pairing.id, winner, reason=Reason.FORFEIT)
    if kind < 0.15:
        return state.record_result(pairing.id, winner, (2, 1), Reason.ORGANISER)
    score = (pairing.length + rng.randint(0, 2), rng.randint(0, pairing.length - 1))
    return state.record_result(pairing.id, winner, score)


def play_out(state: TournamentState, rng: random.Random, removals: float = 0.0,
             snapshots: list[TournamentState] | None = None) -> TournamentState:
    while not state.finished:
        state = step(state, rng, removals)
        if snapshots is not None:
            snapshots.append(state)
    return state

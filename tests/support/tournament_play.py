"""Drives tournaments through :class:`bot.service.game.GameService` for the service,
console and race tests: players, the organiser, opening every pairing in its own channel,
and ending a match quickly (a 1-point match ends when one side resigns and the other
accepts; a forfeit ends it at once)."""

from __future__ import annotations

from typing import Any

from bot.service.core.replies import Reply
from bot.service.core.values import Actor, Place
from bot.service.game import GameService
from bot.storage.interface import MatchRow, TournamentRow

GUILD = 7
HALL = Place(GUILD, 70)
"""Where the tournament is created (its sign-up message)."""
ORGANISER = Actor(100, "org")
CHANNEL_BASE = 1000


def player(i: int) -> Actor:
    return Actor(i, f"p{i}")


async def create(service: GameService, n: int, fmt: str, length: str = "1",
                 **options: Any) -> int:
    """A tournament with players 1..n signed up; its id."""
    made = await service.tournament_create(HALL, ORGANISER, is_organiser=True, name="Cup",
                                           format=fmt, length=length, **options)
    assert made.ok, made.text
    assert made.tournament_id is not None
    for i in range(1, n + 1):
        joined = await service.tournament_join(HALL, player(i), made.tournament_id)
        assert joined.ok, joined.text
    return made.tournament_id


async def open_all(service: GameService) -> list[Reply]:
    """Open every pairing waiting for a place, each in a new channel."""
    replies = []
    for opening in await service.tournament_openings():
        channel = CHANNEL_BASE + int(opening.pairing.split("-")[0][1:]) * 100 + int(
            opening.pairing.split("-")[1]) + 10_000 * opening.tournament_id
        reply = await service.tournament_open(opening, Place(opening.guild_id, channel))
        assert reply.ok, reply.text
        replies.append(reply)
    return replies


async def row(service: GameService, tournament: int) -> TournamentRow:
    async with service.storage.snapshot() as tx:
        found = await tx.get_tournament(tournament)
    assert found is not None
    return found


async def matches(service: GameService, tournament: int) -> dict[str, MatchRow]:
    async with service.storage.snapshot() as tx:
        return await tx.tournament_matches(tournament)


async def open_matches(service: GameService, tournament: int) -> dict[str, MatchRow]:
    return {p: m for p, m in (await matches(service, tournament)).items() if m.status.is_open}


async def finish(service: GameService, match: MatchRow, winner: int, *,
                 forfeit: bool = False) -> Reply:
    """End ``match`` with ``winner`` winning: the loser forfeits, or resigns (as soon as
    it is his turn to act) and the winner accepts."""
    place = Place(match.guild_id, match.channel_id)
    loser_id = match.black_id if winner == match.white_id else match.white_id
    loser, won = player(loser_id), player(winner)
    if forfeit:
        reply = await service.forfeit(place, loser)
        assert reply.ok, reply.text
        return reply
    for _ in range(200):
        reply = await service.resign(place, loser, "single")
        if reply.ok:
            answer = await service.answer_resignation(place, won, True)
            assert answer.ok, answer.text
            return answer
        # Not the loser's turn: the winner plays his roll (the first legal play).
        board = await service.board(place, won)
        choices = await service.suggestions(place, won, "")
        moved = await service.move(place, won, choices[0] if choices else "")
        if not moved.ok:
            rolled = await service.roll(place, won)
            assert rolled.ok or board.ok, (moved.text, rolled.text)
    raise AssertionError("the match did not end")


async def play_round(service: GameService, tournament: int,
                     winner_of: Any = min) -> None:
    """Open the waiting pairings and end every open match (``winner_of`` the two ids)."""
    await open_all(service)
    for match in (await open_matches(service, tournament)).values():
        await finish(service, match, winner_of(match.white_id, match.black_id))


async def play_out(service: GameService, tournament: int, winner_of: Any = min,
                   limit: int = 100) -> TournamentRow:
    for _ in range(limit):
        current = await row(service, tournament)
        if current.status.value != "running":
            return current
        await play_round(service, tournament, winner_of)
    raise AssertionError("the tournament did not end")

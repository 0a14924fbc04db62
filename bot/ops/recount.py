"""``check``'s recount: the money and the ratings recomputed from the games' records and
compared with what the database stores (issue 43 item 9), so a ledger amount or a rating
changed by hand (or by a bug) is named.

**Money.**  Every game's ledger rows add up to zero, in points and in amounts; each row's
amount is its points times the match's stake (within one unit: a chouette's fractional
share is rounded, :func:`engine.chouette.apportion`); and a two-player money game's rows
are exactly what its replayed result gives: the winner ``+points`` and ``+points x stake``,
the loser the opposite (:func:`bot.service.play.endings.Endings.finish`, bounded as it
bounds them).  A finished money game with a result and no ledger row is named too.

**Ratings.**  Every rating is recomputed from 1500 (:mod:`bot.service.records.ratings`)
by replaying the rated results in the order they were rated (``rating_history``, written
winner first for each result): a rated match's winner (its record's) at its length, and
each game of a rated money session as a 1-point match.  Each history row must be what
the recount gives, and each player's stored rating and experience the recount's end.
"""

from __future__ import annotations

import sqlite3
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from bot.service.core import money
from bot.service.records import ratings
from bot.storage.interface import GameRow, MatchRow
from engine.player import Player
from engine.scoring import Result
from engine.words import counted

TOLERANCE = 1e-6
"""How far a stored rating may be from the recount's (floating point)."""
LIMIT = 20
"""Differences named per kind at most (the count says how many more)."""


@dataclass(frozen=True, slots=True)
class Played:
    """A game as ``check`` replayed it: its match, its row and its replayed result (None:
    not over, or ended without a result)."""

    match: MatchRow
    game: GameRow
    result: Result | None


def winner_of(played: Played) -> int | None:
    """The user id who won the game by its record."""
    if played.result is None:
        return None
    row = played.match
    return row.white_id if played.result.winner is Player.WHITE else row.black_id


def recount(db: sqlite3.Connection, games: Mapping[int, Played]) -> list[str]:
    """What the stored money and ratings get wrong, by the games' records ``games`` (by
    game id, every game of the database, replayed)."""
    return capped(check_money(db, games)) + capped(check_ratings(db, games))


def capped(problems: list[str]) -> list[str]:
    if len(problems) <= LIMIT:
        return problems
    return [*problems[:LIMIT], f"... and {len(problems) - LIMIT} more like these"]


# -- money ---------------------------------------------------------------------------------


def check_money(db: sqlite3.Connection, games: Mapping[int, Played]) -> list[str]:
    out: list[str] = []
    by_game: dict[int, list[tuple[int, int, Fraction, int]]] = defaultdict(list)
    for rid, user, game_id, points, den, amount in db.execute(
            "SELECT id, user_id, game_id, points, points_den, amount FROM ledger "
            "WHERE game_id IS NOT NULL ORDER BY id"):
        by_game[int(game_id)].append((int(rid), int(user), Fraction(int(points), int(den)),
                                      int(amount)))
    for game_id, rows in by_game.items():
        played = games.get(game_id)
        if played is None:
            out.append(f"ledger rows {', '.join(str(r[0]) for r in rows)}: game {game_id} "
                       "does not exist")
            continue
        out += _money_of_game(played, rows)
    for game_id, played in games.items():
        if (game_id not in by_game and played.result is not None and played.match.length == 0
                and played.match.chouette_id is None):
            out.append(f"{where(played)}: a finished money game with no ledger rows (the "
                       f"record gives {counted(played.result.points, 'point')} to user "
                       f"{winner_of(played)})")
    return out


def _money_of_game(played: Played, rows: list[tuple[int, int, Fraction, int]]) -> list[str]:
    out: list[str] = []
    stake = played.match.stake
    if sum(r[2] for r in rows) != 0 or sum(r[3] for r in rows) != 0:
        out.append(f"{where(played)}: its ledger rows do not add up to zero (points "
                   f"{sum(r[2] for r in rows)}, amounts {sum(r[3] for r in rows)})")
    for rid, user, points, amount in rows:
        exact = points * stake
        if abs(amount - exact) >= 1 and amount != money.clamp(int(exact)):
            out.append(f"ledger row {rid} ({where(played)}, user {user}): amount {amount}, "
                       f"but {counted(points, 'point')} at a stake of {stake} make {exact}")
    if played.match.chouette_id is not None or played.match.length != 0:
        return out
    result = played.result
    if result is None:
        out.append(f"{where(played)}: ledger rows for a game its record does not finish")
        return out
    row = played.match
    winner, loser = ((row.white_id, row.black_id) if result.winner is Player.WHITE
                     else (row.black_id, row.white_id))
    won, amount = money.clamp(result.points), money.clamp(result.points * stake)
    expected = {winner: (Fraction(won), amount), loser: (Fraction(-won), -amount)}
    stored = {user: (p, a) for _, user, p, a in rows}
    for user in sorted(set(expected) | set(stored)):
        if stored.get(user) != expected.get(user):
            out.append(f"{where(played)}: user {user}'s ledger is {_money(stored.get(user))}, "
                       f"the game's record gives {_money(expected.get(user))}")
    return out


def _money(entry: tuple[Fraction, int] | None) -> str:
    if entry is None:
        return "nothing"
    return f"{counted(entry[0], 'point')}, amount {entry[1]}"


def where(played: Played) -> str:
    return f"match {played.match.id} game {played.game.number} (id {played.game.id})"


# -- ratings -------------------------------------------------------------------------------


def check_ratings(db: sqlite3.Connection, games: Mapping[int, Played]) -> list[str]:
    out: list[str] = []
    matches = {p.match.id: p.match for p in games.values()}
    rated_games: dict[int, list[Played]] = defaultdict(list)  # a money session's, in order
    for played in sorted(games.values(), key=lambda p: (p.match.id, p.game.number)):
        if played.match.length == 0 and played.result is not None:
            rated_games[played.match.id].append(played)
    history = [(int(r[0]), int(r[1]), int(r[2]), int(r[3]), float(r[4]), float(r[5]),
                int(r[6])) for r in db.execute(
        "SELECT id, guild_id, user_id, match_id, before, after, experience "
        "FROM rating_history ORDER BY id")]
    now: dict[tuple[int, int], ratings.Rating] = defaultdict(ratings.Rating)
    seen_money: dict[int, int] = defaultdict(int)
    wrong: set[tuple[int, int]] = set()  # (guild, user) already named: the first only
    index = 0
    while index < len(history):
        first = history[index]
        second = history[index + 1] if index + 1 < len(history) else None
        if second is None or second[3] != first[3] or second[1] != first[1]:
            out.append(f"rating_history row {first[0]}: a rating change of match {first[3]} "
                       "without its opponent's")
            index += 1
            continue
        index += 2
        match = matches.get(first[3])
        if match is None:
            out.append(f"rating_history rows {first[0]}, {second[0]}: match {first[3]} has no "
                       "games")
            continue
        winner, length = _rated_result(match, rated_games, seen_money)
        if winner is None:
            out.append(f"rating_history rows {first[0]}, {second[0]}: match {match.id}'s "
                       "record has no rated result for them")
            continue
        if winner != first[2]:
            out.append(f"rating_history rows {first[0]}, {second[0]}: the record of match "
                       f"{match.id} makes user {winner} the winner, the history user "
                       f"{first[2]}")
            continue
        guild = first[1]
        w_key, l_key = (guild, first[2]), (guild, second[2])
        new_w, new_l = ratings.update(now[w_key], now[l_key], length)
        for row, key, new in ((first, w_key, new_w), (second, l_key, new_l)):
            old = now[key]
            if key not in wrong and (abs(row[4] - old.rating) > TOLERANCE
                                     or abs(row[5] - new.rating) > TOLERANCE
                                     or row[6] != new.experience):
                wrong.add(key)
                out.append(f"rating_history row {row[0]} (user {key[1]}, server {guild}, "
                           f"match {match.id}): {row[4]:.2f} -> {row[5]:.2f} (experience "
                           f"{row[6]}), the games' records give {old.rating:.2f} -> "
                           f"{new.rating:.2f} (experience {new.experience})")
            now[key] = new
    stored = {(int(g), int(u)): ratings.Rating(float(r), int(e)) for g, u, r, e in db.execute(
        "SELECT guild_id, user_id, rating, experience FROM ratings ORDER BY guild_id, user_id")}
    for key in sorted(set(stored) | set(now)):
        have = stored.get(key, ratings.Rating())
        want = now.get(key, ratings.Rating())
        if abs(have.rating - want.rating) > TOLERANCE or have.experience != want.experience:
            out.append(f"rating of user {key[1]} (server {key[0]}): stored {have.rating:.2f} "
                       f"(experience {have.experience}), the games' records give "
                       f"{want.rating:.2f} (experience {want.experience})")
    return out


def _rated_result(match: MatchRow, rated_games: Mapping[int, list[Played]],
                  seen_money: dict[int, int]) -> tuple[int | None, int]:
    """The winner and the length of the next rated result of ``match`` by its record: the
    match's winner at its length, or a money session's next game at 1 point."""
    if match.length >= 1:
        return match.winner_id, match.length
    done = seen_money[match.id]
    seen_money[match.id] += 1
    played = rated_games.get(match.id, [])
    if done >= len(played):
        return None, 1
    return winner_of(played[done]), 1

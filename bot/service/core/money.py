"""Money bounds: every money game can end, and every total can be read.

The ledger's points and amounts are signed 64-bit integers on both backends, and
SQLite's ``SUM`` fails as soon as a partial sum leaves that range.  Two bounds keep
every write and every read inside it (README "Money and limits"):

* **A game settles at most** :data:`MAX_GAME_AMOUNT` **per player** (points, and points
  times the stake).  Money play therefore gets a highest cube: the largest power of
  two whose worst result (a backgammon, or every checker counted at the highest
  weight of a checker scoring method; in a chouette, against every player of the
  team) stays within the bound at the stake.  It is the match's ``max_cube`` (the
  lower of the players' own and this one), so doubles, beavers and automatic
  doubles all stop there, and a double past it is refused saying why.
* **A player's money turnover** (the sum of the absolute amounts in his ledger rows
  of a server) stays at most :data:`MAX_TURNOVER` when a game starts: a money game
  is not started for a player past it.  A game in progress adds at most
  :data:`MAX_GAME_AMOUNT`, so a player would need 2**22 games in progress at once
  to take a partial sum of his rows past 2**63 - 1.  Every partial sum of a
  player's rows, in any order, is bounded by his turnover, so ``/leaderboard``,
  ``/stats``, ``/chouette status`` always read.

A player reaches the turnover bound after more than four million games at the
highest amount; until then nothing of this shows but the cube's cap.
"""

from __future__ import annotations

from dataclasses import replace

from bot.service.core.replies import Refusal
from bot.service.core.work import Work
from bot.storage.interface import Transaction
from engine.rules import RuleOptions, ScoringMethod

MAX_GAME_AMOUNT = 2**40
"""The most one player wins or loses in one money game (1,099,511,627,776), in points
and in money."""
MAX_TURNOVER = 2**62
"""A money game starts only for players whose turnover (sum of absolute amounts) in the
server is at most this minus :data:`MAX_GAME_AMOUNT`."""
CHECKERS = 15
HIGHEST_WEIGHT = 8
"""A checker's highest weight in any checker scoring method (003 ch.6 II Method 2)."""


def points_per_cube(rules: RuleOptions) -> int:
    """An upper bound on a game's points for each unit of the cube."""
    if rules.scoring is ScoringMethod.GAMES:
        return rules.backgammon_value
    return 4 * CHECKERS * HIGHEST_WEIGHT  # a backgammon's multiplier times every checker


def cube_cap(stake: int, rules: RuleOptions, against: int = 1) -> int:
    """The highest cube of money play at ``stake`` a point when one player's result
    counts against ``against`` players (a chouette's box against his team)."""
    per_cube = points_per_cube(rules) * max(stake, 1) * max(against, 1)
    cap = 1
    while cap * 2 * per_cube <= MAX_GAME_AMOUNT:
        cap *= 2
    return cap


def capped(rules: RuleOptions, stake: int, against: int = 1) -> RuleOptions:
    """``rules`` with ``max_cube`` at most :func:`cube_cap` (money play)."""
    cap = cube_cap(stake, rules, against)
    if cap < 2:
        return replace(rules, cube=False, beavers=False, jacoby=False)
    if rules.max_cube is not None and rules.max_cube <= cap:
        return rules
    return replace(rules, max_cube=cap)


def check_cube(value: int, stake: int, rules: RuleOptions, against: int = 1) -> None:
    """Refuse a cube of ``value`` in money play at ``stake`` past the money bound."""
    cap = cube_cap(stake, rules, against)
    if value > cap:
        at = f" at {stake} a point" if stake else ""
        raise Refusal(f"The cube can't go to {value}: in money play{at} it stops at {cap}, "
                      f"so that no game settles more than {MAX_GAME_AMOUNT:,} per player. "
                      "Play on at the present cube.")


def clamp(amount: int) -> int:
    """``amount`` within the per-game bound (only a game made before the bound can pass it)."""
    return max(-MAX_GAME_AMOUNT, min(MAX_GAME_AMOUNT, amount))


def check_double(work: Work, value: int) -> None:
    """Refuse a cube of ``value`` in ``work``'s money game past the money bound."""
    row = work.row
    game = work.game
    if row.length or game is None:
        return
    chouette = work.state.chouette
    check_cube(value, row.stake, game.rules, chouette.options.cap if chouette else 1)


async def turnover_reached(tx: Transaction, guild_id: int, users: list[int]) -> list[int]:
    """The players (of ``users``) whose turnover leaves no room for another money game.
    Their rows are locked first (in id order) so the check holds across processes."""
    ids = sorted(set(users))
    await tx.lock_players(guild_id, ids)
    return [u for u in ids
            if await tx.money_turnover(guild_id, u) > MAX_TURNOVER - MAX_GAME_AMOUNT]


def limit_text(names: list[str]) -> str:
    return (f"{' and '.join(names)} reached this server's money limit (a ledger turnover of "
            f"{MAX_TURNOVER:,}): no more money games for "
            f"{'them' if len(names) > 1 else 'this player'} here; a match (length) is "
            "still open to everyone.")

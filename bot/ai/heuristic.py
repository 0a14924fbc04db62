"""A simple, documented heuristic player for every variant.

bgsage's network only knows standard backgammon.  For the variants
(Acey-Deucey, Russian, French...) the bot plays with this heuristic, which is
clearly **weaker** than the network (the /rules text should say so).  It is
also the baseline opponent of the strength benchmark.

Checker play: every legal play of the stage is scored by the position it
produces, from the mover's side, and the best score is played (ties: the
first in the engine's order).  The score adds

* **pip count**: ``opponent's pips - my pips`` (checkers on the bar or not yet
  entered count 25; borne-off checkers 0);
* **safety**: for each of my blots the opponent could hit (only while there is
  contact), minus the chance of being hit (direct and indirect shots from the
  standard 36-roll table) times the pips the blot would lose, plus a tempo
  penalty; worse when the opponent's home board is strong;
* **blocking**: points I hold (two or more checkers) in front of the
  opponent's checkers, plus a bonus growing with the square of my longest
  run of held points (a prime);
* **entering**: opponent checkers on the bar are worth more the more points
  of my home board I hold; held home-board points are a small bonus anyway;
* **stacking**: a small penalty for each checker beyond the third on a point.

The geometry comes from :attr:`Variant.opposite`, so the same code handles
variants where both players move in the same direction (Russian).

Choices (a doublet after acey-deucy, play or throw again): each option is
tried, the rest of the turn is played greedily with the rule above, and the
best resulting position is chosen.

The cube (a simple race rule): it doubles only when there is no contact and
its pip-count lead is at least 10% of its own count (and, if the cube is
already owned, at least 12%); it takes unless the position is a race in which
the doubler leads by more than 15%.  In contact it never doubles and always
takes.  Resignations: it accepts a resignation in a race where it leads by
more than 30% of its pip count, and a gammon or backgammon resignation only if
the resigner has borne off nothing and trails by more than 60 pips.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.game import Game, Phase
from engine.player import Player
from engine.position import BAR, OFF, WAITING, Position
from engine.scoring import ResultKind
from engine.variant import Variant

# Rolls out of 36 that hit a blot at distance d with no blocking (d = 1..12).
SHOTS = {1: 11, 2: 12, 3: 14, 4: 15, 5: 15, 6: 17, 7: 6, 8: 6, 9: 5, 10: 3, 11: 2, 12: 3}

W_BLOT = 1.0
HIT_TEMPO = 4.0
W_BLOCK = 2.0
W_PRIME = 0.6
W_HOME = 1.5
W_BAR = 5.0
W_STACK = 0.5
W_OFF = 0.5


def _inverse(opposite: Sequence[int]) -> list[int]:
    inv = [0] * 25
    for i in range(1, 25):
        inv[opposite[i]] = i
    return inv


def contact(position: Position, me: Player, variant: Variant) -> bool:
    """True while a checker of either side can still land on the other's."""
    opposite = variant.opposite
    inv = _inverse(opposite)
    mine, theirs = position.sides[me], position.sides[me.other]
    my_high = max((i for i in range(1, WAITING + 1) if mine[i]), default=0)
    their_high = max((j for j in range(1, WAITING + 1) if theirs[j]), default=0)
    # One of my checkers behind an opponent's checker (in my numbering) can hit it.
    if any(theirs[j] and inv[j] < my_high for j in range(1, 25)):
        return True
    return any(mine[i] and opposite[i] < their_high for i in range(1, 25))


def race_lead(position: Position, me: Player) -> float:
    """My pip-count lead as a fraction of my own count (positive: I am ahead)."""
    my_pips = position.pip_count(me)
    their_pips = position.pip_count(me.other)
    return (their_pips - my_pips) / max(my_pips, 1)


def score(position: Position, me: Player, variant: Variant) -> float:
    """How good ``position`` is for ``me`` with the opponent to roll (higher is better)."""
    opp = me.other
    mine, theirs = position.sides[me], position.sides[opp]
    opposite = variant.opposite
    total = float(position.pip_count(opp) - position.pip_count(me))
    total += W_OFF * (mine[OFF] - theirs[OFF])
    in_contact = contact(position, me, variant)
    if not in_contact:
        return total
    # Where the opponent's checkers stand, in his own numbering (bar and
    # not-yet-entered checkers shoot from 25).
    shooters = [j for j in range(1, 25) if theirs[j]]
    if theirs[BAR] or theirs[WAITING]:
        shooters.append(BAR)
    their_home = sum(1 for j in range(1, 7) if theirs[j] >= 2)
    danger = 1.0 + their_home / 6.0
    for i in range(1, 25):
        if mine[i] == 1:
            k = opposite[i]
            distances = {j - k for j in shooters if 0 < j - k <= 12}
            if not distances:
                continue
            p_hit = min(1.0, sum(SHOTS[d] for d in distances) / 36.0)
            total -= W_BLOT * p_hit * ((BAR - i) + HIT_TEMPO) * danger
        elif mine[i] > 3:
            total -= W_STACK * (mine[i] - 3)
    # Blocking: my held points in front of the opponent's rearmost checker.
    their_back = max((j for j in range(1, WAITING + 1) if theirs[j]), default=0)
    held = [i for i in range(1, 25) if mine[i] >= 2]
    total += W_BLOCK * sum(1 for i in held if opposite[i] < their_back)
    run = best = 0
    for i in range(1, 25):
        run = run + 1 if mine[i] >= 2 else 0
        best = max(best, run)
    total += W_PRIME * best * best
    my_home = sum(1 for i in range(1, 7) if mine[i] >= 2)
    total += W_HOME * my_home
    waiting_opp = theirs[BAR]
    total += W_BAR * waiting_opp * (1.0 + my_home / 3.0)
    return total


def choose_play(game: Game, rng: random.Random | None = None, noise: float = 0.0) -> int:
    """Index into ``game.legal_plays()`` of the best play by :func:`score`.

    ``noise`` (pips, optional) is added to each score from ``rng``.
    """
    plays = game.legal_plays()
    if not plays:
        raise ValueError("no play is awaited")
    mover = game.turn
    assert mover is not None
    best_i, best_s = 0, float("-inf")
    for i, play in enumerate(plays):
        s = score(play.position, mover, game.variant)
        if noise and rng is not None:
            s += rng.gauss(0.0, noise)
        if s > best_s:
            best_i, best_s = i, s
    return best_i


def _finish_turn(game: Game, mover: Player) -> Game:
    """Play the rest of ``mover``'s current throw greedily (choices: first option)."""
    for _ in range(16):
        if game.turn is not mover:
            break
        if game.phase is Phase.PLAY:
            game = game.play(game.legal_plays()[choose_play(game)], mover)
        elif game.phase is Phase.CHOICE:
            choice = game.pending_choice
            assert choice is not None
            game = game.choose(choice.options[0], mover)
        else:
            break
    return game


def choose_option(game: Game) -> str:
    """The option of the pending choice whose greedy continuation scores best."""
    choice = game.pending_choice
    mover = game.turn
    if choice is None or mover is None:
        raise ValueError("no choice is awaited")
    best, best_s = choice.options[0], float("-inf")
    for option in choice.options:
        after = _finish_turn(game.choose(option, mover), mover)
        s = score(after.position, mover, game.variant)
        if s > best_s:
            best, best_s = option, s
    return best


def should_double(game: Game, me: Player) -> bool:
    """The race rule: double in a race when leading by 10% (12% with the cube owned)."""
    if contact(game.position, me, game.variant):
        return False
    need = 0.10 if game.cube.owner is None else 0.12
    return race_lead(game.position, me) >= need


def should_take(game: Game, me: Player) -> bool:
    """Take unless it is a race in which the doubler leads by more than 15%."""
    doubler = me.other
    if contact(game.position, me, game.variant):
        return True
    return race_lead(game.position, doubler) <= 0.15


def accept_resignation(game: Game, me: Player, kind: ResultKind) -> bool:
    """Accept a resignation only when the game is clearly won (see the module doc)."""
    pos = game.position
    resigner = me.other
    if kind is ResultKind.SINGLE:
        return not contact(pos, me, game.variant) and race_lead(pos, me) > 0.30
    return pos.off(resigner) == 0 and pos.pip_count(resigner) - pos.pip_count(me) > 60

"""Match play to N points and money sessions, as immutable values.

A :class:`Match` or :class:`MoneySession` starts each game
(:meth:`Match.new_game`) and is updated from each finished game
(:meth:`Match.add_game`), returning a new value.

Match play (001 'RULES': "often played in matches, where victory is awarded
to the first player to reach a certain number of points"):

* the **Crawford game** is the single game after a player first reaches
  ``length - 1`` points; the cube is dead in it (rule option ``crawford``,
  on by default).  It happens at most once a match; the games after it are
  "post-Crawford" and the cube is live again;
* the Jacoby rule and beavers are money-play rules (002 'OPTIONAL RULES'
  presents them for play "for an agreed stake per point"); a match with
  either set is refused with :class:`~engine.errors.RuleOptionError`;
* the match ends when a player has ``length`` points or more.

Money sessions are consecutive games at ``stake`` per point with running
totals.

With the rule option ``winner_throws_first`` (003 ch.3 VII, end) the winner
of a single game throws first in the next game; after a gammon or
backgammon both throw again.  Otherwise every game starts with the opening
throw.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.errors import RuleOptionError, WrongPhaseError
from engine.game import Game
from engine.player import Player
from engine.rules import DEFAULT_RULES, RuleOptions
from engine.scoring import Result, ResultKind
from engine.variant import StandardBackgammon, Variant, get_variant

_STANDARD: Variant = StandardBackgammon()


def _variant(variant: Variant | type[Variant] | str) -> Variant:
    if isinstance(variant, Variant):
        return variant
    if isinstance(variant, str):
        return get_variant(variant)()
    return variant()


def _next_first(rules: RuleOptions, result: Result) -> Player | None:
    if rules.winner_throws_first and result.kind is ResultKind.SINGLE:
        return result.winner
    return None


def _result_of(game: Game | Result) -> Result:
    if isinstance(game, Result):
        return game
    if game.result is None:
        raise WrongPhaseError("The game is not finished yet.")
    return game.result


@dataclass(frozen=True, slots=True)
class Match:
    """A match to ``length`` points."""

    length: int
    rules: RuleOptions = DEFAULT_RULES
    variant: Variant = _STANDARD
    score: tuple[int, int] = (0, 0)
    results: tuple[Result, ...] = ()
    crawford_game: bool = False
    """The next (or current) game is the Crawford game."""
    crawford_done: bool = False
    """The Crawford game has been played (or the rule is off)."""
    next_first: Player | None = None
    forfeited_by: Player | None = None

    @classmethod
    def new(cls, length: int, rules: RuleOptions = DEFAULT_RULES,
            variant: Variant | type[Variant] | str = StandardBackgammon) -> Match:
        if not isinstance(length, int) or length < 1:
            raise RuleOptionError("A match is played to 1 point or more.")
        if rules.jacoby:
            raise RuleOptionError("The Jacoby rule applies to money play only, not to matches.")
        if rules.beavers:
            raise RuleOptionError("Beavers are a money-play rule; they are not used in matches.")
        return cls(length=length, rules=rules, variant=_variant(variant),
                   crawford_done=not rules.crawford)

    # -- queries ----------------------------------------------------------------

    @property
    def winner(self) -> Player | None:
        if self.forfeited_by is not None:
            return self.forfeited_by.other
        for p in Player:
            if self.score[p] >= self.length:
                return p
        return None

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def post_crawford(self) -> bool:
        """A game after the Crawford game (the cube is live again)."""
        return self.crawford_done and self.rules.crawford and not self.crawford_game and any(
            s == self.length - 1 for s in self.score)

    def away(self, player: Player) -> int:
        """Points ``player`` still needs."""
        return max(0, self.length - self.score[player])

    # -- transitions --------------------------------------------------------------

    def new_game(self) -> Game:
        """The next game of the match (the Crawford game when it is due)."""
        if self.is_over:
            raise WrongPhaseError("The match is over.")
        return Game.new(self.variant, self.rules, money=False, crawford=self.crawford_game,
                        first_player=self.next_first)

    def add_game(self, game: Game | Result) -> Match:
        """The match after a finished game (its points go to the winner)."""
        if self.is_over:
            raise WrongPhaseError("The match is over.")
        result = _result_of(game)
        score = list(self.score)
        score[result.winner] += result.points
        new_score = (score[0], score[1])
        crawford_done = self.crawford_done or self.crawford_game
        crawford_game = False
        if (not crawford_done and all(s < self.length for s in new_score)
                and self.length - 1 in new_score):
            crawford_game = True
        return replace(self, score=new_score, results=(*self.results, result),
                       crawford_game=crawford_game, crawford_done=crawford_done,
                       next_first=_next_first(self.rules, result))

    def forfeit(self, player: Player) -> Match:
        """``player`` abandons the match; the opponent wins it."""
        if self.is_over:
            raise WrongPhaseError("The match is over.")
        return replace(self, forfeited_by=player)

    def describe(self) -> str:
        w, b = self.score
        text = f"{self.length}-point match: white {w}, black {b}"
        if self.is_over:
            assert self.winner is not None
            return text + f"; {self.winner.label} wins the match"
        if self.crawford_game:
            text += " (Crawford game)"
        elif self.post_crawford:
            text += " (post-Crawford)"
        return text


@dataclass(frozen=True, slots=True)
class MoneySession:
    """Consecutive games at ``stake`` per point, with running totals."""

    rules: RuleOptions = DEFAULT_RULES
    variant: Variant = _STANDARD
    stake: int = 1
    points: tuple[int, int] = (0, 0)
    """Points won by white and by black."""
    results: tuple[Result, ...] = ()
    next_first: Player | None = None

    @classmethod
    def new(cls, rules: RuleOptions = DEFAULT_RULES,
            variant: Variant | type[Variant] | str = StandardBackgammon,
            stake: int = 1) -> MoneySession:
        if not isinstance(stake, int) or stake < 0:
            raise RuleOptionError("The stake per point is a whole number, 0 or more.")
        return cls(rules=rules, variant=_variant(variant), stake=stake)

    def new_game(self) -> Game:
        return Game.new(self.variant, self.rules, money=True, first_player=self.next_first)

    def add_game(self, game: Game | Result) -> MoneySession:
        result = _result_of(game)
        points = list(self.points)
        points[result.winner] += result.points
        return replace(self, points=(points[0], points[1]), results=(*self.results, result),
                       next_first=_next_first(self.rules, result))

    def net(self, player: Player) -> int:
        """Net points of ``player`` (won minus lost)."""
        return self.points[player] - self.points[player.other]

    def balance(self, player: Player) -> int:
        """What ``player`` is up (positive) or down (negative) at the stake."""
        return self.net(player) * self.stake

    @property
    def games_played(self) -> int:
        return len(self.results)


Session = Match | MoneySession
"""What a match row plays: a match to N points, or a money session."""

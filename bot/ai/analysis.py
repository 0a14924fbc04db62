"""Hints and post-game analysis (pure, synchronous; run them in a worker).

* :func:`hint` -- the best plays for the current roll (top ``n`` with
  equities and win/gammon chances), or the cube advice before rolling (or for
  the player answering a double).
* :func:`analyze` -- replay a finished (or unfinished) game record and rate
  every decision of each player: average equity lost per decision, total, and
  the largest mistakes with the position and the better play.

Which decisions count (as GNU Backgammon does, roughly): every checker play
with more than one legal play; every double offered and every take/drop; and
each time a player rolled while he could have doubled, when doubling was right
or within 0.1 of right (a "close" no-double; clear no-doubles are not counted,
so they do not dilute the error rate).  Equities are bgsage's, normalised to a
1-point cube (EMG in a match), from the deciding player's side.

Depth: the level's, named on GNU Backgammon's scale in every text ("GNU 1-ply
(bgsage)" for the default, strong; :func:`bot.ai.levels.analysis_level`
gives the depths ``/analyze`` offers: ``strong`` and ``expert``, GNU 2-ply,
which ranks each play at 1-ply and the best few plus the play made at 2-ply).

Both work for standard backgammon only; for a variant :func:`hint` ranks plays
by the heuristic (no equities) and :func:`analyze` says it is unsupported.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.ai import heuristic, sage
from bot.ai.context import MatchContext
from bot.ai.convert import from_board, to_board
from bot.ai.levels import DEFAULT_LEVEL, EvalDepth, Level
from bot.ai.sage import Chances, CubeEval
from engine.dice import Dice
from engine.game import Game, Phase
from engine.move import Play
from engine.player import Player
from engine.record import DoubleOffered, Drop, GameRecord, PlayMade, Roll, Take
from engine.rules import RuleOptions

CLOSE_NO_DOUBLE = 0.1
"""A no-double counts as a decision when doubling was right or within this much."""


# -- hints -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayHint:
    play: Play
    text: str
    """The play in the variant's notation."""
    equity: float | None
    """Cubeful equity after the play, mover's side (None for the heuristic)."""
    equity_diff: float | None
    """Equity minus the best play's (0 for the best; None for the heuristic)."""
    chances: Chances | None


@dataclass(frozen=True, slots=True)
class CubeHint:
    """Cube advice, from the side of the player who may double (or was doubled)."""

    doubler: Player
    action: str
    """bgsage's verdict: "No Double", "Double/Take", "Double/Pass", "Double/Beaver"."""
    no_double: float
    double_take: float
    double_pass: float
    chances: Chances
    """Pre-roll chances of the doubler."""
    should_double: bool
    should_take: bool


@dataclass(frozen=True, slots=True)
class Hint:
    player: Player
    plays: tuple[PlayHint, ...] = ()
    cube: CubeHint | None = None
    source: str = ""
    note: str = ""


def hint(game: Game, context: MatchContext | None = None, n: int = 5,
         level: Level = DEFAULT_LEVEL) -> Hint:
    """Advice for ``game.awaiting``: plays (phase PLAY) or the cube (ROLL, DOUBLED).

    Who may ask (unrated games; rated ones only if both players enabled hints)
    is the caller's rule.  Raises :class:`ValueError` when nobody must act.
    """
    ctx = context or MatchContext.money()
    player = game.awaiting
    if player is None:
        raise ValueError("nobody has to act now")
    network = sage.uses_network(game)
    if game.phase is Phase.PLAY:
        if not network:
            return _heuristic_hint(game, player, n)
        return Hint(player, plays=tuple(_play_hints(game, ctx, level, keep=n)[:n]),
                    source=_source(level))
    if game.phase is Phase.ROLL:
        if not game.may_double(player):
            return Hint(player, note="You cannot double now: roll.")
        if not network:
            advice = "double" if heuristic.should_double(game, player) else "no double"
            return Hint(player, note=f"Heuristic advice: {advice}.", source="heuristic")
        ev = _cube(game, ctx, level, player, game.cube.value, game.cube.owner)
        return Hint(player, cube=_cube_hint(player, ev), source=_source(level))
    if game.phase is Phase.DOUBLED:
        offer = game.cube.offer
        assert offer is not None
        if not network or offer.beaver:
            take = heuristic.should_take(game, player) if not network else True
            return Hint(player, note=f"Advice: {'take' if take else 'pass'}.",
                        source="heuristic" if not network else "")
        ev = _cube(game, ctx, level, offer.doubler, game.cube.value, game.cube.owner)
        return Hint(player, cube=_cube_hint(offer.doubler, ev), source=_source(level))
    return Hint(player, note="No hint for this decision.")


def _heuristic_hint(game: Game, player: Player, n: int) -> Hint:
    ranked = sorted(game.legal_plays(),
                    key=lambda p: -heuristic.score(p.position, player, game.variant))
    plays = tuple(PlayHint(p, game.variant.format_play(p), None, None, None) for p in ranked[:n])
    return Hint(player, plays=plays, source="heuristic",
                note="The network does not know this variant: heuristic ranking (weaker).")


def _source(level: Level) -> str:
    """The depth on GNU Backgammon's scale, with the engine: ``"GNU 1-ply (bgsage)"``."""
    return f"{level.depth.label} (bgsage)"


def _play_hints(game: Game, ctx: MatchContext, level: Level, keep: int = sage.DEEP_KEEP,
                force: Sequence[Sequence[int]] = ()) -> list[PlayHint]:
    """The plays ranked at ``level``'s depth, best first.

    At GNU 2-ply (expert) every play is ranked at 1-ply and the ``keep`` best
    (within 0.08) plus the ``force`` boards (the play made, in an analysis) are
    ranked again at 2-ply, as GNU Backgammon's move filter does; only those are
    returned, so every equity listed is a 2-ply one.
    """
    me = game.turn
    dice = game.dice
    assert me is not None and dice is not None
    legal = {p.position: p for p in game.legal_plays()}
    cs = sage.cube_state(game, ctx, me)
    board = to_board(game.position, me)
    roll = (dice.first, dice.second)
    shallow = level.depth.shallower
    if level.depth is EvalDepth.PLY3 and shallow is not None:
        ranking = sage.deep_plays(board, roll, cs, shallow=shallow, deep=level.depth,
                                  keep=keep, force=force)
        cands = list(ranking.plays[:ranking.deep])
    else:
        cands = sage.checker_play(board, roll, level.depth, cs)
    out = []
    for c in cands:
        play = legal.get(from_board(c.board, me))
        if play is not None:
            out.append(PlayHint(play, game.variant.format_play(play), c.equity, 0.0, c.chances))
    if out:
        best = out[0].equity or 0.0
        out = [PlayHint(h.play, h.text, h.equity, (h.equity or 0.0) - best, h.chances)
               for h in out]
    return out


def _cube(game: Game, ctx: MatchContext, level: Level, doubler: Player, value: int,
          owner: Player | None) -> CubeEval:
    cs = sage.cube_state(game, ctx, doubler, value=value, owner=owner)
    return sage.cube_action(to_board(game.position, doubler), level.depth, cs)


def _cube_hint(doubler: Player, ev: CubeEval) -> CubeHint:
    return CubeHint(doubler, ev.optimal_action, ev.no_double, ev.double_take, ev.double_pass,
                    ev.chances, ev.should_double, ev.should_take)


# -- analysis --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Mistake:
    """One rated decision that lost equity."""

    player: Player
    event_index: int
    """Index in the record's events of the decision (replay up to it to redraw)."""
    before: Game
    """The game just before the decision (position, dice, cube: for the image)."""
    kind: str
    """"play", "double", "no double", "take", "drop"."""
    played: str
    best: str
    equity_lost: float
    dice: Dice | None


@dataclass(frozen=True, slots=True)
class PlayerAnalysis:
    player: Player
    decisions: int
    total_lost: float
    """Sum of equity lost over the counted decisions."""
    mistakes: tuple[Mistake, ...]
    """The largest mistakes, worst first."""
    checker_decisions: int = 0
    cube_decisions: int = 0

    @property
    def error_rate(self) -> float:
        """Average equity lost per decision."""
        return self.total_lost / self.decisions if self.decisions else 0.0


@dataclass(frozen=True, slots=True)
class DecisionPoint:
    """Where the game stood after one rated decision (for the analysis graph)."""

    event_index: int
    player: Player
    """Who decided; ``equity`` and ``win`` are from his side."""
    kind: str
    equity: float
    """Equity of the action taken (normalised, as ``equity_lost``)."""
    win: float
    """Winning chances: after the play, or before the roll for a cube decision."""
    lost: float
    mwc: float | None = None
    """In a match: the decider's match-winning chances after the decision (from the
    chances of each result and the match equity table, at the cube it leaves: cubeless);
    None in money play."""


@dataclass(frozen=True, slots=True)
class GameAnalysis:
    supported: bool
    players: tuple[PlayerAnalysis, PlayerAnalysis]
    source: str = ""
    note: str = ""
    timeline: tuple[DecisionPoint, ...] = ()
    """Every rated decision in order of play."""

    def of(self, player: Player) -> PlayerAnalysis:
        return self.players[player]

    def summary(self, names: Sequence[str] = ("White", "Black")) -> list[str]:
        """Plain-text lines (error rates in millipoints per decision)."""
        if not self.supported:
            return [self.note]
        lines = []
        for pa in self.players:
            lines.append(
                f"{names[pa.player]}: {pa.decisions} decisions, error rate "
                f"{pa.error_rate * 1000:.1f} mEMG/decision, total {pa.total_lost:.3f}")
            for m in pa.mistakes:
                lines.append(f"  {m.kind} ({m.dice or 'before rolling'}): played {m.played},"
                             f" better {m.best} (-{m.equity_lost:.3f})")
        if self.source:
            lines.append(f"Depth: {self.source}.")
        return lines


@dataclass
class _Tally:
    decisions: int = 0
    checker: int = 0
    cube: int = 0
    total: float = 0.0


def analyze(record: GameRecord, context: MatchContext | None = None,
            level: Level = DEFAULT_LEVEL, top: int = 3,
            min_mistake: float = 0.02) -> GameAnalysis:
    """Rate each player's decisions in ``record`` (see the module doc).

    ``context`` is the match score when the game started (money if omitted);
    ``top`` how many largest mistakes (losing at least ``min_mistake``) to keep.
    """
    ctx = context or MatchContext.money()
    game = Game.new(record.variant, RuleOptions.from_dict(record.rules), money=record.money,
                    crawford=record.crawford, first_player=record.first_player,
                    position=record.position)
    empty = (PlayerAnalysis(Player.WHITE, 0, 0.0, ()), PlayerAnalysis(Player.BLACK, 0, 0.0, ()))
    if not sage.uses_network(game):
        return GameAnalysis(False, empty, note="Analysis needs standard backgammon: the "
                            "network does not know this variant.")
    tallies = {p: _Tally() for p in Player}
    mistakes: dict[Player, list[Mistake]] = {p: [] for p in Player}
    src = _source(level)
    timeline: list[DecisionPoint] = []
    for idx, event in enumerate(record.events):
        rated = _rate(game, ctx, level, event) if sage.uses_network(game) else None
        if rated is not None:
            player, kind, lost, played, best, is_cube, equity, chances = rated
            timeline.append(DecisionPoint(idx, player, kind, equity, chances.win, lost,
                                          _mwc(ctx, player, chances, game, event)))
            t = tallies[player]
            t.decisions += 1
            t.total += lost
            if is_cube:
                t.cube += 1
            else:
                t.checker += 1
            if lost >= min_mistake:
                mistakes[player].append(Mistake(player, idx, game, kind, played, best, lost,
                                                game.dice if not is_cube else None))
        game = game.apply(event)
    players = tuple(
        PlayerAnalysis(p, tallies[p].decisions, tallies[p].total,
                       tuple(sorted(mistakes[p], key=lambda m: -m.equity_lost)[:top]),
                       tallies[p].checker, tallies[p].cube)
        for p in Player)
    return GameAnalysis(True, (players[0], players[1]), source=src, timeline=tuple(timeline))


EVEN = sage.Chances(0.5, 0.0, 0.0, 0.0, 0.0)
"""Chances when the network gave none."""


def _mwc(ctx: MatchContext, player: Player, chances: sage.Chances, game: Game,
         event: object) -> float | None:
    """``player``'s match-winning chances after his decision ``event`` (None in money
    play): each result's chance (single, gammon, backgammon, won or lost) times the match
    equity table at the score it leaves, with the cube the decision leaves (a drop: the
    loss of the cube as it stands)."""
    if ctx.is_money:
        return None
    me, opp = ctx.away(player), ctx.away(player.other)
    value = game.cube.value
    if isinstance(event, Drop):
        return sage.match_winning_chance(me, opp - value)
    if isinstance(event, (DoubleOffered, Take)):
        value *= 2
    c = chances
    results = ((c.win - c.gammon_win, value), (c.gammon_win - c.backgammon_win, 2 * value),
               (c.backgammon_win, 3 * value))
    losses = ((1.0 - c.win - c.gammon_loss, value), (c.gammon_loss - c.backgammon_loss,
                                                     2 * value), (c.backgammon_loss, 3 * value))
    total = sum(max(0.0, p) * sage.match_winning_chance(me - n, opp) for p, n in results)
    total += sum(max(0.0, p) * sage.match_winning_chance(me, opp - n) for p, n in losses)
    return max(0.0, min(1.0, total))


def _rate(game: Game, ctx: MatchContext, level: Level, event: object
          ) -> tuple[Player, str, float, str, str, bool, float, sage.Chances] | None:
    """(player, kind, equity lost, played, best, is_cube, equity taken, chances after it,
    from his side) for a counted decision."""
    if isinstance(event, PlayMade) and game.phase is Phase.PLAY:
        plays = game.legal_plays()
        if len(plays) < 2:
            return None
        after = game.play_moves(event.moves, event.player)
        hints = _play_hints(game, ctx, level,
                            force=(to_board(after.position, event.player),))
        if not hints:
            return None
        made = {h.play.position: h for h in hints}.get(after.position)
        if made is None or made.equity is None or hints[0].equity is None:
            return None
        lost = max(0.0, hints[0].equity - made.equity)
        chances = made.chances if made.chances is not None else EVEN
        return (event.player, "play", lost, made.text, hints[0].text, False, made.equity,
                chances)
    if isinstance(event, (DoubleOffered, Roll)) and game.phase is Phase.ROLL:
        p = event.player
        if not game.may_double(p):
            return None
        ev = _cube(game, ctx, level, p, game.cube.value, game.cube.owner)
        best = max(ev.no_double, ev.double_equity)
        best_text = "double" if ev.double_equity > ev.no_double else "no double"
        if isinstance(event, DoubleOffered):
            return (p, "double", max(0.0, best - ev.double_equity), "double", best_text, True,
                    ev.double_equity, ev.chances)
        if ev.double_equity < ev.no_double - CLOSE_NO_DOUBLE:
            return None
        return (p, "no double", max(0.0, best - ev.no_double), "no double", best_text, True,
                ev.no_double, ev.chances)
    if isinstance(event, (Take, Drop)) and game.phase is Phase.DOUBLED:
        offer = game.cube.offer
        if offer is None or offer.beaver:
            return None
        ev = _cube(game, ctx, level, offer.doubler, game.cube.value, game.cube.owner)
        take_eq, pass_eq = -ev.double_take, -ev.double_pass
        best_text = "take" if take_eq >= pass_eq else "pass"
        chosen = take_eq if isinstance(event, Take) else pass_eq
        kind = "take" if isinstance(event, Take) else "drop"
        return (event.player, kind, max(0.0, max(take_eq, pass_eq) - chosen),
                kind, best_text, True, chosen, ev.chances.inverted())
    return None

"""Hints and post-game analysis (pure, synchronous; run them in a worker).

* :func:`hint` -- the best plays for the current roll (top ``n`` with
  equities and win/gammon chances), or the cube advice before rolling (or for
  the player answering a double).
* :func:`analyze` -- replay a finished (or unfinished) game record and rate
  every decision of each player: average equity lost per decision (and PR, 500
  times it), total, the largest mistakes with the position and the better play,
  and the luck of every roll.

Which decisions count, and how luck is measured, follow GNU Backgammon's own
analysis (see the notes above :class:`Candidate`), so its figures can be
compared with the bot's.  Equities are bgsage's, normalised to a 1-point cube
(EMG in a match), from the deciding player's side.

Depth: the level's, named on GNU Backgammon's scale in every text ("GNU 1-ply
(bgsage)" for the default, strong; :func:`bot.ai.levels.analysis_level`
gives the depths ``/analyze`` offers: ``strong`` and ``expert``, GNU 2-ply,
which ranks each play at 1-ply and the best few plus the play made at 2-ply).

Both work for standard backgammon only; for a variant :func:`hint` ranks plays
by the heuristic (no equities) and :func:`analyze` says it is unsupported.
"""

from __future__ import annotations

import importlib.metadata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.ai import heuristic, sage
from bot.ai.context import MatchContext
from bot.ai.convert import from_board, to_board
from bot.ai.grades import PR_FACTOR, grade
from bot.ai.levels import DEFAULT_LEVEL, EvalDepth, Level
from bot.ai.sage import Chances, CubeEval
from engine.dice import Dice
from engine.game import Game, Phase
from engine.move import Play
from engine.player import Player
from engine.record import (
    DoubleOffered,
    Drop,
    GameRecord,
    OpeningRoll,
    PlayMade,
    Roll,
    Take,
)
from engine.rules import RuleOptions
from engine.words import counted

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
          owner: Player | None, memo: dict[Any, CubeEval] | None = None) -> CubeEval:
    """The cube analysis at ``level``; in an analysis (``memo``), at the luck's depth with
    each roll's equity too, kept for the luck of the roll that follows (one call for
    both)."""
    cs = sage.cube_state(game, ctx, doubler, value=value, owner=owner)
    board = to_board(game.position, doubler)
    if memo is None or level.depth is not LUCK_DEPTH:
        return sage.cube_action(board, level.depth, cs)
    key = (game.position, doubler, value, owner)
    found = memo.get(key)
    if found is None:
        found = memo[key] = sage.cube_action(board, level.depth, cs, rolls=True)
    return found


def _cube_hint(doubler: Player, ev: CubeEval) -> CubeHint:
    return CubeHint(doubler, ev.optimal_action, ev.no_double, ev.double_take, ev.double_pass,
                    ev.chances, ev.should_double, ev.should_take)


# -- analysis --------------------------------------------------------------------
#
# What counts, as GNU Backgammon counts it (analysis.c, ``updateStatcontext``), so the
# figures can be compared with its own analysis of the same game:
#
# * a checker play is a decision when it is "unforced": the roll has more than one
#   legal play (distinct resulting positions);
# * a cube decision is every double offered and every take or pass of a double (not
#   beavers, which gnubg does not analyse either), and each roll a player made while he
#   could have doubled (his cube, a live cube, not the opening position) when the
#   decision was *close*: doubling was right, or no double beat the double by less than
#   :data:`CLOSE_CUBE` (gnubg's ``isCloseCubedecision``);
# * the error of a decision is the equity of the best choice minus that of the choice
#   made, normalised to a 1-point cube (EMG), from the decider's side;
# * the luck of a roll is the equity after the best play of the roll thrown minus the
#   average of the same over every roll (the 21, doublets once and the others twice), at
#   GNU 0-ply cubeful, as gnubg's ``LuckNormal``; for the opening roll the average is over
#   the 30 non-doublet throws, 15 with each player moving first (``LuckFirst``).


@dataclass(frozen=True, slots=True)
class Candidate:
    """One choice of a decision and its equity, from the decider's side (EMG)."""

    text: str
    """A play in the variant's notation, or a cube action: "no double", "double",
    "take", "pass"."""
    equity: float


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
    candidates: tuple[Candidate, ...] = ()
    """The choices the analysis weighed, best first: for a play the best
    :data:`CANDIDATES` plays (and the one made); for a cube decision its two answers."""


@dataclass(frozen=True, slots=True)
class PlayerAnalysis:
    player: Player
    decisions: int
    total_lost: float
    """Sum of equity lost over the counted decisions (EMG)."""
    mistakes: tuple[Mistake, ...]
    """The largest mistakes, worst first."""
    checker_decisions: int = 0
    cube_decisions: int = 0
    checker_lost: float = 0.0
    cube_lost: float = 0.0
    rolls: int = 0
    """Rolls whose luck was rated (every roll the player threw, the opening one too)."""
    luck: float = 0.0
    """Sum of the luck of his rolls, EMG (+: lucky)."""
    luck_value: float = 0.0
    """The same in points (money: times the cube) or in match-winning chance (a match)."""

    @property
    def error_rate(self) -> float:
        """Average equity lost per decision."""
        return self.total_lost / self.decisions if self.decisions else 0.0

    @property
    def pr(self) -> float:
        """Performance rating: 500 x the average equity lost per decision."""
        return PR_FACTOR * self.error_rate

    @property
    def luck_rate(self) -> float:
        """Average luck per roll, EMG."""
        return self.luck / self.rolls if self.rolls else 0.0


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
    errors: tuple[Mistake, ...] = ()
    """Every decision that lost at least the analysis' ``min_mistake``, in order of play,
    with its candidates (the puzzles are chosen from these)."""
    length: int = 0
    """The match length (0: money play): the unit of ``result`` and ``luck_value``."""
    result: tuple[float, float] = (0.0, 0.0)
    """What each player won by the game: points (money), or match-winning chance gained
    (a match; gnubg's "actual result")."""
    engine: str = ""
    """The engine and its version, e.g. ``"bgsage 2.0.20260907"``."""

    def of(self, player: Player) -> PlayerAnalysis:
        return self.players[player]

    def summary(self, names: Sequence[str] = ("White", "Black")) -> list[str]:
        """Plain-text lines: error rate, PR and its grade, luck; the largest mistakes."""
        if not self.supported:
            return [self.note]
        lines = []
        for pa in self.players:
            lines.append(
                f"{names[pa.player]}: {counted(pa.decisions, 'decision')}, error rate "
                f"{pa.error_rate * 1000:.1f} mEMG/decision, total {pa.total_lost:.3f}, "
                f"PR {pa.pr:.1f} ({grade(pa.pr) if pa.decisions else 'no decision'}); "
                f"luck {pa.luck:+.3f} EMG over {counted(pa.rolls, 'roll')} "
                f"({pa.luck_rate * 1000:+.1f} mEMG/roll)")
            for m in pa.mistakes:
                lines.append(f"  {m.kind} ({m.dice or 'before rolling'}): played {m.played},"
                             f" better {m.best} (-{m.equity_lost:.3f})")
        if self.source:
            lines.append(f"Depth: {self.source}.")
        return lines

    # -- kept in the database -------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Everything but the games before the mistakes (:meth:`from_dict` replays the
        record to get them back)."""
        return {
            "v": 1, "supported": self.supported, "source": self.source, "note": self.note,
            "engine": self.engine, "length": self.length, "result": list(self.result),
            "players": [_player_dict(pa) for pa in self.players],
            "timeline": [[d.event_index, int(d.player), d.kind, _r(d.equity), _r(d.win),
                          _r(d.lost)] for d in self.timeline],
            "errors": [_mistake_dict(m) for m in self.errors],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], record: GameRecord) -> GameAnalysis:
        """The analysis :meth:`to_dict` stored, for ``record`` (the game it analysed)."""
        wanted = {int(m["i"]) for m in data["errors"]}
        for pd in data["players"]:
            wanted.update(int(m["i"]) for m in pd["mistakes"])
        before = _games_at(record, wanted)
        errors = tuple(_mistake_of(m, before) for m in data["errors"])
        players = tuple(
            PlayerAnalysis(Player(pd["player"]), pd["decisions"], pd["lost"],
                           tuple(_mistake_of(m, before) for m in pd["mistakes"]),
                           pd["checker"], pd["cube"], pd["checker_lost"], pd["cube_lost"],
                           pd["rolls"], pd["luck"], pd["luck_value"])
            for pd in data["players"])
        timeline = tuple(DecisionPoint(i, Player(p), k, e, w, lost)
                         for i, p, k, e, w, lost in data["timeline"])
        return cls(data["supported"], (players[0], players[1]), data["source"], data["note"],
                   timeline, errors, data["length"],
                   (data["result"][0], data["result"][1]), data["engine"])


def _r(x: float) -> float:
    """Equities kept to 1e-6 (the network's own precision is far coarser)."""
    return round(float(x), 6)


def _player_dict(pa: PlayerAnalysis) -> dict[str, Any]:
    return {"player": int(pa.player), "decisions": pa.decisions, "lost": _r(pa.total_lost),
            "checker": pa.checker_decisions, "cube": pa.cube_decisions,
            "checker_lost": _r(pa.checker_lost), "cube_lost": _r(pa.cube_lost),
            "rolls": pa.rolls, "luck": _r(pa.luck), "luck_value": _r(pa.luck_value),
            "mistakes": [_mistake_dict(m) for m in pa.mistakes]}


def _mistake_dict(m: Mistake) -> dict[str, Any]:
    return {"p": int(m.player), "i": m.event_index, "kind": m.kind, "played": m.played,
            "best": m.best, "lost": _r(m.equity_lost),
            "dice": [m.dice.first, m.dice.second] if m.dice is not None else None,
            "cands": [[c.text, _r(c.equity)] for c in m.candidates]}


def _mistake_of(d: Mapping[str, Any], before: Mapping[int, Game]) -> Mistake:
    dice = Dice(d["dice"][0], d["dice"][1]) if d["dice"] else None
    return Mistake(Player(d["p"]), d["i"], before[d["i"]], d["kind"], d["played"], d["best"],
                   d["lost"], dice, tuple(Candidate(t, e) for t, e in d["cands"]))


def start_of(record: GameRecord) -> Game:
    """The game of ``record`` before its first event."""
    return Game.new(record.variant, RuleOptions.from_dict(record.rules), money=record.money,
                    crawford=record.crawford, first_player=record.first_player,
                    position=record.position)


def _games_at(record: GameRecord, indexes: set[int]) -> dict[int, Game]:
    """The game just before each event of ``indexes``."""
    out: dict[int, Game] = {}
    game = start_of(record)
    last = max(indexes, default=-1)
    for idx, event in enumerate(record.events):
        if idx > last:
            break
        if idx in indexes:
            out[idx] = game
        game = game.apply(event)
    return out


# -- the analysis itself ---------------------------------------------------------

CANDIDATES = 25
"""At most this many candidate plays are kept with a mistake (a select menu's limit)."""

LUCK_DEPTH = EvalDepth.PLY2
"""The luck of a roll comes from the per-roll equities of a cube analysis at this
depth, which are GNU 0-ply ones (gnubg's luck analysis is 0-ply cubeful)."""
STRONG_LUCK = Level("luck", "Luck", LUCK_DEPTH, 0.0, "the depth of the luck's cube analysis")


def engine_version() -> str:
    """``"bgsage <version>"`` (stored with each analysis)."""
    try:
        return f"bgsage {importlib.metadata.version('bgsage')}"
    except importlib.metadata.PackageNotFoundError:  # pragma: no cover - always installed
        return "bgsage"


@dataclass
class _Tally:
    decisions: int = 0
    checker: int = 0
    cube: int = 0
    total: float = 0.0
    checker_lost: float = 0.0
    cube_lost: float = 0.0
    rolls: int = 0
    luck: float = 0.0
    luck_value: float = 0.0


@dataclass(frozen=True, slots=True)
class _Rated:
    player: Player
    kind: str
    lost: float
    played: str
    best: str
    is_cube: bool
    equity: float
    win: float
    candidates: tuple[Candidate, ...]
    chances: sage.Chances
    """The decider's chances after the decision (the match-winning chances plotted)."""


def analyze(record: GameRecord, context: MatchContext | None = None,
            level: Level = DEFAULT_LEVEL, top: int = 3,
            min_mistake: float = 0.02) -> GameAnalysis:
    """Rate each player's decisions and luck in ``record`` (see the notes above).

    ``context`` is the match score when the game started (money if omitted);
    ``top`` how many largest mistakes (losing at least ``min_mistake``) to keep per
    player; every decision losing ``min_mistake`` or more is in ``errors``.
    """
    ctx = context or MatchContext.money()
    game = start_of(record)
    empty = (PlayerAnalysis(Player.WHITE, 0, 0.0, ()), PlayerAnalysis(Player.BLACK, 0, 0.0, ()))
    if not sage.uses_network(game):
        return GameAnalysis(False, empty, note=VARIANT_NOTE)
    tallies = {p: _Tally() for p in Player}
    errors: list[Mistake] = []
    timeline: list[DecisionPoint] = []
    offer_eval: CubeEval | None = None
    for idx, event in enumerate(record.events):
        after = game.apply(event)
        if not sage.uses_network(game):
            game = after
            continue
        memo: dict[Any, CubeEval] = {}  # (a roll's cube analysis serves its luck too)
        rated, offer_eval = _rate(game, ctx, level, event, offer_eval, memo)
        luck = _luck(game, after, event, ctx, memo)
        if luck is not None:
            who, emg = luck
            t = tallies[who]
            t.rolls += 1
            t.luck += emg
            t.luck_value += emg * value_per_emg(game, ctx, who)
        if rated is not None:
            timeline.append(DecisionPoint(idx, rated.player, rated.kind, rated.equity,
                                          rated.win, rated.lost,
                                          _decision_mwc(ctx, rated.player, rated.chances,
                                                        game, event)))
            t = tallies[rated.player]
            t.decisions += 1
            t.total += rated.lost
            if rated.is_cube:
                t.cube += 1
                t.cube_lost += rated.lost
            else:
                t.checker += 1
                t.checker_lost += rated.lost
            if rated.lost >= min_mistake:
                errors.append(Mistake(rated.player, idx, game, rated.kind, rated.played,
                                      rated.best, rated.lost,
                                      game.dice if not rated.is_cube else None,
                                      rated.candidates))
        game = after
    players = tuple(
        PlayerAnalysis(p, tallies[p].decisions, tallies[p].total,
                       tuple(sorted((m for m in errors if m.player is p),
                                    key=lambda m: -m.equity_lost)[:top]),
                       tallies[p].checker, tallies[p].cube, tallies[p].checker_lost,
                       tallies[p].cube_lost, tallies[p].rolls, tallies[p].luck,
                       tallies[p].luck_value)
        for p in Player)
    return GameAnalysis(True, (players[0], players[1]), source=_source(level),
                        timeline=tuple(timeline), errors=tuple(errors), length=ctx.length,
                        result=game_result(game, ctx), engine=engine_version())


VARIANT_NOTE = ("Analysis, PR and puzzles are for standard backgammon only: the network "
                "does not know this variant.")


EVEN = sage.Chances(0.5, 0.0, 0.0, 0.0, 0.0)
"""Chances when the network gave none."""


def _decision_mwc(ctx: MatchContext, player: Player, chances: sage.Chances, game: Game,
                  event: object) -> float | None:
    """``player``'s match-winning chances after his decision ``event`` (None in money
    play): each result's chance (single, gammon, backgammon, won or lost) times the match
    equity at the score it leaves (:func:`_mwc`, post-Crawford as it will be), with the
    cube the decision leaves (a drop: the loss of the cube as it stands)."""
    if ctx.is_money:
        return None

    def at(winner: Player, points: int) -> float:
        score = list(ctx.score)
        score[winner] += points
        after = (score[0], score[1])
        return _mwc(ctx, after, player, _post_crawford_after(game, ctx, after))

    value = game.cube.value
    if isinstance(event, Drop):
        return at(player.other, value)
    if isinstance(event, (DoubleOffered, Take)):
        value *= 2
    c = chances
    results = ((c.win - c.gammon_win, value), (c.gammon_win - c.backgammon_win, 2 * value),
               (c.backgammon_win, 3 * value))
    losses = ((1.0 - c.win - c.gammon_loss, value),
              (c.gammon_loss - c.backgammon_loss, 2 * value), (c.backgammon_loss, 3 * value))
    total = sum(max(0.0, p) * at(player, n) for p, n in results)
    total += sum(max(0.0, p) * at(player.other, n) for p, n in losses)
    return max(0.0, min(1.0, total))


def _rate(game: Game, ctx: MatchContext, level: Level, event: object,
          offer_eval: CubeEval | None, memo: dict[Any, CubeEval]
          ) -> tuple[_Rated | None, CubeEval | None]:
    """The rated decision of ``event`` (None if it is not one), and the cube analysis of
    a double just offered (its take or pass is rated on the same figures, as gnubg does)."""
    if isinstance(event, PlayMade) and game.phase is Phase.PLAY:
        return _rate_play(game, ctx, level, event), None
    if isinstance(event, (DoubleOffered, Roll)) and game.phase is Phase.ROLL:
        p = event.player
        if not game.may_double(p) or not live_cube(game, ctx, p):
            return None, None
        if isinstance(event, Roll) and _opening_position(game):
            return None, None
        ev = _cube(game, ctx, level, p, game.cube.value, game.cube.owner, memo)
        best = max(ev.no_double, ev.double_equity)
        best_text = "double" if ev.double_equity > ev.no_double else "no double"
        cands = tuple(sorted((Candidate("no double", ev.no_double),
                              Candidate("double", ev.double_equity)),
                             key=lambda c: -c.equity))
        if isinstance(event, DoubleOffered):
            return (_Rated(p, "double", max(0.0, best - ev.double_equity), "double",
                           best_text, True, ev.double_equity, ev.chances.win, cands,
                           ev.chances), ev)
        if best - ev.double_equity >= CLOSE_CUBE:
            return None, None
        return (_Rated(p, "no double", max(0.0, best - ev.no_double), "no double", best_text,
                       True, ev.no_double, ev.chances.win, cands, ev.chances), None)
    if isinstance(event, (Take, Drop)) and game.phase is Phase.DOUBLED:
        offer = game.cube.offer
        if offer is None or offer.beaver:
            return None, None
        ev = offer_eval or _cube(game, ctx, level, offer.doubler, game.cube.value,
                                 game.cube.owner)
        take_eq, pass_eq = -ev.double_take, -ev.double_pass
        best_text = "take" if take_eq >= pass_eq else "pass"
        chosen = take_eq if isinstance(event, Take) else pass_eq
        kind = "take" if isinstance(event, Take) else "drop"
        cands = tuple(sorted((Candidate("take", take_eq), Candidate("pass", pass_eq)),
                             key=lambda c: -c.equity))
        return (_Rated(event.player, kind, max(0.0, max(take_eq, pass_eq) - chosen),
                       "take" if kind == "take" else "pass", best_text, True, chosen,
                       1.0 - ev.chances.win, cands, ev.chances.inverted()), None)
    return None, None


CLOSE_CUBE = 0.16
"""A no-double counts as a decision when the double's equity is within this much of the
best (gnubg's ``isCloseCubedecision``)."""


def _rate_play(game: Game, ctx: MatchContext, level: Level, event: PlayMade) -> _Rated | None:
    plays = game.legal_plays()
    if len(plays) < 2:
        return None
    after = game.play_moves(event.moves, event.player)
    hints = _play_hints(game, ctx, level, keep=sage.DEEP_KEEP,
                        force=(to_board(after.position, event.player),))
    if not hints:
        return None
    made = {h.play.position: h for h in hints}.get(after.position)
    if made is None or made.equity is None or hints[0].equity is None:
        return None
    lost = max(0.0, hints[0].equity - made.equity)
    chances = made.chances if made.chances is not None else EVEN
    kept = [h for h in hints[:CANDIDATES] if h.equity is not None]
    if made not in kept:
        kept = [*kept[:CANDIDATES - 1], made]
    cands = tuple(Candidate(h.text, h.equity or 0.0) for h in kept)
    return _Rated(event.player, "play", lost, made.text, hints[0].text, False, made.equity,
                  chances.win, cands, chances)


def live_cube(game: Game, ctx: MatchContext, player: Player) -> bool:
    """Whether a double by ``player`` could matter (gnubg's ``GetDPEq``): in a match, not
    when his score plus the cube already wins it (a dead cube), nor for the leader after
    the Crawford game."""
    if ctx.is_money or game.money:
        return True
    if ctx.score[player] + game.cube.value >= ctx.length:
        return False
    post_crawford = not game.crawford and (ctx.away(Player.WHITE) == 1
                                           or ctx.away(Player.BLACK) == 1)
    return not (post_crawford and ctx.away(player) == 1)


def _opening_position(game: Game) -> bool:
    """No cube decision is rated in the opening position (gnubg neither)."""
    return game.position == game.variant.initial_position()


# -- luck -----------------------------------------------------------------------


def _luck(before: Game, after: Game, event: object, ctx: MatchContext,
          memo: dict[Any, CubeEval]) -> tuple[Player, float] | None:
    """(the roller, the luck of his roll in EMG) when ``event`` threw the dice of a turn."""
    if isinstance(event, Roll) and before.phase is Phase.ROLL:
        return event.player, _roll_luck(before, event.player, event.dice, ctx, memo)
    if isinstance(event, OpeningRoll) and before.phase is Phase.OPENING \
            and after.phase is Phase.PLAY and after.dice is not None and after.turn is not None:
        dice = after.dice
        if dice.first == dice.second:
            return after.turn, _roll_luck(before, after.turn, dice, ctx, memo)
        return after.turn, _opening_luck(before, after.turn, dice, ctx, memo)
    return None


def _per_roll(game: Game, player: Player, ctx: MatchContext,
              memo: dict[Any, CubeEval]) -> dict[tuple[int, int], float]:
    """The equity (GNU 0-ply, cubeful, ``player``'s side) after his best play of each roll,
    keyed by (high die, low die)."""
    ev = _cube(game, ctx, STRONG_LUCK, player, game.cube.value, game.cube.owner, memo)
    return {(max(a, b), min(a, b)): e for a, b, e in ev.rolls}


def _roll_luck(game: Game, player: Player, dice: Dice, ctx: MatchContext,
               memo: dict[Any, CubeEval]) -> float:
    eqs = _per_roll(game, player, ctx, memo)
    mean = sum(e * (1 if hi == lo else 2) for (hi, lo), e in eqs.items()) / 36.0
    return eqs[(max(dice.first, dice.second), min(dice.first, dice.second))] - mean


def _opening_luck(game: Game, player: Player, dice: Dice, ctx: MatchContext,
                  memo: dict[Any, CubeEval]) -> float:
    mine = _per_roll(game, player, ctx, memo)
    theirs = _per_roll(game, player.other, ctx, memo)
    mean = (sum(e for (hi, lo), e in mine.items() if hi != lo)
            - sum(e for (hi, lo), e in theirs.items() if hi != lo)) / 30.0
    return mine[(max(dice.first, dice.second), min(dice.first, dice.second))] - mean


# -- what a point of equity is worth --------------------------------------------


def _mwc(ctx: MatchContext, score: tuple[int, int], player: Player, post_crawford: bool
         ) -> float:
    """``player``'s match-winning chance at ``score`` (1 or 0 once the match is won)."""
    mine = ctx.length - score[player]
    theirs = ctx.length - score[player.other]
    if mine <= 0:
        return 1.0
    if theirs <= 0:
        return 0.0
    return sage.match_equity(mine, theirs, post_crawford=post_crawford)


def _post_crawford_after(game: Game, ctx: MatchContext, score: tuple[int, int]) -> bool:
    """Whether a game at ``score`` after this one is a post-Crawford game."""
    at_one = any(ctx.length - s == 1 for s in score)
    if not at_one:
        return False
    already = any(ctx.away(p) == 1 for p in Player)
    return game.crawford or already or not game.rules.crawford


def value_per_emg(game: Game, ctx: MatchContext, player: Player) -> float:
    """What one EMG is worth to ``player`` now: the cube's value in points (money), or
    half the match-winning chance between winning and losing the cube (a match), as
    gnubg's ``eq2mwc``."""
    if ctx.is_money:
        return float(game.cube.value)
    v = game.cube.value
    win = list(ctx.score)
    win[player] += v
    lose = list(ctx.score)
    lose[player.other] += v
    w = _mwc(ctx, (win[0], win[1]), player, _post_crawford_after(game, ctx, (win[0], win[1])))
    lo = _mwc(ctx, (lose[0], lose[1]), player,
              _post_crawford_after(game, ctx, (lose[0], lose[1])))
    return 0.5 * (w - lo)


def game_result(game: Game, ctx: MatchContext) -> tuple[float, float]:
    """What each player won by the finished ``game``: points (money), or match-winning
    chance gained (a match: after the game minus before it, gnubg's "actual result")."""
    r = game.result
    if r is None:
        return (0.0, 0.0)
    if ctx.is_money:
        won = float(r.points)
    else:
        after = list(ctx.score)
        after[r.winner] += r.points
        post_before = not game.crawford and any(ctx.away(p) == 1 for p in Player)
        won = (_mwc(ctx, (after[0], after[1]), r.winner,
                    _post_crawford_after(game, ctx, (after[0], after[1])))
               - _mwc(ctx, ctx.score, r.winner, post_before))
    return (won, -won) if r.winner is Player.WHITE else (-won, won)

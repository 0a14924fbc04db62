"""Which decisions count, and what each one lost, as GNU Backgammon counts them.

As gnubg's analysis (analysis.c, ``updateStatcontext``), so the figures can be compared
with its own analysis of the same game:

* a checker play is a decision when it is "unforced": the roll has more than one
  legal play (distinct resulting positions);
* a cube decision is every double offered and every take or pass of a double (not
  beavers, which gnubg does not analyse either), and each roll a player made while he
  could have doubled (his cube, a live cube, not the opening position) when the
  decision was *close*: doubling was right, or no double beat the double by less than
  :data:`CLOSE_CUBE` (gnubg's ``isCloseCubedecision``);
* the error of a decision is the equity of the best choice minus that of the choice
  made, normalised to a 1-point cube (EMG), from the decider's side.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.ai import sage
from bot.ai.analysed import Candidate
from bot.ai.context import MatchContext
from bot.ai.convert import to_board
from bot.ai.hints import play_hints
from bot.ai.levels import Level
from bot.ai.luck import Memo, cube_memo
from bot.ai.sage import CubeEval
from engine.game import Game, Phase
from engine.player import Player
from engine.record import DoubleOffered, Drop, PlayMade, Roll, Take

CANDIDATES = 25
"""At most this many candidate plays are kept with a mistake (a select menu's limit)."""

CLOSE_CUBE = 0.16
"""A no-double counts as a decision when the double's equity is within this much of the
best (gnubg's ``isCloseCubedecision``)."""

EVEN = sage.Chances(0.5, 0.0, 0.0, 0.0, 0.0)
"""Chances when the network gave none."""


@dataclass(frozen=True, slots=True)
class Rated:
    """One rated decision."""

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


def rate(game: Game, ctx: MatchContext, level: Level, event: object,
         offer_eval: CubeEval | None, memo: Memo) -> tuple[Rated | None, CubeEval | None]:
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
        ev = cube_memo(game, ctx, level, p, game.cube.value, game.cube.owner, memo)
        best = max(ev.no_double, ev.double_equity)
        best_text = "double" if ev.double_equity > ev.no_double else "no double"
        cands = tuple(sorted((Candidate("no double", ev.no_double),
                              Candidate("double", ev.double_equity)),
                             key=lambda c: -c.equity))
        if isinstance(event, DoubleOffered):
            return (Rated(p, "double", max(0.0, best - ev.double_equity), "double",
                          best_text, True, ev.double_equity, ev.chances.win, cands,
                          ev.chances), ev)
        if best - ev.double_equity >= CLOSE_CUBE:
            return None, None
        return (Rated(p, "no double", max(0.0, best - ev.no_double), "no double", best_text,
                      True, ev.no_double, ev.chances.win, cands, ev.chances), None)
    if isinstance(event, (Take, Drop)) and game.phase is Phase.DOUBLED:
        offer = game.cube.offer
        if offer is None or offer.beaver:
            return None, None
        ev = offer_eval or cube_memo(game, ctx, level, offer.doubler, game.cube.value,
                                     game.cube.owner)
        take_eq, pass_eq = -ev.double_take, -ev.double_pass
        best_text = "take" if take_eq >= pass_eq else "pass"
        chosen = take_eq if isinstance(event, Take) else pass_eq
        kind = "take" if isinstance(event, Take) else "drop"
        cands = tuple(sorted((Candidate("take", take_eq), Candidate("pass", pass_eq)),
                             key=lambda c: -c.equity))
        return (Rated(event.player, kind, max(0.0, max(take_eq, pass_eq) - chosen),
                      "take" if kind == "take" else "pass", best_text, True, chosen,
                      1.0 - ev.chances.win, cands, ev.chances.inverted()), None)
    return None, None


def _rate_play(game: Game, ctx: MatchContext, level: Level, event: PlayMade) -> Rated | None:
    plays = game.legal_plays()
    if len(plays) < 2:
        return None
    after = game.play_moves(event.moves, event.player)
    hints = play_hints(game, ctx, level, keep=sage.DEEP_KEEP,
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
    return Rated(event.player, "play", lost, made.text, hints[0].text, False, made.equity,
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

"""What a point of equity is worth: match-winning chances from the match equity table.

* :func:`value_per_emg` -- one EMG in points (money) or match-winning chance (a match);
* :func:`game_result` -- what each player won by a finished game;
* :func:`decision_mwc` -- a decider's match-winning chances after his decision (the
  analysis graph of a match).
"""

from __future__ import annotations

from bot.ai import sage
from bot.ai.context import MatchContext
from engine.game import Game
from engine.player import Player
from engine.record import DoubleOffered, Drop, Take


def mwc(ctx: MatchContext, score: tuple[int, int], player: Player, post_crawford: bool
        ) -> float:
    """``player``'s match-winning chance at ``score`` (1 or 0 once the match is won)."""
    mine = ctx.length - score[player]
    theirs = ctx.length - score[player.other]
    if mine <= 0:
        return 1.0
    if theirs <= 0:
        return 0.0
    return sage.match_equity(mine, theirs, post_crawford=post_crawford)


def post_crawford_after(game: Game, ctx: MatchContext, score: tuple[int, int]) -> bool:
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
    w = mwc(ctx, (win[0], win[1]), player, post_crawford_after(game, ctx, (win[0], win[1])))
    lo = mwc(ctx, (lose[0], lose[1]), player,
             post_crawford_after(game, ctx, (lose[0], lose[1])))
    return 0.5 * (w - lo)


def game_result(game: Game, ctx: MatchContext) -> tuple[float, float]:
    """What each player won by the finished ``game``: points (money), or match-winning
    chance gained (a match: after the game minus before it, gnubg's "actual result"; a
    match decided with it whatever the score, :attr:`MatchContext.decided`, is won or lost
    whole: the winner's chance goes to 1)."""
    r = game.result
    if r is None:
        return (0.0, 0.0)
    if ctx.is_money:
        won = float(r.points)
    elif ctx.decided is not None:
        winner = ctx.decided
        post_before = not game.crawford and any(ctx.away(p) == 1 for p in Player)
        won = 1.0 - mwc(ctx, ctx.score, winner, post_before)
        return (won, -won) if winner is Player.WHITE else (-won, won)
    else:
        after = list(ctx.score)
        after[r.winner] += r.points
        post_before = not game.crawford and any(ctx.away(p) == 1 for p in Player)
        won = (mwc(ctx, (after[0], after[1]), r.winner,
                   post_crawford_after(game, ctx, (after[0], after[1])))
               - mwc(ctx, ctx.score, r.winner, post_before))
    return (won, -won) if r.winner is Player.WHITE else (-won, won)


def decision_mwc(ctx: MatchContext, player: Player, chances: sage.Chances, game: Game,
                 event: object) -> float | None:
    """``player``'s match-winning chances after his decision ``event`` (None in money
    play): each result's chance (single, gammon, backgammon, won or lost) times the match
    equity at the score it leaves (:func:`mwc`, post-Crawford as it will be), with the
    cube the decision leaves (a drop: the loss of the cube as it stands)."""
    if ctx.is_money:
        return None

    def at(winner: Player, points: int) -> float:
        score = list(ctx.score)
        score[winner] += points
        after = (score[0], score[1])
        return mwc(ctx, after, player, post_crawford_after(game, ctx, after))

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

"""When a double cannot change anything for the doubler: the AI never offers one.

At double match point, or once the cube already decides the match, the
equities of "no double", "double, take" and "double, pass" are equal (or
doubling can only hurt the doubler), so a noisy level would double on the noise
alone: 109 of 200 beginner/intermediate seeds doubled at 6-6 in a 7-point match,
and two intermediate players redoubled each other up to 2048.  GNU Backgammon
calls such a cube *dead*.  :func:`dead_double_reason` says whether the double
is pointless and why; the player then rolls, whatever its noise says (noise
applies only to live decisions).

Match play (the doubling itself: 002 'DOUBLING'; match scores and the Crawford
rule are not in the rule books, they follow GNU Backgammon): with the cube at ``v`` and
the doubler ``a`` points away, a single win at the current cube already gives
him ``v >= a`` points, so every win already wins the match and a pass would
too (the opponent, if he cannot be helped by the pass, takes): doubling only
raises what he loses.  That covers double match point (1-away/1-away, cube 1),
the leader after the Crawford game (1 away: his cube is always enough) and the
trailer who already owns a cube big enough to win the match.

Money play: the engine refuses a double past ``max_cube`` (the cube is at its
cap), so :meth:`engine.game.Game.may_double` is already false there; it is
checked here too so the rule reads in one place.
"""

from __future__ import annotations

from bot.ai.context import MatchContext
from engine.game import Game
from engine.player import Player


def dead_double_reason(game: Game, ctx: MatchContext, doubler: Player) -> str | None:
    """Why doubling now cannot gain anything for ``doubler`` (None: the cube is live).

    Only the cube's value and the match score count; the position does not.
    """
    if not game.cube_in_use:
        return "the cube is not in use in this game"
    cube = game.cube
    if cube.max_value is not None and cube.value * 2 > cube.max_value:
        return f"the cube is at its cap of {cube.max_value}"
    if game.money or ctx.is_money:
        return None
    away = ctx.away(doubler)
    if cube.value >= away:
        if ctx.away(doubler.other) == 1 and away == 1:
            return "double match point: this game decides the match whatever the cube"
        return (f"a win at the cube's {cube.value} already wins the match "
                f"({away} away): doubling can only raise what is lost")
    return None

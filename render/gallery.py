"""Example boards: ``python -m render.gallery OUTDIR`` writes them as PNG files.

The same views serve the README pictures, the tests and the benchmark.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from engine.move import Move
from engine.player import Player
from engine.position import Position, make_side
from render.png import render_png
from render.theme import theme_names
from render.view import (
    SAME_DIRECTION,
    BoardView,
    ChouetteView,
    CubeView,
    GameOverView,
    LastPlay,
    MatchInfo,
    MoneyInfo,
    Partner,
    PlayerInfo,
    ResultKind,
    StakeState,
)

W, B = Player.WHITE, Player.BLACK
NAMES = (PlayerInfo("Alice", score=2), PlayerInfo("Bob", score=4))


def examples() -> dict[str, BoardView]:
    """Named example views covering everything the board shows."""
    middle = Position.from_sides(
        make_side({6: 4, 8: 2, 13: 4, 4: 2, 3: 1}, bar=1),
        make_side({6: 7, 8: 3, 13: 3}, bar=1, off=1),
    )
    bearoff = Position.from_sides(
        make_side({1: 2, 2: 3, 3: 2, 5: 1}),
        make_side({1: 3, 2: 2, 4: 2, 6: 8}),
    )
    return {
        "opening": BoardView(Position.standard(), turn=W, players=NAMES, opening=(3, 1),
                             match=MatchInfo(7)),
        "middle-game": BoardView(
            middle, turn=W, players=NAMES, cube=CubeView(2, B), dice=(5, 3),
            dice_used=(True, False), match=MatchInfo(7),
            last_play=LastPlay(B, (Move(24, 18, True), Move(18, 13)))),
        "double-offered": BoardView(
            middle, turn=B, players=(PlayerInfo("Alice"), PlayerInfo("Bob")),
            cube=CubeView(2, B, offered_to=W), money=MoneyInfo("5 chips")),
        "bear-off": BoardView(
            bearoff, turn=B, players=(PlayerInfo("Alice", score=6), PlayerInfo("Bob", score=3)),
            cube=None, dice=(6, 6), dice_used=(True, True, False, False),
            match=MatchInfo(7, crawford=True),
            last_play=LastPlay(W, (Move(6, 2), Move(4, 1), Move(1, 0)))),
        "game-over": BoardView(
            Position.from_sides(make_side({}), make_side({19: 2, 1: 3, 3: 2})),
            players=NAMES, cube=CubeView(2, W), match=MatchInfo(7),
            game_over=GameOverView(W, ResultKind.GAMMON, 4)),
        "chouette": BoardView(
            middle, turn=W, players=(PlayerInfo("Alice", note="box"),
                                     PlayerInfo("Bob", note="captain")),
            cube=CubeView(2, W), dice=(4, 2), money=MoneyInfo("1 chip"),
            chouette=ChouetteView(W, (Partner("Bob"), Partner("Carol"),
                                      Partner("Dan", StakeState.DROPPED),
                                      Partner("Erin", StakeState.OWNS_CUBE)))),
        "russian-start": BoardView(
            Position.empty(), geometry=SAME_DIRECTION, turn=W, players=NAMES,
            opening=(5, 2), variant="Russian backgammon", cube=None),
        "acey-deucey": BoardView(
            Position.from_sides(make_side({24: 2, 20: 1, 1: 1}, waiting=11),
                                make_side({23: 1, 22: 2}, waiting=12)),
            turn=B, players=NAMES, dice=(1, 2), variant="Acey-Deucey",
            money=MoneyInfo("1 point")),
        # The move builder's picture (issue 31): the opening 6-1 with 13/7 entered so far.
        "move-builder": BoardView(
            Position.from_sides(make_side({24: 2, 13: 4, 8: 3, 7: 1, 6: 5}),
                                Position.standard().sides[B]),
            turn=W, players=NAMES, dice=(6, 1), dice_used=(True, False),
            match=MatchInfo(7)),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Write the example boards as PNG files.")
    parser.add_argument("outdir", type=Path)
    parser.add_argument("--size", type=int, default=None, help="board width in pixels")
    parser.add_argument("--themes", nargs="*", default=None,
                        help=f"themes to render (default: all of {', '.join(theme_names())})")
    parser.add_argument("--only", nargs="*", default=None, help="example names")
    args = parser.parse_args(argv)
    args.outdir.mkdir(parents=True, exist_ok=True)
    themes = args.themes or list(theme_names())
    for name, view in examples().items():
        if args.only and name not in args.only:
            continue
        for theme in themes:
            suffix = "" if theme == "default" else f"-{theme}"
            path = args.outdir / f"{name}{suffix}.png"
            kwargs = {"size": args.size} if args.size else {}
            path.write_bytes(render_png(view, theme=theme, **kwargs))
            print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())

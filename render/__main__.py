"""Render a standard position from GNU Backgammon IDs.

    python -m render POSITION_ID [MATCH_ID] --out FILE.png [--theme NAME]
                     [--perspective 0|1] [--size PIXELS] [--ascii]

``POSITION_ID`` may also be the combined ``PositionID:MatchID``.  The board
is seen by the player on roll unless ``--perspective`` names GNU Backgammon's
player 0 or 1.  ``--ascii`` prints the text board as well (or instead, when
no ``--out`` is given).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from engine.errors import BackgammonError
from engine.player import Player
from render.ascii import text_board
from render.layout import DEFAULT_WIDTH
from render.png import render_png
from render.theme import theme_names
from render.view import BoardView, CubeView, MatchInfo, MoneyInfo, PlayerInfo


def view_from_ids(position_id: str, match_id: str | None = None,
                  perspective: int | None = None) -> BoardView:
    """A :class:`BoardView` of a GNU Backgammon Position ID (and Match ID)."""
    from engine.gnubgid import (
        GNUBG_PLAYER,
        MatchIdState,
        decode_match_id,
        decode_position_id,
    )

    if match_id is None and ":" in position_id:
        position_id, match_id = position_id.split(":", 1)
    state = decode_match_id(match_id) if match_id else MatchIdState()
    position = decode_position_id(position_id, state.on_roll)
    viewer = GNUBG_PLAYER[perspective] if perspective is not None else None
    if match_id is None:
        cube: CubeView | None = CubeView()
        names = (PlayerInfo("White"), PlayerInfo("Black"))
        return BoardView(position, viewer=viewer, turn=state.on_roll, players=names, cube=cube)
    offered = state.turn if state.double_offered else None
    cube = CubeView(state.cube_value, state.cube_owner, offered)
    score = state.score if not state.is_money else (None, None)
    names = (PlayerInfo(f"Player {GNUBG_PLAYER.index(Player.WHITE)}", score=score[0]),
             PlayerInfo(f"Player {GNUBG_PLAYER.index(Player.BLACK)}", score=score[1]))
    match = None if state.is_money else MatchInfo(state.match_length, crawford=state.crawford)
    money = MoneyInfo() if state.is_money else None
    return BoardView(position, viewer=viewer, turn=state.on_roll, players=names, cube=cube,
                     dice=state.dice, match=match, money=money)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m render", description="Render a board from GNU Backgammon IDs.")
    parser.add_argument("position_id", help="Position ID (or PositionID:MatchID)")
    parser.add_argument("match_id", nargs="?", default=None, help="Match ID")
    parser.add_argument("--out", type=Path, default=None, help="PNG file to write")
    parser.add_argument("--theme", default="default", choices=theme_names())
    parser.add_argument("--perspective", type=int, choices=(0, 1), default=None,
                        help="GNU Backgammon player number seen at the bottom "
                             "(default: the player on roll)")
    parser.add_argument("--size", type=int, default=DEFAULT_WIDTH, help="board width in pixels")
    parser.add_argument("--ascii", action="store_true", help="print the text board")
    args = parser.parse_args(argv)
    if args.out is None and not args.ascii:
        parser.error("give --out FILE.png and/or --ascii")
    try:
        view = view_from_ids(args.position_id, args.match_id, args.perspective)
        if args.ascii:
            print(text_board(view))
        if args.out is not None:
            args.out.write_bytes(render_png(view, theme=args.theme, size=args.size))
    except (BackgammonError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Board pictures: PNG images (Pillow) and a text board, from engine values.

``render_png(view)`` turns a :class:`BoardView` into PNG bytes; ``build``
gives the layout it draws (where each checker, die and cube goes), shared
with the ASCII board (:mod:`render.ascii`) and the tests.  No I/O here.
"""

from render.layout import DEFAULT_WIDTH, Layout, build
from render.png import render_image, render_png
from render.theme import Theme, get_theme, theme_names
from render.view import (
    SAME_DIRECTION,
    STANDARD,
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

__all__ = [
    "DEFAULT_WIDTH",
    "SAME_DIRECTION",
    "STANDARD",
    "BoardView",
    "ChouetteView",
    "CubeView",
    "GameOverView",
    "LastPlay",
    "Layout",
    "MatchInfo",
    "MoneyInfo",
    "Partner",
    "PlayerInfo",
    "ResultKind",
    "StakeState",
    "Theme",
    "build",
    "get_theme",
    "render_image",
    "render_png",
    "theme_names",
]

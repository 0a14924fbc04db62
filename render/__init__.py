"""Board pictures: PNG images (Pillow) and a text board, from engine values.

``render_png(view)`` turns a :class:`BoardView` into PNG bytes; ``build``
gives the layout it draws (where each checker, die and cube goes), shared
with the ASCII board (:mod:`render.ascii`) and the tests.  No I/O here.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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

_HOMES = {
    "BoardView": "render.view",
    "ChouetteView": "render.view",
    "CubeView": "render.view",
    "DEFAULT_WIDTH": "render.layout",
    "GameOverView": "render.view",
    "LastPlay": "render.view",
    "Layout": "render.layout",
    "MatchInfo": "render.view",
    "MoneyInfo": "render.view",
    "Partner": "render.view",
    "PlayerInfo": "render.view",
    "ResultKind": "render.view",
    "SAME_DIRECTION": "render.view",
    "STANDARD": "render.view",
    "StakeState": "render.view",
    "Theme": "render.theme",
    "build": "render.layout",
    "get_theme": "render.theme",
    "render_image": "render.png",
    "render_png": "render.png",
    "theme_names": "render.theme",
}
"""Where each name lives: imported on first use, so the value types (``render.view``)
load without Pillow."""


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'render' has no attribute {name!r}")
    return getattr(importlib.import_module(home), name)


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

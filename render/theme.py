"""Colour themes: a small registry of immutable values.

The default theme is colour-blind safe: the two sides differ by lightness
(ivory against charcoal, each with a contrasting outline), the points
alternate blue and ochre (distinct for every common colour-vision
deficiency), and marks use shape as well as colour.
"""

from __future__ import annotations

from dataclasses import dataclass

RGB = tuple[int, int, int]


def hex_rgb(text: str) -> RGB:
    text = text.lstrip("#")
    return (int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16))


@dataclass(frozen=True, slots=True)
class CheckerStyle:
    fill: RGB
    rim: RGB
    """Outline and inner ring."""
    text: RGB
    """Numbers drawn on the checker (and the pips of this side's dice)."""


@dataclass(frozen=True, slots=True)
class Theme:
    name: str
    background: RGB
    """Around the board (panels)."""
    frame: RGB
    frame_edge: RGB
    field: RGB
    points: tuple[RGB, RGB]
    bar: RGB
    tray: RGB
    frame_text: RGB
    panel: RGB
    panel_active: RGB
    panel_text: RGB
    panel_muted: RGB
    checkers: tuple[CheckerStyle, CheckerStyle]
    """Index by player: white's style, black's style."""
    cube: RGB
    cube_text: RGB
    highlight: RGB
    """Last-play marks."""
    hit: RGB
    banner: RGB
    banner_text: RGB


_THEMES: dict[str, Theme] = {}


def register(theme: Theme) -> Theme:
    _THEMES[theme.name] = theme
    return theme


def get_theme(name: str) -> Theme:
    try:
        return _THEMES[name]
    except KeyError:
        raise ValueError(
            f"unknown theme {name!r}; choose one of: {', '.join(theme_names())}"
        ) from None


def theme_names() -> tuple[str, ...]:
    return tuple(_THEMES)


DEFAULT = register(Theme(
    name="default",
    background=hex_rgb("#1c2229"),
    frame=hex_rgb("#33414f"),
    frame_edge=hex_rgb("#151b21"),
    field=hex_rgb("#264a43"),
    points=(hex_rgb("#4f86c6"), hex_rgb("#d9a441")),
    bar=hex_rgb("#33414f"),
    tray=hex_rgb("#1f2a33"),
    frame_text=hex_rgb("#e9eef2"),
    panel=hex_rgb("#232b33"),
    panel_active=hex_rgb("#3a4a5a"),
    panel_text=hex_rgb("#f2f4f6"),
    panel_muted=hex_rgb("#9aa7b3"),
    checkers=(
        CheckerStyle(fill=hex_rgb("#f4f0e6"), rim=hex_rgb("#34302a"), text=hex_rgb("#1b1b1b")),
        CheckerStyle(fill=hex_rgb("#2a2d35"), rim=hex_rgb("#c9ced6"), text=hex_rgb("#ffffff")),
    ),
    cube=hex_rgb("#fbfbf8"),
    cube_text=hex_rgb("#111111"),
    highlight=hex_rgb("#ffcf33"),
    hit=hex_rgb("#ff5fa2"),
    banner=hex_rgb("#101418"),
    banner_text=hex_rgb("#ffffff"),
))

CLASSIC = register(Theme(
    name="classic",
    background=hex_rgb("#2b1d12"),
    frame=hex_rgb("#6b4226"),
    frame_edge=hex_rgb("#3b2414"),
    field=hex_rgb("#1f5e3a"),
    points=(hex_rgb("#b8352e"), hex_rgb("#efe2c0")),
    bar=hex_rgb("#6b4226"),
    tray=hex_rgb("#4a2d19"),
    frame_text=hex_rgb("#fbeed3"),
    panel=hex_rgb("#3a2818"),
    panel_active=hex_rgb("#5e4127"),
    panel_text=hex_rgb("#fff6e6"),
    panel_muted=hex_rgb("#cdb99a"),
    checkers=(
        CheckerStyle(fill=hex_rgb("#f6efdf"), rim=hex_rgb("#5a4530"), text=hex_rgb("#2b1d12")),
        CheckerStyle(fill=hex_rgb("#5a1414"), rim=hex_rgb("#e8c9a0"), text=hex_rgb("#ffffff")),
    ),
    cube=hex_rgb("#fffaf0"),
    cube_text=hex_rgb("#2b1d12"),
    highlight=hex_rgb("#ffd54a"),
    hit=hex_rgb("#3fa9f5"),
    banner=hex_rgb("#1c120a"),
    banner_text=hex_rgb("#fff6e6"),
))

DARK = register(Theme(
    name="dark",
    background=hex_rgb("#0f1115"),
    frame=hex_rgb("#1d2128"),
    frame_edge=hex_rgb("#07080a"),
    field=hex_rgb("#16191f"),
    points=(hex_rgb("#5b6b86"), hex_rgb("#9c7b52")),
    bar=hex_rgb("#1d2128"),
    tray=hex_rgb("#111318"),
    frame_text=hex_rgb("#c9d1dc"),
    panel=hex_rgb("#171a20"),
    panel_active=hex_rgb("#2b3240"),
    panel_text=hex_rgb("#e8ecf2"),
    panel_muted=hex_rgb("#8a94a3"),
    checkers=(
        CheckerStyle(fill=hex_rgb("#e9e6df"), rim=hex_rgb("#2a2a2a"), text=hex_rgb("#111111")),
        CheckerStyle(fill=hex_rgb("#e07a2e"), rim=hex_rgb("#3a1c06"), text=hex_rgb("#1a0d02")),
    ),
    cube=hex_rgb("#e9e6df"),
    cube_text=hex_rgb("#111111"),
    highlight=hex_rgb("#43c6ff"),
    hit=hex_rgb("#ff4d8d"),
    banner=hex_rgb("#000000"),
    banner_text=hex_rgb("#ffffff"),
))

"""The PNG renderer: a :class:`~render.view.BoardView` in, PNG bytes out.

Speed comes from caching: the static background (frame, points, numbers) is
drawn once per theme and size; every checker, die, cube and mark is a sprite
drawn once at four times its size and downsampled (so edges are
anti-aliased), then pasted.  A frame is a copy of the background, a few dozen
pastes, a little text, and the PNG encoding.
"""

from __future__ import annotations

import io
import math
import struct
import threading
import zlib
from collections import OrderedDict
from collections.abc import Callable, Hashable
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from engine.player import Player
from engine.words import counted
from render.layout import DEFAULT_WIDTH, Frame, Layout, Rect, Stack, build, frame
from render.text import Font, draw_text, fit_text, font, has_colour, text_bbox, text_length
from render.theme import RGB, Theme, get_theme
from render.view import ANSWER_WORDS, BoardView, ResultKind, StakeState

SS = 4
"""Supersampling factor of the cached shapes."""

PNG_COMPRESS_LEVEL = 3

RING_RADIUS = 0.6
RING_WIDTH = 0.15
"""Last-play rings over a checker: the band from ``RING_RADIUS - RING_WIDTH``
to ``RING_RADIUS`` of the checker's radius (a checker's own colour shows from
0.75 to 0.9 of it)."""

def _mix(a: RGB, b: RGB, t: float) -> RGB:
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t),
            round(a[2] + (b[2] - a[2]) * t))


def _ss(rect: tuple[float, float, float, float]) -> tuple[int, int, int, int]:
    return (round(rect[0] * SS), round(rect[1] * SS), round(rect[2] * SS) - 1,
            round(rect[3] * SS) - 1)


# ---------------------------------------------------------------- sprites


@lru_cache(maxsize=256)
def checker_sprite(theme: Theme, player: int, radius: int) -> Image.Image:
    style = theme.checkers[player]
    size = 2 * radius + 2
    big = Image.new("RGBA", (size * SS, size * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    c = size * SS / 2
    r = radius * SS
    d.ellipse((c - r, c - r, c + r, c + r), fill=(*style.rim, 255))
    rf = r * 0.9
    d.ellipse((c - rf, c - rf, c + rf, c + rf), fill=(*style.fill, 255))
    r1 = r * 0.7
    ring = max(1, round(r * 0.05))
    d.ellipse((c - r1, c - r1, c + r1, c + r1), outline=(*_mix(style.fill, style.rim, 0.45), 255),
              width=ring)
    return big.reduce(SS)


@lru_cache(maxsize=64)
def ring_sprite(colour: RGB, edge: RGB, radius: int, dashed: bool) -> Image.Image:
    """A ring drawn over a checker (arrived / hit) or alone (the slot a checker left)."""
    size = 2 * radius + 2
    big = Image.new("RGBA", (size * SS, size * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    c = size * SS / 2
    if dashed:
        r = radius * SS * 0.86
        w = max(SS, round(radius * SS * 0.13))
        for k in range(12):
            start = k * 30
            d.arc((c - r, c - r, c + r, c + r), start, start + 17, fill=(*colour, 255), width=w)
    else:
        r = radius * SS * RING_RADIUS
        w = round(radius * SS * RING_WIDTH)
        d.ellipse((c - r - SS, c - r - SS, c + r + SS, c + r + SS), outline=(*edge, 200),
                  width=w + 2 * SS)
        d.ellipse((c - r, c - r, c + r, c + r), outline=(*colour, 255), width=w)
    return big.reduce(SS)


@lru_cache(maxsize=64)
def slab_sprite(theme: Theme, player: int, width: int, height: int) -> Image.Image:
    style = theme.checkers[player]
    big = Image.new("RGBA", (width * SS, height * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    rad = min(width, height) * SS * 0.45
    d.rounded_rectangle((0, 0, width * SS - 1, height * SS - 1), radius=rad,
                        fill=(*style.rim, 255))
    e = max(SS, round(height * SS * 0.16))
    d.rounded_rectangle((e, e, width * SS - 1 - e, height * SS - 1 - e), radius=max(1, rad - e),
                        fill=(*style.fill, 255))
    return big.reduce(SS)


_PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((1, 1),),
    2: ((0, 0), (2, 2)),
    3: ((0, 0), (1, 1), (2, 2)),
    4: ((0, 0), (2, 0), (0, 2), (2, 2)),
    5: ((0, 0), (2, 0), (1, 1), (0, 2), (2, 2)),
    6: ((0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)),
}
"""Pip cells of each die face on a 3x3 grid ``(column, row)``."""


def pip_centres(rect: Rect, value: int) -> tuple[tuple[int, int], ...]:
    """Pixel centres of the pips of a die face drawn in ``rect``."""
    x0, y0, x1, y1 = rect
    step = (x1 - x0) * 0.27
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    return tuple((round(cx + (c - 1) * step), round(cy + (r - 1) * step))
                 for c, r in _PIPS[value])


def all_pip_cells(rect: Rect) -> tuple[tuple[int, int], ...]:
    """The seven cells any face can use (for tests: which are lit)."""
    x0, y0, x1, y1 = rect
    step = (x1 - x0) * 0.27
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    cells = ((0, 0), (2, 0), (0, 1), (1, 1), (2, 1), (0, 2), (2, 2))
    return tuple((round(cx + (c - 1) * step), round(cy + (r - 1) * step)) for c, r in cells)


@lru_cache(maxsize=128)
def die_sprite(theme: Theme, player: int, size: int, value: int, used: bool) -> Image.Image:
    style = theme.checkers[player]
    big = Image.new("RGBA", (size * SS, size * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    s = size * SS
    d.rounded_rectangle((0, 0, s - 1, s - 1), radius=s * 0.18, fill=(*style.rim, 255))
    e = max(SS, round(s * 0.05))
    d.rounded_rectangle((e, e, s - 1 - e, s - 1 - e), radius=s * 0.15, fill=(*style.fill, 255))
    pr = s * 0.085
    for px, py in pip_centres((0, 0, s, s), value):
        d.ellipse((px - pr, py - pr, px + pr, py + pr), fill=(*style.text, 255))
    small = big.reduce(SS)
    if used:
        alpha = small.getchannel("A").point(lambda a: a * 35 // 100)
        small.putalpha(alpha)
    return small


@lru_cache(maxsize=64)
def cube_sprite(theme: Theme, size: int, value: int) -> Image.Image:
    big = Image.new("RGBA", (size * SS, size * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    s = size * SS
    d.rounded_rectangle((0, 0, s - 1, s - 1), radius=s * 0.16, fill=(*theme.cube_text, 255))
    e = max(SS, round(s * 0.045))
    d.rounded_rectangle((e, e, s - 1 - e, s - 1 - e), radius=s * 0.13, fill=(*theme.cube, 255))
    small = big.reduce(SS)
    text = str(value)
    f = font(round(size * (0.55 if len(text) == 1 else 0.46 if len(text) == 2 else 0.36)), True)
    draw_text(small, (size / 2, size / 2), text, f, theme.cube_text, "mm")
    return small


@lru_cache(maxsize=32)
def triangle_sprite(colour: RGB, edge: RGB, size: int, direction: int) -> Image.Image:
    """A small arrow head pointing left (-1) or right (1)."""
    big = Image.new("RGBA", (size * SS, size * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    s = size * SS
    m = s * 0.12
    pts = [(m, m), (s - m, s / 2), (m, s - m)] if direction > 0 else [
        (s - m, m), (m, s / 2), (s - m, s - m)]
    d.polygon(pts, fill=(*colour, 255), outline=(*edge, 255), width=max(1, SS))
    return big.reduce(SS)


@lru_cache(maxsize=16)
def panel_sprite(theme: Theme, width: int, height: int, active: bool) -> Image.Image:
    big = Image.new("RGBA", (width * SS, height * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(big)
    fill = theme.panel_active if active else theme.panel
    d.rounded_rectangle((0, 0, width * SS - 1, height * SS - 1), radius=height * SS * 0.22,
                        fill=(*fill, 255))
    if active:
        w = round(height * SS * 0.09)
        d.rounded_rectangle((0, 0, w * 2, height * SS - 1), radius=w, fill=(*theme.highlight, 255))
        d.rectangle((w, 0, w * 2, height * SS - 1), fill=(*fill, 255))
    return big.reduce(SS)


# ------------------------------------------------------------- background


@lru_cache(maxsize=16)
def background(theme: Theme, width: int = DEFAULT_WIDTH, chouette: bool = False) -> Image.Image:
    """The static part of the picture: frame, fields, points, pockets, numbers."""
    fr = frame(width, chouette)
    big = Image.new("RGB", (fr.width * SS, fr.height * SS), theme.background)
    d = ImageDraw.Draw(big)
    u = fr.unit
    bx0, by0, bx1, by1 = fr.board
    d.rounded_rectangle(_ss((bx0, by0, bx1, by1)), radius=u * 0.3 * SS, fill=theme.frame_edge)
    edge = u * 0.05
    d.rounded_rectangle(_ss((bx0 + edge, by0 + edge, bx1 - edge, by1 - edge)),
                        radius=u * 0.26 * SS, fill=theme.frame)
    for f in (fr.field_left, fr.field_right):
        d.rectangle(_ss((f[0] - edge, f[1] - edge, f[2] + edge, f[3] + edge)),
                    fill=theme.frame_edge)
        d.rectangle(_ss(f), fill=theme.field)
    d.rectangle(_ss(fr.bar), fill=theme.bar)
    half_w = u * 0.47
    for p in range(1, 25):
        x = fr.point_x[p]
        colour = theme.points[p % 2]
        if p <= 12:
            base = fr.inner_bottom
            tip = base - fr.point_tip
        else:
            base = fr.inner_top
            tip = base + fr.point_tip
        d.polygon([((x - half_w) * SS, base * SS), ((x + half_w) * SS, base * SS),
                   (x * SS, tip * SS)], fill=colour)
    for pocket in (*fr.trays, *fr.waits):
        d.rounded_rectangle(_ss(pocket), radius=u * 0.14 * SS, fill=theme.tray)
    if fr.chouette is not None:
        d.rounded_rectangle(_ss(fr.chouette), radius=u * 0.2 * SS, fill=theme.panel)
    img = big.reduce(SS)

    nf = font(round(u * 0.34), True)
    ty = (fr.numbers_top[1] + fr.numbers_top[3]) / 2
    by = (fr.numbers_bottom[1] + fr.numbers_bottom[3]) / 2
    for p in range(1, 25):
        y = by if p <= 12 else ty
        draw_text(img, (fr.point_x[p], y), str(p), nf, theme.frame_text, "mm")
    return img


# ------------------------------------------------------------------ frame
#
# A board is drawn as a list of operations (paste a sprite, paste a text, draw an
# outline, shade the banner), each with its footprint: the rectangle outside which
# it leaves every pixel as it was.  The operations are grouped into *zones* (a
# point's stack and its rings, a tray, a panel, the dice...); zones whose
# footprints overlap are merged, so that what lands in one zone's rectangle
# depends only on the background and that zone's operations, in order.
#
# :func:`draw_rgb` (the truecolour picture) runs every operation on a copy of the
# background.  :func:`board_indexed` (the PNG and the replay frames) instead
# pastes, for each zone, a patch already converted to the theme's palette: the
# background's own patch for an empty zone, else the zone drawn once in RGB on a
# crop of the background and converted (converting to a fixed palette without
# dithering maps each colour on its own, so a crop converts exactly as the whole
# picture would).  Patches are remembered by the zone's operations: a point with
# two white checkers, a die showing 5, a panel unchanged since the last move
# cost one dictionary look-up and one paste of 1-byte pixels.


TEXT_CACHE = True
"""Draw texts from :func:`text_mask` (False: straight through Pillow, for a test)."""


@lru_cache(maxsize=4096)
def _bbox(f: Font, text: str, anchor: str) -> tuple[int, int, int, int]:
    return text_bbox(f, text, anchor)


_MASK_MARGIN = 2


@lru_cache(maxsize=64)
def _metrics(f: Font) -> tuple[int, int]:
    ascent, descent = f.getmetrics()
    return int(ascent), int(descent)


def _loose_box(f: Font, text: str, anchor: str, x: float, y: float) -> Rect:
    """A rectangle sure to hold ``text`` drawn at ``(x, y)``: its advance and the font's
    ascent and descent placed by the anchor, with a margin (measuring its ink exactly
    costs a rasterisation: the IDs, new on every board, would pay it each time)."""
    width = text_length(f, text)
    ascent, descent = _metrics(f)
    margin = int(f.size) // 4 + 2
    h, v = anchor[0], anchor[1]
    left = x if h == "l" else x - width if h == "r" else x - width / 2
    if v == "m":
        top = y - (ascent + descent) / 2
    elif v in "as":
        top = y - (0 if v == "a" else ascent)
    else:  # "t", "b", "d": no guess, the whole height either side
        top = y - ascent - descent
    bottom = top + ascent + descent if v in "mas" else y + ascent + descent
    return (math.floor(min(left, x)) - margin, math.floor(top) - 2,
            math.ceil(max(left + width, x)) + margin + 1, math.ceil(bottom) + 3)


@lru_cache(maxsize=4096)
def text_mask(f: Font, text: str, anchor: str) -> tuple[Image.Image, int, int]:
    """The coverage mask of ``text`` and where its top-left goes from the anchor point.

    Rasterising glyphs is a third of a board's drawing time, and the same texts
    (names, pip counts, scores, counts on stacks) come back board after board.
    At an integer anchor point Pillow rasterises a text the same way wherever it
    goes, and ``paste(colour, box, mask)`` blends exactly like ``draw.text``
    (both are ImagingFill2), so the picture is the same to the bit.
    """
    left, top, right, bottom = _bbox(f, text, anchor)  # integers for a FreeType font
    margin = _MASK_MARGIN
    mask = Image.new("L", (right - left + 2 * margin, bottom - top + 2 * margin), 0)
    draw_text(mask, (margin - left, margin - top), text, f, 255, anchor)
    return mask, left - margin, top - margin


@lru_cache(maxsize=256)
def text_sprite(f: Font, text: str, anchor: str, fill: RGB) -> tuple[Image.Image, int, int]:
    """``text`` drawn in ``fill`` on a transparent picture (emoji in their own colours),
    and where its top-left goes from the anchor point (as :func:`text_mask`)."""
    mask, dx, dy = text_mask(f, text, anchor)
    sprite = Image.new("RGBA", mask.size, (*fill, 0))
    draw_text(sprite, (-dx, -dy), text, f, (*fill, 255), anchor)
    return sprite, dx, dy


Draw = Callable[[Image.Image, ImageDraw.ImageDraw, int, int], None]
"""An operation: draws on an image whose top-left is ``(ox, oy)`` of the picture."""

Op = tuple[int, Hashable, Draw, Rect]
"""An operation recorded: its order, its key, how it draws, its footprint."""

_ALPHA_BOXES: dict[int, tuple[Image.Image, Rect]] = {}


def _alpha_box(sprite: Image.Image) -> Rect:
    """The rectangle of ``sprite`` that pasting it can change (its alpha's bounds)."""
    known = _ALPHA_BOXES.get(id(sprite))
    if known is not None and known[0] is sprite:
        return known[1]
    box = sprite.getchannel("A").getbbox() or (0, 0, 0, 0)
    if len(_ALPHA_BOXES) > 4096:
        _ALPHA_BOXES.clear()
    _ALPHA_BOXES[id(sprite)] = (sprite, box)
    return box


class _Ops:
    """The operations of one picture, by zone, in drawing order."""

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height
        self.zones: dict[Hashable, list[Any]] = {}
        """zone -> [x0, y0, x1, y1, [op, ...]]"""
        self.seq = 0
        self.bases: dict[Hashable, int] = {}

    def add(self, zone: Hashable, box: Rect, key: Hashable, draw: Draw) -> None:
        x0, y0, x1, y1 = box
        x0, y0 = max(0, x0), max(0, y0)
        x1, y1 = min(self.width, x1), min(self.height, y1)
        if x0 >= x1 or y0 >= y1:
            return  # nothing of it inside the picture
        self.seq += 1
        z = self.zones.get(zone)
        if z is None:
            self.zones[zone] = [x0, y0, x1, y1, [(self.seq, key, draw, (x0, y0, x1, y1))]]
            return
        z[0], z[1] = min(z[0], x0), min(z[1], y0)
        z[2], z[3] = max(z[2], x1), max(z[3], y1)
        z[4].append((self.seq, key, draw, (x0, y0, x1, y1)))

    def add_all(self, zone: Hashable, recorded: tuple[Rect, list[Op]]) -> None:
        """Operations recorded before (by another :class:`_Ops` of the same size), in order,
        and the rectangle they cover."""
        (x0, y0, x1, y1), done = recorded
        if not done:
            return
        z = self.zones.get(zone)
        seq = self.seq
        if z is None:
            self.zones[zone] = z = [x0, y0, x1, y1, []]
        else:
            z[0], z[1] = min(z[0], x0), min(z[1], y0)
            z[2], z[3] = max(z[2], x1), max(z[3], y1)
        z[4].extend([(seq + i, op[1], op[2], op[3]) for i, op in enumerate(done, 1)])
        self.seq = seq + len(done)

    def recorded(self, zone: Hashable) -> tuple[Rect, list[Op]]:
        z = self.zones.get(zone)
        if z is None:
            return (0, 0, 0, 0), []
        return (z[0], z[1], z[2], z[3]), list(z[4])

    def paste(self, zone: Hashable, key: Hashable, sprite: Image.Image, x: int, y: int) -> None:
        """``sprite`` (RGBA) pasted with its alpha at ``(x, y)``; ``key`` names the sprite."""
        bx0, by0, bx1, by1 = _alpha_box(sprite)

        def draw(img: Image.Image, d: ImageDraw.ImageDraw, ox: int, oy: int) -> None:
            img.paste(sprite, (x - ox, y - oy), sprite)

        self.add(zone, (x + bx0, y + by0, x + bx1, y + by1), (key, x, y), draw)

    def text(self, zone: Hashable, xy: tuple[float, float], text: str, f: Font, fill: RGB,
             anchor: str = "lm") -> None:
        if not text:
            return
        x, y = xy
        # A whole number in a float is drawn as that integer is (no fractional start).
        if isinstance(x, float) and x.is_integer():
            x = int(x)
        if isinstance(y, float) and y.is_integer():
            y = int(y)
        if TEXT_CACHE and isinstance(x, int) and isinstance(y, int):
            # The mask's place from the text's bounds (as text_mask makes it); the mask
            # itself is made only if the patch has to be drawn.
            left, top, right, bottom = _bbox(f, text, anchor)
            box = (x + left - _MASK_MARGIN, y + top - _MASK_MARGIN, x + right + _MASK_MARGIN,
                   y + bottom + _MASK_MARGIN)

            def paste(img: Image.Image, d: ImageDraw.ImageDraw, ox: int, oy: int) -> None:
                if has_colour(f, text):  # emoji keep their colours
                    sprite, dx, dy = text_sprite(f, text, anchor, fill)
                    img.paste(sprite, (x + dx - ox, y + dy - oy), sprite)
                    return
                mask, dx, dy = text_mask(f, text, anchor)
                img.paste(fill, (x + dx - ox, y + dy - oy, x + dx + mask.width - ox,
                                 y + dy + mask.height - oy), mask)

            self.add(zone, box, ("t", f, text, anchor, fill, x, y), paste)
            return
        if text.isascii() and len(anchor) == 2:  # DejaVu's ascent and descent hold ASCII
            box = _loose_box(f, text, anchor, x, y)
        else:
            left, top, right, bottom = _bbox(f, text, anchor)
            ix, iy = math.floor(x), math.floor(y)
            box = (min(ix, ix + left) - 2, min(iy, iy + top) - 2, max(ix + 1, ix + right) + 3,
                   max(iy + 1, iy + bottom) + 3)

        def draw(img: Image.Image, d: ImageDraw.ImageDraw, ox: int, oy: int) -> None:
            draw_text(img, (x - ox, y - oy), text, f, fill, anchor)

        self.add(zone, box, ("T", f, text, anchor, fill, x, y), draw)

    def rectangle(self, zone: Hashable, rect: Rect, outline: RGB, width: int) -> None:
        x0, y0, x1, y1 = rect

        def draw(img: Image.Image, d: ImageDraw.ImageDraw, ox: int, oy: int) -> None:
            d.rectangle((x0 - ox, y0 - oy, x1 - ox, y1 - oy), outline=outline, width=width)

        self.add(zone, (x0 - 1, y0 - 1, x1 + 2, y1 + 2), ("r", rect, outline, width), draw)

    def line(self, zone: Hashable, xy: tuple[float, float, float, float], fill: RGB,
             width: int) -> None:
        x0, y0, x1, y1 = xy

        def draw(img: Image.Image, d: ImageDraw.ImageDraw, ox: int, oy: int) -> None:
            d.line((x0 - ox, y0 - oy, x1 - ox, y1 - oy), fill=fill, width=width)

        pad = width + 2
        self.add(zone, (math.floor(min(x0, x1)) - pad, math.floor(min(y0, y1)) - pad,
                        math.ceil(max(x0, x1)) + pad + 1, math.ceil(max(y0, y1)) + pad + 1),
                 ("l", xy, fill, width), draw)

    def ordered(self) -> list[Op]:
        return sorted(op for z in self.zones.values() for op in z[4])

    def end_base(self, zone: Hashable) -> None:
        """The zone's operations so far are its *base* (a panel and its chip): drawn and
        remembered once, the later ones (its texts) drawn over it in small patches."""
        z = self.zones.get(zone)
        if z is not None:
            self.bases[zone] = len(z[4])

    def groups(self) -> list[list[Any]]:
        """The zones merged until no two rectangles overlap: ``[x0, y0, x1, y1, ops,
        zone]`` (``zone`` None for zones merged together)."""
        todo = [[*z, zone] for zone, z in self.zones.items()]
        done: list[list[Any]] = []
        while todo:
            a = todo.pop()
            merged = True
            while merged:
                merged = False
                for i in range(len(done) - 1, -1, -1):
                    b = done[i]
                    if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
                        del done[i]
                        a = [min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]),
                             max(a[3], b[3]), a[4] + b[4], None]
                        merged = True
            done.append(a)
        return done


def _merge(boxes: list[list[Any]]) -> list[list[Any]]:
    """``[x0, y0, x1, y1, ops]`` merged until no two rectangles overlap."""
    done: list[list[Any]] = []
    for a in boxes:
        merged = True
        while merged:
            merged = False
            for i in range(len(done) - 1, -1, -1):
                b = done[i]
                if a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]:
                    del done[i]
                    a = [min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]),
                         a[4] + b[4]]
                    merged = True
        done.append(a)
    return done


_stacks: dict[tuple[int, Stack, int, int, int], tuple[Theme, tuple[Rect, list[Op]]]] = {}


def _draw_stack(ops: _Ops, zone: Hashable, theme: Theme, st: Stack, fr: Frame) -> None:
    """A point's (or a bar half's) checkers and count: their operations recorded once per
    stack (owner, count, place) and added again as they were."""
    if st.owner is None or not st.count:
        return
    key = (id(theme), st, round(fr.unit * 0.44), ops.width, ops.height)
    known = _stacks.get(key)
    if known is None or known[0] is not theme:
        alone = _Ops(ops.width, ops.height)
        _record_stack(alone, theme, st, fr)
        known = (theme, alone.recorded(0))
        if len(_stacks) > 4096:
            _stacks.clear()
        _stacks[key] = known
    ops.add_all(zone, known[1])


def _record_stack(ops: _Ops, theme: Theme, st: Stack, fr: Frame) -> None:
    assert st.owner is not None
    zone = 0
    sprite = checker_sprite(theme, int(st.owner), st.radius)
    key = ("chk", int(st.owner), st.radius)
    half = sprite.width // 2
    for k in range(st.shown):
        x, y = st.centres[k]
        ops.paste(zone, key, sprite, x - half, y - half)
    if st.labelled:
        x, y = st.centres[st.shown - 1]
        f = font(round(fr.unit * 0.44), True)
        ops.text(zone, (x, y), str(st.count), f, theme.checkers[st.owner].text, "mm")


def _panel(ops: _Ops, theme: Theme, view: BoardView, lay: Layout, rect: Rect,
           player: Player) -> None:
    zone = ("panel", rect)
    fr = lay.frame
    u = fr.unit
    x0, y0, x1, y1 = rect
    status = view.status(player)
    sprite = panel_sprite(theme, x1 - x0, y1 - y0, bool(status))
    ops.paste(zone, ("panel", x1 - x0, y1 - y0, bool(status)), sprite, x0, y0)
    cy = (y0 + y1) // 2
    r = round(u * 0.34)
    chip = checker_sprite(theme, int(player), r)
    ops.paste(zone, ("chk", int(player), r), chip, x0 + round(u * 0.3), cy - chip.height // 2)
    ops.end_base(zone)
    info = view.players[player]
    x = x0 + round(u * 0.3) + chip.width + round(u * 0.25)
    # Right-hand side: score, then status.
    right = x1 - round(u * 0.3)
    if view.match is not None and info.score is not None:
        sf = font(round(u * 0.5), True)
        score = str(info.score)
        ops.text(zone, (right, cy), score, sf, theme.panel_text, "rm")
        right -= round(text_length(sf, score) + u * 0.15)
        lf = font(round(u * 0.28))
        ops.text(zone, (right, cy + round(u * 0.05)), "score", lf, theme.panel_muted, "rm")
        right -= round(text_length(lf, "score") + u * 0.35)
    if status:
        stf = font(round(u * 0.32), True)
        ops.text(zone, (right, cy), status, stf, theme.highlight, "rm")
        right -= round(text_length(stf, status) + u * 0.35)
    pf = font(round(u * 0.32))
    pips = counted(view.pips(player), "pip")
    waiting = view.position.waiting(player)
    if waiting:
        pips += f" · {waiting} to enter"
    if info.clock:
        pips += f" · clock {info.clock}"
    pip_w = round(text_length(pf, pips))
    name = info.name + (f" ({info.note})" if info.note else "")
    name_w = right - x - pip_w - round(u * 0.35)
    text, nf = fit_text(name, round(u * 0.42), True, max(name_w, round(u)))
    ops.text(zone, (x, cy), text, nf, theme.panel_text)
    x += round(text_length(nf, text) + u * 0.3)
    ops.text(zone, (x, cy + round(u * 0.03)), pips, pf, theme.panel_muted)


def _chouette(ops: _Ops, theme: Theme, view: BoardView, fr: Frame) -> None:
    assert view.chouette is not None and fr.chouette is not None
    zone = "chouette"
    ch = view.chouette
    u = fr.unit
    x0, y0, x1, _ = fr.chouette
    w = x1 - x0 - round(u * 0.6)
    x = x0 + round(u * 0.3)
    y = y0 + round(u * 0.5)
    hf = font(round(u * 0.36), True)
    ops.text(zone, (x, y), "CHOUETTE", hf, theme.panel_muted)
    y += round(u * 0.7)
    for label, who in (("Box", ch.box), ("Captain", ch.box.other)):
        ops.text(zone, (x, y), label, font(round(u * 0.28)), theme.panel_muted)
        y += round(u * 0.42)
        name, nf = fit_text(view.players[who].name, round(u * 0.38), True, w)
        ops.text(zone, (x, y), name, nf, theme.panel_text)
        y += round(u * 0.62)
        if who is ch.box and ch.box_partners:  # the box's own partners, with the box
            with_box, wf = fit_text("with " + ", ".join(ch.box_partners), round(u * 0.3),
                                    False, w)
            ops.text(zone, (x, y - round(u * 0.14)), with_box, wf, theme.panel_text)
            y += round(u * 0.4)
    ops.text(zone, (x, y), "Partners", font(round(u * 0.28)), theme.panel_muted)
    y += round(u * 0.45)
    rf = font(round(u * 0.3))
    for i, partner in enumerate(ch.partners, 1):
        dropped = partner.state is StakeState.DROPPED
        colour = theme.panel_muted if dropped else theme.panel_text
        name, nf = fit_text(f"{i}. {partner.name}", round(u * 0.34), not dropped, w)
        ops.text(zone, (x, y), name, nf, colour)
        if dropped:
            ly = y + 1
            ops.line(zone, (x, ly, x + text_length(nf, name), ly), colour, max(1, round(u * 0.04)))
        y += round(u * 0.38)
        ops.text(zone, (x + round(u * 0.35), y), partner.state.label, rf,
                 theme.panel_muted if dropped else theme.highlight)
        y += round(u * 0.52)
        if y > fr.chouette[3] - u * 0.4:
            break


def _banner(ops: _Ops, theme: Theme, view: BoardView, fr: Frame) -> None:
    assert view.game_over is not None
    zone = "banner"
    go = view.game_over
    u = fr.unit
    # Inside the playing fields and the bar only: the rails keep the cube and the
    # borne-off counts in sight (issue 30 item 11).
    bx0, bx1 = fr.field_left[0], fr.field_right[2]
    rect = (bx0 + round(u * 0.15), fr.mid_y - round(u * 0.95), bx1 - round(u * 0.15),
            fr.mid_y + round(u * 0.95))
    shade_colour = theme.banner

    def shade(img: Image.Image, d: ImageDraw.ImageDraw, ox: int, oy: int) -> None:
        box = (rect[0] - ox, rect[1] - oy, rect[2] - ox, rect[3] - oy)
        region = img.crop(box)
        img.paste(Image.blend(region, Image.new("RGB", region.size, shade_colour), 0.82),
                  box[:2])

    ops.add(zone, rect, ("shade", rect, shade_colour), shade)
    ops.rectangle(zone, rect, theme.highlight, max(2, round(u * 0.06)))
    name = view.players[go.winner].name
    kind = go.kind.phrase
    pts = f"{go.points} point{'s' if go.points != 1 else ''}"
    w = rect[2] - rect[0] - round(u * 0.6)
    line1, f1 = fit_text(f"{name} wins {kind}", round(u * 0.6), True, w)
    ops.text(zone, ((rect[0] + rect[2]) / 2, fr.mid_y - round(u * 0.3)), line1, f1,
             theme.banner_text, "mm")
    ops.text(zone, ((rect[0] + rect[2]) / 2, fr.mid_y + round(u * 0.45)), pts,
             font(round(u * 0.42), True), theme.highlight, "mm")


TITLE_GAP_UNITS = 0.8
"""The least gap between the title and the IDs in the title band, in board units."""


def _offer_lines(ops: _Ops, theme: Theme, fr: Frame, first: str, second: str,
                 right_half: bool) -> None:
    """Two lines in the middle of one half of the board: what is offered, and who answers
    (a double or a beaver; an offer to resign: issue 30 item 2)."""
    u = fr.unit
    half = fr.field_right if right_half else fr.field_left
    zone = ("offer", right_half)
    w = half[2] - half[0] - round(u * 0.3)
    cx = (half[0] + half[2]) / 2
    t1, f1 = fit_text(first, round(u * 0.34), True, w)
    t2, f2 = fit_text(second, round(u * 0.34), True, w)
    ops.text(zone, (cx, fr.mid_y - round(u * 0.22)), t1, f1, theme.frame_text, "mm")
    ops.text(zone, (cx, fr.mid_y + round(u * 0.24)), t2, f2, theme.highlight, "mm")


def _resignation(ops: _Ops, theme: Theme, view: BoardView, lay: Layout) -> None:
    """The offer to resign, in the half of the board without the dice (issue 30 item 2)."""
    offer = view.resignation
    assert offer is not None
    fr = lay.frame
    names = (view.players[0].name, view.players[1].name)
    dice_right = any(die.rect[0] >= fr.field_right[0] for die in lay.dice)
    right = not dice_right if lay.dice else offer.player == lay.viewer
    _offer_lines(ops, theme, fr, f"{names[offer.player]} offers to resign {offer.kind.phrase}",
                 f"{names[offer.player.other]}: accept or reject?", right)


def _dice_stage(ops: _Ops, theme: Theme, view: BoardView, lay: Layout) -> None:
    """"named" or "reverse side" under the dice of a variant's second stage (issue 30
    item 4)."""
    if not view.dice_stage or not lay.dice:
        return
    fr = lay.frame
    x0 = min(die.rect[0] for die in lay.dice)
    x1 = max(die.rect[2] for die in lay.dice)
    y = max(die.rect[3] for die in lay.dice) + round(fr.unit * 0.25)
    f = font(round(fr.unit * 0.28), True)
    ops.text("dice", ((x0 + x1) / 2, y), view.dice_stage, f, theme.frame_text, "mm")


def render_image(view: BoardView, *, theme: str = "default",
                 size: int = DEFAULT_WIDTH) -> Image.Image:
    """The board picture as a Pillow RGB image (``size`` = board width in pixels)."""
    return draw_rgb(view, get_theme(theme), size)


def draw_rgb(view: BoardView, th: Theme, size: int) -> Image.Image:
    """The picture in RGB: every operation run on a copy of the background."""
    img = background(th, size, view.chouette is not None).copy()
    d = ImageDraw.Draw(img)
    for op in _operations(view, th, size).ordered():
        op[2](img, d, 0, 0)
    return img


def _operations(view: BoardView, th: Theme, size: int) -> _Ops:
    lay = build(view, size)
    fr = lay.frame
    u = fr.unit
    ops = _Ops(fr.width, fr.height)

    title = view.title()
    mid_y = (fr.title[1] + fr.title[3]) / 2
    if view.ids:  # the IDs at the right, the title left of them
        width = fr.title[2] - fr.title[0]
        it, itf = fit_text(view.ids, round(u * 0.26), False, width * 11 // 20)
        ops.text("ids", (fr.title[2], mid_y), it, itf, th.panel_muted, "rm")
        rest = width - round(text_length(itf, it)) - round(TITLE_GAP_UNITS * u)  # issue 30 item 11
        if title and rest > 0:
            t, tf = fit_text(title, round(u * 0.36), False, rest)
            ops.text("title", (fr.title[0], mid_y), t, tf, th.panel_muted, "lm")
    elif title:
        t, tf = fit_text(title, round(u * 0.36), False, fr.title[2] - fr.title[0])
        ops.text("title", ((fr.title[0] + fr.title[2]) / 2, mid_y), t, tf,
                 th.panel_muted, "mm")
    _panel(ops, th, view, lay, fr.panel_top, lay.viewer.other)
    _panel(ops, th, view, lay, fr.panel_bottom, lay.viewer)

    for p, st in enumerate(lay.points[1:], 1):
        _draw_stack(ops, p, th, st, fr)
    for b, st in enumerate(lay.bar):
        _draw_stack(ops, ("bar", b), th, st, fr)

    cf = font(round(u * 0.3), True)
    for name, group, word in (("tray", lay.trays, "off"), ("wait", lay.waiting, "to enter")):
        for i, slabs in enumerate(group):
            if not slabs.count:
                continue
            zone = (name, i)
            x0, y0, x1, y1 = slabs.rects[0]
            sprite = slab_sprite(th, int(slabs.owner), x1 - x0, y1 - y0)
            key = ("slab", int(slabs.owner), x1 - x0, y1 - y0)
            for k in range(slabs.count):
                ops.paste(zone, key, sprite, *slabs.rects[k][:2])
            label = str(slabs.count) if word == "off" else f"{slabs.count}"
            ops.text(zone, slabs.label, label, cf, th.frame_text, "mm")

    if lay.cube is not None:
        cube = lay.cube
        cs = cube.rect[2] - cube.rect[0]
        sprite = cube_sprite(th, cs, cube.value)
        ops.paste("cube", ("cube", cs, cube.value), sprite, *cube.rect[:2])
        if cube.place == "offered" and cube.player is not None:
            doubler = view.players[cube.player.other].name
            answer = view.players[cube.player].name
            verb = view.cube.verb if view.cube is not None else "doubles"
            _offer_lines(ops, th, fr, f"{doubler} {verb} to {cube.value}",
                         f"{answer}: {ANSWER_WORDS}?", cube.player.other != lay.viewer)

    for die in lay.dice:
        ds = die.rect[2] - die.rect[0]
        sprite = die_sprite(th, int(die.player), ds, die.value, die.used)
        ops.paste("dice", ("die", int(die.player), ds, die.value, die.used), sprite,
                  *die.rect[:2])

    marks = lay.marks
    r = fr.radius
    if marks.arrived or marks.hit or marks.left:
        edge = (0, 0, 0)
        ring = ring_sprite(th.highlight, edge, r, False)
        for x, y in marks.arrived:
            ops.paste(("mark", x, y), ("ring", r), ring, x - ring.width // 2,
                      y - ring.height // 2)
        ghost = ring_sprite(th.highlight, edge, r, True)
        for x, y in marks.left:
            ops.paste(("mark", x, y), ("ghost", r), ghost, x - ghost.width // 2,
                      y - ghost.height // 2)
        hit = ring_sprite(th.hit, edge, r, False)
        for x, y in marks.hit:
            ops.paste(("mark", x, y), ("hit", r), hit, x - hit.width // 2, y - hit.height // 2)
    for rect in marks.borne_off:
        ops.rectangle(("off-mark", rect), (rect[0] - 1, rect[1] - 1, rect[2], rect[3]),
                      th.highlight, max(1, round(u * 0.04)))

    if lay.directions is not None:
        size_a = round(u * 0.36)
        bx = (fr.bar[0] + fr.bar[2]) // 2
        for row, strip in ((0, fr.numbers_top), (1, fr.numbers_bottom)):
            cy = (strip[1] + strip[3]) // 2
            for i, player in enumerate((lay.viewer, lay.viewer.other)):
                direction = lay.directions[player][row]
                style = th.checkers[player]
                tri = triangle_sprite(style.fill, style.rim, size_a, direction)
                x = bx - size_a - 1 if i == 0 else bx + 1
                ops.paste(("arrows", row), ("tri", int(player), size_a, direction), tri, x,
                          cy - size_a // 2)

    if view.resignation is not None:
        _resignation(ops, th, view, lay)
    _dice_stage(ops, th, view, lay)
    if view.chouette is not None:
        _chouette(ops, th, view, fr)
    if view.game_over is not None:
        _banner(ops, th, view, fr)
    return ops


# ------------------------------------------------------------ indexed picture


PATCHES = 4096
"""Zone patches remembered (per process, all themes and sizes together); the oldest
forgotten first."""

_patches: OrderedDict[Hashable, Image.Image] = OrderedDict()
_patch_lock = threading.Lock()


@lru_cache(maxsize=32)
def _indexed_background(th: Theme, size: int, chouette: bool, gif: bool,
                        pad: int, below: int = 0) -> Image.Image:
    """The background converted to the palette, with ``pad`` columns of index 0 at the
    left (one: each row of the PNG starts with its filter byte, 0 = none) and ``below``
    rows of index 0 under it (room for a replay's caption)."""
    bg = background(th, size, chouette)
    pal = board_palette(th, size, chouette, gif)
    p = bg.quantize(palette=pal, dither=Image.Dither.NONE)
    if not pad and not below:
        return p
    out = Image.new("P", (p.width + pad, p.height + below), 0)
    out.putpalette(p.getpalette() or [])
    out.paste(p, (pad, 0))
    return out


_contexts: dict[tuple[Theme, int, bool, bool], int] = {}


def _context(th: Theme, size: int, chouette: bool, gif: bool) -> int:
    """A small number standing for one background and palette in the patches' keys
    (hashing a theme for every patch would cost more than the look-up)."""
    with _patch_lock:
        return _contexts.setdefault((th, size, chouette, gif), len(_contexts))


def _patch(key: Hashable, under: Image.Image, box: Rect, origin: tuple[int, int],
           group: list[Op], pal: Image.Image) -> Image.Image:
    """The remembered patch ``key``, else ``group`` drawn over ``under``'s ``box`` (the
    picture's ``box`` is ``under``'s shifted by ``origin``) and converted to ``pal``."""
    patch = _patches.get(key)  # (first in, first out: hashing a key again costs more
    if patch is not None:      # than the few patches drawn again after their turn)
        return patch
    x0, y0, x1, y1 = box
    ox, oy = origin
    rgb = under.crop((x0 - ox, y0 - oy, x1 - ox, y1 - oy))
    d = ImageDraw.Draw(rgb)
    for op in group:
        op[2](rgb, d, x0, y0)
    patch = rgb.quantize(palette=pal, dither=Image.Dither.NONE)
    with _patch_lock:
        _patches[key] = patch
        while len(_patches) > PATCHES:
            _patches.popitem(last=False)
    return patch


_bases: OrderedDict[Hashable, tuple[Image.Image, Image.Image]] = OrderedDict()


def _layered(canvas: Image.Image, th: Theme, size: int, chouette: bool, gif: bool, pad: int,
             context: int, group: list[Op], base: int) -> bool:
    """A zone with a base (a panel): the base's patch, then each cluster of the later
    operations drawn over the base's RGB; False (nothing drawn) when one of those
    reaches outside the base."""
    pal = board_palette(th, size, chouette, gif)
    head, tail = group[:base], group[base:]
    bkey = (context, tuple(op[1] for op in head))
    with _patch_lock:
        known = _bases.get(bkey)
        if known is not None:
            _bases.move_to_end(bkey)
    if known is None:
        feet = [op[3] for op in head]
        bx0, by0 = min(b[0] for b in feet), min(b[1] for b in feet)
        bx1, by1 = max(b[2] for b in feet), max(b[3] for b in feet)
        rgb = background(th, size, chouette).crop((bx0, by0, bx1, by1))
        d = ImageDraw.Draw(rgb)
        for op in head:
            op[2](rgb, d, bx0, by0)
        rgb.info["origin"] = (bx0, by0)
        known = (rgb, rgb.quantize(palette=pal, dither=Image.Dither.NONE))
        with _patch_lock:
            _bases[bkey] = known
            while len(_bases) > 64:
                _bases.popitem(last=False)
    rgb, indexed = known
    bx0, by0 = rgb.info["origin"]
    bx1, by1 = bx0 + rgb.width, by0 + rgb.height
    boxes: list[list[Any]] = []
    for op in tail:
        x0, y0, x1, y1 = op[3]
        if x0 < bx0 or y0 < by0 or x1 > bx1 or y1 > by1:
            return False
        boxes.append([x0, y0, x1, y1, [op]])
    into = canvas.im  # pasted into straight: patches are of the same mode, in bounds
    into.paste(indexed.im, (bx0 + pad, by0, bx1 + pad, by1))
    for x0, y0, x1, y1, ops in _merge(boxes):
        ops.sort()
        key = (context, bkey, x0, y0, tuple(op[1] for op in ops))
        into.paste(_patch(key, rgb, (x0, y0, x1, y1), (bx0, by0), ops, pal).im,
                   (x0 + pad, y0, x1 + pad, y1))
    return True


def board_indexed(view: BoardView, th: Theme, size: int, gif: bool = False,
                  pad: int = 0, below: int = 0) -> Image.Image:
    """The picture in the palette's colours ("P" mode): the same pixels as
    ``draw_rgb(...).quantize(palette=board_palette(...), dither=NONE)``, with ``pad``
    columns of index 0 at its left and ``below`` rows of index 0 under it."""
    chouette = view.chouette is not None
    pal = board_palette(th, size, chouette, gif)
    canvas = _indexed_background(th, size, chouette, gif, pad, below).copy()
    into = canvas.im  # pasted into straight: patches are of the same mode, in bounds
    ops = _operations(view, th, size)
    context = _context(th, size, chouette, gif)
    for x0, y0, x1, y1, group, zone in ops.groups():
        group.sort()
        base = ops.bases.get(zone) if zone is not None else None
        if base is not None and _layered(canvas, th, size, chouette, gif, pad, context,
                                         group, base):
            continue
        key = (context, x0, y0, tuple(op[1] for op in group))
        patch = _patch(key, background(th, size, chouette), (x0, y0, x1, y1), (0, 0), group,
                       pal)
        into.paste(patch.im, (x0 + pad, y0, x1 + pad, y1))
    return canvas


class BoardFrames:
    """One picture drawn again for each board of a sequence (a replay's frames):
    :meth:`draw` returns the same "P" image as :func:`board_indexed` would for the
    view, changing only what differs from the board before.

    A picture is the background with each group of zones (:meth:`_Ops.groups`: they
    do not overlap) drawn over its rectangle, wholly (a patch, or a panel's base
    and its patches, covers the group's rectangle).  A group is known by its
    rectangle and its operations' keys, which decide its pixels; a group the board
    before had too is left as it is, the background is put back over the rectangles
    of the groups that are gone (they overlapped none of those left), then the new
    groups are drawn.  Consecutive plays change a few zones, so a frame pastes a
    few patches where :func:`board_indexed` copies the whole background and pastes
    them all."""

    def __init__(self, th: Theme, size: int, chouette: bool, gif: bool = False,
                 pad: int = 0, below: int = 0) -> None:
        self.theme, self.size, self.chouette, self.gif, self.pad = th, size, chouette, gif, pad
        self.image = _indexed_background(th, size, chouette, gif, pad, below).copy()
        self._plain = _indexed_background(th, size, chouette, gif, 0, 0)
        self._drawn: dict[tuple[int, int, int, int, tuple[Hashable, ...]], None] = {}

    def draw(self, view: BoardView) -> Image.Image:
        """The picture of ``view`` (the image itself, changed in place by the next call)."""
        if (view.chouette is not None) != self.chouette:
            raise ValueError("a chouette board and a two-player board are different pictures")
        th, size, pad, canvas = self.theme, self.size, self.pad, self.image
        ops = _operations(view, th, size)
        drawn = self._drawn
        wanted: dict[tuple[int, int, int, int, tuple[Hashable, ...]], None] = {}
        fresh = []
        for group in ops.groups():
            done = group[4]
            done.sort()
            ident = (group[0], group[1], group[2], group[3], tuple([op[1] for op in done]))
            wanted[ident] = None
            if ident not in drawn:
                fresh.append((ident, group))
        into, plain = canvas.im, self._plain.im
        for x0, y0, x1, y1, _ in drawn.keys() - wanted.keys():
            into.paste(plain.crop((x0, y0, x1, y1)), (x0 + pad, y0, x1 + pad, y1))
        context = _context(th, size, self.chouette, self.gif)
        pal = board_palette(th, size, self.chouette, self.gif)
        for ident, (x0, y0, x1, y1, group, zone) in fresh:
            base = ops.bases.get(zone) if zone is not None else None
            if base is not None and _layered(canvas, th, size, self.chouette, self.gif, pad,
                                             context, group, base):
                continue
            patch = _patch((context, x0, y0, ident[4]), background(th, size, self.chouette),
                           (x0, y0, x1, y1), (0, 0), group, pal)
            into.paste(patch.im, (x0 + pad, y0, x1 + pad, y1))
        self._drawn = wanted
        return canvas


# ---------------------------------------------------------------- palette


def _palette_samples() -> list[BoardView]:
    """Views that between them show every kind of thing the renderer draws."""
    from engine.move import Move
    from engine.position import Position, make_side
    from render.view import (
        SAME_DIRECTION,
        ChouetteView,
        CubeView,
        GameOverView,
        LastPlay,
        MatchInfo,
        MoneyInfo,
        Partner,
        PlayerInfo,
    )

    white = make_side({p: 1 for p in range(1, 24, 2)} | {23: 2}, bar=1, off=1)
    black = make_side({p: 1 for p in range(1, 24, 2)} | {1: 2}, bar=1, off=1)
    mixed = Position.from_sides(white, black)
    names = (PlayerInfo("Alice Example", score=3), PlayerInfo("Bob Example", score=4))
    return [
        BoardView(mixed, turn=Player.WHITE, players=names, cube=CubeView(2, Player.BLACK),
                  dice=(6, 5), dice_used=(True, False), match=MatchInfo(7, crawford=True),
                  last_play=LastPlay(Player.BLACK, (Move(24, 18, True), Move(18, 13))),
                  chouette=ChouetteView(Player.WHITE, (Partner("Carol"),
                                                       Partner("Dan", StakeState.DROPPED))),
                  game_over=GameOverView(Player.WHITE, ResultKind.GAMMON, 4)),
        BoardView(mixed.swapped(), turn=Player.BLACK, players=names, dice=(3, 3),
                  dice_used=(True, True, False, False), money=MoneyInfo("5"),
                  last_play=LastPlay(Player.WHITE, (Move(25, 20, True), Move(2, 0))),
                  cube=CubeView(2, offered_to=Player.WHITE)),
        BoardView(Position.empty(), geometry=SAME_DIRECTION, players=names,
                  opening=(4, 2), variant="Sample variant", turn=Player.WHITE,
                  cube=CubeView(1, Player.WHITE)),
        BoardView(Position.standard(), players=names, turn=Player.BLACK, dice=(1, 2),
                  cube=CubeView(4, Player.WHITE), directions=True),
    ]


@lru_cache(maxsize=16)
def palette(theme: Theme, width: int, chouette: bool) -> Image.Image:
    """A 256-colour palette for one theme and size: the theme's own colours
    exactly, then the colours of sample pictures (anti-aliased edges, text)."""
    th = theme
    base: list[RGB] = [
        th.background, th.frame, th.frame_edge, th.field, *th.points, th.bar, th.tray,
        th.frame_text, th.panel, th.panel_active, th.panel_text, th.panel_muted, th.cube,
        th.cube_text, th.highlight, th.hit, th.banner, th.banner_text,
    ]
    for style in th.checkers:
        base += [style.fill, style.rim, style.text]
    exact = list(dict.fromkeys(base))
    samples = [draw_rgb(v, th, width) for v in _palette_samples()]
    strip = Image.new("RGB", (sum(s.width for s in samples), max(s.height for s in samples)),
                      th.background)
    x = 0
    for s in samples:
        strip.paste(s, (x, 0))
        x += s.width
    rest = strip.quantize(256 - len(exact), method=Image.Quantize.MEDIANCUT,
                          dither=Image.Dither.NONE)
    rest_pal = rest.getpalette() or []
    colours: list[int] = [c for rgb in exact for c in rgb]
    colours += rest_pal[: 3 * (256 - len(exact))]
    colours += [0] * (768 - len(colours))
    pal = Image.new("P", (1, 1))
    pal.putpalette(colours)
    return pal


def board_palette(th: Theme, width: int, chouette: bool, gif: bool = False) -> Image.Image:
    """:func:`palette`, or for a GIF the same less its last colour (whose index is the
    GIF's transparent one, :data:`GIF_TRANSPARENT`)."""
    return _gif_palette(th, width, chouette) if gif else palette(th, width, chouette)


GIF_TRANSPARENT = 255
"""The palette index a replay keeps free for the pixels a frame does not change."""


@lru_cache(maxsize=16)
def _gif_palette(th: Theme, width: int, chouette: bool) -> Image.Image:
    colours = (palette(th, width, chouette).getpalette() or [])[: 3 * GIF_TRANSPARENT]
    pal = Image.new("P", (1, 1))
    pal.putpalette(colours)
    return pal


# ---------------------------------------------------------------- encoding


MAX_PNG_BYTES = 150 * 1024
"""The bound on a board PNG at the default width (issue 35)."""

_deflater: Any
try:  # ISA-L's deflate: the same format as zlib's, five times faster at its level 1
    from isal import isal_zlib as _deflater
except ImportError:  # pragma: no cover - the package is a dependency; kept as a fallback
    _deflater = None

DEFLATE_LEVEL = 1
"""zlib's (or ISA-L's) level 1: the board stays far under :data:`MAX_PNG_BYTES`."""


def deflate(data: bytes, fast: bool = True) -> bytes:
    """A zlib stream of ``data``: ISA-L's when installed and ``fast``, else zlib's."""
    if fast and _deflater is not None:
        return bytes(_deflater.compress(data, DEFLATE_LEVEL))
    return zlib.compress(data, DEFLATE_LEVEL)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(
        ">I", zlib.crc32(data, zlib.crc32(kind)) & 0xFFFFFFFF)


def indexed_png(padded: Image.Image, fast: bool = True) -> bytes:
    """PNG bytes of a "P" image whose first column is index 0 (:func:`board_indexed`
    with ``pad=1``): that column is each row's filter byte (0: none), so the image's
    bytes are the PNG's scanlines as they are, deflated in one call.

    (Deflating bands of rows apart and remembering the bands no move touched was
    tried: two bands in three change from one position to the next, and the
    bookkeeping cost more than it saved.)"""
    width, height = padded.width - 1, padded.height
    colours = bytes(padded.getpalette() or [])
    data = deflate(padded.tobytes(), fast)
    return b"".join((
        b"\x89PNG\r\n\x1a\n",
        _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)),
        _chunk(b"PLTE", colours),
        _chunk(b"IDAT", data),
        _chunk(b"IEND", b""),
    ))


def encode_png(img: Image.Image, pal: Image.Image | None = None) -> bytes:
    """PNG bytes of ``img``; with ``pal``, as a 256-colour PNG (smaller, faster)."""
    out = io.BytesIO()
    if pal is not None:
        img = img.quantize(palette=pal, dither=Image.Dither.NONE)
        img.save(out, "PNG", compress_level=1)
    else:
        img.save(out, "PNG", compress_level=PNG_COMPRESS_LEVEL)
    return out.getvalue()


BOARD_CACHE = 64
"""Board PNGs remembered by their view, theme and width (a /board of an unchanged
position, a refreshed message, the same board sent to two players)."""

_boards: OrderedDict[tuple[BoardView, Theme, int], bytes] = OrderedDict()
_board_lock = threading.Lock()


def clear_board_cache() -> None:
    """Forget the remembered board PNGs (a benchmark measuring the drawing)."""
    with _board_lock:
        _boards.clear()


def render_png(view: BoardView, *, theme: str = "default", size: int = DEFAULT_WIDTH,
               truecolor: bool = False) -> bytes:
    """The board picture as PNG bytes (``size`` = board width in pixels).

    By default the picture is stored with a fixed 256-colour palette made for
    the theme (visually identical, a third of the size, several times faster
    to encode); ``truecolor=True`` stores it as RGB.
    """
    th = get_theme(theme)
    if truecolor:
        return encode_png(draw_rgb(view, th, size))
    key = (view, th, size)
    try:
        hash(key)
    except TypeError:  # a view holding something unhashable: drawn, not remembered
        return indexed_png(board_indexed(view, th, size, pad=1))
    with _board_lock:
        data = _boards.get(key)
        if data is not None:
            _boards.move_to_end(key)
            return data
    data = indexed_png(board_indexed(view, th, size, pad=1))
    with _board_lock:
        _boards[key] = data
        while len(_boards) > BOARD_CACHE:
            _boards.popitem(last=False)
    return data

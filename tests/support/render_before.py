"""The board renderer as it was before issue 35 (render/png.py at main 83d479d), kept
unchanged as the reference the new renderer's pictures are compared with pixel for
pixel (tests/render/test_render_same_pixels.py).  Not used by the bot.

Its own docstring: the PNG renderer: a :class:`~render.view.BoardView` in, PNG bytes out.

Speed comes from caching: the static background (frame, points, numbers) is
drawn once per theme and size; every checker, die, cube and mark is a sprite
drawn once at four times its size and downsampled (so edges are
anti-aliased), then pasted.  A frame is a copy of the background, a few dozen
pastes, a little text, and the PNG encoding.
"""

from __future__ import annotations

import io
from functools import lru_cache
from importlib import resources

from PIL import Image, ImageDraw, ImageFont

from engine.player import Player
from engine.words import counted
from render.layout import DEFAULT_WIDTH, Frame, Layout, Rect, Stack, build, frame
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

Font = ImageFont.FreeTypeFont


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> Font:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    data = resources.files("render").joinpath("fonts", name).read_bytes()
    return ImageFont.truetype(io.BytesIO(data), size)


def _mix(a: RGB, b: RGB, t: float) -> RGB:
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t),
            round(a[2] + (b[2] - a[2]) * t))


def _ss(rect: tuple[float, float, float, float]) -> tuple[int, int, int, int]:
    return (round(rect[0] * SS), round(rect[1] * SS), round(rect[2] * SS) - 1,
            round(rect[3] * SS) - 1)


@lru_cache(maxsize=4096)
def _length(f: Font, text: str) -> float:
    """``f.getlength(text)``, remembered (names and labels come back on every board)."""
    return float(f.getlength(text))


def _fit(text: str, size: int, bold: bool, width: int) -> tuple[str, Font]:
    """Shrink (then truncate) ``text`` to fit ``width`` pixels."""
    f = font(size, bold)
    while _length(f, text) > width and size > 9:
        size -= 1
        f = font(size, bold)
    if _length(f, text) > width:
        while text and _length(f, text + "…") > width:
            text = text[:-1]
        text += "…"
    return text, f


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
    ImageDraw.Draw(small).text((size / 2, size / 2), text, font=f, fill=theme.cube_text,
                               anchor="mm")
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

    d1 = ImageDraw.Draw(img)
    nf = font(round(u * 0.34), True)
    ty = (fr.numbers_top[1] + fr.numbers_top[3]) / 2
    by = (fr.numbers_bottom[1] + fr.numbers_bottom[3]) / 2
    for p in range(1, 25):
        y = by if p <= 12 else ty
        d1.text((fr.point_x[p], y), str(p), font=nf, fill=theme.frame_text, anchor="mm")
    return img


# ------------------------------------------------------------------ frame


TEXT_CACHE = True
"""Draw texts from :func:`_text_mask` (False: straight through Pillow, for a test)."""


@lru_cache(maxsize=4096)
def _text_mask(f: Font, text: str, anchor: str) -> tuple[Image.Image, int, int]:
    """The coverage mask of ``text`` and where its top-left goes from the anchor point.

    Rasterising glyphs is a third of a board's drawing time, and the same texts
    (names, pip counts, scores, counts on stacks) come back board after board.
    At an integer anchor point Pillow rasterises a text the same way wherever it
    goes, and ``paste(colour, box, mask)`` blends exactly like ``draw.text``
    (both are ImagingFill2), so the picture is the same to the bit.
    """
    box = f.getbbox(text, anchor=anchor)
    left, top, right, bottom = (int(v) for v in box)  # integers for a FreeType font
    margin = 2
    mask = Image.new("L", (right - left + 2 * margin, bottom - top + 2 * margin), 0)
    ImageDraw.Draw(mask).text((margin - left, margin - top), text, font=f, fill=255,
                              anchor=anchor)
    return mask, left - margin, top - margin


def _text(d: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, f: Font, fill: RGB,
          anchor: str = "lm") -> None:
    x, y = xy
    if TEXT_CACHE and isinstance(d, _Draw) and isinstance(x, int) and isinstance(y, int) \
            and text:
        mask, dx, dy = _text_mask(f, text, anchor)
        d.image.paste(fill, (x + dx, y + dy, x + dx + mask.width, y + dy + mask.height), mask)
        return
    d.text(xy, text, font=f, fill=fill, anchor=anchor)


class _Draw(ImageDraw.ImageDraw):
    """A drawing context that keeps its image, to paste the cached texts into."""

    def __init__(self, image: Image.Image) -> None:
        super().__init__(image)
        self.image = image


def _draw_stack(img: Image.Image, d: ImageDraw.ImageDraw, theme: Theme, st: Stack,
                fr: Frame) -> None:
    if st.owner is None or not st.count:
        return
    sprite = checker_sprite(theme, int(st.owner), st.radius)
    half = sprite.width // 2
    for k in range(st.shown):
        x, y = st.centres[k]
        img.paste(sprite, (x - half, y - half), sprite)
    if st.labelled:
        x, y = st.centres[st.shown - 1]
        f = font(round(fr.unit * 0.44), True)
        _text(d, (x, y), str(st.count), f, theme.checkers[st.owner].text, "mm")


def _panel(img: Image.Image, d: ImageDraw.ImageDraw, theme: Theme, view: BoardView,
           lay: Layout, rect: Rect, player: Player) -> None:
    fr = lay.frame
    u = fr.unit
    x0, y0, x1, y1 = rect
    status = view.status(player)
    sprite = panel_sprite(theme, x1 - x0, y1 - y0, bool(status))
    img.paste(sprite, (x0, y0), sprite)
    cy = (y0 + y1) // 2
    r = round(u * 0.34)
    chip = checker_sprite(theme, int(player), r)
    img.paste(chip, (x0 + round(u * 0.3), cy - chip.height // 2), chip)
    info = view.players[player]
    x = x0 + round(u * 0.3) + chip.width + round(u * 0.25)
    # Right-hand side: score, then status.
    right = x1 - round(u * 0.3)
    if view.match is not None and info.score is not None:
        sf = font(round(u * 0.5), True)
        score = str(info.score)
        _text(d, (right, cy), score, sf, theme.panel_text, "rm")
        right -= round(_length(sf, score) + u * 0.15)
        lf = font(round(u * 0.28))
        _text(d, (right, cy + round(u * 0.05)), "score", lf, theme.panel_muted, "rm")
        right -= round(_length(lf, "score") + u * 0.35)
    if status:
        stf = font(round(u * 0.32), True)
        _text(d, (right, cy), status, stf, theme.highlight, "rm")
        right -= round(_length(stf, status) + u * 0.35)
    pf = font(round(u * 0.32))
    pips = counted(view.pips(player), "pip")  # (the grammar fixed since: issue 42 item 11)
    waiting = view.position.waiting(player)
    if waiting:
        pips += f" · {waiting} to enter"
    pip_w = round(_length(pf, pips))
    name = info.name + (f" ({info.note})" if info.note else "")
    name_w = right - x - pip_w - round(u * 0.35)
    text, nf = _fit(name, round(u * 0.42), True, max(name_w, round(u)))
    _text(d, (x, cy), text, nf, theme.panel_text)
    x += round(_length(nf, text) + u * 0.3)
    _text(d, (x, cy + round(u * 0.03)), pips, pf, theme.panel_muted)


def _chouette(d: ImageDraw.ImageDraw, theme: Theme, view: BoardView, fr: Frame) -> None:
    assert view.chouette is not None and fr.chouette is not None
    ch = view.chouette
    u = fr.unit
    x0, y0, x1, _ = fr.chouette
    w = x1 - x0 - round(u * 0.6)
    x = x0 + round(u * 0.3)
    y = y0 + round(u * 0.5)
    hf = font(round(u * 0.36), True)
    _text(d, (x, y), "CHOUETTE", hf, theme.panel_muted)
    y += round(u * 0.7)
    for label, who in (("Box", ch.box), ("Captain", ch.box.other)):
        _text(d, (x, y), label, font(round(u * 0.28)), theme.panel_muted)
        y += round(u * 0.42)
        name, nf = _fit(view.players[who].name, round(u * 0.38), True, w)
        _text(d, (x, y), name, nf, theme.panel_text)
        y += round(u * 0.62)
    _text(d, (x, y), "Partners", font(round(u * 0.28)), theme.panel_muted)
    y += round(u * 0.45)
    rf = font(round(u * 0.3))
    for i, partner in enumerate(ch.partners, 1):
        dropped = partner.state is StakeState.DROPPED
        colour = theme.panel_muted if dropped else theme.panel_text
        name, nf = _fit(f"{i}. {partner.name}", round(u * 0.34), not dropped, w)
        _text(d, (x, y), name, nf, colour)
        if dropped:
            ly = y + 1
            d.line((x, ly, x + _length(nf, name), ly), fill=colour, width=max(1, round(u * 0.04)))
        y += round(u * 0.38)
        _text(d, (x + round(u * 0.35), y), partner.state.label, rf,
              theme.panel_muted if dropped else theme.highlight)
        y += round(u * 0.52)
        if y > fr.chouette[3] - u * 0.4:
            break


def _banner(img: Image.Image, d: ImageDraw.ImageDraw, theme: Theme, view: BoardView,
            fr: Frame) -> None:
    assert view.game_over is not None
    go = view.game_over
    u = fr.unit
    # Inside the playing fields and the bar only: the rails keep the cube and the
    # borne-off counts in sight (issue 30 item 11).
    bx0, bx1 = fr.field_left[0], fr.field_right[2]
    rect = (bx0 + round(u * 0.15), fr.mid_y - round(u * 0.95), bx1 - round(u * 0.15),
            fr.mid_y + round(u * 0.95))
    region = img.crop(rect)
    shade = Image.new("RGB", region.size, theme.banner)
    img.paste(Image.blend(region, shade, 0.82), rect[:2])
    d.rectangle(rect, outline=theme.highlight, width=max(2, round(u * 0.06)))
    name = view.players[go.winner].name
    kind = go.kind.phrase
    pts = f"{go.points} point{'s' if go.points != 1 else ''}"
    w = rect[2] - rect[0] - round(u * 0.6)
    line1, f1 = _fit(f"{name} wins {kind}", round(u * 0.6), True, w)
    _text(d, ((rect[0] + rect[2]) / 2, fr.mid_y - round(u * 0.3)), line1, f1,
          theme.banner_text, "mm")
    _text(d, ((rect[0] + rect[2]) / 2, fr.mid_y + round(u * 0.45)), pts,
          font(round(u * 0.42), True), theme.highlight, "mm")


TITLE_GAP_UNITS = 0.8
"""The least gap between the title and the IDs in the title band, in board units."""


def _offer_lines(d: ImageDraw.ImageDraw, theme: Theme, fr: Frame, first: str, second: str,
                 right_half: bool) -> None:
    """Two lines in the middle of one half of the board: what is offered, and who answers
    (a double or a beaver; an offer to resign: issue 30 item 2)."""
    u = fr.unit
    half = fr.field_right if right_half else fr.field_left
    w = half[2] - half[0] - round(u * 0.3)
    cx = (half[0] + half[2]) / 2
    t1, f1 = _fit(first, round(u * 0.34), True, w)
    t2, f2 = _fit(second, round(u * 0.34), True, w)
    _text(d, (cx, fr.mid_y - round(u * 0.22)), t1, f1, theme.frame_text, "mm")
    _text(d, (cx, fr.mid_y + round(u * 0.24)), t2, f2, theme.highlight, "mm")


def _resignation(d: ImageDraw.ImageDraw, theme: Theme, view: BoardView, lay: Layout) -> None:
    """The offer to resign, in the half of the board without the dice (issue 30 item 2)."""
    offer = view.resignation
    assert offer is not None
    fr = lay.frame
    names = (view.players[0].name, view.players[1].name)
    dice_right = any(die.rect[0] >= fr.field_right[0] for die in lay.dice)
    right = not dice_right if lay.dice else offer.player == lay.viewer
    _offer_lines(d, theme, fr, f"{names[offer.player]} offers to resign {offer.kind.phrase}",
                 f"{names[offer.player.other]}: accept or reject?", right)


def _dice_stage(d: ImageDraw.ImageDraw, theme: Theme, view: BoardView, lay: Layout) -> None:
    """"named" or "reverse side" under the dice of a variant's second stage (issue 30
    item 4)."""
    if not view.dice_stage or not lay.dice:
        return
    fr = lay.frame
    x0 = min(die.rect[0] for die in lay.dice)
    x1 = max(die.rect[2] for die in lay.dice)
    y = max(die.rect[3] for die in lay.dice) + round(fr.unit * 0.25)
    f = font(round(fr.unit * 0.28), True)
    _text(d, ((x0 + x1) / 2, y), view.dice_stage, f, theme.frame_text, "mm")


def render_image(view: BoardView, *, theme: str = "default",
                 size: int = DEFAULT_WIDTH) -> Image.Image:
    """The board picture as a Pillow RGB image (``size`` = board width in pixels)."""
    return _render(view, get_theme(theme), size)


def _render(view: BoardView, th: Theme, size: int) -> Image.Image:
    lay = build(view, size)
    fr = lay.frame
    u = fr.unit
    img = background(th, size, view.chouette is not None).copy()
    d = _Draw(img)

    title = view.title()
    mid_y = (fr.title[1] + fr.title[3]) / 2
    if view.ids:  # the IDs at the right, the title left of them
        width = fr.title[2] - fr.title[0]
        it, itf = _fit(view.ids, round(u * 0.26), False, width * 11 // 20)
        _text(d, (fr.title[2], mid_y), it, itf, th.panel_muted, "rm")
        rest = width - round(_length(itf, it)) - round(TITLE_GAP_UNITS * u)  # issue 30 item 11
        if title and rest > 0:
            t, tf = _fit(title, round(u * 0.36), False, rest)
            _text(d, (fr.title[0], mid_y), t, tf, th.panel_muted, "lm")
    elif title:
        t, tf = _fit(title, round(u * 0.36), False, fr.title[2] - fr.title[0])
        _text(d, ((fr.title[0] + fr.title[2]) / 2, mid_y), t, tf,
              th.panel_muted, "mm")
    _panel(img, d, th, view, lay, fr.panel_top, lay.viewer.other)
    _panel(img, d, th, view, lay, fr.panel_bottom, lay.viewer)

    for st in lay.points[1:]:
        _draw_stack(img, d, th, st, fr)
    for st in lay.bar:
        _draw_stack(img, d, th, st, fr)

    cf = font(round(u * 0.3), True)
    for group, word in ((lay.trays, "off"), (lay.waiting, "to enter")):
        for slabs in group:
            if not slabs.count:
                continue
            x0, y0, x1, y1 = slabs.rects[0]
            sprite = slab_sprite(th, int(slabs.owner), x1 - x0, y1 - y0)
            for k in range(slabs.count):
                img.paste(sprite, slabs.rects[k][:2], sprite)
            label = str(slabs.count) if word == "off" else f"{slabs.count}"
            _text(d, slabs.label, label, cf, th.frame_text, "mm")

    if lay.cube is not None:
        cube = lay.cube
        sprite = cube_sprite(th, cube.rect[2] - cube.rect[0], cube.value)
        img.paste(sprite, cube.rect[:2], sprite)
        if cube.place == "offered" and cube.player is not None:
            doubler = view.players[cube.player.other].name
            answer = view.players[cube.player].name
            verb = view.cube.verb if view.cube is not None else "doubles"
            _offer_lines(d, th, fr, f"{doubler} {verb} to {cube.value}",
                         f"{answer}: {ANSWER_WORDS}?", cube.player.other != lay.viewer)

    for die in lay.dice:
        sprite = die_sprite(th, int(die.player), die.rect[2] - die.rect[0], die.value, die.used)
        img.paste(sprite, die.rect[:2], sprite)

    marks = lay.marks
    r = fr.radius
    if marks.arrived or marks.hit or marks.left:
        edge = (0, 0, 0)
        ring = ring_sprite(th.highlight, edge, r, False)
        for x, y in marks.arrived:
            img.paste(ring, (x - ring.width // 2, y - ring.height // 2), ring)
        ghost = ring_sprite(th.highlight, edge, r, True)
        for x, y in marks.left:
            img.paste(ghost, (x - ghost.width // 2, y - ghost.height // 2), ghost)
        hit = ring_sprite(th.hit, edge, r, False)
        for x, y in marks.hit:
            img.paste(hit, (x - hit.width // 2, y - hit.height // 2), hit)
    for rect in marks.borne_off:
        d.rectangle((rect[0] - 1, rect[1] - 1, rect[2], rect[3]), outline=th.highlight,
                    width=max(1, round(u * 0.04)))

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
                img.paste(tri, (x, cy - size_a // 2), tri)

    if view.resignation is not None:
        _resignation(d, th, view, lay)
    _dice_stage(d, th, view, lay)
    if view.chouette is not None:
        _chouette(d, th, view, fr)
    if view.game_over is not None:
        _banner(img, d, th, view, fr)
    return img


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
    samples = [_render(v, th, width) for v in _palette_samples()]
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


def encode_png(img: Image.Image, pal: Image.Image | None = None) -> bytes:
    """PNG bytes of ``img``; with ``pal``, as a 256-colour PNG (smaller, faster)."""
    out = io.BytesIO()
    if pal is not None:
        img = img.quantize(palette=pal, dither=Image.Dither.NONE)
        img.save(out, "PNG", compress_level=1)
    else:
        img.save(out, "PNG", compress_level=PNG_COMPRESS_LEVEL)
    return out.getvalue()


def render_png(view: BoardView, *, theme: str = "default", size: int = DEFAULT_WIDTH,
               truecolor: bool = False) -> bytes:
    """The board picture as PNG bytes (``size`` = board width in pixels).

    By default the picture is stored with a fixed 256-colour palette made for
    the theme (visually identical, a third of the size, several times faster
    to encode); ``truecolor=True`` stores it as RGB.
    """
    th = get_theme(theme)
    img = _render(view, th, size)
    if truecolor:
        return encode_png(img)
    return encode_png(img, palette(th, size, view.chouette is not None))

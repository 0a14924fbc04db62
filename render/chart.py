"""The analysis graph: one player's winning chances and equity over a game's
moves, the largest mistakes marked on the curve with their move numbers.

Input is a plain :class:`ChartData` (built by the host from its analysis);
:func:`render_chart` gives PNG bytes, :func:`chart_alt_text` the same
information in words.  Drawn with Pillow: lines are drawn at twice the size and
halved (anti-aliased), which costs a few milliseconds; a chart library would
add a large dependency and its import time to every render worker for two
curves and a few labels.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from PIL import Image, ImageDraw

from render.text import draw_text, fit_text, font, text_bbox, text_length
from render.theme import RGB, Theme, get_theme

SS = 2
"""Supersampling factor of the curves."""

CHART_WIDTH = 800
CHART_HEIGHT = 400


@dataclass(frozen=True, slots=True)
class ChartPoint:
    """The player's figures after a decision at move ``move``."""

    move: int
    win: float
    """Winning chances, 0 to 1."""
    equity: float
    """Cubeful equity, normalised to a 1-point cube (EMG in a match)."""
    mwc: float | None = None
    """In a match: the player's match-winning chances, 0 to 1 (None in money play).  A
    match's graph plots these instead of the equity (issue 30 item 8)."""


@dataclass(frozen=True, slots=True)
class ChartMistake:
    move: int
    equity_lost: float
    mine: bool
    """True for the charted player's own mistake, False for the opponent's."""
    kind: str = "play"
    played: str = ""
    best: str = ""


@dataclass(frozen=True, slots=True)
class ChartData:
    player: str
    opponent: str
    points: tuple[ChartPoint, ...]
    mistakes: tuple[ChartMistake, ...] = ()
    error_rate: float | None = None
    """The player's average equity lost per decision (None: not known)."""
    moves: int = 0
    """Plays in the game (the x axis runs from 1 to this; 0: the last point's move)."""

    @property
    def match(self) -> bool:
        """A match's graph: match-winning chances instead of the money equity."""
        return bool(self.points) and all(p.mwc is not None for p in self.points)


@dataclass(frozen=True, slots=True)
class ChartGeometry:
    """Where the plot is in the picture, and how data maps to pixels."""

    plot: tuple[int, int, int, int]
    first: int
    last: int
    equity_span: float
    """The equity axis runs from ``-equity_span`` (bottom) to ``+equity_span`` (top)."""
    unit: float = CHART_WIDTH / 40
    """The picture's unit of size (its width / 40)."""

    def x(self, move: float) -> float:
        x0, _, x1, _ = self.plot
        if self.last == self.first:
            return (x0 + x1) / 2
        return x0 + (move - self.first) * (x1 - x0) / (self.last - self.first)

    def y_win(self, win: float) -> float:
        _, y0, _, y1 = self.plot
        return y1 - max(0.0, min(1.0, win)) * (y1 - y0)

    def y_equity(self, equity: float) -> float:
        _, y0, _, y1 = self.plot
        e = max(-self.equity_span, min(self.equity_span, equity))
        return (y0 + y1) / 2 - e / self.equity_span * (y1 - y0) / 2


def geometry(data: ChartData, width: int = CHART_WIDTH,
             height: int = CHART_HEIGHT) -> ChartGeometry:
    u = width / 40
    plot = (round(u * 3.2), round(height * 0.16), width - round(u * 3.2),
            height - round(height * 0.2))
    last = max([data.moves, *(p.move for p in data.points), *(m.move for m in data.mistakes),
                2])
    top = max([abs(p.equity) for p in data.points] + [1.0])
    span = 1.0 if top <= 1.0 else (2.0 if top <= 2.0 else 3.0)
    return ChartGeometry(plot, 1, last, span, u)


def win_colour(th: Theme) -> RGB:
    """The winning-chances curve."""
    return th.highlight


def equity_colour(th: Theme) -> RGB:
    """The equity curve."""
    return th.points[0]


def polyline(img: Image.Image, points: Sequence[tuple[float, float]], colour: RGB,
             width: float, box: tuple[int, int, int, int] | None = None) -> None:
    """Draw an anti-aliased polyline onto ``img`` (RGB): drawn at ``SS`` times the
    size inside ``box`` (default: the points' bounds), then halved and pasted."""
    if len(points) < 2:
        return
    w = max(1.0, width)
    pad = int(w) + 2
    if box is None:
        xs = [p[0] for p in points]
        ys = [p[1] for p in points]
        box = (int(min(xs)) - pad, int(min(ys)) - pad, int(max(xs)) + pad + 1,
               int(max(ys)) + pad + 1)
    x0, y0, x1, y1 = box
    mask = Image.new("L", ((x1 - x0) * SS, (y1 - y0) * SS), 0)
    d = ImageDraw.Draw(mask)
    pts = [((x - x0) * SS, (y - y0) * SS) for x, y in points]
    d.line(pts, fill=255, width=round(w * SS), joint="curve")
    r = w * SS / 2
    for x, y in pts:
        d.ellipse((x - r, y - r, x + r, y + r), fill=255)
    small = mask.reduce(SS)
    img.paste(colour, (x0, y0, x0 + small.width, y0 + small.height), small)


def render_chart_image(data: ChartData, *, theme: str = "default", width: int = CHART_WIDTH,
                       height: int = CHART_HEIGHT) -> Image.Image:
    th = get_theme(theme)
    g = geometry(data, width, height)
    img = Image.new("RGB", (width, height), th.background)
    d = ImageDraw.Draw(img)
    x0, y0, x1, y1 = g.plot
    u = width / 40
    d.rectangle((x0, y0, x1, y1), fill=th.panel)

    # Title.
    title = f"{data.player}: winning chances and " + (
        "match-winning chances" if data.match else "equity")
    if data.opponent:
        title += f" against {data.opponent}"
    room = width - round(u * 2) - (round(width * 0.3) if data.error_rate is not None else 0)
    t, tf = fit_text(title, round(u * 0.95), True, room)
    draw_text(img, (round(u), round(height * 0.07)), t, tf, th.panel_text, "lm")

    # Grid and axes: 0 / 25 / 50 / 75 / 100 % on the left, equity on the right.
    af = font(max(9, round(u * 0.6)))
    for k in range(5):
        frac = k / 4
        y = round(g.y_win(frac))
        d.line((x0, y, x1, y), fill=th.frame if k != 2 else th.panel_muted,
               width=1)
        draw_text(img, (x0 - round(u * 0.3), y), f"{round(frac * 100)}%", af, th.panel_muted, "rm")
        if not data.match:  # a match's second curve is on the left scale too
            eq = g.equity_span * (frac * 2 - 1)
            draw_text(img, (x1 + round(u * 0.3), y), f"{eq:+.1f}" if eq else "0", af,
                      th.panel_muted, "lm")
    for tick in move_ticks(g.last):
        x = round(g.x(tick))
        d.line((x, y1, x, y1 + round(u * 0.25)), fill=th.panel_muted, width=1)
        draw_text(img, (x, y1 + round(u * 0.35)), str(tick), af, th.panel_muted, "mt")
    draw_text(img, ((x0 + x1) // 2, y1 + round(u * 1.2)), "move", af, th.panel_muted, "mt")

    pts = sorted(data.points, key=lambda p: p.move)
    box = (x0, y0, x1 + 1, y1 + 1)
    second = ([(g.x(p.move), g.y_win(p.mwc if p.mwc is not None else 0.5)) for p in pts]
              if data.match else [(g.x(p.move), g.y_equity(p.equity)) for p in pts])
    polyline(img, second, equity_colour(th), max(1.0, u * 0.1), box)
    polyline(img, [(g.x(p.move), g.y_win(p.win)) for p in pts], win_colour(th),
             max(1.5, u * 0.16), box)
    if len(pts) == 1:
        p = pts[0]
        r = u * 0.15
        d.ellipse((g.x(p.move) - r, g.y_win(p.win) - r, g.x(p.move) + r, g.y_win(p.win) + r),
                  fill=win_colour(th))

    # Mistakes: a ring on the curve at the move, its number beside it, clear of every
    # ring and inside the plot (issue 30 item 8: the last one was clipped).
    lf = font(max(9, round(u * 0.62)), True)
    for m in data.mistakes:
        mx, my = mistake_xy(data, g, m)
        r = ring_radius(g)
        colour = th.hit if m.mine else th.panel_text
        d.ellipse((mx - r, my - r, mx + r, my + r), outline=colour, width=max(2, round(u * 0.1)))
    for m, (bx0, by0, _, _) in zip(data.mistakes, label_boxes(data, g), strict=True):
        colour = th.hit if m.mine else th.panel_text
        draw_text(img, (bx0, by0), str(m.move), lf, colour, "lt")

    # Legend.
    ly = round(height - u * 0.75)
    lx = round(u)
    sf = font(max(9, round(u * 0.6)))
    second_label = ("match-winning chances (cubeless)" if data.match
                    else "equity for a 1-point cube (right scale)")
    for colour, label in ((win_colour(th), "winning chances"),
                          (equity_colour(th), second_label),
                          (th.hit, f"{data.player}'s mistake (move)"),
                          (th.panel_text, f"{data.opponent or 'opponent'}'s mistake")):
        d.line((lx, ly, lx + round(u * 0.9), ly), fill=colour, width=max(2, round(u * 0.12)))
        lx += round(u * 1.1)
        draw_text(img, (lx, ly), label, sf, th.panel_muted, "lm")
        lx += round(text_length(sf, label) + u * 0.8)
    if data.error_rate is not None:
        rate = f"error rate {data.error_rate * 1000:.1f} m/decision"
        draw_text(img, (width - round(u), round(height * 0.07)), rate, sf, th.panel_text, "rm")
    return img


def move_ticks(last: int) -> list[int]:
    """The moves marked on the x axis: 1, then every ``step`` up to ``last``, the step the
    smallest of 1, 2, 5, 10, 20, 50, ... giving at most ten marks (a two-move game shows
    1 and 2, not 1 alone: issue 42 item 14)."""
    step = 1
    while last / step > 10:
        step = step * 5 // 2 if str(step)[0] == "2" else step * 2
    return [1, *(m for m in range(step, last + 1, step) if m > 1)]


def ring_radius(g: ChartGeometry) -> float:
    """The radius of a mistake's ring."""
    return g.unit * 0.32


def label_box(data: ChartData, g: ChartGeometry, m: ChartMistake
              ) -> tuple[int, int, int, int]:
    """The rectangle of a mistake's move number (see :func:`label_boxes`)."""
    return label_boxes(data, g)[data.mistakes.index(m)]


def label_boxes(data: ChartData, g: ChartGeometry) -> list[tuple[int, int, int, int]]:
    """The rectangles of the mistakes' move numbers, in order: each above, below, right or
    left of its ring (then further above or below), the first place inside the plot that
    meets no ring and no label placed before it (else the one that meets the fewest),
    moved inside the plot.  Mistakes at consecutive moves have rings a few pixels apart:
    their numbers go above and below, then a row further out (issue 42 item 14: they
    were drawn over each other)."""
    u = g.unit
    f = font(max(9, round(u * 0.62)), True)
    rings = [mistake_xy(data, g, other) for other in data.mistakes]
    x0, y0, x1, y1 = g.plot
    r = ring_radius(g) + u * 0.08
    gap = u * 0.1
    placed: list[tuple[int, int, int, int]] = []
    for m, (mx, my) in zip(data.mistakes, rings, strict=True):
        left, top, right, bottom = text_bbox(f, str(m.move), "lt")
        w, h = right - left + 2, bottom - top + 2
        candidates = [(mx - w / 2, my - r - gap - h), (mx - w / 2, my + r + gap),
                      (mx + r + gap, my - h / 2), (mx - r - gap - w, my - h / 2)]
        for k in range(1, 4):
            candidates += [(mx - w / 2, my - r - gap - h - k * (h + gap)),
                           (mx - w / 2, my + r + gap + k * (h + gap))]

        def place(cx: float, cy: float, w: int = w, h: int = h) -> tuple[int, int, int, int]:
            bx = min(max(cx, x0 + 2), x1 - 2 - w)
            by = min(max(cy, y0 + 2), y1 - 2 - h)
            return (round(bx), round(by), round(bx + w), round(by + h))

        best = None
        for cx, cy in candidates:
            box = place(cx, cy)
            inside = y0 + 2 <= cy and cy + h <= y1 - 2  # moved sideways: still by its ring
            score = (_rings_met(box, rings, ring_radius(g) + 1)
                     + sum(1 for other in placed if _boxes_meet(box, other)),
                     0 if inside else 1)
            if best is None or score < best[0]:
                best = (score, box)
            if score == (0, 0):
                break
        assert best is not None
        placed.append(best[1])
    return placed


def _rings_met(box: tuple[int, int, int, int], rings: Sequence[tuple[float, float]],
               rr: float) -> int:
    return sum(1 for ox, oy in rings
               if box[0] - rr < ox < box[2] + rr and box[1] - rr < oy < box[3] + rr
               and _meets_circle(box, ox, oy, rr))


def _boxes_meet(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] + 1 and b[0] < a[2] + 1 and a[1] < b[3] + 1 and b[1] < a[3] + 1


def _meets_circle(box: tuple[int, int, int, int], cx: float, cy: float, r: float) -> bool:
    nx = min(max(cx, box[0]), box[2])
    ny = min(max(cy, box[1]), box[3])
    return (nx - cx) ** 2 + (ny - cy) ** 2 < r * r


def mistake_xy(data: ChartData, g: ChartGeometry, m: ChartMistake) -> tuple[float, float]:
    """Where a mistake's mark goes: on the winning-chances curve at its move
    (interpolated between the nearest points)."""
    return g.x(m.move), g.y_win(win_at(data.points, m.move))


def win_at(points: Sequence[ChartPoint], move: float) -> float:
    """The curve's value at ``move`` (linear between the nearest points)."""
    pts = sorted(points, key=lambda p: p.move)
    if not pts:
        return 0.5
    if move <= pts[0].move:
        return pts[0].win
    for a, b in pairwise(pts):
        if a.move <= move <= b.move:
            if b.move == a.move:
                return b.win
            t = (move - a.move) / (b.move - a.move)
            return a.win + (b.win - a.win) * t
    return pts[-1].win


def render_chart(data: ChartData, *, theme: str = "default", width: int = CHART_WIDTH,
                 height: int = CHART_HEIGHT) -> bytes:
    """The analysis graph as PNG bytes."""
    img = render_chart_image(data, theme=theme, width=width, height=height)
    out = io.BytesIO()
    img.save(out, "PNG", compress_level=3)
    return out.getvalue()


def chart_alt_text(data: ChartData, limit: int = 1024) -> str:
    """The graph in words: start, end, lowest and highest winning chances, the
    marked mistakes with their moves and cost."""
    if not data.points:
        return f"Analysis graph for {data.player}: no rated decisions in this game."
    pts = sorted(data.points, key=lambda p: p.move)
    lo = min(pts, key=lambda p: p.win)
    hi = max(pts, key=lambda p: p.win)
    parts = [
        f"Analysis graph for {data.player}"
        + (f" against {data.opponent}" if data.opponent else "")
        + f": winning chances {_pct(pts[0].win)} at move {pts[0].move}, "
        f"{_pct(pts[-1].win)} at move {pts[-1].move} ("
        + (f"match-winning chances {_pct(pts[-1].mwc)}" if pts[-1].mwc is not None
           else f"equity {pts[-1].equity:+.3f}") + "); "
        f"lowest {_pct(lo.win)} at move {lo.move}, highest {_pct(hi.win)} at move {hi.move}."]
    if data.error_rate is not None:
        parts.append(f"Error rate {data.error_rate * 1000:.1f} thousandths of a point "
                     "per decision.")
    if data.mistakes:
        items = []
        for m in sorted(data.mistakes, key=lambda m: m.move):
            who = data.player if m.mine else (data.opponent or "opponent")
            what = f"{m.kind} {m.played}".strip()
            better = f", better {m.best}" if m.best else ""
            items.append(f"move {m.move}, {who}: {what}{better} (-{m.equity_lost:.3f})")
        parts.append("Largest mistakes: " + "; ".join(items) + ".")
    else:
        parts.append("No mistakes marked.")
    text = " ".join(parts)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _pct(p: float) -> str:
    return f"{p * 100:.0f}%"

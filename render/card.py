"""The player card: name, rating with its history as a small chart, games and
matches won, money balance, favourite variant and the last results.

Input is a plain :class:`PlayerCard`; :func:`render_card` gives PNG bytes,
:func:`card_alt_text` the same information in words.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from engine.words import counted
from render.chart import polyline
from render.png import checker_sprite
from render.text import draw_text, fit_text, font, text_length
from render.theme import get_theme

CARD_WIDTH = 800
CARD_HEIGHT = 320


@dataclass(frozen=True, slots=True)
class RecentResult:
    won: bool
    opponent: str
    detail: str = ""
    """E.g. "7-4" for a match, "+2" for a money game."""


@dataclass(frozen=True, slots=True)
class CardForm:
    """The player's form: PR (500 x equity lost per decision; lower is better) of his
    analysed matches."""

    prs: tuple[float, ...]
    """PR of each analysed match, oldest first."""
    pr: float
    """PR over his last ``matches`` matches (their decisions pooled)."""
    grade: str
    matches: int
    best: str = ""
    """E.g. "3.1 vs bob"."""
    worst: str = ""


@dataclass(frozen=True, slots=True)
class PlayerCard:
    name: str
    rating: float
    experience: int = 0
    rating_history: tuple[float, ...] = ()
    """Ratings after each rated match, oldest first (the start value first)."""
    games: int = 0
    games_won: int = 0
    matches: int = 0
    matches_won: int = 0
    balance: int = 0
    favourite_variant: str = ""
    recent: tuple[RecentResult, ...] = ()
    """The last results, newest first."""
    provisional: bool = False
    """Rating not yet established (too little experience)."""
    form: CardForm | None = None
    """PR over time (None: no analysed match)."""
    personal: bool = False
    """The rating is the personal one (games outside servers: DMs, group DMs)."""
    personal_rating: float | None = None
    """On a server's card: the player's personal rating too (None: no games outside
    servers)."""


@dataclass(frozen=True, slots=True)
class CardGeometry:
    spark: tuple[int, int, int, int]
    """The rating chart's box."""
    chips: tuple[tuple[int, int, int, int], ...]
    """One box per recent result, newest first."""


def card_geometry(card: PlayerCard, width: int = CARD_WIDTH,
                  height: int = CARD_HEIGHT) -> CardGeometry:
    u = width / 40
    spark = (round(width * 0.52), round(height * 0.12), width - round(u), round(height * 0.62))
    n = min(len(card.recent), 10)
    size = round(u * 1.5)
    gap = round(u * 0.35)
    y = round(height * 0.8)
    x = round(u)
    chips = tuple((x + k * (size + gap), y, x + k * (size + gap) + size, y + size)
                  for k in range(n))
    return CardGeometry(spark, chips)


def rating_scale(card: PlayerCard) -> tuple[float, float]:
    """The ratings at the top and the bottom of the rating curve's band (20 apart at
    least)."""
    hist = card.rating_history or (card.rating,)
    lo, hi = min(hist), max(hist)
    if hi - lo < 20:
        mid = (hi + lo) / 2
        lo, hi = mid - 10, mid + 10
    return hi, lo


def spark_points(card: PlayerCard, g: CardGeometry) -> list[tuple[float, float]]:
    """Pixel points of the rating history in the chart's box."""
    hist = card.rating_history or (card.rating,)
    x0, y0, x1, y1 = g.spark
    pad = (y1 - y0) * 0.12
    hi, lo = rating_scale(card)
    n = len(hist)
    return [(x0 + (i * (x1 - x0) / (n - 1) if n > 1 else (x1 - x0) / 2),
             y1 - pad - (r - lo) / (hi - lo) * (y1 - y0 - 2 * pad)) for i, r in enumerate(hist)]


def _pct(won: int, total: int) -> str:
    return f" ({won * 100 // total}%)" if total else ""


def render_card_image(card: PlayerCard, *, theme: str = "default", width: int = CARD_WIDTH,
                      height: int = CARD_HEIGHT) -> Image.Image:
    th = get_theme(theme)
    g = card_geometry(card, width, height)
    u = width / 40
    img = Image.new("RGB", (width, height), th.background)
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((round(u * 0.3), round(u * 0.3), width - round(u * 0.3),
                         height - round(u * 0.3)), radius=round(u * 0.6), fill=th.panel)
    chip = checker_sprite(th, 0, round(u * 0.75))
    img.paste(chip, (round(u), round(height * 0.1)), chip)
    left = round(u) + chip.width + round(u * 0.5)
    name, nf = fit_text(card.name, round(u * 1.3), True, g.spark[0] - left - round(u))
    draw_text(img, (left, round(height * 0.1) + chip.height // 2), name, nf, th.panel_text, "lm")

    # Rating, big, with its change over the history.
    y = round(height * 0.34)
    rf = font(round(u * 1.5), True)
    rating = f"{card.rating:.0f}"
    draw_text(img, (round(u), y), rating, rf, th.highlight, "lm")
    x = round(u) + round(text_length(rf, rating) + u * 0.5)
    sf = font(round(u * 0.65))
    note = ("personal rating" if card.personal else "rating") + (
        f" · experience {card.experience}")
    if card.provisional:
        note += " · provisional"
    if card.personal_rating is not None:
        note += f" · personal {card.personal_rating:.0f}"
    draw_text(img, (x, y), note, sf, th.panel_muted, "lm")

    rows = [
        ("Games", f"{card.games_won} won of {card.games}{_pct(card.games_won, card.games)}"),
        ("Matches", f"{card.matches_won} won of {card.matches}"
                    f"{_pct(card.matches_won, card.matches)}"),
        ("Money", f"{card.balance:+d}"),
        ("Favourite", card.favourite_variant or "—"),
    ]
    lf = font(round(u * 0.62))
    y = round(height * 0.48)
    for label, value in rows:
        draw_text(img, (round(u), y), label, lf, th.panel_muted, "lm")
        text, f = fit_text(value, round(u * 0.7), True, g.spark[0] - round(u * 5.5))
        draw_text(img, (round(u * 5), y), text, f, th.panel_text, "lm")
        y += round(u * 0.95)

    # Rating history.
    x0, y0, x1, y1 = g.spark
    d.rectangle((x0, y0, x1, y1), fill=th.background)
    hist = card.rating_history or (card.rating,)
    # Money games are rated one by one, each as a 1-point match (issue 30 item 14).
    results = counted(max(0, len(hist) - 1), "rated result")
    label, lfont = fit_text(f"rating over {results} (matches; money games one by one)",
                            round(u * 0.65), False, x1 - x0)
    draw_text(img, (x0, y0 - round(u * 0.15)), label, lfont, th.panel_muted, "lb")
    pts = spark_points(card, g)
    if len(pts) > 1:
        polyline(img, pts, th.highlight, max(1.5, u * 0.12), (x0, y0, x1 + 1, y1 + 1))
    ex, ey = pts[-1]
    r = u * 0.18
    d.ellipse((ex - r, ey - r, ex + r, ey + r), fill=th.highlight)
    # The scale: the ratings at the top and the bottom of the curve's band, in the box's
    # corners (clear of the curve: it keeps inside the band).  Below the box they sat on
    # the PR heading's line (issue 42 item 15).
    af = font(max(9, round(u * 0.55)))
    high, low = rating_scale(card)
    draw_text(img, (x0 + round(u * 0.2), y0 + 2), f"{high:.0f}", af, th.panel_muted, "lt")
    draw_text(img, (x0 + round(u * 0.2), y1 - 2), f"{low:.0f}", af, th.panel_muted, "lb")

    if card.form is not None:
        _draw_form(img, d, card.form, th, g, width, height)

    # Last results.
    draw_text(img,
              (round(u), g.chips[0][1] - round(u * 0.2)) if g.chips else
           (round(u), round(height * 0.8)),
              "Last results" if g.chips else "No results yet", sf, th.panel_muted,
              "lb" if g.chips else "lt")
    cf = font(round(u * 0.75), True)
    for res, box in zip(card.recent, g.chips, strict=False):
        colour = th.highlight if res.won else th.hit
        d.rounded_rectangle(box, radius=round(u * 0.3), fill=colour)
        draw_text(img, ((box[0] + box[2]) // 2, (box[1] + box[3]) // 2), "W" if res.won else "L",
                  cf, th.banner, "mm")
    return img


def _draw_form(img: Image.Image, d: ImageDraw.ImageDraw, form: CardForm, th: Any,
               g: CardGeometry, width: int, height: int) -> None:
    """The form under the rating chart: PR of the last matches, a small line of each
    match's PR (lower is better: drawn with the best at the top), best and worst."""
    u = width / 40
    x0, x1 = g.spark[0], g.spark[2]
    top = g.spark[3] + round(u * 1.3)
    bottom = height - round(u * 0.9)
    text = f"PR {form.pr:.1f} {form.grade} · last {counted(form.matches, 'match')}"
    t, f = fit_text(text, round(u * 0.62), True, x1 - x0)
    draw_text(img, (x0, top - round(u * 0.2)), t, f, th.panel_text, "lb")
    box = (x0, top, x1, bottom - round(u * 0.75))
    d.rectangle(box, fill=th.background)
    # The scale, left in the box: lower PR is better, drawn at the top (issue 42 item 15:
    # nothing told which way was better).
    sf = font(max(9, round(u * 0.5)))
    best, worst = form_scale_labels(form)
    draw_text(img, (box[0] + round(u * 0.2), box[1] + 2), best, sf, th.panel_muted, "lt")
    draw_text(img, (box[0] + round(u * 0.2), box[3] - 2), worst, sf, th.panel_muted, "lb")
    left = box[0] + round(max(text_length(sf, best), text_length(sf, worst)) + u * 0.6)
    pts = form_points(form, (left, box[1], box[2], box[3]))
    if len(pts) > 1:
        polyline(img, pts, th.highlight, max(1.5, u * 0.1), (box[0], box[1], box[2] + 1,
                                                               box[3] + 1))
    # The newest match marked (with one analysed match, the only mark: issue 42 item 15).
    ex, ey = pts[-1]
    r = u * 0.16
    d.ellipse((ex - r, ey - r, ex + r, ey + r), fill=th.highlight)
    notes = " · ".join(x for x in (f"best {form.best}" if form.best else "",
                                    f"worst {form.worst}" if form.worst else "") if x)
    if notes:
        t, f = fit_text(notes, round(u * 0.55), False, x1 - x0)
        draw_text(img, (x0, bottom), t, f, th.panel_muted, "lb")


def form_range(form: CardForm) -> tuple[float, float]:
    """The PRs at the top (the better) and the bottom of the form chart (1 apart at
    least, a single match in the middle)."""
    lo, hi = min(form.prs, default=form.pr), max(form.prs, default=form.pr)
    if hi - lo < 1.0:
        mid = (hi + lo) / 2
        lo, hi = mid - 0.5, mid + 0.5
    return lo, hi


def form_scale_labels(form: CardForm) -> tuple[str, str]:
    """The form chart's scale: its top (better: a lower PR) and its bottom."""
    lo, hi = form_range(form)
    return f"PR {lo:.1f} better", f"PR {hi:.1f} worse"


def form_points(form: CardForm, box: tuple[int, int, int, int]) -> list[tuple[float, float]]:
    """Pixel points of the matches' PRs in ``box``, oldest at the left, the best at the
    top."""
    prs = form.prs or (form.pr,)
    lo, hi = form_range(form)
    pad = (box[3] - box[1]) * 0.15
    n = len(prs)
    return [(box[0] + (i * (box[2] - box[0]) / (n - 1) if n > 1 else (box[2] - box[0]) / 2),
             box[1] + pad + (pr - lo) / (hi - lo) * (box[3] - box[1] - 2 * pad))
            for i, pr in enumerate(prs)]


def render_card(card: PlayerCard, *, theme: str = "default", width: int = CARD_WIDTH,
                height: int = CARD_HEIGHT) -> bytes:
    """The player card as PNG bytes."""
    out = io.BytesIO()
    render_card_image(card, theme=theme, width=width, height=height).save(
        out, "PNG", compress_level=3)
    return out.getvalue()


def card_alt_text(card: PlayerCard, limit: int = 1024) -> str:
    hist = card.rating_history
    parts = [f"Player card of {card.name}: "
             + ("personal rating" if card.personal else "rating")
             + f" {card.rating:.0f}"
             + (" (provisional)" if card.provisional else "")
             + f", experience {card.experience}"
             + (f"; personal rating (games outside servers) {card.personal_rating:.0f}"
                if card.personal_rating is not None else "") + "."]
    if len(hist) > 1:
        parts.append(f"Rating over {counted(len(hist) - 1, 'rated result')} (matches, and "
                     f"money games one by one) went from {hist[0]:.0f} to "
                     f"{hist[-1]:.0f} (low {min(hist):.0f}, high {max(hist):.0f}).")
    parts.append(f"Games won {card.games_won} of {card.games}; matches won "
                 f"{card.matches_won} of {card.matches}; money balance {card.balance:+d}.")
    if card.favourite_variant:
        parts.append(f"Favourite variant: {card.favourite_variant}.")
    if card.form is not None:
        parts.append(f"PR over the last {counted(card.form.matches, 'analysed match')}: "
                     f"{card.form.pr:.1f} ({card.form.grade}; lower is better)"
                     + (f"; best match {card.form.best}" if card.form.best else "")
                     + (f"; worst {card.form.worst}" if card.form.worst else "") + ".")
    if card.recent:
        items = [f"{'won' if r.won else 'lost'} against {r.opponent}"
                 + (f" {r.detail}" if r.detail else "") for r in card.recent]
        parts.append("Last results, newest first: " + "; ".join(items) + ".")
    text = " ".join(parts)
    return text if len(text) <= limit else text[: limit - 1] + "…"

"""The match summary: the score game by game, the cube's history, and each
player's PR, grade and luck (or error rate) where analysis ran.

Input is a plain :class:`MatchSummary`; :func:`render_summary` gives PNG bytes,
:func:`summary_alt_text` the same information in words.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from PIL import Image, ImageDraw

from render.png import checker_sprite, cube_sprite, fit_text, font
from render.theme import get_theme

SUMMARY_WIDTH = 800


@dataclass(frozen=True, slots=True)
class GameLine:
    number: int
    winner: int
    """0 or 1: index into :attr:`MatchSummary.names`."""
    points: int
    how: str = ""
    """"single", "gammon", "backgammon", "double refused", "resigned", "forfeit"."""
    cube: int = 1
    """The cube's final value in that game."""
    score: tuple[int, int] = (0, 0)
    """The score after the game."""
    crawford: bool = False


@dataclass(frozen=True, slots=True)
class SummaryCube:
    """One cube action: ``player`` (0/1) ``action`` ("doubles", "takes", "drops",
    "beavers") to ``value`` in game ``game`` before move ``move``."""

    game: int
    move: int
    player: int
    action: str
    value: int


@dataclass(frozen=True, slots=True)
class MatchSummary:
    names: tuple[str, str]
    length: int
    """Match length (0: a money session)."""
    games: tuple[GameLine, ...]
    cube: tuple[SummaryCube, ...] = ()
    error_rates: tuple[float | None, float | None] = (None, None)
    """Average equity lost per decision over the analysed games (None: not analysed)."""
    decisions: tuple[int, int] = (0, 0)
    winner: int | None = None
    prs: tuple[float | None, float | None] = (None, None)
    """PR (500 x the equity lost per decision) over the analysed games (None: not
    analysed)."""
    grades: tuple[str, str] = ("", "")
    """The grade of each PR ("Master", ...)."""
    lucks: tuple[float | None, float | None] = (None, None)
    """Each player's luck over the analysed games, equity (EMG) summed over his rolls."""

    @property
    def score(self) -> tuple[int, int]:
        return self.games[-1].score if self.games else (0, 0)


@dataclass(frozen=True, slots=True)
class SummaryGeometry:
    rows: tuple[tuple[int, int, int, int], ...]
    """One box per game line."""
    bars: tuple[tuple[tuple[int, int, int, int], tuple[int, int, int, int]], ...]
    """Per game: each player's score bar (after the game), white's then black's."""
    height: int


def summary_geometry(s: MatchSummary, width: int = SUMMARY_WIDTH) -> SummaryGeometry:
    u = width / 40
    row_h = round(u * 1.25)
    top = round(u * 4.2)
    rows = []
    bars = []
    target = max(s.length, *(max(g.score) for g in s.games), 1) if s.games else max(s.length, 1)
    bar_x0 = round(width * 0.62)
    bar_w = width - round(u) - bar_x0
    for k, _g in enumerate(s.games):
        y = top + k * row_h
        rows.append((round(u), y, width - round(u), y + row_h - 2))
        g = s.games[k]
        half = (row_h - 6) // 2
        bw = [max(2, round(bar_w * min(v, target) / target)) if v else 0 for v in g.score]
        bars.append(((bar_x0, y + 2, bar_x0 + bw[0], y + 2 + half),
                     (bar_x0, y + 3 + half, bar_x0 + bw[1], y + 3 + 2 * half)))
    y = top + len(s.games) * row_h + round(u * 0.6)
    cube_lines = min(len(s.cube), 12)
    height = y + round(u * 1.2) + max(1, cube_lines) * round(u * 0.8) + round(u * 3.2)
    return SummaryGeometry(tuple(rows), tuple(bars), height)


def _how(g: GameLine) -> str:
    text = g.how or "single"
    if g.cube > 1:
        text += f", cube {g.cube}"
    if g.crawford:
        text += ", Crawford"
    return text


def render_summary_image(s: MatchSummary, *, theme: str = "default",
                         width: int = SUMMARY_WIDTH) -> Image.Image:
    th = get_theme(theme)
    g = summary_geometry(s, width)
    u = width / 40
    img = Image.new("RGB", (width, g.height), th.background)
    d = ImageDraw.Draw(img)
    w, b = s.names
    score = s.score
    kind = f"Match to {s.length}" if s.length else "Money session"
    head = f"{w} {score[0]} – {score[1]} {b}"
    t, tf = fit_text(head, round(u * 1.1), True, width - round(u * 2))
    d.text((round(u), round(u * 1.1)), t, font=tf, fill=th.panel_text, anchor="lm")
    sub = kind
    if s.winner is not None:
        sub += f" · {s.names[s.winner]} wins"
    sf = font(round(u * 0.65))
    d.text((round(u), round(u * 2.3)), sub, font=sf, fill=th.highlight, anchor="lm")
    hf = font(round(u * 0.55))
    y_head = g.rows[0][1] - round(u * 0.45) if g.rows else round(u * 3.7)
    for x, label in ((round(u * 1.3), "game"), (round(u * 3.6), "winner"),
                     (round(u * 10.5), "points"), (round(u * 13.5), "how"),
                     (round(width * 0.62), "score after")):
        d.text((x, y_head), label, font=hf, fill=th.panel_muted, anchor="lm")

    rf = font(round(u * 0.6), True)
    nf = font(round(u * 0.6))
    chip_r = round(u * 0.3)
    for k, (line, row, bars) in enumerate(zip(s.games, g.rows, g.bars, strict=True)):
        d.rectangle(row, fill=th.panel if k % 2 == 0 else th.panel_active)
        cy = (row[1] + row[3]) // 2
        d.text((round(u * 1.3), cy), str(line.number), font=rf, fill=th.panel_text,
               anchor="lm")
        chip = checker_sprite(th, line.winner, chip_r)
        img.paste(chip, (round(u * 3.0), cy - chip.height // 2), chip)
        name, f = fit_text(s.names[line.winner], round(u * 0.6), True, round(u * 6))
        d.text((round(u * 3.9), cy), name, font=f, fill=th.panel_text, anchor="lm")
        d.text((round(u * 10.5), cy), f"+{line.points}", font=rf, fill=th.highlight,
               anchor="lm")
        how, f = fit_text(_how(line), round(u * 0.6), False, round(width * 0.62 - u * 14))
        d.text((round(u * 13.5), cy), how, font=f, fill=th.panel_muted, anchor="lm")
        for p in (0, 1):
            bar = bars[p]
            if bar[2] > bar[0]:
                d.rectangle(bar, fill=th.checkers[p].fill, outline=th.checkers[p].rim)
            d.text((bar[2] + round(u * 0.2), (bar[1] + bar[3]) // 2), str(line.score[p]),
                   font=font(max(9, round(u * 0.45))), fill=th.panel_text, anchor="lm")

    # The cube's history.
    y = (g.rows[-1][3] if g.rows else round(u * 4)) + round(u * 1.0)
    d.text((round(u), y), "Cube", font=sf, fill=th.panel_muted, anchor="lm")
    y += round(u * 0.9)
    if not s.cube:
        d.text((round(u * 1.5), y), "never turned", font=nf, fill=th.panel_text, anchor="lm")
        y += round(u * 0.8)
    cs = round(u * 0.65)
    for c in s.cube[:12]:
        sprite = cube_sprite(th, cs, c.value)
        img.paste(sprite, (round(u * 1.3), y - cs // 2), sprite)
        text = f"game {c.game}, move {c.move}: {s.names[c.player]} {c.action}"
        t, f = fit_text(text, round(u * 0.58), False, width - round(u * 4))
        d.text((round(u * 2.4), y), t, font=f, fill=th.panel_text, anchor="lm")
        y += round(u * 0.8)
    if len(s.cube) > 12:
        d.text((round(u * 2.4), y), f"… and {len(s.cube) - 12} more", font=nf,
               fill=th.panel_muted, anchor="lm")

    # PR and luck (or the error rate alone).
    y = g.height - round(u * 1.6)
    graded = any(pr is not None for pr in s.prs)
    title = ("PR (500 x equity lost per decision) and luck" if graded
             else "Error rate (equity lost per decision)")
    d.text((round(u), y - round(u * 0.9)), title, font=sf, fill=th.panel_muted, anchor="lm")
    x = round(u * 1.3)
    for p in (0, 1):
        chip = checker_sprite(th, p, chip_r)
        img.paste(chip, (x, y - chip.height // 2), chip)
        text = _grade_text(s, p)
        t, f = fit_text(text, round(u * 0.62), True, round(width / 2 - u * 2.5))
        d.text((x + chip.width + round(u * 0.3), y), t, font=f, fill=th.panel_text,
               anchor="lm")
        x += round(width / 2)
    return img


def _grade_text(s: MatchSummary, p: int) -> str:
    """One player's line under the summary: PR, grade and luck, else the error rate; "no
    decision" (no PR, no grade) for a player analysed who had none to make."""
    pr, luck, rate = s.prs[p], s.lucks[p], s.error_rates[p]
    if rate is not None and not s.decisions[p]:
        return f"{s.names[p]}: no decision" + (f", luck {luck:+.2f}" if luck is not None
                                               else "")
    if pr is not None:
        text = f"{s.names[p]}: PR {pr:.1f} {s.grades[p]}".rstrip()
        if rate is not None:
            text += f" ({rate * 1000:.1f} m)"
        return text + (f", luck {luck:+.2f}" if luck is not None else "")
    if rate is not None:
        return f"{s.names[p]}: {rate * 1000:.1f} m ({s.decisions[p]} decisions)"
    return f"{s.names[p]}: not analysed"


def render_summary(s: MatchSummary, *, theme: str = "default",
                   width: int = SUMMARY_WIDTH) -> bytes:
    """The match summary as PNG bytes."""
    out = io.BytesIO()
    render_summary_image(s, theme=theme, width=width).save(out, "PNG", compress_level=3)
    return out.getvalue()


def summary_alt_text(s: MatchSummary, limit: int = 1024) -> str:
    w, b = s.names
    kind = f"match to {s.length}" if s.length else "money session"
    parts = [f"Summary of the {kind}: {w} {s.score[0]}, {b} {s.score[1]}"
             + (f"; {s.names[s.winner]} wins." if s.winner is not None else ".")]
    for g in s.games:
        parts.append(f"Game {g.number}: {s.names[g.winner]} +{g.points} ({_how(g)}), "
                     f"score {g.score[0]}-{g.score[1]}.")
    if s.cube:
        parts.append("Cube: " + "; ".join(
            f"game {c.game} move {c.move}, {s.names[c.player]} {c.action}" for c in s.cube)
            + ".")
    else:
        parts.append("The cube was never turned.")
    for p in (0, 1):
        rate, pr, luck = s.error_rates[p], s.prs[p], s.lucks[p]
        if rate is None:
            parts.append(f"{s.names[p]}: not analysed.")
            continue
        if not s.decisions[p]:
            parts.append(f"{s.names[p]}: no decision (no PR, no grade)"
                         + (f", luck {luck:+.2f}." if luck is not None else "."))
            continue
        text = (f"{s.names[p]}: error rate {rate * 1000:.1f} thousandths per decision over "
                f"{s.decisions[p]} decisions")
        if pr is not None:
            text += f", PR {pr:.1f} ({s.grades[p]})"
        if luck is not None:
            text += f", luck {luck:+.2f}"
        parts.append(text + ".")
    text = " ".join(parts)
    return text if len(text) <= limit else text[: limit - 1] + "…"

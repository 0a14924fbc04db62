"""Tournament pictures: the bracket of an elimination tournament (both brackets and the
grand final for double elimination) or the standings table of a Swiss or round robin, as
PNG bytes in the boards' style (theme colours, DejaVu fonts), and a text alternative.

The whole bracket is drawn from the first round on: rounds not yet paired are empty boxes,
so players see the road ahead.  A decided match shows its winner's row filled in the
theme's highlight colour and the line to the next round drawn in that colour; a match
waiting for its result has the active panel colour.  At 64 players a box row is still
22 px high with 13 px text (the picture grows instead of the text shrinking).

:func:`bracket_layout` gives the geometry (for tests and for a host that wants to crop),
:func:`render_tournament_png` the PNG, :func:`alt_text` the description for screen readers
(Discord's attachment description, at most :data:`ALT_TEXT_LIMIT` characters).
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from engine.tournament import Bracket, Format, Pairing, Reason, TournamentState
from engine.words import counted
from render.text import Font, draw_text, font, text_length
from render.theme import RGB, Theme, get_theme

Rect = tuple[int, int, int, int]

ROW = 22
"""Height of one player's row in a match box."""
BOX_W = 178
GAP_X = 30
"""Between two columns: the connector lines."""
GAP_Y = 10
MARGIN = 20
HEADER = 64
SECTION = 30
"""Height of a section title (winners' / losers' bracket) and its column headings."""
TEXT = 13
ALT_TEXT_LIMIT = 1000


@dataclass(frozen=True, slots=True)
class Box:
    """Where one match of the bracket is drawn; ``pairing`` is ``None`` while unpaired."""

    bracket: Bracket
    stage: int
    slot: int
    rect: Rect
    pairing: Pairing | None

    def row(self, side: int) -> Rect:
        """The rectangle of side ``a`` (0) or ``b`` (1)."""
        x0, y0, x1, _ = self.rect
        return (x0, y0 + side * ROW, x1, y0 + (side + 1) * ROW)

    @property
    def centre_y(self) -> int:
        return (self.rect[1] + self.rect[3]) // 2


@dataclass(frozen=True, slots=True)
class BracketLayout:
    width: int
    height: int
    boxes: tuple[Box, ...]
    sections: tuple[tuple[str, int, int], ...]
    """(title, x, y) of each section title."""
    headings: tuple[tuple[str, int, int], ...]
    """(column heading, x, y)."""

    def box_of(self, pairing_id: str) -> Box:
        for b in self.boxes:
            if b.pairing is not None and b.pairing.id == pairing_id:
                return b
        raise KeyError(pairing_id)


# ------------------------------------------------------------------ layout


def _counts(state: TournamentState) -> dict[tuple[Bracket, int], int]:
    """Matches per (bracket, stage) of the whole bracket."""
    size = state.bracket_size
    k = size.bit_length() - 1
    out: dict[tuple[Bracket, int], int] = {}
    if state.format is Format.SINGLE_ELIMINATION:
        for s in range(1, k + 1):
            out[(Bracket.MAIN, s)] = size >> s
        return out
    for s in range(1, k + 1):
        out[(Bracket.WINNERS, s)] = size >> s
    for m in range(1, 2 * k - 1):
        out[(Bracket.LOSERS, m)] = size >> ((m + 1) // 2 + 1)
    out[(Bracket.FINAL, 1)] = 1
    if any(p.bracket is Bracket.RESET for p in state.pairings):
        out[(Bracket.RESET, 1)] = 1
    return out


def _tree(count1: int, stages: int, halves: list[bool], top: int) -> list[list[int]]:
    """Centre y of each match per stage: stage 1 evenly spaced, then each stage either
    halves (the centre between two feeders) or keeps one-to-one (losers' even rounds)."""
    unit = 2 * ROW + GAP_Y
    ys = [[top + i * unit + ROW for i in range(count1)]]
    for s in range(1, stages):
        prev = ys[-1]
        if halves[s]:
            ys.append([(prev[2 * i] + prev[2 * i + 1]) // 2 for i in range(len(prev) // 2)])
        else:
            ys.append(list(prev))
    return ys


def bracket_layout(state: TournamentState) -> BracketLayout:
    """Geometry of the elimination bracket of ``state``."""
    if not state.format.elimination:
        raise ValueError("only elimination tournaments have a bracket; use the standings")
    counts = _counts(state)
    by_key = {(p.bracket, p.stage, p.slot): p for p in state.pairings}
    boxes: list[Box] = []
    sections: list[tuple[str, int, int]] = []
    headings: list[tuple[str, int, int]] = []
    col = BOX_W + GAP_X
    k = state.bracket_size.bit_length() - 1
    double = state.format is Format.DOUBLE_ELIMINATION
    main = Bracket.WINNERS if double else Bracket.MAIN
    y = HEADER
    if double:
        sections.append(("Winners' bracket", MARGIN, y))
        y += 22
    y += SECTION
    top_ys = _tree(counts[(main, 1)], k, [True] * k, y + 4)
    for s in range(1, k + 1):
        x = MARGIN + (s - 1) * col
        label = "Final" if s == k and not double else f"Round {s}"
        headings.append((label, x, y - 18))
        for i, cy in enumerate(top_ys[s - 1]):
            boxes.append(Box(main, s, i, (x, cy - ROW, x + BOX_W, cy + ROW),
                             by_key.get((main, s, i))))
    bottom = max(top_ys[0]) + ROW + GAP_Y
    width = MARGIN * 2 + k * col - GAP_X
    if double:
        y = bottom + 10
        lb_stages = 2 * k - 2
        if lb_stages:
            sections.append(("Losers' bracket", MARGIN, y))
            y += 22 + SECTION
            halves = [m % 2 == 1 for m in range(1, lb_stages + 1)]
            halves[0] = False
            lb_ys = _tree(counts[(Bracket.LOSERS, 1)], lb_stages, halves, y + 4)
            for m in range(1, lb_stages + 1):
                x = MARGIN + (m - 1) * col
                headings.append((f"Round {m}", x, y - 18))
                for i, cy in enumerate(lb_ys[m - 1]):
                    boxes.append(Box(Bracket.LOSERS, m, i, (x, cy - ROW, x + BOX_W, cy + ROW),
                                     by_key.get((Bracket.LOSERS, m, i))))
            bottom = max(lb_ys[0]) + ROW + GAP_Y
            lb_final_y = lb_ys[-1][0]
        else:
            lb_final_y = top_ys[-1][0] + 3 * ROW
        gx = MARGIN + max(k, lb_stages) * col
        gy = (top_ys[-1][0] + lb_final_y) // 2
        headings.append(("Grand final", gx, gy - ROW - 18))
        boxes.append(Box(Bracket.FINAL, 1, 0, (gx, gy - ROW, gx + BOX_W, gy + ROW),
                         by_key.get((Bracket.FINAL, 1, 0))))
        width = gx + BOX_W + MARGIN
        if (Bracket.RESET, 1) in counts:
            rx = gx + col
            headings.append(("Reset", rx, gy - ROW - 18))
            boxes.append(Box(Bracket.RESET, 1, 0, (rx, gy - ROW, rx + BOX_W, gy + ROW),
                             by_key.get((Bracket.RESET, 1, 0))))
            width = rx + BOX_W + MARGIN
    width = max(width, 640)
    return BracketLayout(width, bottom + MARGIN, tuple(boxes), tuple(sections),
                         tuple(headings))


# ------------------------------------------------------------------ drawing


def _mix(a: RGB, b: RGB, t: float) -> RGB:
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t),
            round(a[2] + (b[2] - a[2]) * t))


@lru_cache(maxsize=8)
def _palette(theme: Theme) -> Image.Image:
    """The picture's colours: the theme's own, then 15 blends between every text colour
    and every fill it is written on (anti-aliased text edges)."""
    fills = [theme.background, theme.panel, theme.panel_active, theme.highlight, theme.frame]
    inks = [theme.panel_text, theme.panel_muted, theme.banner, theme.highlight,
            theme.frame_text, theme.frame]
    colours: list[RGB] = list(dict.fromkeys([*fills, *inks]))
    for f in fills:
        for ink in inks:
            for step in range(1, 16, 2):
                c = _mix(f, ink, step / 16)
                if c not in colours:
                    colours.append(c)
    colours = colours[:256]
    flat = [v for c in colours for v in c]
    flat += [0] * (768 - len(flat))
    pal = Image.new("P", (1, 1))
    pal.putpalette(flat)
    return pal


def _fit(text: str, f: Font, width: int) -> str:
    if text_length(f, text) <= width:
        return text
    while text and text_length(f, text + "…") > width:
        text = text[:-1]
    return text + "…"


def _label(state: TournamentState, names: Mapping[str, str] | None, player: str | None) -> str:
    if player is None:
        return "bye"
    if names and player in names:
        return names[player]
    return state.name(player)


def _seed_of(state: TournamentState) -> dict[str, int]:
    return {s.player: s.seed for s in state.seeds}


def _title(state: TournamentState) -> tuple[str, str]:
    n = len(state.seeds)
    title = state.config.name or f"{state.format.label} tournament"
    if state.finished:
        progress = "finished"
    else:
        progress = f"round {state.round} of {state.rounds_planned}"
    sub = (f"{state.format.label} · {counted(n, 'player')} · {progress} · "
           f"{state.config.lengths.describe()}")
    return title, sub


def _header(img: Image.Image, state: TournamentState, theme: Theme, width: int,
            names: Mapping[str, str] | None) -> None:
    d = ImageDraw.Draw(img)
    title, sub = _title(state)
    draw_text(img, (MARGIN, 14), _fit(title, font(20, True), width - 2 * MARGIN), font(20, True),
              theme.frame_text)
    draw_text(img, (MARGIN, 40), _fit(sub, font(TEXT), width - 2 * MARGIN), font(TEXT),
              theme.panel_muted)
    if state.champion is not None:
        text = f"Champion: {_label(state, names, state.champion)}"
        f = font(16, True)
        w = round(text_length(f, text))
        x1 = width - MARGIN
        d.rounded_rectangle((x1 - w - 20, 12, x1, 38), radius=6, fill=theme.highlight)
        draw_text(img, (x1 - w - 10, 25), text, f, theme.banner, "lm")


def _draw_box(img: Image.Image, box: Box, state: TournamentState, theme: Theme,
              names: Mapping[str, str] | None, seeds: dict[str, int],
              advancing: Mapping[tuple[Bracket, int, int], tuple[str | None, str | None]]
              ) -> None:
    d = ImageDraw.Draw(img)
    p = box.pairing
    x0, y0, x1, _ = box.rect
    pending = p is not None and not p.decided
    d.rectangle(box.rect, fill=theme.panel_active if pending else theme.panel)
    if p is None:
        d.line((x0 + 6, y0 + ROW, x1 - 6, y0 + ROW), fill=theme.frame)
        # The players already through to this match (a bye's, an early winner's) are
        # shown before the round is paired (issue 30 item 10).
        for side, player in enumerate(advancing.get((box.bracket, box.stage, box.slot),
                                                    (None, None))):
            if player is None:
                continue
            rx0, ry0, _, ry1 = box.row(side)
            cy = (ry0 + ry1) // 2
            draw_text(img, (rx0 + 22, cy), str(seeds[player]), font(11), theme.panel_muted, "rm")
            draw_text(img, (rx0 + 28, cy),
                      _fit(_label(state, names, player), font(TEXT), BOX_W - 34), font(TEXT),
                      theme.panel_text, "lm")
        return
    gone = set(state.withdrawn)
    reg, bold, small = font(TEXT), font(TEXT, True), font(11)
    for side, player in enumerate((p.a, p.b)):
        rx0, ry0, rx1, ry1 = box.row(side)
        won = p.result is not None and player is not None and p.result.winner == player
        if won:
            d.rectangle((rx0, ry0, rx1, ry1 - 1), fill=theme.highlight)
        ink = theme.banner if won else theme.panel_text
        muted = theme.banner if won else theme.panel_muted
        cy = (ry0 + ry1) // 2
        if player is not None:
            draw_text(img, (rx0 + 22, cy), str(seeds[player]), small, muted, "rm")
        score = ""
        if p.result is not None and player is not None and p.result.winner is not None:
            pts = p.result.points[side]
            if p.result.reason is Reason.PLAYED or p.result.points != (0, 0):
                score = str(pts)
            elif won:
                score = {Reason.BYE: "", Reason.WITHDRAWAL: "w/o", Reason.FORFEIT: "w/o",
                         Reason.ORGANISER: "adj", Reason.PLAYED: ""}[p.result.reason]
        sw = round(text_length(small, score)) + 8 if score else 0
        text = _label(state, names, player)
        f = bold if won else reg
        colour = ink if player is not None and player not in gone else muted
        draw_text(img, (rx0 + 28, cy), _fit(text, f, BOX_W - 34 - sw), f, colour, "lm")
        if score:
            draw_text(img, (rx1 - 6, cy), score, small, ink, "rm")
    d.line((x0, y0 + ROW, x1, y0 + ROW), fill=theme.background)


def _connect(d: ImageDraw.ImageDraw, src: Box, dst: Box, theme: Theme) -> None:
    lit = src.pairing is not None and src.pairing.winner is not None
    colour = theme.highlight if lit else theme.frame
    sx, sy = src.rect[2], src.centre_y
    tx, ty = dst.rect[0], dst.centre_y
    mx = (sx + tx) // 2 if tx > sx else sx + GAP_X // 2
    width = 3 if lit else 2
    d.line((sx, sy, mx, sy), fill=colour, width=width)
    d.line((mx, sy, mx, ty), fill=colour, width=width)
    d.line((mx, ty, tx, ty), fill=colour, width=width)


def _feeders(layout: BracketLayout, state: TournamentState) -> list[tuple[Box, Box]]:
    where = {(b.bracket, b.stage, b.slot): b for b in layout.boxes}
    out: list[tuple[Box, Box]] = []
    k = state.bracket_size.bit_length() - 1
    for b in layout.boxes:
        if b.bracket in (Bracket.MAIN, Bracket.WINNERS) and b.stage > 1:
            out += [(where[(b.bracket, b.stage - 1, 2 * b.slot + i)], b) for i in (0, 1)]
        elif b.bracket is Bracket.LOSERS and b.stage > 1:
            if b.stage % 2 == 0:
                out.append((where[(Bracket.LOSERS, b.stage - 1, b.slot)], b))
            else:
                out += [(where[(Bracket.LOSERS, b.stage - 1, 2 * b.slot + i)], b)
                        for i in (0, 1)]
        elif b.bracket is Bracket.FINAL:
            out.append((where[(Bracket.WINNERS, k, 0)], b))
            if k > 1:
                out.append((where[(Bracket.LOSERS, 2 * k - 2, 0)], b))
        elif b.bracket is Bracket.RESET:
            out.append((where[(Bracket.FINAL, 1, 0)], b))
    return out


def bracket_image(state: TournamentState, theme: Theme,
                  names: Mapping[str, str] | None = None) -> Image.Image:
    layout = bracket_layout(state)
    img = Image.new("RGB", (layout.width, layout.height), theme.background)
    d = ImageDraw.Draw(img)
    _header(img, state, theme, layout.width, names)
    for title, x, y in layout.sections:
        draw_text(img, (x, y), title, font(15, True), theme.frame_text)
    for text, x, y in layout.headings:
        draw_text(img, (x, y), text, font(12, True), theme.panel_muted)
    for src, dst in _feeders(layout, state):
        _connect(d, src, dst, theme)
    seeds = _seed_of(state)
    through = advancing(layout)
    for box in layout.boxes:
        _draw_box(img, box, state, theme, names, seeds, through)
    return img


def advancing(layout: BracketLayout) -> dict[tuple[Bracket, int, int], tuple[str | None,
                                                                               str | None]]:
    """The players already through to each match not yet paired of the main (winners')
    bracket: the winners of its two feeder matches decided so far, (side a, side b)."""
    where = {(b.bracket, b.stage, b.slot): b for b in layout.boxes}
    out: dict[tuple[Bracket, int, int], tuple[str | None, str | None]] = {}
    for b in sorted(layout.boxes, key=lambda b: b.stage):
        if b.pairing is not None or b.stage < 2 or b.bracket not in (Bracket.MAIN,
                                                                      Bracket.WINNERS):
            continue
        sides: list[str | None] = []
        for i in (0, 1):
            feeder = where.get((b.bracket, b.stage - 1, 2 * b.slot + i))
            winner = None
            if feeder is not None and feeder.pairing is not None:
                winner = feeder.pairing.winner
            sides.append(winner)
        if any(sides):
            out[(b.bracket, b.stage, b.slot)] = (sides[0], sides[1])
    return out


# ------------------------------------------------------------------ standings


@dataclass(frozen=True, slots=True)
class TableLayout:
    width: int
    height: int
    columns: tuple[tuple[str, int, int], ...]
    """(heading, x, width) of each column."""
    rows: tuple[tuple[str, Rect], ...]
    """(player, rectangle) of each standings row, best first."""

    def row_of(self, player: str) -> Rect:
        for p, rect in self.rows:
            if p == player:
                return rect
        raise KeyError(player)


MAX_ROUND_COLUMNS = 12


def _show_rounds(state: TournamentState) -> bool:
    return state.rounds_planned <= MAX_ROUND_COLUMNS


def table_layout(state: TournamentState) -> TableLayout:
    """Geometry of the standings table of ``state``."""
    cols: list[tuple[str, int]] = [("#", 34), ("Player", 210), ("Score", 56), ("W–L", 60)]
    if state.format is Format.SWISS:
        cols.append(("Buch.", 56))
    cols += [("H2H", 44), ("Pts +/-", 64)]
    if _show_rounds(state):
        cols += [(f"R{r}", ROUND_W) for r in range(1, state.rounds_planned + 1)]
    x = MARGIN
    placed: list[tuple[str, int, int]] = []
    for name, w in cols:
        placed.append((name, x, w))
        x += w
    width = max(x + MARGIN, 640)
    top = HEADER + SECTION
    table = state.standings()
    rows = tuple((s.player, (MARGIN, top + i * ROW, x, top + (i + 1) * ROW))
                 for i, s in enumerate(table))
    return TableLayout(width, top + len(table) * ROW + MARGIN, tuple(placed), rows)


ROUND_W = 96
"""Width of a round's column: the result and the opponent's name."""


def round_cells(state: TournamentState, names: Mapping[str, str] | None = None
                ) -> dict[tuple[str, int], tuple[str, bool]]:
    """Each player's round cells: the result letter and the opponent's name ("W alice":
    a seed number read as the table's place: issue 30 item 9), and whether it is a win
    played (drawn in bold).  A rest ("bye") is never drawn as a win, whatever it scores
    (issue 42 item 16)."""
    out: dict[tuple[str, int], tuple[str, bool]] = {}
    for p in state.pairings:
        for player in p.players:
            other = p.opponent(player)
            won = p.result is not None and p.result.winner == player
            if other is None:
                out[(player, p.round)] = ("bye", False)
            else:
                mark = "·" if p.result is None else "W" if won else "L"
                out[(player, p.round)] = (f"{mark} {_label(state, names, other)}", won)
    return out


def standings_image(state: TournamentState, theme: Theme,
                    names: Mapping[str, str] | None = None) -> Image.Image:
    layout = table_layout(state)
    img = Image.new("RGB", (layout.width, layout.height), theme.background)
    d = ImageDraw.Draw(img)
    _header(img, state, theme, layout.width, names)
    head = font(12, True)
    for name, x, _w in layout.columns:
        draw_text(img, (x + 4, HEADER + SECTION - 8), name, head, theme.panel_muted, "ls")
    reg, bold = font(TEXT), font(TEXT, True)
    swiss = state.format is Format.SWISS
    winner = state.champion
    cells_by_round = round_cells(state, names) if _show_rounds(state) else {}
    for i, (s, (_, rect)) in enumerate(zip(state.standings(), layout.rows, strict=True)):
        champion = winner == s.player
        fill = theme.highlight if champion else theme.panel if i % 2 == 0 else \
            _mix(theme.panel, theme.background, 0.5)
        d.rectangle((rect[0], rect[1], rect[2], rect[3] - 1), fill=fill)
        ink = theme.banner if champion else theme.panel_muted if s.withdrawn else \
            theme.panel_text
        cells = [str(s.place), _label(state, names, s.player)
                 + (" (withdrawn)" if s.withdrawn else ""), str(s.score),
                 f"{s.wins}–{s.losses}"]
        if swiss:
            cells.append(str(s.buchholz))
        cells += [str(s.head_to_head), f"{s.point_difference:+d}"]
        cy = (rect[1] + rect[3]) // 2
        for (name, x, w), text in zip(layout.columns, cells, strict=False):
            f = bold if champion or name == "Score" else reg
            draw_text(img, (x + 4, cy), _fit(text, f, w - 8), f, ink, "lm")
        if _show_rounds(state):
            first = len(cells)
            for r, (_, x, _w) in enumerate(layout.columns[first:], start=1):
                text, won = cells_by_round.get((s.player, r), ("", False))
                colour = ink if won or champion else theme.panel_muted
                f = bold if won else reg
                draw_text(img, (x + 4, cy), _fit(text, f, ROUND_W - 8), f, colour, "lm")
    return img


# ------------------------------------------------------------------ entry points


def tournament_image(state: TournamentState, theme: Theme | str = "default",
                     names: Mapping[str, str] | None = None) -> Image.Image:
    """The bracket (elimination) or the standings table (Swiss, round robin)."""
    th = get_theme(theme) if isinstance(theme, str) else theme
    if state.format.elimination:
        return bracket_image(state, th, names)
    return standings_image(state, th, names)


def render_tournament_png(state: TournamentState, theme: Theme | str = "default",
                          names: Mapping[str, str] | None = None, *,
                          truecolor: bool = False) -> bytes:
    """PNG bytes of :func:`tournament_image`.  By default a 256-colour PNG on a palette
    made of the theme's colours and their blends (the picture has little else; colours
    come out within a few units, half the size and about twice as fast to encode as RGB);
    ``truecolor=True`` stores it as RGB."""
    th = get_theme(theme) if isinstance(theme, str) else theme
    img = tournament_image(state, th, names)
    out = io.BytesIO()
    if truecolor:
        img.save(out, "PNG", compress_level=1)
    else:
        img.quantize(palette=_palette(th), dither=Image.Dither.NONE).save(
            out, "PNG", compress_level=1)
    return out.getvalue()


def alt_text(state: TournamentState, names: Mapping[str, str] | None = None,
             limit: int = ALT_TEXT_LIMIT) -> str:
    """A plain-text description of the picture: the tournament, the champion when there is
    one, then the current round's matches (elimination) or the leaders (Swiss, round robin);
    cut with an ellipsis at ``limit`` characters."""
    title, sub = _title(state)
    parts = [f"{title}: {sub.replace(' · ', ', ')}."]
    if state.champion is not None:
        parts.append(f"Champion: {_label(state, names, state.champion)}.")

    def who(p: str | None) -> str:
        return _label(state, names, p)

    if state.format.elimination:
        lines = []
        for p in state.current_pairings:
            if p.a is None and p.b is None:
                continue
            if p.result is None:
                lines.append(f"{who(p.a)} v {who(p.b)} (to play)")
            elif p.is_bye:
                lines.append(f"{who(p.result.winner)} has a bye")
            elif p.result.winner is not None:
                loser = p.loser
                score = ""
                if p.result.points != (0, 0):
                    won, lost = p.points_of(p.result.winner)
                    score = f" {won}-{lost}"
                lines.append(f"{who(p.result.winner)} beat {who(loser)}{score}"
                             + ("" if p.result.reason is Reason.PLAYED
                                else f" ({p.result.reason.value})"))
        label = "Final" if state.finished else f"Round {state.round}"
        parts.append(f"{label}: " + "; ".join(lines) + ".")
    else:
        table = state.standings()
        rows = [f"{s.place}. {who(s.player)} {s.score} "
                f"({s.wins}-{s.losses}{', withdrawn' if s.withdrawn else ''})" for s in table]
        parts.append("Standings: " + "; ".join(rows) + ".")
    text = " ".join(parts)
    if len(text) > limit:
        text = text[:limit - 1].rstrip() + "…"
    return text

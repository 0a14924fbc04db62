"""Tournament pictures (render/bracket.py): the bracket and the standings table read back
with Pillow, and the text alternative."""

from __future__ import annotations

import io
import random

from PIL import Image
from tournament_driver import play_out, start, step

from engine.tournament import Bracket, Format, TournamentState
from render.bracket import (
    ALT_TEXT_LIMIT,
    ROW,
    alt_text,
    bracket_layout,
    render_tournament_png,
    table_layout,
)
from render.theme import get_theme


def read(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    assert img.format == "PNG"
    return img.convert("RGB")


TOL = 8
"""Palette PNGs keep each colour within a few units (render/png.py's boards likewise)."""


def close(a: tuple[int, int, int], b: tuple[int, int, int], tol: int = TOL) -> bool:
    return max(abs(a[i] - b[i]) for i in range(3)) <= tol


def probe_row(img: Image.Image, rect: tuple[int, int, int, int]) -> tuple[int, int, int]:
    """The fill of a row, left of its text (between the seed number and the name)."""
    x0, y0, _, y1 = rect
    pixel = img.getpixel((x0 + 25, (y0 + y1) // 2))
    assert isinstance(pixel, tuple)
    return (pixel[0], pixel[1], pixel[2])


def test_64_player_bracket_shows_the_champion() -> None:
    state = play_out(start(Format.SINGLE_ELIMINATION, 64, seed=8), random.Random(8))
    data = render_tournament_png(state)
    img = read(data)
    layout = bracket_layout(state)
    assert img.size == (layout.width, layout.height)
    assert len(layout.boxes) == 63
    theme = get_theme("default")
    final = layout.box_of(state.pairings[-1].id)
    side = 0 if final.pairing is not None and final.pairing.a == state.champion else 1
    assert close(probe_row(img, final.row(side)), theme.highlight)
    assert close(probe_row(img, final.row(1 - side)), theme.panel)
    exact = read(render_tournament_png(state, truecolor=True))
    assert probe_row(exact, final.row(side)) == theme.highlight
    assert probe_row(exact, final.row(1 - side)) == theme.panel
    # the winner's line from the semi-final into the final is drawn in the highlight colour
    semi = next(b for b in layout.boxes
                if b.stage == final.stage - 1 and b.pairing is not None
                and b.pairing.winner == state.champion)
    line = exact.getpixel((semi.rect[2] + 4, semi.centre_y))
    assert line == theme.highlight
    assert close(probe_row(img, semi.row(0 if semi.pairing and semi.pairing.a
                                          == state.champion else 1)), theme.highlight)
    # legible at 64: full-height rows, nothing squeezed
    assert all(b.rect[3] - b.rect[1] == 2 * ROW for b in layout.boxes)
    text = alt_text(state)
    assert f"Champion: {state.name(state.champion)}" in text
    assert len(text) <= ALT_TEXT_LIMIT


def test_double_elimination_draws_both_brackets_and_the_reset() -> None:
    # find a small double elimination that needed a bracket reset
    for seed in range(200):
        state = play_out(start(Format.DOUBLE_ELIMINATION, 6, seed=seed), random.Random(seed))
        if any(p.bracket is Bracket.RESET for p in state.pairings):
            break
    else:
        raise AssertionError("no reset in 200 random tournaments")
    layout = bracket_layout(state)
    brackets = {b.bracket for b in layout.boxes}
    assert brackets == {Bracket.WINNERS, Bracket.LOSERS, Bracket.FINAL, Bracket.RESET}
    assert all(b.pairing is not None for b in layout.boxes)  # finished: every box filled
    img = read(render_tournament_png(state))
    reset = layout.box_of(state.pairings[-1].id)
    assert reset.bracket is Bracket.RESET and reset.pairing is not None
    side = 0 if reset.pairing.a == state.champion else 1
    assert close(probe_row(img, reset.row(side)), get_theme("default").highlight)
    assert "Champion" in alt_text(state)


def test_a_bracket_in_progress_shows_the_rounds_ahead_as_empty_boxes() -> None:
    state = start(Format.SINGLE_ELIMINATION, 13, seed=2)
    layout = bracket_layout(state)
    assert len(layout.boxes) == 15
    assert sum(b.pairing is None for b in layout.boxes) == 7  # rounds 2 to 4
    img = read(render_tournament_png(state, theme="classic"))
    pending = next(b for b in layout.boxes if b.pairing is not None and not b.pairing.decided)
    assert close(probe_row(img, pending.row(0)), get_theme("classic").panel_active)
    text = alt_text(state)
    assert "Round 1:" in text and "(to play)" in text and "has a bye" in text


def test_swiss_standings_table() -> None:
    state = play_out(start(Format.SWISS, 64, seed=5), random.Random(5), removals=0.02)
    img = read(render_tournament_png(state))
    layout = table_layout(state)
    assert img.size == (layout.width, layout.height)
    assert len(layout.rows) == 64
    highlight = get_theme("default").highlight
    assert close(probe_row(img, layout.row_of(state.champion or "")), highlight)
    second = state.standings()[1].player
    assert not close(probe_row(img, layout.row_of(second)), highlight, 40)
    text = alt_text(state)
    assert f"Champion: {state.name(state.champion)}" in text
    assert text.endswith("…") and len(text) <= ALT_TEXT_LIMIT  # 64 rows do not fit


def test_round_robin_table_and_names_override() -> None:
    state: TournamentState = play_out(start(Format.ROUND_ROBIN, 5, seed=1), random.Random(1))
    champion = state.champion
    assert champion is not None
    names = {champion: "Zoë the Champion"}
    assert "Champion: Zoë the Champion" in alt_text(state, names)
    img = read(render_tournament_png(state, names=names))
    assert close(probe_row(img, table_layout(state).row_of(champion)),
                 get_theme("default").highlight)


def test_players_through_to_round_two_are_shown_before_it_is_paired() -> None:
    """Issue 30 item 10: the round-1 bracket left the players with a bye out of round 2
    until round 1 ended."""
    state = start(Format.SINGLE_ELIMINATION, 13, seed=2)
    layout = bracket_layout(state)
    byes = [p for p in state.pairings if p.is_bye]
    assert byes
    theme = get_theme("default")
    img = read(render_tournament_png(state, truecolor=True))
    shown = 0
    for box in layout.boxes:
        if box.pairing is not None or box.stage != 2:
            continue
        feeders = [layout.boxes[i] for i, b in enumerate(layout.boxes)
                   if b.stage == 1 and b.slot // 2 == box.slot]
        for side, feeder in enumerate(sorted(feeders, key=lambda b: b.slot)):
            x0, y0, _x1, y1 = box.row(side)
            inked = any(img.getpixel((x, y)) != theme.panel
                        for x in range(x0 + 28, x0 + 90) for y in range(y0 + 3, y1 - 3))
            through = feeder.pairing is not None and feeder.pairing.winner is not None
            assert inked == through, (box.slot, side)
            shown += through
    assert shown == len(byes)


def test_swiss_round_cells_name_the_opponent() -> None:
    """Issue 30 item 9: "W 3" meant "beat seed 3" beside a # column of places: carol's
    "W 3" read as "beat erin" (3rd) when she beat alice.  The cells name the opponent."""
    from render.bracket import round_cells

    state = step(step(start(Format.SWISS, 6, seed=3), random.Random(3)), random.Random(4))
    names = {s.player: f"player {s.player}" for s in state.seeds}
    cells = round_cells(state, names)
    for p in state.pairings:
        if p.result is None or p.a is None or p.b is None:
            continue
        winner, loser = p.result.winner, p.loser
        assert winner is not None and loser is not None
        assert cells[(winner, p.round)] == (f"W {names[loser]}", True)
        assert cells[(loser, p.round)] == (f"L {names[winner]}", False)
    assert all(not text.split(" ", 1)[-1].isdigit() for text, _ in cells.values())


def test_round_robin_rest_is_not_drawn_bold_like_a_win() -> None:
    """Issue 42 item 16: a round robin's rest ("bye") was drawn in bold like a win.  The
    cell read back is "bye" in the regular face, in the muted colour of a cell not won."""
    from PIL import ImageDraw

    from render.bracket import ROUND_W, TEXT
    from render.text import font

    state = step(start(Format.ROUND_ROBIN, 5, seed=2), random.Random(2))
    rests = [p for p in state.pairings if p.is_bye and p.round == 1]
    assert rests and rests[0].result is not None
    rester = rests[0].result.winner
    layout = table_layout(state)
    img = read(render_tournament_png(state, truecolor=True))
    theme = get_theme("default")
    rect = next(r for player, r in layout.rows if player == rester)
    x = next(x for name, x, _ in layout.columns if name == "R1")
    cy = (rect[1] + rect[3]) // 2
    cell = (x, rect[1], x + ROUND_W, rect[3] - 1)
    fill = img.getpixel((x + ROUND_W - 3, cy))
    assert isinstance(fill, tuple)

    def drawn(bold: bool, ink: tuple[int, int, int]) -> Image.Image:
        probe = Image.new("RGB", img.size, fill)
        ImageDraw.Draw(probe).text((x + 4, cy), "bye", font=font(TEXT, bold), fill=ink,
                                   anchor="lm")
        return probe.crop(cell)

    shown = img.crop(cell)
    assert shown.tobytes() == drawn(False, theme.panel_muted).tobytes()
    assert shown.tobytes() != drawn(True, theme.panel_text).tobytes()

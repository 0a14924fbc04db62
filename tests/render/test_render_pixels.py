"""Read the board pictures back: decode the PNG and sample it where the layout
says each checker, slab, cube and die is, then compare with what the position
says should be there (computed here from the engine values, not taken from
the layout's own counts)."""

from __future__ import annotations

import io
import itertools
import random

import pytest
from PIL import Image

from engine.move import Move
from engine.movegen import legal_plays
from engine.player import Player
from engine.position import BAR, OFF, WAITING, Position, make_side
from render import (
    DEFAULT_WIDTH,
    SAME_DIRECTION,
    STANDARD,
    BoardView,
    CubeView,
    LastPlay,
    build,
    render_png,
    theme_names,
)
from render.gallery import examples
from render.layout import STACK_CAPACITY, Layout
from render.png import RING_RADIUS, RING_WIDTH, all_pip_cells, cube_sprite, pip_centres
from render.theme import RGB, Theme, get_theme
from render.view import inverse

TOL = 14


def close(a: tuple[int, ...], b: RGB, tol: int = TOL) -> bool:
    return max(abs(a[i] - b[i]) for i in range(3)) <= tol


def decode(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return Image.open(io.BytesIO(data)).convert("RGB")


def px(img: Image.Image, x: float, y: float) -> tuple[int, ...]:
    value = img.getpixel((round(x), round(y)))
    assert isinstance(value, tuple)
    return value


def expected_point(view: BoardView, viewer_point: int) -> tuple[Player | None, int]:
    viewer = view.bottom
    other = viewer.other
    mine = view.position.count(viewer, viewer_point)
    theirs = view.position.count(other, view.geometry[viewer_point])
    assert not (mine and theirs)
    if mine:
        return viewer, mine
    if theirs:
        return other, theirs
    return None, 0


def read_stack(img: Image.Image, th: Theme, centres: tuple[tuple[int, int], ...],
               radius: int) -> tuple[Player | None, int, bool]:
    """Owner, checkers seen, and whether the top one carries a label."""
    owner: Player | None = None
    seen = 0
    for x, y in centres:
        probe = px(img, x, y - 0.8 * radius)
        found = [p for p in Player if close(probe, th.checkers[p].fill)]
        if not found:
            break
        assert owner in (None, found[0]), "two colours on one point"
        owner = found[0]
        seen += 1
    labelled = False
    if seen:
        x, y = centres[seen - 1]
        assert owner is not None
        text = th.checkers[owner].text
        h = round(radius * 0.25)
        labelled = any(close(px(img, x + dx, y + dy), text, 40)
                       for dx in range(-h, h + 1) for dy in range(-h, h + 1))
    return owner, seen, labelled


def check_count(owner: Player | None, seen: int, labelled: bool,
                want_owner: Player | None, want: int, where: str) -> None:
    assert seen == min(want, STACK_CAPACITY), f"{where}: saw {seen}, want {want}"
    assert owner == (want_owner if want else None), where
    assert labelled == (want > STACK_CAPACITY), f"{where}: label for {want}"


def check_board(view: BoardView, theme: str = "default", size: int | None = None) -> Layout:
    width = DEFAULT_WIDTH if size is None else size
    img = decode(render_png(view, theme=theme, size=width))
    lay = build(view, width)
    assert img.size == (lay.width, lay.height)
    th = get_theme(theme)
    pos = view.position
    for p in range(1, 25):
        st = lay.points[p]
        owner, seen, labelled = read_stack(img, th, st.centres, st.radius)
        want_owner, want = expected_point(view, p)
        check_count(owner, seen, labelled, want_owner, want, f"point {p}")
    for player in Player:
        st = lay.bar[player]
        owner, seen, labelled = read_stack(img, th, st.centres, st.radius)
        want = pos.count(player, BAR)
        check_count(owner, seen, labelled, player, want, f"{player.label} bar")
        for group, index, name in ((lay.trays, OFF, "tray"), (lay.waiting, WAITING, "waiting")):
            slabs = group[player]
            want = pos.count(player, index)
            for k, (x0, y0, x1, y1) in enumerate(slabs.rects):
                c = px(img, (x0 + x1) / 2, (y0 + y1) / 2)
                if k < want:
                    assert close(c, th.checkers[player].fill), f"{player.label} {name} {k}"
                else:
                    assert close(c, th.tray), f"{player.label} {name} slab {k} not empty"
    check_cube(img, th, view, lay)
    check_dice(img, th, view, lay)
    return lay


def check_cube(img: Image.Image, th: Theme, view: BoardView, lay: Layout) -> None:
    if view.cube is None:
        assert lay.cube is None
        return
    spot = lay.cube
    assert spot is not None
    x0, y0, x1, y1 = spot.rect
    cube = view.cube
    fr = lay.frame
    cy = (y0 + y1) / 2
    cx = (x0 + x1) / 2
    # Where: centre, owner's end of the left rail, or on the doubler's half while offered.
    if cube.offered_to is not None:
        half = fr.field_right if cube.offered_to != lay.viewer else fr.field_left
        assert half[0] < cx < half[2] and cy == pytest.approx(fr.mid_y, abs=1)
    else:
        assert fr.rail_left[0] < cx < fr.rail_left[2]
        if cube.owner is None:
            assert cy == pytest.approx(fr.mid_y, abs=1)
        elif cube.owner == lay.viewer:
            assert cy > fr.mid_y + fr.unit * 3
        else:
            assert cy < fr.mid_y - fr.unit * 3
    # The face is the cube colour.
    assert close(px(img, x0 + (x1 - x0) * 0.15, cy), th.cube)
    # The value: the picture matches the sprite of the expected value best.
    crop = img.crop(spot.rect)
    want = cube.value * 2 if cube.offered_to is not None else (
        cube.value if cube.owner is not None or cube.value > 1 else 64)

    def diff(value: int) -> int:
        sprite = cube_sprite(th, x1 - x0, value)
        flat = Image.new("RGB", sprite.size, th.cube)
        flat.paste(sprite, (0, 0), sprite)
        a = crop.tobytes()
        b = flat.tobytes()
        return sum(abs(a[i] - b[i]) for i in range(0, len(a), 3))

    scores = {v: diff(v) for v in (1, 2, 4, 8, 16, 32, 64, 128)}
    assert min(scores, key=lambda v: scores[v]) == want


def check_dice(img: Image.Image, th: Theme, view: BoardView, lay: Layout) -> None:
    expected: list[tuple[int, Player]] = []
    if view.opening is not None:
        expected = [(view.opening[0], Player.WHITE), (view.opening[1], Player.BLACK)]
    elif view.dice is not None and not (view.cube and view.cube.offered_to is not None):
        roller = view.turn if view.turn is not None else lay.viewer
        a, b = view.dice
        expected = [(v, roller) for v in ([a] * 4 if a == b else [a, b])]
    got = sorted((d.value, d.player) for d in lay.dice)
    assert got == sorted(expected)
    fr = lay.frame
    for k, die in enumerate(lay.dice):
        x0, y0, x1, y1 = die.rect
        assert abs((y0 + y1) / 2 - fr.mid_y) <= 1
        half = fr.field_right if die.player == lay.viewer else fr.field_left
        assert half[0] < x0 and x1 < half[2]
        style = th.checkers[die.player]
        face = px(img, x0 + (x1 - x0) * 0.5, y0 + (y1 - y0) * 0.2)
        used = k < len(view.dice_used) and view.dice_used[k] and view.opening is None
        assert used == die.used
        if used:
            assert not close(face, style.fill), "a used die is dimmed"
            continue
        assert close(face, style.fill)
        lit = {c for c in all_pip_cells(die.rect) if close(px(img, *c), style.text, 30)}
        assert lit == set(pip_centres(die.rect, die.value)), f"die shows {die.value}"


# ------------------------------------------------------------------ corpus


def playout_positions(count: int, seed: int) -> list[tuple[Position, Player, tuple[int, int]]]:
    """Positions reached by random legal play from the start (with the roll to play)."""
    rng = random.Random(seed)
    out: list[tuple[Position, Player, tuple[int, int]]] = []
    pos = Position.standard()
    player = Player.WHITE
    while len(out) < count:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        out.append((pos, player, dice))
        pos = rng.choice(legal_plays(pos, player, *dice)).position
        player = player.other
        if pos.is_finished(player.other):
            pos, player = Position.standard(), Player.WHITE
    return out


@pytest.mark.parametrize("name", list(examples()))
def test_gallery_examples_read_back(name: str) -> None:
    check_board(examples()[name])


@pytest.mark.parametrize("theme", theme_names())
def test_every_theme_reads_back(theme: str) -> None:
    for name in ("middle-game", "bear-off", "russian-start", "double-offered"):
        check_board(examples()[name], theme)


def test_random_playout_positions_read_back() -> None:
    for i, (pos, player, dice) in enumerate(playout_positions(40, seed=7)):
        cube = CubeView(2 ** (i % 4), None if i % 3 == 0 else Player(i % 2))
        used = tuple(j < i % 3 for j in range(4 if dice[0] == dice[1] else 2))
        view = BoardView(pos, turn=player, dice=dice, dice_used=used, cube=cube)
        check_board(view)


def test_tall_stacks_bar_and_trays() -> None:
    white = make_side({1: 9, 2: 1}, bar=2, off=3)
    black = make_side({1: 6, 3: 1}, bar=7, off=1)
    view = BoardView(Position.from_sides(white, black), turn=Player.BLACK, dice=(6, 6))
    check_board(view)


@pytest.mark.parametrize("viewer", list(Player))
def test_viewer_sees_own_numbering(viewer: Player) -> None:
    white = make_side({6: 2, 24: 13})
    black = make_side({3: 15})
    view = BoardView(Position.from_sides(white, black), viewer=viewer)
    lay = check_board(view)
    if viewer == Player.WHITE:
        assert lay.points[6].owner == Player.WHITE and lay.points[22].count == 15
    else:
        # White's 6-point is black's 19; black's own 3-point is bottom right.
        assert lay.points[19].owner == Player.WHITE and lay.points[3].count == 15


def test_same_direction_geometry_puts_both_homes_together() -> None:
    white = make_side({1: 2}, waiting=13)
    black = make_side({2: 3}, waiting=12)
    view = BoardView(Position.from_sides(white, black), geometry=SAME_DIRECTION,
                     turn=Player.WHITE, variant="Russian backgammon")
    lay = check_board(view)
    assert lay.points[1].owner == Player.WHITE and lay.points[2].owner == Player.BLACK
    assert lay.directions is not None
    assert lay.directions[Player.WHITE] == lay.directions[Player.BLACK]
    std = build(BoardView(Position.standard(), directions=True))
    assert std.directions is not None
    assert std.directions[Player.WHITE] != std.directions[Player.BLACK]


def test_every_variant_start_reads_back() -> None:
    from engine.variant import VARIANTS, get_variant

    get_variant("standard")  # loads the registry
    classes = {cls for cls in VARIANTS.values()}
    assert len(classes) >= 2
    for cls in classes:
        variant = cls()
        pos = variant.initial_position()
        geometry = tuple(variant.opposite)
        assert sorted(inverse(geometry)[1:]) == list(range(1, 25))
        for turn in Player:
            view = BoardView(pos, geometry=geometry, turn=turn, variant=cls.title,
                             opening=(6, 2),
                             cube=CubeView() if cls.cube_allowed else None)
            check_board(view)
    empty = BoardView(Position.empty(), geometry=SAME_DIRECTION)
    lay = check_board(empty)
    assert all(lay.waiting[p].count == 15 for p in Player)


def test_cube_places() -> None:
    pos = Position.standard()
    for cube in (CubeView(), CubeView(4), CubeView(2, Player.WHITE), CubeView(8, Player.BLACK),
                 CubeView(1, None, Player.BLACK), CubeView(2, Player.WHITE, Player.BLACK),
                 CubeView(16, Player.BLACK, Player.WHITE)):
        for viewer in Player:
            check_board(BoardView(pos, viewer=viewer, turn=Player.WHITE, cube=cube))


def test_all_dice_faces_both_colours() -> None:
    pos = Position.standard()
    for a in range(1, 7):
        for b in range(1, 7):
            check_board(BoardView(pos, turn=Player(b % 2), dice=(a, b)))
    for w in range(1, 7):
        check_board(BoardView(pos, opening=(w, 7 - w)))


def test_last_play_marks() -> None:
    start = Position.standard()
    play = next(p for p in legal_plays(start, Player.WHITE, 3, 1)
                if {(m.src, m.dst) for m in p.moves} == {(8, 5), (6, 5)})
    view = BoardView(play.position, turn=Player.BLACK, viewer=Player.WHITE,
                     last_play=LastPlay(Player.WHITE, play.moves))
    img = decode(render_png(view))
    lay = check_board(view)
    th = get_theme("default")
    r = lay.frame.radius
    assert set(lay.marks.arrived) == set(lay.points[5].centres[:2])
    assert set(lay.marks.left) == {lay.points[8].centres[2], lay.points[6].centres[4]}
    for x, y in lay.marks.arrived:
        assert close(px(img, x + (RING_RADIUS - RING_WIDTH / 2) * r, y), th.highlight, 40)
    for x, y in lay.marks.left:
        ring = [px(img, x + 0.86 * r * dx, y + 0.86 * r * dy)
                for dx, dy in ((1, 0), (0, 1), (-1, 0), (0, -1), (0.7, 0.7), (-0.7, 0.7))]
        assert any(close(c, th.highlight, 50) for c in ring)
    # A hit: white played 6/1*, hitting black's checker on white's 1 (black's 24);
    # seen from black, whose bar now holds the hit checker.
    white = make_side({6: 4, 8: 3, 13: 5, 24: 2, 1: 1})
    black = make_side({6: 5, 8: 3, 13: 5, 23: 1}, bar=1)
    hit_view = BoardView(Position.from_sides(white, black), turn=Player.BLACK,
                         last_play=LastPlay(Player.WHITE, (Move(6, 1, True),)))
    hit_lay = check_board(hit_view)
    img = decode(render_png(hit_view))
    assert hit_lay.marks.hit == (hit_lay.bar[Player.BLACK].centres[0],)
    x, y = hit_lay.marks.hit[0]
    assert close(px(img, x + (RING_RADIUS - RING_WIDTH / 2) * r, y), th.hit, 40)


def test_palette_and_truecolour_agree() -> None:
    view = examples()["middle-game"]
    a = decode(render_png(view))
    b = decode(render_png(view, truecolor=True))
    assert a.size == b.size
    ra, rb = a.tobytes(), b.tobytes()
    far = sum(1 for i in range(0, len(ra), 3)
              if max(abs(ra[i + k] - rb[i + k]) for k in range(3)) > 24)
    assert far < len(ra) // 3 // 200
    assert len(render_png(view)) < 150_000


def test_size_scales_the_board() -> None:
    view = examples()["middle-game"]
    small = check_board(view, size=480)
    big = check_board(view, size=1200)
    assert small.width == 480 and big.width == 1200
    assert big.frame.radius > 2 * small.frame.radius
    with pytest.raises(ValueError):
        build(view, width=100)


def test_chouette_panel_and_game_over_banner() -> None:
    ex = examples()
    plain = build(ex["middle-game"])
    ch = check_board(ex["chouette"])
    assert ch.width > plain.width and ch.frame.chouette is not None
    over = ex["game-over"]
    lay = check_board(over)
    img = decode(render_png(over))
    th = get_theme("default")
    fr = lay.frame
    # The banner darkens the middle of the board and is framed in the highlight colour,
    # inside the playing fields (issue 30 item 11: the rails stay in sight).
    assert close(px(img, fr.field_left[0] + fr.unit * 0.15 + 1, fr.mid_y), th.highlight, 40)


def test_the_wins_banner_leaves_the_cube_and_the_borne_off_counts_in_sight() -> None:
    """Issue 30 item 11: the last replay frame's banner covered the centred cube and the
    borne-off counts on the rails; the rails are drawn exactly as without the banner."""
    from dataclasses import replace

    from render.png import render_image
    from render.view import GameOverView, MoneyInfo, ResultKind

    over = examples()["game-over"]
    assert over.game_over is not None and over.position.count(Player.WHITE, OFF) == 15
    view = replace(over, cube=CubeView(4), match=None, money=MoneyInfo("5/point", 4),
                   game_over=GameOverView(Player.WHITE, ResultKind.GAMMON, 8))
    lay = build(view)
    assert lay.cube is not None and lay.cube.place == "centre"
    plain = render_image(replace(view, game_over=None))
    banner = render_image(view)
    for rail in (lay.frame.rail_left, lay.frame.rail_right):
        assert plain.crop(rail).tobytes() == banner.crop(rail).tobytes()
    assert plain.crop(lay.frame.field_left).tobytes() != banner.crop(
        lay.frame.field_left).tobytes()


def test_a_long_title_keeps_clear_of_the_ids() -> None:
    """Issue 30 item 11: the money game's title line ran into the Position ID."""
    from render.layout import frame
    from render.png import render_image
    from render.view import MoneyInfo

    view = BoardView(Position.standard(), turn=Player.WHITE, dice=(3, 1),
                     money=MoneyInfo("1000000/point", 64), variant="Acey-Deucey (1930)",
                     ids="Position ID 4HPwATDgc/ABMA  Match ID cAkAAAAAAAAA")
    img = render_image(view)
    fr = frame(img.width)
    band = img.crop(fr.title)
    th = get_theme("default")
    inked = [x for x in range(band.width)
             if any(not close(band.getpixel((x, y)), th.background, 30)  # type: ignore[arg-type]
                    for y in range(band.height))]
    gaps = [b - a for a, b in itertools.pairwise(inked)]
    assert max(gaps) >= 0.6 * fr.unit  # a clear gap between the two texts


def test_unknown_theme_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown theme"):
        render_png(BoardView(Position.standard()), theme="nope")


def test_standard_geometry_constant() -> None:
    assert STANDARD[1] == 24 and STANDARD[24] == 1 and inverse(STANDARD) == STANDARD


@pytest.mark.parametrize("theme", theme_names())
def test_remembered_texts_draw_exactly_what_pillow_draws(
        theme: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # render/png.py pastes cached glyph masks instead of rasterising each text
    # again: every pixel must equal Pillow's own draw.text, on first use and from
    # the cache.
    import render.png as png

    th = get_theme(theme)
    for view in examples().values():
        monkeypatch.setattr(png, "TEXT_CACHE", False)
        direct = png.draw_rgb(view, th, 800).tobytes()
        monkeypatch.setattr(png, "TEXT_CACHE", True)
        png.text_mask.cache_clear()
        assert png.draw_rgb(view, th, 800).tobytes() == direct
        assert png.draw_rgb(view, th, 800).tobytes() == direct


def test_ids_are_printed_in_the_title_band_only() -> None:
    """Issue 19, item 5: the Position ID and Match ID on the picture; the board and the
    panels are drawn exactly as without them."""
    from dataclasses import replace

    from render.layout import frame
    from render.png import render_image
    from render.view import MatchInfo

    view = BoardView(Position.standard(), turn=Player.WHITE, dice=(3, 1), match=MatchInfo(5))
    plain = render_image(view)
    marked = render_image(replace(view, ids="Position ID 4HPwATDgc/ABMA  Match ID cAkAAAAAAAAA"))
    assert plain.size == marked.size
    band = frame(plain.width).title
    below = (0, band[3], plain.width, plain.height)
    assert plain.crop(below).tobytes() == marked.crop(below).tobytes()
    right = (band[2] - (band[2] - band[0]) // 3, band[1], band[2], band[3])
    assert plain.crop(right).tobytes() != marked.crop(right).tobytes()  # the IDs are there

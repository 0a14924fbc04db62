"""Where everything goes: the layout shared by the PNG renderer, the ASCII board
and the tests that read pixels back.

The board is always drawn from the ``viewer``'s side: the viewer sits at the
bottom, his home board at the bottom right, so his point 1 is bottom right,
12 bottom left, 13 top left and 24 top right.  The opponent's checkers are
placed through the view's geometry (``geometry[viewer point] = opponent
point``).  Borne-off trays are on the right (viewer's below, opponent's
above); checkers waiting to enter, and the cube, are on the left rail.

All coordinates are integer pixels of the final picture.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

from engine.player import Player
from engine.position import BAR, CHECKERS, OFF, WAITING
from render.view import BoardView, inverse

DEFAULT_WIDTH = 800
"""Default picture width in pixels (board only; a chouette panel adds to it)."""

MIN_WIDTH = 320
MAX_WIDTH = 2400

Point = tuple[int, int]
Rect = tuple[int, int, int, int]
"""``(x0, y0, x1, y1)``, end-exclusive."""

# Horizontal units (one unit = one point's width).
_MARGIN = 0.25
_RAIL = 1.2
_BORDER = 0.2
_FIELD = 6.0
_BAR = 1.1
_BOARD_UNITS = _RAIL + _BORDER + _FIELD + _BAR + _FIELD + _BORDER + _RAIL
_WIDTH_UNITS = 2 * _MARGIN + _BOARD_UNITS
_CHOUETTE_UNITS = 4.2

# Vertical units.
_TITLE = 0.6
_PANEL = 1.0
_GAP = 0.15
_NUMBERS = 0.5
_HALF = 5.0
_MIDDLE = 1.1

STACK_CAPACITY = 5
"""Checkers drawn on a point (or a bar half) before the count label is used."""


@dataclass(frozen=True, slots=True)
class Stack:
    """Checkers on one point or bar half; ``centres`` are the slot centres from
    the base outwards (``STACK_CAPACITY`` of them)."""

    owner: Player | None
    count: int
    centres: tuple[Point, ...]
    radius: int

    @property
    def shown(self) -> int:
        return min(self.count, len(self.centres))

    @property
    def labelled(self) -> bool:
        """True when the top checker carries the count."""
        return self.count > len(self.centres)


@dataclass(frozen=True, slots=True)
class Slabs:
    """Checkers seen edge-on in a tray (borne off) or on the rail (waiting)."""

    owner: Player
    count: int
    rects: tuple[Rect, ...]
    """``CHECKERS`` slab rectangles, from the base outwards."""
    label: Point
    """Centre of the count label."""


@dataclass(frozen=True, slots=True)
class CubeSpot:
    rect: Rect
    value: int
    place: str
    """"centre", "owned" or "offered"."""
    player: Player | None
    """The owner, or the player who must answer an offered cube."""


@dataclass(frozen=True, slots=True)
class DieSpot:
    rect: Rect
    value: int
    player: Player
    used: bool


@dataclass(frozen=True, slots=True)
class Marks:
    """Last-play marks: centres of checkers that arrived, of slots they left,
    of checkers that were hit (now on the bar), and slabs just borne off."""

    arrived: tuple[Point, ...] = ()
    left: tuple[Point, ...] = ()
    hit: tuple[Point, ...] = ()
    borne_off: tuple[Rect, ...] = ()


@dataclass(frozen=True, slots=True)
class Frame:
    """The static geometry of one picture size (independent of the position)."""

    width: int
    height: int
    unit: float
    board: Rect
    field_left: Rect
    field_right: Rect
    bar: Rect
    rail_left: Rect
    rail_right: Rect
    title: Rect
    panel_top: Rect
    panel_bottom: Rect
    chouette: Rect | None
    numbers_top: Rect
    numbers_bottom: Rect
    mid_y: int
    radius: int
    point_x: tuple[int, ...]
    """Centre x of viewer points 1..24 (index 0 unused)."""
    point_tip: int
    """Triangle height in pixels."""
    inner_top: int
    inner_bottom: int
    trays: tuple[Rect, Rect]
    """Bottom (viewer's) and top (opponent's) tray pockets."""
    waits: tuple[Rect, Rect]
    """Bottom and top waiting pockets on the left rail."""
    cube_size: int
    die_size: int

    slots: tuple[tuple[Point, ...], ...] = ()
    """:meth:`point_centres` of points 0..24, computed once (index 0 unused)."""

    def point_centres(self, point: int) -> tuple[Point, ...]:
        if self.slots:
            return self.slots[point]
        return self._centres(point)

    def _centres(self, point: int) -> tuple[Point, ...]:
        x = self.point_x[point]
        r2 = self.unit
        if point <= 12:
            base = self.inner_bottom
            return tuple((x, round(base - (k + 0.5) * r2)) for k in range(STACK_CAPACITY))
        base = self.inner_top
        return tuple((x, round(base + (k + 0.5) * r2)) for k in range(STACK_CAPACITY))

    def bar_centres(self, bottom: bool) -> tuple[Point, ...]:
        x = (self.bar[0] + self.bar[2]) // 2
        start = self.unit * (_MIDDLE / 2 + 0.5)
        sign = 1 if bottom else -1
        return tuple(
            (x, round(self.mid_y + sign * (start + k * self.unit))) for k in range(STACK_CAPACITY)
        )


@lru_cache(maxsize=32)
def frame(width: int = DEFAULT_WIDTH, chouette: bool = False) -> Frame:
    """Static geometry for a picture ``width`` pixels wide (the board part)."""
    if not MIN_WIDTH <= width <= MAX_WIDTH:
        raise ValueError(f"width must be {MIN_WIDTH} to {MAX_WIDTH} pixels, not {width}")
    u = width / _WIDTH_UNITS

    def px(v: float) -> int:
        return round(v * u)

    y = px(_GAP)
    title = (px(_MARGIN), y, width - px(_MARGIN), y + px(_TITLE))
    y = title[3]
    panel_top = (px(_MARGIN), y, width - px(_MARGIN), y + px(_PANEL))
    y = panel_top[3] + px(_GAP)
    board_top = y
    numbers_top = (0, y, 0, y + px(_NUMBERS))
    inner_top = numbers_top[3]
    mid = inner_top + px(_HALF + _MIDDLE / 2)
    inner_bottom = inner_top + px(2 * _HALF + _MIDDLE)
    numbers_bottom = (0, inner_bottom, 0, inner_bottom + px(_NUMBERS))
    board_bottom = numbers_bottom[3]
    panel_bottom = (px(_MARGIN), board_bottom + px(_GAP), width - px(_MARGIN),
                    board_bottom + px(_GAP + _PANEL))
    height = panel_bottom[3] + px(_GAP)

    x = px(_MARGIN)
    rail_left = (x, board_top, px(_MARGIN + _RAIL), board_bottom)
    fl0 = px(_MARGIN + _RAIL + _BORDER)
    fl1 = px(_MARGIN + _RAIL + _BORDER + _FIELD)
    b1 = px(_MARGIN + _RAIL + _BORDER + _FIELD + _BAR)
    fr1 = px(_MARGIN + _RAIL + _BORDER + 2 * _FIELD + _BAR)
    rail_right = (px(_WIDTH_UNITS - _MARGIN - _RAIL), board_top,
                  px(_WIDTH_UNITS - _MARGIN), board_bottom)
    board = (x, board_top, rail_right[2], board_bottom)
    field_left = (fl0, inner_top, fl1, inner_bottom)
    field_right = (b1, inner_top, fr1, inner_bottom)
    bar = (fl1, inner_top, b1, inner_bottom)
    numbers_top = (fl0, numbers_top[1], fr1, numbers_top[3])
    numbers_bottom = (fl0, numbers_bottom[1], fr1, numbers_bottom[3])

    point_x = [0] * 25
    for i in range(6):
        # Columns left to right in each half.
        left_cx = round(fl0 + (i + 0.5) * u)
        right_cx = round(b1 + (i + 0.5) * u)
        point_x[12 - i] = left_cx
        point_x[13 + i] = left_cx
        point_x[6 - i] = right_cx
        point_x[19 + i] = right_cx

    pocket_in = px(0.12)
    half_h = px(_HALF)
    trays = (
        (rail_right[0] + pocket_in, inner_bottom - half_h, rail_right[2] - pocket_in,
         inner_bottom),
        (rail_right[0] + pocket_in, inner_top, rail_right[2] - pocket_in, inner_top + half_h),
    )
    waits = (
        (rail_left[0] + pocket_in, inner_bottom - half_h, rail_left[2] - pocket_in,
         inner_bottom),
        (rail_left[0] + pocket_in, inner_top, rail_left[2] - pocket_in, inner_top + half_h),
    )
    chouette_rect = None
    total_width = width
    if chouette:
        total_width = width + px(_CHOUETTE_UNITS)
        chouette_rect = (width, board_top, total_width - px(_MARGIN), board_bottom)
    shape = Frame(
        width=total_width, height=height, unit=u, board=board,
        field_left=field_left, field_right=field_right, bar=bar,
        rail_left=rail_left, rail_right=rail_right, title=title,
        panel_top=panel_top, panel_bottom=panel_bottom, chouette=chouette_rect,
        numbers_top=numbers_top, numbers_bottom=numbers_bottom, mid_y=mid,
        radius=round(u * 0.47), point_x=tuple(point_x), point_tip=px(_HALF * 0.9),
        inner_top=inner_top, inner_bottom=inner_bottom, trays=trays, waits=waits,
        cube_size=px(0.86), die_size=px(0.78),
    )
    return replace(shape, slots=tuple(shape.point_centres(p) for p in range(25)))


@dataclass(frozen=True, slots=True)
class Layout:
    """Everything the renderers draw, with its place, for one view."""

    frame: Frame
    viewer: Player
    points: tuple[Stack, ...]
    """Index by the viewer's point number 1..24 (index 0 is an empty stack)."""
    bar: tuple[Stack, Stack]
    """Index by player."""
    trays: tuple[Slabs, Slabs]
    waiting: tuple[Slabs, Slabs]
    cube: CubeSpot | None
    dice: tuple[DieSpot, ...]
    marks: Marks
    directions: tuple[tuple[int, int], tuple[int, int]] | None
    """Per player: (top-row, bottom-row) direction of travel, -1 = leftwards."""

    @property
    def width(self) -> int:
        return self.frame.width

    @property
    def height(self) -> int:
        return self.frame.height

    inverse: tuple[int, ...] = ()
    """The view's inverse geometry (opponent point -> viewer point)."""

    def point_of(self, player: Player, index: int) -> int:
        """The viewer's point number of ``player``'s point ``index`` (1..24)."""
        return index if player == self.viewer else self.inverse[index]


def _slabs(owner: Player, count: int, pocket: Rect, from_top: bool, unit: float,
           reserve: int) -> Slabs:
    """Slab rectangles in a pocket; ``from_top`` stacks downwards from its top.

    ``reserve`` pixels at the far end are kept free (for the cube)."""
    x0, y0, x1, y1 = pocket
    label_h = round(unit * 0.5)
    pad = max(1, round(unit * 0.06))
    span = (y1 - y0) - label_h - reserve - 2 * pad
    pitch = span / CHECKERS
    gap = max(1, round(pitch * 0.18))
    rects: list[Rect] = []
    for k in range(CHECKERS):
        if from_top:
            a = y0 + reserve + pad + round(k * pitch)
            b = y0 + reserve + pad + round((k + 1) * pitch) - gap
        else:
            b = y1 - reserve - pad - round(k * pitch)
            a = y1 - reserve - pad - round((k + 1) * pitch) + gap
        rects.append((x0 + pad, a, x1 - pad, b))
    cx = (x0 + x1) // 2
    if from_top:
        label = (cx, y1 - label_h // 2 - pad)
    else:
        label = (cx, y0 + label_h // 2 + pad)
    return Slabs(owner, count, tuple(rects), label)


def build(view: BoardView, width: int = DEFAULT_WIDTH) -> Layout:
    """The layout of ``view`` in a picture ``width`` pixels wide."""
    fr = frame(width, view.chouette is not None)
    viewer = view.bottom
    other = viewer.other
    inv = inverse(view.geometry)
    pos = view.position
    mine = pos.sides[viewer]
    theirs = pos.sides[other]

    empty = Stack(None, 0, (), fr.radius)
    points: list[Stack] = [empty]
    for p in range(1, 25):
        q = view.geometry[p]
        if mine[p] and theirs[q]:
            raise ValueError(f"both players have checkers on point {p}")
        if mine[p]:
            owner, count = viewer, mine[p]
        elif theirs[q]:
            owner, count = other, theirs[q]
        else:
            owner, count = None, 0
        points.append(Stack(owner, count, fr.point_centres(p), fr.radius))

    bars = {
        viewer: Stack(viewer, mine[BAR], fr.bar_centres(True), fr.radius),
        other: Stack(other, theirs[BAR], fr.bar_centres(False), fr.radius),
    }

    # Cube on the left rail (or on the board while offered).
    cube_spot: CubeSpot | None = None
    cs = fr.cube_size
    rail_cx = (fr.rail_left[0] + fr.rail_left[2]) // 2
    reserve_bottom = reserve_top = 0
    if view.cube is not None and view.cube.offered_to is None:
        cube = view.cube
        if cube.owner is None:
            cy = fr.mid_y
            place = "centre"
        elif cube.owner == viewer:
            cy = fr.inner_bottom - cs // 2 - round(fr.unit * 0.1)
            reserve_bottom = cs + round(fr.unit * 0.15)
            place = "owned"
        else:
            cy = fr.inner_top + cs // 2 + round(fr.unit * 0.1)
            reserve_top = cs + round(fr.unit * 0.15)
            place = "owned"
        cube_spot = CubeSpot(
            (rail_cx - cs // 2, cy - cs // 2, rail_cx - cs // 2 + cs, cy - cs // 2 + cs),
            cube.value if cube.owner is not None or cube.value > 1 else 64, place, cube.owner,
        )

    def half_centre(bottom_player: bool) -> int:
        f = fr.field_right if bottom_player else fr.field_left
        return (f[0] + f[2]) // 2

    if view.cube is not None and view.cube.offered_to is not None:
        doubler = view.cube.offered_to.other
        cx = half_centre(doubler == viewer)
        cube_spot = CubeSpot(
            (cx - cs // 2, fr.mid_y - cs // 2, cx - cs // 2 + cs, fr.mid_y - cs // 2 + cs),
            view.cube.shown_value, "offered", view.cube.offered_to,
        )

    trays = {
        viewer: _slabs(viewer, mine[OFF], fr.trays[0], False, fr.unit, 0),
        other: _slabs(other, theirs[OFF], fr.trays[1], True, fr.unit, 0),
    }
    waiting = {
        viewer: _slabs(viewer, mine[WAITING], fr.waits[0], False, fr.unit, reserve_bottom),
        other: _slabs(other, theirs[WAITING], fr.waits[1], True, fr.unit, reserve_top),
    }

    # Dice.
    ds = fr.die_size
    dgap = round(fr.unit * 0.22)
    dice: list[DieSpot] = []

    def place_dice(values: list[int], player: Player, used: list[bool]) -> None:
        cx = half_centre(player == viewer)
        if cube_spot is not None and cube_spot.place == "offered":
            return
        total = len(values) * ds + (len(values) - 1) * dgap
        x = cx - total // 2
        for value, u in zip(values, used, strict=True):
            dice.append(DieSpot((x, fr.mid_y - ds // 2, x + ds, fr.mid_y - ds // 2 + ds),
                                value, player, u))
            x += ds + dgap

    if view.opening is not None:
        for player in (Player.WHITE, Player.BLACK):
            place_dice([view.opening[player]], player, [False])
    elif view.dice is not None:
        roller = view.turn if view.turn is not None else viewer
        a, b = view.dice
        values = [a] * 4 if a == b else [a, b]
        used = [bool(view.dice_used[i]) if i < len(view.dice_used) else False
                for i in range(len(values))]
        place_dice(values, roller, used)

    marks = _marks(view, fr, points, bars, trays, viewer, inv)

    directions = None
    if view.show_directions:
        g = view.geometry
        opp_top = -1 if g[14] > g[13] else 1
        opp_bottom = 1 if g[2] > g[1] else -1
        mine_dir = (-1, 1)
        theirs_dir = (opp_top, opp_bottom)
        directions = (mine_dir, theirs_dir) if viewer == Player.WHITE else (theirs_dir, mine_dir)

    lay = Layout(
        frame=fr, viewer=viewer, points=tuple(points),
        bar=(bars[Player.WHITE], bars[Player.BLACK]),
        trays=(trays[Player.WHITE], trays[Player.BLACK]),
        waiting=(waiting[Player.WHITE], waiting[Player.BLACK]),
        cube=cube_spot, dice=tuple(dice), marks=marks, directions=directions,
        inverse=inv,
    )
    return lay


def _marks(view: BoardView, fr: Frame, points: list[Stack], bars: dict[Player, Stack],
           trays: dict[Player, Slabs], viewer: Player, inv: tuple[int, ...]) -> Marks:
    play = view.last_play
    if play is None or not play.moves:
        return Marks()
    mover = play.player
    net: dict[int, int] = {}
    hits = 0
    for move in play.moves:
        net[move.src] = net.get(move.src, 0) - 1
        net[move.dst] = net.get(move.dst, 0) + 1
        hits += move.hit

    def stack_of(index: int) -> Stack | None:
        if 1 <= index <= 24:
            return points[index if mover == viewer else inv[index]]
        if index == BAR:
            return bars[mover]
        return None

    arrived: list[Point] = []
    left: list[Point] = []
    for index, delta in sorted(net.items()):
        st = stack_of(index)
        if st is None:
            continue
        top = st.shown
        if delta > 0:
            for k in range(max(0, top - delta), top):
                arrived.append(st.centres[k])
        elif delta < 0:
            for k in range(top, min(len(st.centres), top - delta)):
                left.append(st.centres[k])
    hit: list[Point] = []
    opp_bar = bars[mover.other]
    for k in range(max(0, opp_bar.shown - hits), opp_bar.shown):
        hit.append(opp_bar.centres[k])
    borne: list[Rect] = []
    if net.get(OFF, 0) > 0:
        tray = trays[mover]
        for k in range(max(0, tray.count - net[OFF]), tray.count):
            borne.append(tray.rects[k])
    return Marks(tuple(arrived), tuple(left), tuple(hit), tuple(borne))

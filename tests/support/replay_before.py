"""The replay renderer as it was before issue 35 (render/replay.py at main 83d479d, drawing
with :mod:`render_before`): the reference for tests/render/test_render_same_pixels.py.

Its own docstring: a whole game as an animated GIF: a sequence of :class:`ReplayFrame` in,
bytes out.

Each frame is a board picture drawn by :mod:`render.png` (same themes, sprites,
fonts and palette) with a caption strip below it.  What a frame highlights is
carried by its :class:`~render.view.BoardView`: ``last_play`` rings the
checkers that moved and the slots they left, and rings a hit checker on the
bar; an offered cube stands on the doubler's side with "take or drop?"; the
final frame's ``game_over`` draws the result banner.

Why GIF and not animated WebP: every frame is already a 256-colour picture on
the theme's fixed palette (:func:`render.png.palette`), so GIF loses nothing,
and Pillow's GIF writer stores only the rectangle that changed from the frame
before (a play changes a few points): a 60-play game is ~0.5 MB.  Lossless
animated WebP of the same frames was no smaller and took several times longer
to encode, and Discord's clients do not all animate WebP inline, while every
client animates GIF.

Limits (:data:`MAX_BYTES`, :data:`MAX_FRAME_MS`): no frame shows longer than
2 s; long games show their plays faster (down to :data:`MIN_PLAY_MS`) so the
whole replay lasts about :data:`TARGET_TOTAL_MS`; a picture over the size
limit is drawn again narrower (:data:`WIDTHS`), then with every other play
frame merged into the next (a lower frame rate) as a last resort.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw
from render_before import _fit, _render, font, palette

from render.layout import DEFAULT_WIDTH, MIN_WIDTH
from render.replay import FrameKind  # the frames' kinds: the same enumeration
from render.theme import Theme, get_theme
from render.view import BoardView

MAX_BYTES = 8 * 1024 * 1024 - 64 * 1024
"""Discord's upload limit for a bot without boosts (8 MiB), less a margin."""
MAX_FRAME_MS = 2000
PLAY_MS = 1200
MIN_PLAY_MS = 500
CUBE_MS = 1600
RESULT_MS = 2000
TARGET_TOTAL_MS = 120_000
"""Play frames get shorter (not below ``MIN_PLAY_MS``) to keep a replay near two minutes."""

REPLAY_WIDTH = 640
"""Default board width of a replay (a still board is 800): a third fewer pixels to
encode per frame, and the checkers stay large in Discord's inline preview."""
WIDTHS = (800, 640, 512, 400, MIN_WIDTH)
"""Narrower widths tried, in order, when a replay is over the size limit."""

ALT_TEXT_LIMIT = 1024
"""Discord's limit on an attachment's description (alt text)."""


@dataclass(frozen=True, slots=True)
class ReplayFrame:
    """One frame: the board after an action, and the line shown under it.

    ``number`` is the play's move number (1 for the game's first play) for
    play frames, the number of the play it precedes for cube frames.
    """

    board: BoardView
    caption: str
    kind: FrameKind = FrameKind.PLAY
    number: int = 0


@dataclass(frozen=True, slots=True)
class Replay:
    """The encoded animation and how it was made."""

    data: bytes
    width: int
    """Board width in pixels used (may be below the one asked for, to fit)."""
    durations: tuple[int, ...]
    """Milliseconds each frame shows (as stored: multiples of 10)."""
    frames: int
    merged: bool = False
    """True if play frames were merged (lower frame rate) to fit the size limit."""
    alt_text: str = ""
    format: str = "gif"
    filename: str = "replay.gif"


def durations(frames: list[ReplayFrame] | tuple[ReplayFrame, ...]) -> tuple[int, ...]:
    """How long each frame shows, in ms (each at most :data:`MAX_FRAME_MS`)."""
    plays = sum(1 for f in frames if f.kind is FrameKind.PLAY)
    fixed = sum(CUBE_MS if f.kind is FrameKind.CUBE else RESULT_MS
                for f in frames if f.kind is not FrameKind.PLAY)
    play_ms = PLAY_MS
    if plays:
        play_ms = max(MIN_PLAY_MS, min(PLAY_MS, (TARGET_TOTAL_MS - fixed) // plays))
    play_ms -= play_ms % 10
    out = []
    for f in frames:
        ms = {FrameKind.PLAY: play_ms, FrameKind.CUBE: CUBE_MS,
              FrameKind.RESULT: RESULT_MS}[f.kind]
        out.append(min(ms, MAX_FRAME_MS))
    return tuple(out)


def caption_height(width: int) -> int:
    return max(22, round(width * 0.05))


def frame_image(frame: ReplayFrame, th: Theme, width: int, index: int, total: int
                ) -> Image.Image:
    """One frame as an RGB image: the board (drawn by :mod:`render.png`) at the
    top left, the caption strip below."""
    board = _render(frame.board, th, width)
    h = caption_height(width)
    img = Image.new("RGB", (board.width, board.height + h), th.background)
    img.paste(board, (0, 0))
    d = ImageDraw.Draw(img)
    cy = board.height + h // 2 - max(1, h // 8)
    pad = max(6, round(width * 0.02))
    counter = f"{index}/{total}"
    cf = font(max(9, round(h * 0.45)))
    d.text((board.width - pad, cy), counter, font=cf, fill=th.panel_muted, anchor="rm")
    room = board.width - 3 * pad - round(cf.getlength(counter))
    colour = th.panel_text if frame.kind is FrameKind.PLAY else th.highlight
    text, f = _fit(frame.caption, max(9, round(h * 0.55)), True, room)
    d.text((pad, cy), text, font=f, fill=colour, anchor="lm")
    return img


def _merge_plays(frames: tuple[ReplayFrame, ...]) -> tuple[ReplayFrame, ...]:
    """Every other play frame dropped (the next frame shows its result): half the
    frame rate for the plays; cube and result frames are all kept."""
    out: list[ReplayFrame] = []
    k = 0
    for i, f in enumerate(frames):
        if f.kind is FrameKind.PLAY:
            k += 1
            nxt = frames[i + 1] if i + 1 < len(frames) else None
            if k % 2 == 1 and nxt is not None and nxt.kind is FrameKind.PLAY:
                continue
        out.append(f)
    return tuple(out)


def encode(frames: tuple[ReplayFrame, ...], theme: str = "default",
           width: int = REPLAY_WIDTH) -> tuple[bytes, tuple[int, ...]]:
    """GIF bytes of ``frames`` at one width, and the frame durations written."""
    if not frames:
        raise ValueError("a replay needs at least one frame")
    th = get_theme(theme)
    times = durations(frames)
    total = len(frames)
    images: list[Image.Image] = []
    for i, f in enumerate(frames, 1):
        pal = gif_palette(th, width, f.board.chouette is not None)
        images.append(frame_image(f, th, width, i, total).quantize(
            palette=pal, dither=Image.Dither.NONE))
    out = io.BytesIO()
    # optimize: pixels unchanged from the frame before are written as the
    # transparent index, which LZW stores in a few bits per run.
    images[0].save(out, "GIF", save_all=True, append_images=images[1:], duration=list(times),
                   loop=0, optimize=True, disposal=1, transparency=TRANSPARENT)
    return out.getvalue(), times


TRANSPARENT = 255
"""The palette index kept free for the pixels a frame does not change."""


@lru_cache(maxsize=16)
def gif_palette(th: Theme, width: int, chouette: bool) -> Image.Image:
    """The board's palette (:func:`render.png.palette`) less its last colour, whose
    index is the GIF's transparent one."""
    colours = (palette(th, width, chouette).getpalette() or [])[: 3 * TRANSPARENT]
    pal = Image.new("P", (1, 1))
    pal.putpalette(colours)
    return pal


def render_replay(frames: list[ReplayFrame] | tuple[ReplayFrame, ...], *,
                  theme: str = "default", width: int = REPLAY_WIDTH,
                  max_bytes: int = MAX_BYTES) -> Replay:
    """The animated GIF of ``frames``, within ``max_bytes``.

    Drawn at ``width`` first; over the limit, at each narrower width of
    :data:`WIDTHS`; still over, with every other play frame merged.  Raises
    :class:`ValueError` if nothing fits (never for a game of a few hundred plays).
    """
    todo = tuple(frames)
    alt = replay_alt_text(todo)
    widths = [width] + [w for w in WIDTHS if w < width]
    for merged in (False, True):
        seq = _merge_plays(todo) if merged else todo
        for w in widths:
            data, times = encode(seq, theme, w)
            if len(data) <= max_bytes:
                return Replay(data, w, times, len(seq), merged, alt)
    raise ValueError(f"a replay of {len(todo)} frames does not fit in {max_bytes} bytes")


def replay_png(frame: ReplayFrame, *, theme: str = "default", width: int = DEFAULT_WIDTH
               ) -> bytes:
    """One frame as a still PNG (for a console or a preview)."""
    th = get_theme(theme)
    out = io.BytesIO()
    frame_image(frame, th, width, 1, 1).save(out, "PNG", compress_level=3)
    return out.getvalue()


def replay_alt_text(frames: list[ReplayFrame] | tuple[ReplayFrame, ...],
                    limit: int = ALT_TEXT_LIMIT) -> str:
    """The replay in words: the players, every caption in order (as many as fit
    in ``limit`` characters, the result always kept)."""
    if not frames:
        return "An empty replay."
    first = frames[0].board
    names = " and ".join(p.name for p in first.players)
    plays = sum(1 for f in frames if f.kind is FrameKind.PLAY)
    cubes = sum(1 for f in frames if f.kind is FrameKind.CUBE)
    head = (f"Replay of the game between {names}: {plays} plays, {cubes} cube action"
            f"{'' if cubes == 1 else 's'}.")
    last = frames[-1]
    tail = f" {last.caption}" if last.kind is FrameKind.RESULT else ""
    body = ""
    for f in frames:
        if f.kind is FrameKind.RESULT:
            continue
        piece = f" {f.caption};"
        if len(head) + len(body) + len(piece) + len(tail) + 2 > limit:
            body += " …;"
            break
        body += piece
    return (head + body.rstrip(";") + ("." if body else "") + tail)[:limit]

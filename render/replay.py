"""A whole game as an animated GIF: a sequence of :class:`ReplayFrame` in, bytes out.

Each frame is a board picture drawn by :mod:`render.png` (same themes, sprites,
fonts and palette) with a caption strip below it.  What a frame highlights is
carried by its :class:`~render.view.BoardView`: ``last_play`` rings the
checkers that moved and the slots they left, and rings a hit checker on the
bar; an offered cube stands on the doubler's side with "take or drop?"; the
final frame's ``game_over`` draws the result banner.

Why GIF and not animated WebP: every frame is already a 256-colour picture on
the theme's fixed palette (:func:`render.png.palette`), so GIF loses nothing,
and a GIF frame stores only the rectangle that changed from the frame before, its
unchanged pixels transparent (:func:`animated_gif`): a 60-play game is ~0.6 MB.  Lossless
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
import math
import struct
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from enum import Enum
from typing import Any

from PIL import Image, ImageChops

from engine.words import counted
from render.layout import DEFAULT_WIDTH, MIN_WIDTH
from render.png import (
    GIF_TRANSPARENT,
    BoardFrames,
    board_indexed,
    board_palette,
    draw_rgb,
    text_mask,
    text_sprite,
)
from render.text import Font, fit_text, font, has_colour, text_length
from render.theme import RGB, Theme, get_theme
from render.view import BoardView

try:  # the C frame encoder (render/_gif.c), built by pip install where a compiler is
    from render import _gif
except ImportError:  # pragma: no cover - a machine without a C compiler
    _gif = None  # type: ignore[assignment]

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


class FrameKind(Enum):
    PLAY = "play"
    CUBE = "cube"
    RESULT = "result"


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
    board = draw_rgb(frame.board, th, width)
    img = Image.new("RGB", (board.width, board.height + caption_height(width)), th.background)
    img.paste(board, (0, 0))
    for x, y, mask, fill, sprite in _caption_words(frame, th, width, board.width, index,
                                                   total):
        box = (x, board.height + y, x + mask.width, board.height + y + mask.height)
        img.paste(th.background, box, mask.point(_INKED))  # the word's ink replaces
        if sprite is None:
            img.paste(fill, box, mask)
        else:  # emoji in their colours
            img.paste(sprite, box[:2], sprite)
    return img


def frame_indexed(frame: ReplayFrame, th: Theme, width: int, index: int, total: int
                  ) -> Image.Image:
    """The same frame in the GIF's palette: ``frame_image(...).quantize(gif palette)``
    pixel for pixel, the board from :func:`render.png.board_indexed` (its remembered
    patches) with room below it for the caption strip, the caption's words pasted
    in the palette's colours (:func:`_word_patch`)."""
    chouette = frame.board.chouette is not None
    height = caption_height(width)
    img = board_indexed(frame.board, th, width, gif=True, below=height)
    _caption_into(img, frame, th, width, index, total, chouette)
    return img


def _caption_into(img: Image.Image, frame: ReplayFrame, th: Theme, width: int, index: int,
                  total: int, chouette: bool) -> None:
    """The caption strip drawn into the bottom :func:`caption_height` rows of ``img``
    (a "P" frame on the GIF palette)."""
    top = img.height - caption_height(width)
    pal = board_palette(th, width, chouette, gif=True)
    into = img.im  # pasted into straight: the same mode, boxes clipped to the picture
    into.paste(_ink(th.background, th.background, pal)[0], (0, top, img.width, img.height))
    for x, y, mask, fill, sprite in _caption_words(frame, th, width, img.width, index, total):
        if sprite is None:
            patch, solid = _word_patch(mask, fill, th.background, pal)
        else:  # emoji in their colours, mapped to the palette's nearest
            rgb = Image.new("RGB", sprite.size, th.background)
            rgb.paste(sprite, (0, 0), sprite)
            patch = rgb.quantize(palette=pal, dither=Image.Dither.NONE)
            solid = mask.point(_INKED)
        into.paste(patch.im, (x, top + y, x + mask.width, top + y + mask.height), solid.im)


Word = tuple[int, int, Image.Image, RGB, Image.Image | None]
"""A caption word: its top-left, coverage mask, colour, and RGBA picture if it has
emoji."""


def _caption_words(frame: ReplayFrame, th: Theme, width: int, board_width: int, index: int,
                   total: int) -> list[Word]:
    """The caption strip under a frame's board, word by word: the caption left,
    ``index/total`` right (the number and ``/total`` two words); each word's top-left
    in the strip, its coverage mask, its colour, and its picture when it has emoji
    (drawn in their own colours).

    A word is drawn by itself (Pillow's rasterisation of it at a whole-pixel origin,
    remembered: the plays, dice, names and move numbers of one game come back in the
    next), at the whole pixel nearest to where laying out the whole line puts it (its
    advance and the space's, in FreeType's 1/64 pixels), so a glyph may sit a pixel
    off where Pillow would draw the whole line.  A word's inked pixels replace what
    is under them (where two words' ink meets, as ``/`` may a digit's, the later
    word's shows)."""
    h = caption_height(width)
    cy = h // 2 - max(1, h // 8)
    pad = max(6, round(width * 0.02))
    cf = font(max(9, round(h * 0.45)))
    number, of = str(index), f"/{total}"
    counter = text_length(cf, number) + text_length(cf, of)
    pen = board_width - pad - counter
    out = [_word(cf, number, pen, cy, th.panel_muted),
           _word(cf, of, pen + text_length(cf, number), cy, th.panel_muted)]
    room = board_width - 3 * pad - round(counter)
    colour = th.panel_text if frame.kind is FrameKind.PLAY else th.highlight
    words, f = _fit_words(frame.caption, max(9, round(h * 0.55)), room)
    pen = pad
    space = text_length(f, " ")
    for word in words:
        if word:
            out.append(_word(f, word, pen, cy, colour))
        pen += text_length(f, word) + space
    return out


def _word(f: Font, word: str, pen: float, cy: int, fill: RGB) -> Word:
    mask, dx, dy = text_mask(f, word, "lm")
    sprite = text_sprite(f, word, "lm", fill)[0] if has_colour(f, word) else None
    return math.floor(pen + 0.5) + dx, cy + dy, mask, fill, sprite


def _fit_words(text: str, size: int, room: int) -> tuple[list[str], Font]:
    """``text``'s words at the largest size from ``size`` down to 9 whose line fits
    ``room`` pixels; at 9 still too long, the line cut short with "…" (one word)."""
    words = text.split(" ")
    while True:
        f = font(size, True)
        space = text_length(f, " ")
        if sum(text_length(f, w) for w in words) + space * (len(words) - 1) <= room:
            return words, f
        if size <= 9:
            break
        size -= 1
    cut, f = fit_text(text, size, True, room)
    return [cut], f


_INKS: dict[tuple[RGB, RGB, int], tuple[Image.Image, int, bytes]] = {}


def _ink(fill: RGB, background: RGB, pal: Image.Image) -> tuple[int, bytes]:
    """The palette index of each coverage 0-255 of ``fill`` over ``background``: as the
    RGB picture blends it (``paste(fill, box, mask)``, ImagingFill2, like
    ``draw.text``) and ``quantize(palette=pal)`` maps the result; and the
    background's own index."""
    key = (fill, background, id(pal))  # the palette is kept alive with its entry
    known = _INKS.get(key)
    if known is not None and known[0] is pal:
        return known[1], known[2]
    ramp = Image.new("L", (256, 1))
    ramp.putdata(range(256))
    rgb = Image.new("RGB", (256, 1), background)
    rgb.paste(fill, (0, 0, 256, 1), ramp)
    indices = rgb.quantize(palette=pal, dither=Image.Dither.NONE).tobytes()
    with _words_lock:
        if len(_INKS) > 256:
            _INKS.clear()
        _INKS[key] = (pal, indices[0], indices)
    return indices[0], indices


_WORDS: OrderedDict[tuple[int, bytes], tuple[Image.Image, Image.Image, Image.Image]] = (
    OrderedDict())
_words_lock = threading.Lock()
_INKED = [0] + [255] * 255
WORD_PATCHES = 2048
"""Caption words remembered in the palette's colours (the oldest forgotten first)."""


def _word_patch(mask: Image.Image, fill: RGB, background: RGB, pal: Image.Image
                ) -> tuple[Image.Image, Image.Image]:
    """A word's coverage ``mask`` in ``fill`` over ``background`` as palette indices
    ("P") and the mask of the pixels it inks (255, else 0: pasted with it, a word
    leaves its neighbours' pixels as they are)."""
    ink = _ink(fill, background, pal)[1]
    key = (id(mask), ink)  # the mask is kept alive with its entry: its id is its own
    known = _WORDS.get(key)
    if known is not None and known[0] is mask:
        return known[1], known[2]
    patch = Image.frombytes("P", mask.size, mask.point(list(ink)).tobytes())
    solid = mask.point(_INKED)
    with _words_lock:
        _WORDS[key] = (mask, patch, solid)
        while len(_WORDS) > WORD_PATCHES:
            _WORDS.popitem(last=False)
    return patch, solid


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
    return animated_gif(_drawn(frames, th, width), times), times


def _drawn(frames: tuple[ReplayFrame, ...], th: Theme, width: int) -> Iterator[Image.Image]:
    """Each frame as :func:`frame_indexed` draws it, one after the other on one picture
    (:class:`render.png.BoardFrames`: a frame redraws what changed since the one
    before); each yielded image is changed by the next."""
    total = len(frames)
    boards: BoardFrames | None = None
    for i, f in enumerate(frames, 1):
        chouette = f.board.chouette is not None
        if boards is None or boards.chouette != chouette:
            boards = BoardFrames(th, width, chouette, gif=True, below=caption_height(width))
        img = boards.draw(f.board)
        _caption_into(img, f, th, width, i, total, chouette)
        yield img


_UNCHANGED = [255] + [0] * 255
"""A difference of 0 (the same palette index) to 1 in a mask, anything else to 0."""


def animated_gif(images: Iterable[Image.Image], times: tuple[int, ...],
                 encoder: Encoder | None = None) -> bytes:
    """An animated GIF of "P" images on one palette, each shown ``times`` ms, looping.

    Written as Pillow's ``save_all(optimize=True, disposal=1, transparency=...)``
    writes it, less its work on each whole frame (copies, palette checks): each frame
    after the first is the rectangle that changed, its unchanged pixels the
    transparent index (LZW stores their runs in a few bits), not disposed; a frame
    identical to the one before lengthens it.  ``encoder`` finds the rectangle and
    encodes it: :func:`delta_c` (C, ``render/_gif.c``) when it is built, else
    :func:`delta_pillow` (Pillow's LZW), the same pictures.  Each image is read as it
    comes (an image may be changed once the next is asked for)."""
    encode_one = encoder or DELTA
    parts: list[bytes] = []
    frames: list[list[Any]] = []
    previous: bytes | None = None
    width = height = 0
    for img, ms in zip(images, times, strict=True):
        if not parts:
            width, height = img.size
            colours = bytes(img.getpalette() or [])[:768].ljust(768, b"\0")
            parts = [b"GIF89a", struct.pack("<HHBBB", width, height, 0xF7, 0, 0), colours,
                     b"!\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00"]
        raw = img.tobytes()
        found = encode_one(raw, previous, width, height)
        if found is None:
            frames[-1][2] += ms
            continue
        frames.append([found[0], found[1], ms])
        previous = raw
    if not parts:
        raise ValueError("an animated GIF needs at least one frame")
    for (x0, y0, x1, y1), data, ms in frames:
        parts.append(b"!\xf9\x04\x05" + struct.pack("<HBB", int(ms / 10), TRANSPARENT, 0))
        parts.append(b"," + struct.pack("<HHHHB", x0, y0, x1 - x0, y1 - y0, 0) + data)
    parts.append(b";")
    return b"".join(parts)


Delta = tuple[tuple[int, int, int, int], bytes] | None
"""A frame after the one before: the box that changed (x1, y1 exclusive) and its
GIF image data (LZW code size, sub-blocks, terminator); None when nothing changed."""


Encoder = Callable[[bytes, bytes | None, int, int], Delta]
"""A frame encoder: the frame's palette indices (row by row), the frame before's (None
for the first frame), the width and the height; the :data:`Delta` to write."""


def delta_pillow(current: bytes, previous: bytes | None, width: int, height: int) -> Delta:
    """The frame's box and data by Pillow: the difference, its box, the unchanged
    pixels made transparent, Pillow's LZW."""
    img = Image.frombytes("P", (width, height), current)
    if previous is None:
        return (0, 0, width, height), _lzw(img)
    diff = ImageChops.subtract_modulo(img, Image.frombytes("P", (width, height), previous))
    box = diff.getbbox()
    if box is None:
        return None
    piece = img.crop(box)
    piece.paste(TRANSPARENT, mask=diff.crop(box).point(_UNCHANGED, "1"))
    return box, _lzw(piece)


def delta_c(current: bytes, previous: bytes | None, width: int, height: int) -> Delta:
    """The frame's box and data by ``render/_gif.c`` in one pass (unchanged runs taken
    a code at a time, not a pixel at a time)."""
    assert _gif is not None
    found = _gif.frame(current, previous, width, height, TRANSPARENT)
    if found is None:
        return None
    x0, y0, x1, y1, data = found
    return (x0, y0, x1, y1), data


def _lzw(piece: Image.Image) -> bytes:
    """The LZW data of ``piece`` (its code size, its sub-blocks, their terminator), as
    Pillow's GIF writer encodes a single image (its indices as they are: no palette
    optimisation; rows in order: not interlaced)."""
    out = io.BytesIO()
    piece.save(out, "GIF", optimize=False, interlace=False)
    data = out.getvalue()
    pos = 13
    if data[10] & 0x80:  # the global colour table
        pos += 3 << ((data[10] & 7) + 1)
    while data[pos] == 0x21:  # extensions: label, then sub-blocks
        pos += 2
        while data[pos]:
            pos += data[pos] + 1
        pos += 1
    if data[pos] != 0x2C:
        raise ValueError("no image in Pillow's GIF")
    flags = data[pos + 9]
    if flags & 0x40:
        raise ValueError("Pillow's GIF is interlaced")
    pos += 10
    if flags & 0x80:  # a local colour table
        pos += 3 << ((flags & 7) + 1)
    start = pos
    pos += 1
    while data[pos]:
        pos += data[pos] + 1
    return data[start:pos + 1]


TRANSPARENT = GIF_TRANSPARENT
"""The palette index kept free for the pixels a frame does not change."""

DELTA = delta_c if _gif is not None else delta_pillow
"""The frame encoder used: C where it is built, else Pillow's."""


def gif_palette(th: Theme, width: int, chouette: bool) -> Image.Image:
    """The board's palette (:func:`render.png.palette`) less its last colour, whose
    index is the GIF's transparent one."""
    return board_palette(th, width, chouette, gif=True)


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
    head = (f"Replay of the game between {names}: {counted(plays, 'play')}, "
            f"{counted(cubes, 'cube action')}.")
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

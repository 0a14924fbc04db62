"""Text in every picture: the one place that measures and draws a string.

The bundled DejaVu Sans draws Latin, Greek, Cyrillic and most symbols; names are
written in every script, so a string is cut into *runs*, each drawn with the first
font of a fallback chain that has its characters (issue 42 item 13: "🎲Ωmega漢字" was
drawn "▯Ωmega▯▯"):

* Arabic, Hebrew, Thai and Devanagari with Noto Sans of that script (shaped by
  Pillow's raqm layout: joined Arabic, Indic conjuncts; right to left);
* everything DejaVu Sans has with it (a Latin name is drawn exactly as before);
* CJK ideographs, kana and Hangul with a subset of Noto Sans CJK;
* emoji with a subset of Noto Color Emoji, in colour (its bitmaps scaled to the text).

A character no font has is first replaced by its compatibility decomposition (the
"𝓐𝓵𝓲𝓬𝓮" of fancy names is "Alice"), else left out: never an empty box.  Runs are
ordered for display by a small form of the Unicode bidirectional algorithm (right-to-left
runs reversed), and each is shaped in its own direction by raqm.

The fonts are subsets made by bench/build_fonts.py, which also writes
fonts/coverage.txt (each font's code points): the chain is chosen from it without
parsing a font.
"""

from __future__ import annotations

import io
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from PIL import Image, ImageDraw, ImageFont, features

Font = ImageFont.FreeTypeFont
RGBish = tuple[int, ...] | int

RAQM = features.check_feature("raqm")
"""Pillow has the raqm layout (shaping and the direction of a run); without it Arabic is
drawn unjoined, its letters reversed into reading order."""

REGULAR, BOLD = "DejaVuSans.ttf", "DejaVuSans-Bold.ttf"
EMOJI = "NotoColorEmoji.subset.ttf"
EMOJI_STRIKE = 54
"""The pixel size of the emoji font's bitmaps (FreeType loads it only at that size)."""
EMOJI_SCALE = 1.0
"""An emoji's size, in the text's font size (its bitmap is about 1.2 of its size high)."""
CJK = "NotoSansCJKsc-Regular.subset.otf"
SCRIPTS = ("Arabic", "Hebrew", "Thai", "Devanagari")
"""Drawn with Noto Sans of the script even where DejaVu has some of its letters."""


@lru_cache(maxsize=16)
def _read(name: str) -> bytes:
    return resources.files("render").joinpath("fonts", name).read_bytes()


@lru_cache(maxsize=1)
def coverage() -> dict[str, frozenset[int]]:
    """Each bundled font's code points, from fonts/coverage.txt."""
    out: dict[str, frozenset[int]] = {}
    for line in _read("coverage.txt").decode().splitlines():
        if not line or line.startswith("#"):
            continue
        name, _, ranges = line.partition(": ")
        codes: set[int] = set()
        for part in ranges.split(","):
            lo, _, hi = part.partition("-")
            codes.update(range(int(lo, 16), int(hi or lo, 16) + 1))
        out[name] = frozenset(codes)
    return out


@lru_cache(maxsize=256)
def _load(name: str, size: int) -> Font:
    return ImageFont.truetype(io.BytesIO(_read(name)), size)


@lru_cache(maxsize=64)
def font(size: int, bold: bool = False) -> Font:
    """DejaVu Sans (bold) at ``size`` pixels: the first font of every text."""
    return _load(BOLD if bold else REGULAR, size)


def _chain(bold: bool) -> tuple[str, ...]:
    weight = "Bold" if bold else "Regular"
    return (*(f"NotoSans{s}-{weight}.subset.ttf" for s in SCRIPTS),
            BOLD if bold else REGULAR, CJK, EMOJI)


def _bold(f: Font) -> bool:
    return "Bold" in (f.getname()[1] or "")


@dataclass(frozen=True, slots=True)
class Run:
    text: str
    """In logical (reading) order."""
    face: str
    """The font file."""
    rtl: bool


def _face(ch: str, bold: bool) -> str | None:
    cov = coverage()
    code = ord(ch)
    for name in _chain(bold):
        if code in cov[name]:
            return name
    return None


@lru_cache(maxsize=4096)
def runs(f: Font, text: str) -> tuple[Run, ...] | None:
    """``text`` cut into runs of one font and one direction, in display order; None when
    the first font draws it all as it is (left to right, or all of it in one call)."""
    bold = _bold(f)
    primary = BOLD if bold else REGULAR
    cov = coverage()
    if all(ord(c) in cov[primary] for c in text) and not _needs_script_font(text):
        return None
    pieces: list[tuple[str, str]] = []  # (character, face)
    for ch in text:
        cat = unicodedata.category(ch)
        invisible = cat in ("Cf", "Cc")
        if cat in ("Mn", "Me") or invisible:
            # A mark, joiner or selector goes with the run before it where its font has
            # it; a mark else in a font of its own; a joiner or selector else left out.
            if pieces and ord(ch) in cov[pieces[-1][1]]:
                pieces.append((ch, pieces[-1][1]))
                continue
            if invisible:
                continue
        face = _face(ch, bold)
        if face is not None:
            pieces.append((ch, face))
            continue
        decomposed = unicodedata.normalize("NFKD", ch)
        faces = [_face(c, bold) for c in decomposed] if decomposed != ch else [None]
        if all(faces):  # "𝓐" is drawn "A"
            pieces.extend((c, fc) for c, fc in zip(decomposed, faces, strict=True)
                          if fc is not None)
        # else no font has it: left out rather than drawn as a box
    if not pieces:
        return (Run("?", primary, False),)
    levels = _levels([c for c, _ in pieces])
    logical: list[tuple[str, str, int]] = []
    for (ch, face), level in zip(pieces, levels, strict=True):
        if logical and logical[-1][1] == face and logical[-1][2] == level:
            logical[-1] = (logical[-1][0] + ch, face, level)
        else:
            logical.append((ch, face, level))
    return tuple(Run(t, face, level % 2 == 1) for t, face, level in _reorder(logical))


def _needs_script_font(text: str) -> bool:
    """Some of ``text`` is in a script drawn with its own Noto font."""
    return any(ord(c) in _script_codes() for c in text)


@lru_cache(maxsize=1)
def _script_codes() -> frozenset[int]:
    cov = coverage()
    codes = frozenset().union(*(cov[f"NotoSans{s}-Regular.subset.ttf"] for s in SCRIPTS))
    return codes - {0x200C, 0x200D, 0x25CC}


def _levels(chars: list[str]) -> list[int]:
    """Embedding levels of a short single-paragraph text, by the bidirectional algorithm
    without its explicit embeddings: the paragraph's direction from its first strong
    character (P2); a number takes the direction of the letters before it (W2, W7);
    neutrals the direction of the letters (or numbers) either side when both agree, else
    the paragraph's (N1, N2); then the levels (I1, I2)."""
    kinds = []
    for ch in chars:
        b = unicodedata.bidirectional(ch)
        kinds.append("R" if b in ("R", "AL") else "L" if b == "L" else
                     "EN" if b in ("EN", "AN") else "N")
    base = next((1 if k == "R" else 0 for k in kinds if k in ("L", "R")), 0)
    strong = "R" if base else "L"
    resolved: list[str] = []
    for k in kinds:
        if k in ("L", "R"):
            strong = k
        resolved.append(("NR" if strong == "R" else "L") if k == "EN" else k)
    # NR: a number among right-to-left letters (right to left for the neutrals around it).
    side = ["R" if k in ("R", "NR") else "L" if k == "L" else "" for k in resolved]
    for i, k in enumerate(resolved):
        if k != "N":
            continue
        before = next((side[j] for j in range(i - 1, -1, -1) if side[j]), "R" if base else "L")
        after = next((side[j] for j in range(i + 1, len(side)) if side[j]),
                     "R" if base else "L")
        resolved[i] = before if before == after else ("R" if base else "L")
    if base == 0:
        return [1 if k == "R" else 2 if k == "NR" else 0 for k in resolved]
    return [1 if k == "R" else 2 for k in resolved]


def _reorder(logical: list[tuple[str, str, int]]) -> list[tuple[str, str, int]]:
    """Runs in display order (rule L2 of the bidirectional algorithm, on whole runs)."""
    out = list(logical)
    top = max((lv for _, _, lv in out), default=0)
    lowest_odd = min((lv for _, _, lv in out if lv % 2), default=top + 1)
    for level in range(top, lowest_odd - 1, -1):
        i = 0
        while i < len(out):
            if out[i][2] >= level:
                j = i
                while j < len(out) and out[j][2] >= level:
                    j += 1
                out[i:j] = out[i:j][::-1]
                i = j
            else:
                i += 1
    return out


def _run_font(face: str, size: int) -> Font:
    return _load(face, EMOJI_STRIKE if face == EMOJI else size)


def _emoji_scale(size: int) -> float:
    return size * EMOJI_SCALE / EMOJI_STRIKE


def _run_length(run: Run, size: int) -> float:
    f = _run_font(run.face, size)
    if run.face == EMOJI:
        return float(f.getlength(run.text)) * _emoji_scale(size)
    if RAQM:
        return float(f.getlength(run.text, direction="rtl" if run.rtl else "ltr"))
    return float(f.getlength(run.text))


@lru_cache(maxsize=4096)
def text_length(f: Font, text: str) -> float:
    """The advance of ``text`` in pixels (``f.getlength`` for a text the first font
    draws), remembered (names and labels come back on every board)."""
    parts = runs(f, text)
    if parts is None:
        return float(f.getlength(text))
    return sum(_run_length(r, int(f.size)) for r in parts)


def _baseline(f: Font, anchor: str) -> int:
    """How far below the anchor point the baseline is, for the anchor's vertical part."""
    return _baseline_of(f, anchor[1] if len(anchor) > 1 else "a")


@lru_cache(maxsize=256)
def _baseline_of(f: Font, v: str) -> int:
    probe = "Hg"
    return int(f.getbbox(probe, anchor="l" + v)[1] - f.getbbox(probe, anchor="ls")[1])


@lru_cache(maxsize=4096)
def text_bbox(f: Font, text: str, anchor: str = "la") -> tuple[int, int, int, int]:
    """The ink box of ``text`` drawn at (0, 0) with ``anchor`` (``f.getbbox`` for a text
    the first font draws; else the runs' advance and the fonts' heights)."""
    parts = runs(f, text)
    if parts is None:
        left, top, right, bottom = f.getbbox(text, anchor=anchor)
        return int(left), int(top), int(right), int(bottom)
    size = int(f.size)
    width = text_length(f, text)
    x0 = _start(anchor, width)
    base = _baseline(f, anchor)
    top, bottom = 0, 0
    for r in parts:
        rf = _run_font(r.face, size)
        if r.face == EMOJI:
            h = _emoji_sprite(r.text, size).height
            top, bottom = min(top, -_emoji_rise(h)), max(bottom, h - _emoji_rise(h))
        else:
            _, t, _, b = rf.getbbox(r.text, anchor="ls")
            top, bottom = min(top, int(t)), max(bottom, int(b))
    return (int(x0) - 1, base + top - 1, int(x0 + width) + 2, base + bottom + 1)


def _start(anchor: str, width: float) -> float:
    h = anchor[0] if anchor else "l"
    return 0.0 if h == "l" else -width if h == "r" else -width / 2


def draw_text(img: Image.Image, xy: tuple[float, float], text: str, f: Font,
              fill: RGBish, anchor: str = "la") -> None:
    """Draw ``text`` on ``img`` as ``ImageDraw.text(xy, text, font=f, fill=fill,
    anchor=anchor)`` would with fonts for every script (the very same call for a text
    the first font draws)."""
    parts = runs(f, text)
    d = ImageDraw.Draw(img)
    if parts is None:
        d.text(xy, text, font=f, fill=fill, anchor=anchor)
        return
    size = int(f.size)
    x = xy[0] + _start(anchor, text_length(f, text))
    base = round(xy[1]) + _baseline(f, anchor)
    for r in parts:
        rf = _run_font(r.face, size)
        if r.face == EMOJI:
            _paste_emoji(img, r.text, x, base, size)
        elif RAQM:
            d.text((x, base), r.text, font=rf, fill=fill, anchor="ls",
                   direction="rtl" if r.rtl else "ltr")
        else:
            d.text((x, base), r.text[::-1] if r.rtl else r.text, font=rf, fill=fill,
                   anchor="ls")
        x += _run_length(r, size)


def _paste_emoji(img: Image.Image, text: str, x: float, base: int, size: int) -> None:
    sprite = _emoji_sprite(text, size)
    pos = (round(x), base - _emoji_rise(sprite.height))
    if img.mode == "RGBA":
        img.alpha_composite(sprite, (max(0, pos[0]), max(0, pos[1])),
                            (max(0, -pos[0]), max(0, -pos[1])))
    elif img.mode in ("L", "1"):
        img.paste(255, pos, sprite.getchannel("A"))
    else:
        img.paste(sprite, pos, sprite)


def _emoji_rise(height: int) -> int:
    """How far an emoji of ``height`` pixels stands above the baseline (Noto's bitmaps
    put about an eighth of it below)."""
    return round(height * 0.88)


@lru_cache(maxsize=512)
def _emoji_sprite(text: str, size: int) -> Image.Image:
    ef = _run_font(EMOJI, size)
    _, _, right, bottom = ef.getbbox(text)
    width = max(1, round(ef.getlength(text)), int(right))
    big = Image.new("RGBA", (width, max(1, int(bottom))), (0, 0, 0, 0))
    ImageDraw.Draw(big).text((0, 0), text, font=ef, embedded_color=True)
    scale = _emoji_scale(size)
    return big.resize((max(1, round(big.width * scale)), max(1, round(big.height * scale))),
                      Image.Resampling.LANCZOS)


def has_colour(f: Font, text: str) -> bool:
    """``text`` has emoji (drawn in their own colours, not the text's)."""
    parts = runs(f, text)
    return parts is not None and any(r.face == EMOJI for r in parts)


def fit_text(text: str, size: int, bold: bool, width: int) -> tuple[str, Font]:
    """Shrink (then truncate) ``text`` to fit ``width`` pixels."""
    f = font(size, bold)
    while text_length(f, text) > width and size > 9:
        size -= 1
        f = font(size, bold)
    if text_length(f, text) > width:
        while text and text_length(f, text + "…") > width:
            text = text[:-1]
        text += "…"
    return text, f

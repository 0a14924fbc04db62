"""Rebuild the fallback fonts under render/fonts/ (issue 42 item 13): subsets of Debian's
Noto fonts, so that names in other scripts and emoji are drawn instead of empty boxes.

Not run by the bot or the tests: the subsets are committed, and the package draws with
them offline.  To rebuild (Debian 12)::

    apt-get install fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji \\
        python3-fonttools python3-pil
    /usr/bin/python3 bench/build_fonts.py            # everything (about a minute)
    /usr/bin/python3 bench/build_fonts.py --emoji    # the emoji font and coverage.txt
    /usr/bin/python3 bench/build_fonts.py --coverage # coverage.txt alone

What goes in (the README's "Names in every script" gives the sizes), uncompressed (WOFF2
would save a third, but FreeType unpacks it again for every font size opened: 170 ms
for the CJK font, against 11 ms):

* Arabic, Hebrew, Thai, Devanagari: the whole of each script's blocks, regular and bold,
  with their layout tables (Pillow's raqm shapes Arabic and Devanagari with them).
* CJK: one weight (Noto Sans CJK SC, regular) for the common ideographs, GB 2312 level 1
  (3,755 simplified), Big5's frequent characters (5,401 traditional) and JIS X 0208
  level 1 (2,965 kanji), 7,268 together; the 2,350 Hangul syllables of KS X 1001;
  kana, Hangul jamo, CJK punctuation and full-width forms.  The sets come from Python's
  own codecs (the standards order their first levels by frequency of use).
* Emoji: Noto Color Emoji's single-code-point emoji (no sequences: flags, skin tones and
  families fall back to their parts), the bitmaps halved to 68 x 64 pixels in 32
  colours (they are drawn at text size, 15 to 30 pixels).
"""

from __future__ import annotations

import io
import shutil
import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont
from PIL import Image

OUT = Path(__file__).resolve().parent.parent / "render" / "fonts"
CORE = Path("/usr/share/fonts/truetype/noto")
CJK = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
CJK_SC = 2
"""Noto Sans CJK SC in the collection."""
EMOJI = CORE / "NotoColorEmoji.ttf"

SCRIPTS = {
    "Arabic": [(0x0600, 0x06FF), (0x0750, 0x077F), (0x08A0, 0x08FF), (0xFB50, 0xFDFF),
               (0xFE70, 0xFEFF)],
    "Hebrew": [(0x0590, 0x05FF), (0xFB1D, 0xFB4F)],
    "Thai": [(0x0E00, 0x0E7F)],
    "Devanagari": [(0x0900, 0x097F), (0xA8E0, 0xA8FF)],
}
COMMON = [(0x200C, 0x200D), (0x25CC, 0x25CC)]
"""Joiners and the dotted circle (shaping engines insert it before a lone mark)."""


def _two_byte(codec: str, firsts: tuple[int, int], seconds: list[tuple[int, int]]) -> set[int]:
    out = set()
    for a in range(firsts[0], firsts[1] + 1):
        for lo, hi in seconds:
            for b in range(lo, hi + 1):
                try:
                    text = bytes([a, b]).decode(codec)
                except UnicodeDecodeError:
                    continue
                out.update(ord(c) for c in text)
    return out


def cjk_codes() -> set[int]:
    han = (_two_byte("gb2312", (0xB0, 0xD7), [(0xA1, 0xFE)])
           | _two_byte("big5", (0xA4, 0xC6), [(0x40, 0x7E), (0xA1, 0xFE)])
           | _two_byte("euc_jp", (0xB0, 0xCF), [(0xA1, 0xFE)]))
    hangul = _two_byte("euc_kr", (0xB0, 0xC8), [(0xA1, 0xFE)])
    extra = [(0x3000, 0x303F), (0x3040, 0x30FF), (0x3130, 0x318F), (0x31F0, 0x31FF),
             (0xFF00, 0xFFEF)]
    return han | hangul | {c for lo, hi in extra for c in range(lo, hi + 1)}


def _options(**kw: object) -> subset.Options:
    o = subset.Options()
    o.layout_features = ["*"]
    o.hinting = False
    o.name_IDs = ["*"]
    o.notdef_outline = True
    for k, v in kw.items():
        setattr(o, k, v)
    return o


def _subset(src: Path, dest: str, codes: set[int], **kw: object) -> None:
    o = _options(**kw)
    font = subset.load_font(str(src), o)
    s = subset.Subsetter(o)
    s.populate(unicodes=codes)
    s.subset(font)
    subset.save_font(font, str(OUT / dest), o)
    print(f"{dest}: {(OUT / dest).stat().st_size / 1e6:.2f} MB", file=sys.stderr)


def _halve_emoji(path: Path) -> None:
    """The colour bitmaps at half size (a 54 ppem strike instead of 109)."""
    font = TTFont(str(path))
    cbdt, cblc = font["CBDT"], font["CBLC"]
    for strike, data in zip(cblc.strikes, cbdt.strikeData, strict=True):
        size = strike.bitmapSizeTable
        size.ppemX, size.ppemY = size.ppemX // 2, size.ppemY // 2
        for line in (size.hori, size.vert):
            for attr in ("ascender", "descender", "widthMax", "minOriginSB", "minAdvanceSB",
                         "maxBeforeBL", "minAfterBL"):
                setattr(line, attr, round(getattr(line, attr) / 2))
        for glyph in data.values():
            img = Image.open(io.BytesIO(glyph.imageData)).convert("RGBA")
            small = img.resize((max(1, img.width // 2), max(1, img.height // 2)),
                               Image.Resampling.LANCZOS)
            buf = io.BytesIO()
            small.quantize(32, method=Image.Quantize.FASTOCTREE,
                           dither=Image.Dither.NONE).save(buf, "PNG", optimize=True)
            glyph.imageData = buf.getvalue()
            m = glyph.metrics
            m.width, m.height = small.width, small.height
            m.BearingX, m.BearingY = round(m.BearingX / 2), round(m.BearingY / 2)
            m.Advance = round(m.Advance / 2)
    font.save(str(path))


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    if sys.argv[1:] == ["--coverage"]:
        _coverage()
        return
    if sys.argv[1:] != ["--emoji"]:
        _texts()
    emoji_font = TTFont(str(EMOJI))
    singles = {c for c in emoji_font.getBestCmap() if c >= 0x1F000 or 0x2600 <= c <= 0x27BF}
    _subset(EMOJI, "NotoColorEmoji.subset.ttf", singles, layout_features=[])
    _halve_emoji(OUT / "NotoColorEmoji.subset.ttf")
    print(f"NotoColorEmoji.subset.ttf halved: "
          f"{(OUT / 'NotoColorEmoji.subset.ttf').stat().st_size / 1e6:.2f} MB", file=sys.stderr)
    for pkg, name in (("fonts-noto-core", "LICENSE-Noto.txt"),
                      ("fonts-noto-cjk", "LICENSE-Noto-CJK.txt"),
                      ("fonts-noto-color-emoji", "LICENSE-Noto-Emoji.txt")):
        shutil.copyfile(f"/usr/share/doc/{pkg}/copyright", OUT / name)
    _coverage()


def _coverage() -> None:
    """render/fonts/coverage.txt: the code points of each bundled font, as hexadecimal
    ranges (render/text.py picks a font per character from it without parsing fonts)."""
    lines = ["# Written by bench/build_fonts.py: each font's code points (its cmap)."]
    for path in sorted(OUT.glob("*.[ot]tf")):
        codes = sorted(TTFont(str(path)).getBestCmap())
        ranges: list[list[int]] = []
        for c in codes:
            if ranges and c == ranges[-1][1] + 1:
                ranges[-1][1] = c
            else:
                ranges.append([c, c])
        text = ",".join(f"{a:x}" if a == b else f"{a:x}-{b:x}" for a, b in ranges)
        lines.append(f"{path.name}: {text}")
    (OUT / "coverage.txt").write_text("\n".join(lines) + "\n")


def _texts() -> None:
    common = {c for lo, hi in COMMON for c in range(lo, hi + 1)}
    for script, ranges in SCRIPTS.items():
        codes = common | {c for lo, hi in ranges for c in range(lo, hi + 1)}
        for weight in ("Regular", "Bold"):
            _subset(CORE / f"NotoSans{script}-{weight}.ttf",
                    f"NotoSans{script}-{weight}.subset.ttf", codes)
    _subset(CJK, "NotoSansCJKsc-Regular.subset.otf", cjk_codes(), font_number=CJK_SC)


if __name__ == "__main__":
    main()

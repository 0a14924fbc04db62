"""The replay GIF's frame encoders (issue 35, target 3): ``render/_gif.c`` and the Pillow
fallback write frames that Pillow's GIF decoder (an independent implementation of the
format) reads back pixel for pixel, whatever the pictures: noise that fills the LZW
table many times over, a few colours, runs far longer than the dictionary's longest
string, sparse changes, identical frames."""

from __future__ import annotations

import io
import random
import shutil
from collections.abc import Iterator

import pytest
from PIL import Image, ImageSequence

from render import replay
from render.replay import TRANSPARENT, Encoder, animated_gif, delta_pillow

try:
    from render import _gif
except ImportError:  # pragma: no cover - only where the extension could not be built
    _gif = None  # type: ignore[assignment]

NO_COMPILER = shutil.which("cc") is None and shutil.which("gcc") is None


def c_encoder() -> Encoder:
    if _gif is None:
        if NO_COMPILER:
            pytest.skip("render/_gif.c is not built: this machine has no C compiler "
                        "(the replay falls back to Pillow's encoder)")
        pytest.fail("render/_gif.c is not built although a C compiler is here: "
                    "pip install -e . should have built it")
    return replay.delta_c


ENCODERS = ["c", "pillow"]


def encoder(name: str) -> Encoder:
    return c_encoder() if name == "c" else delta_pillow


def palette_image(width: int, height: int, data: bytes) -> Image.Image:
    img = Image.frombytes("P", (width, height), data)
    img.putpalette(bytes((k * 7 + c * 50) % 256 for k in range(256) for c in range(3)))
    return img


def noise(rng: random.Random, n: int, colours: int) -> bytes:
    """Palette indices below ``colours`` (never the transparent index)."""
    return bytes(rng.randrange(colours) for _ in range(n))


def runs(rng: random.Random, n: int, longest: int) -> bytes:
    out = bytearray()
    while len(out) < n:
        out += bytes([rng.randrange(8)]) * rng.randint(1, longest)
    return bytes(out[:n])


def decoded(data: bytes) -> list[tuple[bytes, int]]:
    """Every frame as Pillow composes it (RGB bytes) and its duration."""
    gif = Image.open(io.BytesIO(data))
    return [(f.convert("RGB").tobytes(), int(f.info.get("duration", 0)))
            for f in ImageSequence.Iterator(gif)]


def rgb(img: Image.Image) -> bytes:
    return img.convert("RGB").tobytes()


@pytest.mark.parametrize("name", ENCODERS)
def test_first_frames_of_every_kind_read_back(name: str) -> None:
    enc = encoder(name)
    rng = random.Random(35)
    cases = [(1, 1, b"\x05"), (3, 1, b"\x00\x00\x00"), (1, 5, b"\x01\x02\x01\x02\x01")]
    for k in range(24):
        w, h = rng.randint(1, 97), rng.randint(1, 61)
        n = w * h
        data = (noise(rng, n, 255) if k % 3 == 0 else noise(rng, n, 3) if k % 3 == 1
                else runs(rng, n, 300))
        cases.append((w, h, data))
    cases.append((400, 300, noise(rng, 400 * 300, 255)))  # the table filled ~30 times
    for w, h, data in cases:
        img = palette_image(w, h, data)
        gif = animated_gif([img], (100,), enc)
        assert decoded(gif) == [(rgb(img), 100)], (w, h)


@pytest.mark.parametrize("name", ENCODERS)
def test_a_run_longer_than_the_longest_string_the_table_holds(name: str) -> None:
    """One index for 10 million pixels: the string of that index grows one pixel a code
    up to the table's 4096 codes (8.4 million pixels), the table is cleared in the middle
    of the run, and the run goes on; then a few other pixels."""
    enc = encoder(name)
    w, h = 4000, 2500
    data = bytearray(b"\x07") * (w * h)
    data[-3:] = b"\x01\x02\x07"
    img = palette_image(w, h, bytes(data))
    assert decoded(animated_gif([img], (100,), enc)) == [(rgb(img), 100)]


@pytest.mark.parametrize("name", ENCODERS)
def test_frames_after_the_first_are_the_changed_box(name: str) -> None:
    """Sparse changes, a change at each corner, a whole new picture, a frame the same as
    the one before (its time added to that one's): each frame reads back as drawn."""
    enc = encoder(name)
    rng = random.Random(36)
    w, h = 160, 90
    first = bytearray(runs(rng, w * h, 40))
    pictures = [bytes(first)]
    for k in range(12):
        nxt = bytearray(pictures[-1])
        if k == 5:
            nxt = bytearray(noise(rng, w * h, 200))
        elif k == 6:
            for x, y in ((0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1)):
                nxt[y * w + x] = (nxt[y * w + x] + 1) % 200
        elif k != 8:  # frame 8 is the same as frame 7
            for _ in range(rng.randint(1, 400)):
                x0, y0 = rng.randrange(w), rng.randrange(h)
                span = rng.randint(1, 30)
                colour = rng.randrange(8)
                for x in range(x0, min(w, x0 + span)):
                    nxt[y0 * w + x] = colour
        pictures.append(bytes(nxt))
    images = [palette_image(w, h, p) for p in pictures]
    times = tuple(100 + 10 * k for k in range(len(images)))
    frames = decoded(animated_gif(images, times, enc))
    expected: list[tuple[bytes, int]] = []
    for img, ms in zip(images, times, strict=True):
        if expected and expected[-1][0] == rgb(img):
            expected[-1] = (expected[-1][0], expected[-1][1] + ms)
        else:
            expected.append((rgb(img), ms))
    assert len(expected) == len(images) - 1
    assert frames == expected


def test_the_c_encoder_finds_the_same_box_as_pillow() -> None:
    enc = c_encoder()
    rng = random.Random(37)
    w, h = 120, 70
    before = palette_image(w, h, runs(rng, w * h, 25))
    for _ in range(40):
        after = before.copy()
        for _ in range(rng.randint(1, 6)):
            after.putpixel((rng.randrange(w), rng.randrange(h)), rng.randrange(8) + 9)
        c = enc(after.tobytes(), before.tobytes(), w, h)
        pil = delta_pillow(after.tobytes(), before.tobytes(), w, h)
        assert c is not None and pil is not None
        assert c[0] == pil[0]
    assert enc(before.tobytes(), before.tobytes(), w, h) is None
    assert delta_pillow(before.tobytes(), before.tobytes(), w, h) is None


def test_the_c_encoder_refuses_what_is_not_a_picture() -> None:
    c_encoder()
    assert _gif is not None
    with pytest.raises(ValueError, match="width x height"):
        _gif.frame(b"\x00" * 5, None, 2, 2, TRANSPARENT)
    with pytest.raises(ValueError, match="width x height"):
        _gif.frame(b"\x00" * 4, b"\x00" * 3, 2, 2, TRANSPARENT)
    with pytest.raises(ValueError, match="transparent index"):
        _gif.frame(b"\x00" * 4, None, 2, 2, 256)
    with pytest.raises(ValueError, match=r"1\.\.65535"):
        _gif.frame(b"", None, 0, 0, TRANSPARENT)


def test_the_replay_uses_the_c_encoder_where_it_is_built() -> None:
    c_encoder()
    assert replay.DELTA is replay.delta_c


@pytest.mark.parametrize("name", ENCODERS)
def test_frames_drawn_one_after_another_on_one_picture(name: str) -> None:
    """The frames may come one at a time on one picture changed between them (a
    replay draws each frame over the one before): each is read as it comes."""
    enc = encoder(name)
    w, h = 40, 30
    canvas = palette_image(w, h, bytes(w * h))
    expected = []

    def drawn() -> Iterator[Image.Image]:
        for k in range(4):
            canvas.paste(k + 1, (k * 5, k * 3, k * 5 + 9, k * 3 + 7))
            expected.append(rgb(canvas))
            yield canvas

    assert decoded(animated_gif(drawn(), (100,) * 4, enc)) == [(e, 100) for e in expected]
    with pytest.raises(ValueError, match="at least one frame"):
        animated_gif(iter(()), (), enc)

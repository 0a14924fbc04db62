"""Names in every script (issue 42 item 13): "🎲Ωmega漢字" was drawn "▯Ωmega▯▯" on every
board, card and bracket, the bundled DejaVu Sans having neither emoji nor CJK.

Each picture is read back and compared with the same picture where the name is made of
characters no font has (every one of them drawn as DejaVu's .notdef box before): a name
whose glyphs are drawn cannot give that picture."""

from __future__ import annotations

import io
import random
import re
from pathlib import Path

import pytest
from PIL import Image, ImageDraw, ImageFont
from tournament_driver import start, step

from engine.tournament import Format
from render import BoardView, PlayerInfo
from render.bracket import render_tournament_png
from render.card import PlayerCard, card_geometry, render_card
from render.gallery import examples
from render.png import render_png
from render.theme import get_theme

SAMPLES = {
    "Latin": "Zoë Müller",
    "Greek": "Ελένη",
    "Cyrillic": "Иван",
    "Arabic": "محمد علي",
    "Hebrew": "שלום",
    "CJK": "田中漢字",
    "Hangul": "김민준",
    "Kana": "さくら",
    "Thai": "สมชาย",
    "Devanagari": "देवनागरी",
    "emoji": "🎲🏆😀",
    "mixed": "🎲Ωmega漢字",
}
DEJAVU = Path(__file__).resolve().parents[2] / "render" / "fonts" / "DejaVuSans.ttf"
UNDRAWABLE = "\u0378"
"""An unassigned code point: no font has it (DejaVu drew its .notdef box)."""


def read(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    assert img.format == "PNG"
    return img.convert("RGB")


def _dejavu_picture(ch: str) -> bytes:
    img = Image.new("L", (60, 50), 0)
    ImageDraw.Draw(img).text((10, 25), ch, font=ImageFont.truetype(str(DEJAVU), 24), fill=255,
                             anchor="lm")
    return img.tobytes()


def boxes(name: str) -> str:
    """``name`` as DejaVu Sans alone drew it: its .notdef box for each character it lacks
    (the reference: what every picture showed before)."""
    notdef = _dejavu_picture(UNDRAWABLE)
    return "".join(UNDRAWABLE if _dejavu_picture(ch) == notdef else ch for ch in name)


def card_name_area(name: str) -> Image.Image:
    g = card_geometry(PlayerCard(name, 1500.0))
    img = read(render_card(PlayerCard(name, 1500.0)))
    return img.crop((0, 0, g.spark[0], round(img.height * 0.25)))


@pytest.mark.parametrize("script", sorted(SAMPLES))
def test_card_draws_the_name_in_every_script(script: str) -> None:
    name = SAMPLES[script]
    drawn = card_name_area(name)
    if boxes(name) == name:  # DejaVu has it all: drawn as before
        assert script in ("Latin", "Greek", "Cyrillic", "Hebrew", "Arabic"), script
    else:
        assert drawn.tobytes() != card_name_area(boxes(name)).tobytes(), script
    assert drawn.tobytes() != card_name_area("").tobytes(), script


@pytest.mark.parametrize("script", ["CJK", "Hangul", "Thai", "Devanagari", "emoji",
                                    "mixed"])
def test_board_draws_the_name_in_every_script(script: str) -> None:
    name = SAMPLES[script]
    base = next(iter(examples().values()))

    def board(first: str) -> Image.Image:
        view = BoardView(base.position, players=(PlayerInfo(first), PlayerInfo("bob")))
        return read(render_png(view))

    assert board(name).tobytes() != board(boxes(name)).tobytes(), script


def test_bracket_draws_names_in_every_script() -> None:
    state = step(start(Format.ROUND_ROBIN, 4, seed=1), random.Random(1))
    players = [s.player for s in state.seeds]
    names = dict(zip(players, [SAMPLES["CJK"], SAMPLES["Arabic"], SAMPLES["emoji"],
                               SAMPLES["Hangul"]], strict=True))
    undrawn = {p: boxes(n) for p, n in names.items()}
    drawn = read(render_tournament_png(state, names=names, truecolor=True))
    plain = read(render_tournament_png(state, names=undrawn, truecolor=True))
    assert drawn.size == plain.size and drawn.tobytes() != plain.tobytes()


def test_each_character_is_drawn_not_as_a_box() -> None:
    """Character by character: the helper's picture of it is not DejaVu's .notdef box
    (what every picture drew for it before)."""
    from render.text import draw_text, font, runs

    dejavu = font(24)
    for script, name in SAMPLES.items():
        for ch in name:
            if ch == " ":
                continue
            notdef = Image.new("L", (60, 50), 0)
            ImageDraw.Draw(notdef).text((10, 25), UNDRAWABLE, font=dejavu, fill=255,
                                        anchor="lm")
            shown = Image.new("L", (60, 50), 0)
            draw_text(shown, (10, 25), ch, dejavu, 255, "lm")
            assert shown.getbbox() is not None, (script, ch)
            assert shown.tobytes() != notdef.tobytes(), (script, ch)
            parts = runs(dejavu, ch)
            assert parts is None or "?" not in "".join(r.text for r in parts), (script, ch)


def test_emoji_keep_their_colours() -> None:
    """An emoji is drawn in its own colours (the die's red pip), not as the text's ink."""
    th = get_theme("default")
    area = card_name_area("🎲")

    def off_ink(c: tuple[int, int, int]) -> bool:
        # Far from every mix of the panel and the text colours.
        a, b = th.panel, th.panel_text
        best = min(sum((a[i] + (b[i] - a[i]) * t / 20 - c[i]) ** 2 for i in range(3))
                   for t in range(21))
        return best > 60 ** 2

    pixels = [area.getpixel((x, y)) for x in range(area.width) for y in range(area.height)]
    assert any(off_ink(p) for p in pixels if isinstance(p, tuple))


def test_right_to_left_runs_are_shown_in_reading_order() -> None:
    """Hebrew and Arabic words read right to left: the first word is drawn rightmost,
    and a left-to-right name around them keeps its order."""
    from render.text import font, runs

    shown = runs(font(20), "שלום עולם")
    assert shown is not None
    assert [r.text for r in shown] == ["עולם", " ", "שלום"]
    assert all(r.rtl for r in shown)
    # A number after right-to-left letters goes with them (rules W2, N1, I2 of the
    # bidirectional algorithm): "bob محمد 12" is shown "bob 12 محمد".
    mixed = runs(font(20), "bob محمد 12")
    assert mixed is not None
    assert [r.text.strip() for r in mixed if r.text.strip()] == ["bob", "12", "محمد"]
    assert [r.rtl for r in mixed if r.text.strip()] == [False, False, True]
    latin = runs(font(20), "שלום bob 7")
    assert latin is not None
    assert [r.text.strip() for r in latin if r.text.strip()] == ["bob 7", "שלום"]


def test_fancy_letters_fall_back_to_their_plain_form_and_nothing_is_a_box() -> None:
    """"𝓐𝓵𝓲𝓬𝓮" (mathematical script letters, common in display names) is drawn "Alice";
    a character no font has is left out, a name of nothing but those is "?"."""
    from render.text import font, runs

    fancy = runs(font(20), "𝓐𝓵𝓲𝓬𝓮")
    assert fancy is not None and "".join(r.text for r in fancy) == "Alice"
    ethiopic = runs(font(20), "ሰላም")
    assert ethiopic is not None and "".join(r.text for r in ethiopic) == "?"
    partly = runs(font(20), "bob ሰላም")
    assert partly is not None and "".join(r.text for r in partly) == "bob "


def test_every_picture_module_draws_text_through_the_one_helper() -> None:
    """render/text.py is the only module that calls Pillow's text drawing or measuring
    (a module calling ``ImageDraw.text`` itself would draw boxes again)."""
    render = Path(__file__).resolve().parents[2] / "render"
    pattern = re.compile(r"\.text\(|\.getlength\(|\.getbbox\([^)]")
    for path in sorted(render.glob("*.py")):
        if path.name == "text.py":
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            code = line.split("#", 1)[0]
            assert not pattern.search(code.replace("ops.text(", "")), f"{path.name}:{number}"


def test_text_bounds_hold_all_the_ink() -> None:
    """The board draws a text in a patch the size of its bounds: every script's ink (and
    an emoji's bitmap) lies inside what ``text_bbox`` says."""
    from render.text import draw_text, font, text_bbox

    for name in SAMPLES.values():
        for bold in (False, True):
            f = font(21, bold)
            for anchor in ("lm", "la", "rs", "mm", "lb"):
                img = Image.new("L", (400, 120), 0)
                draw_text(img, (200, 60), name, f, 255, anchor)
                ink = img.getbbox()
                assert ink is not None, name
                left, top, right, bottom = text_bbox(f, name, anchor)
                assert (200 + left <= ink[0] and 60 + top <= ink[1] and ink[2] <= 200 + right
                        and ink[3] <= 60 + bottom), (name, anchor, ink, (left, top, right,
                                                                          bottom))


def test_replay_caption_draws_names_in_every_script() -> None:
    """The replay's caption (drawn word by word from coverage masks) and its panels: a
    CJK name with an emoji is drawn, the emoji in colour in the GIF too."""
    from picture_games import sample_game

    from bot.service.pictures.contents import replay_frames
    from engine.match import MoneySession
    from render.replay import ReplayFrame, caption_height, render_replay, replay_png

    record = sample_game(6, seed=5, doubles=0)
    name = SAMPLES["mixed"]

    def frames(first: str) -> list[ReplayFrame]:
        return list(replay_frames(record, (first, "bob"), MoneySession.new()))

    drawn, plain = frames(name), frames(boxes(name))
    still = read(replay_png(drawn[3]))
    assert still.tobytes() != read(replay_png(plain[3])).tobytes()
    gif = Image.open(io.BytesIO(render_replay(drawn).data))
    for index in range(gif.n_frames):
        gif.seek(index)
        frame = gif.convert("RGB")
        strip = frame.crop((0, frame.height - caption_height(frame.width), frame.width,
                            frame.height))
        colours = {strip.getpixel((x, y)) for x in range(strip.width)
                   for y in range(strip.height)}
        if any(c[0] > c[1] + 80 and c[0] > c[2] + 60 for c in colours if isinstance(c, tuple)):
            break  # the die's red pip, in a caption naming the player
    else:
        raise AssertionError("no caption shows the emoji in colour")

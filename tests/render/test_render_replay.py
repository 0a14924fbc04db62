"""The replay GIF read back with Pillow: one frame per play, per cube action and
one for the result; every frame's checkers are where the replayed game has
them; the size and timing limits hold, also for a 200-play game."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from picture_games import sample_game
from PIL import Image

from bot.service.pictures.contents import count_actions, move_numbers, replay_frames
from engine.dice import Dice
from engine.game import Game, Phase
from engine.match import Match, MoneySession
from engine.player import Player
from engine.position import BAR, Position
from engine.record import Beaver, DoubleOffered, Drop, GameRecord, PlayMade, Roll, Take
from render.layout import STACK_CAPACITY, build
from render.png import render_image
from render.replay import (
    ALT_TEXT_LIMIT,
    MAX_BYTES,
    MAX_FRAME_MS,
    FrameKind,
    caption_height,
    render_replay,
    replay_alt_text,
)
from render.theme import RGB, get_theme, theme_names

NAMES = ("alice", "bob")
TH = get_theme("default")
TOL = 14


def close(a: tuple[int, ...], b: tuple[int, ...], tol: int = TOL) -> bool:
    return max(abs(a[i] - b[i]) for i in range(3)) <= tol


def gif_frames(data: bytes) -> list[tuple[Image.Image, int]]:
    """Every frame of the GIF as RGB with its duration in ms."""
    assert data[:6] == b"GIF89a"
    im = Image.open(io.BytesIO(data))
    out = []
    for k in range(getattr(im, "n_frames", 1)):
        im.seek(k)
        out.append((im.convert("RGB"), int(im.info["duration"])))
    return out


def replayed_states(record: GameRecord) -> list[tuple[str, Game]]:
    """The game after each action the replay shows, computed here from the
    engine alone: ("play", game) after each play or unplayable throw,
    ("cube", game) after each cube action, ("end", game) at the end."""
    game = Game.new(record.variant, money=record.money, first_player=record.first_player)
    out: list[tuple[str, Game]] = []
    for event in record.events:
        before_phase = game.phase
        game = game.apply(event)
        if isinstance(event, PlayMade):
            out.append(("play", game))
        elif isinstance(event, Roll) and before_phase is Phase.ROLL \
                and game.phase not in (Phase.PLAY, Phase.CHOICE):
            out.append(("play", game))  # the throw could not be played
        elif isinstance(event, (DoubleOffered, Take, Drop, Beaver)):
            out.append(("cube", game))
    out.append(("end", game))
    return out


def read_counts(img: Image.Image, view_viewer: Player, width: int, position: Position
                ) -> dict[str, tuple[Player | None, int]]:
    """Owner and number of checkers seen on each point and bar, read from pixels at
    the slot centres of the layout of a board showing ``position``."""
    from render.view import BoardView

    lay = build(BoardView(position, viewer=view_viewer), width)
    seen: dict[str, tuple[Player | None, int]] = {}
    stacks = {f"point {p}": lay.points[p] for p in range(1, 25)}
    stacks |= {f"{pl.label} bar": lay.bar[pl] for pl in Player}
    for name, st in stacks.items():
        owner: Player | None = None
        count = 0
        for x, y in st.centres:
            probe = img.getpixel((x, round(y - 0.8 * st.radius)))
            assert isinstance(probe, tuple)
            found = [p for p in Player if close(probe, TH.checkers[p].fill)]
            if not found:
                break
            owner = found[0]
            count += 1
        seen[name] = (owner, count)
    return seen


def expected_counts(position: Position, viewer: Player) -> dict[str, tuple[Player | None, int]]:
    """The same, from the position itself (standard geometry: point p of the
    viewer is point 25 - p of the opponent)."""
    out: dict[str, tuple[Player | None, int]] = {}
    other = viewer.other
    for p in range(1, 25):
        mine, theirs = position.count(viewer, p), position.count(other, 25 - p)
        if mine:
            out[f"point {p}"] = (viewer, min(mine, STACK_CAPACITY))
        elif theirs:
            out[f"point {p}"] = (other, min(theirs, STACK_CAPACITY))
        else:
            out[f"point {p}"] = (None, 0)
    for pl in Player:
        n = position.count(pl, BAR)
        out[f"{pl.label} bar"] = (pl if n else None, min(n, STACK_CAPACITY))
    return out


@pytest.fixture(scope="module")
def game60() -> GameRecord:
    return sample_game(60, seed=5, doubles=2)


def test_frame_count_is_plays_plus_cube_actions_plus_one(game60: GameRecord) -> None:
    states = replayed_states(game60)
    plays = sum(1 for kind, _ in states if kind == "play")
    cubes = sum(1 for kind, _ in states if kind == "cube")
    assert plays == 60 and cubes == 4  # the sample game: 60 plays, two doubles taken
    assert count_actions(game60) == (plays, cubes)
    frames = replay_frames(game60, NAMES, MoneySession.new())
    replay = render_replay(frames)
    decoded = gif_frames(replay.data)
    assert len(decoded) == replay.frames == plays + cubes + 1
    assert [f.kind for f in frames].count(FrameKind.CUBE) == cubes
    assert frames[-1].kind is FrameKind.RESULT and frames[-1].board.game_over is not None


def test_every_frame_shows_the_replayed_position(game60: GameRecord) -> None:
    frames = replay_frames(game60, NAMES, MoneySession.new(), viewer=Player.WHITE)
    replay = render_replay(frames)
    decoded = gif_frames(replay.data)
    states = replayed_states(game60)
    assert len(states) == len(frames) == len(decoded)
    for k, ((kind, game), frame, (img, _ms)) in enumerate(
            zip(states, frames, decoded, strict=True)):
        assert frame.board.position == game.position, f"frame {k}"
        assert {"play": FrameKind.PLAY, "cube": FrameKind.CUBE,
                "end": FrameKind.RESULT}[kind] is frame.kind
        seen = read_counts(img, Player.WHITE, replay.width, game.position)
        want = expected_counts(game.position, Player.WHITE)
        if kind == "end":  # the result banner covers the bar (its checkers are shaded)
            seen = {k: v for k, v in seen.items() if "bar" not in k}
            want = {k: v for k, v in want.items() if "bar" not in k}
        assert seen == want, f"frame {k}"


def test_frames_match_a_still_board_of_the_same_position(game60: GameRecord) -> None:
    """The checker regions of each GIF frame equal render/png.py's still board."""
    frames = replay_frames(game60, NAMES, MoneySession.new())
    replay = render_replay(frames)
    decoded = gif_frames(replay.data)
    for k in (0, 1, 17, 33, len(frames) - 2, len(frames) - 1):
        frame = frames[k]
        img, _ = decoded[k]
        still = render_image(frame.board, size=replay.width)
        assert img.size == (still.width, still.height + caption_height(replay.width))
        lay = build(frame.board, replay.width)
        regions = [c for st in (*lay.points[1:], *lay.bar) for c in st.centres]
        differ = 0
        for x, y in regions:
            for dx, dy in ((0, 0), (0, -lay.frame.radius * 0.8), (lay.frame.radius * 0.5, 0)):
                a = img.getpixel((round(x + dx), round(y + dy)))
                b = still.getpixel((round(x + dx), round(y + dy)))
                assert isinstance(a, tuple) and isinstance(b, tuple)
                differ += not close(a, b, 24)
        assert differ == 0, f"frame {k}: {differ} probes differ from the still board"


def test_a_frame_in_the_palette_is_its_rgb_picture_quantized() -> None:
    """The GIF's frames (the board's remembered patches, the caption's words in the
    palette's colours) are the RGB frame (``frame_image``: Pillow drawing, words
    blended) mapped to the palette, pixel for pixel: in every theme, at two widths,
    where the counter's slash meets its number's last digit and with a long caption
    shrunk and cut short."""
    from render.replay import frame_image, frame_indexed, gif_palette

    record = sample_game(40, seed=35, doubles=2)
    frames = list(replay_frames(record, ("Alice Example-Longname", "bob"), MoneySession.new()))
    frames.append(replace(frames[-1], caption="a result far too long for one line: " * 8))
    for name in theme_names():
        th = get_theme(name)
        for width in (640, 400):
            pal = gif_palette(th, width, False)
            for k in (0, 1, 9, 10, len(frames) - 2, len(frames) - 1):
                f = frames[k]
                rgb = frame_image(f, th, width, k + 1, 140)
                fast = frame_indexed(f, th, width, k + 1, 140)
                assert fast.tobytes() == rgb.quantize(
                    palette=pal, dither=Image.Dither.NONE).tobytes(), (name, width, k)


def test_moved_and_hit_checkers_are_marked(game60: GameRecord) -> None:
    frames = replay_frames(game60, NAMES, MoneySession.new())
    hits = [f for f in frames if f.board.last_play is not None
            and any(m.hit for m in f.board.last_play.moves)]
    assert hits, "the sample game hits (hits are preferred)"
    replay = render_replay(frames)
    decoded = gif_frames(replay.data)
    frame = hits[0]
    img, _ = decoded[frames.index(frame)]
    lay = build(frame.board, replay.width)
    assert lay.marks.hit and lay.marks.arrived
    r = lay.frame.radius
    from render.png import RING_RADIUS, RING_WIDTH

    band = range(int(r * (RING_RADIUS - RING_WIDTH)), round(r * RING_RADIUS) + 2)

    def on_ring(x: int, y: int, colour: RGB) -> bool:
        """The ring's colour on each side of a checker, somewhere across the ring's band."""
        sides = 0
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            probes = [img.getpixel((x + dx * d, y + dy * d)) for d in band]
            sides += any(isinstance(p, tuple) and close(p, colour, 30) for p in probes)
        return sides >= 3

    assert all(on_ring(x, y, TH.hit) for x, y in lay.marks.hit)
    assert all(on_ring(x, y, TH.highlight) for x, y in lay.marks.arrived)
    # And a checker that did not move has no ring.
    moved = set(lay.marks.arrived)
    still = [c for st in lay.points[1:] for c in st.centres[:st.shown] if c not in moved]
    assert still and not on_ring(*still[0], TH.highlight)
    assert "*" in frame.caption  # the hit is in the caption's notation


def test_play_frames_show_dice_and_caption(game60: GameRecord) -> None:
    frames = replay_frames(game60, NAMES, MoneySession.new())
    plays = [f for f in frames if f.kind is FrameKind.PLAY]
    assert [f.number for f in plays] == list(range(1, 61))
    numbers = move_numbers(game60)
    assert max(numbers) in (60, 61)
    for f in plays:
        assert f.board.dice is not None
        d = f.board.dice
        assert f.caption.startswith(f"{f.number}. ")
        assert f"{d[0]}-{d[1]}:" in f.caption
        assert any(n in f.caption for n in NAMES)
    cube = [f for f in frames if f.kind is FrameKind.CUBE]
    assert "doubles to 2" in cube[0].caption and cube[0].board.cube is not None
    assert cube[0].board.cube.offered_to is not None
    assert "takes" in cube[1].caption and cube[1].board.cube is not None
    assert cube[1].board.cube.value == 2 and cube[1].board.cube.offered_to is None


def test_durations_and_size_limits(game60: GameRecord) -> None:
    replay = render_replay(replay_frames(game60, NAMES, MoneySession.new()))
    decoded = gif_frames(replay.data)
    assert len(replay.data) <= MAX_BYTES
    assert [ms for _, ms in decoded] == list(replay.durations)
    assert all(0 < ms <= MAX_FRAME_MS for _, ms in decoded)
    assert decoded[-1][1] == max(ms for _, ms in decoded)  # the result stays longest


def test_a_200_play_game_fits_under_8_mb() -> None:
    record = sample_game(200, seed=7, doubles=3)
    plays, cubes = count_actions(record)
    assert plays == 200
    replay = render_replay(replay_frames(record, NAMES, MoneySession.new()))
    assert len(replay.data) < 8 * 1024 * 1024
    decoded = gif_frames(replay.data)
    assert len(decoded) == 200 + cubes + 1 and not replay.merged
    assert all(ms <= MAX_FRAME_MS for _, ms in decoded)
    assert sum(ms for _, ms in decoded) <= 200_000  # still watchable in minutes, not hours


def test_over_the_limit_it_draws_smaller_then_merges_frames(game60: GameRecord) -> None:
    frames = replay_frames(game60, NAMES, MoneySession.new())
    full = render_replay(frames)
    smaller = render_replay(frames, max_bytes=len(full.data) - 1)
    assert smaller.width < full.width and len(smaller.data) < len(full.data)
    assert smaller.frames == full.frames
    assert Image.open(io.BytesIO(smaller.data)).size[0] == smaller.width
    # Below what the smallest width can do: every other play frame merged.
    tiny = render_replay(frames, width=320, max_bytes=len(render_replay(
        frames, width=320).data) - 1)
    assert tiny.merged and tiny.frames < full.frames
    assert gif_frames(tiny.data)[-1][0].size[0] == 320
    with pytest.raises(ValueError, match="does not fit"):
        render_replay(frames, max_bytes=1000)


def test_match_context_and_final_score() -> None:
    record = sample_game(30, seed=3, money=False)
    match = Match.new(5)
    frames = replay_frames(record, NAMES, match)
    assert frames[0].board.match is not None and frames[0].board.match.length == 5
    assert frames[0].board.players[0].score == 0
    final = frames[-1]
    game = Game.from_record(record)
    assert game.result is not None
    after = match.add_game(game)
    assert final.board.players[game.result.winner].score == after.score[game.result.winner]
    assert f"score {after.score[0]}-{after.score[1]} (to 5)" in final.caption
    assert NAMES[game.result.winner] in final.caption


def test_a_throw_that_cannot_be_played_is_a_frame() -> None:
    """White on the bar against a closed board (001 'RULES': a player who cannot
    enter loses his turn): the throw is a frame saying so, and counts as a play."""
    from engine.position import make_side

    white = make_side({24: 1, 6: 5, 8: 3, 13: 5}, bar=1)
    black = make_side({p: 2 for p in range(1, 7)} | {13: 3})
    start = Position.from_sides(white, black)
    game = Game.new("standard", first_player=Player.WHITE, position=start)
    game = game.roll(Dice(6, 5))
    assert game.turn is Player.BLACK  # white danced
    game = game.roll(Dice(3, 1))
    game = game.play(game.legal_plays()[0])
    record = game.to_record()
    frames = replay_frames(record, NAMES, MoneySession.new())
    assert count_actions(record) == (2, 0) and len(frames) == 3
    assert frames[0].caption == "1. alice 6-5: cannot move"
    assert frames[0].board.position == start and frames[0].board.last_play is None
    assert frames[-1].caption.startswith("Game not finished")


def test_alt_text_tells_the_same_story(game60: GameRecord) -> None:
    frames = replay_frames(game60, NAMES, MoneySession.new())
    alt = render_replay(frames).alt_text
    assert alt == replay_alt_text(frames)
    assert len(alt) <= ALT_TEXT_LIMIT
    assert "alice and bob" in alt and "60 plays, 4 cube actions" in alt
    assert frames[1].caption in alt and frames[-1].caption in alt
    short = replay_alt_text([*frames[:3], frames[-1]])
    assert all(f.caption in short for f in frames[:3])


def test_other_themes_and_an_empty_replay() -> None:
    record = sample_game(4, seed=2, doubles=0)
    frames = replay_frames(record, NAMES, MoneySession.new())
    for theme in ("classic", "dark"):
        replay = render_replay(frames, theme=theme)
        assert len(gif_frames(replay.data)) == 5
    with pytest.raises(ValueError, match="at least one frame"):
        render_replay([])

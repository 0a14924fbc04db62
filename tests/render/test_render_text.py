"""The ASCII board (built from the same layout as the picture) and the
``python -m render`` command."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from engine.player import Player
from engine.position import Position, make_side
from render import BoardView, CubeView, build
from render.__main__ import main, view_from_ids
from render.ascii import text_board
from render.gallery import examples
from render.gallery import main as gallery_main


def columns(board: str) -> dict[int, str]:
    """Each point's column of cells (top to bottom) read off the text board."""
    lines = board.splitlines()
    top = next(i for i, line in enumerate(lines) if line.strip().startswith("+13"))
    bottom = next(i for i, line in enumerate(lines) if line.strip().startswith("+12"))
    rows = lines[top + 1:bottom]
    start = lines[top].index("+") + 1
    out: dict[int, str] = {}
    order_top = [*range(13, 19), None, *range(19, 25)]
    order_bottom = [*range(12, 6, -1), None, *range(6, 0, -1)]
    for row_index, row in enumerate(rows):
        order = order_top if row_index < 5 else order_bottom
        for k, point in enumerate(order):
            if point is None or row_index == 5:
                continue
            cell = row[start + 3 * k + (2 if k > 6 else 0):][:3]
            out[point] = out.get(point, "") + cell
    return out


def read_point(cells: str, top: bool) -> tuple[str, int]:
    chunks = [cells[i:i + 3] for i in range(0, len(cells), 3)]
    if not top:
        chunks.reverse()
    marks = [c.strip() for c in chunks if c.strip()]
    if not marks:
        return "", 0
    if marks[-1].isdigit():
        return marks[0], int(marks[-1])
    return marks[0], len(marks)


def test_text_board_counts_match_the_position() -> None:
    for name, view in examples().items():
        board = text_board(view)
        lay = build(view)
        cols = columns(board)
        for p in range(1, 25):
            mark, count = read_point(cols[p], top=p > 12)
            st = lay.points[p]
            want_mark = "" if st.owner is None else ("X" if st.owner == lay.viewer else "O")
            assert (mark, count) == (want_mark, st.count), f"{name} point {p}"


def test_text_board_shows_names_cube_dice_score() -> None:
    view = examples()["middle-game"]
    board = text_board(view)
    assert "Alice" in board and "Bob" in board
    assert "score 2" in board and "score 4" in board
    assert "Match to 7" in board
    assert "(5) 3" in board  # the used die in parentheses
    assert "Cube: 2 (owned by Bob)" in board
    assert "Last play: Bob 24/18*/13" in board  # canonical notation (issue 19, item 7)
    lines = board.splitlines()
    cube_line = next(line for line in lines if line.lstrip().startswith("[2]"))
    assert lines.index(cube_line) < len(lines) // 2  # Bob (top) owns it


def test_text_board_variants_chouette_and_game_over() -> None:
    ex = examples()
    russian = text_board(ex["russian-start"])
    assert "Russian backgammon" in russian and "15 to enter" in russian
    assert "Directions: X top <- bottom ->; O top <- bottom ->" in russian
    assert "Chouette: box Alice, captain Bob" in text_board(ex["chouette"])
    assert "Dan (dropped)" in text_board(ex["chouette"])
    assert "Game over: Alice wins a gammon, 4 points" in text_board(ex["game-over"])
    offered = text_board(ex["double-offered"])
    assert "Bob doubles to 4; Alice to take or drop" in offered


def test_text_board_tall_stack_and_bar() -> None:
    white = make_side({1: 9}, bar=2)
    black = make_side({6: 7}, bar=1)
    view = BoardView(Position.from_sides(white, black), turn=Player.WHITE, cube=CubeView())
    board = text_board(view)
    cols = columns(board)
    assert read_point(cols[1], top=False) == ("X", 9)
    assert read_point(cols[19], top=True) == ("O", 7)
    assert "[64]" in board


def test_cli_writes_png_and_ascii(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "board.png"
    assert main(["4HPwATDgc/ABMA", "cAkAAAAAAAAA", "--out", str(out), "--ascii"]) == 0
    img = Image.open(io.BytesIO(out.read_bytes()))
    assert img.format == "PNG" and img.width == 800
    assert "+13-14-15-16-17-18" in capsys.readouterr().out
    assert main(["4HPwATDgc/ABMA:cAkAAAAAAAAA", "--out", str(out), "--theme", "classic",
                 "--perspective", "0"]) == 0
    assert main(["not-an-id", "--out", str(out)]) == 2


def test_view_from_ids_reads_match_state() -> None:
    view = view_from_ids("4HPwATDgc/ABMA", "cAkAAAAAAAAA")
    assert view.position == Position.standard()
    assert view.money is not None and view.cube is not None and view.cube.owner is None
    assert view_from_ids("4HPwATDgc/ABMA", "cAkAAAAAAAAA", perspective=0).bottom == Player.WHITE


def test_gallery_writes_files(tmp_path: Path) -> None:
    assert gallery_main([str(tmp_path), "--only", "opening", "--themes", "default", "dark"]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["opening-dark.png", "opening.png"]

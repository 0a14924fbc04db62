"""A text board from the same layout as the picture (console, logs, screen readers).

::

     Match to 7
     O  Bob (black)  score 5  130 pips
     +13-14-15-16-17-18------19-20-21-22-23-24-+
     | X           O    |   | O              X |  off 1
     | X           O    |   | O                |
     | X           O    |   | O                |
     | X                |   | O                |
     |                  | O | 7                |
 [2] |                  |BAR|      (5) 3       |
     |                  | X | X                |
     ...
     +12-11-10--9--8--7-------6--5--4--3--2--1-+
     X  Alice (white)  score 3  148 pips  to play

The viewer's checkers are ``X`` and sit at the bottom, with the points
numbered from his side; a stack taller than five shows its size in its fifth
row.  The cube is drawn left of the board (top: the opponent owns it, bottom:
the viewer, middle: centred); used dice are in parentheses.
"""

from __future__ import annotations

from engine.notation import format_moves
from engine.player import Player
from engine.words import counted
from render.layout import STACK_CAPACITY, Layout, Stack, build
from render.view import ANSWER_WORDS, BoardView

_ROWS = STACK_CAPACITY


def _mark(lay: Layout, owner: Player | None) -> str:
    if owner is None:
        return " "
    return "X" if owner == lay.viewer else "O"


def _cell(lay: Layout, st: Stack, row: int) -> str:
    """Row ``row`` (0 = nearest the edge) of a stack, three characters wide."""
    if st.owner is None or st.count <= row:
        return "   "
    if st.labelled and row == _ROWS - 1:
        return f"{st.count:>2} "
    return f" {_mark(lay, st.owner)} "


def _player_line(view: BoardView, lay: Layout, player: Player) -> str:
    info = view.players[player]
    parts = [f"{_mark(lay, player)}  {info.name}"
             + (f" ({info.note})" if info.note else "") + f" ({player.label})"]
    if view.match is not None and info.score is not None:
        parts.append(f"score {info.score}")
    parts.append(counted(view.pips(player), "pip"))
    if info.clock:
        parts.append(f"clock {info.clock}")
    waiting = lay.waiting[player].count
    if waiting:
        parts.append(f"{waiting} to enter")
    status = view.status(player)
    if status:
        parts.append(status)
    return "  ".join(parts)


def text_board(view: BoardView) -> str:
    """The board of ``view`` as text (lines joined by newlines, no trailing newline)."""
    lay = build(view)
    viewer = lay.viewer
    other = viewer.other
    lines: list[str] = []
    title = view.title()
    if title:
        lines.append(f"     {title}")
    lines.append("     " + _player_line(view, lay, other))
    lines.append("     +" + "".join(f"{p:->2}-" for p in range(13, 19)) + "-----"
                 + "".join(f"{p:->2}-" for p in range(19, 25)) + "+")

    cube = lay.cube
    cube_text = f"[{cube.value}]" if cube is not None else ""
    cube_row = -1
    if cube is not None and cube.place == "owned":
        cube_row = 0 if cube.player == other else 2 * _ROWS
    elif cube is not None and cube.place == "centre":
        cube_row = _ROWS

    def side_note(player: Player, first: bool) -> str:
        off = lay.trays[player].count
        notes = []
        if first and off:
            notes.append(f"off {off}")
        return "  ".join(notes)

    def half(points: range | list[int], row: int) -> str:
        return "".join(_cell(lay, lay.points[p], row) for p in points)

    board_rows: list[str] = []
    for row in range(_ROWS):
        left = half(list(range(13, 19)), row)
        right = half(list(range(19, 25)), row)
        bar = _cell(lay, lay.bar[other], _ROWS - 1 - row)  # bar stacks grow from the middle
        note = side_note(other, row == 0)
        board_rows.append(f"|{left}|{bar}|{right}|" + (f"  {note}" if note else ""))
    # Middle row: dice / offered cube.
    left_mid = right_mid = ""
    dice_by_side: dict[bool, list[str]] = {True: [], False: []}
    for die in lay.dice:
        dice_by_side[die.player == viewer].append(f"({die.value})" if die.used else str(die.value))
    right_mid = " ".join(dice_by_side[True])
    left_mid = " ".join(dice_by_side[False])
    if cube is not None and cube.place == "offered" and cube.player is not None:
        text = f"[{cube.value}] offered"
        if cube.player == other:
            right_mid = text
        else:
            left_mid = text
    board_rows.append(f"|{left_mid:^18}|BAR|{right_mid:^18}|")
    for row in range(_ROWS - 1, -1, -1):
        left = half(list(range(12, 6, -1)), row)
        right = half(list(range(6, 0, -1)), row)
        bar = _cell(lay, lay.bar[viewer], _ROWS - 1 - row)
        note = side_note(viewer, row == 0)
        board_rows.append(f"|{left}|{bar}|{right}|" + (f"  {note}" if note else ""))
    for i, row_text in enumerate(board_rows):
        prefix = f"{cube_text:>4} " if i == cube_row else "     "
        lines.append(prefix + row_text)
    lines.append("     +" + "".join(f"{p:->2}-" for p in range(12, 6, -1)) + "-----"
                 + "".join(f"{p:->2}-" for p in range(6, 0, -1)) + "+")
    lines.append("     " + _player_line(view, lay, viewer))

    if view.opening is not None:
        w, b = view.opening
        lines.append(f"     Opening roll: white {w}, black {b}")
    elif view.dice is not None:
        roller = view.turn if view.turn is not None else viewer
        used = [str(d.value) for d in lay.dice if d.used]
        text = f"     Dice: {view.players[roller].name} {view.dice_words()}"
        if used:
            text += f" (used: {', '.join(used)})"
        lines.append(text)
    if cube is not None and cube.place == "offered" and cube.player is not None:
        verb = view.cube.verb if view.cube is not None else "doubles"
        lines.append(f"     {view.players[cube.player.other].name} {verb} to {cube.value}; "
                     f"{view.players[cube.player].name} to {ANSWER_WORDS}")
    elif cube is not None:
        owner = "centred" if cube.player is None else f"owned by {view.players[cube.player].name}"
        value = view.cube.value if view.cube is not None else cube.value
        lines.append(f"     Cube: {value} ({owner})")
    if view.resignation is not None:
        names = (view.players[0].name, view.players[1].name)
        lines.append(f"     {view.resignation.sentence(names)}")
    if view.last_play is not None and view.last_play.moves:
        moves = view.last_play.text or format_moves(view.last_play.moves)
        mover = view.players[view.last_play.player].name
        own = "" if view.last_play.player == view.bottom else (
            f" (in {mover}'s point numbers, from the top of this board)")
        lines.append(f"     Last play: {mover} {moves}{own}")
    if lay.directions is not None:
        arrows = {-1: "<-", 1: "->"}
        parts = [f"{_mark(lay, p)} top {arrows[lay.directions[p][0]]} "
                 f"bottom {arrows[lay.directions[p][1]]}" for p in (viewer, other)]
        lines.append("     Directions: " + "; ".join(parts))
    if view.chouette is not None:
        ch = view.chouette
        partners = ", ".join(f"{i}. {p.name} ({p.state.label})"
                             for i, p in enumerate(ch.partners, 1))
        with_box = f" with {', '.join(ch.box_partners)}" if ch.box_partners else ""
        lines.append(f"     Chouette: box {view.players[ch.box].name}{with_box}, captain "
                     f"{view.players[ch.box.other].name}; partners: {partners or 'none'}")
    if view.game_over is not None:
        go = view.game_over
        kind = go.kind.phrase
        lines.append(f"     Game over: {view.players[go.winner].name} wins {kind}, "
                     f"{counted(go.points, 'point')}")
    return "\n".join(line.rstrip() for line in lines)

"""A board reply as the JSON the page draws, from the service's values only.

Points are given in the numbering of the player seen at the bottom (``BoardView.bottom``,
as on the PNG): ``points[p]`` for ``p`` 1..24 is that point's checkers.  The steps of the
move builder are converted to the same numbering, so the page compares numbers and
nothing else.
"""

from __future__ import annotations

from typing import Any

from bot.service.core.replies import Board, BuilderView, Button, Reply, StepChoice, plain
from bot.service.core.views import with_clocks
from bot.service.lobby.open import Waiting
from engine.player import Player
from engine.position import BAR, OFF, WAITING
from render.view import BoardView

HIDDEN = frozenset({"steps", "board"})
"""Buttons the page does not show: the board itself is the move builder and the board."""

Json = dict[str, Any]


def shown_point(view: BoardView, mover: Player, point: int) -> int:
    """``point`` of ``mover``'s numbering in the bottom player's numbering (the bar,
    off and not yet entered keep their numbers: 25, 0, 26)."""
    if point in (OFF, BAR, WAITING) or mover is view.bottom:
        return point
    return view.geometry[point]


def board_json(board: Board) -> Json:
    view = board.view
    bottom = view.bottom
    top = bottom.other
    points: list[Json | None] = [None] * 25
    for p in range(1, 25):
        mine = view.position.count(bottom, p)
        theirs = view.position.count(top, view.geometry[p])
        if mine:
            points[p] = {"player": int(bottom), "count": mine}
        elif theirs:
            points[p] = {"player": int(top), "count": theirs}
    cube = view.cube
    both = (Player.WHITE, Player.BLACK)
    return {
        "bottom": int(bottom),
        "turn": None if view.turn is None else int(view.turn),
        "points": points,
        "bar": [view.position.bar(p) for p in both],
        "off": [view.position.off(p) for p in both],
        "waiting": [view.position.waiting(p) for p in both],
        "players": [{"name": i.name, "pips": view.pips(p), "score": i.score, "note": i.note,
                     "clock": i.clock}
                    for p, i in zip(both, view.players, strict=True)],
        "dice": list(view.dice) if view.dice else [],
        "dice_used": list(view.dice_used),
        "dice_words": view.dice_words(),
        "cube": None if cube is None else {
            "value": cube.value,
            "owner": None if cube.owner is None else int(cube.owner),
            "offered_to": None if cube.offered_to is None else int(cube.offered_to)},
        "match": None if view.match is None else {
            "length": view.match.length, "crawford": view.match.crawford},
        "resignation": None if view.resignation is None else {
            "player": int(view.resignation.player), "kind": view.resignation.kind.value},
        "game_over": None if view.game_over is None else {
            "winner": int(view.game_over.winner), "kind": view.game_over.kind.value,
            "points": view.game_over.points},
        "variant": view.variant,
        "position_id": board.position_id,
        "match_id": board.match_id,
        "caption": board.caption,
    }


def buttons_json(buttons: tuple[Button, ...], user: int) -> list[Json]:
    """The buttons ``user`` may press (the service lists who may press each)."""
    return [{"action": b.action.value, "label": b.label, "option": b.option}
            for b in buttons if user in b.users and b.action.value not in HIDDEN]


def steps_json(view: BoardView, steps: tuple[StepChoice, ...]) -> list[Json]:
    mover = view.turn if view.turn is not None else view.bottom
    return [{"word": s.word, "from": shown_point(view, mover, s.src),
             "to": shown_point(view, mover, s.dst), "die": s.die, "hit": s.hit}
            for s in steps]


def open_json(waiting: tuple[Waiting, ...], user: int) -> list[Json]:
    """The channel's open challenges; ``accept``: this user may press their Accept (anyone
    but the challenger: the service says the rest, e.g. a rating range)."""
    return [{"match": w.match_id, "version": w.version, "challenger": w.challenger,
             "terms": w.terms, "expires": w.expires, "accept": user != w.challenger_id}
            for w in waiting]


def state_json(public: Reply, user: int, builder: BuilderView | None,
               waiting: tuple[Waiting, ...] = ()) -> Json:
    """What one page shows: the channel's board (``public``: the reply of /board), the
    buttons this user may press and, when he is to play, the builder's steps and board
    (his play entered so far); the channel's open challenges (``waiting``), each with the
    clock of its players on the board (as on the PNG)."""
    board = public.boards[-1] if public.boards else None
    out: Json = {"type": "state", "ok": public.ok, "text": public.text,
                 "notices": [plain(n) for n in public.notify],
                 "version": public.version, "match": public.match_id,
                 "board": None, "buttons": buttons_json(public.buttons, user), "steps": [],
                 "open": open_json(waiting, user)}
    if builder is not None and builder.board is not None:
        # The builder's board is the player's draft; the clocks are the channel's board's.
        board = builder.board if board is None else with_clocks(builder.board, (
            board.view.players[0].clock, board.view.players[1].clock))
        out["steps"] = steps_json(builder.board.view, builder.steps)
        seen = {(b["action"], b["option"]) for b in out["buttons"]}
        out["buttons"] += [b for b in buttons_json(builder.buttons, user)
                           if (b["action"], b["option"]) not in seen]
        out["builder"] = builder.text
    if board is not None:
        out["board"] = board_json(board)
    return out

"""Games and matches as GNU Backgammon's native ``.sgf`` (Smart Game Format, ``GM[6]``).

Pure functions, no I/O: :func:`export_sgf` writes the text.  Unlike ``.mat``,
whose header tags GNU Backgammon ignores, the ``.sgf`` root node of each game
carries the rules gnubg applies when it loads and analyses the file
(``RU``: ``NoCube``, ``Crawford``, ``CrawfordGame``, ``Jacoby``), the match
length and score (``MI``) and the result (``RE``).  The layout follows what
GNU Backgammon 1.07 writes itself (``save match``)::

    (;FF[4]GM[6]CA[UTF-8]AP[bgbot]MI[length:5][game:0][ws:0][bs:0]PW[Alice]PB[Bob]
    DT[2024-05-01]RE[B+2]RU[Crawford]
    ;W[31fcfe]
    ;B[64amal]
    ;W[double]
    ;B[take]
    ...)
    (;FF[4]GM[6]...MI[length:5][game:1][ws:0][bs:2]...)

* one game tree per game; ``PW`` is WHITE (the challenger), ``PB`` BLACK;
* a throw and its play: ``;W[`` the two dice, then one ``from``/``to`` letter
  pair per die in board coordinates: ``a``..``x`` are WHITE's points 1..24
  (BLACK's point ``p`` is WHITE's ``25 - p``), ``y`` the bar, ``z`` off.  A
  throw that cannot be played is its dice alone (``;B[66]``);
* cube actions are nodes of their own: ``double``, ``take``, ``drop``; a beaver
  is written as gnubg writes it, a ``double`` by the doubled player followed by
  the original doubler's ``take`` (or ``drop``);
* ``RE[W+2]`` when WHITE won 2 points, ``RE[B+1R]`` for a resignation (or a
  forfeit, which gnubg cannot tell apart); a game still being played has no
  ``RE`` and stops after its last action.

What gnubg's ``.sgf`` cannot carry: **beavers** (gnubg keeps them as a global
setting, ``set beavers``, not per game: the beaver actions load whatever it is
set to, but its analysis offers beavers only if it is on), a cube cap
(``max_cube``; gnubg's limit is its own), the scoring method and variants.
Refused, as in ``.mat`` (:class:`SgfExportError`): variants other than standard
backgammon, set-up positions and scoring other than by games.

The input is the same as :func:`engine.formats.matfile.export_match`'s: games with their
record and the score before each (any object with ``record`` and ``score``
attributes, :class:`ScoredGame`), so ``MatGame`` values are accepted as they are.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from typing import Protocol

from engine.dice import Dice
from engine.errors import BackgammonError
from engine.game import Game, Phase
from engine.move import Move
from engine.player import Player
from engine.position import BAR
from engine.record import (
    Beaver,
    ChoiceMade,
    DoubleOffered,
    Drop,
    GameRecord,
    OpeningRoll,
    PlayMade,
    Roll,
    Take,
)
from engine.rules import DEFAULT_RULES, RuleOptions, ScoringMethod
from engine.scoring import EndReason, Result
from engine.variant import StandardBackgammon

COLOUR: dict[Player, str] = {Player.WHITE: "W", Player.BLACK: "B"}
"""The SGF colour of each player: WHITE (the challenger) is ``W``."""


class SgfExportError(BackgammonError, ValueError):
    """The game cannot be written as a GNU Backgammon .sgf file (the message says why)."""


class ScoredGame(Protocol):
    """One game to export: its record and the score (white, black) before it."""

    @property
    def record(self) -> GameRecord: ...

    @property
    def score(self) -> tuple[int, int]: ...


def _check_exportable(record: GameRecord) -> None:
    if record.variant != StandardBackgammon.name:
        raise SgfExportError(
            f"GNU Backgammon's .sgf records standard backgammon only; this game is "
            f"{record.variant}.")
    if record.position is not None:
        raise SgfExportError("The .sgf export can't record a game started from a set-up "
                             "position.")
    rules = RuleOptions.from_dict(record.rules)
    if rules.scoring is not ScoringMethod.GAMES:
        raise SgfExportError(
            "GNU Backgammon scores games by single, gammon and backgammon; this one is "
            f"scored {rules.scoring.value}.")


def _point(player: Player, point: int) -> str:
    """The SGF letter of ``player``'s own point ``point`` (25 and up: bar, 0: off)."""
    if point >= BAR:
        return "y"
    if point <= 0:
        return "z"
    absolute = point if player is Player.WHITE else 25 - point
    return chr(ord("a") + absolute - 1)


def format_play(player: Player, dice: Dice, moves: Sequence[Move]) -> str:
    """``"31fcfe"``: the dice, then one from/to letter pair per move (highest
    starting point first, an order that can always be played in turn)."""
    ordered = sorted(moves, key=lambda m: (-m.src, -m.dst))
    return f"{dice.first}{dice.second}" + "".join(
        _point(player, m.src) + _point(player, m.dst) for m in ordered)


def rules_property(rules: RuleOptions, *, match: bool, crawford_game: bool) -> str:
    """The ``RU`` value for a game (empty: no property), in gnubg's order."""
    parts: list[str] = []
    if not rules.cube:
        parts.append("NoCube")
    if match and rules.crawford:
        parts.append("Crawford")
        if crawford_game:
            parts.append("CrawfordGame")
    if not match and rules.jacoby:
        parts.append("Jacoby")
    return ":".join(parts)


def _escape(text: str) -> str:
    """A property value: ``\\`` and ``]`` escaped, control characters as spaces."""
    text = re.sub(r"[\x00-\x1f\x7f]+", " ", text)
    return text.replace("\\", "\\\\").replace("]", "\\]")


def game_nodes(record: GameRecord) -> tuple[list[str], Result | None]:
    """The move nodes of one game (``"W[31fcfe]"``...) and its result (None: unfinished)."""
    _check_exportable(record)
    game = Game.new(record.variant, RuleOptions.from_dict(record.rules), money=record.money,
                    crawford=record.crawford, first_player=record.first_player)
    nodes: list[str] = []
    pending: tuple[Player, Dice] | None = None
    for event in record.events:
        try:
            game = game.apply(event)
        except BackgammonError as exc:
            raise SgfExportError(f"The game record does not replay: {exc}") from exc
        if isinstance(event, Roll | OpeningRoll | ChoiceMade):
            if game.phase is Phase.PLAY and pending is None:
                assert game.turn is not None and game.dice is not None
                pending = (game.turn, game.dice)
            elif isinstance(event, Roll) and game.phase is not Phase.PLAY:
                nodes.append(f"{COLOUR[event.player]}[{event.dice.first}{event.dice.second}]")
        elif isinstance(event, PlayMade):
            assert pending is not None
            player, dice = pending
            nodes.append(f"{COLOUR[player]}[{format_play(player, dice, event.moves)}]")
            pending = None
        elif isinstance(event, DoubleOffered | Beaver):
            nodes.append(f"{COLOUR[event.player]}[double]")
        elif isinstance(event, Take):
            nodes.append(f"{COLOUR[event.player]}[take]")
        elif isinstance(event, Drop):
            nodes.append(f"{COLOUR[event.player]}[drop]")
        if game.phase is Phase.FINISHED:
            break
    if pending is not None and not game.is_finished:
        player, dice = pending            # thrown, not played yet: the dice alone
        nodes.append(f"{COLOUR[player]}[{dice.first}{dice.second}]")
    return nodes, game.result


def _date_text(date: str | dt.date) -> str:
    if isinstance(date, dt.date):
        return date.isoformat()
    found = re.fullmatch(r"(\d{4})[-./](\d{1,2})[-./](\d{1,2})", date.strip()[:10])
    if found:
        y, m, d = (int(g) for g in found.groups())
        return f"{y:04d}-{m:02d}-{d:02d}"
    return ""


def export_sgf(games: Sequence[ScoredGame], *, length: int, names: tuple[str, str],
               site: str = "", date: str | dt.date = "", event: str = "",
               rules: RuleOptions | None = None) -> str:
    """The .sgf text of a match (``length`` points) or money session (``length`` 0).

    Same arguments as :func:`engine.formats.matfile.export_match`: ``names`` are (white,
    black); ``games`` in order, each with the score before it (the last may be
    running); ``rules`` default to each game's own.  Raises
    :class:`SgfExportError` for what the format can't hold.
    """
    if length < 0:
        raise SgfExportError("The match length is 0 (money play) or more.")
    trees: list[str] = []
    for number, item in enumerate(games):
        record = item.record
        game_rules = rules or (RuleOptions.from_dict(record.rules) if record.rules
                               else DEFAULT_RULES)
        nodes, result = game_nodes(record)
        ws, bs = item.score
        root = (f"(;FF[4]GM[6]CA[UTF-8]AP[bgbot]"
                f"MI[length:{length}][game:{number}][ws:{ws}][bs:{bs}]"
                f"PW[{_escape(names[0]) or 'White'}]PB[{_escape(names[1]) or 'Black'}]")
        if number == 0:
            when = _date_text(date) if date else ""
            if when:
                root += f"DT[{when}]"
            if event:
                root += f"EV[{_escape(event)}]"
            if site:
                root += f"PC[{_escape(site)}]"
        if result is not None:
            resigned = result.reason in (EndReason.RESIGNATION, EndReason.FORFEIT)
            root += f"RE[{COLOUR[result.winner]}+{result.points}{'R' if resigned else ''}]"
        ru = rules_property(game_rules, match=length > 0, crawford_game=record.crawford)
        if ru:
            root += f"RU[{ru}]"
        trees.append(root + "".join(f"\n;{n}" for n in nodes) + ")")
    return "\n".join(trees) + "\n"

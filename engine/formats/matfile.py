"""Games and matches as ``.mat`` text (the Jellyfish / GNU Backgammon match file).

Pure functions, no I/O: :func:`export_match` writes the text, :func:`parse_mat`
reads it back into engine records.  The layout follows GNU Backgammon's own
exporter (``ExportMatchMat`` / ``ExportGameJF`` in gnubg's ``export.c``) and
what its importer (``ImportMat`` in ``import.c``) reads::

    ; [Site "Discord"]
    ; [Player 1 "Alice"]
    ; [Player 2 "Bob"]
    ; [EventDate "2024.05.01"]
    ; [Variation "Backgammon"]
    ; [Crawford "On"]

     5 point match

     Game 1
     Alice : 0                      Bob : 0
      1) 31: 8/5 6/5                 64: 24/18 13/9
      2) 62: 13/11 13/7*             66:
      3)  Doubles => 2                Takes
      ...
          Wins 2 points

* ``N point match``; money play is `` 0 point match`` (gnubg reads 0 as an
  unlimited session);
* each game: `` Game N``, then the score line (player 1's ``name : score``
  left-justified in 31 columns, then player 2's), then numbered lines with
  two columns: ``"%3d) "``, player 1's entry in 27 columns and a space, then
  player 2's entry (column 33).  A game player 2 starts has an empty left
  column on line 1;
* a roll is ``"ab: "`` and the moves, one per die (a checker moving twice is
  written twice: ``24/18* 18/13``), from-point/to-point in the mover's own
  numbering, the bar as ``25`` and off as ``0``, ``*`` after the first move to
  a point where a blot was hit; gnubg's writer puts a space after each of the
  first three moves (so ``"31: 8/5 6/5 "`` ends in a space, and a roll that
  cannot be played is ``"66: "``).  That space matters: gnubg reads a bare
  ``66:`` at the end of a line past the end of its text.  Moves are written
  highest starting point first, an order that can always be played in turn;
* cube actions are entries of their own: `` Doubles => 2``, `` Takes``,
  `` Drops``, `` Beavers => 4`` (the beaver's take is implied by the
  doubler's next roll, as Jellyfish writes it);
* the end: ``Wins N point(s)`` (`` and the match`` when it decides a match),
  player 1's indented 6 columns on a line of its own, player 2's in the right
  column (column 34), then an empty line.  A resignation, or a forfeit, is a
  ``Wins`` line while the game is still being played; gnubg takes it as a
  resignation worth that many points.  A game still being played simply
  stops (a throw not yet played shows as its dice alone);
* the Crawford game is not marked: readers derive it from the scores.

Players: **player 1 (left column, first on the score line) is WHITE, the
challenger; player 2 is BLACK** (:data:`FILE_PLAYERS`, the one place this is
decided).  GNU Backgammon does not care which player is which.

What the format cannot hold, and this module refuses (:class:`MatExportError`):
variants other than standard backgammon, games from a set-up position and
scoring other than by games.  Lost without a word: opening-throw ties (and the
cube value an automatic double gives; ``Doubles => N`` shows the real value,
which gnubg ignores), refused resignations and the difference between a
resignation and a forfeit.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.dice import Dice
from engine.errors import BackgammonError
from engine.game import Game, Phase
from engine.interpret import resolve_play
from engine.move import Move
from engine.player import Player
from engine.position import BAR
from engine.record import (
    Beaver,
    ChoiceMade,
    DoubleOffered,
    Drop,
    Forfeit,
    GameRecord,
    OpeningRoll,
    PlayMade,
    ResignAnswer,
    Roll,
    Take,
    events_from_list,
)
from engine.rules import (
    DEFAULT_RULES,
    OpeningMethod,
    RuleOptions,
    ScoringMethod,
    whole_number,
)
from engine.scoring import Result, ResultKind
from engine.variant import StandardBackgammon

FILE_PLAYERS: tuple[Player, Player] = (Player.WHITE, Player.BLACK)
"""Player 1 and player 2 of the file: the left and the right column, the first and
the second name of each score line.  WHITE (the challenger) is player 1."""

LEFT_WIDTH = 27
"""Width of player 1's column after ``"%3d) "`` (gnubg writes ``"%3d) %-27s "``)."""
SCORE_WIDTH = 31
"""Width of ``"name : score"`` of player 1 on a score line (gnubg ``" %-31s"``)."""
RIGHT_COLUMN = 5 + LEFT_WIDTH + 1
"""Column (from 0) where player 2's entries start."""

_STANDARD = StandardBackgammon.name


class MatExportError(BackgammonError, ValueError):
    """The game cannot be written as a .mat file (the message says why)."""


class MatParseError(BackgammonError, ValueError):
    """The text is not a .mat file this module can read (the message says where)."""


# -- entries of a game ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MatRoll:
    """A throw and the play made with it (``moves`` in the mover's own numbering;
    empty when the roll could not be played, or was not played yet)."""

    player: Player
    dice: Dice
    moves: tuple[Move, ...] = ()


@dataclass(frozen=True, slots=True)
class MatDouble:
    player: Player
    value: int
    """The value offered (``Doubles => value``)."""


@dataclass(frozen=True, slots=True)
class MatBeaver:
    player: Player
    value: int


@dataclass(frozen=True, slots=True)
class MatTake:
    player: Player


@dataclass(frozen=True, slots=True)
class MatDrop:
    player: Player


@dataclass(frozen=True, slots=True)
class MatWin:
    """``player`` wins ``points`` (``match``: "and the match")."""

    player: Player
    points: int
    match: bool = False


MatAction = MatRoll | MatDouble | MatBeaver | MatTake | MatDrop | MatWin


# -- export ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MatGame:
    """One game to export: its record and the score before it (white, black).

    In a money session the score is the points each player had won before it.
    """

    record: GameRecord
    score: tuple[int, int] = (0, 0)

    @classmethod
    def from_stored(cls, events: Sequence[Mapping[str, Any]], setup: Mapping[str, Any], *,
                    variant: str, rules: Mapping[str, Any],
                    score: tuple[int, int] = (0, 0)) -> MatGame:
        """A game as the bot stores it: event dicts and the ``setup`` of its row."""
        first = setup.get("first_player")
        return cls(GameRecord(
            variant=variant, rules=dict(rules), events=events_from_list(events),
            money=bool(setup.get("money", True)), crawford=bool(setup.get("crawford", False)),
            first_player=Player[str(first).upper()] if first else None), score)


def _check_exportable(record: GameRecord) -> RuleOptions:
    if record.variant != _STANDARD:
        raise MatExportError(
            f"A .mat file records standard backgammon only; this game is {record.variant}.")
    if record.position is not None:
        raise MatExportError("A .mat file can't record a game started from a set-up position.")
    rules = RuleOptions.from_dict(record.rules)
    if rules.scoring is not ScoringMethod.GAMES:
        raise MatExportError(
            "A .mat file records games scored by games (single, gammon, backgammon); "
            f"this one is scored {rules.scoring.value}.")
    return rules


def game_actions(record: GameRecord, *, score: tuple[int, int] = (0, 0),
                 length: int = 0) -> tuple[MatAction, ...]:
    """The entries of one game as the .mat file shows them (replays ``record``).

    ``score`` (white, black) before the game and the match ``length`` tell
    whether its ``Wins`` line ends with "and the match".
    """
    _check_exportable(record)
    game = Game.new(record.variant, RuleOptions.from_dict(record.rules), money=record.money,
                    crawford=record.crawford, first_player=record.first_player)
    out: list[MatAction] = []
    pending: tuple[Player, Dice] | None = None
    implied_take: Player | None = None

    def emit(action: MatAction) -> None:
        nonlocal implied_take
        # After a beaver the doubler's take is implied by his next roll; anything
        # else next (a resignation...) needs it written.
        if implied_take is not None and not (
                isinstance(action, MatRoll) and action.player is implied_take):
            out.append(MatTake(implied_take))
        implied_take = None
        out.append(action)

    for event in record.events:
        before = game
        try:
            game = game.apply(event)
        except BackgammonError as exc:
            raise MatExportError(f"The game record does not replay: {exc}") from exc
        if isinstance(event, Roll | OpeningRoll | ChoiceMade):
            if game.phase is Phase.PLAY and pending is None:
                assert game.turn is not None and game.dice is not None
                pending = (game.turn, game.dice)
            elif isinstance(event, Roll) and game.phase is not Phase.PLAY:
                emit(MatRoll(event.player, event.dice))      # no legal move
        elif isinstance(event, PlayMade):
            assert pending is not None
            emit(MatRoll(pending[0], pending[1], event.moves))
            pending = None
        elif isinstance(event, DoubleOffered):
            assert game.cube.offer is not None
            emit(MatDouble(event.player, game.cube.offer.value))
        elif isinstance(event, Beaver):
            assert game.cube.offer is not None
            emit(MatBeaver(event.player, game.cube.offer.value))
        elif isinstance(event, Take):
            offer = before.cube.offer
            if offer is not None and offer.beaver:
                implied_take = event.player
            else:
                emit(MatTake(event.player))
        elif isinstance(event, Drop):
            emit(MatDrop(event.player))
        if game.phase is Phase.FINISHED:
            result = game.result
            assert result is not None
            if pending is not None and isinstance(event, ResignAnswer | Forfeit):
                emit(MatRoll(*pending))       # rolled, then resigned or forfeited
                pending = None
            decides = length > 0 and score[result.winner] + result.points >= length
            emit(MatWin(result.winner, result.points, decides))
            break
    if pending is not None:
        emit(MatRoll(*pending))               # the throw waiting to be played
    elif implied_take is not None:
        out.append(MatTake(implied_take))
    return tuple(out)


def format_moves(moves: Sequence[Move]) -> str:
    """The moves of one roll as gnubg's ``FormatMovePlain`` writes them (highest
    starting point first; ``25`` the bar, ``0`` off; ``*`` on the first move to a
    point where a blot was hit; a space after each of the first three moves)."""
    ordered = sorted(moves, key=lambda m: (-m.src, -m.dst))
    hits = {m.dst for m in moves if m.hit}
    text = ""
    for i, m in enumerate(ordered):
        src = BAR if m.src >= BAR else m.src
        text += f"{src}/{m.dst}"
        if m.dst in hits:
            text += "*"
            hits.discard(m.dst)
        if i < 3:
            text += " "
    return text


def _entry(action: MatAction) -> str:
    if isinstance(action, MatRoll):
        return f"{action.dice.first}{action.dice.second}: {format_moves(action.moves)}"
    if isinstance(action, MatDouble):
        return f" Doubles => {action.value}"
    if isinstance(action, MatBeaver):
        return f" Beavers => {action.value}"
    if isinstance(action, MatTake):
        return " Takes"
    if isinstance(action, MatDrop):
        return " Drops"
    point = "point" if action.points == 1 else "points"
    return f"Wins {action.points} {point}" + (" and the match" if action.match else "")


def _layout(actions: Sequence[MatAction]) -> list[str]:
    """Numbered two-column lines; player 1 left, player 2 right (:data:`FILE_PLAYERS`)."""
    lines: list[str] = []
    number = 0
    half: str | None = None      # a line with player 1's entry, waiting for player 2's
    for action in actions:
        left = action.player is FILE_PLAYERS[0]
        text = _entry(action)
        if isinstance(action, MatWin):
            if left:
                if half is not None:
                    lines.append(half)
                lines.append(" " * 6 + text)
            else:
                lines.append((half if half is not None else " " * RIGHT_COLUMN) + " " + text)
            half = None
            lines.append("")
            continue
        if left:
            if half is not None:
                lines.append(half)
            number += 1
            half = f"{number:3d}) {text:<{LEFT_WIDTH}} "
        else:
            if half is None:
                number += 1
                half = f"{number:3d}) {'':<{LEFT_WIDTH}} "
            lines.append(half + text)
            half = None
    if half is not None:
        lines.append(half)
    return lines


_NAME_JUNK = re.compile(r"[\x00-\x1f\x7f:,\"]+")


def clean_name(name: str, default: str) -> str:
    """A player name gnubg reads back: no ``:`` (it ends the name on a score line),
    no ``,`` (``name,1500`` is read as a rating), no quotes or control characters."""
    text = " ".join(_NAME_JUNK.sub(" ", name).split())
    return text or default


def _tag(key: str, value: str) -> str:
    return f'; [{key} "{value.replace(chr(34), chr(39))}"]'


def _date_text(date: str | dt.date) -> str:
    if isinstance(date, dt.date):
        return f"{date.year:04d}.{date.month:02d}.{date.day:02d}"
    text = date.strip()
    match = re.fullmatch(r"(\d{4})[-./](\d{1,2})[-./](\d{1,2})", text[:10])
    if match:
        y, m, d = (int(g) for g in match.groups())
        return f"{y:04d}.{m:02d}.{d:02d}"
    return text


def export_match(games: Sequence[MatGame], *, length: int, names: tuple[str, str],
                 site: str = "", date: str | dt.date = "", event: str = "",
                 rules: RuleOptions | None = None) -> str:
    """The .mat text of a match (``length`` points) or money session (``length`` 0).

    ``names`` are (white, black): player 1 and player 2 of the file.  ``games``
    are in order, each with the score before it; the last may still be
    running.  ``date`` is written as ``YYYY.MM.DD`` (a date, or text such as
    ``2024-05-01``).  ``rules`` (default: the first game's) give the header tags
    ``Crawford`` or ``Jacoby``/``Beaver``, and ``CubeLimit`` when the cube is off
    or capped.  Raises :class:`MatExportError` for what the format can't hold.
    """
    if length < 0:
        raise MatExportError("The match length is 0 (money play) or more.")
    if rules is None:
        rules = (RuleOptions.from_dict(games[0].record.rules) if games else DEFAULT_RULES)
    name1 = clean_name(names[0], "Player 1")
    name2 = clean_name(names[1], "Player 2")
    header: list[str] = []
    if site:
        header.append(_tag("Site", site))
    if event:
        header.append(_tag("Event", event))
    header.append(_tag("Player 1", name1))
    header.append(_tag("Player 2", name2))
    if date:
        header.append(_tag("EventDate", _date_text(date)))
    header.append(_tag("Variation", "Backgammon"))
    if length:
        header.append(_tag("Crawford", "On" if rules.crawford else "Off"))
    else:
        header.append(_tag("Jacoby", "On" if rules.jacoby else "Off"))
        header.append(_tag("Beaver", "On" if rules.beavers else "Off"))
    if not rules.cube:
        header.append(_tag("CubeLimit", "1"))
    elif rules.max_cube is not None:
        header.append(_tag("CubeLimit", str(rules.max_cube)))
    lines = [*header, "", f" {length} point match", ""]
    for number, game in enumerate(games, start=1):
        lines.append(f" Game {number}")
        first = f"{name1} : {game.score[0]}"
        lines.append(f" {first:<{SCORE_WIDTH}}{name2} : {game.score[1]}")
        lines.extend(_layout(game_actions(game.record, score=game.score, length=length)))
    return "\n".join(lines) + "\n"


# -- parsing ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ParsedGame:
    """One game read from a .mat file.

    ``actions`` as written (rolls with their plays resolved to engine moves);
    ``record`` the same game as an engine record that :meth:`Game.from_record`
    replays; ``result`` its result (None: the game stops unfinished).
    """

    number: int
    score: tuple[int, int]
    actions: tuple[MatAction, ...]
    record: GameRecord
    crawford: bool
    result: Result | None

    @property
    def game(self) -> Game:
        return Game.from_record(self.record)


@dataclass(frozen=True, slots=True)
class ParsedMatch:
    length: int
    """0 for money play."""
    names: tuple[str, str]
    """(player 1, player 2) = (white, black) by :data:`FILE_PLAYERS`."""
    tags: tuple[tuple[str, str], ...]
    """Header tags in order: ``(("Site", "Discord"), ...)``."""
    comments: tuple[str, ...]
    rules: RuleOptions
    games: tuple[ParsedGame, ...]

    def tag(self, key: str) -> str | None:
        for k, v in self.tags:
            if k.lower() == key.lower():
                return v
        return None


_TAG_RE = re.compile(r'^\[\s*([^"\]]+?)\s+"(.*)"\s*\]\s*$')
_LENGTH_RE = re.compile(r"^\s*(\d+)\s+[Pp]oint\s+[Mm]atch")
_GAME_RE = re.compile(r"^\s*Game\s+(\d+)")
_SCORE_RE = re.compile(r"^\s*(.*?)\s*:\s*(\d+)\s+(.*?)\s*:\s*(\d+)")
_ROLL_RE = re.compile(r"^([1-6])([1-6]):(.*)$")
_NUMBER_RE = re.compile(r"\d+")


def _split_line(line: str) -> tuple[str, str | None]:
    """Player 1's and player 2's halves of a move line, as gnubg's importer splits
    it: two colons (two rolls) cut two characters before the second; otherwise
    the first double space from column 15 on; the left half starts after ``)``."""
    first = line.find(":")
    second = line.find(":", first + 1) if first >= 0 else -1
    right: str | None
    if second > 3:
        left, right = line[:second - 3], line[second - 2:]
    elif len(line) > 15 and (cut := line.find("  ", 15)) >= 0:
        left, right = line[:cut], line[cut + 1:]
    else:
        left, right = line, None
    paren = left.find(")")
    if paren >= 0:
        left = left[paren + 1:]
    return left.strip(), (right.strip() if right is not None else None)


def _rules_from_tags(tags: Mapping[str, str], length: int) -> RuleOptions:
    def on(key: str) -> bool | None:
        value = tags.get(key.lower())
        return None if value is None else value.strip().lower() in ("on", "yes", "true", "1")

    changes: dict[str, Any] = {}
    limit = tags.get("cubelimit")
    value = whole_number(limit.strip()) if limit is not None else None
    if value is not None:
        if value <= 1:
            changes["cube"] = False
        elif value < 1024 and value & (value - 1) == 0:
            changes["max_cube"] = value
    crawford = on("Crawford")
    if crawford is not None:
        changes["crawford"] = crawford
    if length == 0:
        if on("Jacoby"):
            changes["jacoby"] = True
        if on("Beaver"):
            changes["beavers"] = True
    return replace(DEFAULT_RULES, **changes)


@dataclass(frozen=True, slots=True)
class _Raw:
    """One entry as read: player, line number and text."""

    player: Player
    line: int
    text: str


def _read_entries(lines: Sequence[tuple[int, str]]) -> list[_Raw]:
    out: list[_Raw] = []
    for lineno, line in lines:
        if line.lstrip().startswith((";", "#")):
            continue
        left, right = _split_line(line)
        if left:
            out.append(_Raw(FILE_PLAYERS[0], lineno, left))
        if right:
            out.append(_Raw(FILE_PLAYERS[1], lineno, right))
    return out


def _kind_of(points: int, cube: int) -> ResultKind:
    """The resignation a ``Wins points`` line stands for (gnubg's reading)."""
    if points <= cube:
        return ResultKind.SINGLE
    if points <= 2 * cube:
        return ResultKind.GAMMON
    return ResultKind.BACKGAMMON


class _GameReader:
    def __init__(self, number: int, score: tuple[int, int], entries: Sequence[_Raw],
                 rules: RuleOptions, money: bool, crawford: bool) -> None:
        self.number = number
        self.score = score
        self.entries = entries
        self.rules = rules
        self.money = money
        self.crawford = crawford

    def fail(self, raw: _Raw, message: str) -> MatParseError:
        return MatParseError(f"Game {self.number}, line {raw.line} ({raw.text!r}): {message}")

    def _new_game(self) -> tuple[Game, bool]:
        """The game before its first entry, and whether the first roll is the
        opening throw (one die each: the first roll's dice, mover's die first)."""
        first = self.entries[0] if self.entries else None
        roll = _ROLL_RE.match(first.text) if first is not None else None
        if (first is not None and roll is not None and roll.group(1) != roll.group(2)
                and self.rules.opening is OpeningMethod.ONE_DIE):
            return Game.new(_STANDARD, self.rules, money=self.money,
                            crawford=self.crawford), True
        starter = first.player if first is not None and roll is not None else None
        if first is not None and first.text.lower().startswith("double"):
            starter = first.player
        return Game.new(_STANDARD, self.rules, money=self.money, crawford=self.crawford,
                        first_player=starter), False

    def read(self) -> ParsedGame:
        try:
            game, opening = self._new_game()
        except BackgammonError as exc:
            raise MatParseError(f"Game {self.number}: {exc}") from exc
        actions: list[MatAction] = []
        for raw in self.entries:
            try:
                game = self._entry(game, raw, actions, opening)
            except BackgammonError as exc:
                if isinstance(exc, MatParseError):
                    raise
                raise self.fail(raw, str(exc)) from exc
            opening = False
        return ParsedGame(self.number, self.score, tuple(actions), game.to_record(),
                          self.crawford, game.result)

    def _entry(self, game: Game, raw: _Raw, actions: list[MatAction], opening: bool) -> Game:
        player, text = raw.player, raw.text
        low = text.lower()
        roll = _ROLL_RE.match(text)
        offer = game.cube.offer
        if (game.phase is Phase.DOUBLED and offer is not None and offer.beaver
                and player is offer.answerer and (roll or low.startswith("double"))):
            game = game.take(player)             # a beaver is taken by rolling on
        if roll:
            return self._roll(game, raw, Dice(int(roll.group(1)), int(roll.group(2))),
                              roll.group(3), actions, opening)
        if low.startswith("double"):
            game = game.double(player)
            assert game.cube.offer is not None
            actions.append(MatDouble(player, game.cube.offer.value))
        elif low.startswith("beaver"):
            game = game.beaver(player)
            assert game.cube.offer is not None
            actions.append(MatBeaver(player, game.cube.offer.value))
        elif low.startswith("take"):
            game = game.take(player)
            actions.append(MatTake(player))
        elif low.startswith("drop") or low.startswith("pass"):
            game = game.drop(player)
            actions.append(MatDrop(player))
        elif low.startswith("win"):
            numbers = _NUMBER_RE.findall(text)
            if not numbers:
                raise self.fail(raw, "a win without points")
            points = int(numbers[0])
            if game.phase is Phase.FINISHED:
                assert game.result is not None
                if game.result.winner is not player:
                    raise self.fail(raw, f"the game was won by the other player "
                                         f"({game.result.winner.label})")
            else:
                kind = _kind_of(points, game.cube.value)
                if game.phase is Phase.RESIGNATION:
                    raise self.fail(raw, "a resignation is already waiting for an answer")
                game = game.resign(player.other, kind).answer_resignation(player, True)
            actions.append(MatWin(player, points, "match" in low))
        elif low.startswith("resign"):
            pass                                 # gnubg ignores it too; "Wins" follows
        else:
            raise self.fail(raw, "not a roll, cube action or result")
        return game

    def _roll(self, game: Game, raw: _Raw, dice: Dice, text: str,
              actions: list[MatAction], opening: bool) -> Game:
        player = raw.player
        moves_text = text.strip()
        if moves_text.startswith("???") or moves_text.lower().startswith("cannot move"):
            moves_text = ""
        if moves_text.lower().startswith("illegal play"):
            raise self.fail(raw, "illegal plays (edited positions) are not supported")
        if opening:
            mover, other = (dice.first,), (dice.second,)
            white, black = (mover, other) if player is Player.WHITE else (other, mover)
            game = game.opening_roll(white, black)
        elif game.phase is Phase.ROLL and game.turn is player and not game.extra_throw:
            game = game.roll(dice, player)
        else:
            on_roll = game.turn.label if game.turn is not None else "nobody"
            raise self.fail(raw, f"{player.label} can't roll now ({game.phase.value} phase, "
                                 f"{on_roll} on roll)")
        if game.phase is not Phase.PLAY or game.turn is not player:
            if moves_text:
                raise self.fail(raw, "the roll has no legal move but moves are written")
            actions.append(MatRoll(player, dice))
            return game
        if not moves_text:
            actions.append(MatRoll(player, dice))    # rolled, not played (yet)
            return game
        play = resolve_play(game.position, player, dice, moves_text, game.legal_plays())
        game = game.play(play, player)
        actions.append(MatRoll(player, dice, play.moves))
        return game


def parse_mat(text: str, rules: RuleOptions | None = None) -> ParsedMatch:
    """Read .mat text (this module's, gnubg's, Jellyfish's and XG's layout).

    Every game is replayed with the engine (standard backgammon, ``rules`` or
    the rules the header tags give), so plays come back as legal engine moves
    and the records replay.  Raises :class:`MatParseError` saying where the
    text can't be read or a move is not legal.
    """
    lines = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    tags: list[tuple[str, str]] = []
    comments: list[str] = []
    i = 0
    length: int | None = None
    while i < len(lines):
        line = lines[i].strip()
        i += 1
        if not line:
            continue
        if line[0] in ";#":
            body = line[1:].strip()
            tag = _TAG_RE.match(body)
            if tag:
                tags.append((tag.group(1), tag.group(2)))
            elif body:
                comments.append(body)
            continue
        found = _LENGTH_RE.match(line)
        if found:
            length = int(found.group(1))
            break
    if length is None:
        raise MatParseError("Not a .mat file: no 'N point match' line.")
    tag_map = {k.lower(): v for k, v in tags}
    if rules is None:
        rules = _rules_from_tags(tag_map, length)
    elif length:
        rules = replace(rules, jacoby=False, beavers=False)

    # Split the rest into games: "Game N", the score line (read by position, as
    # gnubg does: a name may hold anything but a colon), the move lines.
    blocks: list[tuple[int, tuple[int, str] | None, list[tuple[int, str]]]] = []
    while i < len(lines):
        line = lines[i]
        i += 1
        found = _GAME_RE.match(line)
        if found:
            while i < len(lines) and not lines[i].strip():
                i += 1
            score_line = (i + 1, lines[i]) if i < len(lines) else None
            i += 1
            blocks.append((int(found.group(1)), score_line, []))
        elif blocks and line.strip():
            blocks[-1][2].append((i, line))

    names: tuple[str, str] | None = None
    games: list[ParsedGame] = []
    post_crawford = False
    for number, score_line, move_lines in blocks:
        if score_line is None:
            raise MatParseError(f"Game {number} has no score line.")
        score = _SCORE_RE.match(score_line[1])
        if not score:
            raise MatParseError(f"Line {score_line[0]}: not a score line 'name : score  "
                                f"name : score': {score_line[1].strip()!r}")
        names = names or (score.group(1), score.group(3))
        before = (int(score.group(2)), int(score.group(4)))
        if length and max(before) >= length:
            break                                # gnubg ignores games after the match
        crawford = False
        if length and rules.crawford and not post_crawford and (
                (before[0] == length - 1) != (before[1] == length - 1)):
            crawford = post_crawford = True
        reader = _GameReader(number, before, _read_entries(move_lines), rules,
                             money=length == 0, crawford=crawford)
        games.append(reader.read())
    if names is None:
        names = (tag_map.get("player 1", "Player 1"), tag_map.get("player 2", "Player 2"))
    return ParsedMatch(length, names, tuple(tags), tuple(comments), rules, tuple(games))


__all__ = [
    "FILE_PLAYERS",
    "MatAction",
    "MatBeaver",
    "MatDouble",
    "MatDrop",
    "MatExportError",
    "MatGame",
    "MatParseError",
    "MatRoll",
    "MatTake",
    "MatWin",
    "ParsedGame",
    "ParsedMatch",
    "clean_name",
    "export_match",
    "format_moves",
    "game_actions",
    "parse_mat",
]

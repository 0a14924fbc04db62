"""The engine's command-line tool (``python -m engine``).

Commands::

    python -m engine plays POSITION_ID DICE [--variant NAME]
    python -m engine plays - [--variant NAME]      # "POSITION_ID DICE" lines on stdin
    python -m engine show POSITION_ID [MATCH_ID]   # or show POSITION_ID:MATCH_ID

``plays`` prints every distinct legal play, one per line: the play in the
project's notation, a TAB, and the GNU Backgammon Position ID of the
resulting position *with the same player still on roll* (not swapped).  The
player on roll is the one the Position ID is written for.  A roll that cannot
be played prints nothing.  With ``-`` every input line is one case and each
case's plays are followed by one empty line; blank input lines are skipped; a
bad line prints its error on stderr (with its line number), an empty block on
stdout, and the run goes on.  The answers to the lines read so far are written
and flushed before waiting for more input, so a program can drive ``plays -``
one line at a time.

Exit status: 0 on success, 2 for bad input (one line on stderr, never a
traceback; with ``-``, 2 at the end if any line was bad).

This is the only module of the engine that does I/O.
"""

from __future__ import annotations

import argparse
import gc
import sys
from collections.abc import Callable, Iterable, Sequence
from typing import BinaryIO, NoReturn, TextIO

from engine.dice import Dice
from engine.errors import BackgammonError
from engine.gnubgid import decode_match_id, decode_position_id, encode_position_ids
from engine.move import Play
from engine.movegen import legal_plays
from engine.notation import format_play, format_plays
from engine.player import Player
from engine.position import Position
from engine.textboard import text_board
from engine.words import counted

_GC_YOUNG_THRESHOLD = 50_000
"""Allocations between collections of the youngest generation while ``plays -`` runs."""

EXIT_OK = 0
EXIT_BAD_INPUT = 2

ON_ROLL = Player.WHITE
"""The colour given to the player on roll of a bare Position ID (any would do)."""

# -- variants ------------------------------------------------------------------

PlayGenerator = Callable[[Position, Player, Dice], list[Play]]
"""Every distinct legal play of one throw (the empty play alone if none)."""


def _standard_plays(position: Position, player: Player, dice: Dice) -> list[Play]:
    # Higher die first, so that 31 and 13 list the plays in the same order.
    return legal_plays(position, player, dice.high, dice.low)


PLAY_GENERATORS: dict[str, PlayGenerator] = {"standard": _standard_plays}
"""The variants ``plays --variant`` knows, by lower-case name.

This is the hook for variants: add ``PLAY_GENERATORS["russian"] = fn`` (for
instance a function that asks :func:`engine.variant.get_variant` for the
variant's first stage of the throw and its legal plays).  Nothing else in
this module needs to change.  Note that a Position ID cannot hold checkers
that have not entered yet, so variants starting from an empty board can only
be queried once every checker has entered.
"""


PositionCodec = tuple[Callable[[str], tuple[Position, Player]],
                      Callable[[Position, Player], str], Callable[[Play], str]]
"""(decode position text -> position and player on roll, encode, format a play)."""

POSITION_CODECS: dict[str, PositionCodec] = {}
"""Variants whose positions are written as text other than a Position ID, by
name: the book variants use :mod:`engine.variants.postext` (checkers not yet
entered), registered by :mod:`engine.variants.clihook`."""


def _load_variant_hooks() -> None:
    from engine.variants import clihook

    for name, generator in clihook.play_generators().items():
        PLAY_GENERATORS[name] = generator
        POSITION_CODECS[name] = clihook.CODEC


_load_variant_hooks()


def play_generator(name: str) -> PlayGenerator:
    """The generator registered for variant ``name`` (case-insensitive)."""
    key = name.strip().lower()
    try:
        return PLAY_GENERATORS[key]
    except KeyError:
        known = ", ".join(sorted(PLAY_GENERATORS))
        raise BackgammonError(
            f"the variant {name!r} is not available here; choose one of: {known}"
        ) from None


# -- notation ------------------------------------------------------------------


def _fallback_format(play: Play) -> str:
    return " ".join(str(m) for m in play.moves)


def _load_formatter() -> Callable[[Play], str]:
    """``engine.notation.format_play`` if present, else moves joined by spaces."""
    try:
        from engine import notation
    except ImportError:
        return _fallback_format
    formatter = getattr(notation, "format_play", None)
    return formatter if callable(formatter) else _fallback_format


# -- the commands --------------------------------------------------------------


def plays_lines(position_id: str, dice_text: str, generator: PlayGenerator,
                formatter: Callable[[Play], str], codec: PositionCodec | None = None) -> list[str]:
    """The output lines of one ``plays`` case (raises BackgammonError on bad input)."""
    if codec is not None:
        decode, encode, formatter = codec
        position, on_roll = decode(position_id)
    else:
        position, on_roll = _decode(position_id), ON_ROLL
    dice = _parse_dice(dice_text)
    plays = [play for play in generator(position, on_roll, dice) if play.moves]
    if codec is not None:
        return [f"{formatter(play)}\t{encode(play.position, on_roll)}" for play in plays]
    # Many plays at once: the texts from one cache, the IDs in one pass.
    texts = format_plays(plays) if formatter is format_play else list(map(formatter, plays))
    after = encode_position_ids([play.position for play in plays], ON_ROLL)
    return list(map("\t".join, zip(texts, after, strict=True)))


_LAST_DECODED: list[tuple[str, Position]] = []
"""The last Position ID read and its position (the cases of one position, one roll
after the other, come on consecutive lines)."""


def _decode(position_id: str) -> Position:
    if _LAST_DECODED and _LAST_DECODED[0][0] == position_id:
        return _LAST_DECODED[0][1]
    position = decode_position_id(position_id, ON_ROLL)
    _LAST_DECODED[:] = [(position_id, position)]
    return position


_DICE: dict[str, Dice] = {}
"""Rolls by their text (a few dozen spellings, read again on every line)."""


def _parse_dice(text: str) -> Dice:
    dice = _DICE.get(text)
    if dice is None:
        dice = Dice.parse(text)
        if len(_DICE) < 256:
            _DICE[text] = dice
    return dice


def _run_stdin(lines: Iterable[str], out: TextIO, err: TextIO, generator: PlayGenerator,
               formatter: Callable[[Play], str], codec: PositionCodec | None = None,
               first_number: int = 1) -> int:
    """Answer each line (numbered from ``first_number``); write the answers at the end."""
    status = EXIT_OK
    chunks: list[str] = []
    for number, raw in enumerate(lines, first_number):
        fields = raw.split()
        if not fields:
            continue
        try:
            if len(fields) != 2:
                raise BackgammonError(
                    f"expected 'POSITION_ID DICE', got {counted(len(fields), 'field')}"
                )
            block = plays_lines(fields[0], fields[1], generator, formatter, codec)
            if block:
                chunks.append("\n".join(block))
                chunks.append("\n")
        except (BackgammonError, ValueError) as exc:
            err.write(f"line {number}: {exc}\n")
            status = EXIT_BAD_INPUT
        chunks.append("\n")
        if len(chunks) > 4096:
            out.write("".join(chunks))
            chunks.clear()
    out.write("".join(chunks))
    return status


_READ_SIZE = 1 << 16
"""The most bytes of input read at once by :func:`_run_stream`."""


def _run_stream(raw: BinaryIO, out: TextIO, err: TextIO, generator: PlayGenerator,
                formatter: Callable[[Play], str], codec: PositionCodec | None = None) -> int:
    """:func:`_run_stdin` over a byte stream, answering whatever has arrived.

    Each read returns the input already there (up to 64 KiB, waiting only when
    there is none); its complete lines are answered and the answers written and
    flushed before the next read.  So a program that writes one line and waits
    gets its answer at once, and a file or a fast pipe is still answered in large
    blocks.  Bytes that are not UTF-8 make that line bad, not the run.
    """
    status = EXIT_OK
    number = 1
    pending = b""
    read = getattr(raw, "read1", raw.read)
    while True:
        data = read(_READ_SIZE)
        if not data:
            break
        pending += data
        end = pending.rfind(b"\n") + 1
        if not end:
            continue
        lines = pending[:end].decode("utf-8", "replace").split("\n")[:-1]
        pending = pending[end:]
        status = max(status, _run_stdin(lines, out, err, generator, formatter, codec,
                                        number))
        number += len(lines)
        out.flush()
    if pending:
        status = max(status, _run_stdin([pending.decode("utf-8", "replace")], out, err,
                                        generator, formatter, codec, number))
    out.flush()
    return status


def _cmd_plays(args: argparse.Namespace, stdin: TextIO, out: TextIO, err: TextIO) -> int:
    generator = play_generator(args.variant)
    formatter = _load_formatter()
    codec = POSITION_CODECS.get(args.variant.strip().lower())
    if args.position_id == "-":
        if args.dice is not None:
            raise BackgammonError("with '-' the cases come from stdin; give no DICE argument")
        # Each case allocates a few hundred short-lived objects, freed by reference
        # counting; the young generation's collections would walk them for nothing.
        threshold = gc.get_threshold()
        gc.set_threshold(max(threshold[0], _GC_YOUNG_THRESHOLD), *threshold[1:])
        try:
            raw = getattr(stdin, "buffer", None)
            if raw is None:  # a text stream without bytes under it (a test's StringIO)
                return _run_stdin(stdin, out, err, generator, formatter, codec)
            return _run_stream(raw, out, err, generator, formatter, codec)
        finally:
            gc.set_threshold(*threshold)
    if args.dice is None:
        raise BackgammonError("give the dice after the Position ID, like: plays 4HPwATDgc/ABMA 31")
    for line in plays_lines(args.position_id, args.dice, generator, formatter, codec):
        out.write(line + "\n")
    return EXIT_OK


def _cmd_show(args: argparse.Namespace, stdin: TextIO, out: TextIO, err: TextIO) -> int:
    position_id: str = args.position_id
    match_id: str | None = args.match_id
    if ":" in position_id:
        if match_id is not None:
            raise BackgammonError("give the Match ID either after a colon or as a second "
                                  "argument, not both")
        position_id, _, match_id = position_id.partition(":")
    if match_id:
        match = decode_match_id(match_id)
        position = decode_position_id(position_id, match.on_roll)
        out.write(text_board(position, match.on_roll, match=match, show_ids=True))
    else:
        position = decode_position_id(position_id, ON_ROLL)
        out.write(text_board(position, ON_ROLL, show_ids=True))
    return EXIT_OK


# -- argument parsing ----------------------------------------------------------


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose usage errors are one line on stderr and exit 2."""

    def error(self, message: str) -> NoReturn:
        sys.stderr.write(f"{self.prog}: {message} (try --help)\n")
        raise SystemExit(EXIT_BAD_INPUT)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m engine",
                     description="Backgammon engine tools: legal plays and boards.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    plays = sub.add_parser(
        "plays", help="list every legal play of a roll",
        description="Print each distinct legal play: notation, TAB, Position ID after the "
                    "play (same player on roll). Use '-' to read 'POSITION_ID DICE' lines "
                    "from stdin; each case is followed by an empty line.")
    plays.add_argument("position_id", metavar="POSITION_ID",
                       help="GNU Backgammon Position ID, or '-' for stdin")
    plays.add_argument("dice", metavar="DICE", nargs="?", help="the roll, like 31 or 3-1")
    plays.add_argument("--variant", default="standard",
                       help=f"rule variant (available: {', '.join(sorted(PLAY_GENERATORS))})")
    plays.set_defaults(func=_cmd_plays)
    show = sub.add_parser("show", help="draw a position as text",
                          description="Draw the position (and match state) as a text board.")
    show.add_argument("position_id", metavar="POSITION_ID",
                      help="GNU Backgammon Position ID (or POSITION_ID:MATCH_ID)")
    show.add_argument("match_id", metavar="MATCH_ID", nargs="?", help="GNU Backgammon Match ID")
    show.set_defaults(func=_cmd_show)
    return parser


def main(argv: Sequence[str] | None = None, *, stdin: TextIO | None = None,
         stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    """Run the tool; returns the exit status."""
    stdin = stdin if stdin is not None else sys.stdin
    out = stdout if stdout is not None else sys.stdout
    err = stderr if stderr is not None else sys.stderr
    args = build_parser().parse_args(argv)
    func: Callable[[argparse.Namespace, TextIO, TextIO, TextIO], int] = args.func
    try:
        return func(args, stdin, out, err)
    except (BackgammonError, ValueError) as exc:
        err.write(f"error: {exc}\n")
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        return EXIT_OK

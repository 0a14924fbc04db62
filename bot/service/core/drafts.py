"""What a turn in progress looks like: the moves entered so far (a play typed in parts)
or a whole play waiting for Confirm are drawn on the board, with the dice they used
greyed, and the stage of the throw being played is named (issue 19, items 2 and 3).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import pairwise

from bot.service.core.state import MatchState
from engine.dice import Dice
from engine.errors import BackgammonError
from engine.game import Game, Phase
from engine.interpret import partial_board
from engine.move import Move
from engine.position import Position
from engine.steps import Partial, Steps
from engine.variant import Stage, StandardBackgammon


@dataclass(frozen=True, slots=True)
class DraftShown:
    """The position after the moves entered this turn, and which shown dice they used."""

    position: Position
    dice_used: tuple[bool, ...]
    moves: tuple[Move, ...] = ()
    """The whole play, when it waits for Confirm (drawn as the last play)."""


def _phase_shown(game: Game) -> Phase:
    """The phase whose dice are shown: while an offer to resign waits, the phase it
    interrupted (the mover keeps his dice on the board: issue 30 item 2)."""
    if game.phase is Phase.RESIGNATION and game.suspended is not None:
        return game.suspended
    return game.phase


def _stage(game: Game) -> Stage | None:
    """The stage being played (also under an offer to resign)."""
    step = game.step
    return step if isinstance(step, Stage) and _phase_shown(game) is Phase.PLAY else None


def shown_dice(game: Game) -> tuple[int, int] | None:
    """The dice the board shows: those of the stage being played (the reverse side of a
    doublet, the doublet named after acey-deucy), else the throw."""
    if _phase_shown(game) not in (Phase.PLAY, Phase.CHOICE) or game.dice is None:
        return None
    stage = _stage(game)
    if stage is not None and len(stage.dice) >= 2:
        return stage.dice[0], stage.dice[1]
    return game.dice.first, game.dice.second


def stage_kind(stage: Stage | None, thrown: Dice | None) -> str:
    """How the dice of ``stage`` came when they are not the throw ``thrown``: "named"
    (the doublet named after acey-deucy), "reverse side" (the second stage of a
    doublet), "" (the throw itself)."""
    if stage is None or thrown is None or sorted(stage.dice) == sorted(thrown.moves()):
        return ""
    if "named" in stage.label:
        return "named"
    if "reverse side" in stage.label:
        return "reverse side"
    return ""


def shown_stage(game: Game) -> tuple[str, tuple[int, int] | None]:
    """(how the dice shown came, the throw they come from) for the board: ("", None) for a
    plain throw (issue 30 item 4)."""
    dice = game.dice
    if dice is None:
        return "", None
    kind = stage_kind(_stage(game), dice)
    return kind, ((dice.first, dice.second) if kind else None)


def choice_dice_used(game: Game) -> tuple[bool, ...]:
    """While the doublet after acey-deucy is being chosen, the 1 and 2 already played are
    greyed (issue 30 item 4)."""
    choice = game.pending_choice
    if choice is None or choice.kind != "doublet" or game.dice is None:
        return ()
    return (True, True)


def stage_owed(game: Game) -> bool:
    """The stage to play is not the throw itself (a second stage of a variant's turn)."""
    stage = game.stage
    return (stage is not None and game.dice is not None
            and sorted(stage.dice) != sorted(game.dice.moves()))


def stage_text(game: Game) -> str:
    """The dice to play now: "3-1", or "4-4 (the reverse side, four 4s)"."""
    dice = shown_dice(game)
    if dice is None:
        return ""
    text = f"{dice[0]}-{dice[1]}"
    stage = game.stage
    if stage_owed(game) and stage is not None:
        label = stage.label or f"four {stage.dice[0]}s"
        assert game.dice is not None
        text += f" ({label}, owed after the {game.dice.first}-{game.dice.second})"
    return text


def _used(shown: tuple[int, int], left: tuple[int, ...]) -> tuple[bool, ...]:
    """Flags of the shown dice (four for a doublet) already played, ``left`` not."""
    if shown[0] == shown[1]:
        played = 4 - len(left)
        return tuple(i < played for i in range(4))
    rest = list(left)
    flags = []
    for die in shown:
        if die in rest:
            rest.remove(die)
            flags.append(False)
        else:
            flags.append(True)
    return tuple(flags)


def draft_partial(state: MatchState, game_id: int, game: Game
                  ) -> tuple[Steps, Partial] | None:
    """The steps of the stage being played and the play entered so far (the draft, or
    nothing yet), in every variant: the move builder's steps replayed (issue 31), else moves
    typed in parts (standard backgammon) read as :func:`~engine.interpret.partial_board`
    reads them.  None when no play is awaited or the draft fits no legal play."""
    tree = Steps.of_game(game)
    if tree is None or game.turn is None:
        return None
    draft = state.draft
    if draft is None or not draft.fits(game_id, len(game.record)) or not draft.text.strip():
        return tree, tree.start()
    partial = tree.replay(draft.text.split())
    if partial is not None:
        return tree, partial
    shown = shown_dice(game)
    if shown is None or not isinstance(game.variant, StandardBackgammon):
        return None
    found = partial_board(game.position, game.turn, Dice(*shown), draft.text,
                          game.legal_plays(), opposite=game.variant.opposite)
    if found is None:
        return None
    return tree, tree.resume(*found)


_COUNTED = re.compile(r"(.*?)\((\d)\)")


def step_words(text: str) -> list[str]:
    """Typed moves as single steps, as the move builder writes them
    (:attr:`engine.steps.Step.word`):
    ``24/18/13`` is ``24/18 18/13``, ``in/21(2)`` is ``in/21 in/21``, ``13-10`` is ``13/10``
    (a word that is no move is left as it is, for :meth:`~engine.steps.Steps.replay` to
    refuse)."""
    out: list[str] = []
    for word in text.lower().replace(",", " ").split():
        word = word.replace("-", "/")
        counted = _COUNTED.fullmatch(word)
        body, times = (counted[1], int(counted[2])) if counted else (word, 1)
        points = body.split("/")
        hops = [f"{a.rstrip('*')}/{b}" for a, b in pairwise(points)]
        out += (hops or [word]) * times
    return out


def typed_steps(game: Game, text: str) -> tuple[Steps, Partial, list[str]] | None:
    """A play typed in parts in a variant other than standard backgammon (whose typed moves
    :func:`~engine.interpret.resolve_play` reads itself): the steps of the stage, the play
    the typed moves (:func:`step_words`) make so far, and those words; None when they are
    not the start of a legal play of the stage."""
    tree = Steps.of_game(game)
    if tree is None or isinstance(game.variant, StandardBackgammon):
        return None
    words = step_words(text)
    partial = tree.replay(words) if words else None
    if partial is None:
        return None
    return tree, partial, words


def draft_shown(state: MatchState, game_id: int, game: Game) -> DraftShown | None:
    """The draft of the turn in progress as it is to be drawn (None: nothing entered)."""
    if game.phase is not Phase.PLAY or game.turn is None or game.stage is None:
        return None
    shown = shown_dice(game)
    assert shown is not None
    seq = len(game.record)
    pending = state.pending
    if pending is not None and pending.fits(game_id, seq):
        try:
            play = game.variant.resolve_play(pending.text, game.position, game.turn,
                                             game.stage, game.legal_plays())
        except BackgammonError:
            return None
        return DraftShown(play.position, (True,) * len(Dice(*shown).moves()), play.moves)
    draft = state.draft
    if draft is None or not draft.fits(game_id, seq):
        return None
    found = draft_partial(state, game_id, game)
    if found is None:
        return None
    partial = found[1]
    return DraftShown(partial.position, _used(shown, partial.dice))

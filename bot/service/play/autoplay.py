"""Automatic play: what needs no decision is done by the service itself -- opening
throws, rolls when doubling is not possible, forced plays -- until a player must decide."""

from __future__ import annotations

from bot.service.core.present import dice_text, play_text
from bot.service.core.work import Work
from bot.service.play.endings import Endings
from engine.dice import Dice
from engine.game import Game, Phase
from engine.player import Player

MAX_STEPS = 200


def note_empty(work: Work, before: Game) -> None:
    """Say so when a throw could not be played at all."""
    game = work.game
    assert game is not None
    if before.turn is not None and game.turn is not before.turn and game.phase is Phase.ROLL:
        work.lines.append(f"{work.name(before.turn)} can't move.")


def opening(work: Work) -> None:
    """Throw the opening (one die or two each, as the variant's rules say)."""
    game = work.game
    assert game is not None
    each = game.variant.opening_method(game.rules).dice_each
    white = tuple(work.draw() for _ in range(each))
    black = tuple(work.draw() for _ in range(each))
    work.game = game.opening_roll(white, black)
    w = "-".join(map(str, white))
    b = "-".join(map(str, black))
    text = f"Opening throw: {work.name(Player.WHITE)} {w}, {work.name(Player.BLACK)} {b}."
    after = work.game
    if after.phase is Phase.OPENING:
        text += " A tie: both throw again."
        if after.automatic_doubles > game.automatic_doubles:
            text += f" Automatic double: the cube is now {after.cube.value}."
    elif after.turn is not None:
        text += f" {work.name(after.turn)} goes first."
    work.lines.append(text)


class AutoPlay:
    """Plays on after every action until someone must decide."""

    def __init__(self, endings: Endings) -> None:
        self.endings = endings

    async def auto(self, work: Work, *, roll_waits: Player | None = None) -> None:
        """Do what needs no decision; stop when a player must decide.

        ``roll_waits``: the player whose throw, when his turn comes after the play just
        made, waits for him even if he may not double -- the play can be taken back until
        he rolls, as when he could double (issue 30 item 17)."""
        for _ in range(MAX_STEPS):
            game = work.game
            if game is None or game.is_finished:
                return
            if game.phase is Phase.OPENING:
                opening(work)
                continue
            if (game.phase is Phase.ROLL and game.turn is not None
                    and game.turn is roll_waits and not game.extra_throw):
                return
            if game.phase is Phase.ROLL and game.turn is not None and (
                    game.extra_throw or not game.may_double(game.turn)):
                dice = Dice(work.draw(), work.draw())
                work.game = game.roll(dice, game.turn)
                work.lines.append(f"{work.name(game.turn)} rolled {dice_text(dice)}.")
                note_empty(work, game)
                continue
            if game.phase is Phase.PLAY and game.turn is not None:
                plays = game.legal_plays()
                if len(plays) == 1:
                    play = plays[0]
                    work.game = game.play(play, game.turn)
                    work.lines.append(
                        f"{work.name(game.turn)} plays {play_text(game, play)} (forced).")
                    await self.after_play(work)
                    continue
            return

    async def after_play(self, work: Work) -> None:
        """A play was made: the turn's draft is spent; a finished game is recorded."""
        work.state = work.state.with_(draft=None, pending=None)
        if work.game is not None and work.game.is_finished:
            await self.endings.finish(work)

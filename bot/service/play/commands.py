"""The player's commands during a game: roll, the cube, moves, undo, confirm, choose.

Each command is a body run by :class:`~bot.service.core.runner.ActionRunner` as one
transaction; it checks who acts and when, applies the engine's transitions and lets
:class:`~bot.service.play.autoplay.AutoPlay` play on until someone must decide.
"""

from __future__ import annotations

from bot.config import Config
from bot.service.core import money, takeback
from bot.service.core.drafts import stage_owed, stage_text, typed_steps
from bot.service.core.limits import clean
from bot.service.core.present import dice_text, draft_text, example, play_text
from bot.service.core.replies import Refusal, Reply
from bot.service.core.runner import ActionRunner
from bot.service.core.state import Draft
from bot.service.core.values import Actor, Expect, Place
from bot.service.core.work import Work
from bot.service.play.autoplay import AutoPlay, note_empty
from bot.service.play.endings import Endings
from engine.dice import Dice
from engine.errors import (
    BackgammonError,
    CubeError,
    IllegalPlayError,
    IncompletePlayError,
    NotationError,
)
from engine.game import Action as GameAction
from engine.game import Game, Phase
from engine.move import Play
from engine.notation import format_typed, parse_moves
from engine.player import Player
from engine.record import Beaver, DoubleOffered, Drop, Take
from engine.variant import Stage
from engine.words import article

_DOING = {Phase.DOUBLED: "answer the double", Phase.RESIGNATION: "answer the resignation",
          Phase.PLAY: "play", Phase.CHOICE: "choose", Phase.ROLL: "roll or double"}


def expect_turn(work: Work, player: Player) -> Game:
    """The game, or a refusal unless ``player`` is the one who must act now."""
    game = work.current_game()
    waiting = game.awaiting
    if waiting is not None and waiting is not player:
        raise Refusal(f"It's not your turn: {waiting_for(work, game)}.")
    return game


def waiting_for(work: Work, game: Game) -> str:
    """What the game waits for now and who must answer it, for a refusal of something
    else: "bob doubled to 2, and alice must take or drop it"."""
    offer = game.cube.offer
    if game.phase is Phase.DOUBLED and offer is not None:
        beaver = (offer.answerer, GameAction.BEAVER) in game.available_actions()
        answers = "take, drop or beaver" if beaver else "take or drop"
        what = "beavered" if offer.beaver else "doubled"
        return (f"{work.name(offer.doubler)} {what} to {offer.value}, and "
                f"{work.name(offer.answerer)} must {answers} it")
    resignation = game.resignation
    if game.phase is Phase.RESIGNATION and resignation is not None:
        return (f"{work.name(resignation.player)} offers to resign "
                f"{article(resignation.kind.label)}, and "
                f"{work.name(resignation.player.other)} must accept or reject it (/answer "
                "accept or /answer reject)")
    waiting = game.awaiting
    if waiting is None:
        return "nobody is to act in this game now"
    return f"{work.name(waiting)} must {_DOING.get(game.phase, 'act')}"


def refuse_answered(work: Work, game: Game) -> None:
    """A take or drop when no double waits: say so when the last double was taken (a
    second /take racing the first), naming who took it."""
    if game.phase is Phase.DOUBLED:
        return
    for event in reversed(game.record):
        if isinstance(event, Take):
            raise Refusal(f"There is no double to answer: {work.name(event.player)} already "
                          f"took it, and the cube is at {game.cube.value}.")
        if isinstance(event, DoubleOffered | Drop | Beaver):
            return


def stage_of(game: Game) -> Stage:
    stage = game.stage
    if stage is None:
        raise Refusal("There is nothing to play now.")
    return stage


class Commands:
    """Roll, double, take, drop, beaver, move, undo, confirm, choose."""

    def __init__(self, runner: ActionRunner, autoplay: AutoPlay, endings: Endings,
                 config: Config) -> None:
        self.runner = runner
        self.autoplay = autoplay
        self.endings = endings
        self.config = config

    # ------------------------------------------------------------------ dice

    async def roll(self, place: Place, actor: Actor, expect: Expect | None = None) -> Reply:
        async def op(work: Work) -> None:
            player = work.player_of(work.actor)
            game = expect_turn(work, player)
            if game.phase is not Phase.ROLL:
                raise Refusal(self._why_not_roll(game))
            dice = Dice(work.draw(), work.draw())
            work.game = game.roll(dice, player)
            work.lines.append(f"{work.name(player)} rolled {dice_text(dice)}.")
            note_empty(work, game)
            await self.autoplay.auto(work)

        return await self.runner.run(place, actor, op, expect=expect)

    @staticmethod
    def _why_not_roll(game: Game) -> str:
        if game.phase is Phase.PLAY and game.dice is not None:
            return (f"You have already rolled {dice_text(game.dice)}: play "
                    f"{stage_text(game)} with /move (for example /move {example(game)}).")
        try:
            game.roll(Dice(1, 2), game.turn)
        except BackgammonError as error:
            return str(error)
        return "You can't roll now."

    # ------------------------------------------------------------------ the cube

    async def double(self, place: Place, actor: Actor, expect: Expect | None = None) -> Reply:
        async def op(work: Work) -> None:
            player = work.player_of(work.actor)
            game = work.current_game()
            try:
                work.game = game.double(player)
            except CubeError:
                money.check_double(work, game.cube.value * 2)  # the money bound says why
                raise
            money.check_double(work, game.cube.value * 2)
            work.lines.append(f"{work.name(player)} doubles to {game.cube.value * 2}.")

        return await self.runner.run(place, actor, op, expect=expect)

    async def take(self, place: Place, actor: Actor, expect: Expect | None = None) -> Reply:
        async def op(work: Work) -> None:
            if await work.seating.answer_double(work, take=True):
                return
            player = work.player_of(work.actor)
            refuse_answered(work, work.current_game())
            game = expect_turn(work, player)
            work.game = game.take(player)
            work.lines.append(f"{work.name(player)} takes: the cube is at "
                              f"{work.game.cube.value}.")
            await self.autoplay.auto(work)

        return await self.runner.run(place, actor, op, expect=expect)

    async def drop(self, place: Place, actor: Actor, expect: Expect | None = None) -> Reply:
        async def op(work: Work) -> None:
            if await work.seating.answer_double(work, take=False):
                return
            player = work.player_of(work.actor)
            refuse_answered(work, work.current_game())
            game = expect_turn(work, player)
            work.game = game.drop(player)
            work.lines.append(f"{work.name(player)} drops.")
            await self.endings.finish(work)
            await self.autoplay.auto(work)

        return await self.runner.run(place, actor, op, expect=expect)

    async def beaver(self, place: Place, actor: Actor, expect: Expect | None = None) -> Reply:
        async def op(work: Work) -> None:
            player = work.player_of(work.actor)
            game = expect_turn(work, player)
            offer = game.cube.offer
            try:
                work.game = game.beaver(player)
            except CubeError:
                if offer is not None and offer.answerer is player and game.rules.beavers:
                    money.check_double(work, offer.value * 2)  # the money bound says why
                raise
            assert offer is not None
            money.check_double(work, offer.value * 2)
            assert work.game.cube.offer is not None
            work.lines.append(f"{work.name(player)} beavers: the cube goes to "
                              f"{work.game.cube.offer.value}, and "
                              f"{work.name(player.other)} must take or drop.")

        return await self.runner.run(place, actor, op, expect=expect)

    # ------------------------------------------------------------------ moves

    async def move(self, place: Place, actor: Actor, text: str,
                   expect: Expect | None = None) -> Reply:
        """Enter moves for the current roll (all at once, or a few at a time)."""
        async def op(work: Work) -> None:
            player = work.player_of(work.actor)
            game = expect_turn(work, player)
            typed = clean(text, "move")
            if game.phase is not Phase.PLAY:
                if game.phase is Phase.ROLL and game.turn is player:
                    raise Refusal("You must roll before moving: use /roll"
                                  + (" (or /double first)." if game.may_double(player)
                                     else "."))
                raise Refusal(self._why_not_move(game))
            combined = f"{draft_text(work, game)} {typed}".strip()
            stage = stage_of(game)
            try:
                play = game.variant.resolve_play(combined, game.position, player, stage,
                                                 game.legal_plays())
            except IncompletePlayError as error:
                if not typed:
                    raise
                combined = format_typed(parse_moves(combined))  # "13-10" is written 13/10
                work.state = work.state.with_(
                    draft=Draft(work.game_id, len(game.record), combined), pending=None)
                work.lines.append(f"{work.name(player)} has played {combined} so far. {error}")
                return
            except (NotationError, IllegalPlayError) as error:
                # A variant's play typed in parts: read as the move builder's steps.
                steps = typed_steps(game, combined) if typed else None
                if steps is None:
                    if isinstance(error, NotationError):
                        raise Refusal(f"{error} Example: /move {example(game)}") from None
                    if stage_owed(game):  # the second stage of a variant's turn is owed
                        raise Refusal(f"{error} Now you play {stage_text(game)}: for "
                                      f"example /move {example(game)}.") from None
                    raise
                tree, partial, words = steps
                finished = tree.finished(partial)
                if finished is None:
                    combined = " ".join(words)
                    work.state = work.state.with_(
                        draft=Draft(work.game_id, len(game.record), combined), pending=None)
                    left = ", ".join(str(d) for d in partial.dice)
                    work.lines.append(f"{work.name(player)} has played {combined} so far. "
                                      f"Still to play: {left} (/steps lists the next "
                                      "steps).")
                    return
                play = finished
            await self.apply_play(work, game, player, play)

        return await self.runner.run(place, actor, op, expect=expect)

    @staticmethod
    def _why_not_move(game: Game) -> str:
        if game.phase is Phase.DOUBLED:
            return "A double is waiting for an answer: take or drop first."
        if game.phase is Phase.CHOICE and game.pending_choice is not None:
            return (f"Choose first: {game.pending_choice.prompt} (/choose "
                    f"{' | '.join(game.pending_choice.options)})")
        if game.phase is Phase.RESIGNATION:
            return "A resignation offer is waiting for an answer."
        return "There is nothing to move now."

    async def apply_play(self, work: Work, game: Game, player: Player, play: Play) -> None:
        """Make ``play`` (a legal play of the stage) for ``player``, or hold it for Confirm
        when the config asks for Confirm: the one way a play is made (/move, /confirm and
        the move builder's last step)."""
        if not self.config.game.auto_confirm and not work.confirming:
            work.state = work.state.with_(
                pending=Draft(work.game_id, len(game.record), play_text(game, play)))
            work.lines.append(f"{work.name(player)} will play {play_text(game, play)}: "
                              "Confirm, or Undo to change it.")
            return
        game_id = work.game_id
        work.game = game.play(play, player)
        work.lines.append(f"{work.name(player)} plays {play_text(game, play)}.")
        await self.autoplay.after_play(work)
        # The opponent's throw waits for him (his Roll button), also when he may not
        # double: the play can be taken back until then, the same window for everyone
        # (issue 30 item 17).  The AI takes no play back: after its play the throw is
        # automatic as before.
        ai = work.state.ai.user if work.state.ai is not None else None
        waits = player.other if work.user(player) != ai else None
        await self.autoplay.auto(work, roll_waits=waits)
        takeback.hold_play(work, player, game, game_id)

    async def undo(self, place: Place, actor: Actor, expect: Expect | None = None) -> Reply:
        """Take back the moves entered so far this turn (before the play is final)."""
        async def op(work: Work) -> None:
            player = work.player_of(work.actor)
            if takeback.take_back(work, work.actor):  # a finished play, until the opponent acts
                return
            game = expect_turn(work, player)
            if work.state.pending is not None:
                work.state = work.state.with_(pending=None)
                work.lines.append("The play is taken back: enter it again with /move.")
                return
            draft = draft_text(work, game)
            if not draft or work.state.draft is None:
                raise Refusal("Nothing to undo: no moves are entered this turn, and a "
                              "finished play can be taken back only until the opponent acts."
                              + (" (With Confirm turned on in the bot's config, each play "
                                 "waits for /confirm before it counts.)"
                                 if self.config.game.auto_confirm else ""))
            parts = draft.split()
            rest = " ".join(parts[:-1])
            if rest:
                work.state = work.state.with_(draft=Draft(work.state.draft.game,
                                                          work.state.draft.seq, rest))
                work.lines.append(f"Undone {parts[-1]}; entered so far: {rest}.")
            else:
                work.state = work.state.with_(draft=None)
                work.lines.append(f"Undone {parts[-1]}; nothing entered yet this turn.")

        return await self.runner.run(place, actor, op, expect=expect)

    async def confirm(self, place: Place, actor: Actor, expect: Expect | None = None) -> Reply:
        async def op(work: Work) -> None:
            player = work.player_of(work.actor)
            game = expect_turn(work, player)
            pending = work.state.pending
            if pending is None or pending.seq != len(game.record):
                raise Refusal("There is no play waiting for confirmation: enter one with /move.")
            stage = stage_of(game)
            play = game.variant.resolve_play(pending.text, game.position, player,
                                             stage, game.legal_plays())
            work.state = work.state.with_(pending=None)
            work.confirming = True
            try:
                await self.apply_play(work, game, player, play)
            finally:
                work.confirming = False

        return await self.runner.run(place, actor, op, expect=expect)

    async def choose(self, place: Place, actor: Actor, option: str,
                     expect: Expect | None = None) -> Reply:
        async def op(work: Work) -> None:
            player = work.player_of(work.actor)
            game = expect_turn(work, player)
            if game.phase is not Phase.CHOICE:
                raise Refusal("There is no choice to make now.")
            pending = game.pending_choice
            if not option.strip() and pending is not None:  # issue 30 item 12
                raise Refusal(f"{pending.prompt} Name one: /choose "
                              + " | ".join(pending.options) + ".")
            picked = clean(option, "choice")
            work.game = game.choose(picked, player)
            work.lines.append(f"{work.name(player)} chooses {picked}.")
            await self.autoplay.auto(work)

        return await self.runner.run(place, actor, op, expect=expect)

"""The move builder's actions: show the steps (``/steps``, the Play button), take one
(``/step N``, a pick in a menu), undo the last one, start over.

What is entered so far is the turn's draft (:class:`~bot.service.core.state.Draft`), the
one ``/move`` writes when a play is typed in parts, so typing and tapping mix; a step that
completes a legal play makes it through :meth:`~bot.service.play.commands.Commands.apply_play`
(at once, or held for Confirm when the config asks for it), the way ``/move`` does.  A step
that only adds to the draft is answered privately: the table sees the play once it is made.
"""

from __future__ import annotations

from dataclasses import replace

from bot.service.builder.listing import Listing
from bot.service.core import present
from bot.service.core.drafts import draft_partial, stage_text
from bot.service.core.limits import clean
from bot.service.core.replies import Action, BuilderView, Button, Refusal, Reply, StepChoice
from bot.service.core.runner import ActionRunner
from bot.service.core.state import Draft
from bot.service.core.values import Actor, Expect, Place, bad_ids
from bot.service.core.work import Work
from bot.service.play.commands import Commands, expect_turn, waiting_for
from engine.game import Game, Phase
from engine.move import Play
from engine.player import Player
from engine.steps import Partial, Steps, play_label

MOVED_ON = ("This game has moved on since that button was shown: the turn it was for is "
            "over. Use the latest board's buttons.")
STALE_DRAFT = ("The moves entered so far no longer fit a legal play: Start over (or /undo) "
               "and enter the play again.")


class Builder:
    """The move builder of the player to play."""

    def __init__(self, runner: ActionRunner, commands: Commands) -> None:
        self.runner = runner
        self.commands = commands

    # ------------------------------------------------------------------ looking

    async def steps(self, place: Place, actor: Actor, option: str = "",
                    expect: Expect | None = None) -> Reply:
        """The builder of ``actor``, who must be the player to play or choose now (read
        only).  ``option``: the turn a Play button was shown for (a button of an earlier
        turn is refused); ``expect``: its match."""
        if (bad := bad_ids(place, actor)) is not None:
            return Reply.refuse(bad)
        try:
            async with self.runner.storage.snapshot() as tx:
                loaded = await self.runner.load(tx, place)
                if expect is not None and expect.match_id not in (None, loaded.row.id):
                    raise Refusal("That button belongs to an earlier game in this channel: "
                                  "use the latest board's buttons.")
                work = self.runner.work(tx, loaded, actor)
                view = self.view(work, option.strip())
        except Refusal as refusal:
            return Reply.refuse(str(refusal))
        return Reply(ok=True, text=view.text, ephemeral=True, builder=view,
                     match_id=loaded.row.id, version=loaded.row.version)

    def view(self, work: Work, turn: str = "") -> BuilderView:
        """What the builder shows ``work.actor`` now (a refusal when it is not his play)."""
        player = work.player_of(work.actor)
        game = work.current_game()
        if turn and turn != present.turn_key(work, game):
            raise Refusal(MOVED_ON)
        game = expect_turn(work, player)
        mine = (work.actor.id,)
        head = f"{work.name(player)}, "
        choice = game.pending_choice
        if game.phase is Phase.CHOICE and choice is not None:
            return BuilderView(
                text=head + f"choose: {choice.prompt}",
                buttons=tuple(Button(Action.CHOOSE, o, mine, o) for o in choice.options),
                board=present.board_of(work, game))
        playing(work, game, player)
        head += f"you play {stage_text(game)}."
        board = present.board_of(work, game)
        pending = work.state.pending
        if pending is not None and pending.fits(work.game_id, len(game.record)):
            return BuilderView(
                text=f"{head}\nYour play: {play_label(pending.text)}. Confirm it, or undo "
                     "the last step.",
                buttons=(Button(Action.CONFIRM, "Confirm", mine),
                         Button(Action.UNDO_STEP, "Undo step", mine),
                         Button(Action.START_OVER, "Start over", mine)),
                board=board)
        entered = present.draft_text(work, game)
        edit = (Button(Action.UNDO_STEP, "Undo step", mine),
                Button(Action.START_OVER, "Start over", mine)) if entered else ()
        found = draft_partial(work.state, work.game_id, game)
        if found is None:
            return BuilderView(text=f"{head}\n{STALE_DRAFT}", buttons=edit, board=board)
        tree, partial = found
        listing = Listing.of(game, tree, partial)
        lines = [head]
        if entered:
            lines.append(f"So far: {play_label(entered)}.")
        if listing.steps and listing.plays:
            lines.append("Pick the next step for a die, or the whole play.")
        elif listing.steps:
            lines.append("Pick the next step for a die.")
        steps = tuple(StepChoice(s.word, s.move.src, s.move.dst, s.die, s.move.hit)
                      for s in listing.steps)
        return BuilderView(text="\n".join(lines), menus=listing.menus(partial.dice),
                           buttons=edit, board=board, steps=steps)

    # ------------------------------------------------------------------ acting

    async def step(self, place: Place, actor: Actor, option: str,
                   expect: Expect | None = None) -> Reply:
        """Take the step (or the whole play) ``option`` names (see :meth:`Listing.pick`).
        Answered privately while the play is not made."""
        made = False

        async def op(work: Work) -> None:
            nonlocal made
            player = work.player_of(work.actor)
            game = expect_turn(work, player)
            playing(work, game, player)
            pending = work.state.pending
            if pending is not None and pending.fits(work.game_id, len(game.record)):
                raise Refusal(f"Your play {pending.text} waits for Confirm: confirm it, or "
                              "undo the last step to change it.")
            tree, partial = current(work, game)
            picked = Listing.of(game, tree, partial).pick(game, clean(option, "step"))
            play = picked if isinstance(picked, Play) else tree.finished(
                tree.take(partial, picked))
            if play is None:
                assert not isinstance(picked, Play)
                text = f"{present.draft_text(work, game)} {picked.word}".strip()
                work.state = work.state.with_(
                    draft=Draft(work.game_id, len(game.record), text), pending=None)
                work.lines.append(f"{work.name(player)} has played {text} so far.")
                return
            await self.commands.apply_play(work, game, player, play)
            made = work.game is not game

        reply = await self.runner.run(place, actor, op, expect=expect)
        return private_unless(made, reply)

    async def undo_step(self, place: Place, actor: Actor,
                        expect: Expect | None = None) -> Reply:
        """Take back the last step entered this turn (a play waiting for Confirm waits no
        more: the steps before its last are left)."""
        async def op(work: Work) -> None:
            player = work.player_of(work.actor)
            game = expect_turn(work, player)
            playing(work, game, player)
            entered = present.draft_text(work, game)
            pending = work.state.pending
            if pending is not None and pending.fits(work.game_id, len(game.record)):
                work.state = work.state.with_(pending=None)
                work.lines.append(f"{pending.text} no longer waits for Confirm; "
                                  + so_far(entered))
                return
            words = entered.split()
            if not words or work.state.draft is None:
                raise Refusal("There is no step to undo: nothing is entered this turn.")
            rest = " ".join(words[:-1])
            draft = Draft(work.game_id, len(game.record), rest) if rest else None
            work.state = work.state.with_(draft=draft)
            work.lines.append(f"Undone {words[-1]}; " + so_far(rest))

        return private_unless(False, await self.runner.run(place, actor, op, expect=expect))

    async def start_over(self, place: Place, actor: Actor,
                         expect: Expect | None = None) -> Reply:
        """Take back every step entered this turn (and a play waiting for Confirm)."""
        async def op(work: Work) -> None:
            player = work.player_of(work.actor)
            game = expect_turn(work, player)
            playing(work, game, player)
            pending = work.state.pending
            waiting = pending is not None and pending.fits(work.game_id, len(game.record))
            if not present.draft_text(work, game) and not waiting:
                raise Refusal("There is nothing to start over: nothing is entered this turn.")
            work.state = work.state.with_(draft=None, pending=None)
            work.lines.append("Started over: nothing entered yet this turn.")

        return private_unless(False, await self.runner.run(place, actor, op, expect=expect))


def so_far(entered: str) -> str:
    return f"entered so far: {entered}." if entered else "nothing entered yet this turn."


def private_unless(made: bool, reply: Reply) -> Reply:
    """A builder action that made no play changed only the player's own draft: its answer
    is for him alone."""
    return reply if made or not reply.ok else replace(reply, ephemeral=True)


def playing(work: Work, game: Game, player: Player) -> None:
    """Refuse unless ``player`` has dice to play now."""
    if game.phase is Phase.PLAY and game.turn is player:
        return
    if game.phase is Phase.ROLL and game.turn is player:
        raise Refusal("You have no dice to play yet: roll first (the Roll button or /roll)"
                      + (", or double." if game.may_double(player) else "."))
    raise Refusal(f"There is nothing to play now: {waiting_for(work, game)}.")


def current(work: Work, game: Game) -> tuple[Steps, Partial]:
    """The steps of the stage and the play entered so far, or a refusal saying to start
    over when the draft no longer fits."""
    found = draft_partial(work.state, work.game_id, game)
    if found is None:
        raise Refusal(STALE_DRAFT)
    return found

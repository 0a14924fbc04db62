"""Messages the adapter posted whose ids the service keeps, so that a later action can
retire their buttons (:class:`~bot.service.core.replies.RetireButtons`):

* a tournament's public sign-up message (Join/Leave), stored in the tournament's state
  (:attr:`~bot.service.tournaments.data.TournamentData.signup_message`): the start and the
  cancellation retire its buttons and say so in its text;
* a challenge's message (Accept/Decline), stored in the match's state
  (:attr:`~bot.service.core.state.MatchState.challenge_message`): the accept, the decline and
  the withdrawal retire its buttons, whether a button was pressed or the command typed in
  the challenge's channel or in the channel of its thread.

Noting a challenge's message writes the match row, so its version moves on: the reply
carries the challenge's buttons for the new version, which the adapter puts on the message
it posted without them.  A challenge answered before its message was noted (an answer typed
at once) gives a reply with no buttons: the message keeps none.
"""

from __future__ import annotations

from dataclasses import replace

from bot.service.core.replies import Button, MessageRef, Refusal, Reply, RetireButtons
from bot.service.core.runner import ActionRunner
from bot.service.core.values import Actor, Expect, Place, check_id
from bot.service.core.work import Work
from bot.service.play.challenges import CHALLENGED, waiting_buttons
from bot.service.tournaments.data import find, save
from bot.service.tournaments.signup import Tournaments
from bot.storage.interface import StorageError, TournamentStatus, Transaction


class PostedMessages:
    """Stores the ids of the messages whose buttons a later action retires."""

    def __init__(self, runner: ActionRunner, tournaments: Tournaments) -> None:
        self.runner = runner
        self.tournaments = tournaments

    async def signup_posted(self, place: Place, actor: Actor, tournament: int,
                            message: MessageRef) -> Reply:
        """The sign-up message of ``tournament`` is ``message``.  Should the tournament
        have started (or been cancelled) meanwhile, the reply retires its buttons at once."""
        try:
            check_id(message.channel_id, "channel")
            check_id(message.message_id, "message")
        except Refusal as refusal:
            return Reply.refuse(str(refusal))

        async def body(tx: Transaction) -> Reply:
            loaded = await find(tx, place, tournament)
            saved = await save(tx, loaded, replace(loaded.data, signup_message=message))
            noted = replace(loaded, row=saved, data=replace(loaded.data,
                                                            signup_message=message))
            retire: tuple[RetireButtons, ...] = ()
            if saved.status is not TournamentStatus.SIGNUP:
                retire = self.tournaments.closed_signup(
                    noted, f"Sign-up closed: {noted.title} is {saved.status.value}.")
            return Reply(ok=True, text="", version=saved.version, tournament_id=saved.id,
                         retire=retire)

        return await self.runner.transact(place, actor, body)

    async def challenge_posted(self, place: Place, actor: Actor, expect: Expect,
                               message_id: int) -> Reply:
        """The challenge of ``expect`` (its match and version) is shown by ``message_id`` in
        ``place``; the reply's buttons are the challenge's, for the version after this."""
        try:
            check_id(message_id, "message")
        except Refusal as refusal:
            return Reply.refuse(str(refusal))
        shown: list[Button] = []

        async def op(work: Work) -> None:
            work.state = work.state.with_(challenge_message=message_id)
            shown[:] = waiting_buttons(work.row.white_id, work.row.black_id, work.state)

        noted = await self.runner.run(place, actor, op, expect=expect, statuses=CHALLENGED,
                                      redirect=False)
        if noted.ok:
            return replace(noted, buttons=tuple(shown))
        if expect.match_id is not None and await self._answered(expect.match_id):
            # Answered before its message was noted (a typed /accept racing the post):
            # nothing to retire later, and no buttons to put on it.
            return Reply(ok=True, text="", match_id=expect.match_id)
        return noted

    async def _answered(self, match_id: int) -> bool:
        """Whether the challenge ``match_id`` has been answered (accepted, declined or
        withdrawn; False too when the database cannot tell now)."""
        try:
            async with self.runner.storage.snapshot() as tx:
                row = await tx.get_match(match_id)
        except StorageError:
            return False
        return row is not None and row.status not in CHALLENGED

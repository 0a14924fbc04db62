"""The AI's turns: after an action, the AI acts for as long as its game waits for it.

Each AI action is an ordinary action through the action table: its own transaction,
checked against the version the AI looked at, so a racing command wins cleanly.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import TYPE_CHECKING

from bot.ai.context import MatchContext
from bot.ai.levels import get_level
from bot.service.actions import ActionTable
from bot.service.core.replies import Action, Board, Reply
from bot.service.core.runner import ActionRunner
from bot.service.core.values import Actor, Expect, Place
from bot.storage.interface import MatchStatus
from engine.game import Action as GameAction
from engine.game import Game
from engine.match import Session
from engine.player import Player

if TYPE_CHECKING:
    from bot.ai.player import Decision
    from bot.ai.runner import AIRunner

log = logging.getLogger(__name__)
MAX_TURNS = 1000

_ACTIONS = {GameAction.ROLL: Action.ROLL, GameAction.DOUBLE: Action.DOUBLE,
            GameAction.TAKE: Action.TAKE, GameAction.DROP: Action.DROP,
            GameAction.BEAVER: Action.BEAVER, GameAction.CHOOSE: Action.CHOOSE,
            GameAction.ACCEPT_RESIGNATION: Action.ACCEPT_RESIGNATION,
            GameAction.REJECT_RESIGNATION: Action.REJECT_RESIGNATION,
            GameAction.PLAY: Action.MOVE}


def match_context(session: Session) -> MatchContext:
    """What the AI needs to know of the match or money session."""
    return MatchContext.of(session)


def decision_action(game: Game, decision: Decision) -> tuple[Action, str | None]:
    """The service action (and its option) that carries out the AI's decision."""
    action = _ACTIONS.get(decision.action)
    if action is None:
        raise ValueError(f"The AI has no way to {decision.action.value} now.")
    if action is Action.MOVE:
        if decision.play is None:
            raise ValueError("The AI decided to play without a play.")
        return action, game.variant.format_play(decision.play)
    return action, decision.option


def merge(replies: list[Reply]) -> Reply:
    """One reply for a player's action and the AI's answers to it."""
    if len(replies) == 1:
        return replies[0]
    last = replies[-1]
    # The earlier replies' final boards, each after its own reply's lines (issue 42 item 8:
    # a game's final board before the next game's start).
    finished: list[Board] = []
    offset = 0
    for r in replies[:-1]:
        lines = len(r.text.split("\n")) if r.text else 0
        finished += [replace(b, lines_before=offset + (lines if b.lines_before is None
                                                        else b.lines_before))
                     for b in r.boards if b.view.game_over is not None]
        offset += lines
    shown = tuple(b if b.lines_before is None else replace(b, lines_before=offset
                                                           + b.lines_before)
                  for b in last.boards)
    text = "\n".join(r.text for r in replies if r.text)
    pictures = tuple(p for r in replies for p in r.pictures)
    retire = tuple(x for r in replies for x in r.retire)
    return replace(last, text=text, boards=(*finished, *shown), pictures=pictures,
                   retire=retire)


class AITurns:
    """Drives the AI's side of the games against the bot."""

    def __init__(self, runner: ActionRunner, table: ActionTable, ai: AIRunner | None) -> None:
        self.runner = runner
        self.table = table
        self.ai = ai
        self.actor: Actor | None = None
        """The AI's user (the bot's own account in Discord)."""

    def may_involve_ai(self, match_id: int | None) -> bool:
        """False when the cached state shows the match has no AI player (saves a read)."""
        cached = self.runner.cached(match_id)
        return cached is None or cached.state.ai is not None

    async def after(self, place: Place, reply: Reply) -> Reply:
        """``reply`` to a player's action, followed by the AI's answers, if it must act."""
        if not reply.ok or self.ai is None or self.actor is None or not (
                self.may_involve_ai(reply.match_id)):
            return reply
        return await self.drive(place, reply)

    async def drive(self, place: Place, first: Reply) -> Reply:
        ai, me = self.ai, self.actor
        if ai is None or me is None:
            return first
        replies = [first]
        for _ in range(MAX_TURNS):
            async with self.runner.storage.snapshot() as tx:
                row = await tx.open_match_in_channel(place.channel_id)
                if row is None or row.status is not MatchStatus.ACTIVE:
                    break
                loaded = await self.runner.load_row(tx, row)
            if loaded.state.ai is None:
                break
            game = loaded.game
            ai_player = (Player.WHITE if row.white_id == me.id else
                         Player.BLACK if row.black_id == me.id else None)
            if game is None or ai_player is None or game.awaiting is not ai_player:
                break
            level = get_level(loaded.state.ai.level)
            decision = await ai.decide(game, match_context(loaded.session), level)
            try:
                action, option = decision_action(game, decision)
            except ValueError as error:
                log.error("the AI's decision %s can't be carried out: %s", decision, error)
                break
            reply = await self.table.act(action, place, me, option=option,
                                         expect=Expect(row.version, row.id))
            if not reply.ok:
                log.error("the AI's decision %s was refused: %s", decision, reply.text)
                break
            replies.append(reply)
        return merge(replies)

"""The console: one typed line (``name: /command ...``) made into a service call."""

from __future__ import annotations

from bot.adapters.console.commands import Commands
from bot.adapters.console.help import HELP
from bot.adapters.console.screen import CHANNEL_MAX, channel_id, shown_name
from bot.adapters.console.tournament import open_pairings
from bot.service.core.limits import shown
from bot.service.core.replies import Action
from bot.service.core.values import PlaceKind

ACTIONS = {"accept": Action.ACCEPT, "decline": Action.DECLINE, "cancel": Action.CANCEL,
           "roll": Action.ROLL, "double": Action.DOUBLE, "take": Action.TAKE,
           "drop": Action.DROP, "beaver": Action.BEAVER, "move": Action.MOVE,
           "undo": Action.UNDO, "confirm": Action.CONFIRM, "choose": Action.CHOOSE,
           "resign": Action.RESIGN, "claim": Action.CLAIM, "forfeit": Action.FORFEIT,
           "board": Action.BOARD, "stop": Action.STOP, "rematch": Action.REMATCH,
           "steps": Action.STEPS, "step": Action.STEP, "undo-step": Action.UNDO_STEP,
           "start-over": Action.START_OVER}
"""Console commands that are actions of the service's action table (same names)."""

BUILDER_STEPS = frozenset({Action.STEP, Action.UNDO_STEP, Action.START_OVER})
"""The move builder's actions: after one, the builder is listed again (issue 31)."""

TURN_COMMANDS = frozenset({"roll", "double", "take", "drop", "beaver", "move", "confirm",
                           "choose", "answer", "hint", "board", "demo", "steps", "step",
                           "undo-step", "start-over"})
"""The game's next steps: without a name they are made by the player the game waits for
(so one person can play both sides); every other command without a name is the last
actor's (``/undo`` takes back his own play, ``/forfeit confirm`` confirms his own
forfeit, whoever is on turn)."""

ANYONE_COMMANDS = frozenset({"board", "leaderboard", "rules", "verify", "history",
                             "export"})
"""Commands that only read, which anyone may send before any player is named."""


_EXAMPLE_LIMIT = 40
"""The most of a typed command quoted back in an example."""


class Console(Commands):
    """The console: its state, what it prints, its commands, and the line that runs one."""

    async def handle(self, line: str) -> bool:
        """Run one command line; False when the user asked to quit.  The background work
        (:mod:`bot.adapters.console.due`) waits until it is done."""
        async with self.busy:
            return await self._run_line(line)

    async def _run_line(self, line: str) -> bool:
        line = line.strip()
        if not line or line.startswith("#"):
            return True
        name = ""
        if ":" in line.split("/", 1)[0]:
            name, line = line.split(":", 1)
            name = name.strip()
            line = line.strip()
        if not line.startswith("/"):
            self.say("  Commands start with / (type /help).")
            return True
        command, _, rest = line[1:].partition(" ")
        command = command.lower()
        rest = rest.strip()
        if command in ("quit", "exit"):
            return False
        if command == "help":
            self.say(HELP)
            return True
        if command == "channel":
            self.channel = (rest or "table")[:CHANNEL_MAX]
            self.kind = PlaceKind.SERVER
            self.remember_channel(self.channel)
            self.say(f"  now in #{self.channel}")
            return True
        if command in ("dm", "group"):
            self.channel = (rest or command)[:CHANNEL_MAX]
            self.kind = PlaceKind.DM if command == "dm" else PlaceKind.GROUP_DM
            self.remember_channel(f"{self.kind.value}:{self.channel}")
            self.say(f"  now in {self.where}: a conversation without a server (games here "
                     "count toward the players' personal ratings)")
            return True
        if name and not shown_name(name):
            self.say("  (only you see this) That name has nothing visible in it (only "
                     "spaces or invisible characters): name the player with letters, like "
                     '"alice: /board".')
            return True
        if not name:
            # A game's next step is its waiting player's; anything else (a forfeit, a
            # claim, leaving a table, a confirmation) is the last actor's, never a
            # guess at the player on turn.
            if command in TURN_COMMANDS:
                name = await self.who_must_act() or self.current
            else:
                name = self.current
        if not name and command not in ANYONE_COMMANDS:
            typed = f"/{command} {rest}".strip()
            if len(typed) > _EXAMPLE_LIMIT:
                typed = typed[:_EXAMPLE_LIMIT] + "..."
            self.say(f'  Who is acting? Put a player\'s name before the command, like '
                     f'"alice: {typed}". Without a name, a game\'s next step (/roll, /move, '
                     "/take ...) is then made by the player it waits for, and any other "
                     "command by the last player who acted.")
            return True
        actor = self.actor(name or "console")
        if name:
            self.current = actor.name
        action = ACTIONS.get(command)
        if action is not None:
            reply = await self.service.act(action, self.place, actor, option=rest or None)
            await self.show(reply)
            if reply.ok and action in BUILDER_STEPS:  # what the builder offers now
                after = await self.service.act(Action.STEPS, self.place, actor)
                if after.ok:
                    await self.show(after)
            await open_pairings(self, channel_id)  # an ended match may pair a round
            return True
        handler = self.commands().get(command)
        if handler is None:
            self.say(f"  Unknown command {shown('/' + command)}. Type /help.")
            return True
        await handler(actor, rest)
        await open_pairings(self, channel_id)  # e.g. /demo ended a match: the next round
        return True

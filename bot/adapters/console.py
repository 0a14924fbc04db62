"""The local console mode: the same slash commands, typed in a terminal.

``python -m bot console`` (or ``python -m bot`` with no token) starts it::

    alice: /challenge @bob length=3
    bob: /accept
    /roll                     (without "name:", a game's next step is made by the
    /move 13/7 8/7             player it waits for; other commands by the last actor)

Each reply prints the text, an ASCII board and the path of the board PNG
written to the boards folder.  ``--script FILE`` reads the commands from a
file (``-`` for standard input), echoing each one.  Users are identified by
name; a user's id is derived from the name, so a database can be reopened.

The console is an adapter like the Discord cogs: it only translates lines into
:class:`~bot.service.game.GameService` calls and replies into text.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import shlex
import sys
import threading
import zlib
from collections.abc import Awaitable, Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from bot.adapters.console_clock import clock_timer
from bot.adapters.console_lobby import lobby, queue
from bot.adapters.console_puzzles import puzzle
from bot.adapters.console_tournament import open_pairings, tournament
from bot.ai.runner import runner_from_config
from bot.config import Config
from bot.ops.endpoint import ops_endpoint
from bot.ops.logs import apology, error_reference
from bot.ops.metrics import observer_for
from bot.runtime import Stopper, stop_children
from bot.service.core.boot import StorageError, storage_for, where
from bot.service.core.lifecycle import DRAIN_SECONDS
from bot.service.core.limits import shown
from bot.service.core.replies import (
    Action,
    BuilderView,
    ChannelMention,
    Notice,
    Picture,
    PictureKind,
    Reply,
    RoleMention,
    plain_part,
)
from bot.service.core.values import PERSONAL, Actor, Place, PlaceKind
from bot.service.game import GameService
from engine.rules import whole_number

log = logging.getLogger(__name__)

GUILD = 1
HELP = """Commands (prefix with "name:" to act as that user, e.g. "bob: /accept"; without
it /roll, /move, /take ... are the waiting player's, other commands the last actor's):
  /challenge @user [length=N | stake=N] [variant=NAME] [option=value ...]
  /accept  /decline  /cancel
  /roll  /double  /take  /drop  /beaver
  /move MOVES          e.g. /move 13/7 8/7, /move 8/5(2) 6/5(2), /move bar/22 6/off
  /undo  /confirm  /choose OPTION
                       /undo takes back this turn's moves, or your finished play until
                       the opponent rolls: after a play his throw always waits for him
  /steps               the move builder: the numbered steps for each die (and the whole
                       plays when few); /step N takes one, /undo-step, /start-over
  /resign [single|gammon|backgammon]   /answer accept|reject
  /board  /claim  /forfeit [confirm]
  /stop                ends a money session between games    /rematch  plays again
  /leaderboard [rating|money|wins|pr|puzzles] [page]   /stats [@user]   /verify [game]
  /export [mat|sgf] [game=N]   writes the match as a .mat file, or .sgf (for analysis in
                       GNU Backgammon: it carries the rules); game=N: a chouette table's game
  /history [game]      the moves, dice and cube actions of the match (or of game N)
  /hint  /analyze [game] [match] [depth=expert]   the AI's advice for your decision;
                       analysis of a finished game (default the last) or the whole match
  /replay [game]       the game as an animated GIF in the boards folder
  /puzzle [N]  /puzzle answer [N] ANSWER   a puzzle from the server's own blunders;
                       your answer (a play, or double / no double / take / pass)
  Play the AI:  alice: /challenge @gnubot length=3 level=strong   (beginner ... expert)
  Open:         alice: /challenge length=5 [min_rating=N] [max_rating=N]   anyone may
                       /accept it until it expires (the server's open_challenge_minutes)
  /queue join [length=N] [variant=NAME] [clock=CLOCK] [rated=on|off] | leave | status
                       wait to be paired with the closest rating   /lobby  what waits here
  On a clock:   alice: /challenge @bob length=5 clock=usbgf   (none, correspondence, fast,
                       normal, casual, usbgf, or a delay+reserve: 12s+2m/pt, 12s+5m, 1s+4s/pt);
                       the time left is printed after each action, a flag fall when it falls
  /chouette open [stake=N] [refusal=lose-to-captain|forfeit-to-partners]
            [captain_refusal=final-word|partner-takes-over] [cap=N] [box_partners=N]
            [variant=NAME] [option=value ...]
  /chouette join | leave [confirm] | start | suggest TEXT | status
  /tournament join|leave|status|list|bracket|claim   (type /tournament for the options)
  /tournament-admin create|start|result|confirm|remove|pause|resume|cancel   (organisers)
  /settings [show [KEY]] | set KEY VALUE | reset KEY   this server's own defaults (variant,
                       rules.<option>, threads, game_channels, ai, reminder_minutes ...; in
                       the console everyone may change them; channels as #name)
  /rules  /help  /channel NAME  /quit
  /dm NAME  /group NAME  play as in a DM, or a group DM, named NAME: a conversation
                       without a server (as with the app installed to a user's account):
                       matches, money play, the bot, /hint, /history ... work there;
                       chouette, tournaments, the leaderboard, /claim and /settings are
                       refused with the reason; /channel NAME goes back to the server
  /demo                plays on with the first legal play each turn: to the end of the
                       match, or of the current game in money play and chouettes"""


def draw_picture(picture: Picture, theme: str) -> bytes:
    """The bytes of a reply's picture (the console draws in a thread)."""
    content: Any = picture.content
    if picture.kind is PictureKind.REPLAY:
        from render.replay import render_replay
        return render_replay(content, theme=theme).data
    if picture.kind is PictureKind.CHART:
        from render.chart import render_chart
        return render_chart(content, theme=theme)
    if picture.kind is PictureKind.CARD:
        from render.card import render_card
        return render_card(content, theme=theme)
    if picture.kind is PictureKind.BRACKET:
        from render.bracket import render_tournament_png
        return render_tournament_png(content.state, theme, dict(content.names))
    from render.summary import render_summary
    return render_summary(content, theme=theme)


ACTIONS = {"accept": Action.ACCEPT, "decline": Action.DECLINE, "cancel": Action.CANCEL,
           "roll": Action.ROLL, "double": Action.DOUBLE, "take": Action.TAKE,
           "drop": Action.DROP, "beaver": Action.BEAVER, "move": Action.MOVE,
           "undo": Action.UNDO, "confirm": Action.CONFIRM, "choose": Action.CHOOSE,
           "resign": Action.RESIGN, "claim": Action.CLAIM, "forfeit": Action.FORFEIT,
           "board": Action.BOARD, "stop": Action.STOP, "rematch": Action.REMATCH,
           "steps": Action.STEPS, "step": Action.STEP, "undo-step": Action.UNDO_STEP,
           "start-over": Action.START_OVER}
"""Console commands that are actions of the service's action table (same names)."""

WIDTH = 96
"""The console's line width for the move builder's menus."""
BUILDER_STEPS = frozenset({Action.STEP, Action.UNDO_STEP, Action.START_OVER})
"""The move builder's actions: after one, the builder is listed again (issue 31)."""

BUILDER_COMMANDS = {Action.UNDO_STEP: "/undo-step", Action.START_OVER: "/start-over",
                    Action.CONFIRM: "/confirm", Action.CHOOSE: "/choose"}
"""How the console types the move builder's buttons."""

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


def user_id(name: str) -> int:
    """A stable id for a console user name."""
    return 1_000_000 + zlib.crc32(name.strip().lower().encode())


def last_board_number(folder: Path) -> int:
    """The highest N of the ``board-N.png`` files in ``folder`` (0 when there are none)."""
    numbers = [n for n in (whole_number(p.stem[6:]) for p in folder.glob("board-*.png"))
               if n is not None]
    return max(numbers, default=0)


def channel_id(name: str) -> int:
    return 2_000_000 + zlib.crc32(name.strip().lower().encode())


def role_id(name: str) -> int:
    """A stable id for a console role name (a setting such as organiser_role)."""
    return 3_000_000 + zlib.crc32(name.strip().lower().encode())

CHANNELS_FILE = "console-channels.txt"
"""The channel names the console has used, in its boards folder (read again at a start)."""


_EXAMPLE_LIMIT = 40
"""The most of a typed command quoted back in an example."""
NAME_MAX = 32
"""A console user's name is cut to Discord's limit for display names (a name is shown in
every reply that names its player)."""
CHANNEL_MAX = 100
"""A console channel's name is cut to Discord's limit for channel names."""


@dataclass
class Console:
    service: GameService
    boards: Path
    out: TextIO = field(default_factory=lambda: sys.stdout)
    channel: str = "table"
    current: str = ""
    names: dict[int, str] = field(default_factory=dict)
    counter: int = 0
    channel_names: list[str] = field(default_factory=lambda: ["table"])
    role_names: dict[int, str] = field(default_factory=dict)

    kind: PlaceKind = PlaceKind.SERVER
    """The server's channels (/channel), or a DM or group DM (/dm, /group): no server."""

    @property
    def place(self) -> Place:
        if self.kind is PlaceKind.SERVER:
            return Place(GUILD, channel_id(self.channel))
        # A DM's id never meets a server channel's of the same name.
        return Place.direct(channel_id(f"{self.kind.value}:{self.channel}"),
                            group=self.kind is PlaceKind.GROUP_DM)

    @property
    def where(self) -> str:
        if self.kind is PlaceKind.SERVER:
            return f"#{self.channel}"
        return ("the group DM " if self.kind is PlaceKind.GROUP_DM else "the DM ") + (
            repr(self.channel))

    def actor(self, name: str) -> Actor:
        name = name.strip().lstrip("@")[:NAME_MAX]
        self.names[user_id(name)] = name
        return Actor(user_id(name), name)

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def channel_name(self, channel: int) -> str:
        return next((n for n in self.channel_names if channel_id(n) == channel), str(channel))

    def text_of(self, line: Notice) -> str:
        """A notice as the console writes it: ``@name`` for users and roles, ``#name``
        for channels."""
        out = []
        for part in line:
            if isinstance(part, ChannelMention):
                out.append("#" + self.channel_name(part.channel_id))
            elif isinstance(part, RoleMention) and part.role_id is not None:
                out.append("@" + self.role_names.get(part.role_id, part.name
                                                     or str(part.role_id)))
            else:
                out.append(plain_part(part))
        return "".join(out)

    def show_builder(self, view: BuilderView) -> None:
        """The move builder as numbered lines: ``/step N`` takes entry N."""
        self.say(view.text)
        for menu in view.menus:
            lines = [f"  {menu.title}:"]
            for option in menu.options:
                entry = f"{option.number}) {option.label}"
                if len(lines[-1]) + 3 + len(entry) > WIDTH:
                    lines.append("     ")
                lines[-1] += f"   {entry}"
            self.say("\n".join(lines))
        if view.menus:
            self.say("  /step N takes one (/step 13/7 names it).")
        if view.buttons:
            self.say("  or: " + "   ".join(
                f"{BUILDER_COMMANDS.get(b.action, '/' + b.action.value)}"
                + (f" {b.option}" if b.option else "") for b in view.buttons))

    async def show(self, reply: Reply) -> None:
        if reply.ok and reply.builder is not None:
            self.show_builder(reply.builder)
            return
        if not reply.ok:
            ref = reply.channel_ref
            link = "" if ref is None else " #" + next(
                (n for n in self.channel_names if channel_id(n) == ref), str(ref))
            if reply.text or link:
                self.say(f"  (only you see this) {reply.text}{link}")
            for line in reply.notify:
                self.say(f"  (only you see this) {self.text_of(line)}")
            return
        if reply.channel_ref is not None and reply.channel_ref != self.place.channel_id:
            self.say("  (in #" + next((n for n in self.channel_names
                                       if channel_id(n) == reply.channel_ref),
                                      str(reply.channel_ref)) + ")")
        if reply.text:
            self.say(reply.text)
        from render.ascii import text_board
        from render.png import render_png

        for item in reply.boards:
            if item.caption:
                self.say(item.caption)
            self.say(text_board(item.view))
            self.boards.mkdir(parents=True, exist_ok=True)
            if not self.counter:  # a restart goes on after the boards already written
                self.counter = last_board_number(self.boards)
            self.counter += 1
            path = self.boards / f"board-{self.counter:04d}.png"
            png = await asyncio.to_thread(render_png, item.view,
                                          theme=self.service.config.render.theme)
            path.write_bytes(png)
            ids = f"  Position ID {item.position_id}  Match ID {item.match_id}" if (
                item.position_id) else ""
            self.say(f"  board image: {path}{ids}")
        for line in reply.notify:
            self.say(self.text_of(line))
        if reply.puzzle is not None:  # the Discord menu or buttons, as a list
            self.say("  answers: " + " | ".join(reply.puzzle.options)
                     + f"   (/puzzle answer {reply.puzzle.puzzle_id} ...)")
        if reply.buttons:
            unknown = {u for b in reply.buttons for u in b.users} - set(self.names)
            self.names.update(await self.service.user_names(unknown))
            parts = []
            for button in reply.buttons:
                who = ", ".join(self.names.get(u, str(u)) for u in button.users)
                parts.append(f"[{button.label}] ({who})")
            self.say("  actions: " + "  ".join(parts))
        if reply.attachment is not None:
            name, data = reply.attachment
            path = self.boards / name
            path.write_bytes(data)
            self.say(f"  file written: {path}")
        for picture in reply.pictures:  # issue 18: drawn in a thread, written to boards/
            self.counter += 1
            self.boards.mkdir(parents=True, exist_ok=True)
            path = self.boards / f"{self.counter:04d}-{picture.filename}"
            data = await asyncio.to_thread(draw_picture, picture,
                                           self.service.config.render.theme)
            path.write_bytes(data)
            self.say(f"  picture: {path}\n  (alt text) {picture.alt_text}")

    def remember_channel(self, name: str) -> None:
        """Note a channel name, also in the boards folder, so that a console started again
        on the same database can name the channels of the games in progress."""
        if name in self.channel_names:
            return
        self.channel_names.append(name)
        try:
            self.boards.mkdir(parents=True, exist_ok=True)
            with (self.boards / CHANNELS_FILE).open("a", encoding="utf-8") as f:
                f.write(name + "\n")
        except OSError:
            pass  # the names are a convenience; the games are in the database

    async def resume(self) -> None:
        """After a restart: the channels known before, and the games in progress, with the
        command that goes to each (issue 30 item 16)."""
        try:
            saved = (self.boards / CHANNELS_FILE).read_text(encoding="utf-8").splitlines()
        except OSError:
            saved = []
        for name in saved:
            if name.strip() and name.strip() not in self.channel_names:
                self.channel_names.append(name.strip())
        games = [*await self.service.in_progress(GUILD),
                 *await self.service.in_progress(PERSONAL)]  # (the DMs and group DMs)
        if not games:
            return
        self.say("Games in progress:")
        for channel, what in games:
            known = next((n for n in self.channel_names if channel_id(n) == channel), None)
            kind, _, name = (known or "").partition(":")
            if known is not None and name and kind in ("dm", "group_dm"):
                command = "dm" if kind == "dm" else "group"
                where = (f"the {'DM' if kind == 'dm' else 'group DM'} {name!r} "
                         f"(/{command} {name})")
            elif known is not None:
                where = f"#{known} (/channel {known})"
            else:
                where = f"channel {channel}"
            self.say(f"  {where}: {what}")
        self.say(f"  (you are in {self.where})")

    async def who_must_act(self) -> str:
        """The name of the player the game in this channel waits for, if any."""
        reply = await self.service.board(self.place, Actor(0, "console"))
        if not reply.ok or not reply.boards:
            return ""
        view = reply.boards[-1].view
        if view.resignation is not None:  # the offer's answer is the opponent's
            return view.players[view.resignation.player.other].name
        turn = view.turn
        if turn is None:
            return ""
        return view.players[turn].name

    async def handle(self, line: str) -> bool:
        """Run one command line; False when the user asked to quit."""
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
        handler = self._commands().get(command)
        if handler is None:
            self.say(f"  Unknown command {shown('/' + command)}. Type /help.")
            return True
        await handler(actor, rest)
        return True

    def _commands(self) -> dict[str, Callable[[Actor, str], Awaitable[None]]]:
        s = self.service

        async def challenge(actor: Actor, rest: str) -> None:
            try:
                words = shlex.split(rest)
            except ValueError as exc:
                self.say(f"  (only you see this) Can't read that: {exc}.")
                return
            opponent: Actor | None = None  # none named: an open challenge (issue 44)
            if words and "=" not in words[0]:
                if not words[0].strip().lstrip("@"):
                    self.say("  (only you see this) Name an opponent: /challenge @bob "
                             "(or none: an open challenge anyone may accept)")
                    return
                opponent = self.actor(words.pop(0))
            options: dict[str, str] = {}
            for word in words:
                key, eq, value = word.partition("=")
                if not eq:
                    self.say(f"  (only you see this) Options are key=value, not {word!r}.")
                    return
                options[key.strip().lower()] = value.strip()
            length = whole_number(options.pop("length", "0"))
            stake = whole_number(options.pop("stake", "0"))
            variant = options.pop("variant", None)
            level = options.pop("level", None)
            hints = options.pop("hints", "off").lower() in ("on", "yes", "true", "1")
            clock = options.pop("clock", None)
            low, high = options.pop("min_rating", None), options.pop("max_rating", None)
            bounds = [whole_number(b) if b is not None else None for b in (low, high)]
            if any(b is None for b, t in zip(bounds, (low, high), strict=True)
                   if t is not None):
                self.say("  (only you see this) min_rating and max_rating are whole numbers, "
                         "e.g. min_rating=1400.")
                return
            if length is None or stake is None:
                self.say("  (only you see this) length and stake are whole numbers, in the "
                         "digits 0 to 9 (at most 18 of them): e.g. length=5 or stake=2.")
                return
            if s.ai_actor is not None and opponent is not None and (
                    opponent.name.lower() == s.ai_actor.name.lower()):
                opponent = s.ai_actor
            await self.show(await s.challenge(self.place, actor, opponent, variant=variant,
                                              rules=options, length=length,
                                              stake=stake, level=level, hints=hints,
                                              clock=clock, low=bounds[0], high=bounds[1]))

        async def answer(actor: Actor, rest: str) -> None:
            word = rest.lower()
            if word not in ("accept", "reject"):
                self.say("  (only you see this) /answer accept or /answer reject")
                return
            action = Action.ACCEPT_RESIGNATION if word == "accept" else Action.REJECT_RESIGNATION
            await self.show(await s.act(action, self.place, actor))

        async def leaderboard(actor: Actor, rest: str) -> None:
            words = rest.split()
            order = words[0] if words else "rating"
            page = whole_number(words[1]) if len(words) > 1 else 1
            if page is None:
                self.say(f"  (only you see this) The page is a whole number, not "
                         f"{words[1][:20]!r}: e.g. /leaderboard {order} 2")
                return
            await self.show(await s.leaderboard(self.place, actor, order, page))

        async def stats(actor: Actor, rest: str) -> None:
            if rest and not rest.strip().lstrip("@").strip():  # "/stats @" (issue 30 item 15)
                self.say("  (only you see this) Name a player after the @, like /stats @bob "
                         "(or /stats alone for your own card).")
                return
            target = self.actor(rest) if rest else None
            await self.show(await s.stats(self.place, actor, target))

        async def verify(actor: Actor, rest: str) -> None:
            number, ok = game_number(rest)
            if not ok:
                self.say(f"  (only you see this) /verify takes a game number as the channel "
                         f"shows it (\"Game 2 begins\"), not {rest[:20]!r}.")
                return
            await self.show(await s.verify(self.place, actor, number))

        async def rules(actor: Actor, rest: str) -> None:
            await self.show(await s.rules(rest or None, self.place))

        async def demo(actor: Actor, rest: str) -> None:
            await self.demo()

        async def chouette(actor: Actor, rest: str) -> None:
            table = s.chouette
            sub, _, text = rest.partition(" ")
            sub = sub.lower()
            if sub == "open":
                options: dict[str, str] = {}
                for word in text.split():
                    key, eq, value = word.partition("=")
                    if not eq:
                        self.say(f"  (only you see this) Options are key=value, not {word!r}.")
                        return
                    options[key.strip().lower().replace("-", "_")] = value.strip()
                numbers = {"stake": 1, "cap": 6, "box_partners": 0}
                for key in numbers.keys() & options.keys():
                    parsed = whole_number(options.pop(key))
                    if parsed is None:
                        self.say("  (only you see this) stake, cap and box_partners are "
                                 "whole numbers, in the digits 0 to 9 (at most 18 of them).")
                        return
                    numbers[key] = parsed
                await self.show(await table.open(
                    self.place, actor, stake=numbers["stake"], cap=numbers["cap"],
                    box_partners=numbers["box_partners"],
                    refusal=options.pop("refusal", "lose-to-captain"),
                    captain_refusal=options.pop("captain_refusal", "final-word"),
                    variant=options.pop("variant", None), rules=options))
            elif sub == "join":
                await self.show(await table.join(self.place, actor))
            elif sub == "leave":
                await self.show(await table.leave(self.place, actor,
                                                  confirm=text.strip().lower() == "confirm"))
            elif sub == "start":
                await self.show(await table.start(self.place, actor))
            elif sub == "suggest":
                await self.show(await table.suggest(self.place, actor, text))
            elif sub == "status":
                await self.show(await table.status(self.place, actor))
            else:
                self.say("  (only you see this) /chouette open|join|leave|start|suggest|status")

        async def export(actor: Actor, rest: str) -> None:
            fmt, number = "mat", None
            for word in rest.split():
                key, eq, value = word.partition("=")
                if not eq:  # /export sgf
                    key, value = "format", key
                if key.lower() == "format":
                    fmt = value
                elif key.lower() == "game" and (game := whole_number(value)) is not None:
                    number = game
                else:
                    self.say("  (only you see this) /export [mat|sgf] [game=N] (format=sgf "
                             f"for analysis in GNU Backgammon), not {word[:20]!r}.")
                    return
            await self.show(await s.export(self.place, actor, fmt, number))

        async def history(actor: Actor, rest: str) -> None:
            number, ok = game_number(rest)
            if not ok:
                self.say(f"  (only you see this) /history [game number], not {rest[:20]!r}.")
                return
            await self.show(await s.history(self.place, actor, number))

        async def hint(actor: Actor, rest: str) -> None:
            await self.show(await s.hint(self.place, actor))

        # pictures (issue 18): /replay [game]; /analyze [game] [match] [depth=expert]
        async def analyze(actor: Actor, rest: str) -> None:
            number: int | None = None
            depth: str | None = None
            whole_match = False
            for word in rest.split():
                if word.lower() == "match":
                    whole_match = True
                elif word.lower().startswith("depth="):
                    depth = word.split("=", 1)[1]
                elif number is None and (
                        game := whole_number(word.removeprefix("game="))) is not None:
                    number = game
                else:
                    self.say("  (only you see this) /analyze [game number] [match] "
                             f"[depth=strong|expert], not {word[:20]!r}.")
                    return
            await self.show(await s.analyze(self.place, actor, number, depth,
                                            whole_match=whole_match))

        async def settings(actor: Actor, rest: str) -> None:
            # Everyone may change the settings in the console (it is one person's table).
            sub, _, text = rest.strip().partition(" ")
            sub, text = sub.lower(), text.strip()
            key, _, value = text.partition(" ")
            if sub in ("", "show"):
                await self.show(await s.settings_show(self.place, actor, text or None))
            elif sub == "set" and key and value.strip():
                await self.show(await s.settings_set(self.place, actor, key, value.strip(),
                                                     manage_server=True,
                                                     names=ConsoleNames(self)))
            elif sub == "reset" and key and not value:
                await self.show(await s.settings_reset(self.place, actor, key,
                                                       manage_server=True))
            else:
                self.say("  (only you see this) /settings show [KEY] | /settings set KEY VALUE "
                         "| /settings reset KEY (e.g. /settings set threads off)")

        async def replay(actor: Actor, rest: str) -> None:
            word = rest.strip()
            number = whole_number(word)
            if word and number is None:
                self.say("  (only you see this) /replay [game number], e.g. /replay 2")
                return
            await self.show(await s.replay(self.place, actor, number))

        return {
            "challenge": challenge, "answer": answer, "leaderboard": leaderboard,
            "stats": stats, "verify": verify, "rules": rules, "export": export, "hint": hint,
            "analyze": analyze, "demo": demo, "chouette": chouette, "replay": replay,
            "history": history,  # issue 19 item 11
            "tournament": lambda actor, rest: tournament(self, actor, rest, channel_id),
            "tournament-admin": lambda actor, rest: tournament(self, actor, rest, channel_id),
            "settings": settings,
            "puzzle": lambda actor, rest: puzzle(self, actor, rest),  # issue 33
            "queue": lambda actor, rest: queue(self, actor, rest),  # issue 44
            "lobby": lambda actor, rest: lobby(self, actor, rest),
        }

    async def demo(self, limit: int = 2000) -> None:
        """Play on with simple choices until the match ends, or in money play and chouettes
        the current game (a demo aid).

        Rolls instead of doubling, takes every double, plays the first legal
        play the service suggests, chooses the first option.
        """
        for _ in range(limit):
            name = await self.who_must_act()
            if not name:
                return
            actor = self.actor(name)
            reply = await self.service.board(self.place, actor)
            acts = {b.action.value for b in reply.buttons if actor.id in b.users}
            if "take" in acts:
                result = await self.service.take(self.place, actor)
            elif "roll" in acts:
                result = await self.service.roll(self.place, actor)
            elif "reject-resignation" in acts:
                result = await self.service.answer_resignation(self.place, actor, True)
            elif "choose" in acts:
                option = next(b.option for b in reply.buttons if b.action is Action.CHOOSE)
                result = await self.service.choose(self.place, actor, option)
            else:
                plays = await self.service.suggestions(self.place, actor, "", limit=1)
                if not plays:
                    return
                result = await self.service.move(self.place, actor, plays[0])
            await self.show(result)
            if not result.ok:
                return
            if any(b.view.game_over is not None and (
                    b.view.money is not None or b.view.chouette is not None)
                   for b in result.boards):
                self.say("  /demo stops at the end of the game (money play and chouettes go "
                         "on game after game): /demo again plays the next one.")
                return


class ConsoleNames:
    """Channels and roles as the console names them: ``#name`` (or ``here``) and
    ``@name``."""

    def __init__(self, console: Console) -> None:
        self.console = console

    def takes_messages(self, channel_id: int) -> bool:
        return True  # every console channel is a text channel

    def channel(self, word: str) -> int | None:
        name = word.strip().removeprefix("#")
        if name.lower() == "here":
            return self.console.place.channel_id
        if not name or len(name) > 100:
            return None
        if name not in self.console.channel_names:
            self.console.channel_names.append(name)
        return channel_id(name)

    def role(self, word: str) -> int | None:
        name = word.strip().removeprefix("@")
        if not name or len(name) > 100:
            return None
        self.console.role_names[role_id(name)] = name
        return role_id(name)


def game_number(text: str) -> tuple[int | None, bool]:
    """A game number typed after /verify or /history: (number or None, readable)."""
    text = text.strip().removeprefix("game=").lstrip("#")
    if not text:
        return None, True
    number = whole_number(text)
    return number, number is not None


class StdinLines:
    """The lines typed (or piped) into standard input, read by a daemon thread with
    ``os.read``: waiting for the next line never holds up the event loop, so Ctrl-C or
    SIGTERM at the prompt stop the console at once (``input()`` in a worker thread kept
    the process until Enter was pressed)."""

    def __init__(self, fd: int = 0) -> None:
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        loop = asyncio.get_running_loop()

        def put(line: str | None) -> None:
            with contextlib.suppress(RuntimeError):  # the loop already closed
                loop.call_soon_threadsafe(self.queue.put_nowait, line)

        def read() -> None:
            pending = b""
            try:
                while chunk := os.read(fd, 65536):
                    *lines, pending = (pending + chunk).split(b"\n")
                    for raw in lines:
                        put(raw.decode("utf-8", "replace"))
            except OSError:
                pass
            if pending:
                put(pending.decode("utf-8", "replace"))
            put(None)

        threading.Thread(target=read, name="console-stdin", daemon=True).start()

    async def get(self) -> str | None:
        """The next line (None at the end of the input)."""
        return await self.queue.get()


async def _next(source: StdinLines | Iterator[str], stopped: asyncio.Event) -> str | None:
    """The next line of ``source``, or None at its end or once the console is stopped."""
    if not isinstance(source, StdinLines):
        return None if stopped.is_set() else next(source, None)
    reading = asyncio.ensure_future(source.get())
    stop = asyncio.ensure_future(stopped.wait())
    await asyncio.wait({reading, stop}, return_when=asyncio.FIRST_COMPLETED)
    stop.cancel()
    if not reading.done():
        reading.cancel()
        return None
    return reading.result()


async def _handle(console: Console, line: str, stopped: asyncio.Event) -> bool:
    """Run one line; once the console is stopped, the action in flight has
    ``DRAIN_SECONDS`` to commit (else it is cancelled: its transaction rolls back).  An
    unexpected error is logged with a reference that the apology shows."""
    task = asyncio.ensure_future(console.handle(line))
    stop = asyncio.ensure_future(stopped.wait())
    await asyncio.wait({task, stop}, return_when=asyncio.FIRST_COMPLETED)
    if not task.done():
        await asyncio.wait({task}, timeout=DRAIN_SECONDS)
    stop.cancel()
    if not task.done():
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        return False
    try:
        return task.result()
    except Exception as error:  # a bug: the player gets a reference to quote
        ref = error_reference()
        log.error("unexpected error %s in %r", ref, line[:200], exc_info=error)
        console.say(f"  (only you see this) {apology(ref)}")
        return True


async def _run(config: Config, lines: Iterable[str] | None, boards: Path,
               echo: bool) -> int:
    stopper = Stopper().install()
    try:
        storage = storage_for(config)
        try:
            await storage.open()
        except StorageError as error:
            print(f"bgbot: cannot start: {error}", file=sys.stderr)
            return 1
        runner = runner_from_config(config.ai)
        service = GameService(storage, config, ai=runner, observer=observer_for(config))
        lifecycle = service.lifecycle
        lifecycle.on_stop("the storage", storage.close)  # registered first: closed last
        stopper.on_stop = lifecycle.refuse_new
        try:
            if runner is not None:
                lifecycle.on_stop("the AI workers", runner.close)
                await runner.start()
                service.set_ai_user(user_id(config.ai.name), config.ai.name)
            async with ops_endpoint(config, service):
                return await _session(service, boards, lines, echo, stopper.stopped)
        finally:
            await lifecycle.stop()
            await asyncio.to_thread(stop_children)
    finally:
        stopper.remove()


async def _session(service: GameService, boards: Path, lines: Iterable[str] | None,
                   echo: bool, stopped: asyncio.Event) -> int:
    console = Console(service, boards)
    config = service.config
    if service.ai is not None:  # issue 33 (what is graded: each server's grade_matches)
        from bot.ai.background import BackgroundAnalyser

        async def post(channel: int, reply: Reply) -> None:
            console.say(f"  (graded, posted in #{console.channel_name(channel)})")
            await console.show(reply)

        grader = service.grader(BackgroundAnalyser(nice=config.analysis.grade_nice), post)
        # A match being graded goes back to the queue; stopped before the storage closes.
        service.lifecycle.on_stop("the grader", grader.stop)
        grader.start()
    console.say(f"bgbot console: {where(service.config)}, boards in {boards}/. "
                "Type /help. Act as a player by naming them first, like "
                "\"alice: /challenge @bob\" or \"alice: /challenge @gnubot\".")
    await console.resume()
    prompt = lines is None and sys.stdin.isatty()
    source: StdinLines | Iterator[str] = iter(lines) if lines is not None else StdinLines()
    async with clock_timer(console):  # flag falls are printed as they happen (issue 44)
        while True:
            if prompt:
                print("> ", end="", flush=True)
            line = await _next(source, stopped)
            if line is None:
                if prompt and not stopped.is_set():
                    print()
                return 0
            if echo and line.strip():
                console.say(f"> {line.rstrip()}")
            if not await _handle(console, line, stopped) or stopped.is_set():
                return 0


def run_console(config: Config, *, script: str | None = None, boards: str | None = None) -> int:
    """Start the console mode (reads the keyboard, standard input, or ``script``)."""
    folder = Path(boards or config.render.board_dir)
    lines: Iterable[str] | None = None
    if script is not None and script != "-":
        try:
            lines = Path(script).read_text(encoding="utf-8").splitlines()
        except OSError as exc:
            print(f"cannot read script {script}: {exc.strerror}", file=sys.stderr)
            return 2
    echo = script is not None or not sys.stdin.isatty()
    try:
        return asyncio.run(_run(config, lines, folder, echo=echo))
    except KeyboardInterrupt:  # before the handlers were installed
        return 0

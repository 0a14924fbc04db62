"""The console's state and what it prints: a reply's text, its boards (an ASCII board and
a PNG in the boards folder), its pictures, files and buttons; the move builder's menus;
the ids of console names; the games in progress after a restart."""

from __future__ import annotations

import asyncio
import contextlib
import re
import sys
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from bot.names import display_name
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

GUILD = 1


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


WIDTH = 96
"""The console's line width for the move builder's menus."""
BUILDER_COMMANDS = {Action.UNDO_STEP: "/undo-step", Action.START_OVER: "/start-over",
                    Action.CONFIRM: "/confirm", Action.CHOOSE: "/choose"}
"""How the console types the move builder's buttons."""


def user_id(name: str) -> int:
    """A stable id for a console user name (by the name as it is shown: its id is the same
    whatever invisible characters it was typed with)."""
    return 1_000_000 + zlib.crc32(shown_name(name).lower().encode())


def shown_name(typed: str) -> str:
    """A typed user name as the console shows it: without a leading ``@``, bidirectional
    controls and invisible characters, runs of spaces made one, cut to :data:`NAME_MAX`
    ("" when nothing visible is left)."""
    return display_name(display_name(typed, "").lstrip("@"), "")[:NAME_MAX].strip()


def last_board_number(folder: Path) -> int:
    """The highest N of the ``board-N.png`` files in ``folder`` (0 when there are none)."""
    numbers = [n for n in (whole_number(p.stem[6:]) for p in folder.glob("board-*.png"))
               if n is not None]
    return max(numbers, default=0)


BOARDS_KEPT = 1000
"""The console keeps the newest this many board images and pictures (``board-N.png``,
``N-replay.gif`` ...) in its boards folder, deleting the oldest as it writes new ones
(issue 42 item 18: an afternoon's play left 7,100 PNGs, 264 MB).  Exported files
(``/export``), brackets and the list of channels are kept."""

_NUMBERED = re.compile(r"(?:board-([0-9]+)\.png|([0-9]+)-[^/]+\.(?:png|gif))\Z")


def numbered_images(folder: Path) -> list[tuple[int, Path]]:
    """The board images and pictures the console wrote in ``folder``, oldest first."""
    try:
        entries = list(folder.iterdir())
    except OSError:
        return []
    found = []
    for path in entries:
        if (match := _NUMBERED.match(path.name)) is not None:
            found.append((int(match[1] or match[2]), path))
    return sorted(found)


def prune_boards(folder: Path, keep: int | None = None) -> int:
    """Delete all but the newest ``keep`` (:data:`BOARDS_KEPT`) board images and pictures;
    how many went."""
    keep = BOARDS_KEPT if keep is None else keep
    images = numbered_images(folder)
    old = images[:max(0, len(images) - keep)]
    for _, path in old:
        with contextlib.suppress(OSError):  # already gone (another console on the folder)
            path.unlink()
    return len(old)


def channel_id(name: str) -> int:
    return 2_000_000 + zlib.crc32(name.strip().lower().encode())


def role_id(name: str) -> int:
    """A stable id for a console role name (a setting such as organiser_role)."""
    return 3_000_000 + zlib.crc32(name.strip().lower().encode())

CHANNELS_FILE = "console-channels.txt"
"""The channel names the console has used, in its boards folder (read again at a start)."""


NAME_MAX = 32
"""A console user's name is cut to Discord's limit for display names (a name is shown in
every reply that names its player)."""
CHANNEL_MAX = 100
"""A console channel's name is cut to Discord's limit for channel names."""

@dataclass
class Screen:
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
    busy: asyncio.Lock = field(default_factory=asyncio.Lock)
    """Held while a line runs, and while the background work (:mod:`.due`) prints: their
    outputs never mix."""

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
        """The user named ``name``, found by the name as it is shown (issue 42 item 19:
        "ev\u202eil\u200bdoer" is shown "evildoer", and "evildoer: /roll" is his)."""
        name = shown_name(name)
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
            path = self.boards / f"board-{self.next_number():04d}.png"
            png = await asyncio.to_thread(render_png, item.view,
                                          theme=self.service.config.render.theme)
            path.write_bytes(png)
            prune_boards(self.boards)
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
            for button in reply.buttons:  # names as shown (never a raw U+202E)
                who = ", ".join(display_name(self.names.get(u, ""), str(u))
                                for u in button.users)
                parts.append(f"[{button.label}] ({who})")
            self.say("  actions: " + "  ".join(parts))
        if reply.attachment is not None:
            name, data = reply.attachment
            path = self.boards / name
            path.write_bytes(data)
            self.say(f"  file written: {path}")
        for picture in reply.pictures:  # issue 18: drawn in a thread, written to boards/
            self.boards.mkdir(parents=True, exist_ok=True)
            path = self.boards / f"{self.next_number():04d}-{picture.filename}"
            data = await asyncio.to_thread(draw_picture, picture,
                                           self.service.config.render.theme)
            path.write_bytes(data)
            prune_boards(self.boards)
            self.say(f"  picture: {path}\n  (alt text) {picture.alt_text}")

    def next_number(self) -> int:
        """The number of the next board image or picture (a restart goes on after those
        already written: the oldest are deleted first)."""
        if not self.counter:
            self.counter = max(last_board_number(self.boards),
                               max((n for n, _ in numbered_images(self.boards)), default=0))
        self.counter += 1
        return self.counter

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

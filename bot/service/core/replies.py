"""What the game service answers: platform-neutral replies.

Adapters (the Discord cogs, the console) turn a :class:`Reply` into messages,
images and buttons.  A refusal is a reply with ``ok`` false and a reason
meant to be shown privately (ephemeral) to the person who acted.  A mention of a
user is a :class:`Mention` value inside a :data:`Notice`; each adapter writes it
its own way (Discord markup, ``@name`` in the console).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import Enum
from typing import TYPE_CHECKING

from bot.names import printable
from render.view import BoardView

if TYPE_CHECKING:
    from engine.tournament import TournamentState
    from render.card import PlayerCard
    from render.chart import ChartData
    from render.replay import ReplayFrame
    from render.summary import MatchSummary


class Action(Enum):
    """Every action on a game, defined once: the action table (:mod:`bot.service.actions`)
    maps each to its service call, for buttons, the AI and the console alike.  The
    values are stable: they are written into persistent button ids."""

    ACCEPT = "accept"
    DECLINE = "decline"
    CANCEL = "cancel"
    ROLL = "roll"
    DOUBLE = "double"
    TAKE = "take"
    DROP = "drop"
    BEAVER = "beaver"
    MOVE = "move"
    """``option``: the moves typed."""
    UNDO = "undo"
    CONFIRM = "confirm"
    CHOOSE = "choose"
    """``option``: the option picked."""
    RESIGN = "resign"
    """``option``: single, gammon or backgammon."""
    ACCEPT_RESIGNATION = "accept-resignation"
    REJECT_RESIGNATION = "reject-resignation"
    CLAIM = "claim"
    FORFEIT = "forfeit"
    BOARD = "board"
    STOP = "stop"
    """End a money session between games (:mod:`bot.service.play.session`)."""
    REMATCH = "rematch"
    """The two players of the last match here play again, same terms."""
    ANALYZE = "analyze"
    """The analysis of every game of the match that just ended here (``/analyze
    match:true``): each player's error rate on the match summary."""
    STEPS = "steps"
    """The move builder of the player to play (issue 31): the numbered steps and whole
    plays (:class:`BuilderView`); ``option``: the turn a Play button was shown for."""
    STEP = "step"
    """Take one step of the move builder (``option``: its number, or a step like 13/7)."""
    UNDO_STEP = "undo-step"
    """Take back the last step of the move builder."""
    START_OVER = "start-over"
    """Take back every step entered this turn."""


@dataclass(frozen=True, slots=True)
class Mention:
    """A user named so that the platform notifies them."""

    user_id: int
    name: str = ""


@dataclass(frozen=True, slots=True)
class ChannelMention:
    """A channel named so that the platform links it (Discord ``<#id>``)."""

    channel_id: int
    name: str = ""


@dataclass(frozen=True, slots=True)
class RoleMention:
    """A server role: by id (Discord ``<@&id>``, never pinging), or only by ``name`` when
    the id is not known (``role_id`` None: the operator's config names roles by name)."""

    role_id: int | None
    name: str = ""


@dataclass(frozen=True, slots=True)
class Moment:
    """A point in time (a tournament round's deadline): each adapter writes it its own way
    (Discord's timestamp markup, shown in each reader's time zone and counting down; the
    console in its local time).  The service never formats it."""

    at: datetime


@dataclass(frozen=True, slots=True)
class Countdown:
    """A moment a line counts down to (Discord's relative timestamp ``<t:UNIX:R>``,
    counted down by the client); ``text``: how a platform without it says it ("in 4:32",
    as it was when the line was made)."""

    unix: int
    text: str


Part = str | Mention | ChannelMention | RoleMention | Moment | Countdown
"""One piece of a :data:`Notice`."""

Notice = tuple[Part, ...]
"""A line that may mention users, channels and roles: text and mention parts, in order."""


def notice(*parts: Part) -> Notice:
    return tuple(parts)


def plain_part(part: Part) -> str:
    """One part as plain text: ``@name`` for a user or a role, ``#name`` for a channel."""
    if isinstance(part, Mention):
        return f"@{part.name or part.user_id}"
    if isinstance(part, ChannelMention):
        return f"#{part.name or part.channel_id}"
    if isinstance(part, RoleMention):
        return f"@{part.name or part.role_id}"
    if isinstance(part, Moment):
        return moment_text(part)
    if isinstance(part, Countdown):
        return part.text
    return part


def moment_text(moment: Moment, local: bool = False) -> str:
    """A moment as plain text: "Sat 28 Nov 2026, 08:38 UTC" (``local``: in this machine's
    time zone, named)."""
    at = moment.at if moment.at.tzinfo is not None else moment.at.replace(tzinfo=UTC)
    at = at.astimezone() if local else at.astimezone(UTC)
    zone = at.tzname() or "local time"
    return f"{at:%a} {at.day} {at:%b %Y}, {at:%H:%M} {zone}"


def plain(line: Notice) -> str:
    """A notice as plain text (``@name`` for a mention, ``#name`` for a channel)."""
    return "".join(plain_part(p) for p in line)


@dataclass(frozen=True, slots=True)
class Button:
    """An action available now, to the listed users only."""

    action: Action
    label: str
    users: tuple[int, ...]
    option: str = ""
    """For ``CHOOSE``: the option this button picks."""


@dataclass(frozen=True, slots=True)
class Board:
    """A board to show, with the GNU Backgammon IDs of the position (standard only)."""

    view: BoardView
    caption: str = ""
    position_id: str = ""
    match_id: str = ""
    lines_before: int | None = None
    """Where this board goes in the reply's text: after its first ``lines_before`` lines
    (None: after all of it).  The final board of a game that ended comes before the lines
    of the next game's start ("Game 2 begins... Opening throw...")."""


@dataclass(frozen=True, slots=True)
class MenuOption:
    """One entry of a :class:`Menu`: ``number`` is what ``/step`` takes to pick it."""

    number: int
    label: str
    description: str = ""


@dataclass(frozen=True, slots=True)
class Menu:
    """A list to pick one entry from (a select menu in Discord, numbered lines in the
    console)."""

    title: str
    options: tuple[MenuOption, ...]


@dataclass(frozen=True, slots=True)
class StepChoice:
    """One step the move builder offers now, as values (for a board that is played by
    moving checkers): ``word`` is what ``/step`` takes (``13/7``, ``bar/22``, ``6/off``),
    ``src`` and ``dst`` are in the mover's own point numbers (25 the bar, 0 off, 26 a
    checker not yet entered)."""

    word: str
    src: int
    dst: int
    die: int
    hit: bool = False


@dataclass(frozen=True, slots=True)
class BuilderView:
    """The move builder of the player to play (issue 31): what is entered so far, a menu of
    the next steps per die (and of the whole plays when they are few), and its buttons
    (Undo step, Start over, Confirm; the options of a variant's choice).  Shown privately
    to the player; ``board`` draws the play entered so far."""

    text: str
    menus: tuple[Menu, ...] = ()
    buttons: tuple[Button, ...] = ()
    board: Board | None = None
    steps: tuple[StepChoice, ...] = ()
    """The steps of :attr:`menus` as values (the same listing, in the same order)."""


class PictureKind(Enum):
    """What a :class:`Picture` is, so an adapter knows how to draw it."""

    REPLAY = "replay"
    """An animated GIF of a game (``content``: the frames)."""
    CHART = "chart"
    """The analysis graph (``content``: its data)."""
    CARD = "card"
    """A player card."""
    SUMMARY = "summary"
    """A match summary."""
    BRACKET = "bracket"
    """A tournament's bracket or standings table (``content``: :class:`BracketData`)."""


@dataclass(frozen=True, slots=True)
class BracketData:
    """What a bracket picture is drawn from: the tournament's state and its players'
    names by id (``render.bracket.render_tournament_png``)."""

    state: TournamentState
    names: tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class Picture:
    """A picture to post beside the text: what to draw (drawn by the adapter off the
    event loop, as boards are), its file name, and its text alternative (the
    attachment's description, read by screen readers)."""

    kind: PictureKind
    content: tuple[ReplayFrame, ...] | ChartData | PlayerCard | MatchSummary | BracketData
    filename: str
    alt_text: str


@dataclass(frozen=True, slots=True)
class MessageRef:
    """A message the adapter posted earlier and the service stored: the channel (a thread is
    a channel) and the platform's message id."""

    channel_id: int
    message_id: int


@dataclass(frozen=True, slots=True)
class RetireButtons:
    """Take the buttons off a message posted earlier, once the action that made them
    pointless has committed (a tournament's sign-up message at the start or the
    cancellation; a challenge's message once it is answered, however it was answered).

    ``text``: the message's new text (None: the text stays).  The adapter edits the message
    after the commit; a message deleted meanwhile (or out of reach) is only logged: the
    action is done.  A pressed button on a message that kept them (a client showing the old
    message) is still refused by the service."""

    message: MessageRef
    text: str | None = None


@dataclass(frozen=True, slots=True)
class LobbyChoices:
    """The buttons of ``/lobby`` (issue 44 item 3): an **Accept** per open challenge listed
    (``accept``: match id, its state version, the label), a **Join** per set of terms
    players wait for in the queue and one for the server's default terms (``join``: the
    queue's terms as :class:`~bot.service.lobby.queue.Wanted` takes them -- length,
    variant, clock, rated; "" for the server's -- and the label)."""

    accept: tuple[tuple[int, int, str], ...] = ()
    join: tuple[tuple[int, str, str, bool, str], ...] = ()


@dataclass(frozen=True, slots=True)
class PuzzleChoices:
    """The answers a puzzle offers anyone who sees it (issue 33): a select menu of plays
    (at most 25, in notation order: the order says nothing of the best), or one button
    per cube answer.  A choice answers puzzle ``puzzle_id`` with its text, as typing
    ``/puzzle answer`` does."""

    puzzle_id: int
    options: tuple[str, ...]
    buttons: bool
    """True: one button per option (a cube decision); False: a select menu (a play)."""


@dataclass(frozen=True, slots=True)
class Reply:
    """The answer to one service call.

    ``text`` says what happened (or, when ``ok`` is false, why nothing did and
    what is allowed instead).  ``boards`` are the boards to post (the final
    board of a game that just ended, then the next game's).  ``buttons`` are
    the actions now available and who may use them.  ``notify`` are
    mention-worthy lines ("it's @bob's turn").  ``version`` is the match's
    state version after the call, for buttons that must not act on a stale
    state.
    """

    ok: bool
    text: str
    ephemeral: bool = False
    boards: tuple[Board, ...] = ()
    buttons: tuple[Button, ...] = ()
    notify: tuple[Notice, ...] = ()
    match_id: int | None = None
    version: int | None = None
    attachment: tuple[str, bytes] | None = None
    """A file to attach: (file name, content), e.g. a .mat export."""
    pictures: tuple[Picture, ...] = ()
    """Pictures to post with the text (a replay, the analysis graph, a player card, a
    match summary), each with its text alternative."""
    choices: tuple[str, ...] = field(default=())
    """For autocomplete-like calls: the suggestions."""
    channel_ref: int | None = None
    """A channel the reply is about, other than the one the command was typed in: a
    refusal points to it (its text ends with a link the adapter writes: Discord
    ``<#id>``, the console its name); an ``ok`` reply is posted there (a challenge
    accepted from the channel of its thread)."""
    tournament_id: int | None = None
    """The tournament a tournament command made or acted on (its sign-up message)."""
    retire: tuple[RetireButtons, ...] = ()
    """Messages posted earlier whose buttons this action retired (the Discord presenter
    edits them after the commit; the console has nothing to edit)."""
    builder: BuilderView | None = None
    """The move builder to show privately to the player who asked for it (issue 31)."""
    puzzle: PuzzleChoices | None = None
    """A puzzle's answers to offer (a menu or buttons; the console lists them)."""
    lobby: LobbyChoices | None = None
    """The lobby's Accept and Join buttons (the console names the commands instead)."""

    def __post_init__(self) -> None:
        # The one cleaning of every text shown back (issue 43 item 4): whatever a refusal
        # or an answer quotes of what was typed (an engine's error, a setting's value), no
        # NUL, control or bidirectional character and no lone surrogate reaches a platform.
        object.__setattr__(self, "text", printable(self.text, lines=True))

    @classmethod
    def refuse(cls, reason: str) -> Reply:
        return cls(ok=False, text=reason, ephemeral=True)


def text_parts(reply: Reply) -> list[str]:
    """The reply's text cut where its boards go (:attr:`Board.lines_before`): one part per
    board, said just before it (the lines after the last board are said with it); the
    whole text when there is no board."""
    lines = reply.text.split("\n") if reply.text else []
    if not reply.boards:
        return ["\n".join(lines)]
    parts: list[str] = []
    done = 0
    for board in reply.boards[:-1]:
        upto = len(lines) if board.lines_before is None else board.lines_before
        upto = max(done, min(upto, len(lines)))
        parts.append("\n".join(lines[done:upto]))
        done = upto
    parts.append("\n".join(lines[done:]))
    return parts


class Refusal(Exception):
    """Raised inside the service to refuse an action with a reason for the user
    (``notify``: lines that go with it, e.g. a :class:`Moment` the adapter writes)."""

    def __init__(self, reason: str, notify: tuple[Notice, ...] = ()) -> None:
        super().__init__(reason)
        self.notify = notify

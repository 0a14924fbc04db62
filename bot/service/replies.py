"""What the game service answers: platform-neutral replies.

Adapters (the Discord cogs, the console) turn a :class:`Reply` into messages,
images and buttons.  A refusal is a reply with ``ok`` false and a reason
meant to be shown privately (ephemeral) to the person who acted.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from render.view import BoardView


class Act(Enum):
    """Actions a button (or a console shortcut) can trigger."""

    ACCEPT = "accept"
    DECLINE = "decline"
    ROLL = "roll"
    DOUBLE = "double"
    TAKE = "take"
    DROP = "drop"
    BEAVER = "beaver"
    UNDO = "undo"
    CONFIRM = "confirm"
    ACCEPT_RESIGNATION = "accept-resignation"
    REJECT_RESIGNATION = "reject-resignation"
    CHOOSE = "choose"


@dataclass(frozen=True, slots=True)
class Button:
    """An action available now, to the listed users only."""

    act: Act
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


@dataclass(frozen=True, slots=True)
class Reply:
    """The answer to one service call.

    ``text`` says what happened (or, when ``ok`` is false, why nothing did and
    what is allowed instead).  ``boards`` are the boards to post (the final
    board of a game that just ended, then the next game's).  ``buttons`` are
    the actions now available and who may use them.  ``notify`` are
    mentions-worthy lines ("it's @bob's turn").  ``version`` is the match's
    state version after the call, for buttons that must not act on a stale
    state.
    """

    ok: bool
    text: str
    ephemeral: bool = False
    boards: tuple[Board, ...] = ()
    buttons: tuple[Button, ...] = ()
    notify: tuple[str, ...] = ()
    match_id: int | None = None
    version: int | None = None
    attachment: tuple[str, bytes] | None = None
    """A file to attach: (file name, content), e.g. a .mat export."""
    choices: tuple[str, ...] = field(default=())
    """For autocomplete-like calls: the suggestions."""

    @classmethod
    def refuse(cls, reason: str) -> Reply:
        return cls(ok=False, text=reason, ephemeral=True)


class Refusal(Exception):
    """Raised inside the service to refuse an action with a reason for the user."""

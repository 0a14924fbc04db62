"""What a board picture shows: a plain, immutable value built from engine values.

:class:`BoardView` is the renderer's only input.  The game service builds one
from its game state; nothing here knows about games, matches or Discord.

All point numbers inside a view are engine numbers: each player's checkers and
moves are in that player's own numbering (see :mod:`engine.position`).  How
one player's numbering maps onto the other's is the view's ``geometry``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from engine.move import Move
from engine.player import Player
from engine.position import Position
from engine.words import article

Geometry = tuple[int, ...]
"""``geometry[i]`` is the opponent's number of a player's point ``i`` (1..24);
entry 0 is unused (0).  The same mapping applies from either player's side."""

STANDARD: Geometry = tuple(25 - i if 1 <= i <= 24 else 0 for i in range(25))
"""Standard backgammon: the players travel in opposite directions."""

SAME_DIRECTION: Geometry = tuple(range(25))
"""Russian backgammon and similar: both players travel the same way to the same home."""


def inverse(geometry: Geometry) -> Geometry:
    """The mapping back: ``inverse(g)[g[i]] == i``."""
    out = [0] * 25
    for i in range(1, 25):
        out[geometry[i]] = i
    return tuple(out)


class StakeState(Enum):
    """A chouette partner's stake in the current game."""

    IN = "in"
    DROPPED = "dropped"
    OWNS_CUBE = "owns cube"
    DROPS = "drops"
    """He answered the box's double "drop"; he retires when the captain answers."""
    TAKES = "takes"
    """He answered the box's double "take"."""

    @property
    def label(self) -> str:
        return self.value


class ResultKind(Enum):
    SINGLE = "single"
    GAMMON = "gammon"
    BACKGAMMON = "backgammon"

    @property
    def phrase(self) -> str:
        """"a single game", "a gammon", "a backgammon"."""
        return "a single game" if self is ResultKind.SINGLE else article(self.value)


@dataclass(frozen=True, slots=True)
class PlayerInfo:
    """Name and the figures shown next to it.  ``pips`` ``None`` = computed."""

    name: str
    pips: int | None = None
    score: int | None = None
    note: str = ""
    """A short tag shown after the name (e.g. "box", "captain")."""
    clock: str = ""
    """The time left on the player's clock ("4:05"), "" without a clock (issue 44)."""


@dataclass(frozen=True, slots=True)
class CubeView:
    """The doubling cube.

    ``value`` is the cube's current value (automatic doubles included).
    ``owner`` ``None`` means centred.  During a pending double, ``offered_to``
    is the player who must take or drop and ``value`` is still the value before
    the double: the picture shows the offered cube at ``2 * value`` in front
    of that player.
    """

    value: int = 1
    owner: Player | None = None
    offered_to: Player | None = None
    beaver: bool = False
    """The offer is a beaver: the doubled player redoubled at once, keeping the cube
    (002 'OPTIONAL RULES' Beavers); ``offered_to`` is the original doubler."""

    @property
    def shown_value(self) -> int:
        return self.value * 2 if self.offered_to is not None else self.value

    @property
    def verb(self) -> str:
        """What the offering player does: "doubles" or "beavers"."""
        return "beavers" if self.beaver else "doubles"


ANSWER_WORDS = "take or drop"
"""The answers to a double, in the words the commands and buttons use (/take, /drop)."""


@dataclass(frozen=True, slots=True)
class ResignationView:
    """An offer to resign waiting for its answer: ``player`` offers ``kind``."""

    player: Player
    kind: ResultKind

    def sentence(self, names: tuple[str, str]) -> str:
        """"alice offers to resign a single game — bob to accept or reject"."""
        return (f"{names[self.player]} offers to resign {self.kind.phrase} \u2014 "
                f"{names[self.player.other]} to accept or reject")


@dataclass(frozen=True, slots=True)
class MatchInfo:
    length: int
    crawford: bool = False
    """True during the Crawford game."""
    post_crawford: bool = False


@dataclass(frozen=True, slots=True)
class MoneyInfo:
    stake: str = ""
    """Stake per point, already formatted (e.g. "5 chips"); "" = not shown."""
    game_value: int | None = None
    """Points the game is worth now; ``None`` = the cube's value."""


@dataclass(frozen=True, slots=True)
class LastPlay:
    """The play just made, in the mover's own numbering (``Move.hit`` marks hits)."""

    player: Player
    moves: tuple[Move, ...]
    text: str = ""
    """The play in the variant's canonical notation ("" = written from ``moves``)."""


@dataclass(frozen=True, slots=True)
class Partner:
    name: str
    state: StakeState = StakeState.IN


@dataclass(frozen=True, slots=True)
class ChouetteView:
    """A chouette table: ``box`` plays one colour against the captain."""

    box: Player
    partners: tuple[Partner, ...] = ()
    """The captain's partners, in list order, with their stake in this game."""
    box_partners: tuple[str, ...] = ()
    """The box's own partners (``box_partners`` tables): listed with the box."""


@dataclass(frozen=True, slots=True)
class GameOverView:
    winner: Player
    kind: ResultKind
    points: int


@dataclass(frozen=True, slots=True)
class BoardView:
    """Everything one board picture shows.

    ``viewer`` is the player whose numbering labels the points and who sits at
    the bottom; ``None`` means the player on roll (``turn``), or white.
    ``dice`` are the roll of the player on roll (``turn``); ``dice_used``
    flags each die shown (four for doubles) that is already played.
    ``opening`` holds both opening dice as ``(white's, black's)``.
    ``directions`` ``None`` shows direction arrows for variants only.
    ``ids`` is printed at the right of the title band when given.
    """

    position: Position
    geometry: Geometry = STANDARD
    viewer: Player | None = None
    turn: Player | None = None
    players: tuple[PlayerInfo, PlayerInfo] = (PlayerInfo("White"), PlayerInfo("Black"))
    cube: CubeView | None = field(default_factory=CubeView)
    dice: tuple[int, int] | None = None
    dice_used: tuple[bool, ...] = ()
    opening: tuple[int, int] | None = None
    match: MatchInfo | None = None
    money: MoneyInfo | None = None
    last_play: LastPlay | None = None
    chouette: ChouetteView | None = None
    variant: str = ""
    directions: bool | None = None
    game_over: GameOverView | None = None
    ids: str = ""
    """GNU Backgammon's Position ID and Match ID, printed in the title band ("" = none)."""
    resignation: ResignationView | None = None
    """An offer to resign waiting for its answer (``turn`` stays the player whose dice
    are shown)."""
    dice_stage: str = ""
    """How the dice shown came, when not simply thrown: "named" (the doublet named after
    acey-deucy) or "reverse side" (the second stage of a doublet)."""
    thrown: tuple[int, int] | None = None
    """The throw the stage shown comes from, when ``dice_stage`` is set."""

    def dice_words(self) -> str:
        """"rolled 3-1", "named 6-6 (after 2-1)", "plays the reverse side 5-5 (of 2-2)"."""
        if self.dice is None:
            return ""
        shown = f"{self.dice[0]}-{self.dice[1]}"
        after = f"{self.thrown[0]}-{self.thrown[1]}" if self.thrown is not None else ""
        if self.dice_stage == "named":
            return f"named {shown}" + (f" (after {after})" if after else "")
        if self.dice_stage:
            return f"plays the {self.dice_stage} {shown}" + (f" (of {after})" if after else "")
        return f"rolled {shown}"

    @property
    def bottom(self) -> Player:
        """The player seen at the bottom (whose numbering labels the points)."""
        if self.viewer is not None:
            return self.viewer
        return self.turn if self.turn is not None else Player.WHITE

    def pips(self, player: Player) -> int:
        info = self.players[player]
        return info.pips if info.pips is not None else self.position.pip_count(player)

    @property
    def show_directions(self) -> bool:
        return bool(self.variant) if self.directions is None else self.directions

    @property
    def directions_differ(self) -> bool:
        return self.geometry[1] != 1

    def status(self, player: Player) -> str:
        """What ``player`` is doing now, for his name panel ("" for nothing)."""
        if self.game_over is not None:
            return "wins" if self.game_over.winner == player else ""
        if self.resignation is not None:
            return ("offers to resign" if self.resignation.player == player
                    else "to accept or reject")
        if self.cube is not None and self.cube.offered_to is not None:
            return f"to {ANSWER_WORDS}" if self.cube.offered_to == player else self.cube.verb
        if self.turn == player:
            if self.opening is not None:
                return "starts"
            return "to play" if self.dice is not None else "on roll"
        return ""

    def title(self) -> str:
        """The line above the board: variant, chouette, match or money terms."""
        parts: list[str] = []
        if self.variant:
            parts.append(self.variant)
        if self.chouette is not None:
            parts.append("Chouette")
        if self.match is not None:
            m = self.match
            parts.append(f"Match to {m.length}" if m.length > 0 else "Unlimited session")
            if m.crawford:
                parts.append("Crawford game")
            elif m.post_crawford:
                parts.append("post-Crawford")
        if self.money is not None:
            parts.append("Money game" + (f" · stake {self.money.stake}"
                                         if self.money.stake else ""))
            value = self.money.game_value
            if value is None and self.cube is not None:
                value = self.cube.value
            if value is not None:
                parts.append(f"game worth {value}")
        return "  ·  ".join(parts)

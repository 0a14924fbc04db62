"""The game state machine: one game of any variant, as an immutable value.

Every transition (``opening_roll``, ``roll``, ``play``, ``choose``,
``double``, ``take``, ``drop``, ``beaver``, ``resign``,
``answer_resignation``, ``forfeit``) returns a new :class:`Game` with one
more event in :attr:`Game.record`, or raises an error with a message meant
for the player:

* :class:`~engine.errors.WrongPhaseError` -- the action does not fit the
  moment ("You must roll before moving.", "There is no double to take.");
* :class:`~engine.errors.CubeError` -- the doubling rules forbid it ("Only the
  cube owner may redouble.", "The cube is dead in the Crawford game.");
* :class:`~engine.errors.IllegalPlayError` -- the play is not legal.

Dice are always inputs; the engine never draws random numbers.  Everything
that differs between variants goes through :class:`engine.variant.Variant`:
the game asks the variant for the next step of a turn (play a stage, make a
choice, throw again, end the turn).  A stage whose only legal play is the
empty play is applied automatically (the player cannot move).

Phases::

    OPENING      both throw for the first move (``opening_roll``)
    ROLL         ``turn`` may double (at the start of his turn; before any throw
                 with the rule option ``double_before_any_throw``) or ``roll``
    DOUBLED      ``cube.offer.answerer`` must take, drop (or beaver)
    PLAY         ``turn`` must play ``stage`` (``legal_plays()``)
    CHOICE       ``turn`` must ``choose`` one of ``pending_choice.options``
    RESIGNATION  the opponent of ``resignation.player`` must answer
    FINISHED     ``result`` holds winner, kind and points
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any

from engine.cube import Cube
from engine.dice import Dice
from engine.errors import CubeError, IllegalPlayError, RuleOptionError, WrongPhaseError
from engine.move import Move, Play
from engine.player import Player
from engine.position import BAR, Position
from engine.record import (
    Beaver,
    ChoiceMade,
    DoubleOffered,
    Drop,
    Event,
    Forfeit,
    GameEnd,
    GameRecord,
    OpeningRoll,
    PlayMade,
    RecordError,
    ResignAnswer,
    ResignOffer,
    Roll,
    Take,
)
from engine.rules import DEFAULT_RULES, DropScoring, OpeningMethod, RuleOptions
from engine.scoring import EndReason, Result, ResultKind, game_points
from engine.variant import (
    Choice,
    EndTurn,
    Stage,
    StandardBackgammon,
    ThrowAgain,
    TurnContext,
    Variant,
    get_variant,
)


class Phase(Enum):
    OPENING = "opening"
    ROLL = "roll"
    DOUBLED = "doubled"
    PLAY = "play"
    CHOICE = "choice"
    RESIGNATION = "resignation"
    FINISHED = "finished"


class Action(Enum):
    """What a player may do now (see :meth:`Game.available_actions`)."""

    OPENING_ROLL = "opening roll"
    ROLL = "roll"
    DOUBLE = "double"
    TAKE = "take"
    DROP = "drop"
    BEAVER = "beaver"
    PLAY = "play"
    CHOOSE = "choose"
    RESIGN = "resign"
    ACCEPT_RESIGNATION = "accept resignation"
    REJECT_RESIGNATION = "reject resignation"


OPENING_CHOICE = Choice(
    "opening", "Play your opening throw, or throw again?", ("play", "throw again")
)
"""The choice of the opening methods where the winner may play his throw or throw again."""


@dataclass(frozen=True, slots=True)
class Resignation:
    player: Player
    kind: ResultKind


def _as_variant(variant: Variant | type[Variant] | str) -> Variant:
    if isinstance(variant, Variant):
        return variant
    if isinstance(variant, str):
        return get_variant(variant)()
    return variant()


def _dice_values(value: int | Dice | Sequence[int]) -> tuple[int, ...]:
    if isinstance(value, Dice):
        values: tuple[int, ...] = (value.first, value.second)
    elif isinstance(value, int):
        values = (value,)
    else:
        values = tuple(int(v) for v in value)
    for v in values:
        if not 1 <= v <= 6:
            raise ValueError(f"a die shows 1 to 6, not {v}")
    return values


@dataclass(frozen=True, slots=True)
class Game:
    """One game: position, whose turn, phase, dice, cube, record and result."""

    variant: Variant
    rules: RuleOptions
    position: Position
    phase: Phase
    cube: Cube
    turn: Player | None = None
    """The player on roll (to roll, double, play or choose); None before the opening."""
    money: bool = True
    """Money play (the Jacoby rule and beavers apply only here); False in a match."""
    crawford: bool = False
    """The Crawford game of a match: the cube is dead."""
    first_player: Player | None = None
    """Set up so that this player throws first without an opening throw (003 ch.3 VII)."""
    start: Position | None = None
    """The set-up position the game started from, if not the variant's."""
    automatic_doubles: int = 0
    throws: tuple[Dice, ...] = ()
    """Every throw of the current turn (extra throws append), the current one last."""
    stage_plays: tuple[tuple[Stage, Play], ...] = ()
    choices: tuple[str, ...] = ()
    step: Stage | Choice | None = None
    """The pending stage (phase PLAY) or choice (phase CHOICE)."""
    extra_throw: bool = False
    """On roll for a throw within the same turn (no cube action)."""
    opening_turn: bool = False
    """The current turn is the game's first."""
    turns_played: tuple[int, int] = (0, 0)
    opening_throws: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...] = ()
    """Every opening throw (white's dice, black's dice), ties included."""
    resignation: Resignation | None = None
    suspended: Phase | None = None
    """The phase to go back to when a resignation is refused."""
    result: Result | None = None
    record: tuple[Event, ...] = ()
    _legal: dict[Position, Play] = field(default_factory=dict, compare=False, repr=False)

    # -- construction ---------------------------------------------------------

    @classmethod
    def new(cls, variant: Variant | type[Variant] | str = StandardBackgammon,
            rules: RuleOptions = DEFAULT_RULES, *, money: bool = True, crawford: bool = False,
            first_player: Player | None = None, position: Position | None = None) -> Game:
        """A new game.

        ``first_player`` skips the opening throw: that player is on roll
        (003 ch.3 VII, end).  ``position`` starts from a set-up position
        instead of the variant's (analysis, problems, tests).
        """
        v = _as_variant(variant)
        if not money and rules.jacoby:
            raise RuleOptionError("The Jacoby rule applies to money play only, not to matches.")
        if not money and rules.beavers:
            raise RuleOptionError("Beavers are a money-play rule; they are not used in matches.")
        start = v.initial_position() if position is None else position
        game = cls(variant=v, rules=rules, position=start, phase=Phase.OPENING,
                   cube=Cube(max_value=rules.max_cube), money=money, crawford=crawford,
                   first_player=first_player, start=position)
        if first_player is not None:
            game = replace(game, phase=Phase.ROLL, turn=first_player, opening_turn=True)
        return game

    @classmethod
    def replay(cls, events: Iterable[Event], variant: Variant | type[Variant] | str,
               rules: RuleOptions = DEFAULT_RULES, *, money: bool = True,
               crawford: bool = False, first_player: Player | None = None,
               position: Position | None = None) -> Game:
        """Rebuild a game from its events (:class:`~engine.record.RecordError` if they fail)."""
        game = cls.new(variant, rules, money=money, crawford=crawford, first_player=first_player,
                       position=position)
        for event in events:
            game = game.apply(event)
        return game

    @classmethod
    def from_record(cls, record: GameRecord) -> Game:
        return cls.replay(record.events, record.variant, RuleOptions.from_dict(record.rules),
                          money=record.money, crawford=record.crawford,
                          first_player=record.first_player, position=record.position)

    def to_record(self) -> GameRecord:
        return GameRecord(variant=self.variant.name, rules=self.rules.to_dict(),
                          events=self.record, money=self.money, crawford=self.crawford,
                          first_player=self.first_player, position=self.start)

    def apply(self, event: Event) -> Game:
        """Apply one recorded event (the transition it records)."""
        if isinstance(event, OpeningRoll):
            return self.opening_roll(event.white, event.black)
        if isinstance(event, Roll):
            return self.roll(event.dice, event.player)
        if isinstance(event, PlayMade):
            return self.play_moves(event.moves, event.player)
        if isinstance(event, ChoiceMade):
            return self.choose(event.option, event.player)
        if isinstance(event, DoubleOffered):
            return self.double(event.player)
        if isinstance(event, Take):
            return self.take(event.player)
        if isinstance(event, Drop):
            return self.drop(event.player)
        if isinstance(event, Beaver):
            return self.beaver(event.player)
        if isinstance(event, ResignOffer):
            return self.resign(event.player, event.kind)
        if isinstance(event, ResignAnswer):
            return self.answer_resignation(event.player, event.accept)
        if isinstance(event, Forfeit):
            return self.forfeit(event.player, event.kind)
        if isinstance(event, GameEnd):
            r = self.result
            if r is None or (r.winner, r.kind, r.reason, r.points) != (
                    event.winner, event.kind, event.reason, event.points):
                raise RecordError(f"the record says {event} but the replay gives {r}")
            return self
        raise RecordError(f"not a game event: {event!r}")

    # -- queries --------------------------------------------------------------

    @property
    def dice(self) -> Dice | None:
        """The current throw (None before a roll in this turn)."""
        return self.throws[-1] if self.throws else None

    @property
    def stage(self) -> Stage | None:
        return self.step if isinstance(self.step, Stage) and self.phase is Phase.PLAY else None

    @property
    def stage_dice(self) -> tuple[int, ...]:
        """The die values to play now (empty unless a play is awaited)."""
        stage = self.stage
        return stage.dice if stage else ()

    @property
    def pending_choice(self) -> Choice | None:
        return self.step if isinstance(self.step, Choice) and self.phase is Phase.CHOICE else None

    @property
    def is_finished(self) -> bool:
        return self.phase is Phase.FINISHED

    @property
    def cube_in_use(self) -> bool:
        """The cube can be turned in this game (rules, variant, not the Crawford game)."""
        return self.rules.cube and self.variant.cube_allowed and not self.crawford

    @property
    def awaiting(self) -> Player | None:
        """Who must act next (None in the opening and when finished)."""
        if self.phase is Phase.DOUBLED and self.cube.offer is not None:
            return self.cube.offer.answerer
        if self.phase is Phase.RESIGNATION and self.resignation is not None:
            return self.resignation.player.other
        if self.phase in (Phase.OPENING, Phase.FINISHED):
            return None
        return self.turn

    def legal_plays(self) -> list[Play]:
        """The legal plays of the pending stage (empty if no play is awaited)."""
        if self.phase is not Phase.PLAY:
            return []
        return list(self._legal.values())

    def turn_context(self) -> TurnContext:
        assert self.turn is not None
        return TurnContext(player=self.turn, throws=self.throws, plays=self.stage_plays,
                           choices=self.choices, position=self.position,
                           turn_number=self.turns_played[self.turn], opening=self.opening_turn,
                           rules=self.rules)

    def may_double(self, player: Player) -> bool:
        try:
            self._check_double(player)
        except (CubeError, WrongPhaseError):
            return False
        return True

    def available_actions(self) -> frozenset[tuple[Player, Action]]:
        """Every (player, action) allowed now, so the bot can show the right buttons."""
        acts: set[tuple[Player, Action]] = set()
        phase = self.phase
        if phase is Phase.FINISHED:
            return frozenset()
        if phase is Phase.RESIGNATION:
            assert self.resignation is not None
            other = self.resignation.player.other
            return frozenset({(other, Action.ACCEPT_RESIGNATION),
                              (other, Action.REJECT_RESIGNATION)})
        for p in Player:
            acts.add((p, Action.RESIGN))
        if phase is Phase.OPENING:
            acts.update({(p, Action.OPENING_ROLL) for p in Player})
        elif phase is Phase.DOUBLED:
            assert self.cube.offer is not None
            answerer = self.cube.offer.answerer
            acts.update({(answerer, Action.TAKE), (answerer, Action.DROP)})
            if self._beaver_allowed(answerer):
                acts.add((answerer, Action.BEAVER))
        elif self.turn is not None:
            if phase is Phase.ROLL:
                acts.add((self.turn, Action.ROLL))
                if self.may_double(self.turn):
                    acts.add((self.turn, Action.DOUBLE))
            elif phase is Phase.PLAY:
                acts.add((self.turn, Action.PLAY))
            elif phase is Phase.CHOICE:
                acts.add((self.turn, Action.CHOOSE))
        return frozenset(acts)

    # -- errors ---------------------------------------------------------------

    def _phase_error(self, wanted: str) -> WrongPhaseError:
        """The refusal for ``wanted`` ('roll', 'play', 'choose') in the wrong phase."""
        phase = self.phase
        if phase is Phase.FINISHED:
            return WrongPhaseError("The game is over.")
        if phase is Phase.RESIGNATION:
            return WrongPhaseError("A resignation offer is waiting for an answer.")
        if phase is Phase.OPENING:
            return WrongPhaseError("The game starts with the opening throw for the first move.")
        if phase is Phase.DOUBLED:
            return WrongPhaseError("The double must be taken or dropped first.")
        if phase is Phase.ROLL:
            if wanted == "play":
                return WrongPhaseError("You must roll before moving.")
            return WrongPhaseError("You must roll first.")
        if phase is Phase.PLAY:
            dice = "-".join(str(d) for d in self.stage_dice[:2])
            if wanted == "roll":
                return WrongPhaseError(f"You have already rolled: play your {dice} first.")
            return WrongPhaseError(f"Play your {dice} first.")
        choice = self.pending_choice
        prompt = choice.prompt if choice else "Make your choice first."
        return WrongPhaseError(f"Choose first: {prompt}")

    def _check_turn(self, player: Player | None) -> Player:
        assert self.turn is not None
        if player is not None and player is not self.turn:
            raise WrongPhaseError(f"It's not your turn: {self.turn.label} is on roll.")
        return self.turn

    # -- opening --------------------------------------------------------------

    def opening_roll(self, white: int | Dice | Sequence[int],
                     black: int | Dice | Sequence[int]) -> Game:
        """The throw for the first move: a die each (or two dice each, by the opening method).

        A tie is thrown again and, with automatic doubles on, doubles the
        stake (up to the cap; not in the Crawford game).
        """
        if self.phase is not Phase.OPENING:
            if self.phase in (Phase.FINISHED, Phase.RESIGNATION):
                raise self._phase_error("opening")
            raise WrongPhaseError("The opening throw has already been made.")
        method = self.variant.opening_method(self.rules)
        w, b = _dice_values(white), _dice_values(black)
        if len(w) != method.dice_each or len(b) != method.dice_each:
            each = "one die" if method.dice_each == 1 else "two dice"
            raise ValueError(f"The opening throw is {each} each.")
        game = replace(self, record=(*self.record, OpeningRoll(w, b)),
                       opening_throws=(*self.opening_throws, (w, b)))
        if sum(w) == sum(b):
            return game._opening_tie()
        winner, dice = (Player.WHITE, w) if sum(w) > sum(b) else (Player.BLACK, b)
        game = replace(game, turn=winner, opening_turn=True)
        if method is OpeningMethod.ONE_DIE:
            return game._start_throw(Dice(w[0], b[0]) if winner is Player.WHITE
                                     else Dice(b[0], w[0]))
        if method is OpeningMethod.TWO_DICE_CHOICE:
            return replace(game, phase=Phase.CHOICE, step=OPENING_CHOICE,
                           throws=(Dice(dice[0], dice[1]),))
        if method is OpeningMethod.ONE_DIE_CHOICE:
            # 003 ch.10 I: the winner "either may throw again with his own dice or use
            # the initial throw" -- both dice, his own first.
            loser_die = b[0] if winner is Player.WHITE else w[0]
            return replace(game, phase=Phase.CHOICE, step=OPENING_CHOICE,
                           throws=(Dice(dice[0], loser_die),))
        # ONE_DIE_RETHROW, TWO_DICE_RETHROW: the winner throws again for his first move.
        return replace(game, phase=Phase.ROLL, extra_throw=True)

    def _opening_tie(self) -> Game:
        rules = self.rules
        if not (rules.automatic_doubles and not self.crawford):
            return self
        if (not rules.automatic_doubles_two_dice
                and self.variant.opening_method(rules).dice_each == 2):
            # 003 ch.4 I: automatic doubles come from ties of "a single die" each;
            # 000 'ADDITIONAL RULES' 5 ("Each tie") is the default.
            return self
        cap = rules.automatic_doubles_cap
        if cap is not None and self.automatic_doubles >= cap:
            return self
        if not self.cube.automatic_double_allowed():
            return self
        return replace(self, cube=self.cube.automatic_double(),
                       automatic_doubles=self.automatic_doubles + 1)

    # -- rolling and playing ---------------------------------------------------

    def roll(self, dice: Dice | Sequence[int], player: Player | None = None) -> Game:
        """The player on roll throws ``dice``."""
        if self.phase is not Phase.ROLL:
            raise self._phase_error("roll")
        mover = self._check_turn(player)
        d = dice if isinstance(dice, Dice) else Dice(*_dice_values(dice))
        game = replace(self, record=(*self.record, Roll(mover, d)))
        return game._start_throw(d, extra=self.extra_throw)

    def _start_throw(self, dice: Dice, extra: bool = False) -> Game:
        throws = (*self.throws, dice) if extra else (dice,)
        game = replace(self, throws=throws, stage_plays=(), choices=(), extra_throw=False,
                       step=None)
        return game._advance()

    def _advance(self) -> Game:
        """Ask the variant for the next step until the player must act."""
        game = self
        for _ in range(64):
            mover = game.turn
            assert mover is not None
            ctx = game.turn_context()
            step = game.variant.next_step(ctx)
            if isinstance(step, Stage):
                plays = game.variant.legal_plays(game.position, mover, step, ctx)
                if len(plays) == 1 and not plays[0].moves:
                    game = replace(game, stage_plays=(*game.stage_plays, (step, plays[0])))
                    continue
                return replace(game, phase=Phase.PLAY, step=step,
                               _legal={p.position: p for p in plays})
            if isinstance(step, Choice):
                return replace(game, phase=Phase.CHOICE, step=step, _legal={})
            if isinstance(step, ThrowAgain):
                return replace(game, phase=Phase.ROLL, step=None, extra_throw=True,
                               stage_plays=(), choices=(), _legal={})
            if isinstance(step, EndTurn):
                played = list(game.turns_played)
                played[mover] += 1
                return replace(game, phase=Phase.ROLL, turn=mover.other, step=None,
                               throws=(), stage_plays=(), choices=(), extra_throw=False,
                               opening_turn=False, turns_played=(played[0], played[1]),
                               _legal={})
            raise TypeError(f"{game.variant!r}.next_step returned {step!r}")
        raise RuntimeError(f"{self.variant!r}: a turn did not settle after 64 steps")

    def play(self, play: Play, player: Player | None = None) -> Game:
        """Make ``play`` (any Play giving a legal resulting position) for the pending stage."""
        if self.phase is not Phase.PLAY:
            raise self._phase_error("play")
        mover = self._check_turn(player)
        legal = self._legal.get(play.position)
        stage = self.step
        assert isinstance(stage, Stage)
        if legal is None:
            raise IllegalPlayError(
                self.variant.illegal_play_message(self.turn_context(), stage, play))
        made = Play(play.moves, play.dice, legal.position) if play.moves else legal
        game = replace(self, record=(*self.record, PlayMade(mover, made.moves)),
                       position=legal.position,
                       stage_plays=(*self.stage_plays, (stage, made)))
        winner = game.variant.winner(game.position)
        if winner is not None:
            kind = game.variant.result_kind(game.position, winner)
            return game._finish(winner, kind, EndReason.BORNE_OFF, game.cube.value)
        return game._advance()

    def play_moves(self, moves: Sequence[Move], player: Player | None = None) -> Game:
        """Make the play consisting of ``moves`` (as recorded or as typed in numbers)."""
        if self.phase is not Phase.PLAY:
            raise self._phase_error("play")
        wanted = tuple(moves)
        for candidate in self._legal.values():
            if candidate.moves == wanted:
                return self.play(candidate, player)
        key = sorted((m.src, m.dst, m.hit) for m in wanted)
        for candidate in self._legal.values():
            if sorted((m.src, m.dst, m.hit) for m in candidate.moves) == key:
                return self.play(Play(wanted, candidate.dice, candidate.position), player)
        assert self.turn is not None
        position = _apply_moves(self.position, self.turn, wanted, self.variant.opposite)
        return self.play(Play(wanted, tuple(m.distance for m in wanted), position), player)

    def choose(self, option: str, player: Player | None = None) -> Game:
        """Answer the pending choice (a doublet after acey-deucy, play or throw again...)."""
        if self.phase is not Phase.CHOICE:
            raise self._phase_error("choose")
        mover = self._check_turn(player)
        choice = self.step
        assert isinstance(choice, Choice)
        wanted = str(option).strip().lower()
        matches = [o for o in choice.options if o.lower() == wanted]
        if not matches:
            raise IllegalPlayError(f"Choose one of: {', '.join(choice.options)}.")
        picked = matches[0]
        game = replace(self, record=(*self.record, ChoiceMade(mover, picked)))
        if choice is OPENING_CHOICE or choice == OPENING_CHOICE:
            if picked == "play":
                return game._start_throw(self.throws[-1])
            return replace(game, phase=Phase.ROLL, step=None, throws=(), extra_throw=True)
        game = replace(game, choices=(*self.choices, picked), step=None)
        return game._advance()

    # -- the cube ---------------------------------------------------------------

    def _check_double(self, player: Player) -> None:
        phase = self.phase
        if phase in (Phase.FINISHED, Phase.RESIGNATION):
            raise self._phase_error("double")
        if not (self.rules.cube and self.variant.cube_allowed):
            raise CubeError("This game is played without the doubling cube.")
        if self.crawford:
            raise CubeError("The cube is dead in the Crawford game.")
        if phase is Phase.OPENING:
            raise WrongPhaseError("You can't double before the game has started.")
        if phase is Phase.DOUBLED:
            raise CubeError("A double is already waiting for an answer.")
        if player is not self.turn:
            raise WrongPhaseError("You can only double at the start of your own turn.")
        if phase is not Phase.ROLL:
            raise CubeError("You can't double now: you have already rolled. "
                            "You can only double before rolling.")
        if self.extra_throw and not self.rules.double_before_any_throw:
            raise CubeError("You can't double in the middle of a turn: you can only double "
                            "before your first throw (002 'DOUBLING'; the rule option "
                            "double_before_any_throw allows it, 003 ch.4 II).")
        self.cube.check_double(player)

    def double(self, player: Player) -> Game:
        """``player`` offers to double, at the start of his turn before rolling (002)."""
        self._check_double(player)
        return replace(self, phase=Phase.DOUBLED, cube=self.cube.double(player),
                       record=(*self.record, DoubleOffered(player)))

    def _check_answer(self, what: str) -> None:
        if self.phase is not Phase.DOUBLED:
            if self.phase in (Phase.FINISHED, Phase.RESIGNATION):
                raise self._phase_error(what)
            raise WrongPhaseError(f"There is no double to {what}.")

    def take(self, player: Player) -> Game:
        """Accept the double: the taker owns the cube at twice the value (001, 002)."""
        self._check_answer("take")
        cube = self.cube.take(player)
        return replace(self, phase=Phase.ROLL, cube=cube, record=(*self.record, Take(player)))

    def drop(self, player: Player) -> Game:
        """Refuse the double: lose the value before it (001, 002); under checker
        scoring the position is scored as it stands (003 ch.6 II), and with the
        rule option ``drop_scoring = as-it-stands`` a gammon or backgammon counts
        as one (003 ch.4 II, 004 'OPTIONAL DOUBLING')."""
        self._check_answer("drop")
        value = self.cube.drop_value(player)
        game = replace(self, record=(*self.record, Drop(player)))
        kind = ResultKind.SINGLE
        if self.rules.drop_scoring is DropScoring.AS_IT_STANDS:
            # 003 ch.4 II: "it is scored as it stands at the moment the double was
            # offered"; 004 'OPTIONAL DOUBLING': "the game is scored as it stands".
            kind = self.variant.result_kind(self.position, player.other)
        return game._finish(player.other, kind, EndReason.DROP, value)

    def _beaver_allowed(self, player: Player) -> bool:
        if not (self.rules.beavers and self.money) or self.phase is not Phase.DOUBLED:
            return False
        try:
            self.cube.check_beaver(player)
        except CubeError:
            return False
        return True

    def beaver(self, player: Player) -> Game:
        """Take and immediately redouble, keeping the cube (002 'OPTIONAL RULES' Beavers)."""
        self._check_answer("beaver")
        if not (self.rules.beavers and self.money):
            raise CubeError("Beavers are not allowed in this game.")
        cube = self.cube.beaver(player)
        return replace(self, cube=cube, record=(*self.record, Beaver(player)))

    # -- resignation and forfeit -------------------------------------------------

    def resign(self, player: Player, kind: ResultKind = ResultKind.SINGLE) -> Game:
        """Offer to resign a single game, a gammon or a backgammon."""
        if self.phase is Phase.FINISHED:
            raise self._phase_error("resign")
        if self.phase is Phase.RESIGNATION:
            raise WrongPhaseError("A resignation offer is already waiting for an answer.")
        return replace(self, phase=Phase.RESIGNATION, suspended=self.phase,
                       resignation=Resignation(player, ResultKind(kind)),
                       record=(*self.record, ResignOffer(player, ResultKind(kind))))

    def answer_resignation(self, player: Player, accept: bool) -> Game:
        """The opponent accepts (the game ends) or refuses (play goes on)."""
        if self.phase is not Phase.RESIGNATION or self.resignation is None:
            if self.phase is Phase.FINISHED:
                raise self._phase_error("answer")
            raise WrongPhaseError("There is no resignation to answer.")
        offer = self.resignation
        if player is offer.player:
            raise WrongPhaseError("You offered to resign: your opponent must answer.")
        game = replace(self, record=(*self.record, ResignAnswer(player, accept)))
        if accept:
            return game._finish(player, offer.kind, EndReason.RESIGNATION, self.cube.value)
        assert self.suspended is not None
        return replace(game, phase=self.suspended, suspended=None, resignation=None)

    def forfeit(self, player: Player, kind: ResultKind = ResultKind.SINGLE) -> Game:
        """``player`` loses by forfeit (timeout claim, abandonment), scored as ``kind``."""
        if self.phase is Phase.FINISHED:
            raise self._phase_error("forfeit")
        game = replace(self, record=(*self.record, Forfeit(player, ResultKind(kind))))
        return game._finish(player.other, ResultKind(kind), EndReason.FORFEIT, self.cube.value)

    # -- the end ----------------------------------------------------------------

    def counted_kind(self, kind: ResultKind) -> ResultKind:
        """The kind as scored: a single in a variant without gammons, or under the
        Jacoby rule when no double was offered (002; money play only)."""
        if not self.variant.gammons_counted(self.rules):
            return ResultKind.SINGLE
        if self.rules.jacoby and self.money and not self.cube.turned:
            return ResultKind.SINGLE
        return kind

    def resignation_result(self, player: Player, kind: ResultKind) -> Result:
        """What ``player`` resigning ``kind`` now scores if accepted: the same computation
        that settles an accepted resignation (scoring method, Jacoby, backgammon value,
        cube), so an offer never promises a different number than the settlement."""
        return self._result(player.other, ResultKind(kind), EndReason.RESIGNATION,
                            self.cube.value)

    def _result(self, winner: Player, kind: ResultKind, reason: EndReason,
                cube_value: int) -> Result:
        counted = self.counted_kind(kind)
        points = game_points(self.rules.scoring, counted, cube_value,
                             self.position.sides[winner.other], self.variant.zone,
                             self.rules.backgammon_value)
        return Result(winner, kind, reason, cube_value, points, counted)

    def _finish(self, winner: Player, kind: ResultKind, reason: EndReason,
                cube_value: int) -> Game:
        result = self._result(winner, kind, reason, cube_value)
        points = result.points
        return replace(self, phase=Phase.FINISHED, result=result, resignation=None,
                       suspended=None, step=None, _legal={},
                       record=(*self.record, GameEnd(winner, kind, reason, points)))

    def to_dict(self) -> dict[str, Any]:
        """The record in its stored form (see :mod:`engine.record`)."""
        return self.to_record().to_dict()


def _apply_moves(position: Position, player: Player, moves: Sequence[Move],
                 opposite: Sequence[int]) -> Position:
    """The position after ``moves`` (hits go to the opponent's bar)."""
    mine = list(position.sides[player])
    theirs = list(position.sides[player.other])
    for m in moves:
        if mine[m.src] <= 0:
            raise IllegalPlayError(f"There is no checker of yours to move from {m.src}.")
        mine[m.src] -= 1
        mine[m.dst] += 1
        if m.hit and 1 <= m.dst <= 24:
            j = opposite[m.dst]
            if theirs[j] != 1:
                raise IllegalPlayError(f"There is no blot to hit on {m.dst}.")
            theirs[j] = 0
            theirs[BAR] += 1
    if player is Player.WHITE:
        return Position.unchecked(tuple(mine), tuple(theirs))
    return Position.unchecked(tuple(theirs), tuple(mine))

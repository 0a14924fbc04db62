"""The analysis of a book variant's game by our own network (issue 46, item 4).

bgsage knows standard backgammon only; a game of Acey-Deucey, Russian or French
backgammon is rated by the variant's self-trained network
(:func:`bot.ai.tdnet.player.network_for`), where one exists, through the same
:func:`bot.ai.analysis.analyze` (the same tallies, PR, luck, graph, puzzles), and says
so: its ``source`` is the network's name (:func:`bot.ai.tdnet.player.judge`), never
GNU Backgammon's nor bgsage's.  Everything is at 0-ply and cubeless, from the
decider's side, per unit of the cube (as the network's own play and hints,
:mod:`bot.ai.tdnet.player`):

* **a play** -- each stage of a throw is a decision when it has two legal plays or
  more; its error is the best play's equity minus that of the play made, among the
  stage's legal plays (valued as :func:`bot.ai.tdnet.turns.play_values` does);
* **a choice** of the variant (the doublet named after acey-deucy, play or throw
  again) -- each option played out greedily to the end of the throw
  (:func:`bot.ai.tdnet.turns.option_values`, the opening's "play or throw again" as
  the network's player weighs it); the best option's value minus the one chosen;
* **the cube** -- judged by the network's cube rules (:mod:`bot.ai.tdnet.player`):
  the equity of the right action minus that of the one taken, where the actions'
  equities are chosen so that the rules' thresholds are their break-even points.
  For the doubler, with ``E`` his cubeless equity on roll: no double ``E``; double
  ``min(2E - need, 1)`` (``need``: the rule's 0.40 with the cube in the middle, 0.45
  when he owns it; 1: the point the opponent passes, so a position too good to
  double is played on).  For the taker, with ``T`` his cubeless equity: pass -1;
  take ``-1 + 2 (T - TAKE)`` in money play (the take rule's -0.55 the break-even
  point), in a match ``-1`` plus the rule's match-winning chance of taking over
  passing in units of the cube (:func:`bot.ai.mwc.value_per_emg`).  A double is
  always a decision, no double only when it was close (:data:`CLOSE_CUBE`), a take
  or pass always; not in the opening position nor with a dead cube (as gnubg);
* **luck** -- each throw of the dice: the value of the throw's outcome (the throw
  played to its end greedily, stage by stage, :func:`bot.ai.tdnet.turns.finish_throw`)
  minus the average of the same over the 36 throws.  An opening throw the winner
  plays at once is rated the same way, from the opening position (over the 30 throws
  that are no doublet where the opening throw is a die each).

Which decisions count, PR and the graph's match-winning chances are then
:mod:`bot.ai.analysis`' own.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from bot.ai.analysed import Candidate
from bot.ai.context import MatchContext
from bot.ai.decisions import CANDIDATES, CLOSE_CUBE, Rated, live_cube
from bot.ai.mwc import value_per_emg
from bot.ai.sage import Chances
from bot.ai.tdnet import player as tdnet_player
from bot.ai.tdnet.family import family_of
from bot.ai.tdnet.net import Net
from bot.ai.tdnet.turns import (
    Evaluator,
    finish_throw,
    option_values,
    value_at_end,
)
from engine.dice import Dice
from engine.game import OPENING_CHOICE, Game, Phase
from engine.player import Player
from engine.record import ChoiceMade, DoubleOffered, Drop, OpeningRoll, PlayMade, Roll, Take
from engine.variant import TurnContext, get_variant

THROWS: tuple[tuple[Dice, int], ...] = tuple(
    (Dice(a, b), 1 if a == b else 2) for a in range(1, 7) for b in range(1, a + 1))
"""The 21 throws, each with how many of the 36 it stands for."""


def network_of(variant_name: str) -> Net | None:
    """The network that analyses games of the variant called ``variant_name`` (None: no
    network knows it, or it is standard backgammon, which bgsage analyses)."""
    if variant_name == "standard":
        return None
    try:
        variant = get_variant(variant_name)()
    except (KeyError, ValueError):
        return None
    return tdnet_player.network_for(variant)


def analysable_variant(variant_name: str) -> bool:
    """Whether games of ``variant_name`` can be analysed: standard backgammon (bgsage) or
    a variant one of our networks knows."""
    return variant_name == "standard" or network_of(variant_name) is not None


def engine_name(game: Game, net: Net) -> str:
    """What is stored as the analysis' engine: the network (its family and how many
    self-play games trained it), never bgsage."""
    return f"{family_of(game.variant)} network ({net.games} self-play games)"


class VariantRater:
    """Rates the decisions and throws of one game of a book variant with ``net``."""

    def __init__(self, net: Net, game: Game, ctx: MatchContext) -> None:
        self.net = net
        self.ev = Evaluator.of(net, game.variant, game.rules)
        self.ctx = ctx
        self.source = f"{tdnet_player.judge(game)}, 0-ply"
        self.engine = engine_name(game, net)

    def rate(self, game: Game, after: Game, event: object
             ) -> tuple[Rated | None, tuple[Player, float] | None]:
        """The decision ``event`` made in ``game`` (None: not one), and the luck of its
        throw (None: it threw no dice)."""
        if isinstance(event, PlayMade) and game.phase is Phase.PLAY:
            return self.play(game, event), None
        if isinstance(event, ChoiceMade) and game.phase is Phase.CHOICE:
            return self.choice(game, event), None
        if isinstance(event, (Take, Drop)) and game.phase is Phase.DOUBLED:
            return self.answer(game, event), None
        if isinstance(event, (DoubleOffered, Roll)) and game.phase is Phase.ROLL:
            rated = self.cube(game, event)
            if isinstance(event, Roll):
                extra = game.extra_throw and game.turn is event.player
                luck = self.luck(game, event.player, event.dice,
                                 game.throws if extra else (), game.opening_turn)
                return rated, (event.player, luck)
            return rated, None
        if isinstance(event, OpeningRoll) and game.phase is Phase.OPENING \
                and after.phase is Phase.PLAY and after.dice is not None \
                and after.turn is not None and len(after.throws) == 1:
            one_die = game.variant.opening_method(game.rules).dice_each == 1
            return None, (after.turn, self.luck(game, after.turn, after.dice, (), True,
                                                doublets=not one_die))
        return None, None

    # checker play and choices ------------------------------------------------------

    def play(self, game: Game, event: PlayMade) -> Rated | None:
        plays = game.legal_plays()
        if len(plays) < 2:
            return None
        made = game.play_moves(event.moves, event.player).position
        index = next((i for i, p in enumerate(plays) if p.position == made), None)
        if index is None:
            return None
        chances = self.ev.after_play([p.position for p in plays], event.player)
        values = self.ev.equities(chances)
        texts = [game.variant.format_play(p) for p in plays]
        return self._rated(event.player, "play", values, texts, index,
                           tdnet_player.chances_of(chances[index]))

    def choice(self, game: Game, event: ChoiceMade) -> Rated | None:
        choice = game.pending_choice
        if choice is None or len(choice.options) < 2 or event.option not in choice.options:
            return None
        me = event.player
        if choice == OPENING_CHOICE and game.dice is not None:
            turn = TurnContext(me, (game.dice,), (), (), game.position, 0, True, game.rules)
            end, step = finish_throw(self.ev, turn)
            values = np.array([value_at_end(self.ev, end, step),
                               tdnet_player.equity_on_roll(self.ev, game, me)])
        else:
            values = option_values(self.ev, game.turn_context(), choice)
        index = choice.options.index(event.option)
        chances = tdnet_player.chances_of(self.ev.on_roll([game.position], me)[0])
        return self._rated(me, "choice", values, list(choice.options), index, chances)

    @staticmethod
    def _rated(player: Player, kind: str, values: np.ndarray, texts: Sequence[str],
               index: int, chances: Chances) -> Rated:
        order = sorted(range(len(texts)), key=lambda i: -float(values[i]))
        best = order[0]
        kept = order[:CANDIDATES]
        if index not in kept:
            kept = [*kept[:CANDIDATES - 1], index]
        lost = max(0.0, float(values[best]) - float(values[index]))
        return Rated(player, kind, lost, texts[index], texts[best], False,
                     float(values[index]), chances.win,
                     tuple(Candidate(texts[i], float(values[i])) for i in kept), chances)

    # the cube ------------------------------------------------------------------------

    def cube(self, game: Game, event: DoubleOffered | Roll) -> Rated | None:
        p = event.player
        if not game.may_double(p) or not live_cube(game, self.ctx, p):
            return None
        if game.position == game.variant.initial_position():
            return None  # (no cube decision is rated in the opening position)
        e = tdnet_player.equity_on_roll(self.ev, game, p)
        need = tdnet_player.DOUBLE_CENTRED if game.cube.owner is None \
            else tdnet_player.DOUBLE_OWNED
        no_double, double = e, min(2.0 * e - need, 1.0)
        best = max(no_double, double)
        best_text = "double" if double > no_double else "no double"
        cands = tuple(sorted((Candidate("no double", no_double), Candidate("double", double)),
                             key=lambda c: -c.equity))
        chances = tdnet_player.chances_of(self.ev.on_roll([game.position], p)[0])
        if isinstance(event, DoubleOffered):
            return Rated(p, "double", max(0.0, best - double), "double", best_text, True,
                         double, chances.win, cands, chances)
        if best - double >= CLOSE_CUBE:
            return None
        return Rated(p, "no double", max(0.0, best - no_double), "no double", best_text,
                     True, no_double, chances.win, cands, chances)

    def answer(self, game: Game, event: Take | Drop) -> Rated | None:
        offer = game.cube.offer
        if offer is None or offer.beaver:
            return None
        me = event.player
        mine = tdnet_player.taker_chances(self.ev, game, me)
        chances = tdnet_player.chances_of(mine)
        pass_eq = -1.0
        if game.money or self.ctx.is_money:
            t = float(self.ev.equities(mine[None, :])[0])
            take_eq = -1.0 + 2.0 * (t - tdnet_player.TAKE)
        else:
            value = offer.value
            gain = tdnet_player.match_take(self.ev, game, self.ctx, me, chances, value)
            unit = value_per_emg(game, self.ctx, me)
            take_eq = -1.0 + (gain / unit if unit > 0 else 0.0)
        best_text = "take" if take_eq >= pass_eq else "pass"
        chosen = take_eq if isinstance(event, Take) else pass_eq
        kind = "take" if isinstance(event, Take) else "drop"
        cands = tuple(sorted((Candidate("take", take_eq), Candidate("pass", pass_eq)),
                             key=lambda c: -c.equity))
        return Rated(me, kind, max(0.0, max(take_eq, pass_eq) - chosen),
                     "take" if kind == "take" else "pass", best_text, True, chosen,
                     chances.win, cands, chances)

    # luck ----------------------------------------------------------------------------

    def luck(self, game: Game, player: Player, dice: Dice, throws: tuple[Dice, ...],
             opening: bool, doublets: bool = True) -> float:
        """The value of ``player``'s throw ``dice`` in ``game`` (before it; ``throws``:
        his earlier throws of this turn) minus the average over the 36 throws (the 30
        that are no doublet when an opening throw cannot be one), each throw played to
        its end greedily."""
        number = game.turns_played[player]
        values: dict[Dice, float] = {}
        weights = {t: n for t, n in THROWS if doublets or t.first != t.second}
        for throw in weights:
            turn = TurnContext(player, (*throws, throw), (), (), game.position, number,
                               opening, game.rules)
            end, step = finish_throw(self.ev, turn)
            values[throw] = value_at_end(self.ev, end, step)
        mean = sum(values[t] * n for t, n in weights.items()) / sum(weights.values())
        key = Dice(max(dice.first, dice.second), min(dice.first, dice.second))
        return values[key] - mean

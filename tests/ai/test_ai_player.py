"""bot.ai.player: the AI always makes a legal decision; sensible cube and resignation
answers; AI-vs-AI games and matches through engine.game / engine.match."""

from __future__ import annotations

import random

import pytest
import variant_nets

from bot.ai.context import MatchContext
from bot.ai.heuristic import contact, race_lead
from bot.ai.levels import BEGINNER, DEFAULT_LEVEL, INTERMEDIATE, LEVELS, STRONG, get_level
from bot.ai.player import Decision, NoDecision, apply_decision, decide
from bot.ai.selfplay import opening
from engine.dice import Dice
from engine.game import Action, Game, Phase
from engine.match import Match, MoneySession
from engine.player import Player
from engine.position import BAR, OFF, SLOTS, Position
from engine.rules import OpeningMethod, RuleOptions
from engine.scoring import ResultKind


def check_legal(g: Game, d: Decision) -> None:
    """The decision is allowed now, and its play/option is one of the legal ones."""
    assert d.player is g.awaiting
    assert (d.player, d.action) in g.available_actions(), (g.phase, d)
    if d.action is Action.PLAY:
        assert d.play is not None and d.play in g.legal_plays()
    if d.action is Action.CHOOSE:
        choice = g.pending_choice
        assert choice is not None and d.option in choice.options


def play_out(g: Game, ctx: MatchContext, levels: dict[Player, object], rng: random.Random,
             resign_every: int = 0, max_steps: int = 3000) -> tuple[Game, int]:
    """Play ``g`` to the end with the AI on both sides, checking every decision."""
    steps = 0
    g = opening(g, rng)
    while not g.is_finished and steps < max_steps:
        g = opening(g, rng)
        if g.is_finished:
            break
        if resign_every and steps % resign_every == resign_every - 1 \
                and g.phase is not Phase.RESIGNATION:
            g = g.resign(rng.choice(list(Player)), rng.choice(list(ResultKind)))
        player = g.awaiting
        assert player is not None
        level = levels[player]
        d = decide(g, ctx, level, rng)  # type: ignore[arg-type]
        check_legal(g, d)
        g = apply_decision(g, d, Dice(rng.randint(1, 6), rng.randint(1, 6)))
        steps += 1
    assert g.is_finished
    return g, steps


def test_levels() -> None:
    assert get_level(None) is DEFAULT_LEVEL is STRONG
    assert get_level("Expert") is LEVELS["expert"]
    assert [lv.name for lv in LEVELS.values()] == ["beginner", "intermediate", "strong", "expert"]
    assert BEGINNER.noise > INTERMEDIATE.noise > STRONG.noise == 0
    with pytest.raises(ValueError, match="Levels"):
        get_level("grandmaster")


def test_no_decision_in_opening() -> None:
    with pytest.raises(NoDecision):
        decide(Game.new())


@pytest.mark.parametrize("variant", ["acey-deucey", "russian", "french", "acey-deucey-1930"])
def test_variants_heuristic_games_always_legal(variant: str,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    variant_nets.remove(monkeypatch)  # the heuristic's games (our networks': tests/ai/tdnet)
    rng = random.Random(variant)
    rules = RuleOptions(beavers=True, jacoby=True)
    lv = {Player.WHITE: BEGINNER, Player.BLACK: STRONG}
    for i in range(3):
        g, steps = play_out(Game.new(variant, rules), MatchContext(), lv, rng,
                            resign_every=97 if i == 0 else 0)
        assert steps > 10
        assert g.result is not None


def test_standard_random_states_all_phases() -> None:
    """Money (Jacoby, beavers, automatic doubles), match, Crawford and post-Crawford,
    two-dice opening choice, resignation offers: every decision is legal."""
    rng = random.Random(5)
    setups = [
        (Game.new("standard", RuleOptions(jacoby=True, beavers=True, automatic_doubles=True)),
         MatchContext()),
        (Game.new("standard", RuleOptions(opening=OpeningMethod.TWO_DICE_CHOICE, cube=False)),
         MatchContext()),
        (Game.new("standard", money=False), MatchContext(5, (2, 1))),
        (Game.new("standard", money=False, crawford=True), MatchContext(5, (4, 1))),
        (Game.new("standard", money=False), MatchContext(5, (4, 3))),  # post-Crawford
        (Game.new("standard", RuleOptions(max_cube=2), money=False), MatchContext(7, (0, 0))),
    ]
    for g, ctx in setups:
        lv = {Player.WHITE: BEGINNER, Player.BLACK: INTERMEDIATE}
        play_out(g, ctx, lv, rng, resign_every=41)


def test_same_seed_same_decisions() -> None:
    g = opening(Game.new(), random.Random(1))
    a = decide(g, MatchContext(), BEGINNER, random.Random(42))
    b = decide(g, MatchContext(), BEGINNER, random.Random(42))
    assert a == b


def race_game(white_points: dict[int, int], black_points: dict[int, int],
              money: bool = True, rules: RuleOptions | None = None) -> Game:
    def side(points: dict[int, int]) -> list[int]:
        s = [0] * SLOTS
        for p, c in points.items():
            s[p] = c
        s[OFF] = 15 - sum(points.values())
        return s

    pos = Position.from_sides(side(white_points), side(black_points))
    return Game.new("standard", rules or RuleOptions(), money=money,
                    first_player=Player.WHITE, position=pos)


def test_too_good_to_double_plays_on_for_the_gammon() -> None:
    g = race_game({1: 3, 2: 3, 3: 2}, {6: 5, 7: 5, 8: 5})
    d = decide(g, MatchContext(), STRONG)
    assert d.action is Action.ROLL and d.equity is not None and d.equity > 1.5


def test_doubles_a_winning_race_and_opponent_drops() -> None:
    # White bears off in two rolls, black needs three (no gammon): double / pass.
    g = race_game({2: 2, 3: 2}, {4: 2, 5: 2, 6: 2})
    assert not contact(g.position, Player.WHITE, g.variant)
    assert race_lead(g.position, Player.WHITE) > 0.5
    d = decide(g, MatchContext(), STRONG)
    assert d.action is Action.DOUBLE
    g = g.double(Player.WHITE)
    d = decide(g, MatchContext(), STRONG)
    assert d.player is Player.BLACK and d.action is Action.DROP


def test_takes_a_close_double_and_rolls_at_the_start() -> None:
    g = Game.new("standard", first_player=Player.WHITE)
    assert decide(g, MatchContext(), STRONG).action is Action.ROLL
    g = g.double(Player.WHITE)
    assert decide(g, MatchContext(), STRONG).action is Action.TAKE


def test_beavers_a_bad_double_when_allowed() -> None:
    g = Game.new("standard", RuleOptions(beavers=True), first_player=Player.WHITE)
    g = g.double(Player.WHITE)
    d = decide(g, MatchContext(), STRONG)
    assert d.action is Action.BEAVER
    g = apply_decision(g, d)
    # The original doubler answers the beaver: the opening position is worth taking.
    d = decide(g, MatchContext(), STRONG)
    assert d.player is Player.WHITE and d.action is Action.TAKE


def test_no_double_in_crawford_game_or_with_dead_cube() -> None:
    g = race_game({2: 2, 3: 2}, {4: 2, 5: 2, 6: 2}, money=False)
    crawford = Game.new("standard", money=False, crawford=True, first_player=Player.WHITE,
                        position=g.position)
    assert decide(crawford, MatchContext(5, (4, 2)), STRONG).action is Action.ROLL
    # White needs 1 point, black 3: doubling only gives black a chance; never double.
    assert decide(g, MatchContext(5, (4, 2)), STRONG).action is Action.ROLL
    # Same position in a match at 0-0: double.
    assert decide(g, MatchContext(5, (0, 0)), STRONG).action is Action.DOUBLE


def test_resignation_answers() -> None:
    winning = race_game({1: 2}, {6: 5, 7: 5, 8: 5})  # white wins for sure, likely a gammon
    g = winning.resign(Player.BLACK, ResultKind.SINGLE)
    assert decide(g, MatchContext(), STRONG).action is Action.REJECT_RESIGNATION
    g = winning.resign(Player.BLACK, ResultKind.GAMMON)
    assert decide(g, MatchContext(), STRONG).action is Action.ACCEPT_RESIGNATION
    # Jacoby, cube never turned: a gammon does not count, so a single is all there is.
    jac = race_game({1: 2}, {6: 5, 7: 5, 8: 5}, rules=RuleOptions(jacoby=True))
    g = jac.resign(Player.BLACK, ResultKind.SINGLE)
    assert decide(g, MatchContext(), STRONG).action is Action.ACCEPT_RESIGNATION
    # White on roll but hopeless: black (the AI) wants the gammon, accepts only a gammon.
    losing = race_game({6: 5, 7: 5, 8: 5}, {1: 2})
    g = losing.resign(Player.WHITE, ResultKind.SINGLE)
    assert decide(g, MatchContext(), STRONG).action is Action.REJECT_RESIGNATION
    g = losing.resign(Player.WHITE, ResultKind.GAMMON)
    assert decide(g, MatchContext(), STRONG).action is Action.ACCEPT_RESIGNATION
    # Match: black needs 1 point (post-Crawford), white leads the race hugely: a single
    # resignation wins white the match at 1-away... white needs 3: gammon matters.
    g = race_game({1: 2}, {6: 5, 7: 5, 8: 5}, money=False).resign(Player.BLACK,
                                                                    ResultKind.SINGLE)
    assert decide(g, MatchContext(5, (2, 2)), STRONG).action is Action.REJECT_RESIGNATION
    assert decide(g, MatchContext(5, (4, 2)), STRONG).action is Action.ACCEPT_RESIGNATION


def test_bar_position_play_is_legal() -> None:
    white = [0] * SLOTS
    white[BAR], white[6], white[8], white[13] = 2, 5, 3, 5
    black = [0] * SLOTS
    black[6], black[8], black[13], black[24], black[OFF] = 5, 3, 5, 1, 1
    g = Game.new("standard", position=Position.from_sides(white, black),
                 first_player=Player.WHITE).roll(Dice(3, 1))
    d = decide(g, MatchContext(), STRONG)
    check_legal(g, d)
    assert d.play is not None and all(m.src == BAR for m in d.play.moves)


def test_ai_vs_ai_money_session_and_match_through_engine() -> None:
    rng = random.Random(2024)
    session = MoneySession.new(RuleOptions(jacoby=True, beavers=True))
    lv = {Player.WHITE: STRONG, Player.BLACK: INTERMEDIATE}
    for _ in range(2):
        g, _ = play_out(session.new_game(), MatchContext(), lv, rng)
        session = session.add_game(g)
    assert session.games_played == 2
    assert sum(session.points) == sum(r.points for r in session.results) > 0

    match = Match.new(3)
    lv = {Player.WHITE: INTERMEDIATE, Player.BLACK: BEGINNER}
    games = 0
    while not match.is_over:
        g = match.new_game()
        g, _ = play_out(g, MatchContext.from_match(match), lv, rng)
        assert g.result is not None
        match = match.add_game(g)
        games += 1
        assert games < 40
    assert match.winner is not None and max(match.score) >= 3
    assert len(match.results) == games
    assert sum(match.score) == sum(r.points for r in match.results)

"""Rule options: defaults, parsing from plain dicts, validation, descriptions.

Each book difference is a named option; the default is the modern rule
(README.md of the rule books; 001_1fd58179962334fd.txt, 002_de81a0fe2cc80ee1.txt).
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.errors import RuleOptionError
from engine.rules import DEFAULT_RULES, OpeningMethod, RuleOptions, ScoringMethod


def test_defaults_are_the_modern_rules() -> None:
    """002_de81a0fe2cc80ee1.txt 'DOUBLING' and 'OPTIONAL RULES' (beavers, Jacoby and
    automatic doubles optional); 001 opening: one die each, higher plays both."""
    r = DEFAULT_RULES
    assert (r.cube, r.beavers, r.jacoby, r.automatic_doubles) == (True, False, False, False)
    assert r.automatic_doubles_cap == 1  # 002: "usually agree to limit ... to one per game"
    assert (r.max_cube, r.crawford, r.backgammon_value) == (None, True, 3)
    assert r.scoring is ScoringMethod.GAMES
    assert r.opening is OpeningMethod.ONE_DIE
    assert r.winner_throws_first is False


@pytest.mark.parametrize(
    ("given", "field", "value"),
    [
        ({"beavers": "on"}, "beavers", True),
        ({"Jacoby": "yes"}, "jacoby", True),
        ({"automatic-doubles": True}, "automatic_doubles", True),
        ({"automatic doubles cap": "none"}, "automatic_doubles_cap", None),
        ({"automatic_doubles_cap": "3"}, "automatic_doubles_cap", 3),
        ({"max_cube": 64}, "max_cube", 64),
        ({"max_cube": "unlimited"}, "max_cube", None),
        ({"crawford": "off"}, "crawford", False),
        ({"cube": "false"}, "cube", False),
        ({"scoring": "checkers-1"}, "scoring", ScoringMethod.CHECKERS_1),
        ({"scoring": "COMBINED-2"}, "scoring", ScoringMethod.COMBINED_2),
        ({"scoring": "stranded"}, "scoring", ScoringMethod.STRANDED),
        ({"opening": "two-dice-choice"}, "opening", OpeningMethod.TWO_DICE_CHOICE),
        ({"opening": "one-die-rethrow"}, "opening", OpeningMethod.ONE_DIE_RETHROW),
        ({"backgammon_value": "4"}, "backgammon_value", 4),
        ({"winner_throws_first": "on"}, "winner_throws_first", True),
    ],
)
def test_parse_named_options(given: dict[str, Any], field: str, value: object) -> None:
    """Options as typed in /challenge or the bot configuration."""
    assert getattr(RuleOptions.from_dict(given), field) == value


@pytest.mark.parametrize(
    ("given", "message_part"),
    [
        ({"doubling": "on"}, "Unknown rule option 'doubling'"),
        ({"beavers": "maybe"}, "'beavers' must be on or off"),
        ({"scoring": "points"}, "'scoring' must be one of: games, checkers-1, checkers-2"),
        ({"opening": "coin"}, "'opening' must be one of: one-die, one-die-rethrow"),
        ({"max_cube": 3}, "'max_cube' must be a power of two"),
        ({"max_cube": 1}, "'max_cube' must be a power of two"),
        ({"max_cube": "big"}, "'max_cube' must be a power of two"),
        ({"automatic_doubles_cap": 0}, "'automatic_doubles_cap' must be a whole number"),
        ({"backgammon_value": 5}, "'backgammon_value' must be 3 or 4"),
        ({"cube": "off", "beavers": "on"}, "'beavers' needs the cube"),
        ({"cube": "off", "jacoby": "on"}, "'jacoby' needs the cube"),
    ],
)
def test_bad_options_name_the_option(given: dict[str, Any], message_part: str) -> None:
    """RuleOptionError names the option and the allowed values."""
    with pytest.raises(RuleOptionError) as info:
        RuleOptions.from_dict(given)
    assert message_part in str(info.value)


def test_backgammon_value_four_is_000_agreement() -> None:
    """000_54e59ca1d76a5da3.txt 'SCORING': "a triple or quadruple game (according to
    agreement)"."""
    assert RuleOptions.from_dict({"backgammon_value": 4}).backgammon_value == 4


def test_round_trip_through_plain_dict() -> None:
    rules = RuleOptions(beavers=True, jacoby=True, automatic_doubles=True,
                        automatic_doubles_cap=None, max_cube=32, crawford=False,
                        scoring=ScoringMethod.COMBINED_CHECKERS_2, backgammon_value=4,
                        opening=OpeningMethod.TWO_DICE_RETHROW, winner_throws_first=True)
    data = rules.to_dict()
    assert data["scoring"] == "combined-checkers-2"
    assert data["opening"] == "two-dice-rethrow"
    assert RuleOptions.from_dict(data) == rules


def test_replace_changes_only_named_options() -> None:
    rules = DEFAULT_RULES.replace(beavers="on", max_cube="16")
    assert (rules.beavers, rules.max_cube, rules.crawford) == (True, 16, True)


def test_describe_mentions_every_choice() -> None:
    text = "\n".join(RuleOptions(automatic_doubles=True, max_cube=8,
                                 scoring=ScoringMethod.CHECKERS_2).describe())
    assert "doubling cube: on (up to 8)" in text
    assert "automatic doubles on opening ties: on (at most 1 a game)" in text
    assert "1/2/4/8" in text
    assert "one die each; the higher die plays both dice" in text
    assert "doubling cube: off" in "\n".join(RuleOptions(cube=False).describe())

"""Every rule option is documented where a user looks for it (issue 15): the
docstring table of engine/rules.py, the README's "Rule options" table,
config.example.toml's [game.rules] section, and /rules (RuleOptions.describe)
changes when the option does."""

from __future__ import annotations

import tomllib
from dataclasses import fields
from enum import Enum
from pathlib import Path

import pytest

import engine.rules
from engine.rules import DEFAULT_RULES, RuleOptions

ROOT = Path(__file__).resolve().parents[2]
NAMES = [f.name for f in fields(RuleOptions)]


def readme_rule_table() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index("## Rule options")
    return text[start:text.index("\n## ", start + 1)]


@pytest.mark.parametrize("name", NAMES)
def test_option_is_documented(name: str) -> None:
    assert f"``{name}``" in (engine.rules.__doc__ or "")
    assert f"`{name}`" in readme_rule_table()
    config = tomllib.loads((ROOT / "config.example.toml").read_text(encoding="utf-8"))
    assert name in config["game"]["rules"]
    # The example's value is the default.
    assert RuleOptions.from_dict({name: config["game"]["rules"][name]}) == DEFAULT_RULES


def _other_value(name: str) -> object:
    value = getattr(DEFAULT_RULES, name)
    if isinstance(value, bool):
        return not value
    if isinstance(value, Enum):
        return next(m for m in type(value) if m is not value)
    return {"automatic_doubles_cap": None, "max_cube": 64, "backgammon_value": 4}[name]


@pytest.mark.parametrize("name", NAMES)
def test_describe_shows_every_option(name: str) -> None:
    base = {"automatic_doubles": True} if name == "automatic_doubles_cap" \
        or name == "automatic_doubles_two_dice" else {}
    default = DEFAULT_RULES.replace(**base)
    changed = default.replace(**{name: _other_value(name)})
    assert changed.describe() != default.describe(), name

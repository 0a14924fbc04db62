"""Configuration loading: typed values, and one clear line for every mistake."""

import subprocess
import sys
from pathlib import Path

import pytest

from bot.config import Config, ConfigError, load_config, parse_config

ROOT = Path(__file__).resolve().parent.parent


def test_example_config_loads_and_matches_defaults() -> None:
    from dataclasses import replace

    from engine.rules import RuleOptions

    config = load_config(ROOT / "config.example.toml")
    # The example spells out every rule option with its default value.
    assert RuleOptions.from_dict(config.game.rules) == RuleOptions()
    assert set(config.game.rules) == set(RuleOptions().to_dict())
    assert replace(config, game=replace(config.game, rules={})) == Config()


def test_bad_rule_option_is_reported_with_its_name() -> None:
    with pytest.raises(ConfigError) as info:
        parse_config("[game.rules]\nscoring = 'golf'\n")
    assert str(info.value).startswith("game.rules: Rule option 'scoring' must be one of")


def test_values_are_typed() -> None:
    config = parse_config(
        '[discord]\ndev_guild_ids = [1, 2]\n[timeouts]\nreminder_minutes = 5\n'
        '[storage]\ndatabase = "x.db"\n')
    assert config.discord.dev_guild_ids == (1, 2)
    assert config.timeouts.reminder_minutes == 5.0
    assert config.storage.database == "x.db"


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("[discord]\ntokn = 'x'\n", "unknown key discord.tokn"),
        ("[nope]\n", "unknown key nope"),
        ("[discord]\nuse_threads = 'yes'\n", "discord.use_threads must be true or false"),
        ("[discord]\ndev_guild_ids = 5\n", "discord.dev_guild_ids must be a list"),
        ("[discord]\ndev_guild_ids = ['a']\n", "discord.dev_guild_ids[0] must be an integer"),
        ("[timeouts]\nclaim_scores_as = 'all'\n", "timeouts.claim_scores_as must be one of"),
        ("[timeouts]\nreminder_minutes = -1\n", "timeouts.reminder_minutes"),
        ("[storage]\ndatabase = ''\n", "storage.database"),
        ("[render]\ntheme = 'neon'\n", "render.theme must be one of: "),
        ("[render]\nworkers = -1\n", "render.workers must be from 0 to 32"),
        ("[discord]\nboard_mode = 'edit'\n", "discord.board_mode must be one of: 'auto', "),
        ("[ai]\ndefault_level = 'god'\n", "ai.default_level must be one of"),
        ("discord = 3\n", "[discord] must be a table"),
        ("this is = not toml = at all", "not valid TOML"),
    ],
)
def test_bad_config_names_the_key(text: str, fragment: str) -> None:
    with pytest.raises(ConfigError) as info:
        parse_config(text)
    assert fragment in str(info.value)


def test_token_from_environment_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "from-env")
    assert parse_config("[discord]\ntoken = 'from-file'\n").token == "from-env"
    monkeypatch.delenv("DISCORD_TOKEN")
    assert parse_config("[discord]\ntoken = 'from-file'\n").token == "from-file"


def test_wrong_config_file_gives_one_line_not_a_traceback(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[timeouts]\nclaim_after_minutes = 'soon'\n")
    proc = subprocess.run([sys.executable, "-m", "bot", "--config", str(bad)],
                          capture_output=True, text=True, cwd=tmp_path, timeout=60,
                          env={"PATH": "", "PYTHONPATH": str(ROOT)})
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert lines == ["config error: timeouts.claim_after_minutes must be a number, got 'soon'"]


def test_render_workers_leave_the_event_loop_a_core(monkeypatch: pytest.MonkeyPatch) -> None:
    """By default one render worker fewer than the cores, at least one (issue 35: on 2
    cores, two workers and the event loop took turns and a move's p99 doubled); a value
    in the file still wins."""
    import os

    from bot import config as config_module

    for cores, workers in ((1, 1), (2, 1), (4, 3), (16, 15)):
        monkeypatch.setattr(os, "sched_getaffinity", lambda _pid, n=cores: set(range(n)),
                            raising=False)
        assert config_module.default_render_workers() == workers
        assert parse_config("").render.workers == workers
        assert parse_config("[render]\nworkers = 2\n").render.workers == 2
    monkeypatch.delattr(os, "sched_getaffinity", raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: 8)
    assert config_module.default_render_workers() == 7

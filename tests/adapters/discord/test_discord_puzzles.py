"""Grades and puzzles through Discord (issue 33), with the real discord.py client against
the fake Discord: a finished match is graded in the background by the real worker
process and its grades posted in the match's channel as an ordinary message (not an
interaction follow-up), with the summary and the graph; /puzzle shows the board with a
select menu of plays whose pick is answered privately; a cube puzzle's buttons."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from discord_e2e import Host, Script, assert_board_message, private, start_game, users
from fake_discord import FakeDiscord

from bot.ai.runner import AIRunner

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


async def test_a_match_graded_in_the_background_and_a_puzzle_answered(
        fake: FakeDiscord, tmp_path: Path) -> None:
    h = Host(fake, tmp_path, Script([1, 3]))
    h.ai = AIRunner(processes=False, time_limit=20.0)
    alice, bob, carol = users(fake)
    daily = {str(fake.guild_id): fake.channel_id}
    config = replace(h.config, analysis=replace(h.config.analysis, daily_puzzle_hour=0,
                                                daily_puzzle_channels=daily))
    await h.start(config)
    try:
        names = {c["name"]: c for c in fake.syncs[0][1]}
        assert {o["name"] for o in names["puzzle"]["options"]} == {"answer", "number"}
        orders = {c["value"] for o in names["leaderboard"]["options"]
                  if o["name"] == "order" for c in o["choices"]}
        assert {"pr", "puzzles"} <= orders
        await start_game(fake, alice, bob, length=1)
        await (await fake.slash(bob, "move", moves="8/4")).public()
        await (await fake.slash(alice, "resign")).public()
        offer = fake.channel_messages(fake.channel_id)[-1]
        ended = await (await fake.click(bob, offer, "Accept resignation")).public()
        assert "being graded in the background" in ended.text

        def graded() -> bool:
            return any("Grades of the 1-point match" in m.text
                       for m in fake.channel_messages(fake.channel_id))

        await fake.until(graded, timeout=120)
        grades = next(m for m in fake.channel_messages(fake.channel_id)
                      if "Grades of the 1-point match" in m.text)
        assert grades.interaction_id is None  # posted to the channel, not a follow-up
        assert "bob over the match: 1 decision," in grades.text and "PR " in grades.text
        assert any(n.endswith("-summary.png") for n in grades.files)
        assert any(n.endswith("-analysis.png") for n in grades.files)
        assert all(grades.descriptions.get(n) for n in grades.files)  # alt texts

        shown = await (await fake.slash(carol, "puzzle")).public()
        assert_board_message(shown)
        assert "Puzzle #1: 3-1 to play" in shown.text
        assert shown.custom_ids() == ["bgpzm:1"]
        picked = await fake.select_value(carol, shown, "bgpzm:1", "8/5 6/5")
        assert "Right: 8/5 6/5 is the best answer to puzzle #1." in await private(picked)
        wrong = await fake.select_value(alice, shown, "bgpzm:1", "8/4")
        assert "Not the best: 8/4 gives up" in await private(wrong)
        typed = await fake.slash(bob, "puzzle", answer="13/5")
        assert "asks for a whole play of 3-1" in await private(typed)
        board = await (await fake.slash(carol, "leaderboard", order="puzzles")).public()
        assert "carol" in board.content and "alice" in board.content

        # The daily puzzle: posted once in the server's channel, also across a restart.
        # (the cog's class comes from the extension's own module object: by name)
        cog: Any = h.bot.get_cog("GradingCog") if h.bot is not None else None
        assert cog is not None
        assert await cog.post_daily() == 1
        (of_the_day,) = [m for m in fake.channel_messages(fake.channel_id)
                         if m.text.startswith("Puzzle of the day")]
        assert of_the_day.interaction_id is None and of_the_day.custom_ids() == ["bgpzm:1"]
        assert await cog.post_daily() == 0
        await h.stop()
        await h.start(config)
        cog = h.bot.get_cog("GradingCog") if h.bot is not None else None
        assert cog is not None and await cog.post_daily() == 0
        assert len([m for m in fake.channel_messages(fake.channel_id)
                    if m.text.startswith("Puzzle of the day")]) == 1
    finally:
        await h.stop()
        assert h.ai is not None
        h.ai.close()

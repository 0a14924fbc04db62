"""End to end: /rules shows the game's own options; /challenge's new rule options
(issue 15) reach the game, the variant-only ones as key=value words with
autocomplete; the level choices show the measured strength (issue 22 item 2)."""

from __future__ import annotations

import pytest
from discord_e2e import Host, posted_challenge, private, users
from fake_discord import FakeDiscord

from bot.storage.interface import MatchStatus

pytestmark = pytest.mark.e2e


async def test_rules_show_the_game_s_own_options(fake: FakeDiscord, host: Host) -> None:
    alice, bob, carol = users(fake)
    await host.start()
    before = await private(await fake.slash(carol, "rules"))
    assert "no game in this channel: the server's defaults" in before
    record = await fake.slash(alice, "challenge", opponent=bob, stake=2, variant="acey-deucey",
                              higher_die="free", drop_scoring="as-it-stands",
                              double_before_any_throw=True,
                              variant_rules="kicked_off=reserve acey_deucey_gammons=off")
    challenge = await posted_challenge(fake, record)
    assert "alice challenges bob" in challenge.content
    accepted = await fake.click(bob, challenge, "Accept")
    await accepted.public()
    async with host.storage.snapshot() as tx:
        row = await tx.latest_match_in_channel(fake.channel_id)
    assert row is not None and row.status is MatchStatus.ACTIVE
    assert (row.rules["higher_die"], row.rules["drop_scoring"], row.rules["kicked_off"],
            row.rules["acey_deucey_gammons"], row.rules["double_before_any_throw"]) == (
        "free", "as-it-stands", "reserve", False, True)
    text = await private(await fake.slash(carol, "rules"))
    assert "Acey-Deucey" in text and "money play at 2 a point in this channel" in text
    assert "a kicked-off man: rejoins the men not yet entered" in text
    assert "gammons: not counted" in text and "play either (Boyden 1930, ch.3 V)" in text
    assert "before any throw of your own" in text
    assert "Crawford" not in text and "000_" not in text and ".txt" not in text
    # The game's opening is the variant's (two dice), not the option's default (one die).
    assert "two dice each" in text and "one die each" not in text
    named = await private(await fake.slash(carol, "rules", variant="russian"))
    assert "Russian backgammon" in named and "the server's default options" in named


async def test_variant_rules_autocomplete_and_a_bad_word(fake: FakeDiscord, host: Host) -> None:
    alice, bob, _ = users(fake)
    await host.start()
    offered = await fake.autocomplete(alice, "challenge", "variant_rules", "kicked")
    assert offered == ["kicked_off=enter-first", "kicked_off=reserve"]
    record = await fake.slash(alice, "challenge", opponent=bob, variant_rules="kicked_off=maybe")
    refusal = await private(record)
    assert "kicked_off" in refusal and "enter-first, reserve" in refusal
    record = await fake.slash(alice, "chouette open", variant="russian",
                              variant_rules="russian_entering=enter-then-move")
    opened = await record.public()
    assert "entering: once the last man is in" in opened.content  # its own options only
    assert "kicked-off" not in opened.content


async def test_level_choices_show_the_measured_strength(fake: FakeDiscord, host: Host) -> None:
    await host.start()
    challenge = next(c for c in fake.syncs[0][1] if c["name"] == "challenge")
    level = next(o for o in challenge["options"] if o["name"] == "level")
    names = [c["name"] for c in level["choices"]]
    assert len(names) == 4 and all(len(n) <= 100 and "measured" in n for n in names)
    assert any("mEMG" in n and "'Supernatural'" in n for n in names)
    assert len(challenge["options"]) <= 25

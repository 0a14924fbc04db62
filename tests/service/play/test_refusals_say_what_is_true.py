"""Issue 30 item 12: refusals that said something untrue or broken -- /rematch while the
rematch waits, /accept and /decline with no challenge, /choose without an option.
(The partial doublet's sentence is in tests/engine/test_interpret.py, the console's
/tournament start 3 in tests/adapters/test_console_tournament.py.)"""

from __future__ import annotations

from pathlib import Path

import pytest
from scripted import Script, opened
from variant_nets import remove

from bot.config import Config
from bot.service.core.replies import Reply
from bot.service.core.values import Actor, Place
from bot.service.game import GameService

ALICE = Actor(1, "alice")
BOB = Actor(2, "bob")
CAROL = Actor(3, "carol")
HERE = Place(guild_id=7, channel_id=70)


async def make(tmp_path: Path, dice: list[int]) -> GameService:
    storage = await opened(tmp_path / "bg.sqlite3")
    return GameService(storage, Config(), dice=Script(dice, then="31"))  # type: ignore[arg-type]


def ok(reply: Reply) -> Reply:
    assert reply.ok, reply.text
    return reply


def refused(reply: Reply, *words: str) -> None:
    assert not reply.ok and reply.ephemeral, reply.text
    for word in words:
        assert word in reply.text, reply.text


async def test_rematch_while_the_rematch_waits_says_so(tmp_path: Path) -> None:
    service = await make(tmp_path, [3, 1])
    ok(await service.challenge(HERE, ALICE, BOB, length=1))
    ok(await service.accept(HERE, BOB))
    ok(await service.forfeit(HERE, BOB, confirm=True))
    ok(await service.rematch(HERE, ALICE))           # alice challenges bob again
    for actor, words in ((BOB, ("alice's challenge to you is waiting here", "/accept")),
                         (ALICE, ("Your challenge to bob is waiting", "/cancel")),
                         (CAROL, ("alice's challenge to bob is waiting", "/challenge"))):
        reply = await service.rematch(HERE, actor)
        refused(reply, *words)
        assert "not over yet" not in reply.text


async def test_accept_or_decline_with_no_challenge_says_there_is_none(tmp_path: Path) -> None:
    service = await make(tmp_path, [3, 1])
    for call in (service.accept, service.decline, service.cancel):
        reply = await call(HERE, BOB)
        refused(reply, "There is no challenge waiting in this channel")
        assert "There is no game" not in reply.text


async def test_choose_without_an_option_lists_the_options(tmp_path: Path) -> None:
    # 003 ch.10 opening: the winner plays his throw or throws again.
    service = await make(tmp_path, [3, 1, 1, 2])
    ok(await service.challenge(HERE, ALICE, BOB, length=3, variant="russian"))
    ok(await service.accept(HERE, BOB))
    reply = await service.choose(HERE, ALICE, "")
    refused(reply, "/choose play | throw again")


# ------------------------------------------------------------ item 14: consistent texts


async def test_a_challenge_with_hints_says_so_in_its_rules_line(tmp_path: Path) -> None:
    service = await make(tmp_path, [3, 1])
    reply = ok(await service.challenge(HERE, ALICE, BOB, length=3, hints=True))
    rules = next(line for line in reply.text.splitlines() if line.startswith("Rules:"))
    assert "hints: on" in rules
    plain = ok(await service.challenge(Place(7, 71), ALICE, BOB, length=3))
    assert "hints" not in plain.text


async def test_the_hint_refusal_does_not_quote_discord_syntax(tmp_path: Path) -> None:
    from bot.ai.runner import AIRunner

    runner = AIRunner(processes=False, time_limit=5.0)
    await runner.start()
    try:
        storage = await opened(tmp_path / "h.sqlite3")
        service = GameService(storage, Config(), dice=Script([3, 1]), ai=runner)
        ok(await service.challenge(HERE, ALICE, BOB, length=3))
        ok(await service.accept(HERE, BOB))
        reply = await service.hint(HERE, ALICE)
        refused(reply, "Hints are off", "the hints option of /challenge")
        assert "hints:on" not in reply.text
    finally:
        runner.close()


async def test_a_chouette_s_rules_name_the_table_s_rules_and_no_bot(tmp_path: Path) -> None:
    """000 'CHOUETTE' (the forfeit rule) is the table's: /rules at the table says it."""
    service = await make(tmp_path, [6, 5, 4, 3, 1])
    ok(await service.chouette.open(HERE, ALICE, refusal="forfeit-to-partners"))
    waiting = ok(await service.rules(None, HERE))
    assert "share his result equally" in waiting.text
    ok(await service.chouette.join(HERE, BOB))
    ok(await service.chouette.join(HERE, CAROL))
    ok(await service.chouette.start(HERE, ALICE))
    reply = ok(await service.rules(None, HERE))
    assert "Chouette table:" in reply.text and "share his result equally" in reply.text
    assert "captain's drop is final" in reply.text
    assert "Against the bot" not in reply.text


async def test_a_variant_match_does_not_offer_its_analysis(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Analysis needs standard backgammon, or a variant one of our own networks knows
    (here none does)."""
    from bot.ai.runner import AIRunner
    from bot.service.core.replies import Action

    remove(monkeypatch)

    runner = AIRunner(processes=False, time_limit=5.0)
    await runner.start()
    try:
        storage = await opened(tmp_path / "v.sqlite3")
        service = GameService(storage, Config(), dice=Script([3, 1], then="31"), ai=runner)
        ok(await service.challenge(HERE, ALICE, BOB, length=1, variant="russian"))
        ok(await service.accept(HERE, BOB))
        ended = ok(await service.forfeit(HERE, BOB, confirm=True))
        actions = [b.action for b in ended.buttons]
        assert Action.REMATCH in actions and Action.ANALYZE not in actions
    finally:
        runner.close()


async def test_challenging_a_bot_without_the_ai_does_not_offer_the_ai(tmp_path: Path) -> None:
    """Without the AI (no ``ai`` given to the service), the refusal to play another bot
    must not tell the player to challenge the AI, which does not exist here."""
    service = await make(tmp_path, [3, 1])
    reply = await service.challenge(HERE, ALICE, Actor(9, "robot", is_bot=True))
    refused(reply, "robot is a bot and can't play", "runs without its AI",
            "challenge a person")
    assert "challenge me" not in reply.text

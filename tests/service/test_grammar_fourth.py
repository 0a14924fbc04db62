"""Issue 42 item 11, the texts a new player met: a count of one in the singular, the
article before a vowel, a verb that agrees, no "?." and no brackets inside brackets."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from scripted import Script, opened

from bot.config import Config
from bot.service.analysis.store import variant_refusal
from bot.service.core.replies import plain
from bot.service.core.values import Actor, Place
from bot.service.game import GameService

ADMIN = Actor(9, "admin")
ALICE = Actor(1, "alice")
BOB = Actor(2, "bob")
HERE = Place(guild_id=7, channel_id=70)


async def service_at(tmp_path: Path) -> GameService:
    storage = await opened(tmp_path / "bg.sqlite3")
    return GameService(storage, Config(), dice=Script([3, 1], then="3a5c1e2b4d"))  # type: ignore[arg-type]


async def test_one_minute_is_singular(tmp_path: Path) -> None:
    service = await service_at(tmp_path)
    reply = await service.settings_set(HERE, ADMIN, "reminder_minutes", "1",
                                       manage_server=True)
    assert reply.ok
    assert [plain(n) for n in reply.notify] == ["reminder_minutes: 60 minutes (1 hour) → 1 minute"]


def test_a_variant_gets_its_article() -> None:
    text = variant_refusal(SimpleNamespace(variant="acey-deucey"))  # type: ignore[arg-type]
    assert "so an acey-deucey game is not analysed" in text and "a acey" not in text


async def test_puzzles_need_a_server(tmp_path: Path) -> None:
    service = await service_at(tmp_path)
    refused = await service.puzzle(Place.direct(50), ALICE)
    assert not refused.ok and refused.text.startswith("Puzzles need a server, not this DM")


async def test_an_8_point_match_and_1_point(tmp_path: Path) -> None:
    service = await service_at(tmp_path)
    made = await service.challenge(HERE, ALICE, BOB, length=8)
    assert made.ok and "alice challenges bob to an 8-point match" in made.text, made.text
    assert (await service.cancel(HERE, ALICE)).ok
    assert (await service.challenge(HERE, ALICE, BOB, length=1)).ok
    assert (await service.accept(HERE, BOB)).ok
    refused = await service.stop(HERE, ALICE)
    assert "reaches 1 point:" in refused.text, refused.text


async def test_a_resigned_gammon_is_not_bracketed_twice(tmp_path: Path) -> None:
    from bot.service.pictures.contents import match_summary
    from render.summary import summary_alt_text

    service = await service_at(tmp_path)
    assert (await service.challenge(HERE, ALICE, BOB, length=3)).ok
    assert (await service.accept(HERE, BOB)).ok
    assert (await service.resign(HERE, ALICE, "gammon")).ok
    ended = await service.answer_resignation(HERE, BOB, True)
    assert ended.ok
    async with service.storage.snapshot() as tx:
        match = await tx.latest_match_in_channel(HERE.channel_id)
        assert match is not None
        game = (await tx.games_of_match(match.id))[0]
        from bot.storage.replay import replay_game
        record = replay_game(match, game, await tx.events(game.id)).to_record()
    alt = summary_alt_text(match_summary(("alice", "bob"), 3, [record]))
    assert "(resigned, gammon)" in alt, alt
    assert "((" not in alt and "resigned (gammon)" not in alt

"""Issue 42 item 9: a tournament refusal names the player (his display name, cleaned),
never a raw user id; an engine's refusal begins with a capital; the bracket picture's
text alternative says the tournament's name once."""

from __future__ import annotations

from pathlib import Path

from scripted import Script, opened
from tournament_play import HALL, ORGANISER, create, finish, open_all, open_matches

from bot.config import Config
from bot.service.core.replies import PictureKind
from bot.service.core.values import Actor, Place
from bot.service.game import GameService

STRANGER = Actor(3275128842, "Mal\u202elory\u200b")


async def started(tmp_path: Path) -> tuple[GameService, int]:
    storage = await opened(tmp_path / "bg.sqlite3")
    service = GameService(storage, Config(), dice=Script(then="3f1a9c52e7b4d0862b5e"))  # type: ignore[arg-type]
    tid = await create(service, 4, "single-elimination")
    assert (await service.tournament_start(HALL, ORGANISER, is_organiser=True)).ok
    # The stranger is known here (he challenged someone once), but not in the tournament.
    elsewhere = Place(HALL.guild_id, 99)
    assert (await service.challenge(elsewhere, STRANGER, ORGANISER, length=1)).ok
    assert (await service.cancel(elsewhere, STRANGER)).ok
    return service, tid


async def test_a_result_for_someone_outside_the_pairing_names_him(tmp_path: Path) -> None:
    service, _ = await started(tmp_path)
    refused = await service.tournament_result(HALL, ORGANISER, is_organiser=True,
                                              pairing="R1-1", winner=STRANGER.id,
                                              reason="walkover")
    assert not refused.ok
    assert str(STRANGER.id) not in refused.text
    assert refused.text.startswith("Mallory does not play in R1-1; the winner is "), refused.text
    unknown = await service.tournament_result(HALL, ORGANISER, is_organiser=True,
                                              pairing="R1-1", winner=424242424242,
                                              reason="walkover")
    assert not unknown.ok and "424242424242" not in unknown.text
    assert unknown.text.startswith("The user you named does not play in R1-1"), unknown.text


async def test_removing_someone_not_in_the_tournament_names_him(tmp_path: Path) -> None:
    service, _ = await started(tmp_path)
    refused = await service.tournament_remove(HALL, ORGANISER, is_organiser=True,
                                              user=STRANGER.id)
    assert not refused.ok and str(STRANGER.id) not in refused.text
    assert refused.text.startswith("Mallory is not in #"), refused.text


async def test_an_engine_refusal_begins_with_a_capital(tmp_path: Path) -> None:
    service, _ = await started(tmp_path)
    refused = await service.tournament_result(HALL, ORGANISER, is_organiser=True,
                                              pairing="R1-9", winner=1, reason="walkover")
    assert not refused.ok
    assert refused.text.startswith("This tournament has no pairing 'R1-9'"), refused.text


async def test_the_bracket_alt_text_names_the_tournament_once(tmp_path: Path) -> None:
    service, tid = await started(tmp_path)
    await open_all(service)
    _, match = sorted((await open_matches(service, tid)).items())[0]
    reply = await finish(service, match, min(match.white_id, match.black_id))
    (picture,) = [p for p in reply.pictures if p.kind is PictureKind.BRACKET]
    assert picture.alt_text.startswith(f"#{tid} Cup: "), picture.alt_text
    assert "Cup: Cup" not in picture.alt_text

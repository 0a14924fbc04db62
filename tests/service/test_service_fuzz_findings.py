"""What the hostile fuzz walk (tests/service/test_service_fuzz.py) found, one test each.

Each test names its finding; each failed before its fix (an exception escaped the
service instead of a specific, private refusal).
"""

from __future__ import annotations

from pathlib import Path

from scripted import opened

from bot.config import Config
from bot.service.core.values import Actor, Place
from bot.service.game import GameService

ORGANISER = Actor(1, "alice")
PLACE = Place(1, 100)
HUGE = 2**64


async def service(tmp_path: Path) -> GameService:
    return GameService(await opened(tmp_path / "findings.sqlite3"), Config())


def refused(reply: object, *words: str) -> None:
    from bot.service.core.replies import Reply
    assert isinstance(reply, Reply)
    assert not reply.ok and reply.ephemeral, reply
    for word in words:
        assert word in reply.text, reply.text


async def test_tournament_lookups_refuse_ids_outside_64_bits(tmp_path: Path) -> None:
    """Finding 1: /tournament list, status and bracket in a place whose server id does not
    fit 64 bits, and a tournament number outside 64 bits given to any tournament command,
    raised OverflowError from the database driver."""
    s = await service(tmp_path)
    made = await s.tournament_create(PLACE, ORGANISER, is_organiser=True, name="Cup",
                                     format="swiss")
    assert made.ok, made.text
    odd = Place(HUGE, 100)
    refused(await s.tournament_list(odd), "server id is not valid")
    refused(await s.tournament_status(odd), "server id is not valid")
    reply, picture = await s.tournament_bracket(odd)
    refused(reply, "server id is not valid")
    assert picture is None
    for number in (HUGE, -HUGE, 2**63):
        refused(await s.tournament_status(PLACE, number), f"no tournament #{number}")
        refused(await s.tournament_join(PLACE, Actor(2, "bob"), number),
                f"no tournament #{number}")
        refused(await s.tournament_cancel(PLACE, ORGANISER, is_organiser=True,
                                          tournament=number), f"no tournament #{number}")
        assert await s.tournament_signup_text(PLACE, number) is None
    # the tournament itself is untouched and still reachable
    status = await s.tournament_status(PLACE)
    assert status.ok and "signup" in status.text.lower(), status.text


async def test_user_names_skip_ids_outside_64_bits(tmp_path: Path) -> None:
    """Finding 2: ``GameService.user_names`` (the adapters' name look-up for brackets and
    results) raised OverflowError for an id outside 64 bits instead of leaving it out."""
    s = await service(tmp_path)
    assert (await s.challenge(PLACE, ORGANISER, Actor(2, "bob"), length=1)).ok
    assert await s.user_names([1, 2, HUGE, -HUGE, 2**63]) == {1: "alice", 2: "bob"}


async def test_replay_refuses_ids_outside_64_bits(tmp_path: Path) -> None:
    """Finding 3: /replay in a place (or by a user) whose id does not fit 64 bits raised
    OverflowError; /verify, /export and /history already refused it."""
    s = await service(tmp_path)
    refused(await s.replay(Place(1, HUGE), ORGANISER), "channel id is not valid")
    refused(await s.replay(Place(-1, 100), ORGANISER), "server id is not valid")
    refused(await s.replay(PLACE, Actor(HUGE, "huge")), "user id is not valid")


async def test_rematch_refuses_ids_outside_64_bits(tmp_path: Path) -> None:
    """Finding 4: /rematch (the command, and ``act(Action.REMATCH)`` that its button
    sends) in a place or by a user whose id does not fit 64 bits raised OverflowError."""
    from bot.service.core.replies import Action
    s = await service(tmp_path)
    refused(await s.rematch(Place(1, HUGE), ORGANISER), "channel id is not valid")
    refused(await s.rematch(Place(HUGE, 100), ORGANISER), "server id is not valid")
    refused(await s.act(Action.REMATCH, PLACE, Actor(-1, "negative")), "user id is not valid")


async def test_rules_refuses_a_place_outside_64_bits(tmp_path: Path) -> None:
    """Finding 5: /rules with no variant in a place whose channel or server id does not
    fit 64 bits raised OverflowError (it looks up the game in the channel)."""
    s = await service(tmp_path)
    refused(await s.rules(None, Place(1, HUGE)), "channel id is not valid")
    refused(await s.rules(None, Place(-1, 100)), "server id is not valid")
    assert (await s.rules(None, PLACE)).ok  # a valid place: the server's defaults

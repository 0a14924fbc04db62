"""Buttons that outlive their use (the last release note's two known limits): the service
stores the tournament's sign-up message and a challenge's message, and the reply of the
action that makes their buttons pointless carries a :class:`RetireButtons` value for it —
the start or the cancellation of a tournament; the accept, decline or withdrawal of a
challenge, whether a button was pressed, the command typed in the thread, or typed in the
channel of the thread.  A press on a button a client still shows is refused as before."""

from __future__ import annotations

from pathlib import Path

from race_table import BLACK, SPECTATOR, WHITE, make_service
from scripted import opened
from tournament_play import HALL, ORGANISER, create, player, row

from bot.service.core.replies import Action, MessageRef, Reply, RetireButtons
from bot.service.core.state import MatchState
from bot.service.core.values import Expect, Place
from bot.service.game import GameService
from bot.service.tournaments.data import TournamentData

SIGNUP = MessageRef(HALL.channel_id, 555)
PARENT = Place(1, 600)
THREAD = Place(1, 601, parent_id=600)
CHALLENGE_MESSAGE = 9001


async def service_at(tmp_path: Path) -> GameService:
    return make_service(await opened(tmp_path / "stale.sqlite3"))


# ------------------------------------------------------------------ the sign-up message


async def noted_tournament(service: GameService, players: int) -> int:
    tid = await create(service, 0, "single-elimination")
    noted = await service.tournament_signup_posted(HALL, ORGANISER, tid, SIGNUP)
    assert noted.ok and noted.retire == (), noted.text
    for i in range(1, players + 1):
        assert (await service.tournament_join(HALL, player(i), tid)).ok
    return tid


async def test_the_signup_message_is_stored_typed_in_the_tournament_state(
        tmp_path: Path) -> None:
    service = await service_at(tmp_path)
    tid = await noted_tournament(service, 2)
    stored = (await row(service, tid)).state
    assert stored["signup_message"] == [SIGNUP.channel_id, SIGNUP.message_id]
    data = TournamentData.from_dict(stored)
    assert data.signup_message == SIGNUP
    assert TournamentData.from_dict(data.to_dict()) == data
    # A tournament row written before the field existed reads as "no message stored".
    old = dict(stored)
    del old["signup_message"]
    assert TournamentData.from_dict(old).signup_message is None


async def test_the_start_retires_the_signup_buttons_and_says_so(tmp_path: Path) -> None:
    service = await service_at(tmp_path)
    tid = await noted_tournament(service, 3)
    started = await service.tournament_start(HALL, ORGANISER, is_organiser=True)
    assert started.ok, started.text
    (retired,) = started.retire
    assert retired.message == SIGNUP
    assert retired.text is not None
    lines = retired.text.splitlines()
    assert lines[0] == "Sign-up closed: #1 Cup started with 3 players."
    assert "Signed up: 3: p1, p2, p3." in retired.text  # the sign-up text as it stands
    assert "Join with /tournament join" not in retired.text  # no longer an invitation
    # A client that still shows the old message: the press is refused, saying why.
    late = await service.tournament_join(HALL, player(4), tid)
    assert not late.ok and late.ephemeral and "already started" in late.text
    leave = await service.tournament_leave(HALL, player(1), tid)
    assert not leave.ok and "can no longer leave" in leave.text


async def test_a_cancellation_retires_the_signup_buttons(tmp_path: Path) -> None:
    service = await service_at(tmp_path)
    await noted_tournament(service, 1)
    cancelled = await service.tournament_cancel(HALL, ORGANISER, is_organiser=True)
    assert cancelled.ok, cancelled.text
    (retired,) = cancelled.retire
    assert retired.message == SIGNUP and retired.text is not None
    assert retired.text.startswith(
        "Sign-up closed: the tournament was cancelled before it started.\n")


async def test_a_cancellation_after_the_start_says_when(tmp_path: Path) -> None:
    service = await service_at(tmp_path)
    await noted_tournament(service, 4)
    assert (await service.tournament_start(HALL, ORGANISER, is_organiser=True)).ok
    cancelled = await service.tournament_cancel(HALL, ORGANISER, is_organiser=True)
    assert cancelled.ok, cancelled.text
    (retired,) = cancelled.retire
    assert retired.message == SIGNUP and retired.text is not None
    assert retired.text.startswith("Sign-up closed: the tournament started with 4 players "
                                   "and was cancelled in round 1.\n")


async def test_without_a_stored_message_nothing_is_retired(tmp_path: Path) -> None:
    # The console posts no message: its tournaments start as before.
    service = await service_at(tmp_path)
    await create(service, 2, "single-elimination")
    started = await service.tournament_start(HALL, ORGANISER, is_organiser=True)
    assert started.ok and started.retire == ()


async def test_a_message_noted_after_the_start_is_retired_at_once(tmp_path: Path) -> None:
    service = await service_at(tmp_path)
    tid = await create(service, 2, "single-elimination")
    assert (await service.tournament_start(HALL, ORGANISER, is_organiser=True)).ok
    noted = await service.tournament_signup_posted(HALL, ORGANISER, tid, SIGNUP)
    assert noted.ok
    (retired,) = noted.retire
    assert retired.message == SIGNUP and retired.text is not None
    assert retired.text.startswith("Sign-up closed: #1 Cup is running.")


async def test_noting_a_signup_message_of_another_server_is_refused(tmp_path: Path) -> None:
    service = await service_at(tmp_path)
    tid = await create(service, 2, "single-elimination")
    elsewhere = await service.tournament_signup_posted(Place(99, 70), ORGANISER, tid, SIGNUP)
    assert not elsewhere.ok and f"no tournament #{tid}" in elsewhere.text
    assert (await service.tournament_signup_posted(
        HALL, ORGANISER, tid, MessageRef(70, 2**63))).text.startswith("That message id")
    assert TournamentData.from_dict((await row(service, tid)).state).signup_message is None


# --------------------------------------------------------------- the challenge's message


async def challenged(service: GameService, place: Place = THREAD) -> Reply:
    """alice challenges bob in ``place``; the adapter posts the message and notes it."""
    made = await service.challenge(place, WHITE, BLACK, length=3)
    assert made.ok and made.match_id is not None and made.version is not None
    noted = await service.challenge_posted(place, WHITE, Expect(made.version, made.match_id),
                                           CHALLENGE_MESSAGE)
    assert noted.ok, noted.text
    return noted


async def state_of(service: GameService, place: Place) -> MatchState:
    async with service.storage.snapshot() as tx:
        found = await tx.latest_match_in_channel(place.channel_id)
    assert found is not None
    return MatchState.from_dict(found.state)


RETIRED = (RetireButtons(MessageRef(THREAD.channel_id, CHALLENGE_MESSAGE)),)


async def test_noting_the_challenge_message_gives_the_buttons_of_the_new_version(
        tmp_path: Path) -> None:
    service = await service_at(tmp_path)
    made = await service.challenge(THREAD, WHITE, BLACK, length=3)
    assert made.version is not None and made.match_id is not None
    noted = await service.challenge_posted(THREAD, WHITE, Expect(made.version, made.match_id),
                                           CHALLENGE_MESSAGE)
    assert noted.ok and noted.match_id == made.match_id
    assert noted.version == made.version + 1
    assert [(b.action, b.users) for b in noted.buttons] == [
        (Action.ACCEPT, (BLACK.id,)), (Action.DECLINE, (BLACK.id,))]
    assert (await state_of(service, THREAD)).challenge_message == CHALLENGE_MESSAGE
    # The buttons of the version before the note were never shown: they are stale.
    old = await service.accept(THREAD, BLACK, Expect(made.version, made.match_id))
    assert not old.ok and "moved on" in old.text
    # Noting twice (a retried call) is refused the same way: the version moved on.
    again = await service.challenge_posted(THREAD, WHITE, Expect(made.version, made.match_id),
                                           CHALLENGE_MESSAGE)
    assert not again.ok and "moved on" in again.text


async def test_accept_typed_in_the_parent_retires_the_challenge_buttons(
        tmp_path: Path) -> None:
    service = await service_at(tmp_path)
    await challenged(service)
    accepted = await service.accept(PARENT, BLACK)  # redirected to the thread
    assert accepted.ok and accepted.channel_ref == THREAD.channel_id, accepted.text
    assert accepted.retire == RETIRED
    assert (await state_of(service, THREAD)).challenge_message is None  # done with it


async def test_accept_typed_in_the_thread_retires_the_challenge_buttons(
        tmp_path: Path) -> None:
    service = await service_at(tmp_path)
    await challenged(service)
    accepted = await service.accept(THREAD, BLACK)
    assert accepted.ok and accepted.retire == RETIRED


async def test_accept_pressed_retires_the_challenge_buttons(tmp_path: Path) -> None:
    service = await service_at(tmp_path)
    noted = await challenged(service)
    assert noted.version is not None
    pressed = await service.act(Action.ACCEPT, THREAD, BLACK,
                                expect=Expect(noted.version, noted.match_id))
    assert pressed.ok and pressed.retire == RETIRED
    # Pressed again on a client that still shows it: refused, saying why.
    again = await service.act(Action.ACCEPT, THREAD, BLACK,
                              expect=Expect(noted.version, noted.match_id))
    assert not again.ok and again.ephemeral and again.retire == ()


async def test_decline_and_withdrawal_retire_the_challenge_buttons(tmp_path: Path) -> None:
    service = await service_at(tmp_path)
    await challenged(service)
    declined = await service.decline(PARENT, BLACK)
    assert declined.ok and "declines" in declined.text and declined.retire == RETIRED
    await challenged(service)  # a new challenge in the same thread
    withdrawn = await service.cancel(THREAD, WHITE)
    assert withdrawn.ok and "withdraws" in withdrawn.text and withdrawn.retire == RETIRED


async def test_a_refused_answer_keeps_the_challenge_buttons(tmp_path: Path) -> None:
    service = await service_at(tmp_path)
    await challenged(service)
    for refused in (await service.accept(THREAD, WHITE), await service.accept(THREAD, SPECTATOR),
                    await service.cancel(THREAD, BLACK)):
        assert not refused.ok and refused.retire == ()
    assert (await state_of(service, THREAD)).challenge_message == CHALLENGE_MESSAGE


async def test_a_challenge_whose_message_was_not_noted_retires_nothing(tmp_path: Path) -> None:
    service = await service_at(tmp_path)
    assert (await service.challenge(THREAD, WHITE, BLACK, length=3)).ok
    accepted = await service.accept(PARENT, BLACK)
    assert accepted.ok and accepted.retire == ()


async def test_noting_a_message_for_another_match_is_refused(tmp_path: Path) -> None:
    service = await service_at(tmp_path)
    made = await service.challenge(THREAD, WHITE, BLACK, length=3)
    assert made.version is not None and made.match_id is not None
    wrong = await service.challenge_posted(THREAD, WHITE,
                                           Expect(made.version, made.match_id + 1), 1)
    assert not wrong.ok and "earlier game" in wrong.text
    assert (await service.accept(THREAD, BLACK)).ok
    # Answered before its message was noted (a typed /accept racing the post): the note
    # stores nothing and gives no buttons, so the message is left without any.
    late = await service.challenge_posted(THREAD, WHITE,
                                          Expect(made.version, made.match_id), 1)
    assert late.ok and late.buttons == () and late.retire == ()
    assert (await state_of(service, THREAD)).challenge_message is None


async def test_noting_a_declined_or_withdrawn_challenge_gives_no_buttons(
        tmp_path: Path) -> None:
    for answer in ("decline", "cancel"):
        (tmp_path / answer).mkdir()
        service = await service_at(tmp_path / answer)
        made = await service.challenge(THREAD, WHITE, BLACK, length=3)
        assert made.version is not None and made.match_id is not None
        who = BLACK if answer == "decline" else WHITE
        assert (await getattr(service, answer)(THREAD, who)).ok
        late = await service.challenge_posted(THREAD, WHITE,
                                              Expect(made.version, made.match_id), 1)
        assert late.ok and late.buttons == (), answer

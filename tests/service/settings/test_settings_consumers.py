"""Every command that reads a server setting (issue 29 item 11): the server's value wins over
the operator's config, and the config applies in a server that set nothing.  Two servers
on one database: 7 sets its own values, 8 sets none."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from scripted import Script, opened

from bot.ai.runner import AIRunner
from bot.config import AIConfig, Config, GameConfig, TimeoutConfig, TournamentSettingsConfig
from bot.service.core.replies import ChannelMention, RoleMention, plain
from bot.service.core.values import Actor, Place
from bot.service.game import GameService
from bot.storage.interface import MatchRow

ADMIN = Actor(1, "admin")
ALICE = Actor(2, "alice")
BOB = Actor(3, "bob")
CAROL = Actor(4, "carol")
AI = Actor(99, "gnubot", is_bot=True)
OWN = Place(7, 70)
"""A server that sets its own values (and a channel of it)."""
PLAIN = Place(8, 80)
"""A server that sets nothing."""
OPERATOR = Config(game=GameConfig(variant="french", rules={"crawford": False}),
                  timeouts=TimeoutConfig(reminder_minutes=60, claim_after_minutes=600),
                  ai=AIConfig(default_level="intermediate"),
                  tournament=TournamentSettingsConfig(organiser_role="Directors"))


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2030, 1, 1, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


async def make(tmp_path: Path, clock: Clock | None = None, **kw: Any) -> GameService:
    storage = await opened(tmp_path / "c.sqlite3")
    return GameService(storage, OPERATOR, dice=Script(then="3a91f07c5e2d84b6"),
                       clock=clock, **kw)


async def put(service: GameService, key: str, value: str, place: Place = OWN) -> None:
    reply = await service.settings_set(place, ADMIN, key, value, manage_server=True)
    assert reply.ok, reply.text


async def match_in(service: GameService, place: Place) -> MatchRow:
    async with service.storage.snapshot() as tx:
        row = await tx.latest_match_in_channel(place.channel_id)
    assert row is not None
    return row


async def test_challenge_takes_the_server_s_variant_and_rule_options(tmp_path: Path) -> None:
    service = await make(tmp_path)
    await put(service, "variant", "russian")
    await put(service, "rules.crawford", "on")
    await put(service, "rules.scoring", "checkers-1")
    assert (await service.challenge(OWN, ALICE, BOB, length=3)).ok
    own = await match_in(service, OWN)
    assert own.variant == "russian" and own.rules["crawford"] is True
    assert own.rules["scoring"] == "checkers-1"
    assert (await service.challenge(PLAIN, ALICE, BOB, length=3)).ok
    plain_ = await match_in(service, PLAIN)
    assert plain_.variant == "french" and plain_.rules["crawford"] is False
    assert plain_.rules["scoring"] == "games"
    # The command's own options still win over the server's.
    other = Place(7, 71)
    assert (await service.challenge(other, ALICE, BOB, length=3, variant="standard",
                                    rules={"scoring": "games"})).ok
    row = await match_in(service, other)
    assert row.variant == "standard" and row.rules["scoring"] == "games"


async def test_a_server_playing_jacoby_and_beavers_still_challenges_to_matches(
        tmp_path: Path) -> None:
    """Jacoby and beavers are money play's (002 'OPTIONAL RULES'): a server's default of
    them applies to money play and is left out of a match, where naming them is refused."""
    service = await make(tmp_path)
    await put(service, "rules.jacoby", "on")
    await put(service, "rules.beavers", "on")
    assert (await service.challenge(OWN, ALICE, BOB, length=3)).ok
    match = await match_in(service, OWN)
    assert match.rules["jacoby"] is False and match.rules["beavers"] is False
    money_place = Place(7, 71)
    assert (await service.challenge(money_place, ALICE, BOB, stake=1)).ok
    money = await match_in(service, money_place)
    assert money.rules["jacoby"] is True and money.rules["beavers"] is True
    named = await service.challenge(Place(7, 72), ALICE, BOB, length=3,
                                    rules={"jacoby": "on"})
    assert not named.ok and "Jacoby rule applies to money play only" in named.text


async def test_games_start_only_in_the_server_s_channels(tmp_path: Path) -> None:
    service = await make(tmp_path)
    await put(service, "game_channels", "71 72")
    refused = await service.challenge(OWN, ALICE, BOB, length=3)
    assert not refused.ok and refused.ephemeral
    assert refused.text == "Games don't start in this channel on this server: nothing was started."
    assert refused.notify == (("Games start in ", ChannelMention(71), ", ", ChannelMention(72),
                               "."),)
    table = await service.chouette.open(OWN, ALICE)
    assert not table.ok and table.text.startswith("Chouette tables don't open in this channel")
    assert table.notify == refused.notify
    thread = Place(7, 7001, parent_id=71)  # a thread of an allowed channel
    assert (await service.challenge(thread, ALICE, BOB, length=3)).ok
    assert (await service.chouette.open(Place(7, 72), CAROL)).ok
    assert (await service.challenge(PLAIN, ALICE, BOB, length=3)).ok  # every channel


@pytest.fixture
async def with_ai(tmp_path: Path) -> AsyncIterator[GameService]:
    runner = AIRunner(processes=False, time_limit=20.0)
    await runner.start()
    service = await make(tmp_path, ai=runner)
    service.set_ai_user(AI.id, AI.name)
    yield service
    runner.close()


async def test_the_ai_and_its_level_follow_the_server(with_ai: GameService) -> None:
    service = with_ai
    await put(service, "ai_level", "beginner")
    own = await service.challenge(OWN, ALICE, AI, length=1)
    assert own.ok and "You play the AI at level Beginner" in own.text, own.text
    other = await service.challenge(PLAIN, ALICE, AI, length=1)
    assert other.ok and "You play the AI at level Intermediate" in other.text, other.text
    await put(service, "ai", "off")
    off = await service.challenge(Place(7, 71), BOB, AI, length=1)
    assert not off.ok and off.text == "Games against the bot are switched off on this server."


async def test_chouette_takes_the_server_s_variant_and_rules(tmp_path: Path) -> None:
    service = await make(tmp_path)
    await put(service, "variant", "acey-deucey")
    await put(service, "rules.automatic_doubles", "on")
    assert (await service.chouette.open(OWN, ALICE)).ok
    assert (await service.chouette.open(PLAIN, ALICE)).ok
    async with service.storage.snapshot() as tx:
        own = await tx.open_chouette_in_channel(OWN.channel_id)
        plain_ = await tx.open_chouette_in_channel(PLAIN.channel_id)
    assert own is not None and plain_ is not None
    assert own.rules["variant"] == "acey-deucey" and own.rules["rules"]["automatic_doubles"]
    assert plain_.rules["variant"] == "french"
    assert not plain_.rules["rules"]["automatic_doubles"]


async def test_tournaments_follow_the_server(tmp_path: Path) -> None:
    service = await make(tmp_path)
    await put(service, "variant", "russian")
    await put(service, "rules.crawford", "on")
    await put(service, "rules.jacoby", "on")  # (money play's: not in a tournament's matches)
    await put(service, "tournament_channels", "71")
    refused = await service.tournament_create(OWN, ADMIN, is_organiser=True, name="Cup",
                                              format="swiss")
    assert not refused.ok and refused.text.startswith(
        "Tournaments aren't created in this channel on this server")
    assert refused.notify == (("Tournaments are created in ", ChannelMention(71), "."),)
    made = await service.tournament_create(Place(7, 71), ADMIN, is_organiser=True,
                                           name="Cup", format="swiss")
    assert made.ok and "Russian backgammon" in made.text, made.text
    async with service.storage.snapshot() as tx:
        own = await tx.get_tournament(1)
    assert own is not None and own.config["variant"] == "russian"
    assert own.config["rules"]["crawford"] is True and own.config["rules"]["jacoby"] is False
    assert (await service.tournament_create(PLAIN, ADMIN, is_organiser=True, name="Open",
                                            format="swiss")).ok
    async with service.storage.snapshot() as tx:
        other = await tx.get_tournament(2)
    assert other is not None and other.config["variant"] == "french"
    assert other.config["rules"]["crawford"] is False
    # Who may not organise is told the role: the server's, else the operator's (by name).
    await put(service, "organiser_role", "<@&555>")
    for place, role in ((Place(7, 71), RoleMention(555)),
                        (PLAIN, RoleMention(None, "Directors"))):
        no = await service.tournament_create(place, CAROL, is_organiser=False, name="X",
                                             format="swiss")
        assert not no.ok and "Only organisers can create a tournament" in no.text
        assert no.notify == (("The organiser role here: ", role, "."),)


async def test_claim_after_the_server_s_time(tmp_path: Path) -> None:
    clock = Clock()
    service = await make(tmp_path, clock)
    await put(service, "claim_after_minutes", "30")
    for place in (OWN, PLAIN):
        assert (await service.challenge(place, ALICE, BOB, length=1)).ok
        assert (await service.accept(place, BOB)).ok
    clock.now = datetime.now(UTC) + timedelta(minutes=31)
    for place, said in ((OWN, "claims the game: "),
                        (PLAIN, "still has 9 hours 29 minutes to act")):  # 600 minutes
        # Whoever waits for the other may claim (the other is told he can't).
        texts = [(await service.claim(place, who)).text for who in (ALICE, BOB)]
        assert any(said in t for t in texts), texts
        assert any("You can only claim a game while your opponent has to act" in t
                   for t in texts), texts


async def test_reminders_after_each_server_s_time(tmp_path: Path) -> None:
    clock = Clock()
    service = await make(tmp_path, clock)
    await put(service, "reminder_minutes", "10")
    await put(service, "claim_after_minutes", "1h")
    quiet = Place(9, 90)
    await put(service, "reminder_minutes", "0", place=quiet)
    for place in (OWN, PLAIN, quiet):
        assert (await service.challenge(place, ALICE, BOB, length=1)).ok
        assert (await service.accept(place, BOB)).ok
    clock.now = datetime.now(UTC) + timedelta(minutes=11)
    due = await service.due_reminders()
    assert [c for c, _ in due] == [OWN.channel_id]
    assert plain(due[0][1]).endswith("it's your turn here (idle for 10 minutes). After 1 hour "
                                     "your opponent may claim the game.")
    clock.now += timedelta(hours=1)
    due = await service.due_reminders()
    assert [c for c, _ in due] == [PLAIN.channel_id]  # the operator's hour; never in 9
    assert plain(due[0][1]).endswith("(idle for 1 hour). After 10 hours your opponent may "
                                     "claim the game.")
    assert await service.due_reminders() == []


async def test_reminders_of_a_server_when_the_operator_sends_none(tmp_path: Path) -> None:
    clock = Clock()
    storage = await opened(tmp_path / "c.sqlite3")
    service = GameService(storage, Config(timeouts=TimeoutConfig(reminder_minutes=0)),
                          dice=Script(then="3a91f07c5e2d84b6"), clock=clock)
    await put(service, "reminder_minutes", "5")
    for place in (OWN, PLAIN):
        assert (await service.challenge(place, ALICE, BOB, length=1)).ok
        assert (await service.accept(place, BOB)).ok
    clock.now = datetime.now(UTC) + timedelta(days=2)
    assert [c for c, _ in await service.due_reminders()] == [OWN.channel_id]


async def test_rules_show_the_server_s_defaults(tmp_path: Path) -> None:
    service = await make(tmp_path)
    await put(service, "variant", "acey-deucey")
    await put(service, "rules.kicked_off", "reserve")
    own = await service.rules(place=OWN)
    assert own.text.startswith("**Acey-Deucey** — no game in this channel: the server's "
                               "defaults") and "rejoins the men not yet entered" in own.text
    other = await service.rules(place=PLAIN)
    assert other.text.startswith("**French backgammon** — no game in this channel"), other.text
    assert "Crawford rule (matches): off" in other.text  # the operator's [game.rules]


async def test_tournament_deadlines_are_announced_where_the_server_says(
        tmp_path: Path) -> None:
    clock = Clock()
    service = await make(tmp_path, clock)
    await put(service, "tournament_announcements", "77")
    for place in (OWN, PLAIN):
        made = await service.tournament_create(place, ADMIN, is_organiser=True, name="Cup",
                                               format="single-elimination", length="1",
                                               round_hours=1)
        assert made.ok, made.text
        for who in (ALICE, BOB):
            assert (await service.tournament_join(place, who, made.tournament_id)).ok
        assert (await service.tournament_start(place, ADMIN, is_organiser=True,
                                               tournament=made.tournament_id)).ok
    clock.now += timedelta(hours=2)
    expired = [(c, plain(n)) for c, n in await service.tournament_due()
               if "deadline of round 1" in plain(n)]
    assert sorted(c for c, _ in expired) == [77, PLAIN.channel_id]


async def test_the_analysis_announcements_accessor(tmp_path: Path) -> None:
    service = await make(tmp_path)
    assert (await service.server_settings(7)).analysis_announcements is None
    await put(service, "analysis_announcements", "#123")
    assert (await service.server_settings(7)).analysis_announcements == 123
    assert (await service.server_settings(8)).analysis_announcements is None

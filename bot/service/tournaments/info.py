"""Looking at tournaments (status, list, the bracket picture's data) and their deadlines:
a reminder before each round's deadline and a notice when it passes, each sent once,
cluster-wide (a conditional update decides which process sends it).  The notice of a
passed deadline is an announcement: it goes to the server's ``tournament_announcements``
channel when it set one (``/settings``), else to the tournament's channel."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.config import Config
from bot.service.core.replies import Mention, Moment, Notice, Refusal, Reply, notice
from bot.service.core.runner import ActionRunner
from bot.service.core.values import Place, bad_ids
from bot.service.settings.service import SettingsService
from bot.service.tournaments.data import OPEN, deadline_notices, find, pairing_line, read
from bot.storage.interface import TournamentStatus, Transaction
from engine.tournament import TournamentState
from engine.words import counted

LIST_LIMIT = 15


@dataclass(frozen=True, slots=True)
class BracketPicture:
    """What the bracket PNG is drawn from (``render.bracket.render_tournament_png``, run by
    the adapter's render pool): the state and the players' names."""

    state: TournamentState
    names: dict[str, str]
    title: str


class TournamentInfo:
    def __init__(self, runner: ActionRunner, config: Config, *,
                 settings: SettingsService) -> None:
        self.runner = runner
        self.config = config
        self.settings = settings

    async def status(self, place: Place, tournament: int | None = None) -> Reply:
        if (bad := bad_ids(place)) is not None:
            return Reply.refuse(bad)
        async with self.runner.storage.snapshot() as tx:
            try:
                loaded = await find(tx, place, tournament, lock=False,
                                    statuses=[*OPEN, TournamentStatus.FINISHED.value])
            except Refusal as refusal:
                return Reply.refuse(str(refusal))
            made = await tx.tournament_matches(loaded.row.id)
        data, row = loaded.data, loaded.row
        s = loaded.settings
        lines = [f"{loaded.title}: {s.tournament.format.label}, {s.tournament.lengths.describe()}"
                 f" — {row.status.value}."]
        state = data.engine
        if state is None:
            lines.append(f"Signed up ({len(data.entrants)}): "
                         + (", ".join(e.name for e in data.entrants) or "nobody yet") + ".")
            return Reply(ok=True, text="\n".join(lines), tournament_id=row.id)
        if state.finished:
            lines.append(f"Champion: {data.name(state.champion)}.")
        else:
            lines.append(f"Round {state.round} of {state.rounds_planned}.")
        for p in state.pending:
            where = made.get(p.id)
            lines.append(pairing_line(data, p)
                         + (" — being played" if where else
                            " — waiting for its thread")
                         + (" — claimed" if data.claim_of(p.id) else ""))
        decided = [p for p in state.current_pairings if p.decided and not p.is_bye]
        lines += [pairing_line(data, p) for p in decided]
        top = state.standings()[:8]
        lines.append("Standings: " + ", ".join(
            f"{x.place}. {x.name} ({x.score})" for x in top) + ".")
        shown = deadline_notices(row.deadline) if not state.finished else ()
        return Reply(ok=True, text="\n".join(lines), notify=shown, tournament_id=row.id)

    async def listing(self, place: Place) -> Reply:
        if (bad := bad_ids(place)) is not None:
            return Reply.refuse(bad)
        async with self.runner.storage.snapshot() as tx:
            rows = await tx.tournaments_in_guild(
                place.guild_id, [*OPEN, TournamentStatus.FINISHED.value])
        if not rows:
            return Reply(ok=True, text="No tournaments on this server yet. An organiser "
                         "creates one with /tournament-admin create.", ephemeral=True)
        lines = []
        for row in rows[-LIST_LIMIT:]:
            loaded = read(row)
            lines.append(f"#{row.id} {row.name}: {loaded.settings.tournament.format.label}, "
                         f"{row.status.value}, {counted(len(loaded.data.entrants), 'player')}"
                         + (f", round {row.round}" if row.round else ""))
        return Reply(ok=True, text="\n".join(lines), ephemeral=True)

    async def bracket(self, place: Place, tournament: int | None = None
                      ) -> tuple[Reply, BracketPicture | None]:
        if (bad := bad_ids(place)) is not None:
            return Reply.refuse(bad), None
        async with self.runner.storage.snapshot() as tx:
            try:
                loaded = await find(tx, place, tournament, lock=False,
                                    statuses=[*OPEN, TournamentStatus.FINISHED.value])
            except Refusal as refusal:
                return Reply.refuse(str(refusal)), None
        state = loaded.data.engine
        if state is None:
            return Reply.refuse(f"{loaded.title} has not started: there is no bracket yet. "
                                "/tournament status lists who signed up."), None
        names = {str(e.user): e.name for e in loaded.data.entrants}
        kind = "bracket" if state.format.elimination else "standings"
        # "after round N" only once round N is over (issue 30 item 10).
        when = ("at the end" if state.finished else
                f"during round {state.round}" if any(p.result is None
                                                     for p in state.current_pairings)
                else f"after round {state.round}")
        return (Reply(ok=True, text=f"{loaded.title}: the {kind} {when}.",
                      tournament_id=loaded.row.id),
                BracketPicture(state, names, loaded.title))

    async def due(self) -> list[tuple[int, Notice]]:
        """(channel id, notice) for each round reminder and deadline now due, once."""
        now = self.runner.now()
        _, announce = (await self.settings.per_guild("tournament_announcements"))[
            "tournament_announcements"]

        async def work(tx: Transaction) -> list[tuple[int, Notice]]:
            out: list[tuple[int, Notice]] = []
            for row in await tx.due_tournaments(now):
                loaded = read(row)
                state = loaded.data.engine
                if state is None:
                    continue
                made = await tx.tournament_matches(row.id)
                if row.remind_at and row.deadline and row.remind_at <= now and (
                        row.reminded_round < row.round):
                    if await tx.claim_tournament_notice(row.id, "reminder", row.round):
                        for p in state.pending:
                            where = made.get(p.id)
                            channel = where.channel_id if where else row.channel_id
                            mentions = [Mention(int(x), loaded.data.name(x)) for x in p.players]
                            out.append((channel, notice(
                                *mentions, f": your {loaded.title} match {p.id} must end by ",
                                Moment(datetime.fromisoformat(row.deadline)), ".")))
                if row.deadline and row.deadline <= now and row.expired_round < row.round:
                    if await tx.claim_tournament_notice(row.id, "expired", row.round):
                        out.append((announce.get(row.guild_id) or row.channel_id, notice(
                            Mention(row.organiser_id), f": the deadline of round {row.round} "
                            f"of {loaded.title} has passed with "
                            f"{counted(len(state.pending), 'match')} unfinished. A player "
                            "whose opponent never played can /tournament claim; the "
                            "organiser confirms, or decides with /tournament-admin result.")))
            return out

        return await self.runner.storage.run(work)

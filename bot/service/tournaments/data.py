"""The typed data a tournament row carries (its ``config`` and ``state`` JSON columns),
and the helpers every tournament module shares: finding the tournament a command means,
saving it with the version check, naming players.

The engine (:mod:`engine.tournament`) knows players by string ids; the host uses the
platform's user id written in decimal (``str(user_id)``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from bot.service.core.replies import MessageRef, Moment, Notice, Refusal, notice
from bot.service.core.values import MAX_ID, Actor, Place
from bot.storage.interface import TournamentRow, TournamentStatus, Transaction, clean_name
from engine.tournament import Pairing, Reason, TournamentConfig, TournamentState

OPEN = tuple(s.value for s in TournamentStatus if s.is_open)
STARTED = (TournamentStatus.RUNNING, TournamentStatus.PAUSED)


@dataclass(frozen=True, slots=True)
class Settings:
    """The organiser's choices (the ``config`` column): the engine's configuration and the
    terms of every match (variant and rule options, as ``/challenge`` takes them)."""

    tournament: TournamentConfig
    variant: str = "standard"
    rules: Mapping[str, Any] = field(default_factory=dict)
    round_hours: float = 0.0
    """Hours each round lasts before its deadline (0: no deadlines)."""
    clock: str = "none"
    """The time control of every match (issue 44; :mod:`bot.service.core.timecontrol`)."""

    def to_dict(self) -> dict[str, Any]:
        out = {"tournament": self.tournament.to_dict(), "variant": self.variant,
               "rules": dict(self.rules), "round_hours": self.round_hours}
        if self.clock != "none":
            out["clock"] = self.clock
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Settings:
        return cls(TournamentConfig.from_dict(dict(data["tournament"])), str(data["variant"]),
                   dict(data["rules"]), float(data.get("round_hours", 0.0)),
                   str(data.get("clock", "none")))


@dataclass(frozen=True, slots=True)
class Signup:
    """An entrant signed up: the user and the name shown for him, cut and cleaned where it
    is stored as a user's name is (:func:`~bot.storage.interface.clean_name`: issue 43
    item 7), also when read back from a tournament stored before."""

    user: int
    name: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "name", clean_name(self.name, self.user))


@dataclass(frozen=True, slots=True)
class Claim:
    """A player's claim of an unstarted match at the deadline, waiting for the organiser."""

    pairing: str
    claimant: int
    at: str


@dataclass(frozen=True, slots=True)
class TournamentData:
    """The ``state`` column: the field, the lot seed, the engine's state, claims, notes."""

    entrants: tuple[Signup, ...] = ()
    lot_seed: str = ""
    """Secret until the start; its SHA-256 (``lot_hash``) is published at creation."""
    lot_hash: str = ""
    lots_drawn: int = 0
    engine: TournamentState | None = None
    claims: tuple[Claim, ...] = ()
    notes: tuple[tuple[str, str], ...] = ()
    """(pairing id, the organiser's reason) of each result the organiser decided."""
    paused_left: float | None = None
    """Seconds left before the round's deadline when the tournament was paused."""
    signup_message: MessageRef | None = None
    """The public sign-up message with the Join/Leave buttons (stored once the adapter
    posted it): its buttons are retired at the start or the cancellation."""

    @property
    def started(self) -> TournamentState:
        if self.engine is None:
            raise Refusal("This tournament has not started yet: the organiser starts it "
                          "with /tournament-admin start.")
        return self.engine

    def entrant(self, user: int) -> Signup | None:
        return next((e for e in self.entrants if e.user == user), None)

    def name(self, user: int | str | None) -> str:
        if user is None:
            return "bye"
        found = self.entrant(int(user))
        return found.name if found is not None else str(user)

    def note(self, pairing: str) -> str | None:
        return next((text for pid, text in self.notes if pid == pairing), None)

    def claim_of(self, pairing: str) -> Claim | None:
        return next((c for c in self.claims if c.pairing == pairing), None)

    def to_dict(self) -> dict[str, Any]:
        return {"entrants": [[e.user, e.name] for e in self.entrants],
                "lot_seed": self.lot_seed, "lot_hash": self.lot_hash,
                "lots_drawn": self.lots_drawn,
                "engine": None if self.engine is None else self.engine.to_dict(),
                "claims": [[c.pairing, c.claimant, c.at] for c in self.claims],
                "notes": [list(n) for n in self.notes], "paused_left": self.paused_left,
                **({} if self.signup_message is None else {"signup_message": [
                    self.signup_message.channel_id, self.signup_message.message_id]})}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TournamentData:
        engine = data.get("engine")
        left = data.get("paused_left")
        message = data.get("signup_message")
        return cls(tuple(Signup(int(u), str(n)) for u, n in data.get("entrants", ())),
                   str(data.get("lot_seed", "")), str(data.get("lot_hash", "")),
                   int(data.get("lots_drawn", 0)),
                   None if engine is None else TournamentState.from_dict(dict(engine)),
                   tuple(Claim(str(p), int(u), str(a)) for p, u, a in data.get("claims", ())),
                   tuple((str(p), str(t)) for p, t in data.get("notes", ())),
                   None if left is None else float(left),
                   None if message is None else MessageRef(int(message[0]), int(message[1])))


@dataclass(frozen=True, slots=True)
class Loaded:
    """A tournament row with its typed columns."""

    row: TournamentRow
    settings: Settings
    data: TournamentData

    @property
    def title(self) -> str:
        return f"#{self.row.id} {self.row.name}"


def read(row: TournamentRow) -> Loaded:
    return Loaded(row, Settings.from_dict(row.config), TournamentData.from_dict(row.state))


async def find(tx: Transaction, place: Place, tournament: int | None, *,
               statuses: Sequence[str] = OPEN, lock: bool = True) -> Loaded:
    """The tournament a command means: ``tournament`` by number, else the server's only
    open one (the one created in this channel when there are several; the latest of
    ``statuses`` when none is open).  Locked unless ``lock`` is False."""
    if tournament is not None:
        # A number the database cannot hold names no tournament (never an OverflowError).
        row = (await tx.get_tournament(tournament) if 0 <= tournament <= MAX_ID else None)
        if row is None or row.guild_id != place.guild_id:
            raise Refusal(f"This server has no tournament #{tournament}: /tournament list "
                          "shows them.")
    else:
        rows = await tx.tournaments_in_guild(place.guild_id, list(statuses))
        running = [r for r in rows if r.status.is_open]
        rows = running or rows[-1:]  # none open: the latest one asked for (finished)
        here = [r for r in rows if r.channel_id == place.channel_id]
        if len(rows) == 1:
            row = rows[0]
        elif len(here) == 1:
            row = here[0]
        elif not rows:
            raise Refusal("There is no tournament open on this server. An organiser can "
                          "create one with /tournament-admin create.")
        else:
            listed = ", ".join(f"#{r.id} {r.name}" for r in rows)
            raise Refusal(f"This server has several tournaments open ({listed}): name the "
                          "one you mean with the tournament option.")
    if lock:
        locked = await tx.lock_tournament(row.id)
        assert locked is not None
        row = locked
    return read(row)


async def save(tx: Transaction, loaded: Loaded, data: TournamentData,
               **changes: Any) -> TournamentRow:
    """Write ``data`` (and column ``changes``) with the version check; the round column
    follows the engine's state."""
    if data.engine is not None:
        changes.setdefault("round", data.engine.round)
    return await tx.update_tournament(loaded.row, state=data.to_dict(), **changes)


def check_organiser(loaded: Loaded, actor: Actor, is_organiser: bool, what: str) -> None:
    if not (is_organiser or actor.id == loaded.row.organiser_id):
        raise Refusal(f"Only the organiser of {loaded.title} (or a server organiser: the "
                      f"organiser role or Manage Server) can {what}.")


def iso(moment: datetime) -> str:
    return moment.isoformat(timespec="milliseconds")


def deadlines(now: datetime, seconds: float | None,
              remind_hours: float) -> dict[str, str | None]:
    """The deadline and reminder columns of a round lasting ``seconds`` from ``now``
    (None or 0: no deadline).  The reminder comes ``remind_hours`` before the deadline,
    at most half-way through the round."""
    if not seconds or seconds <= 0:
        return {"deadline": None, "remind_at": None}
    end = now + timedelta(seconds=seconds)
    lead = min(timedelta(hours=remind_hours), timedelta(seconds=seconds / 2))
    return {"deadline": iso(end), "remind_at": iso(end - lead)}


def pairing_line(data: TournamentData, p: Pairing) -> str:
    """``R1-2 (round 1, match 2): alice v bob, 5 points`` and its result."""
    text = f"{p.id} ({p.label}): {data.name(p.a)} v {data.name(p.b)}"
    if p.result is None:
        return text + f", {p.length}-point match"
    r = p.result
    if r.winner is None:
        return text + ": empty place"
    won, lost = p.points_of(r.winner)
    score = f" {won}-{lost}" if (won, lost) != (0, 0) else ""
    note = data.note(p.id)
    if r.reason is Reason.PLAYED and note:  # "(the last game resigned)": issue 30 item 10
        return text + f": {data.name(r.winner)} won{score} ({note})"
    return (text + f": {data.name(r.winner)} won{score} ({r.reason.value}"
            + (f": {note}" if note else "") + ")")


def deadline_notices(deadline: str | None, head: str = "The round's deadline: "
                     ) -> tuple[Notice, ...]:
    """The round's deadline as a line each adapter writes in its reader's time (a
    :class:`Moment`: Discord's timestamp markup, the console's local time); none without
    one."""
    if not deadline:
        return ()
    return (notice(head, Moment(datetime.fromisoformat(deadline)), "."),)

"""The tournament as one immutable value the host stores, and its transitions.

::

    state = TournamentState.start(config, entrants, draws)    # round 1 paired
    state = state.record_result("R1-3", winner="alice", points=(5, 2))
    state = state.remove_player("bob")                        # his matches forfeited
    data = state.to_dict()   # JSON-friendly; TournamentState.from_dict(data) == state

A round ends when its last pairing is decided; the next round's pairings are then made at
once (byes and matches against removed players are decided on the spot, so several rounds
may pass in one call).  The state is finished when every pairing is decided; ``champion``
is then the winner.  Every refusal raises a :class:`~engine.tournament.errors.TournamentError`
subclass whose message says why and what is allowed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.tournament import elimination, roundrobin, swiss
from engine.tournament.errors import (
    EntrantsError,
    LastPlayerError,
    NotInPairingError,
    PairingDecidedError,
    PlayerWithdrawnError,
    ResultError,
    StateFormatError,
    TournamentFinishedError,
    UnknownPairingError,
    UnknownPlayerError,
)
from engine.tournament.formats import (
    Format,
    TournamentConfig,
    max_swiss_rounds,
    swiss_rounds_for,
)
from engine.tournament.pairing import Bracket, Pairing, Reason, Result
from engine.tournament.seeding import Entrant, LotSource, Seed, bracket_size, seed_entrants
from engine.tournament.standings import Standing, compute
from engine.words import article

STATE_VERSION = 1

_Made = tuple[Bracket, int, tuple[str | None, str | None]]

_SHOWN = 20
"""The most of a label a user typed that an error quotes back (the rest is cut)."""


@dataclass(frozen=True, slots=True)
class TournamentState:
    config: TournamentConfig
    """The organiser's choices; for Swiss, ``swiss_rounds`` is the resolved number."""
    seeds: tuple[Seed, ...]
    """The field in seed order."""
    pairings: tuple[Pairing, ...]
    """Every pairing made so far, round by round."""
    round: int
    """The current round (the last one paired)."""
    withdrawn: tuple[str, ...] = ()
    """Players removed by the organiser, in the order they were removed."""
    bracket_size: int = 0
    """Places in an elimination bracket (a power of two); 0 for round robin and Swiss."""

    # ------------------------------------------------------------------ creation

    @classmethod
    def start(cls, config: TournamentConfig, entrants: Sequence[Entrant],
              draws: LotSource) -> TournamentState:
        """Seed ``entrants`` (ties by lot from ``draws``) and pair round 1."""
        n = len(entrants)
        if n < 2:
            raise EntrantsError(
                f"a tournament needs at least 2 players and {n} signed up; wait for more "
                f"sign-ups or cancel it")
        if config.max_players is not None and n > config.max_players:
            raise EntrantsError(
                f"{n} players signed up but this tournament takes at most "
                f"{config.max_players}; remove {n - config.max_players} or raise the limit")
        if config.format is Format.SWISS:
            rounds = config.swiss_rounds or swiss_rounds_for(n)
            if rounds > max_swiss_rounds(n):
                raise EntrantsError(
                    f"{n} players can play at most {max_swiss_rounds(n)} Swiss rounds "
                    f"without rematches or second byes, not {rounds}; choose fewer rounds "
                    f"(or a round robin)")
            config = replace(config, swiss_rounds=rounds)
        seeds = seed_entrants(entrants, draws)
        size = bracket_size(n) if config.format.elimination else 0
        state = cls(config, seeds, (), 0, (), size)
        return state._advance()

    # ------------------------------------------------------------------ queries

    @property
    def format(self) -> Format:
        return self.config.format

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(s.player for s in self.seeds)

    def entrant(self, player: str) -> Entrant:
        for s in self.seeds:
            if s.player == player:
                return s.entrant
        raise UnknownPlayerError(f"{player} is not in this tournament")

    def name(self, player: str | None) -> str:
        return "bye" if player is None else self.entrant(player).display

    @property
    def finished(self) -> bool:
        return bool(self.pairings) and all(p.decided for p in self.pairings)

    @property
    def rounds_planned(self) -> int:
        """Rounds the tournament is planned to last (a bracket reset adds one)."""
        if self.format is Format.SWISS:
            assert self.config.swiss_rounds is not None
            return self.config.swiss_rounds
        if self.format is Format.ROUND_ROBIN:
            return roundrobin.rounds_for(len(self.seeds))
        return elimination.planned_rounds(self.bracket_size,
                                          self.format is Format.DOUBLE_ELIMINATION)

    def length_for(self, round: int) -> int:
        """The match length of ``round`` (the final round(s) may have their own)."""
        return self.config.lengths.length_for(round, final=round >= self.rounds_planned)

    def round_pairings(self, round: int) -> tuple[Pairing, ...]:
        return tuple(p for p in self.pairings if p.round == round)

    @property
    def current_pairings(self) -> tuple[Pairing, ...]:
        return self.round_pairings(self.round)

    @property
    def pending(self) -> tuple[Pairing, ...]:
        """The matches waiting to be played (all in the current round)."""
        return tuple(p for p in self.pairings if not p.decided)

    def pairing(self, pairing_id: str) -> Pairing:
        for p in self.pairings:
            if p.id == pairing_id:
                return p
        pending = ", ".join(p.id for p in self.pending) or "none"
        shown = pairing_id if len(pairing_id) <= _SHOWN else pairing_id[:_SHOWN] + "..."
        raise UnknownPairingError(
            f"this tournament has no pairing {shown!r}; the matches waiting for a "
            f"result are: {pending}")

    def pairing_of(self, player: str) -> Pairing | None:
        """The player's pending match, if any."""
        for p in self.pending:
            if player in p.players:
                return p
        return None

    def new_pairings(self, previous: TournamentState | None) -> tuple[Pairing, ...]:
        """The pairings made since ``previous`` still to be played (the matches to announce)."""
        known = set() if previous is None else {p.id for p in previous.pairings}
        return tuple(p for p in self.pairings if p.id not in known and not p.decided)

    @property
    def champion(self) -> str | None:
        """The winner, once the tournament is finished."""
        if not self.finished:
            return None
        if self.format.elimination:
            return self.pairings[-1].winner
        return self.standings()[0].player

    def standings(self) -> tuple[Standing, ...]:
        return compute(self.format, self.seeds, self.pairings, self.withdrawn)

    # ------------------------------------------------------------------ transitions

    def record_result(self, pairing_id: str, winner: str,
                      points: tuple[int, int] | None = None,
                      reason: Reason | str = Reason.PLAYED) -> TournamentState:
        """Decide a pending pairing.  ``points`` are (winner's, loser's) match points:
        required for a played match (the winner on the match length or more, the loser
        below it), optional otherwise (default 0-0).  ``reason``: played, forfeit or
        organiser."""
        if self.finished:
            raise TournamentFinishedError(
                f"the tournament is over (champion: {self.name(self.champion)}); it takes no "
                f"more results")
        pairing = self.pairing(pairing_id)
        try:
            why = Reason(reason)
        except ValueError:
            raise ResultError(
                f"unknown reason {reason!r}; give played, forfeit or organiser") from None
        if why.automatic:
            raise ResultError(
                f"{why.value} results are made by the tournament itself; give played, "
                f"forfeit or organiser")
        if pairing.result is not None:
            raise PairingDecidedError(
                f"{pairing.id} ({self._describe(pairing)}) is already decided; a result is "
                f"recorded once. Matches waiting for a result: "
                f"{', '.join(p.id for p in self.pending)}")
        if winner not in pairing.players:
            raise NotInPairingError(
                f"{self.name(winner) if winner in self.players else winner} does not play in "
                f"{pairing.id}; the winner is {self.name(pairing.a)} or {self.name(pairing.b)}")
        won, lost = self._check_points(pairing, why, points)
        pts = (won, lost) if winner == pairing.a else (lost, won)
        return self._replace_pairing(pairing.decide(Result(winner, why, pts)))._advance()

    def remove_player(self, player: str) -> TournamentState:
        """Withdraw ``player``: a pending match is forfeited to the opponent, later ones
        never take place (the opponent goes through), and Swiss rounds are paired without
        them from the next round on."""
        if player not in self.players:
            raise UnknownPlayerError(f"{player} is not in this tournament; nobody was removed")
        if self.finished:
            raise TournamentFinishedError(
                "the tournament is over; its players can no longer be removed")
        if player in self.withdrawn:
            raise PlayerWithdrawnError(f"{self.name(player)} was already removed")
        table = {s.player: s for s in self.standings()}
        if self.format.elimination:
            if table[player].alive and sum(s.alive for s in table.values()) <= 1:
                raise LastPlayerError(
                    f"{self.name(player)} is the last player still in the running; removing "
                    f"them would leave no champion. Cancel the tournament instead")
        elif sum(not s.withdrawn for s in table.values()) <= 2:
            raise LastPlayerError(
                f"removing {self.name(player)} would leave fewer than two players to pair; "
                f"cancel the tournament instead")
        state = replace(self, withdrawn=(*self.withdrawn, player))
        current = state.pairing_of(player)
        if current is not None:
            other = current.opponent(player)
            state = state._replace_pairing(current.decide(Result(other, Reason.WITHDRAWAL)))
        return state._advance()

    # ------------------------------------------------------------------ machinery

    def _describe(self, p: Pairing) -> str:
        text = f"{self.name(p.a)} v {self.name(p.b)}"
        if p.result is not None and p.result.winner is not None:
            won, lost = p.points_of(p.result.winner)
            text += f": {self.name(p.result.winner)} won"
            if (won, lost) != (0, 0):
                text += f" {won}-{lost}"
            text += f" ({p.result.reason.value})"
        return text

    def _check_points(self, p: Pairing, why: Reason,
                      points: tuple[int, int] | None) -> tuple[int, int]:
        if points is None:
            if why is Reason.PLAYED:
                raise ResultError(
                    f"a played match needs its final score, e.g. ({p.length}, 3) for a win "
                    f"to {p.length} against 3; without one, enter it as forfeit or organiser")
            return (0, 0)
        try:
            won, lost = (int(points[0]), int(points[1]))
        except (TypeError, ValueError, IndexError):
            raise ResultError(
                f"the score must be two numbers, the winner's points then the loser's, "
                f"not {points!r}") from None
        if won < 0 or lost < 0:
            raise ResultError(f"match points cannot be negative ({won}-{lost})")
        if why is Reason.PLAYED and not (won >= p.length > lost):
            raise ResultError(
                f"{p.id} is {article(f'{p.length}-point match')}: the winner ends on "
                f"{p.length} or more and the loser below {p.length}, so {won}-{lost} cannot be "
                "its final score")
        return (won, lost)

    def _replace_pairing(self, new: Pairing) -> TournamentState:
        return replace(self, pairings=tuple(new if p.id == new.id else p
                                            for p in self.pairings))

    def _make(self, round: int, made: Sequence[_Made]) -> tuple[Pairing, ...]:
        out: list[Pairing] = []
        gone = set(self.withdrawn)
        length = self.length_for(round)
        for i, (bracket, stage, (a, b)) in enumerate(made):
            slot = sum(1 for x in made[:i] if x[0] is bracket and x[1] == stage)
            p = Pairing(f"R{round}-{i + 1}", round, a, b, length, bracket, stage, slot)
            present = [x for x in (a, b) if x is not None]
            active = [x for x in present if x not in gone]
            if len(present) < 2:
                winner = active[0] if active else None
                p = p.decide(Result(winner, Reason.BYE if active or not present
                                    else Reason.WITHDRAWAL))
            elif len(active) < 2:
                p = p.decide(Result(active[0] if active else None, Reason.WITHDRAWAL))
            out.append(p)
        return tuple(out)

    def _next(self) -> list[_Made]:
        fmt, rnd = self.format, self.round
        if fmt is Format.SINGLE_ELIMINATION:
            if rnd == 0:
                return [(Bracket.MAIN, 1, s) for s in elimination.first_round(
                    self.players, self.bracket_size)]
            return elimination.single_next(self.pairings, self.bracket_size, rnd)
        if fmt is Format.DOUBLE_ELIMINATION:
            if rnd == 0:
                return [(Bracket.WINNERS, 1, s) for s in elimination.first_round(
                    self.players, self.bracket_size)]
            return elimination.double_next(self.pairings, self.bracket_size, rnd,
                                           frozenset(self.withdrawn))
        if rnd >= self.rounds_planned:
            return []
        if fmt is Format.ROUND_ROBIN:
            return [(Bracket.MAIN, rnd + 1, s)
                    for s in roundrobin.round_pairs(self.players, rnd + 1)]
        table = [s for s in self.standings() if not s.withdrawn]
        ranking = [s.player for s in table]
        if rnd == 0:
            pairs = swiss.first_round(ranking)
        else:
            met: dict[str, set[str]] = {}
            for p in self.pairings:
                if p.a is not None and p.b is not None:
                    met.setdefault(p.a, set()).add(p.b)
                    met.setdefault(p.b, set()).add(p.a)
            had_bye = {p.players[0] for p in self.pairings if p.is_bye and p.players}
            pairs = swiss.pair_round(ranking, {s.player: s.score for s in table}, met, had_bye)
        return [(Bracket.MAIN, rnd + 1, pair) for pair in pairs]

    def _advance(self) -> TournamentState:
        state = self
        while all(p.decided for p in state.pairings):
            made = state._next()
            if not made:
                break
            rnd = state.round + 1
            state = replace(state, round=rnd)
            state = replace(state, pairings=state.pairings + state._make(rnd, made))
        return state

    # ------------------------------------------------------------------ storage

    def to_dict(self) -> dict[str, Any]:
        """A JSON-friendly dict (str, int, float, None, lists, dicts only)."""
        return {"version": STATE_VERSION, "config": self.config.to_dict(),
                "seeds": [s.to_dict() for s in self.seeds],
                "pairings": [p.to_dict() for p in self.pairings], "round": self.round,
                "withdrawn": list(self.withdrawn), "bracket_size": self.bracket_size}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TournamentState:
        try:
            version = data["version"]
            if version != STATE_VERSION:
                raise StateFormatError(
                    f"stored tournament version {version!r}; this engine reads version "
                    f"{STATE_VERSION}")
            return cls(TournamentConfig.from_dict(data["config"]),
                       tuple(Seed.from_dict(s) for s in data["seeds"]),
                       tuple(Pairing.from_dict(p) for p in data["pairings"]),
                       int(data["round"]), tuple(str(p) for p in data["withdrawn"]),
                       int(data["bracket_size"]))
        except StateFormatError:
            raise
        except (KeyError, TypeError, ValueError, IndexError) as error:
            raise StateFormatError(f"the stored tournament cannot be read: {error!r}") from None

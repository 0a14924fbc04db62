"""Tournaments: formats, seeding, pairings, standings and the state the host stores.

Pure and synchronous like the rest of :mod:`engine`; the host (bot/) persists
:meth:`TournamentState.to_dict` and drives the transitions.  See :mod:`.state` for the
life cycle, :mod:`.swiss` and :mod:`.standings` for the pairing rules and tie-breaks.
"""

from engine.tournament.errors import (
    DrawExhaustedError,
    EntrantsError,
    LastPlayerError,
    NotInPairingError,
    PairingDecidedError,
    PlayerWithdrawnError,
    ResultError,
    StateFormatError,
    TournamentConfigError,
    TournamentError,
    TournamentFinishedError,
    UnknownPairingError,
    UnknownPlayerError,
)
from engine.tournament.formats import Format, MatchLengths, TournamentConfig, swiss_rounds_for
from engine.tournament.pairing import Bracket, Pairing, Reason, Result
from engine.tournament.seeding import (
    Entrant,
    LotSource,
    Seed,
    bracket_order,
    bracket_size,
    seed_entrants,
)
from engine.tournament.standings import Standing
from engine.tournament.state import TournamentState

__all__ = [
    "Bracket",
    "DrawExhaustedError",
    "Entrant",
    "EntrantsError",
    "Format",
    "LastPlayerError",
    "LotSource",
    "MatchLengths",
    "NotInPairingError",
    "Pairing",
    "PairingDecidedError",
    "PlayerWithdrawnError",
    "Reason",
    "Result",
    "ResultError",
    "Seed",
    "Standing",
    "StateFormatError",
    "TournamentConfig",
    "TournamentConfigError",
    "TournamentError",
    "TournamentFinishedError",
    "TournamentState",
    "UnknownPairingError",
    "UnknownPlayerError",
    "bracket_order",
    "bracket_size",
    "seed_entrants",
    "swiss_rounds_for",
]

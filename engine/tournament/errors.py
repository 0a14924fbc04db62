"""The tournament's refusals: one class per kind, each message saying why and what is allowed.

Every class derives from :class:`TournamentError`, itself a
:class:`engine.errors.BackgammonError`, so an adapter that shows ``str(error)``
for engine errors shows these as they are.
"""

from __future__ import annotations

from engine.errors import BackgammonError


class TournamentError(BackgammonError):
    """Base class of every refusal of the tournament engine."""


class TournamentConfigError(TournamentError, ValueError):
    """A format, match length, number of rounds or player limit the engine does not accept."""


class EntrantsError(TournamentError):
    """The field cannot start: too few players, too many, a player entered twice, or
    more Swiss rounds than the field can play without repeating."""


class DrawExhaustedError(TournamentError):
    """The random source ran out (a finite sequence of draws) or never broke a tie."""


class UnknownPairingError(TournamentError):
    """No pairing of the tournament has this id."""


class PairingDecidedError(TournamentError):
    """The pairing already has its result; a result is recorded once."""


class NotInPairingError(TournamentError):
    """The named winner does not play in that pairing."""


class ResultError(TournamentError, ValueError):
    """A score that does not fit the pairing, or a reason the caller may not give."""


class UnknownPlayerError(TournamentError):
    """The player is not an entrant of this tournament."""


class PlayerWithdrawnError(TournamentError):
    """The player was already removed from the tournament."""


class LastPlayerError(TournamentError):
    """Removing this player would leave the tournament without a champion to decide."""


class TournamentFinishedError(TournamentError):
    """The tournament is over: it takes no more results or removals."""


class StateFormatError(TournamentError, ValueError):
    """A stored tournament (``from_dict``) that cannot be read back."""

"""One exception class per kind of failure.

Every message is meant for the player: it says what is wrong and, where
possible, what is allowed instead.  Adapters show ``str(error)`` as it is.
"""

from __future__ import annotations

from collections.abc import Sequence


class BackgammonError(Exception):
    """Base class of every error the engine raises on purpose."""


class NotationError(BackgammonError, ValueError):
    """The text is not well-formed notation (a syntax problem, not a rules problem)."""


class IllegalPlayError(BackgammonError):
    """The play is well-formed but the rules do not allow it."""


class AmbiguousPlayError(IllegalPlayError):
    """The typed moves fit more than one legal play; ``candidates`` lists them."""

    def __init__(self, message: str, candidates: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.candidates: tuple[str, ...] = tuple(candidates)


class IncompletePlayError(IllegalPlayError):
    """The typed moves are legal so far but do not use all the dice that must be used."""

    def __init__(self, message: str, candidates: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.candidates: tuple[str, ...] = tuple(candidates)


class CubeError(BackgammonError):
    """A cube action the rules do not allow now (wrong owner, Crawford game, cap...)."""


class WrongPhaseError(BackgammonError):
    """The action does not fit the moment (moving before rolling, taking with no double...)."""


class InvalidIdError(BackgammonError, ValueError):
    """A Position ID, Match ID, XGID or position text that cannot be decoded."""


class RuleOptionError(BackgammonError, ValueError):
    """An unknown rule option or a value it does not accept."""

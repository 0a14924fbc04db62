"""What an AI player decides: one value type shared by every kind of player
(bgsage's, our variant networks', the heuristic)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.game import Action
from engine.move import Play
from engine.player import Player


@dataclass(frozen=True, slots=True)
class Decision:
    """What the AI does now.

    ``action`` is one of ``ROLL``, ``DOUBLE``, ``TAKE``, ``DROP``, ``BEAVER``,
    ``PLAY`` (with ``play``, one of ``game.legal_plays()``), ``CHOOSE`` (with
    ``option``), ``ACCEPT_RESIGNATION``, ``REJECT_RESIGNATION``.
    """

    player: Player
    action: Action
    play: Play | None = None
    option: str | None = None
    equity: float | None = None
    """The engine's estimate for the chosen option, from ``player``'s side (if known)."""
    source: str = ""
    """Who decided, the depth on GNU Backgammon's scale: ``"GNU 1-ply"`` (bgsage
    2ply), ``"GNU 1-ply (GNU 2-ply out of time)"``, ``"heuristic"``, ``"fallback ..."``."""


class NoDecision(ValueError):
    """The game awaits nobody (opening throw, finished game)."""

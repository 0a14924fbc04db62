"""The storage interface the game service depends on: one interface over every table family.

The service only talks to :class:`Storage` and :class:`Transaction`.  Each table family
keeps its rows, its protocol and its SQL in a folder of its own -- :mod:`.play` (matches,
games, events), :mod:`.chouette`, :mod:`.tournaments`, :mod:`.players` (users, ratings,
the ledger), :mod:`.standings` (the leaderboard, player stats), :mod:`.settings` (each
server's own settings) -- and :class:`Transaction` is their union.  The SQL is written
once, shared by the two backends that run it: :mod:`bot.storage.sqlite` (the default) and
:mod:`bot.storage.postgres`.  Every service
operation runs inside exactly one transaction.

The row types and errors are re-exported here: this module is the storage's public face.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from typing import Protocol, TypeVar

from bot.storage.analysis.interface import (
    AnalysisRow,
    AnalysisTransaction,
    GradingJob,
    GradingStatus,
    MatchFigures,
    PlayerFigures,
    PuzzleAnswerRow,
    PuzzleRow,
)
from bot.storage.chouette.interface import (
    ChouetteMemberRow,
    ChouetteRow,
    ChouetteStatus,
    ChouetteTransaction,
)
from bot.storage.clock.interface import ClockRow, ClockTransaction
from bot.storage.core.errors import (
    INT64_MAX,
    INT64_MIN,
    NAME_LIMIT,
    AmountOutOfRange,
    RetryableConflict,
    StaleVersionError,
    StorageBusy,
    StorageCommitUnknown,
    StorageError,
    StorageUnavailable,
    check_int64,
    clean_name,
    clean_text,
    storable,
)
from bot.storage.lobby.interface import LobbyTransaction, QueueEntry
from bot.storage.play.interface import (
    EventRow,
    GameRow,
    GameStatus,
    MatchRow,
    MatchStatus,
    PlayTransaction,
)
from bot.storage.players.interface import LedgerEntry, PlayersTransaction, RatingRow, UserRow
from bot.storage.settings.interface import GuildSettingsRow, SettingsTransaction
from bot.storage.standings.interface import StandingsTransaction
from bot.storage.tournaments.interface import (
    TournamentRow,
    TournamentStatus,
    TournamentTransaction,
)

__all__ = [
    "INT64_MAX", "INT64_MIN", "NAME_LIMIT", "AmountOutOfRange", "AnalysisRow",
    "ChouetteMemberRow", "ChouetteRow", "ChouetteStatus", "ClockRow", "EventRow", "GameRow",
    "GameStatus", "GradingJob", "GradingStatus", "GuildSettingsRow", "LedgerEntry",
    "MatchFigures", "MatchRow", "MatchStatus", "PlayerFigures", "PuzzleAnswerRow",
    "PuzzleRow", "QueueEntry", "RatingRow", "RetryableConflict", "StaleVersionError",
    "Storage", "StorageBusy", "StorageCommitUnknown", "StorageError", "StorageUnavailable",
    "TournamentRow", "TournamentStatus", "Transaction", "UserRow", "check_int64", "clean_name",
    "clean_text", "storable",
]

T = TypeVar("T")


class Transaction(PlayTransaction, ChouetteTransaction, TournamentTransaction,
                  PlayersTransaction, StandingsTransaction, SettingsTransaction,
                  AnalysisTransaction, ClockTransaction, LobbyTransaction, Protocol):
    """Operations inside one transaction, of every table family.  All or nothing is
    committed."""

    def on_commit(self, callback: Callable[[], None]) -> None:
        """Run ``callback`` once the transaction has committed (never after a rollback)."""
        ...


class Storage(Protocol):
    """A database the service can open transactions on."""

    async def open(self) -> None: ...
    async def close(self) -> None: ...
    def transaction(self) -> AbstractAsyncContextManager[Transaction]:
        """A transaction for an action: it may write, and holds the write lock where needed."""
        ...
    def snapshot(self) -> AbstractAsyncContextManager[Transaction]:
        """A transaction for reading only: one consistent view, no write lock."""
        ...
    async def schema_version(self) -> int: ...
    async def run(self, work: Callable[[Transaction], Awaitable[T]], *,
                  lock_channel: int | None = None, durable: bool = True) -> T:
        """``await work(tx)`` in one action transaction, committed; its result.

        ``durable=False``: the commit need not wait for the disk (SQLite: written to the
        WAL, which survives a kill of the process, but synced only by the next durable
        commit or :meth:`sync`), for many transactions whose replies wait for one
        :meth:`sync` (the clock's flag falls).  PostgreSQL commits durably anyway.

        ``lock_channel``: take the channel's lock first (PostgreSQL: the per-channel
        advisory lock, before any row lock, bounded by ``storage.lock_timeout``).
        The whole ``work`` runs again (bounded, jittered backoff, within
        ``storage.retry_seconds``) when nothing was committed and the failure is
        transient: a deadlock or serialization failure (:class:`RetryableConflict`),
        the connection refused, the server starting up or shutting down, the
        connection lost before COMMIT.  So ``work`` must change nothing outside the
        transaction except through ``tx.on_commit``.  Otherwise it raises
        :class:`StorageBusy`, :class:`StorageUnavailable` or
        :class:`StorageCommitUnknown` (never a driver exception for those cases),
        and whatever ``work`` raised (refusals, :class:`StaleVersionError`) as is.
        """
        ...
    async def sync(self) -> None:
        """Make every transaction this storage committed so far survive a crash of the
        machine (after ``run(..., durable=False)``); :class:`StorageUnavailable` when
        the disk refuses."""
        ...

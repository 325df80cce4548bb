"""What ``events.open_store`` returns: one database's capabilities, each a
recorder of its own (a few methods), sharing the database's connections."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from events.recorders.bot_turns import BotTurnIndex
from events.recorders.counts import SharedCounts
from events.recorders.deadlines import DeadlineIndex
from events.recorders.deliveries import DeliveryLog
from events.recorders.event_log import EventReader, EventStore
from events.recorders.lifecycle import Database
from events.recorders.quarantine import QuarantineStore
from events.recorders.tickets import StreamTickets
from events.recorders.tournaments import TournamentStore
from events.recorders.transparency_log import TransparencyLog

DEFAULT_SQLITE_NAME = "cablecar.sqlite3"


@dataclass(frozen=True)
class Stores:
    """The capabilities of one database (each its own object; they share the
    database's connections), and its life: :meth:`ping`, :meth:`close`."""

    #: the event log and game catalogue
    events: EventStore
    #: the reads a hot standby may serve (``events`` itself without one)
    reader: EventReader
    #: organisers, batches and webhooks
    tournaments: TournamentStore
    #: the webhook delivery log
    deliveries: DeliveryLog
    #: the deadline index and the database's clock
    deadlines: DeadlineIndex
    #: the bot-turn index and the runners' heartbeats
    bot_turns: BotTurnIndex
    #: the damaged tails set aside
    quarantine: QuarantineStore
    #: the transparency log's leaves, nodes and checkpoints
    log: TransparencyLog
    #: stream tickets, where every process sees them
    tickets: StreamTickets
    #: counters and places every process shares (the embedded store only: production uses Redis)
    counts: SharedCounts | None
    #: the database itself: its connections, clock and signer
    database: Database
    #: the backend's name, as health checks report it (``SqliteStore``, ``PostgresStore``)
    backend: str
    #: what closes with it beside the database (a standby's pool)
    also_closes: tuple[Callable[[], None], ...] = ()

    def ping(self) -> None:
        """Raise StoreUnavailable if the database cannot be reached."""
        self.database.ping()

    def close(self) -> None:
        """Release every connection (background workers stop then)."""
        for close in self.also_closes:
            close()
        self.database.close()

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return self.database.closed

"""A SQL backend's :class:`~events.recorders.capabilities.Stores`: the
recorders both backends share (:mod:`events.sql`) on its database, beside
the ones it writes its own way (its event log, its delivery claims)."""

from __future__ import annotations

from collections.abc import Callable

from events.recorders.capabilities import Stores
from events.recorders.counts import SharedCounts
from events.recorders.deliveries import DeliveryLog
from events.recorders.event_log import EventReader, EventStore
from events.sql.bot_turns import SqlBotTurnIndex
from events.sql.database import SqlDatabase
from events.sql.deadlines import SqlDeadlineIndex
from events.sql.quarantine import SqlQuarantine
from events.sql.tickets import SqlStreamTickets
from events.sql.tournaments import SqlTournaments
from events.sql.transparency_log import SqlTransparencyLog


def sql_stores(
    database: SqlDatabase,
    backend: str,
    event_log: EventStore,
    deliveries: DeliveryLog,
    *,
    reader: EventReader | None = None,
    counts: SharedCounts | None = None,
    also_closes: tuple[Callable[[], None], ...] = (),
) -> Stores:
    """``database``'s capabilities: the backend's own ``event_log`` and
    ``deliveries`` (and ``counts``), the shared SQL for the rest; ``reader``
    serves the reads a standby may (``event_log`` without one)."""
    return Stores(
        events=event_log,
        reader=event_log if reader is None else reader,
        tournaments=SqlTournaments(database),
        deliveries=deliveries,
        deadlines=SqlDeadlineIndex(database),
        bot_turns=SqlBotTurnIndex(database),
        quarantine=SqlQuarantine(database),
        log=SqlTransparencyLog(database),
        tickets=SqlStreamTickets(database),
        counts=counts,
        database=database,
        backend=backend,
        also_closes=also_closes,
    )

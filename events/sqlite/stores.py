"""The embedded store's capabilities on one SQLite file: the shared SQL
recorders (:mod:`events.sql`) and SQLite's own event log, delivery claims
and shared counts, all on one :class:`~events.sqlite.database.SqliteDatabase`."""

from __future__ import annotations

from pathlib import Path

from events.encoding.timestamps import Clock, system_clock
from events.integrity.signing import Signer
from events.migrations.tokenkeys import Rekey
from events.recorders.capabilities import Stores
from events.sql.bot_turns import SqlBotTurnIndex
from events.sql.deadlines import SqlDeadlineIndex
from events.sql.quarantine import SqlQuarantine
from events.sql.tickets import SqlStreamTickets
from events.sql.tournaments import SqlTournaments
from events.sql.transparency_log import SqlTransparencyLog
from events.sqlite.counts import SqliteCounts
from events.sqlite.database import SqliteDatabase
from events.sqlite.deliveries import SqliteDeliveries
from events.sqlite.event_log import SqliteEventLog


def sqlite_capabilities(
    path: str | Path,
    *,
    busy_timeout: float = 30.0,
    synchronous: str = "NORMAL",
    poll_interval: float = 0.02,
    clock: Clock = system_clock,
    signer: Signer | None = None,
    rekey: Rekey | None = None,
) -> Stores:
    """Open (creating if needed) the SQLite file at ``path``, apply its schema
    and hand out its capabilities (see :class:`~events.sqlite.database.SqliteDatabase`
    for the arguments; ``poll_interval``: how often a wait for events looks)."""
    database = SqliteDatabase(path, busy_timeout=busy_timeout, synchronous=synchronous, clock=clock,
                              signer=signer, rekey=rekey)
    event_log = SqliteEventLog(database, poll_interval)
    return Stores(
        events=event_log,
        reader=event_log,
        tournaments=SqlTournaments(database),
        deliveries=SqliteDeliveries(database),
        deadlines=SqlDeadlineIndex(database),
        bot_turns=SqlBotTurnIndex(database),
        quarantine=SqlQuarantine(database),
        log=SqlTransparencyLog(database),
        tickets=SqlStreamTickets(database),
        counts=SqliteCounts(database.connections),
        database=database,
        backend="SqliteStore",
    )

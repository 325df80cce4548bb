"""The embedded store's capabilities on one SQLite file: SQLite's own event
log, delivery claims and shared counts beside the shared SQL recorders
(:func:`events.sql.stores.sql_stores`), all on one
:class:`~events.sqlite.database.SqliteDatabase`."""

from __future__ import annotations

from pathlib import Path

from events.encoding.timestamps import Clock, system_clock
from events.integrity.signing import Signer
from events.migrations.keying import ServerKeying
from events.recorders.capabilities import Stores
from events.sql.stores import sql_stores
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
    keying: ServerKeying | None = None,
) -> Stores:
    """Open (creating if needed) the SQLite file at ``path``, apply its schema
    and hand out its capabilities (see :class:`~events.sqlite.database.SqliteDatabase`
    for the arguments; ``poll_interval``: how often a wait for events looks)."""
    database = SqliteDatabase(path, busy_timeout=busy_timeout, synchronous=synchronous, clock=clock,
                              signer=signer, keying=keying)
    return sql_stores(database, "SqliteStore", SqliteEventLog(database, poll_interval), SqliteDeliveries(database),
                      counts=SqliteCounts(database.connections))

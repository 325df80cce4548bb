"""The production store's capabilities on one PostgreSQL database: the shared
SQL recorders (:mod:`events.sql`) and PostgreSQL's own event log and
delivery claims, all on one :class:`~events.postgres.database.PostgresDatabase`,
the reads a standby may serve on a pool of their own."""

from __future__ import annotations

from events.encoding.timestamps import Clock, system_clock
from events.integrity.signing import Signer
from events.postgres.database import PostgresDatabase
from events.postgres.deliveries import PostgresDeliveries
from events.postgres.event_log import PostgresEventLog
from events.postgres.standby import StandbyReader
from events.postgres.timeouts import Timeouts
from events.recorders.capabilities import Stores
from events.sql.stores import sql_stores


def postgres_capabilities(
    url: str,
    *,
    min_size: int = 1,
    max_size: int = 10,
    pool_size: int | None = None,
    timeouts: Timeouts | None = None,
    fallback_poll: float = 2.0,
    clock: Clock = system_clock,
    read_url: str | None = None,
    signer: Signer | None = None,
    group_commit: int = 1,
) -> Stores:
    """The pool for ``url`` (not waiting for the database) and its
    capabilities (see :class:`~events.postgres.database.PostgresDatabase`
    for the arguments; ``pool_size`` is ``max_size``).  ``read_url`` names a
    hot standby of it: :attr:`Stores.reader` then reads from there, on a pool
    of its own (:mod:`events.postgres.standby`)."""
    max_size = pool_size or max_size
    database = PostgresDatabase(url, min_size=min_size, max_size=max_size, timeouts=timeouts,
                                fallback_poll=fallback_poll, clock=clock, signer=signer, group_commit=group_commit)
    event_log = PostgresEventLog(database)
    standby = None if read_url is None else StandbyReader(
        read_url, event_log, database.wal_position, max_size=max_size, timeouts=database.timeouts)
    return sql_stores(database, "PostgresStore", event_log, PostgresDeliveries(database), reader=standby,
                      also_closes=() if standby is None else (standby.close,))

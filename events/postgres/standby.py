"""Reads from a PostgreSQL hot standby fed by streaming replication
(``CABLECAR_READ_DATABASE_URL``), never staler than the primary.

A standby replays the primary's write-ahead log a little later than the
primary commits.  Its answers are exact for what it has replayed (events are
immutable, so an event read there is the event; and the global log's
visibility rule, ``position < xmin << 16``, holds on a standby because it
builds its snapshots from the primary's running transactions), but they may
miss what it has not replayed yet.  So every read here is as fresh as the
primary was when it was called:

* a page of events (``load``, ``read_all``) that comes back *full* is a
  prefix of what the primary would answer, and is served as it is: a
  catch-up over history the standby holds never waits;
* anything else (a short page, a listing, a chain check) is served by the
  standby only once it has replayed the primary's WAL insert position read
  at the call (``pg_last_wal_replay_lsn() >= pg_current_wal_insert_lsn()``):
  it waits up to ``max_wait`` seconds for that, else the primary answers;
* after such a fall-back (or a standby that cannot be reached) the primary
  answers every read for ``cooldown`` seconds; then the standby is tried
  again, without waiting, until it is found caught up: a lagging standby
  costs one wait per process, not one per read.

So a stream started on the primary and continued on the standby stays in
order, and a reader that wrote something reads it back.  Writes, tokens,
idempotency keys and the game rows (versions) never come here: the
:class:`~events.postgres.event_log.PostgresEventLog` serves them from the primary.
The standby is never migrated: it replays the primary's schema.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

import psycopg

from events.postgres.connection import PostgresConnections
from events.postgres.db_metrics import REPLICA_LAG_BYTES, REPLICA_READS
from events.postgres.failfast import STANDBY
from events.postgres.timeouts import Timeouts
from events.recorders.event_log import EventReader
from events.records import ChainReport, GameNotFound, GamePage, StoredEvent, StoreUnavailable
from events.sql.dialect import POSTGRES
from events.sql.reads import SqlReads

T = TypeVar("T")

#: What the standby has replayed, as a byte position (a primary, e.g. a
#: promoted standby still named as the read URL, has everything it wrote).
REPLAYED_POSITION = (
    "SELECT (CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn()"
    " ELSE pg_current_wal_insert_lsn() END - '0/0'::pg_lsn)::bigint"
)
#: The primary's WAL insert position: every commit it has made visible lies below it.
PRIMARY_POSITION = "SELECT (pg_current_wal_insert_lsn() - '0/0'::pg_lsn)::bigint"
#: Pause between two looks at a standby that has not caught up yet.
_POLL = 0.005


@dataclass
class StandbyStats:
    """What the reads of one process did (the tests read it; the cluster run counts the
    standby's own statistics instead, since workers are separate processes)."""

    served: int = 0
    waited: int = 0
    fell_back: int = 0


class _StandbyRows(SqlReads):
    """The shared read SQL on the standby's own pool."""

    dialect = POSTGRES

    def __init__(self, connections: PostgresConnections) -> None:
        self.connections = connections

    def _read_rows(self, sql: str, params: Any = ()) -> list[Any]:
        with self.connections.connection() as conn:
            return conn.execute(sql, params).fetchall()

    @contextmanager
    def _read_snapshot(self) -> Iterator[psycopg.Cursor[Any]]:
        with self.connections.connection() as conn, conn.transaction():
            conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            yield conn.cursor()

    def replayed(self) -> int:
        """How far the standby has replayed the primary's WAL (bytes)."""
        return int(self._read_rows(REPLAYED_POSITION)[0][0] or 0)


class StandbyReader(EventReader):
    """:class:`EventReader` served by a standby, falling back to the primary
    (see the module docs)."""

    def __init__(
        self,
        url: str,
        primary: EventReader,
        primary_position: Callable[[], int],
        *,
        max_size: int = 10,
        timeouts: Timeouts | None = None,
        max_wait: float = 1.0,
        cooldown: float = 2.0,
    ) -> None:
        """``primary`` answers what the standby cannot; ``primary_position``
        reads the primary's WAL insert position (:data:`PRIMARY_POSITION`)."""
        self._standby = _StandbyRows(
            PostgresConnections(url, min_size=1, max_size=max_size, timeouts=timeouts, session=STANDBY)
        )
        self._primary = primary
        self._primary_position = primary_position
        self._max_wait = max_wait
        self._cooldown = cooldown
        self._primary_until = 0.0
        #: whether the standby was caught up when last asked (only then is it waited for)
        self._healthy = True
        self._lock = threading.Lock()
        self.stats = StandbyStats()

    # -- the reads -------------------------------------------------------------

    def load(self, game_id: str, after: int = 0, limit: int | None = None) -> list[StoredEvent]:
        """Events of a game with ``seq > after`` (see :meth:`EventReader.load`)."""
        return self._read(lambda r: r.load(game_id, after, limit), full=limit)

    def list_games(
        self,
        status: str | None = None,
        game_type: str | None = None,
        batch: str | None = None,
        limit: int = 50,
        cursor: str | None = None,
        ref: str | None = None,
    ) -> GamePage:
        """Games newest first (see :meth:`EventReader.list_games`): a listing
        is never served before the standby has caught up (its newest games
        come first, so a full page says nothing)."""
        return self._read(lambda r: r.list_games(status, game_type, batch, limit, cursor, ref))

    def read_all(self, after_position: int = 0, limit: int = 1000) -> list[StoredEvent]:
        """The global log after ``after_position`` (see :meth:`EventReader.read_all`)."""
        return self._read(lambda r: r.read_all(after_position, limit), full=limit)

    def verify_chain(self, game_id: str) -> ChainReport:
        """The chain check of :meth:`EventReader.verify_chain`, on a caught-up standby."""
        return self._read(lambda r: r.verify_chain(game_id))

    # -- routing ---------------------------------------------------------------

    def _read(self, read: Callable[[EventReader], T], full: int | None = None) -> T:
        if time.monotonic() < self._primary_until:
            return read(self._primary)
        try:
            if full is not None:
                # A full page is a prefix of the primary's answer (module docs).
                try:
                    found = read(self._standby)
                except GameNotFound:
                    pass  # not replayed yet, perhaps: decided below
                else:
                    if len(found) >= full:  # type: ignore[arg-type]
                        self._count("served")
                        return found
            target = self._primary_position()
            if self._caught_up(target):
                found = read(self._standby)
                self._count("served")
                return found
        except StoreUnavailable:
            pass  # the standby is down or restarting: the primary answers meanwhile
        self._fall_back()
        return read(self._primary)

    def _caught_up(self, target: int) -> bool:
        """Whether the standby replays up to ``target`` within ``max_wait``
        seconds (at once, if it was behind when last asked)."""
        deadline = time.monotonic() + self._max_wait
        replayed = self._standby.replayed()
        REPLICA_LAG_BYTES.set(max(0, target - replayed))
        if replayed >= target:
            self._healthy = True
            return True
        if not self._healthy:
            return False
        self._count("waited")
        while time.monotonic() < deadline:
            time.sleep(_POLL)
            if self._standby.replayed() >= target:
                return True
        return False

    def _fall_back(self) -> None:
        self._count("fell_back")
        self._healthy = False
        self._primary_until = time.monotonic() + self._cooldown

    def _count(self, what: str) -> None:
        REPLICA_READS.labels(what).inc()
        with self._lock:
            setattr(self.stats, what, getattr(self.stats, what) + 1)

    def close(self) -> None:
        """Close the standby's connections."""
        self._standby.connections.close()

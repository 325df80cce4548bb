"""The production store: PostgreSQL through psycopg 3 and a
``psycopg_pool.ConnectionPool`` (:mod:`events.postgres.connection`).

Writes
    ``append`` is one round trip, stamped with the database's clock:
    :mod:`events.postgres.appends`; appends of concurrent requests share
    their round trip and commit (:mod:`events.postgres.groupcommit`).

Global positions
    No lock is shared between games: appends to different games commit in
    parallel.  The readers' guarantee (``read_all`` never hands out a
    position below one it handed out before, so a tailing reader never skips
    a committed event) comes from the *transaction id / snapshot xmin*
    technique of transactional-outbox readers (as in eugene-khyst's
    ``postgresql-event-sourcing``, "Reliable transactional outbox with
    PostgreSQL", also used by Eventuous' and Marten-style subscriptions):
    each event records its writer's top-level transaction id
    (``pg_current_xact_id()``) and readers only read events of transactions
    older than the oldest one still running
    (``pg_snapshot_xmin(pg_current_snapshot())``).  Here the pair
    (transaction id, index in the transaction) is packed into the position
    itself, ``xid << 16 | index`` (migration
    ``0008_global_log_without_lock.sql``), so the cursor stays one growing
    number and no second column or index is needed.  Every transaction below
    the horizon has ended; one that commits later has an id at or above it,
    so its positions land above everything already read.  A transaction
    holding an id open (a long migration, a stuck session) holds the horizon
    back: readers wait for it, they never skip past it.  Positions skip
    numbers (by design, as the contract allows).

Availability
    The pool never blocks longer than ``timeout`` seconds (default 5):
    PoolTimeout and connection failures become :class:`StoreUnavailable`.
    Connections killed by a server restart are detected before use and
    replaced, so the store recovers by itself when the database comes back.

Webhook deliveries
    Shared work items (migration ``0003_tournaments.sql``): a claim leases
    rows picked with ``FOR UPDATE SKIP LOCKED``, so concurrent dispatchers
    on any number of hosts take disjoint deliveries without waiting on each
    other; the dispatch cursor row is locked ``FOR UPDATE`` while the
    deliveries it covers are inserted.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import Any

import psycopg

from events.encoding.timestamps import Clock, format_timestamp, parse_timestamp, system_clock
from events.integrity.signing import Signer
from events.postgres.connection import ClockRefused, PostgresConnections
from events.postgres.dbclock import DatabaseClock
from events.postgres.groupcommit import GroupCommit
from events.postgres.heads import ChainHeads
from events.postgres.listener import VersionListener
from events.postgres.standby import PRIMARY_POSITION
from events.postgres.statements import CREATE_GAME, MEASURE, combine_appends, create_args
from events.postgres.timeouts import Timeouts
from events.records import NewGame, StoredEvent
from events.sql.database import SqlDatabase
from events.sql.dialect import POSTGRES
from events.sql.rows import prepare_games


class PostgresDatabase(SqlDatabase):
    """A PostgreSQL database, its pool, its clock as measured here, the chain
    heads this process saw and its LISTEN thread: what every recorder of the
    production store shares (see the module docs)."""

    dialect = POSTGRES

    def __init__(
        self,
        url: str,
        *,
        min_size: int = 1,
        max_size: int = 10,
        timeouts: Timeouts | None = None,
        fallback_poll: float = 2.0,
        clock: Clock = system_clock,
        signer: Signer | None = None,
        group_commit: int = 1,
    ) -> None:
        """Create the pool for ``url`` without waiting for the database.

        ``signer`` signs every event written (:mod:`events.integrity.signing`); the
        database refuses unsigned events (migration 0012), so a store
        without one only reads.

        ``timeouts`` bound every wait on the database, on every connection of
        the store (:mod:`events.postgres.failfast`); ``fallback_poll`` is how often ``wait_for_events``
        re-checks the database even without a notification.  ``group_commit``:
        how many batches of concurrent appends may be in flight at once
        (:mod:`events.postgres.groupcommit`; 0: each append alone)."""
        timeouts = timeouts or Timeouts()
        self.timeouts = timeouts
        self.connections = PostgresConnections(url, min_size=min_size, max_size=max_size, timeouts=timeouts)
        self.group = GroupCommit(self.connections, combine_appends, in_flight=group_commit)
        self.clock = clock
        self.clock_offset = DatabaseClock(clock)
        self.signer = signer
        self.heads = ChainHeads()
        self.fallback_poll = fallback_poll
        self.listener = VersionListener(url, timeouts)

    def wal_position(self) -> int:
        """This database's WAL insert position (bytes): a standby that has
        replayed this far holds every commit made visible before the call."""
        return int(self.rows(PRIMARY_POSITION)[0][0])

    def ping(self) -> None:
        """Raise StoreUnavailable unless the primary answers within the
        connect timeout (a health check must not wait as long as a call may)."""
        with self.connections.connection(limit=self.connections.timeouts.connect) as conn:
            conn.execute("SELECT 1")

    def rows(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        with self.connections.connection() as conn:
            return conn.execute(sql, params).fetchall()

    @contextmanager
    def transaction(self) -> Iterator[psycopg.Cursor[Any]]:
        with self.connections.connection() as conn, conn.transaction():
            yield conn.cursor()

    @contextmanager
    def snapshot(self) -> Iterator[psycopg.Cursor[Any]]:
        with self.connections.connection() as conn, conn.transaction():
            conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            yield conn.cursor()

    def create(
        self,
        games: Sequence[NewGame],
        first: Callable[[psycopg.Cursor[Any]], None] | None = None,
    ) -> list[tuple[StoredEvent, ...]]:
        for attempt in range(2):
            try:
                return self._create_once(games, first)
            except ClockRefused:
                if attempt == 1:
                    raise
                self.database_time()  # measure the offset again
        raise AssertionError("unreachable")  # pragma: no cover

    def _create_once(
        self,
        games: Sequence[NewGame],
        first: Callable[[psycopg.Cursor[Any]], None] | None,
    ) -> list[tuple[StoredEvent, ...]]:
        now = self.estimated_time()  # the database's clock (estimated): deadlines start from it
        recorded_at = format_timestamp(now)
        prepared = prepare_games(games, recorded_at, self.signer)
        if not prepared:
            return []
        with self.connections.connection(writing=True) as conn:
            cur = conn.cursor()
            with conn.pipeline(), conn.transaction():
                if first is not None:
                    first(conn.cursor())
                cur.executemany(CREATE_GAME, [create_args(g, now, recorded_at) for g in prepared], returning=True)
            firsts = self._returned_positions(cur)
        for game in prepared:
            self.heads.saw(game.game_id, game.version, game.last_hash)
        return [
            tuple(e.at(start + i) for i, e in enumerate(game.events))
            for game, start in zip(prepared, firsts, strict=True)
        ]

    @staticmethod
    def _returned_positions(cur: psycopg.Cursor[Any]) -> list[int]:
        positions: list[int] = []
        for _ in cur.results():
            row = cur.fetchone()
            assert row is not None
            positions.append(0 if row[0] is None else int(row[0]))
        return positions

    def saw_head(self, game_id: str, version: int, digest: str) -> None:
        self.heads.saw(game_id, version, digest)

    def database_time(self) -> datetime:
        """``clock_timestamp()`` of the database; also measures how far this
        store's clock is from it (:mod:`events.postgres.dbclock`)."""
        now, _ = self.clock_offset.measure(lambda: (self.rows("SELECT clock_timestamp()")[0][0], None))
        return now

    def measure(self, game_id: str, seq: int) -> datetime | None:
        """Measure the offset (as :meth:`database_time`) and read the time of
        the game's event ``seq`` (None if there is none), in one round trip."""
        _, last = self.clock_offset.measure(lambda: tuple(self.rows(MEASURE, (game_id, seq))[0]))
        return None if last is None else parse_timestamp(last)

    def estimated_time(self) -> datetime:
        """This store's clock plus the offset measured by :meth:`database_time`
        (measured first if never; no round trip after that)."""
        return self.clock_offset.estimate(self.database_time)

    def close(self) -> None:
        """Stop the listener thread and close every pooled connection."""
        self.listener.close()
        self.connections.close()

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return self.connections.closed

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

import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime, timedelta
from typing import Any

import psycopg

from events.database import Database
from events.encoding.timestamps import Clock, format_timestamp, system_clock
from events.integrity.signing import Signer
from events.postgres.appends import PostgresAppends
from events.postgres.connection import ClockRefused, PostgresConnections
from events.postgres.dbclock import DatabaseClock
from events.postgres.groupcommit import GroupCommit
from events.postgres.heads import ChainHeads
from events.postgres.listener import VersionListener
from events.postgres.standby import PRIMARY_POSITION, StandbyReader
from events.postgres.statements import (
    CLAIM,
    CREATE_GAME,
    RECORD_WATCH,
    combine_appends,
    create_args,
)
from events.postgres.timeouts import Timeouts
from events.recorders.deliveries import CLAIM_UNCAPPED, ClaimedDelivery
from events.recorders.event_log import EventReader
from events.records import GameNotFound, NewGame, StoredEvent
from events.sql.bot_turns import SqlBotTurnIndex
from events.sql.catalogue import SqlCatalogue
from events.sql.deadlines import SqlDeadlineIndex
from events.sql.deliveries import SqlDeliveryLog
from events.sql.dialect import POSTGRES
from events.sql.quarantine import SqlQuarantine
from events.sql.rows import (
    check_page,
    prepare_games,
)
from events.sql.tickets import SqlStreamTickets
from events.sql.tournaments import SqlTournaments
from events.sql.transparency_log import SqlTransparencyLog


class PostgresStore(PostgresAppends, SqlCatalogue, SqlTournaments, SqlDeliveryLog, SqlDeadlineIndex, SqlBotTurnIndex,
                    SqlQuarantine, SqlTransparencyLog, SqlStreamTickets, Database):
    """The event log, tournaments and delivery log on PostgreSQL (see the
    module docs)."""

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
        read_url: str | None = None,
        signer: Signer | None = None,
        group_commit: int = 1,
    ) -> None:
        """Create the pool for ``url`` without waiting for the database.

        ``signer`` signs every event written (:mod:`events.integrity.signing`); the
        database refuses unsigned events (migration 0012), so a store
        without one only reads.

        ``timeouts`` bound every wait on the database, on every connection of
        the store (:mod:`events.postgres.failfast`); ``fallback_poll`` is how often ``wait_for_events``
        re-checks the database even without a notification.  ``read_url``
        names a hot standby of it: :attr:`reader` then reads from there, on a
        pool of its own (:mod:`events.postgres.standby`).  ``group_commit``:
        how many batches of concurrent appends may be in flight at once
        (:mod:`events.postgres.groupcommit`; 0: each append alone)."""
        timeouts = timeouts or Timeouts()
        self._db = PostgresConnections(url, min_size=min_size, max_size=max_size, timeouts=timeouts)
        self._group = GroupCommit(self._db, combine_appends, in_flight=group_commit)
        self._standby = (
            None
            if read_url is None
            else StandbyReader(read_url, self, self.wal_position, max_size=max_size, timeouts=timeouts)
        )
        self._clock = clock
        self._db_clock = DatabaseClock(clock)
        self._signer = signer
        self._heads = ChainHeads()
        self._fallback_poll = fallback_poll
        self._listener = VersionListener(url, timeouts)

    @property
    def reader(self) -> EventReader:
        """The standby's reads if one was configured, else this store."""
        return self if self._standby is None else self._standby

    def wal_position(self) -> int:
        """This database's WAL insert position (bytes): a standby that has
        replayed this far holds every commit made visible before the call."""
        return int(self._rows(PRIMARY_POSITION)[0][0])

    def ping(self) -> None:
        """Raise StoreUnavailable unless the primary answers within the
        connect timeout (a health check must not wait as long as a call may)."""
        with self._db.connection(limit=self._db.timeouts.connect) as conn:
            conn.execute("SELECT 1")

    # -- the hooks of the shared SQL -------------------------------------------

    def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        with self._db.connection() as conn:
            return conn.execute(sql, params).fetchall()

    @contextmanager
    def _transaction(self) -> Iterator[psycopg.Cursor[Any]]:
        with self._db.connection() as conn, conn.transaction():
            yield conn.cursor()

    @contextmanager
    def _snapshot(self) -> Iterator[psycopg.Cursor[Any]]:
        with self._db.connection() as conn, conn.transaction():
            conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            yield conn.cursor()

    def _create(
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
        prepared = prepare_games(games, recorded_at, self._signer)
        if not prepared:
            return []
        with self._db.connection(writing=True) as conn:
            cur = conn.cursor()
            with conn.pipeline(), conn.transaction():
                if first is not None:
                    first(conn.cursor())
                cur.executemany(CREATE_GAME, [create_args(g, now, recorded_at) for g in prepared], returning=True)
            firsts = self._returned_positions(cur)
        for game in prepared:
            self._heads.saw(game.game_id, game.version, game.last_hash)
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

    def _saw_head(self, game_id: str, version: int, digest: str) -> None:
        self._heads.saw(game_id, version, digest)

    def claim_deliveries(
        self, owner: str, now: datetime, lease_seconds: float, limit: int,
        per_webhook: int = CLAIM_UNCAPPED, per_organiser: int = CLAIM_UNCAPPED,
    ) -> tuple[ClaimedDelivery, ...]:
        """Lease up to ``limit`` due deliveries to ``owner``, fairly (see the
        interface; ``FOR UPDATE SKIP LOCKED``: concurrent claimers take
        disjoint rows without waiting)."""
        check_page(limit)
        if lease_seconds <= 0:
            raise ValueError(f"lease_seconds must be positive, got {lease_seconds!r}")
        until = now + timedelta(seconds=lease_seconds)
        with self._db.connection() as conn:
            rows = conn.execute(CLAIM, (owner, until, now, now, now, per_webhook, per_organiser, limit, now)
                                ).fetchall()
        rows.sort(key=lambda row: (row[8], row[9]))
        return tuple(ClaimedDelivery(*row[:8]) for row in rows)

    # -- waiting and closing -------------------------------------------------------

    def wait_for_events(self, game_id: str, after_seq: int, timeout: float) -> bool:
        """Block until the game's version passes ``after_seq`` (True) or
        ``timeout`` runs out (False).

        Woken by this store's LISTEN thread; the database is re-checked at
        least every ``fallback_poll`` seconds (every 0.25 s while the
        listener is reconnecting) in case a notification was lost."""
        deadline = time.monotonic() + max(0.0, timeout)
        listening = self._listener.ensure_started(min(max(timeout, 0.0), 1.0))
        with self._listener.watch(game_id):
            while True:
                if self._watched_version(game_id) > after_seq:
                    return True
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                step = self._fallback_poll if listening else 0.25
                if self._listener.wait(game_id, after_seq, min(remaining, step)):
                    return True
                listening = self._listener.listening

    def _watched_version(self, game_id: str) -> int:
        """The game's version, recording it in ``game_watches`` first if the
        listener has not (so that appends NOTIFY for it: migration 0008).
        The record and the read are one statement that locks the game row
        FOR SHARE: an append that was under way either commits first (and
        this read sees it) or fires its trigger after the record commits."""
        pid = self._listener.unrecorded_pid(game_id)
        if pid is None:
            return self.version(game_id)
        with self._db.connection() as conn:
            row = conn.execute(RECORD_WATCH, (game_id, pid)).fetchone()
        self._listener.recorded(game_id, pid)
        if row is None or row[0] is None:
            raise GameNotFound(game_id)
        return int(row[0])

    def close(self) -> None:
        """Stop the listener thread and close every pooled connection."""
        self._listener.close()
        if self._standby is not None:
            self._standby.close()
        self._db.close()

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return self._db.closed

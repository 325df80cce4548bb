"""The production store: PostgreSQL through psycopg 3 and a
``psycopg_pool.ConnectionPool`` (:mod:`events.postgres.connection`).

Writes
    ``append`` is ONE round trip: the events are validated, numbered (seq =
    expected + i) and their canonical hash documents prepared here, then the
    ``cablecar_append_one`` / ``cablecar_append`` database functions
    (migrations ``0002_append_function.sql``, ``0004_append_guard.sql``)
    check a metadata guard (:class:`~events.store.MetadataGuard`), the
    idempotency key and the version, finish the hash chain on the game's
    ``last_hash`` and claim
    the game row with ``UPDATE ... WHERE version = expected``.  Concurrent
    appends to one game, from any number of processes, queue on that row
    lock; the losers re-read after the winner commits and get
    :class:`StaleVersion` (or their replay, for a retried idempotency key),
    so exactly one of several writers with the same ``expected_version``
    wins.  Game creation runs its inserts in one pipelined transaction.

Global positions
    ``events.position`` is an identity column, drawn inside the transaction
    *after* taking a transaction-scoped advisory lock
    (``pg_advisory_xact_lock(POSITION_LOCK_KEY)``) that is held until commit.
    Sequences alone hand out numbers in call order but transactions commit
    in any order, so a reader could see position 11 before 10 commits and
    then skip 10 forever.  Under the lock, the transaction holding position
    N is committed (and visible: PostgreSQL releases locks after marking the
    transaction visible) before any other transaction can draw N+1, so a
    stream consumer that has read past P never later finds an event <= P.
    The cost: the lock serialises the last step of every write (insert +
    commit) across all games, bounding global write throughput at about one
    commit latency per append; the per-game row lock is taken first, and the
    lock is never held while waiting for anything else, so there is no
    deadlock.

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
from typing import Any, cast

import psycopg

from events.database import Database
from events.deliveries import ClaimedDelivery
from events.envelope import PendingEvent, canonical_json, number
from events.postgres.connection import PostgresConnections
from events.postgres.listener import VersionListener
from events.sql.catalogue import SqlCatalogue
from events.sql.deadlines import SqlDeadlineIndex
from events.sql.deliveries import SqlDeliveryLog
from events.sql.dialect import POSTGRES
from events.sql.rows import (
    EVENT_COLUMNS,
    check_append_args,
    check_page,
    event_params,
    events_from_rows,
    game_params,
    metadata_json,
    prepare_games,
)
from events.sql.tournaments import SqlTournaments
from events.store import (
    JSON,
    AppendResult,
    GameNotFound,
    GuardFailed,
    MetadataGuard,
    NewEvent,
    NewGame,
    StaleVersion,
    StoredEvent,
)
from events.timestamps import Clock, format_timestamp, system_clock

#: Advisory lock key (any constant bigint) serialising position assignment.
POSITION_LOCK_KEY = 0x0CAB1E_CA4_0002

_INSERT_EVENT = (
    "INSERT INTO events (game_id, seq, type, schema_version, payload, recorded_at, seat,"
    " idempotency_key, prev_hash, hash) VALUES (%s, %s, %s, %s, %s::json, %s, %s, %s, %s, %s)"
    " RETURNING position"
)
_APPEND = (
    "SELECT r_outcome, r_value, r_request_hash, r_prev_hash, r_written"
    " FROM cablecar_append(%s, %s, %s, %s, %s, %s, %s, %s::text[], %s)"
)
_APPEND_ONE = (
    "SELECT r_outcome, r_value, r_request_hash, r_prev_hash, r_position, r_hash"
    " FROM cablecar_append_one(%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s::text[], %s)"
)
_INSERT_GAME = (
    "INSERT INTO games (game_id, game_type, status, version, last_hash, created_at, updated_at, metadata)"
    " VALUES (%s, %s, %s, %s, %s, %s, %s, %s::jsonb)"
)

#: Lease due deliveries: ``(owner, lease_until, now, now, limit)``.
_CLAIM = (
    "UPDATE webhook_deliveries d SET lease_owner = %s, lease_until = %s FROM webhooks w"
    " WHERE w.webhook_id = d.webhook_id AND d.delivery_no IN ("
    "  SELECT c.delivery_no FROM webhook_deliveries c JOIN webhooks cw ON cw.webhook_id = c.webhook_id"
    "  WHERE c.state = 'pending' AND c.next_attempt_at <= %s AND (c.lease_until IS NULL OR c.lease_until <= %s)"
    "  AND cw.active ORDER BY c.next_attempt_at, c.delivery_no LIMIT %s FOR UPDATE OF c SKIP LOCKED)"
    " RETURNING d.delivery_id, d.webhook_id, d.game_id, d.event, d.body, w.url, w.secret, d.attempts,"
    " d.next_attempt_at, d.delivery_no"
)



def _text_array(items: Sequence[str | int]) -> str:
    """A PostgreSQL ``text[]`` literal (``{"a","2"}``): a plain string parameter
    is much cheaper for psycopg to send than a list it adapts to an array."""
    quoted = ('"' + str(item).replace("\\", "\\\\").replace('"', '\\"') + '"' for item in items)
    return "{" + ",".join(quoted) + "}"


def _batch_json(pending: Sequence[PendingEvent]) -> str:
    """The ``p_events`` argument of ``cablecar_append`` (see its migration)."""
    return canonical_json(
        [
            {
                "type": p.type,
                "schema_version": p.schema_version,
                "seat": p.seat,
                "payload": p.payload_json,
                "head": p.head,
                "tail": p.tail,
            }
            for p in pending
        ]
    )



class PostgresStore(SqlCatalogue, SqlTournaments, SqlDeliveryLog, SqlDeadlineIndex, Database):
    """The event log, tournaments and delivery log on PostgreSQL (see the
    module docs)."""

    dialect = POSTGRES

    def __init__(
        self,
        url: str,
        *,
        min_size: int = 1,
        max_size: int = 10,
        timeout: float = 5.0,
        auto_migrate: bool = True,
        fallback_poll: float = 2.0,
        clock: Clock = system_clock,
    ) -> None:
        """Create the pool for ``url`` without waiting for the database.

        ``timeout`` bounds every wait for a connection (and each connection
        attempt); ``fallback_poll`` is how often ``wait_for_events``
        re-checks the database even without a notification."""
        self._db = PostgresConnections(
            url, min_size=min_size, max_size=max_size, timeout=timeout, auto_migrate=auto_migrate
        )
        self._clock = clock
        self._fallback_poll = fallback_poll
        self._listener = VersionListener(url, connect_timeout=timeout)

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
        now = self._clock()
        prepared = prepare_games(games, format_timestamp(now))
        if not prepared:
            return []
        sealed = [e for game in prepared for e in game.events]
        with self._db.connection() as conn:
            event_cur = conn.cursor()
            with conn.pipeline(), conn.transaction():
                if first is not None:
                    first(conn.cursor())
                conn.cursor().executemany(_INSERT_GAME, [game_params(g, now) for g in prepared])
                if sealed:
                    # the events_append_only trigger (migration 0005) admits this transaction's inserts
                    conn.execute("SELECT set_config('cablecar.appending', 'on', true)")
                    conn.execute("SELECT pg_advisory_xact_lock(%s)", (POSITION_LOCK_KEY,))
                    event_cur.executemany(_INSERT_EVENT, [event_params(e) for e in sealed], returning=True)
            positions = iter(self._returned_positions(event_cur) if sealed else [])
        return [tuple(e.at(next(positions)) for e in game.events) for game in prepared]

    @staticmethod
    def _returned_positions(cur: psycopg.Cursor[Any]) -> list[int]:
        positions: list[int] = []
        for _ in cur.results():
            row = cur.fetchone()
            assert row is not None
            positions.append(int(row[0]))
        return positions

    # -- writes ------------------------------------------------------------------

    def append(
        self,
        game_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        idempotency_key: str | None = None,
        request_hash: str | None = None,
        status: str | None = None,
        guard: MetadataGuard | None = None,
    ) -> AppendResult:
        """Append ``events`` atomically after ``expected_version`` (see
        :meth:`EventStore.append`); ``ValueError`` for an empty or malformed batch.

        One round trip: the events are numbered and their hash documents
        prepared here, and the ``cablecar_append`` database function checks
        the guard, the idempotency key and the version, finishes the hash
        chain, claims the game row and inserts (migrations
        ``0002_append_function.sql``, ``0004_append_guard.sql``)."""
        check_append_args(events, expected_version, status)
        recorded_at = format_timestamp(self._clock())
        pending = number(game_id, expected_version, events, recorded_at, idempotency_key)
        head = (game_id, expected_version, idempotency_key, request_hash, status, recorded_at)
        guard_args = (None, None) if guard is None else (_text_array(guard.path), guard.value)
        with self._db.connection() as conn:
            if len(pending) == 1:
                p = pending[0]
                params = (*head, p.type, p.schema_version, p.payload_json, p.seat, p.head, p.tail, *guard_args)
                row = conn.execute(_APPEND_ONE, params).fetchone()
                assert row is not None
                outcome, value, stored_request_hash, prev_hash, position, digest = row
                written = [(position, digest)]
                last_seq = position
            else:
                row = conn.execute(_APPEND, (*head, _batch_json(pending), *guard_args)).fetchone()
                assert row is not None
                outcome, value, stored_request_hash, prev_hash, written = row
                last_seq = written[0] if outcome == "replayed" else None
            if outcome == "replayed":
                replayed = conn.execute(
                    f"SELECT {EVENT_COLUMNS} FROM events WHERE game_id = %s AND seq BETWEEN %s AND %s"
                    " ORDER BY seq",
                    (game_id, value, last_seq),
                ).fetchall()
                return AppendResult(
                    tuple(events_from_rows(replayed, POSTGRES)), replayed=True, request_hash=stored_request_hash
                )
        if outcome == "not_found":
            raise GameNotFound(game_id)
        if outcome == "guard_failed":
            raise GuardFailed(game_id)
        if outcome == "stale":
            raise StaleVersion(game_id, expected_version, int(value))
        stored: list[StoredEvent] = []
        for p, (position, digest) in zip(pending, written, strict=True):
            stored.append(p.stored(prev_hash, digest, position))
            prev_hash = digest
        return AppendResult(tuple(stored), replayed=False, request_hash=request_hash)

    def database_time(self) -> datetime:
        """``clock_timestamp()`` of the database (the injected clock of a test store)."""
        if self._clock is not system_clock:
            return self._clock()
        row = self._rows("SELECT clock_timestamp()")[0]
        return cast(datetime, row[0])

    def compare_and_set_metadata(self, game_id: str, key: str, expected: JSON, value: JSON) -> bool:
        """Set ``metadata[key]`` if it equals ``expected`` (jsonb equality), in one statement."""
        expected_json = canonical_json(expected)
        value_json = metadata_json({key: value})
        with self._db.connection() as conn:
            row = conn.execute(
                "UPDATE games SET metadata = metadata || %s::jsonb, updated_at = %s"
                " WHERE game_id = %s AND metadata -> %s = %s::jsonb RETURNING 1",
                (value_json, self._clock(), game_id, key, expected_json),
            ).fetchone()
        if row is None:
            self.version(game_id)  # raises GameNotFound for an unknown game
            return False
        return True

    def claim_deliveries(
        self, owner: str, now: datetime, lease_seconds: float, limit: int
    ) -> tuple[ClaimedDelivery, ...]:
        """Lease up to ``limit`` due deliveries to ``owner`` (``FOR UPDATE SKIP
        LOCKED``: concurrent claimers take disjoint rows without waiting)."""
        check_page(limit)
        if lease_seconds <= 0:
            raise ValueError(f"lease_seconds must be positive, got {lease_seconds!r}")
        until = now + timedelta(seconds=lease_seconds)
        with self._db.connection() as conn:
            rows = conn.execute(_CLAIM, (owner, until, now, now, limit)).fetchall()
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
                if self.version(game_id) > after_seq:
                    return True
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                step = self._fallback_poll if listening else 0.25
                if self._listener.wait(game_id, after_seq, min(remaining, step)):
                    return True
                listening = self._listener.listening

    def close(self) -> None:
        """Stop the listener thread and close every pooled connection."""
        self._listener.close()
        self._db.close()

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return self._db.closed

"""The production store: PostgreSQL through psycopg 3 and a
``psycopg_pool.ConnectionPool`` (:mod:`events.postgres.connection`).

Writes
    ``append`` is ONE round trip: the events are validated, numbered (seq =
    expected + i) and their canonical hash documents prepared here, then the
    ``cablecar_append_one`` / ``cablecar_append_batch`` database functions
    (migration ``0008_global_log_without_lock.sql``)
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
from typing import Any, cast

import psycopg

from events.database import Database
from events.deliveries import ClaimedDelivery
from events.envelope import PendingEvent, canonical_json, number
from events.postgres.connection import PostgresConnections
from events.postgres.listener import VersionListener
from events.sql.bot_turns import SqlBotTurnIndex
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

_INSERT_EVENT = (
    "INSERT INTO events (game_id, seq, type, schema_version, payload, recorded_at, seat,"
    " idempotency_key, prev_hash, hash) VALUES (%s, %s, %s, %s, %s::json, %s, %s, %s, %s, %s)"
    " RETURNING position"
)
_APPEND = (
    "SELECT r_outcome, r_value, r_request_hash, r_prev_hash, r_position, r_hashes FROM cablecar_append_batch("
    "%s, %s, %s, %s, %s, %s, %s::text[], %s::integer[], %s::integer[], %s::text[], %s::text[], %s::text[],"
    " %s::text[], %s)"
)
_APPEND_ONE = (
    "SELECT r_outcome, r_value, r_request_hash, r_prev_hash, r_position, r_hash"
    " FROM cablecar_append_one(%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s::text[], %s)"
)
_INSERT_GAME = (
    "INSERT INTO games (game_id, game_type, status, version, last_hash, created_at, updated_at, metadata)"
    " VALUES (%s, %s, %s, %s, %s, %s, %s, %s::jsonb)"
)

#: Record a watched game and read its version (see ``PostgresStore._watched_version``).
_RECORD_WATCH = (
    "WITH w AS (INSERT INTO game_watches (game_id, listener_pid) VALUES (%s, %s) ON CONFLICT DO NOTHING)"
    " SELECT version FROM games WHERE game_id = %s FOR SHARE"
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


def _int_array(items: Sequence[int | None]) -> str:
    """A PostgreSQL ``integer[]`` literal (``{1,NULL}``)."""
    return "{" + ",".join("NULL" if item is None else str(int(item)) for item in items) + "}"


def _batch_args(pending: Sequence[PendingEvent]) -> tuple[str, ...]:
    """The per-event array arguments of ``cablecar_append_batch`` (migration 0008)."""
    return (
        _text_array([p.type for p in pending]),
        _int_array([p.schema_version for p in pending]),
        _int_array([p.seat for p in pending]),
        _text_array([p.payload_json for p in pending]),
        _text_array([p.head for p in pending]),
        _text_array([p.tail for p in pending]),
    )


class PostgresStore(SqlCatalogue, SqlTournaments, SqlDeliveryLog, SqlDeadlineIndex, SqlBotTurnIndex, Database):
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
        prepared here, and the ``cablecar_append_one`` / ``cablecar_append_batch``
        database functions check the guard, the idempotency key and the
        version, finish the hash chain, claim the game row and insert
        (migration ``0008_global_log_without_lock.sql``)."""
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
                row = conn.execute(_APPEND, (*head, *_batch_args(pending), *guard_args)).fetchone()
                assert row is not None
                outcome, value, stored_request_hash, prev_hash, position, hashes = row
                last_seq = position
                written = [] if hashes is None else [(position + i, h) for i, h in enumerate(hashes)]
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
            row = conn.execute(_RECORD_WATCH, (game_id, pid, game_id)).fetchone()
        self._listener.recorded(game_id, pid)
        if row is None:
            raise GameNotFound(game_id)
        return int(row[0])

    def close(self) -> None:
        """Stop the listener thread and close every pooled connection."""
        self._listener.close()
        self._db.close()

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return self._db.closed

"""The production event store: PostgreSQL through psycopg 3 and a
``psycopg_pool.ConnectionPool``.

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
    wins.  ``create_game(s)`` runs its inserts in one pipelined transaction.

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
    Connections killed by a server restart are detected before use (their
    socket turns readable while idle) and replaced, so the store recovers by
    itself when the database comes back.  The schema is migrated on first
    use (:func:`events.migrate.migrate_postgres`, advisory-locked).

Webhook deliveries
    Shared work items (migration ``0003_tournaments.sql``): a claim leases
    rows picked with ``FOR UPDATE SKIP LOCKED``, so concurrent dispatchers
    on any number of hosts take disjoint deliveries without waiting on each
    other; the dispatch cursor row is locked ``FOR UPDATE`` while the
    deliveries it covers are inserted.
"""

from __future__ import annotations

import select
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import datetime, timedelta
from typing import Any

import psycopg
import psycopg.errors
from psycopg_pool import ConnectionPool, PoolClosed, PoolTimeout

from domain.core import JSON
from events.cursor import decode_cursor, encode_cursor
from events.envelope import PendingEvent, SealedEvent, canonical_json, number, verify_events
from events.migrate import migrate_postgres
from events.pg_listener import VersionListener
from events.rows import (
    EVENT_COLUMNS,
    GAME_COLUMNS,
    PreparedGame,
    check_append_args,
    check_page,
    event_from_row,
    game_from_row,
    metadata_json,
    prepare_games,
)
from events.store import (
    AppendResult,
    AttemptOutcome,
    BatchPage,
    BatchRecord,
    ChainReport,
    ClaimedDelivery,
    DeliveryAttempt,
    DeliveryPage,
    DeliveryRecord,
    DispatchState,
    EventStore,
    GameExists,
    GameNotFound,
    GamePage,
    GameRecord,
    GuardFailed,
    IntegrityError,
    MetadataGuard,
    NewDelivery,
    NewEvent,
    OrganiserRecord,
    StaleVersion,
    StoredEvent,
    StoreError,
    StoreUnavailable,
    WebhookRecord,
)
from events.timestamps import Clock, format_timestamp, system_clock

Conn = psycopg.Connection[Any]

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

_ORGANISER_COLUMNS = "organiser_id, name, token_hash, created_at"
_BATCH_COLUMNS = "batch_id, organiser_id, name, game_type, tables, created_at"
_WEBHOOK_COLUMNS = (
    "webhook_id, organiser_id, url, batch_id, events, secret, from_position, active, created_at"
)
_DELIVERY_COLUMNS = (
    "delivery_id, webhook_id, game_id, event, body, state, attempts, created_at, next_attempt_at,"
    " delivered_at, last_status_code, last_error"
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


def translate_error(error: psycopg.Error) -> StoreError:
    """The store error for a driver error: a taken game id becomes GameExists,
    refusals by constraints, triggers or bad data IntegrityError, anything
    else (connection lost, server failure) StoreUnavailable."""
    if isinstance(error, psycopg.errors.UniqueViolation) and error.diag.constraint_name == "games_pkey":
        return GameExists(f"a game with this id already exists: {error.diag.message_detail or error}")
    if isinstance(error, psycopg.IntegrityError | psycopg.DataError):
        return IntegrityError(f"PostgreSQL refused the write: {error}")
    return StoreUnavailable(f"PostgreSQL failed: {error}")


def _event_params(e: SealedEvent) -> tuple[Any, ...]:
    return (
        e.game_id,
        e.seq,
        e.type,
        e.schema_version,
        e.payload_json,
        e.recorded_at,
        e.seat,
        e.idempotency_key,
        e.prev_hash,
        e.hash,
    )


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


def _stored(row: Sequence[Any]) -> StoredEvent:
    return event_from_row(row, row[5])


def _game(row: Sequence[Any]) -> GameRecord:
    return game_from_row(row, format_timestamp(row[4]), format_timestamp(row[5]), row[6])


def _optional_timestamp(value: datetime | None) -> str | None:
    return None if value is None else format_timestamp(value)


def _organiser(row: Sequence[Any]) -> OrganiserRecord:
    return OrganiserRecord(row[0], row[1], row[2], format_timestamp(row[3]))


def _batch(row: Sequence[Any]) -> BatchRecord:
    return BatchRecord(row[0], row[1], row[2], row[3], int(row[4]), format_timestamp(row[5]))


def _webhook(row: Sequence[Any]) -> WebhookRecord:
    return WebhookRecord(
        webhook_id=row[0],
        organiser_id=row[1],
        url=row[2],
        batch_id=row[3],
        events=tuple(row[4]),
        secret=row[5],
        from_position=int(row[6]),
        active=bool(row[7]),
        created_at=format_timestamp(row[8]),
    )


def _delivery(row: Sequence[Any], history: tuple[DeliveryAttempt, ...]) -> DeliveryRecord:
    return DeliveryRecord(
        delivery_id=row[0],
        webhook_id=row[1],
        game_id=row[2],
        event=row[3],
        body=row[4],
        state=row[5],
        attempts=int(row[6]),
        created_at=format_timestamp(row[7]),
        next_attempt_at=_optional_timestamp(row[8]),
        delivered_at=_optional_timestamp(row[9]),
        last_status_code=row[10],
        last_error=row[11],
        history=history,
    )


def _socket_readable(conn: Conn) -> bool:
    """Whether an idle connection has something to read (a server that closed
    it sent an error message or EOF); True if that cannot be told."""
    try:
        poller = select.poll()
        poller.register(conn.fileno(), select.POLLIN)
        return bool(poller.poll(0))
    except (OSError, ValueError, psycopg.Error):
        return True


class PostgresStore(EventStore):
    """The :class:`EventStore` contract on PostgreSQL (see the module docs)."""

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
        self._url = url
        self._timeout = timeout
        self._max_size = max_size
        self._clock = clock
        self._fallback_poll = fallback_poll
        self._schema_ready = not auto_migrate
        self._schema_lock = threading.Lock()
        self._pool: ConnectionPool[Conn] = ConnectionPool(
            url,
            min_size=min_size,
            max_size=max_size,
            timeout=timeout,
            reconnect_timeout=max(10.0, 2 * timeout),
            kwargs={"autocommit": True, "connect_timeout": max(1, int(timeout))},
            open=False,
            name="cablecar-events",
        )
        self._pool.open(wait=False)
        self._listener = VersionListener(url, connect_timeout=timeout)

    # -- connections -------------------------------------------------------

    def _ensure_schema(self) -> None:
        if self._schema_ready:
            return
        with self._schema_lock:
            if not self._schema_ready:
                migrate_postgres(self._url, connect_timeout=self._timeout)
                self._schema_ready = True

    @contextmanager
    def _connection(self) -> Iterator[Conn]:
        """A pooled connection known to be alive; driver errors inside the
        block are translated into store errors."""
        self._ensure_schema()
        conn = self._checkout()
        try:
            yield conn
        except psycopg.Error as e:
            raise translate_error(e) from e
        finally:
            self._pool.putconn(conn)

    def _checkout(self) -> Conn:
        # Idle connections whose socket turned readable were most likely
        # closed by the server (restart, failover): drop them and take the
        # next one (at most the whole pool), without the pool's own backoff.
        for _ in range(self._max_size + 1):
            try:
                conn = self._pool.getconn(timeout=self._timeout)
            except PoolTimeout as e:
                raise StoreUnavailable(f"no database connection within {self._timeout:g}s") from e
            except PoolClosed as e:
                raise StoreUnavailable("the store is closed") from e
            if not conn.closed and not _socket_readable(conn):
                return conn
            try:
                conn.execute("SELECT 1")
                return conn
            except psycopg.Error:
                conn.close()
                self._pool.putconn(conn)
        raise StoreUnavailable("every pooled connection was found dead")

    @contextmanager
    def _read(self) -> Iterator[psycopg.Cursor[Any]]:
        """A cursor for autocommit reads."""
        with self._connection() as conn:
            yield conn.cursor()

    # -- writes ----------------------------------------------------------------

    def create_game(
        self,
        game_id: str,
        game_type: str,
        metadata: Mapping[str, JSON],
        events: Sequence[NewEvent],
        status: str,
    ) -> tuple[StoredEvent, ...]:
        """Create the game row and append its first events atomically.

        Raises GameExists if the id is taken."""
        return self._create([(game_id, game_type, metadata, events, status)])[0]

    def create_games(
        self,
        games: Sequence[tuple[str, str, Mapping[str, JSON], Sequence[NewEvent], str]],
    ) -> None:
        """Create several games in one transaction: all or none (GameExists if
        any id is taken or repeated)."""
        self._create(games)

    def _create(
        self,
        games: Sequence[tuple[str, str, Mapping[str, JSON], Sequence[NewEvent], str]],
        first: Callable[[Conn], None] | None = None,
    ) -> list[tuple[StoredEvent, ...]]:
        """Create ``games`` in one transaction; ``first`` writes more rows in
        that same transaction before them."""
        now = self._clock()
        prepared = prepare_games(games, format_timestamp(now))
        if not prepared:
            return []
        sealed = [e for game in prepared for e in game.events]
        with self._connection() as conn:
            event_cur = conn.cursor()
            with conn.pipeline(), conn.transaction():
                if first is not None:
                    first(conn)
                conn.cursor().executemany(_INSERT_GAME, [self._game_params(g, now) for g in prepared])
                if sealed:
                    conn.execute("SELECT pg_advisory_xact_lock(%s)", (POSITION_LOCK_KEY,))
                    event_cur.executemany(_INSERT_EVENT, [_event_params(e) for e in sealed], returning=True)
            positions = iter(self._returned_positions(event_cur) if sealed else [])
        return [tuple(e.at(next(positions)) for e in game.events) for game in prepared]

    @staticmethod
    def _game_params(game: PreparedGame, now: datetime) -> tuple[Any, ...]:
        return (
            game.game_id,
            game.game_type,
            game.status,
            game.version,
            game.last_hash,
            now,
            now,
            game.metadata_json,
        )

    @staticmethod
    def _returned_positions(cur: psycopg.Cursor[Any]) -> list[int]:
        positions: list[int] = []
        for _ in cur.results():
            row = cur.fetchone()
            assert row is not None
            positions.append(int(row[0]))
        return positions

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
        with self._connection() as conn:
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
                    tuple(map(_stored, replayed)), replayed=True, request_hash=stored_request_hash
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

    @staticmethod
    def _query_key(conn: Conn, game_id: str, idempotency_key: str) -> psycopg.Cursor[Any]:
        return conn.execute(
            "SELECT request_hash, first_seq, last_seq FROM idempotency_keys WHERE game_id = %s AND key = %s",
            (game_id, idempotency_key),
        )

    @staticmethod
    def _replay(conn: Conn, game_id: str, key_cur: psycopg.Cursor[Any]) -> AppendResult | None:
        hit = key_cur.fetchone()
        if hit is None:
            return None
        rows = conn.execute(
            f"SELECT {EVENT_COLUMNS} FROM events WHERE game_id = %s AND seq BETWEEN %s AND %s ORDER BY seq",
            (game_id, hit[1], hit[2]),
        ).fetchall()
        return AppendResult(tuple(map(_stored, rows)), replayed=True, request_hash=hit[0])

    def lookup_idempotency(self, game_id: str, idempotency_key: str) -> AppendResult | None:
        """What an earlier append to this game with ``idempotency_key`` wrote
        (``replayed=True``, with its request_hash), or None if the key is unused."""
        with self._connection() as conn, conn.transaction():
            return self._replay(conn, game_id, self._query_key(conn, game_id, idempotency_key))

    def update_metadata(self, game_id: str, changes: Mapping[str, JSON]) -> GameRecord:
        """Merge ``changes`` (top-level keys) into the game's metadata dict."""
        changes_json = metadata_json(changes)
        with self._read() as cur:
            row = cur.execute(
                f"UPDATE games SET metadata = metadata || %s::jsonb, updated_at = %s WHERE game_id = %s"
                f" RETURNING {GAME_COLUMNS}",
                (changes_json, self._clock(), game_id),
            ).fetchone()
        if row is None:
            raise GameNotFound(game_id)
        return _game(row)

    def compare_and_set_metadata(self, game_id: str, key: str, expected: JSON, value: JSON) -> bool:
        """Set ``metadata[key]`` if it equals ``expected`` (jsonb equality), in one statement."""
        expected_json = canonical_json(expected)
        value_json = metadata_json({key: value})
        with self._read() as cur:
            row = cur.execute(
                "UPDATE games SET metadata = metadata || %s::jsonb, updated_at = %s"
                " WHERE game_id = %s AND metadata -> %s = %s::jsonb RETURNING 1",
                (value_json, self._clock(), game_id, key, expected_json),
            ).fetchone()
        if row is None:
            self.version(game_id)  # raises GameNotFound for an unknown game
            return False
        return True

    # -- reads -----------------------------------------------------------------

    def load(self, game_id: str, after: int = 0, limit: int | None = None) -> list[StoredEvent]:
        """Events of a game with ``seq > after``, ascending, at most ``limit``
        (GameNotFound for an unknown game)."""
        check_page(limit)
        with self._read() as cur:
            rows = cur.execute(
                f"SELECT {EVENT_COLUMNS} FROM events WHERE game_id = %s AND seq > %s ORDER BY seq LIMIT %s",
                (game_id, after, limit),
            ).fetchall()
        if not rows:
            self.version(game_id)  # raises GameNotFound for an unknown game
        return [_stored(row) for row in rows]

    def version(self, game_id: str) -> int:
        """The seq of the game's last event (0 if none); GameNotFound if unknown."""
        with self._read() as cur:
            row = cur.execute("SELECT version FROM games WHERE game_id = %s", (game_id,)).fetchone()
        if row is None:
            raise GameNotFound(game_id)
        return int(row[0])

    def get_game(self, game_id: str) -> GameRecord:
        """The game's metadata row; GameNotFound if unknown."""
        with self._read() as cur:
            row = cur.execute(f"SELECT {GAME_COLUMNS} FROM games WHERE game_id = %s", (game_id,)).fetchone()
        if row is None:
            raise GameNotFound(game_id)
        return _game(row)

    def list_games(
        self,
        status: str | None = None,
        game_type: str | None = None,
        batch: str | None = None,
        limit: int = 50,
        cursor: str | None = None,
    ) -> GamePage:
        """Games newest first, filtered; ``batch`` matches ``metadata['batch']``.

        Raises InvalidCursor for a cursor this store did not hand out."""
        check_page(limit)
        where: list[str] = []
        params: list[Any] = []
        if status is not None:
            where.append("status = %s")
            params.append(status)
        if game_type is not None:
            where.append("game_type = %s")
            params.append(game_type)
        if batch is not None:
            where.append("metadata ->> 'batch' = %s")
            params.append(batch)
        if cursor is not None:
            where.append("game_no < %s")
            params.append(decode_cursor(cursor))
        clause = f"WHERE {' AND '.join(where)}" if where else ""
        with self._read() as cur:
            rows = cur.execute(
                f"SELECT {GAME_COLUMNS}, game_no FROM games {clause} ORDER BY game_no DESC LIMIT %s",
                (*params, limit + 1),
            ).fetchall()
        page = rows[:limit]
        next_cursor = encode_cursor(page[-1][7]) if len(rows) > limit else None
        return GamePage(tuple(_game(row) for row in page), next_cursor)

    def read_all(self, after_position: int = 0, limit: int = 1000) -> list[StoredEvent]:
        """The global log: every game's events with ``position > after_position``
        (never out of order, see the module docs)."""
        check_page(limit)
        with self._read() as cur:
            rows = cur.execute(
                f"SELECT {EVENT_COLUMNS} FROM events WHERE position > %s ORDER BY position LIMIT %s",
                (after_position, limit),
            ).fetchall()
        return [_stored(row) for row in rows]

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

    def verify_chain(self, game_id: str) -> ChainReport:
        """Recompute the game's chain from one snapshot (REPEATABLE READ) and
        report edited, removed, reordered or injected events."""
        with self._connection() as conn, conn.transaction():
            conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            row = conn.execute("SELECT version FROM games WHERE game_id = %s", (game_id,)).fetchone()
            if row is None:
                raise GameNotFound(game_id)
            rows = conn.execute(
                f"SELECT {EVENT_COLUMNS} FROM events WHERE game_id = %s ORDER BY seq", (game_id,)
            ).fetchall()
        return verify_events(game_id, [_stored(r) for r in rows], expected_count=int(row[0]))

    def ping(self) -> None:
        """Raise StoreUnavailable if the database cannot be reached."""
        with self._read() as cur:
            cur.execute("SELECT 1")

    def close(self) -> None:
        """Stop the listener thread and close every pooled connection."""
        self._listener.close()
        self._pool.close()

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return bool(self._pool.closed)

    # -- tournaments: organisers, batches, webhooks ------------------------------

    def create_organiser(self, organiser_id: str, name: str, token_hash: str) -> OrganiserRecord:
        """Store a new organiser; IntegrityError if the id is taken."""
        now = self._clock()
        with self._read() as cur:
            cur.execute(
                f"INSERT INTO organisers ({_ORGANISER_COLUMNS}) VALUES (%s, %s, %s, %s)",
                (organiser_id, name, token_hash, now),
            )
        return OrganiserRecord(organiser_id, name, token_hash, format_timestamp(now))

    def get_organiser(self, organiser_id: str) -> OrganiserRecord | None:
        """The organiser, or None if unknown."""
        with self._read() as cur:
            row = cur.execute(
                f"SELECT {_ORGANISER_COLUMNS} FROM organisers WHERE organiser_id = %s", (organiser_id,)
            ).fetchone()
        return None if row is None else _organiser(row)

    def create_batch(
        self,
        batch_id: str,
        organiser_id: str,
        name: str | None,
        game_type: str,
        games: Sequence[tuple[str, str, Mapping[str, JSON], Sequence[NewEvent], str]],
    ) -> BatchRecord:
        """Create the batch row and its games in one transaction (all or none)."""
        if not games:
            raise ValueError("a batch needs at least one game")
        now = self._clock()

        def insert_batch(conn: Conn) -> None:
            conn.execute(
                f"INSERT INTO batches ({_BATCH_COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s)",
                (batch_id, organiser_id, name, game_type, len(games), now),
            )

        self._create(games, insert_batch)
        return BatchRecord(batch_id, organiser_id, name, game_type, len(games), format_timestamp(now))

    def get_batch(self, batch_id: str) -> BatchRecord | None:
        """The batch, or None if unknown."""
        with self._read() as cur:
            row = cur.execute(
                f"SELECT {_BATCH_COLUMNS} FROM batches WHERE batch_id = %s", (batch_id,)
            ).fetchone()
        return None if row is None else _batch(row)

    def list_batches(self, organiser_id: str, limit: int = 50, cursor: str | None = None) -> BatchPage:
        """The organiser's batches newest first."""
        check_page(limit)
        before = decode_cursor(cursor) if cursor is not None else 2**63 - 1
        with self._read() as cur:
            rows = cur.execute(
                f"SELECT {_BATCH_COLUMNS}, batch_no FROM batches WHERE organiser_id = %s AND batch_no < %s"
                " ORDER BY batch_no DESC LIMIT %s",
                (organiser_id, before, limit + 1),
            ).fetchall()
        page = rows[:limit]
        next_cursor = encode_cursor(page[-1][6]) if len(rows) > limit else None
        return BatchPage(tuple(_batch(row) for row in page), next_cursor)

    def create_webhook(
        self,
        webhook_id: str,
        organiser_id: str,
        url: str,
        events: Sequence[str],
        secret: str,
        batch_id: str | None = None,
    ) -> WebhookRecord:
        """Register an active webhook starting after the current head of the log."""
        if not events:
            raise ValueError("a webhook needs at least one event type")
        now = self._clock()
        with self._connection() as conn, conn.transaction():
            # serialised with record_deliveries on the cursor row: the head read
            # below is at or after any cursor a dispatcher has moved to
            conn.execute("SELECT position FROM dispatch_cursors WHERE name = 'webhooks' FOR UPDATE")
            head_row = conn.execute("SELECT coalesce(max(position), 0) FROM events").fetchone()
            assert head_row is not None
            head = int(head_row[0])
            conn.execute(
                f"INSERT INTO webhooks ({_WEBHOOK_COLUMNS}) VALUES (%s, %s, %s, %s, %s, %s, %s, true, %s)",
                (webhook_id, organiser_id, url, batch_id, list(events), secret, head, now),
            )
        return WebhookRecord(
            webhook_id, organiser_id, url, batch_id, tuple(events), secret, head, True, format_timestamp(now)
        )

    def get_webhook(self, webhook_id: str) -> WebhookRecord | None:
        """The webhook (active or not), or None if unknown."""
        with self._read() as cur:
            row = cur.execute(
                f"SELECT {_WEBHOOK_COLUMNS} FROM webhooks WHERE webhook_id = %s", (webhook_id,)
            ).fetchone()
        return None if row is None else _webhook(row)

    def list_webhooks(self, organiser_id: str) -> tuple[WebhookRecord, ...]:
        """The organiser's active webhooks, oldest first."""
        with self._read() as cur:
            rows = cur.execute(
                f"SELECT {_WEBHOOK_COLUMNS} FROM webhooks WHERE organiser_id = %s AND active"
                " ORDER BY webhook_no",
                (organiser_id,),
            ).fetchall()
        return tuple(_webhook(row) for row in rows)

    def deactivate_webhook(self, webhook_id: str) -> bool:
        """Stop a webhook and fail its pending deliveries; False if it was not active."""
        with self._connection() as conn, conn.transaction():
            stopped = conn.execute(
                "UPDATE webhooks SET active = false WHERE webhook_id = %s AND active", (webhook_id,)
            )
            if stopped.rowcount == 0:
                return False
            conn.execute(
                "UPDATE webhook_deliveries SET state = 'failed', next_attempt_at = NULL, last_error = %s,"
                " lease_owner = NULL, lease_until = NULL WHERE webhook_id = %s AND state = 'pending'",
                ("the webhook was deleted", webhook_id),
            )
        return True

    # -- webhook deliveries, driven from the global log ---------------------------

    def dispatch_cursor(self) -> int:
        """The position up to which the log has been turned into deliveries."""
        with self._read() as cur:
            row = cur.execute("SELECT position FROM dispatch_cursors WHERE name = 'webhooks'").fetchone()
        assert row is not None
        return int(row[0])

    def dispatch_state(self) -> DispatchState:
        """Cursor, head, webhooks registered and whether any is active, in one statement."""
        with self._read() as cur:
            row = cur.execute(
                "SELECT (SELECT position FROM dispatch_cursors WHERE name = 'webhooks'),"
                " (SELECT coalesce(max(position), 0) FROM events),"
                " (SELECT count(*) FROM webhooks), EXISTS (SELECT 1 FROM webhooks WHERE active)"
            ).fetchone()
        assert row is not None
        return DispatchState(int(row[0]), int(row[1]), int(row[2]), bool(row[3]))

    def record_deliveries(
        self,
        expected_cursor: int,
        new_cursor: int,
        deliveries: Sequence[NewDelivery],
        now: datetime,
        webhooks_seen: int | None = None,
    ) -> bool:
        """Create ``deliveries`` and move the cursor, atomically, if nobody
        moved it since ``expected_cursor`` and no webhook was registered since
        ``webhooks_seen`` were counted (else write nothing: False)."""
        if new_cursor < expected_cursor:
            raise ValueError(f"the cursor only moves forward ({expected_cursor} -> {new_cursor})")
        with self._connection() as conn, conn.transaction():
            row = conn.execute(
                "SELECT position FROM dispatch_cursors WHERE name = 'webhooks' FOR UPDATE"
            ).fetchone()
            assert row is not None
            if int(row[0]) != expected_cursor:
                return False
            if webhooks_seen is not None:
                count = conn.execute("SELECT count(*) FROM webhooks").fetchone()
                if count is None or int(count[0]) != webhooks_seen:
                    return False
            if deliveries:
                conn.cursor().executemany(
                    "INSERT INTO webhook_deliveries (delivery_id, webhook_id, game_id, event, body, state,"
                    " attempts, created_at, next_attempt_at) VALUES (%s, %s, %s, %s, %s, 'pending', 0, %s, %s)"
                    " ON CONFLICT (webhook_id, game_id, event) DO NOTHING",
                    [(d.delivery_id, d.webhook_id, d.game_id, d.event, d.body, now, now) for d in deliveries],
                )
            conn.execute("UPDATE dispatch_cursors SET position = %s WHERE name = 'webhooks'", (new_cursor,))
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
        with self._read() as cur:
            rows = cur.execute(_CLAIM, (owner, until, now, now, limit)).fetchall()
        rows.sort(key=lambda row: (row[8], row[9]))
        return tuple(ClaimedDelivery(*row[:8]) for row in rows)

    def record_attempt(self, delivery_id: str, owner: str, outcome: AttemptOutcome) -> bool:
        """Log an attempt and settle the delivery if ``owner`` holds its lease."""
        delivered_at = outcome.attempted_at if outcome.state == "delivered" else None
        with self._connection() as conn, conn.transaction():
            row = conn.execute(
                "UPDATE webhook_deliveries SET state = %s, attempts = attempts + 1, next_attempt_at = %s,"
                " delivered_at = coalesce(%s, delivered_at), last_status_code = %s, last_error = %s,"
                " lease_owner = NULL, lease_until = NULL"
                " WHERE delivery_id = %s AND lease_owner = %s AND state = 'pending' RETURNING attempts",
                (
                    outcome.state,
                    outcome.next_attempt_at,
                    delivered_at,
                    outcome.status_code,
                    outcome.error,
                    delivery_id,
                    owner,
                ),
            ).fetchone()
            if row is None:
                return False
            conn.execute(
                "INSERT INTO webhook_attempts (delivery_id, attempt, attempted_at, status_code, error,"
                " duration_ms) VALUES (%s, %s, %s, %s, %s, %s)",
                (
                    delivery_id,
                    row[0],
                    outcome.attempted_at,
                    outcome.status_code,
                    outcome.error,
                    outcome.duration_ms,
                ),
            )
        return True

    def list_deliveries(self, webhook_id: str, limit: int = 50, cursor: str | None = None) -> DeliveryPage:
        """The webhook's deliveries newest first, each with its attempts (one snapshot)."""
        check_page(limit)
        before = decode_cursor(cursor) if cursor is not None else 2**63 - 1
        with self._connection() as conn, conn.transaction():
            conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            rows = conn.execute(
                f"SELECT {_DELIVERY_COLUMNS}, delivery_no FROM webhook_deliveries"
                " WHERE webhook_id = %s AND delivery_no < %s ORDER BY delivery_no DESC LIMIT %s",
                (webhook_id, before, limit + 1),
            ).fetchall()
            page = rows[:limit]
            attempts = conn.execute(
                "SELECT delivery_id, attempt, attempted_at, status_code, error, duration_ms FROM webhook_attempts"
                " WHERE delivery_id = ANY(%s) ORDER BY delivery_id, attempt",
                ([row[0] for row in page],),
            ).fetchall()
        history: dict[str, list[DeliveryAttempt]] = {}
        for a in attempts:
            history.setdefault(a[0], []).append(
                DeliveryAttempt(int(a[1]), format_timestamp(a[2]), a[3], a[4], int(a[5]))
            )
        next_cursor = encode_cursor(page[-1][12]) if len(rows) > limit else None
        return DeliveryPage(
            tuple(_delivery(row, tuple(history.get(row[0], ()))) for row in page), next_cursor
        )

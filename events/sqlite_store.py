"""The embedded event store: one SQLite file, the default when no database URL
is configured.

* WAL mode (readers never block the writer), a busy timeout, foreign keys on.
* One connection per thread (``threading.local``), all in autocommit mode;
  every write is an explicit ``BEGIN IMMEDIATE`` transaction, which takes the
  database write lock up front, so writers in other threads *and processes*
  serialise instead of failing half-way with ``SQLITE_BUSY``.
* Each use of a connection holds that connection's lock, and ``close`` takes
  it before closing: closing a connection under a statement that another
  thread (a background webhook dispatcher, say) is running would crash
  SQLite.  Uses after ``close`` raise StoreUnavailable.
* Global positions are ``max(position) + 1`` assigned inside that write
  transaction: transactions commit one at a time in lock order, so positions
  become visible strictly in increasing order (a reader that has seen
  position P never later sees a new event at or below P).
* Reads that need a consistent picture (``verify_chain``) run in one
  deferred transaction, i.e. one WAL snapshot.
* ``wait_for_events`` polls the game's version with a short sleep, which also
  sees writes by other processes.
* The schema is applied on open from ``events/migrations/sqlite/*.sql``.
* Tournament tables (organisers, batches, webhooks, deliveries): claims of
  deliveries run under ``BEGIN IMMEDIATE`` too, after a lock-free look for
  due work, so idle dispatchers never take the write lock.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from domain.core import JSON
from events.codec import loads_payload
from events.cursor import decode_cursor, encode_cursor
from events.envelope import SealedEvent, number, verify_events
from events.migrate import migrate_sqlite
from events.rows import (
    EVENT_COLUMNS,
    GAME_COLUMNS,
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

_INSERT_EVENT = (
    "INSERT INTO events (position, game_id, seq, type, schema_version, payload, recorded_at, seat,"
    " idempotency_key, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_INSERT_GAME = (
    "INSERT INTO games (game_id, game_type, status, version, last_hash, created_at, updated_at, metadata)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
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
#: Pending deliveries due at ``?`` whose lease (if any) ran out at ``?``, of active webhooks.
_DUE = (
    "FROM webhook_deliveries d JOIN webhooks w ON w.webhook_id = d.webhook_id"
    " WHERE d.state = 'pending' AND d.next_attempt_at <= ? AND (d.lease_until IS NULL OR d.lease_until <= ?)"
    " AND w.active = 1"
)


def _json_path(guard: MetadataGuard | None) -> str | None:
    """The SQLite JSON path of a guard (``$."seat_token_hashes"[2]``), None without one."""
    if guard is None:
        return None
    parts = ["$"]
    for step in guard.path:
        if isinstance(step, int):
            parts.append(f"[{step}]")
        elif '"' in step:
            raise ValueError(f"a metadata guard key may not contain '\"': {step!r}")
        else:
            parts.append(f'."{step}"')
    return "".join(parts)


def translate_error(error: sqlite3.Error) -> StoreError:
    """The store error for a driver error: refusals by constraints or triggers
    become IntegrityError, everything else (locked, I/O, closed) StoreUnavailable."""
    if isinstance(error, sqlite3.IntegrityError):
        return IntegrityError(f"SQLite refused the write: {error}")
    return StoreUnavailable(f"SQLite failed: {error}")


def _event_rows(sealed: Sequence[SealedEvent], first_position: int) -> list[tuple[Any, ...]]:
    return [
        (
            first_position + i,
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
        for i, e in enumerate(sealed)
    ]


def _stored(row: Sequence[Any]) -> StoredEvent:
    return event_from_row(row, loads_payload(row[5]))


def _game(row: Sequence[Any]) -> GameRecord:
    return game_from_row(row, row[4], row[5], loads_payload(row[6]))


def _webhook(row: Sequence[Any]) -> WebhookRecord:
    return WebhookRecord(
        webhook_id=row[0],
        organiser_id=row[1],
        url=row[2],
        batch_id=row[3],
        events=tuple(json.loads(row[4])),
        secret=row[5],
        from_position=int(row[6]),
        active=bool(row[7]),
        created_at=row[8],
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
        created_at=row[7],
        next_attempt_at=row[8],
        delivered_at=row[9],
        last_status_code=row[10],
        last_error=row[11],
        history=history,
    )


class SqliteStore(EventStore):
    """The :class:`EventStore` contract on a SQLite file (see the module docs)."""

    def __init__(
        self,
        path: str | Path,
        *,
        busy_timeout: float = 30.0,
        synchronous: str = "NORMAL",
        poll_interval: float = 0.02,
        clock: Clock = system_clock,
    ) -> None:
        """Open (creating if needed) the database at ``path`` and apply its schema.

        ``synchronous`` is SQLite's durability setting (``NORMAL``: a commit
        survives a process crash, the last ones may be lost on power loss;
        ``FULL``: fsync per commit).  Raises StoreUnavailable if the file
        cannot be opened."""
        if synchronous.upper() not in ("OFF", "NORMAL", "FULL", "EXTRA"):
            raise ValueError(f"unknown synchronous mode {synchronous!r}")
        self._path = str(path)
        self._busy_timeout = busy_timeout
        self._synchronous = synchronous.upper()
        self._poll_interval = poll_interval
        self._clock = clock
        self._local = threading.local()
        self._connections: list[tuple[sqlite3.Connection, threading.RLock]] = []
        self._registry_lock = threading.Lock()
        self._closed = False
        with self._using() as conn:
            migrate_sqlite(conn)

    @property
    def path(self) -> str:
        """The database file."""
        return self._path

    # -- connections and transactions ---------------------------------------

    def _conn(self) -> tuple[sqlite3.Connection, threading.RLock]:
        """This thread's connection and the lock held while it is in use."""
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is not None:
            return conn, self._local.lock
        if self._closed:
            raise StoreUnavailable("the store is closed")
        try:
            conn = sqlite3.connect(
                self._path, timeout=self._busy_timeout, isolation_level=None, check_same_thread=False
            )
            conn.execute(f"PRAGMA busy_timeout = {int(self._busy_timeout * 1000)}")
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute(f"PRAGMA synchronous = {self._synchronous}")
            conn.execute("PRAGMA foreign_keys = ON")
        except sqlite3.Error as e:
            raise StoreUnavailable(f"cannot open SQLite database {self._path!r}: {e}") from e
        lock = threading.RLock()
        with self._registry_lock:
            if self._closed:
                conn.close()
                raise StoreUnavailable("the store is closed")
            self._connections.append((conn, lock))
        self._local.conn = conn
        self._local.lock = lock
        return conn, lock

    @contextmanager
    def _using(self) -> Iterator[sqlite3.Connection]:
        """This thread's connection, held so that :meth:`close` (from any
        thread) waits until this use is over; StoreUnavailable once closed."""
        conn, lock = self._conn()
        with lock:
            if self._closed:
                raise StoreUnavailable("the store is closed")
            yield conn

    @contextmanager
    def _transaction(self, mode: str = "IMMEDIATE") -> Iterator[sqlite3.Cursor]:
        """A transaction (``IMMEDIATE`` for writes, ``DEFERRED`` for snapshot
        reads); commits on success, rolls back on any exception."""
        with self._using() as conn:
            try:
                conn.execute(f"BEGIN {mode}")
            except sqlite3.Error as e:
                raise translate_error(e) from e
            try:
                yield conn.cursor()
                conn.execute("COMMIT")
            except sqlite3.Error as e:
                self._rollback(conn)
                raise translate_error(e) from e
            except BaseException:
                self._rollback(conn)
                raise

    @staticmethod
    def _rollback(conn: sqlite3.Connection) -> None:
        # The original error is the one worth reporting, not a failed rollback.
        if conn.in_transaction:
            with suppress(sqlite3.Error):
                conn.execute("ROLLBACK")

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        with self._using() as conn:
            try:
                return conn.execute(sql, params).fetchall()
            except sqlite3.Error as e:
                raise translate_error(e) from e

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
        first: Callable[[sqlite3.Cursor], None] | None = None,
    ) -> list[tuple[StoredEvent, ...]]:
        """Create ``games`` in one transaction; ``first`` writes more rows in
        that same transaction before them."""
        now = format_timestamp(self._clock())
        prepared = prepare_games(games, now)
        created: list[tuple[StoredEvent, ...]] = []
        with self._transaction() as cur:
            if first is not None:
                first(cur)
            position = cur.execute("SELECT coalesce(max(position), 0) FROM events").fetchone()[0] + 1
            for game in prepared:
                if cur.execute("SELECT 1 FROM games WHERE game_id = ?", (game.game_id,)).fetchone():
                    raise GameExists(f"game {game.game_id!r} already exists")
                cur.execute(
                    _INSERT_GAME,
                    (
                        game.game_id,
                        game.game_type,
                        game.status,
                        game.version,
                        game.last_hash,
                        now,
                        now,
                        game.metadata_json,
                    ),
                )
                cur.executemany(_INSERT_EVENT, _event_rows(game.events, position))
                created.append(tuple(e.at(position + i) for i, e in enumerate(game.events)))
                position += len(game.events)
        return created

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
        :meth:`EventStore.append`); ``ValueError`` for an empty or malformed batch."""
        check_append_args(events, expected_version, status)
        now = format_timestamp(self._clock())
        # Numbered before taking the write lock (seq = expected + i); wasted
        # only when the version turns out stale.
        pending = number(game_id, expected_version, events, now, idempotency_key)
        with self._transaction() as cur:
            row = cur.execute(
                "SELECT version, last_hash, (SELECT coalesce(max(position), 0) FROM events), json_extract(metadata, ?)"
                " FROM games WHERE game_id = ?",
                (_json_path(guard), game_id),
            ).fetchone()
            if row is None:
                raise GameNotFound(game_id)
            version, prev_hash, position, guarded = row
            if guard is not None and guarded != guard.value:
                raise GuardFailed(game_id)
            if idempotency_key is not None:
                replay = self._replay(cur, game_id, idempotency_key)
                if replay is not None:
                    return replay
            if version != expected_version:
                raise StaleVersion(game_id, expected_version, version)
            rows: list[tuple[Any, ...]] = []
            written: list[StoredEvent] = []
            for p in pending:
                digest = p.digest(prev_hash)
                position += 1
                rows.append(
                    (
                        position,
                        game_id,
                        p.seq,
                        p.type,
                        p.schema_version,
                        p.payload_json,
                        now,
                        p.seat,
                        idempotency_key,
                        prev_hash,
                        digest,
                    )
                )
                written.append(p.stored(prev_hash, digest, position))
                prev_hash = digest
            if len(rows) == 1:
                cur.execute(_INSERT_EVENT, rows[0])
            else:
                cur.executemany(_INSERT_EVENT, rows)
            cur.execute(
                "UPDATE games SET version = ?, last_hash = ?, updated_at = ?, status = coalesce(?, status)"
                " WHERE game_id = ?",
                (pending[-1].seq, prev_hash, now, status, game_id),
            )
            if idempotency_key is not None:
                cur.execute(
                    "INSERT INTO idempotency_keys (game_id, key, request_hash, first_seq, last_seq, created_at)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    (game_id, idempotency_key, request_hash, pending[0].seq, pending[-1].seq, now),
                )
        return AppendResult(tuple(written), replayed=False, request_hash=request_hash)

    @staticmethod
    def _replay(cur: sqlite3.Cursor, game_id: str, idempotency_key: str) -> AppendResult | None:
        hit = cur.execute(
            "SELECT request_hash, first_seq, last_seq FROM idempotency_keys WHERE game_id = ? AND key = ?",
            (game_id, idempotency_key),
        ).fetchone()
        if hit is None:
            return None
        rows = cur.execute(
            f"SELECT {EVENT_COLUMNS} FROM events WHERE game_id = ? AND seq BETWEEN ? AND ? ORDER BY seq",
            (game_id, hit[1], hit[2]),
        ).fetchall()
        return AppendResult(tuple(map(_stored, rows)), replayed=True, request_hash=hit[0])

    def lookup_idempotency(self, game_id: str, idempotency_key: str) -> AppendResult | None:
        """What an earlier append to this game with ``idempotency_key`` wrote
        (``replayed=True``, with its request_hash), or None if the key is unused."""
        with self._transaction("DEFERRED") as cur:
            return self._replay(cur, game_id, idempotency_key)

    def update_metadata(self, game_id: str, changes: Mapping[str, JSON]) -> GameRecord:
        """Merge ``changes`` (top-level keys) into the game's metadata dict."""
        metadata_json(changes)  # shape check before the transaction
        now = format_timestamp(self._clock())
        with self._transaction() as cur:
            row = cur.execute("SELECT metadata FROM games WHERE game_id = ?", (game_id,)).fetchone()
            if row is None:
                raise GameNotFound(game_id)
            merged = {**loads_payload(row[0]), **changes}
            cur.execute(
                "UPDATE games SET metadata = ?, updated_at = ? WHERE game_id = ?",
                (metadata_json(merged), now, game_id),
            )
            record = cur.execute(f"SELECT {GAME_COLUMNS} FROM games WHERE game_id = ?", (game_id,)).fetchone()
        return _game(record)

    def compare_and_set_metadata(self, game_id: str, key: str, expected: JSON, value: JSON) -> bool:
        """Set ``metadata[key]`` if it equals ``expected``, under the write lock."""
        metadata_json({key: value})  # shape check before the transaction
        now = format_timestamp(self._clock())
        with self._transaction() as cur:
            row = cur.execute("SELECT metadata FROM games WHERE game_id = ?", (game_id,)).fetchone()
            if row is None:
                raise GameNotFound(game_id)
            current = loads_payload(row[0])
            if key not in current or metadata_json({key: current[key]}) != metadata_json({key: expected}):
                return False
            current[key] = value
            cur.execute(
                "UPDATE games SET metadata = ?, updated_at = ? WHERE game_id = ?",
                (metadata_json(current), now, game_id),
            )
        return True

    # -- reads -----------------------------------------------------------------

    def load(self, game_id: str, after: int = 0, limit: int | None = None) -> list[StoredEvent]:
        """Events of a game with ``seq > after``, ascending, at most ``limit``
        (GameNotFound for an unknown game)."""
        check_page(limit)
        rows = self._read(
            f"SELECT {EVENT_COLUMNS} FROM events WHERE game_id = ? AND seq > ? ORDER BY seq LIMIT ?",
            (game_id, after, -1 if limit is None else limit),
        )
        if not rows:
            self.version(game_id)  # raises GameNotFound for an unknown game
        return [_stored(row) for row in rows]

    def version(self, game_id: str) -> int:
        """The seq of the game's last event (0 if none); GameNotFound if unknown."""
        rows = self._read("SELECT version FROM games WHERE game_id = ?", (game_id,))
        if not rows:
            raise GameNotFound(game_id)
        return int(rows[0][0])

    def get_game(self, game_id: str) -> GameRecord:
        """The game's metadata row; GameNotFound if unknown."""
        rows = self._read(f"SELECT {GAME_COLUMNS} FROM games WHERE game_id = ?", (game_id,))
        if not rows:
            raise GameNotFound(game_id)
        return _game(rows[0])

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
            where.append("status = ?")
            params.append(status)
        if game_type is not None:
            where.append("game_type = ?")
            params.append(game_type)
        if batch is not None:
            where.append("json_extract(metadata, '$.batch') = ?")
            params.append(batch)
        if cursor is not None:
            where.append("game_no < ?")
            params.append(decode_cursor(cursor))
        clause = f"WHERE {' AND '.join(where)}" if where else ""
        rows = self._read(
            f"SELECT {GAME_COLUMNS}, game_no FROM games {clause} ORDER BY game_no DESC LIMIT ?",
            (*params, limit + 1),
        )
        page = rows[:limit]
        next_cursor = encode_cursor(page[-1][7]) if len(rows) > limit else None
        return GamePage(tuple(_game(row) for row in page), next_cursor)

    def read_all(self, after_position: int = 0, limit: int = 1000) -> list[StoredEvent]:
        """The global log: every game's events with ``position > after_position``."""
        check_page(limit)
        rows = self._read(
            f"SELECT {EVENT_COLUMNS} FROM events WHERE position > ? ORDER BY position LIMIT ?",
            (after_position, limit),
        )
        return [_stored(row) for row in rows]

    def wait_for_events(self, game_id: str, after_seq: int, timeout: float) -> bool:
        """Poll the game's version every ``poll_interval`` seconds until it
        passes ``after_seq`` (True) or ``timeout`` runs out (False)."""
        deadline = time.monotonic() + max(0.0, timeout)
        while True:
            if self.version(game_id) > after_seq:
                return True
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            time.sleep(min(self._poll_interval, remaining))

    def verify_chain(self, game_id: str) -> ChainReport:
        """Recompute the game's chain from one consistent snapshot and report
        edited, removed, reordered or injected events."""
        with self._transaction("DEFERRED") as cur:
            row = cur.execute("SELECT version FROM games WHERE game_id = ?", (game_id,)).fetchone()
            if row is None:
                raise GameNotFound(game_id)
            rows = cur.execute(
                f"SELECT {EVENT_COLUMNS} FROM events WHERE game_id = ? ORDER BY seq", (game_id,)
            ).fetchall()
        return verify_events(game_id, [_stored(r) for r in rows], expected_count=int(row[0]))

    def ping(self) -> None:
        """Raise StoreUnavailable if the database file cannot be read."""
        self._read("SELECT 1")

    def close(self) -> None:
        """Close every connection this store opened (in any thread), each once
        the statement running on it (if any) is over."""
        self._closed = True
        with self._registry_lock:
            connections, self._connections = self._connections, []
        for conn, lock in connections:
            # A use outlasting the busy timeout is stuck: leave its connection
            # to the garbage collector rather than close it under the use.
            if lock.acquire(timeout=self._busy_timeout + 5):
                try:
                    with suppress(sqlite3.Error):
                        conn.close()
                finally:
                    lock.release()

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return self._closed

    # -- tournaments: organisers, batches, webhooks ------------------------------

    def create_organiser(self, organiser_id: str, name: str, token_hash: str) -> OrganiserRecord:
        """Store a new organiser; IntegrityError if the id is taken."""
        now = format_timestamp(self._clock())
        with self._transaction() as cur:
            cur.execute(
                f"INSERT INTO organisers ({_ORGANISER_COLUMNS}) VALUES (?, ?, ?, ?)",
                (organiser_id, name, token_hash, now),
            )
        return OrganiserRecord(organiser_id, name, token_hash, now)

    def get_organiser(self, organiser_id: str) -> OrganiserRecord | None:
        """The organiser, or None if unknown."""
        rows = self._read(
            f"SELECT {_ORGANISER_COLUMNS} FROM organisers WHERE organiser_id = ?", (organiser_id,)
        )
        return OrganiserRecord(*rows[0]) if rows else None

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
        batch = BatchRecord(
            batch_id, organiser_id, name, game_type, len(games), format_timestamp(self._clock())
        )

        def insert_batch(cur: sqlite3.Cursor) -> None:
            cur.execute(
                f"INSERT INTO batches ({_BATCH_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)",
                (
                    batch.batch_id,
                    batch.organiser_id,
                    batch.name,
                    batch.game_type,
                    batch.tables,
                    batch.created_at,
                ),
            )

        self._create(games, insert_batch)
        return batch

    def get_batch(self, batch_id: str) -> BatchRecord | None:
        """The batch, or None if unknown."""
        rows = self._read(f"SELECT {_BATCH_COLUMNS} FROM batches WHERE batch_id = ?", (batch_id,))
        return BatchRecord(*rows[0]) if rows else None

    def list_batches(self, organiser_id: str, limit: int = 50, cursor: str | None = None) -> BatchPage:
        """The organiser's batches newest first."""
        check_page(limit)
        before = decode_cursor(cursor) if cursor is not None else 2**63 - 1
        rows = self._read(
            f"SELECT {_BATCH_COLUMNS}, batch_no FROM batches WHERE organiser_id = ? AND batch_no < ?"
            " ORDER BY batch_no DESC LIMIT ?",
            (organiser_id, before, limit + 1),
        )
        page = rows[:limit]
        next_cursor = encode_cursor(page[-1][6]) if len(rows) > limit else None
        return BatchPage(tuple(BatchRecord(*row[:6]) for row in page), next_cursor)

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
        now = format_timestamp(self._clock())
        with self._transaction() as cur:
            head = int(cur.execute("SELECT coalesce(max(position), 0) FROM events").fetchone()[0])
            cur.execute(
                f"INSERT INTO webhooks ({_WEBHOOK_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?)",
                (webhook_id, organiser_id, url, batch_id, json.dumps(list(events)), secret, head, now),
            )
        return WebhookRecord(webhook_id, organiser_id, url, batch_id, tuple(events), secret, head, True, now)

    def get_webhook(self, webhook_id: str) -> WebhookRecord | None:
        """The webhook (active or not), or None if unknown."""
        rows = self._read(f"SELECT {_WEBHOOK_COLUMNS} FROM webhooks WHERE webhook_id = ?", (webhook_id,))
        return _webhook(rows[0]) if rows else None

    def list_webhooks(self, organiser_id: str) -> tuple[WebhookRecord, ...]:
        """The organiser's active webhooks, oldest first."""
        rows = self._read(
            f"SELECT {_WEBHOOK_COLUMNS} FROM webhooks WHERE organiser_id = ? AND active = 1 ORDER BY webhook_no",
            (organiser_id,),
        )
        return tuple(_webhook(row) for row in rows)

    def deactivate_webhook(self, webhook_id: str) -> bool:
        """Stop a webhook and fail its pending deliveries; False if it was not active."""
        with self._transaction() as cur:
            cur.execute("UPDATE webhooks SET active = 0 WHERE webhook_id = ? AND active = 1", (webhook_id,))
            if cur.rowcount == 0:
                return False
            cur.execute(
                "UPDATE webhook_deliveries SET state = 'failed', next_attempt_at = NULL, last_error = ?,"
                " lease_owner = NULL, lease_until = NULL WHERE webhook_id = ? AND state = 'pending'",
                ("the webhook was deleted", webhook_id),
            )
        return True

    # -- webhook deliveries, driven from the global log ---------------------------

    def dispatch_cursor(self) -> int:
        """The position up to which the log has been turned into deliveries."""
        return int(self._read("SELECT position FROM dispatch_cursors WHERE name = 'webhooks'")[0][0])

    def dispatch_state(self) -> DispatchState:
        """Cursor, head, webhooks registered and whether any is active, in one statement."""
        row = self._read(
            "SELECT (SELECT position FROM dispatch_cursors WHERE name = 'webhooks'),"
            " (SELECT coalesce(max(position), 0) FROM events),"
            " (SELECT count(*) FROM webhooks), EXISTS (SELECT 1 FROM webhooks WHERE active = 1)"
        )[0]
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
        ``webhooks_seen`` were counted (else write nothing: False).  The write
        lock serialises this with :meth:`create_webhook`."""
        if new_cursor < expected_cursor:
            raise ValueError(f"the cursor only moves forward ({expected_cursor} -> {new_cursor})")
        stamp = format_timestamp(now)
        with self._transaction() as cur:
            current = cur.execute("SELECT position FROM dispatch_cursors WHERE name = 'webhooks'").fetchone()[
                0
            ]
            if current != expected_cursor:
                return False
            seen = webhooks_seen
            if seen is not None and cur.execute("SELECT count(*) FROM webhooks").fetchone()[0] != seen:
                return False
            cur.executemany(
                "INSERT INTO webhook_deliveries (delivery_id, webhook_id, game_id, event, body, state, attempts,"
                " created_at, next_attempt_at) VALUES (?, ?, ?, ?, ?, 'pending', 0, ?, ?)"
                " ON CONFLICT (webhook_id, game_id, event) DO NOTHING",
                [(d.delivery_id, d.webhook_id, d.game_id, d.event, d.body, stamp, stamp) for d in deliveries],
            )
            cur.execute("UPDATE dispatch_cursors SET position = ? WHERE name = 'webhooks'", (new_cursor,))
        return True

    def claim_deliveries(
        self, owner: str, now: datetime, lease_seconds: float, limit: int
    ) -> tuple[ClaimedDelivery, ...]:
        """Lease up to ``limit`` due deliveries to ``owner`` (see the interface)."""
        check_page(limit)
        if lease_seconds <= 0:
            raise ValueError(f"lease_seconds must be positive, got {lease_seconds!r}")
        stamp = format_timestamp(now)
        if not self._read(f"SELECT 1 {_DUE} LIMIT 1", (stamp, stamp)):
            return ()  # nothing due: no write lock taken
        until = format_timestamp(now + timedelta(seconds=lease_seconds))
        with self._transaction() as cur:
            rows = cur.execute(
                "SELECT d.delivery_id, d.webhook_id, d.game_id, d.event, d.body, w.url, w.secret, d.attempts"
                f" {_DUE} ORDER BY d.next_attempt_at, d.delivery_no LIMIT ?",
                (stamp, stamp, limit),
            ).fetchall()
            cur.executemany(
                "UPDATE webhook_deliveries SET lease_owner = ?, lease_until = ? WHERE delivery_id = ?",
                [(owner, until, row[0]) for row in rows],
            )
        return tuple(ClaimedDelivery(*row) for row in rows)

    def record_attempt(self, delivery_id: str, owner: str, outcome: AttemptOutcome) -> bool:
        """Log an attempt and settle the delivery if ``owner`` holds its lease."""
        stamp = format_timestamp(outcome.attempted_at)
        next_at = None if outcome.next_attempt_at is None else format_timestamp(outcome.next_attempt_at)
        with self._transaction() as cur:
            row = cur.execute(
                "UPDATE webhook_deliveries SET state = ?, attempts = attempts + 1, next_attempt_at = ?,"
                " delivered_at = CASE WHEN ? = 'delivered' THEN ? ELSE delivered_at END,"
                " last_status_code = ?, last_error = ?, lease_owner = NULL, lease_until = NULL"
                " WHERE delivery_id = ? AND lease_owner = ? AND state = 'pending' RETURNING attempts",
                (
                    outcome.state,
                    next_at,
                    outcome.state,
                    stamp,
                    outcome.status_code,
                    outcome.error,
                    delivery_id,
                    owner,
                ),
            ).fetchone()
            if row is None:
                return False
            cur.execute(
                "INSERT INTO webhook_attempts (delivery_id, attempt, attempted_at, status_code, error, duration_ms)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (delivery_id, row[0], stamp, outcome.status_code, outcome.error, outcome.duration_ms),
            )
        return True

    def list_deliveries(self, webhook_id: str, limit: int = 50, cursor: str | None = None) -> DeliveryPage:
        """The webhook's deliveries newest first, each with its attempts."""
        check_page(limit)
        before = decode_cursor(cursor) if cursor is not None else 2**63 - 1
        with self._transaction("DEFERRED") as cur:
            rows = cur.execute(
                f"SELECT {_DELIVERY_COLUMNS}, delivery_no FROM webhook_deliveries"
                " WHERE webhook_id = ? AND delivery_no < ? ORDER BY delivery_no DESC LIMIT ?",
                (webhook_id, before, limit + 1),
            ).fetchall()
            page = rows[:limit]
            ids = [row[0] for row in page]
            attempts = (
                cur.execute(
                    "SELECT delivery_id, attempt, attempted_at, status_code, error, duration_ms FROM webhook_attempts"
                    f" WHERE delivery_id IN ({', '.join('?' * len(ids))}) ORDER BY delivery_id, attempt",
                    ids,
                ).fetchall()
                if ids
                else []
            )
        history: dict[str, list[DeliveryAttempt]] = {}
        for a in attempts:
            history.setdefault(a[0], []).append(DeliveryAttempt(*a[1:]))
        next_cursor = encode_cursor(page[-1][12]) if len(rows) > limit else None
        return DeliveryPage(
            tuple(_delivery(row, tuple(history.get(row[0], ()))) for row in page), next_cursor
        )

"""The embedded event store: one SQLite file, the default when no database URL
is configured.

* WAL mode (readers never block the writer), a busy timeout, foreign keys on.
* One connection per thread (``threading.local``), all in autocommit mode;
  every write is an explicit ``BEGIN IMMEDIATE`` transaction, which takes the
  database write lock up front, so writers in other threads *and processes*
  serialise instead of failing half-way with ``SQLITE_BUSY``.
* Global positions are ``max(position) + 1`` assigned inside that write
  transaction: transactions commit one at a time in lock order, so positions
  become visible strictly in increasing order (a reader that has seen
  position P never later sees a new event at or below P).
* Reads that need a consistent picture (``verify_chain``) run in one
  deferred transaction, i.e. one WAL snapshot.
* ``wait_for_events`` polls the game's version with a short sleep, which also
  sees writes by other processes.
* The schema is applied on open from ``events/migrations/sqlite/*.sql``.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

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
    ChainReport,
    EventStore,
    GameExists,
    GameNotFound,
    GamePage,
    GameRecord,
    IntegrityError,
    NewEvent,
    StaleVersion,
    StoredEvent,
    StoreError,
    StoreUnavailable,
)
from events.timestamps import Clock, format_timestamp, system_clock

JSON = Any

_INSERT_EVENT = (
    "INSERT INTO events (position, game_id, seq, type, schema_version, payload, recorded_at, seat,"
    " idempotency_key, prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_INSERT_GAME = (
    "INSERT INTO games (game_id, game_type, status, version, last_hash, created_at, updated_at, metadata)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
)


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
        self._connections: list[sqlite3.Connection] = []
        self._registry_lock = threading.Lock()
        self._closed = False
        migrate_sqlite(self._conn())

    @property
    def path(self) -> str:
        """The database file."""
        return self._path

    # -- connections and transactions ---------------------------------------

    def _conn(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is not None:
            return conn
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
        with self._registry_lock:
            self._connections.append(conn)
        self._local.conn = conn
        return conn

    @contextmanager
    def _transaction(self, mode: str = "IMMEDIATE") -> Iterator[sqlite3.Cursor]:
        """A transaction (``IMMEDIATE`` for writes, ``DEFERRED`` for snapshot
        reads); commits on success, rolls back on any exception."""
        conn = self._conn()
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
        try:
            return self._conn().execute(sql, params).fetchall()
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
        self, games: Sequence[tuple[str, str, Mapping[str, JSON], Sequence[NewEvent], str]]
    ) -> list[tuple[StoredEvent, ...]]:
        now = format_timestamp(self._clock())
        prepared = prepare_games(games, now)
        created: list[tuple[StoredEvent, ...]] = []
        with self._transaction() as cur:
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
                "SELECT version, last_hash, (SELECT coalesce(max(position), 0) FROM events)"
                " FROM games WHERE game_id = ?",
                (game_id,),
            ).fetchone()
            if row is None:
                raise GameNotFound(game_id)
            version, prev_hash, position = row
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
        """Close every connection this store opened (in any thread)."""
        self._closed = True
        with self._registry_lock:
            connections, self._connections = self._connections, []
        for conn in connections:
            with suppress(sqlite3.Error):
                conn.close()

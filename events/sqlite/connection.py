"""SQLite connections: one per thread, in autocommit mode, each used under
its own lock so that ``close`` (from any thread) never closes a connection
under a running statement (which would crash SQLite)."""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from typing import Any

from events.store import IntegrityError, StoreError, StoreUnavailable


def translate_error(error: sqlite3.Error) -> StoreError:
    """The store error for a driver error: refusals by constraints or triggers
    become IntegrityError, everything else (locked, I/O, closed) StoreUnavailable."""
    if isinstance(error, sqlite3.IntegrityError):
        return IntegrityError(f"SQLite refused the write: {error}")
    return StoreUnavailable(f"SQLite failed: {error}")


def create_private(path: str) -> None:
    """Create the database file readable by its owner only, unless it exists
    (SQLite gives its -wal and -shm files the database file's permissions)."""
    if path != ":memory:" and not path.startswith("file:"):
        os.close(os.open(path, os.O_CREAT | os.O_RDWR, 0o600))


class SqliteConnections:
    """Per-thread connections to one database file (see the module docs)."""

    def __init__(self, path: str, busy_timeout: float, synchronous: str) -> None:
        self.path = path
        self._busy_timeout = busy_timeout
        self._synchronous = synchronous
        self._local = threading.local()
        self._connections: list[tuple[sqlite3.Connection, threading.RLock]] = []
        self._registry_lock = threading.Lock()
        self.closed = False

    def _conn(self) -> tuple[sqlite3.Connection, threading.RLock]:
        """This thread's connection and the lock held while it is in use."""
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is not None:
            return conn, self._local.lock
        if self.closed:
            raise StoreUnavailable("the store is closed")
        try:
            create_private(self.path)
            conn = sqlite3.connect(
                self.path, timeout=self._busy_timeout, isolation_level=None, check_same_thread=False
            )
            conn.execute(f"PRAGMA busy_timeout = {int(self._busy_timeout * 1000)}")
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute(f"PRAGMA synchronous = {self._synchronous}")
            conn.execute("PRAGMA foreign_keys = ON")
        except (sqlite3.Error, OSError) as e:
            raise StoreUnavailable(f"cannot open SQLite database {self.path!r}: {e}") from e
        lock = threading.RLock()
        with self._registry_lock:
            if self.closed:
                conn.close()
                raise StoreUnavailable("the store is closed")
            self._connections.append((conn, lock))
        self._local.conn = conn
        self._local.lock = lock
        return conn, lock

    @contextmanager
    def using(self) -> Iterator[sqlite3.Connection]:
        """This thread's connection, held so that :meth:`close` (from any
        thread) waits until this use is over; StoreUnavailable once closed."""
        conn, lock = self._conn()
        with lock:
            if self.closed:
                raise StoreUnavailable("the store is closed")
            yield conn

    @contextmanager
    def transaction(self, mode: str = "IMMEDIATE") -> Iterator[sqlite3.Cursor]:
        """A transaction (``IMMEDIATE`` takes the write lock up front, so
        writers serialise instead of failing half-way with ``SQLITE_BUSY``;
        ``DEFERRED`` for snapshot reads); commits on success, rolls back on
        any exception."""
        with self.using() as conn:
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

    def read(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """The rows of one autocommit statement."""
        with self.using() as conn:
            try:
                return conn.execute(sql, params).fetchall()
            except sqlite3.Error as e:
                raise translate_error(e) from e

    def close(self) -> None:
        """Close every connection (of any thread), each once the statement
        running on it (if any) is over."""
        self.closed = True
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

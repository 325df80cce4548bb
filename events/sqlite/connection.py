"""SQLite connections: one per thread, in autocommit mode, each used under
its own lock so that ``close`` (from any thread) never closes a connection
under a running statement (which would crash SQLite).

SQLite's locks between processes are POSIX advisory locks, which belong to
the process and the file: closing *any* descriptor of the database file drops
every lock the process holds on it, those of its other connections included
(https://sqlite.org/howtocorrupt.html, section 2.2).  Another process then
believes it is alone, checkpoints and deletes the ``-wal`` file under the
writers' feet, and acknowledged writes are lost.  So nothing here opens,
closes or changes the database file (or its ``-wal`` and ``-shm``) outside
SQLite, except to create it when it does not exist yet, when no connection
to it can be open.

Connections never cross a fork (SQLite's rule too): a store opened before
``fork`` refuses to be used in the child, which opens its own (gunicorn
workers open theirs after the fork; nothing is preloaded in the master).

A connection lives as long as the thread that opened it: when the thread
ends (an event stream's pump, a short-lived worker thread) its connection is
closed, instead of staying open until the store closes.

Under gevent (``cablecar serve``'s workers) "thread" means the OS thread, not
the greenlet: gevent's patched ``threading.local`` is per greenlet, which
would open (and close) a connection per request.  The greenlets of one OS
thread share its connection, one at a time: the lock held while it is in use
is ``threading.RLock``, which gevent makes a lock owned by a greenlet, so a
second greenlet waits (cooperatively) until the first is done with it.
"""

from __future__ import annotations

import os
import sqlite3
import sys
import threading
import weakref
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from typing import Any

from events.records import IntegrityError, StoreError, StoreUnavailable


def translate_error(error: sqlite3.Error) -> StoreError:
    """The store error for a driver error: refusals by constraints or triggers
    become IntegrityError, everything else (locked, I/O, closed) StoreUnavailable."""
    if isinstance(error, sqlite3.IntegrityError):
        return IntegrityError(f"SQLite refused the write: {error}")
    return StoreUnavailable(f"SQLite failed: {error}")


#: wal_autocheckpoint of a connection used :meth:`SqliteConnections.without_waiting` (SQLite's default: 1000)
RARE_CHECKPOINT_PAGES = 10_000


class WouldWait(Exception):
    """The write lock was taken when a call run :meth:`SqliteConnections.without_waiting`
    began its first write transaction: nothing was done, the call may be made again
    where waiting is harmless."""


def create_private(path: str) -> None:
    """Create the database file readable by its owner only, if it does not
    exist (SQLite gives its -wal and -shm files the database file's
    permissions).  ``O_EXCL``: an existing file is never opened here, since
    closing that descriptor would drop the locks of the process's connections
    to it (see the module docs)."""
    if path == ":memory:" or path.startswith("file:"):
        return
    try:
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_RDWR, 0o600)
    except FileExistsError:
        return
    os.close(fd)


def _thread_local() -> Any:
    """A ``threading.local`` that is per OS thread even when gevent has patched
    ``threading`` (there it would be per greenlet: see the module docs)."""
    if "gevent.monkey" in sys.modules:
        from gevent import monkey

        if monkey.is_module_patched("threading"):
            return monkey.get_original("_thread", "_local")()
    return threading.local()


class _Held:
    """A thread's connection and the lock held while it is in use; kept in a
    ``threading.local``, so that it is dropped (and the connection closed,
    see :func:`_release`) when its thread ends."""

    __slots__ = ("__weakref__", "conn", "lock", "checkpoints_rarely")

    def __init__(self, conn: sqlite3.Connection, lock: threading.RLock) -> None:
        self.conn = conn
        self.lock = lock
        self.checkpoints_rarely = False


#: a registered connection: the connection and its lock
_Entry = tuple[sqlite3.Connection, threading.RLock]


def _release(registry: dict[int, _Entry], registry_lock: threading.Lock, key: int, timeout: float) -> None:
    """Close the connection registered under ``key`` (its thread ended), unless
    :meth:`SqliteConnections.close` took it first."""
    with registry_lock:
        entry = registry.pop(key, None)
    if entry is not None:
        _close(entry, timeout)


def _close(entry: _Entry, timeout: float) -> None:
    conn, lock = entry
    # A use outlasting the busy timeout is stuck: leave its connection to the
    # garbage collector rather than close it under the use.
    if lock.acquire(timeout=timeout):
        try:
            with suppress(sqlite3.Error):
                conn.close()
        finally:
            lock.release()


class SqliteConnections:
    """Per-thread connections to one database file (see the module docs)."""

    def __init__(self, path: str, busy_timeout: float, synchronous: str) -> None:
        self.path = path
        self._busy_timeout = busy_timeout
        self._synchronous = synchronous
        self._local = _thread_local()
        # per greenlet under gevent (patched), per thread otherwise: the caller's without_waiting()
        self._task = threading.local()
        self._connections: dict[int, _Entry] = {}
        self._registry_lock = threading.Lock()
        self._keys = iter(range(1, 1 << 62))
        self._pid = os.getpid()
        self.closed = False
        try:
            create_private(path)  # once, before this object opens any connection
        except OSError as e:
            raise StoreUnavailable(f"cannot create SQLite database {path!r}: {e}") from e

    @property
    def open_connections(self) -> int:
        """How many connections are open (one per thread that used the store and still runs)."""
        return len(self._connections)

    def _conn(self) -> tuple[sqlite3.Connection, threading.RLock]:
        """This thread's connection and the lock held while it is in use."""
        if os.getpid() != self._pid:
            raise StoreUnavailable(
                f"this SQLite store was opened by process {self._pid} before a fork: "
                "open the store again in this process (SQLite connections must not cross a fork)"
            )
        held: _Held | None = getattr(self._local, "held", None)
        if held is not None:
            return held.conn, held.lock
        if self.closed:
            raise StoreUnavailable("the store is closed")
        try:
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
        held = _Held(conn, lock)
        with self._registry_lock:
            if self.closed:
                conn.close()
                raise StoreUnavailable("the store is closed")
            key = next(self._keys)
            self._connections[key] = (conn, lock)
        done = weakref.finalize(held, _release, self._connections, self._registry_lock, key, self._busy_timeout + 5)
        # Not at interpreter exit: daemon threads may still run then (closing is the store's job).
        done.atexit = False
        self._local.held = held
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
    def without_waiting(self) -> Iterator[None]:
        """Within this block (this caller: greenlet or thread), the first
        ``IMMEDIATE`` transaction raises :class:`WouldWait` instead of waiting
        when another connection holds the write lock; later ones wait as usual.
        For a caller that must not block (a gevent worker's event loop) and
        sends the call elsewhere then: it is safe to repeat only if its first
        write transaction is also its first write."""
        self._task.first_write = True
        try:
            yield
        finally:
            self._task.first_write = False

    def _begin(self, conn: sqlite3.Connection, mode: str) -> None:
        if mode != "IMMEDIATE" or not getattr(self._task, "first_write", False):
            conn.execute(f"BEGIN {mode}")
            return
        self._task.first_write = False
        held: _Held = self._local.held
        if not held.checkpoints_rarely:
            # A commit past wal_autocheckpoint pages copies the WAL into the file (tens of ms of I/O):
            # let the waiting-allowed connections (other threads, other processes) do that, this
            # one only when the WAL grew ten times as large without them.
            conn.execute(f"PRAGMA wal_autocheckpoint = {RARE_CHECKPOINT_PAGES}")
            held.checkpoints_rarely = True
        conn.execute("PRAGMA busy_timeout = 0")
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as e:
            if e.sqlite_errorcode & 0xFF == sqlite3.SQLITE_BUSY:
                raise WouldWait() from e
            raise
        finally:
            conn.execute(f"PRAGMA busy_timeout = {int(self._busy_timeout * 1000)}")

    @contextmanager
    def transaction(self, mode: str = "IMMEDIATE") -> Iterator[sqlite3.Cursor]:
        """A transaction (``IMMEDIATE`` takes the write lock up front, so
        writers serialise instead of failing half-way with ``SQLITE_BUSY``;
        ``DEFERRED`` for snapshot reads); commits on success, rolls back on
        any exception."""
        with self.using() as conn:
            try:
                self._begin(conn, mode)
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
            entries = list(self._connections.values())
            self._connections.clear()
        if os.getpid() != self._pid:
            return  # the parent's connections, inherited by a fork: the parent closes them
        for entry in entries:
            _close(entry, self._busy_timeout + 5)

"""PostgreSQL connections: a ``psycopg_pool.ConnectionPool`` in autocommit
mode that never blocks longer than ``timeout`` seconds and replaces
connections a server restart killed, plus the schema migrated on first use
(:func:`events.migrate.migrate_postgres`, advisory-locked)."""

from __future__ import annotations

import select
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
import psycopg.errors
from psycopg_pool import ConnectionPool, PoolClosed, PoolTimeout

from events.migrate import migrate_postgres
from events.store import GameExists, IntegrityError, OutcomeUnknown, StoreError, StoreUnavailable

Conn = psycopg.Connection[Any]


def translate_error(error: psycopg.Error) -> StoreError:
    """The store error for a driver error: a taken game id becomes GameExists,
    refusals by constraints, triggers or bad data IntegrityError, anything
    else (connection lost, server failure) StoreUnavailable."""
    if isinstance(error, psycopg.errors.UniqueViolation) and error.diag.constraint_name == "games_pkey":
        return GameExists(f"a game with this id already exists: {error.diag.message_detail or error}")
    if isinstance(error, psycopg.IntegrityError | psycopg.DataError):
        return IntegrityError(f"PostgreSQL refused the write: {error}")
    return StoreUnavailable(f"PostgreSQL failed: {error}")


def _socket_readable(conn: Conn) -> bool:
    """Whether an idle connection has something to read (a server that closed
    it sent an error message or EOF); True if that cannot be told."""
    try:
        poller = select.poll()
        poller.register(conn.fileno(), select.POLLIN)
        return bool(poller.poll(0))
    except (OSError, ValueError, psycopg.Error):
        return True


class PostgresConnections:
    """The pool of one store (see the module docs)."""

    def __init__(
        self, url: str, *, min_size: int, max_size: int, timeout: float, auto_migrate: bool
    ) -> None:
        self._url = url
        self._timeout = timeout
        self._max_size = max_size
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

    def _ensure_schema(self) -> None:
        if self._schema_ready:
            return
        with self._schema_lock:
            if not self._schema_ready:
                migrate_postgres(self._url, connect_timeout=self._timeout)
                self._schema_ready = True

    @contextmanager
    def connection(self, writing: bool = False) -> Iterator[Conn]:
        """A pooled connection known to be alive; driver errors inside the
        block are translated into store errors.

        ``writing``: the block commits a write.  A link that breaks there may
        have broken after the server committed (an autocommit statement, or
        COMMIT, ran and only its answer was lost): that is OutcomeUnknown,
        never the "nothing was written" of StoreUnavailable.  A refusal the
        server answered (a constraint, a failed statement) rolled back, and
        stays what :func:`translate_error` says."""
        self._ensure_schema()
        conn = self._checkout()
        try:
            yield conn
        except psycopg.Error as e:
            if writing and conn.broken:
                raise OutcomeUnknown(f"the PostgreSQL connection broke during a write: {e}") from e
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

    def close(self) -> None:
        """Close every pooled connection."""
        self._pool.close()

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return bool(self._pool.closed)

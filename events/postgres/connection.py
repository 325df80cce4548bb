"""PostgreSQL connections: a ``psycopg_pool.ConnectionPool`` in autocommit
mode whose every wait is bounded (:mod:`events.postgres.failfast`: a pooled
connection within ``timeouts.connect``, a call within ``timeouts.held``,
dead links found by keepalives), which replaces connections a server restart
killed and, with ``session="read-write"``, connections to a server that no
longer takes writes (a demoted primary: the next one libpq finds does).

The store never migrates PostgreSQL (its role may not, and should not): on
first use it checks that every shipped migration is recorded
(:func:`events.migrations.apply.check_postgres_schema`).  Until then every use raises
:class:`~events.migrations.apply.SchemaNotMigrated` (a StoreUnavailable: 503, naming
``cablecar migrate``), said once in the log; the check is repeated at most
every :data:`RECHECK_SECONDS`, so the server comes up by itself once the
operator has migrated."""

from __future__ import annotations

import logging
import select
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
import psycopg.errors
from psycopg_pool import ConnectionPool, PoolClosed, PoolTimeout

from events.migrations.apply import SchemaNotMigrated, check_postgres_schema
from events.postgres.db_metrics import DB_FAILURES, DB_WRITE_SECONDS
from events.postgres.failfast import PRIMARY, Watchdog, conninfo
from events.postgres.timeouts import Timeouts
from events.records import GameExists, IntegrityError, OutcomeUnknown, StoreError, StoreUnavailable

Conn = psycopg.Connection[Any]

#: how long an unready schema's answer is reused before the database is asked again
RECHECK_SECONDS = 2.0

_log = logging.getLogger("cablecar.store")


#: the SQLSTATE of a creation whose recorded time is not the database's (migration 0030)
CLOCK_REFUSED = "CC001"


class ClockRefused(IntegrityError):
    """The database refused the time a write was stamped with (this process's
    estimate of its clock was off): measure again and retry."""


def translate_error(error: psycopg.Error) -> StoreError:
    """The store error for a driver error: a taken game id becomes GameExists,
    refusals by constraints, triggers or bad data IntegrityError, anything
    else (connection lost, server failure) StoreUnavailable."""
    if error.sqlstate == CLOCK_REFUSED:
        return ClockRefused(f"PostgreSQL refused the write's time: {error.diag.message_primary or error}")
    if isinstance(error, psycopg.errors.UniqueViolation) and error.diag.constraint_name == "games_pkey":
        return GameExists(f"a game with this id already exists: {error.diag.message_detail or error}")
    if isinstance(error, psycopg.IntegrityError | psycopg.DataError):
        return IntegrityError(f"PostgreSQL refused the write: {error}")
    return StoreUnavailable(f"PostgreSQL failed: {error}")


def _os_poll() -> Any:
    """The operating system's ``select.poll``, even under gevent's monkey
    patching (done before this import in a gevent worker; one done later
    leaves this the original): a zero-timeout poll never needs to wait, and
    gevent's version of it costs a turn of its event loop (~11 us) on every
    checkout."""
    gevent_monkey = sys.modules.get("gevent.monkey")
    if gevent_monkey is not None and gevent_monkey.is_module_patched("select"):
        return gevent_monkey.get_original("select", "poll")
    return select.poll


_POLL = _os_poll()


def _socket_readable(conn: Conn) -> bool:
    """Whether an idle connection has something to read (a server that closed
    it sent an error message or EOF); True if that cannot be told."""
    try:
        poller = _POLL()
        poller.register(conn.fileno(), select.POLLIN)
        return bool(poller.poll(0))
    except (OSError, ValueError, psycopg.Error):
        return True


class PostgresConnections:
    """The pool of one store (see the module docs)."""

    def __init__(
        self, url: str, *, min_size: int, max_size: int, timeouts: Timeouts | None = None, session: str = PRIMARY
    ) -> None:
        self._url = url
        self.timeouts = timeouts = timeouts or Timeouts()
        # one attempt per host: with the first host of a multi-host URL dead, a connection takes one connect
        # timeout before the next host is tried, so a request may wait for two
        self._timeout = 2 * timeouts.connect
        self._max_size = max_size
        self._schema_ready = False
        self._schema_error: tuple[float, SchemaNotMigrated] | None = None
        self._told = False  # said in the log that the schema is not ready (once is enough)
        self._schema_lock = threading.Lock()
        self._pool: ConnectionPool[Conn] = ConnectionPool(
            url,
            min_size=min_size,
            max_size=max_size,
            timeout=self._timeout,
            reconnect_timeout=max(10.0, 2 * self._timeout),
            kwargs={"autocommit": True, **conninfo(url, timeouts, session)},
            open=False,
            name="cablecar-events",
        )
        self.watchdog = Watchdog("cablecar-events")
        self._pool.open(wait=False)

    def _ensure_schema(self, conn: Conn) -> None:
        with self._schema_lock:
            if self._schema_ready:
                return
            if self._schema_error is not None and time.monotonic() < self._schema_error[0]:
                raise self._schema_error[1]
            try:
                check_postgres_schema(conn)
            except psycopg.Error as e:
                raise translate_error(e) from e
            except SchemaNotMigrated as e:
                self._schema_error = (time.monotonic() + RECHECK_SECONDS, e)
                if not self._told:
                    self._told = True
                    _log.error("%s", e)
                raise
            self._schema_ready, self._schema_error = True, None

    @contextmanager
    def connection(self, writing: bool = False, limit: float | None = None) -> Iterator[Conn]:
        """A pooled connection known to be alive (on a schema checked to be
        current); driver errors inside the block are translated into store
        errors.

        ``writing``: the block commits a write.  A link that breaks there may
        have broken after the server committed (an autocommit statement, or
        COMMIT, ran and only its answer was lost): that is OutcomeUnknown,
        never the "nothing was written" of StoreUnavailable.  A refusal the
        server answered (a constraint, a failed statement) rolled back, and
        stays what :func:`translate_error` says.

        ``limit``: how long the block may hold the connection before the
        watchdog cuts it (default ``timeouts.held``)."""
        started = time.perf_counter()
        try:
            conn = self._checkout()
        except StoreUnavailable:
            DB_FAILURES.labels("unavailable").inc()
            raise
        self.watchdog.hold(conn, self.timeouts.held if limit is None else limit)
        try:
            if not self._schema_ready:
                self._ensure_schema(conn)
            yield conn
        except psycopg.errors.ReadOnlySqlTransaction as e:
            # A standby (a demoted primary): this connection never will take writes; the next one may.
            DB_FAILURES.labels("read_only").inc()
            conn.close()
            raise StoreUnavailable(f"PostgreSQL no longer takes writes here: {e}") from e
        except psycopg.Error as e:
            if writing and conn.broken:
                DB_FAILURES.labels("unknown").inc()
                raise OutcomeUnknown(f"the PostgreSQL connection broke during a write: {e}") from e
            error = translate_error(e)
            if type(error) is StoreUnavailable:
                DB_FAILURES.labels("unavailable").inc()
            raise error from e
        else:
            if writing:
                DB_WRITE_SECONDS.observe(time.perf_counter() - started)
        finally:
            self.watchdog.release(conn)
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
            self.watchdog.hold(conn, self._timeout)
            try:
                conn.execute("SELECT 1")
                return conn
            except psycopg.Error:
                conn.close()
                self._pool.putconn(conn)
            finally:
                self.watchdog.release(conn)
        raise StoreUnavailable("every pooled connection was found dead")

    def close(self) -> None:
        """Close every pooled connection."""
        self.watchdog.stop()
        self._pool.close()

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return bool(self._pool.closed)

"""Bounded waits on PostgreSQL: connection settings and a watchdog.

A database that is down refuses connections at once; one that is cut off
(a partition, a dead host) or frozen (``SIGSTOP``, a stuck disk) answers
nothing, and without bounds a request would wait for the kernel's TCP
timeouts (minutes).  :class:`~events.postgres.timeouts.Timeouts` says how long each wait may last:

* ``connect``: one connection attempt (libpq ``connect_timeout``, per host
  of a multi-host URL), and the wait for a pooled connection;
* ``statement``: the server's ``statement_timeout``; and, since a server
  that answers nothing cannot time itself out, the :class:`Watchdog` cuts a
  connection held longer than ``statement + connect`` (its socket is shut
  down: the call fails at once, as on a lost link);
* ``idle_in_transaction``: the server's
  ``idle_in_transaction_session_timeout`` (a client that vanished inside a
  transaction does not hold its locks);
* ``keepalive``: a silent link is declared dead after about this long (TCP
  keepalives, and ``tcp_user_timeout`` for data never acknowledged).

:func:`conninfo` adds them to a URL, never overriding what the URL says, and
adds ``target_session_attrs``: ``read-write`` for the primary's pool (with a
multi-host URL, ``postgresql://db1,db2,db3/cablecar``, libpq tries each host
and keeps the one that takes writes, so a failover needs no repointing),
``prefer-standby`` for the reader's.
"""

from __future__ import annotations

import contextlib
import logging
import socket
import threading
import time
from typing import Any

import psycopg
from psycopg.conninfo import conninfo_to_dict

from events.postgres.db_metrics import DB_FAILURES
from events.postgres.timeouts import Timeouts

_log = logging.getLogger("cablecar.store")

#: the session a pool wants (libpq ``target_session_attrs``)
PRIMARY = "read-write"
STANDBY = "prefer-standby"


def conninfo(url: str, timeouts: Timeouts, session: str) -> dict[str, Any]:
    """The connection parameters to add to ``url`` (keyword arguments of
    ``psycopg.connect``): ``timeouts`` and ``target_session_attrs=session``,
    each unless ``url`` sets it; server ``options`` are appended to the URL's."""
    given = conninfo_to_dict(url)
    wanted = {**timeouts.options(), "target_session_attrs": session}
    extra = {k: v for k, v in wanted.items() if k not in given}
    if "options" in given:
        extra["options"] = f"{given['options']} {wanted['options']}"
    return extra


def _cut(conn: psycopg.Connection[Any]) -> None:
    """Shut the connection's socket down (both ways): whatever waits on it
    gets an end of file at once; the pool then drops the broken connection."""
    with contextlib.suppress(OSError, ValueError, psycopg.Error):
        sock = socket.socket(fileno=conn.pgconn.socket)
        try:
            sock.shutdown(socket.SHUT_RDWR)
        finally:
            sock.detach()  # the descriptor is libpq's: not closed here


class Watchdog:
    """Cuts connections held past their deadline (see the module docs): one
    thread per pool (a greenlet under gevent), looking twice a second."""

    def __init__(self, name: str, period: float = 0.5) -> None:
        self._name = name
        self._period = period
        self._held: dict[int, tuple[float, psycopg.Connection[Any]]] = {}
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._stopped = threading.Event()

    def hold(self, conn: psycopg.Connection[Any], seconds: float) -> None:
        """``conn`` is in use from now on, for at most ``seconds``."""
        with self._lock:
            self._held[id(conn)] = (time.monotonic() + seconds, conn)
            if self._thread is None and not self._stopped.is_set():
                self._thread = threading.Thread(target=self._run, name=f"{self._name}-watchdog", daemon=True)
                self._thread.start()

    def release(self, conn: psycopg.Connection[Any]) -> None:
        """``conn`` is back in the pool."""
        with self._lock:
            self._held.pop(id(conn), None)

    def stop(self) -> None:
        """End the thread (within its period)."""
        self._stopped.set()

    def _run(self) -> None:
        while not self._stopped.wait(self._period):
            now = time.monotonic()
            with self._lock:
                late = [(k, c) for k, (deadline, c) in self._held.items() if deadline <= now]
                for key, _ in late:
                    del self._held[key]
            for _, conn in late:
                DB_FAILURES.labels("cut").inc()
                _log.warning("%s: a database call got no answer in time: connection cut", self._name)
                _cut(conn)

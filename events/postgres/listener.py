"""LISTEN/NOTIFY wake-ups for :meth:`PostgresEventLog.wait_for_events`.

Every change of a game's version is announced by a trigger on channel
``cablecar_events`` with payload ``"<version> <game_id>"`` (delivered when
the writing transaction commits).  One :class:`VersionListener` per store
owns ONE dedicated connection and ONE daemon thread that LISTENs and wakes
the threads waiting in this process through a ``threading.Condition``.

Versions are remembered only for games somebody is waiting on, so memory
stays bounded.  Appends NOTIFY only for games recorded in ``game_watches``
(migration 0008: notifying commits are serialised by PostgreSQL, so
unconditional NOTIFYs made every append wait for every other): a game is
recorded, under this connection's backend pid, before its first wait (see
:meth:`PostgresEventLog.wait_for_events`) and its row deleted by this thread
once nobody here has waited on it for ``WATCH_TTL`` seconds (so a stream
polling in a loop does not write a row per wait).  Rows of connections that
are gone are swept when a listener connects.  When the connection drops the listener bumps its
``generation`` (waking every waiter, who then re-check the database: a
notification may have been missed) and reconnects with backoff; waiters fall
back to polling meanwhile.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg

from events.postgres.failfast import PRIMARY, conninfo
from events.postgres.timeouts import Timeouts

CHANNEL = "cablecar_events"
#: Seconds a game stays recorded in ``game_watches`` after its last waiter left.
WATCH_TTL = 30.0

log = logging.getLogger(__name__)


def parse_notification(payload: str) -> tuple[str, int] | None:
    """``(game_id, version)`` from a ``"<version> <game_id>"`` payload, or None if malformed."""
    version_text, _, game_id = payload.partition(" ")
    if not game_id or not version_text.isdigit():
        return None
    return game_id, int(version_text)


class VersionListener:
    """Tracks announced game versions for the games threads are waiting on."""

    def __init__(self, url: str, timeouts: Timeouts, idle_timeout: float = 0.5) -> None:
        """Prepare a listener on database ``url`` (the primary: notifications
        do not reach standbys); the thread starts on first use."""
        self._url = url
        self._connect_timeout = timeouts.connect
        self._conninfo = conninfo(url, timeouts, PRIMARY)
        self._idle_timeout = idle_timeout
        self._cond = threading.Condition()
        self._watchers: dict[str, int] = {}
        self._latest: dict[str, int] = {}
        self._generation = 0
        self._listening = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._start_lock = threading.Lock()
        #: backend pid of the LISTEN connection while it is up
        self._pid: int | None = None
        #: games recorded in game_watches under ``_pid``: when their last waiter left (0.0: waited on now)
        self._recorded: dict[str, float] = {}

    @property
    def listening(self) -> bool:
        """Whether the LISTEN connection is up right now."""
        return self._listening.is_set()

    def ensure_started(self, timeout: float) -> bool:
        """Start the thread if needed and wait up to ``timeout`` seconds for
        it to be listening; True if it is."""
        with self._start_lock:
            if self._stop.is_set():
                return False
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="cablecar-pg-listener", daemon=True)
                self._thread.start()
        return self._listening.wait(timeout)

    def unrecorded_pid(self, game_id: str) -> int | None:
        """The pid to record ``game_id`` under in ``game_watches`` if it is
        not recorded for the current LISTEN connection yet (None: nothing to
        do, or not listening)."""
        with self._cond:
            if self._pid is None or game_id in self._recorded:
                return None
            return self._pid

    def recorded(self, game_id: str, pid: int) -> None:
        """``game_id`` is now in ``game_watches`` under ``pid``."""
        with self._cond:
            if pid == self._pid:
                self._recorded[game_id] = 0.0 if game_id in self._watchers else time.monotonic()

    @contextmanager
    def watch(self, game_id: str) -> Iterator[None]:
        """Register interest in ``game_id`` for the duration of the block.

        Enter it *before* checking the database, so that a commit between the
        check and the wait is not missed."""
        with self._cond:
            self._watchers[game_id] = self._watchers.get(game_id, 0) + 1
        try:
            yield
        finally:
            with self._cond:
                remaining = self._watchers[game_id] - 1
                if remaining:
                    self._watchers[game_id] = remaining
                else:
                    del self._watchers[game_id]
                    self._latest.pop(game_id, None)
                    if game_id in self._recorded:
                        self._recorded[game_id] = time.monotonic()

    def wait(self, game_id: str, after_seq: int, timeout: float) -> bool:
        """Block until a version above ``after_seq`` is announced for the
        watched ``game_id`` (True), or ``timeout`` passes / the connection was
        lost (False: re-check the database)."""
        with self._cond:
            generation = self._generation
            return (
                self._cond.wait_for(
                    lambda: self._latest.get(game_id, 0) > after_seq or self._generation != generation,
                    timeout,
                )
                and self._latest.get(game_id, 0) > after_seq
            )

    def close(self) -> None:
        """Stop the thread (within ``idle_timeout``) and close its connection."""
        self._stop.set()
        thread = self._thread
        if thread is not None:
            thread.join(timeout=self._idle_timeout + self._connect_timeout + 1.0)

    # -- the thread --------------------------------------------------------

    def _run(self) -> None:
        delay = 0.1
        while not self._stop.is_set():
            try:
                with psycopg.connect(self._url, autocommit=True, **self._conninfo) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    conn.execute(
                        "DELETE FROM game_watches WHERE listener_pid NOT IN (SELECT pid FROM pg_stat_activity)"
                    )
                    with self._cond:
                        self._pid = conn.info.backend_pid
                        self._recorded.clear()
                    self._listening.set()
                    delay = 0.1
                    while not self._stop.is_set():
                        for notify in conn.notifies(timeout=self._idle_timeout):
                            self._deliver(notify.payload)
                        self._forget_idle(conn)
                    conn.execute("DELETE FROM game_watches WHERE listener_pid = pg_backend_pid()")
            except psycopg.Error as e:
                log.warning("event listener connection failed: %s", e)
            finally:
                self._listening.clear()
                with self._cond:
                    self._pid = None
                    self._generation += 1
                    self._cond.notify_all()
            if self._stop.wait(delay):
                break
            delay = min(delay * 2, 5.0)

    def _forget_idle(self, conn: psycopg.Connection[tuple[object, ...]]) -> None:
        """Delete the game_watches rows of games nobody here waited on for WATCH_TTL."""
        cutoff = time.monotonic() - WATCH_TTL
        with self._cond:
            idle = [g for g, left in self._recorded.items() if 0.0 < left < cutoff and g not in self._watchers]
        if not idle:
            return
        conn.execute(
            "DELETE FROM game_watches WHERE listener_pid = pg_backend_pid() AND game_id = ANY(%s)", (idle,)
        )
        with self._cond:
            for game_id in idle:
                if game_id not in self._watchers:
                    self._recorded.pop(game_id, None)

    def _deliver(self, payload: str) -> None:
        parsed = parse_notification(payload)
        if parsed is None:
            return
        game_id, version = parsed
        with self._cond:
            if game_id in self._watchers and version > self._latest.get(game_id, 0):
                self._latest[game_id] = version
                self._cond.notify_all()
